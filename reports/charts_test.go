package reports

import (
	bytespkg "bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"tierfetch/harness"
)

// TestSweepTicksAtSweptValues: a sweep chart's x axis is marked at the
// values swept and nowhere else, however they are placed.
func TestSweepTicksAtSweptValues(t *testing.T) {
	mib := func(n int64) string { return strconv.FormatInt(n<<20, 10) }
	cases := []struct {
		name           string
		values         []string
		numeric, log   bool
		wantX          []float64
		wantLabels     []string
		absentInLabels []string
	}{
		{"linear 1 4 16 MiB", []string{mib(1), mib(4), mib(16)}, true, false,
			[]float64{1 << 20, 4 << 20, 16 << 20}, []string{"1.00 MiB", "4.00 MiB", "16.00 MiB"}, []string{"2.86 MiB", "8.58 MiB"}},
		{"log 1 to 1024 MiB", []string{mib(1), mib(32), mib(1024)}, true, true,
			[]float64{1 << 20, 32 << 20, 1 << 30}, []string{"1.00 MiB", "32.00 MiB", "1.00 GiB"}, nil},
		// Off the scale, -2 goes a step and a half beyond the last value
		// on it.
		{"special value -2", []string{mib(1), mib(5), "-2"}, true, false,
			[]float64{1 << 20, 5 << 20, 5<<20 + 1.5*offScaleStep(1)*(4<<20)}, []string{"1.00 MiB", "5.00 MiB", "-2 (= retention)"}, nil},
		{"crowded: labels would collide", []string{mib(1), mib(2), mib(3), mib(1000)}, false, false,
			[]float64{0, 1, 2, 3}, []string{"1.00 MiB", "2.00 MiB", "3.00 MiB", "1000.00 MiB"}, nil},
	}
	for _, c := range cases {
		ax := SweepAxis("local_retention_bytes", c.values)
		if ax.Numeric != c.numeric || ax.Log != c.log {
			t.Errorf("%s: numeric %v log %v, want %v %v", c.name, ax.Numeric, ax.Log, c.numeric, c.log)
		}
		ticks := sweepTicks(ax)
		var xs []float64
		var labels []string
		for _, tk := range ticks {
			xs, labels = append(xs, tk.Value), append(labels, tk.Label)
		}
		if !slices.Equal(xs, c.wantX) || !slices.Equal(labels, c.wantLabels) {
			t.Errorf("%s: ticks at %v %q, want %v %q", c.name, xs, labels, c.wantX, c.wantLabels)
		}
		lo, hi := sweepRange(ax)
		if lo >= slices.Min(c.wantX) || hi <= slices.Max(c.wantX) {
			t.Errorf("%s: range [%v, %v] does not leave room around %v", c.name, lo, hi, c.wantX)
		}
		// The rendered chart shows exactly those labels on its x axes.
		in := sweepInput(c.values, []float64{0.5, 0.5, 0.5, 0.5})
		svg, err := SweepChart(in, Analyze(in))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range c.wantLabels {
			if n := bytespkg.Count(svg, []byte(">"+l+"<")); n != 2 {
				t.Errorf("%s: label %q drawn %d times, want once per plot (2)", c.name, l, n)
			}
		}
		for _, l := range c.absentInLabels {
			if bytespkg.Contains(svg, []byte(l)) {
				t.Errorf("%s: chart has a tick at %q, not a swept value", c.name, l)
			}
		}
	}
}

// sweepInput is a one-scenario sweep whose pairs at value i have the
// catch-up ratio ratios[i] (local 100 ms), two seeds each.
func sweepInput(values []string, ratios []float64) *CompareInput {
	ok := "ok"
	in := &CompareInput{Command: "x", Scenarios: []string{"s"}, Seeds: "1..2", Profile: "kip",
		VaryKey: "local_retention_bytes", VaryValues: values}
	for i, v := range values {
		for seed := uint64(1); seed <= 2; seed++ {
			p := pair("s", seed, 100, int64(math.Round(100*ratios[i])), ok, ok)
			p.VaryValue = v
			in.Pairs = append(in.Pairs, p)
		}
	}
	return in
}

// TestSweepBreakEvenOnlyAlongOneScenario: a break-even is read off a
// parameter varied on one scenario, between numeric values on either side
// of 1; never across scenarios, never from special values or ties.
func TestSweepBreakEvenOnlyAlongOneScenario(t *testing.T) {
	vals := []string{"1048576", "4194304", "16777216"}
	in := sweepInput(vals, []float64{0.5, 2, 2})
	a := Analyze(in)
	if !a.SweepBreakEvenFound {
		t.Fatalf("no break-even for ratios 0.5 -> 2 between 1 and 4 MiB")
	}
	// Linear axis, log ratio: halfway between 1 MiB and 4 MiB.
	if want := float64(1<<20+4<<20) / 2; math.Abs(a.SweepBreakEven-want) > 1 {
		t.Errorf("break-even at %v, want %v", a.SweepBreakEven, want)
	}
	two := sweepInput(vals, []float64{0.5, 2, 2})
	two.Scenarios = []string{"s", "t"}
	if Analyze(two).SweepBreakEvenFound {
		t.Errorf("break-even reported for a sweep over two scenarios")
	}
	special := sweepInput([]string{"1048576", "4194304", "-2"}, []float64{0.5, 0.5, 2})
	if Analyze(special).SweepBreakEvenFound {
		t.Errorf("break-even reported across the special value -2")
	}
	ties := sweepInput(vals, []float64{0.5, 0.5, 1})
	if Analyze(ties).SweepBreakEvenFound {
		t.Errorf("break-even reported where the ratio only reaches 1 (ties)")
	}
	// With -2 off the scale, the values on it keep their numbers: halfway
	// between 1 MiB and 4 MiB again.
	off := sweepInput([]string{"1048576", "4194304", "-2"}, []float64{0.5, 2, 1})
	if a := Analyze(off); !a.SweepBreakEvenFound || math.Abs(a.SweepBreakEven-float64(5<<20)/2) > 1 {
		t.Errorf("beside -2: break-even %v %v, want 2.5 MiB", a.SweepBreakEven, a.SweepBreakEvenFound)
	}
	// Crowded values are placed one after another: the crossing is read
	// off their numbers (log, they span 1000x: the geometric middle of 1
	// and 2 MiB) and drawn halfway between their positions 0 and 1.
	cat := sweepInput([]string{"1048576", "2097152", "3145728", "1048576000"}, []float64{0.5, 2, 2, 2})
	if a := Analyze(cat); !a.SweepBreakEvenFound || math.Abs(a.SweepBreakEven-0.5) > 1e-9 || a.SweepBreakEvenLabel != "1.41 MiB" {
		t.Errorf("categorical axis: break-even %v %q %v, want at position 0.5, 1.41 MiB", a.SweepBreakEven, a.SweepBreakEvenLabel, a.SweepBreakEvenFound)
	}
}

// TestHeadlineSaysWhyMeansDisagree: when the geometric mean of the ratios
// and the mean times point different ways, the headline says why, naming
// the scenario that weighs most.
func TestHeadlineSaysWhyMeansDisagree(t *testing.T) {
	ok := "ok"
	in := &CompareInput{Command: "x", Scenarios: []string{"short", "long"}, Seeds: "1..3", Profile: "kip"}
	for seed := uint64(1); seed <= 3; seed++ {
		in.Pairs = append(in.Pairs, pair("short", seed, 100, 50, ok, ok))
	}
	in.Pairs = append(in.Pairs, pair("long", 1, 20000, 30000, ok, ok))
	a := Analyze(in)
	if !(a.All.GeoMean < 1) {
		t.Fatalf("geometric mean %v, want < 1", a.All.GeoMean)
	}
	var buf bytespkg.Buffer
	CompareReport(&buf, in, a, nil)
	md := buf.String()
	for _, want := range []string{"**Why the means disagree**", "`long`", "longer under last-tiered"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	agree := sampleInput()
	buf.Reset()
	CompareReport(&buf, agree, Analyze(agree), nil)
	if strings.Contains(buf.String(), "Why the means disagree") {
		t.Errorf("explains a disagreement where the means agree")
	}
}

// TestLegendEntriesFitThePage: the longest legend entry ends inside the
// page, with room for a fallback font that sets text wider than the one
// the layout measures.
func TestLegendEntriesFitThePage(t *testing.T) {
	long := "hazard-log-start-above-tiered-copy-disabled-and-then-some"
	in := sampleInput()
	for i := range in.Pairs {
		if in.Pairs[i].Scenario == "b" {
			in.Pairs[i].Scenario = long
		}
	}
	in.Scenarios[1] = long
	a := Analyze(in)
	for name, chart := range map[string]func(*CompareInput, *Analysis) ([]byte, error){"paired": PairedChart, "copy": CopyChart} {
		svg, err := chart(in, a)
		if err != nil {
			t.Fatal(err)
		}
		s := string(svg)
		width := svgNumber(t, s, `<svg width="`)
		end := strings.Index(s, ">"+long+"</text>")
		if end < 0 {
			t.Fatalf("%s: no legend entry %q", name, long)
		}
		x := svgNumber(t, s[strings.LastIndex(s[:end], "<text "):], `x="`)
		l := newLegend()
		textW := float64(l.TextStyle.Rectangle(long).Max.X)
		if x+textW*fallbackFontWidth > width {
			t.Errorf("%s: the entry runs from x=%.1f for %.1f pt (%.1f in a fallback font), past the page's right edge at %.1f",
				name, x, textW, textW*fallbackFontWidth, width)
		}
	}
}

// svgNumber is the number after the first prefix in s.
func svgNumber(t *testing.T, s, prefix string) float64 {
	t.Helper()
	i := strings.Index(s, prefix)
	if i < 0 {
		t.Fatalf("no %q in the SVG", prefix)
	}
	rest := s[i+len(prefix):]
	n, err := strconv.ParseFloat(rest[:strings.IndexAny(rest, `"p`)], 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCopyChartMeanPerVariedValue: with --vary, each value of the varied
// parameter is its own experiment, so the copy chart draws a geometric mean
// per scenario and value, labelled with the value, not one across them all.
func TestCopyChartMeanPerVariedValue(t *testing.T) {
	in := sweepInput([]string{"1048576", "4194304", "16777216"}, []float64{0.5, 0.25, 0.1})
	a := Analyze(in)
	groups := meanGroups(a, 0, byScenario(a, a.All.compared)[0])
	var means []float64
	var labels []string
	for _, g := range groups {
		means, labels = append(means, math.Round(g.GeoMean*1000)/1000), append(labels, g.label)
	}
	if !slices.Equal(means, []float64{0.5, 0.25, 0.1}) || !slices.Equal(labels, []string{"1.00 MiB", "4.00 MiB", "16.00 MiB"}) {
		t.Errorf("mean groups %v %q, want one per value: 0.5 0.25 0.1 at 1, 4, 16 MiB", means, labels)
	}
	svg, err := CopyChart(in, a)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range append(labels, "geometric mean, one per scenario", "  and local_retention_bytes value") {
		if !bytespkg.Contains(svg, []byte(">"+l+"<")) {
			t.Errorf("chart lacks %q", l)
		}
	}
	if bytespkg.Contains(svg, []byte("a scenario's geometric mean")) {
		t.Error("with --vary the chart still calls its bars a scenario's geometric mean")
	}
	// Without --vary: one mean per scenario, as before.
	plain := sampleInput()
	if g := meanGroups(Analyze(plain), 0, nil); len(g) != 1 || g[0].label != "" {
		t.Errorf("without --vary: %d groups, label %q; want the scenario's one", len(g), g[0].label)
	}
}

// labelled returns the labelled ticks marker gives over [lo, hi].
func labelled(marker plot.Ticker, lo, hi float64) (values []float64, labels []string) {
	for _, tk := range marker.Ticks(lo, hi) {
		if tk.Label != "" {
			values, labels = append(values, tk.Value), append(labels, tk.Label)
		}
	}
	return values, labels
}

// checkLogAxis fails unless a log axis reads: at least three distinct
// labels, all inside the axis, and no stretch at either end
// without a label longer than the widest step between two labels (in log
// space), so the labels span the whole axis; and the axis holds data.
func checkLogAxis(t *testing.T, name string, ax plot.Axis, data []float64) {
	t.Helper()
	values, labels := labelled(ax.Tick.Marker, ax.Min, ax.Max)
	if len(labels) < 3 {
		t.Errorf("%s: %d labels %q on [%v, %v], want at least 3", name, len(labels), labels, ax.Min, ax.Max)
		return
	}
	seen := map[string]bool{}
	widest := 0.0
	for i, v := range values {
		if seen[labels[i]] || v < ax.Min*(1-1e-9) || v > ax.Max*(1+1e-9) {
			t.Errorf("%s: label %q at %v repeated or outside [%v, %v]", name, labels[i], v, ax.Min, ax.Max)
		}
		seen[labels[i]] = true
		if i > 0 {
			widest = max(widest, math.Log(v/values[i-1]))
		}
	}
	if lead, trail := math.Log(values[0]/ax.Min), math.Log(ax.Max/values[len(values)-1]); lead > widest+1e-9 || trail > widest+1e-9 {
		t.Errorf("%s: labels %q leave [%v, %v] unlabelled at an end", name, labels, ax.Min, ax.Max)
	}
	for _, d := range data {
		if d < ax.Min || d > ax.Max {
			t.Errorf("%s: datum %v outside the axis [%v, %v]", name, d, ax.Min, ax.Max)
		}
	}
}

// TestLogTicksLabelTheRange: every log axis gets at least three labels
// spread over it, whatever its range, within one decade too; within two
// decades at 1-2-5 (or denser), beyond at powers of ten, thinned when they
// are many.
func TestLogTicksLabelTheRange(t *testing.T) {
	ranges := [][2]float64{{1, 2}, {2, 5}, {5, 10}, {50, 100}, {100, 200}, {200, 500}, {100, 104}, {0.5, 2}, {0.02, 2},
		{100, 10_000}, {20, 5000}, {20, 50_000}, {1, 1e9}, {1e-3, 1e20}}
	for _, r := range ranges {
		ax := plot.Axis{Min: r[0], Max: r[1]}
		ax.Tick.Marker = msTicks
		checkLogAxis(t, fmt.Sprintf("[%v, %v]", r[0], r[1]), ax, nil)
		if _, labels := labelled(msTicks, r[0], r[1]); len(labels) > 2*maxDecadeLabels {
			t.Errorf("[%v, %v]: %d labels %q: too many to read", r[0], r[1], len(labels), labels)
		}
	}
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{50, 100, "50 ms 60 ms 70 ms 80 ms 90 ms 100 ms"}, // 1-2-5 gives two: every integer
		{100, 200, "100 ms 150 ms 200 ms"},                // every integer gives two: halves
		{100, 10_000, "100 ms 200 ms 500 ms 1 s 2 s 5 s 10 s"},
		{20, 50_000, "100 ms 1 s 10 s"},
	} {
		if _, labels := labelled(msTicks, c.lo, c.hi); strings.Join(labels, " ") != c.want {
			t.Errorf("[%v, %v]: %q, want %s", c.lo, c.hi, labels, c.want)
		}
	}
	if _, labels := labelled(ratioTicks, 0.1, 2); strings.Join(labels, " ") != "0.1x 0.2x 0.5x 1x 2x" {
		t.Errorf("ratio axis [0.1, 2]: %q", labels)
	}
}

// oneScenario is a comparison of one scenario whose catch-up times all lie
// within one decade (as omts-local-deleted's do), under profile kafka-4.3.
func oneScenario() *CompareInput {
	ok := harness.OutcomeOK
	in := &CompareInput{Command: "x", Scenarios: []string{"omts-local-deleted"}, Seeds: "1..20", Profile: "kafka-4.3"}
	for seed := uint64(1); seed <= 20; seed++ {
		in.Pairs = append(in.Pairs, pair("omts-local-deleted", seed, int64(150+9*seed), int64(55+10*seed), ok, ok))
	}
	return in
}

// TestChartsOfOneScenarioRead: the charts of a one-scenario comparison
// (times within one decade) have at least three labels on every log axis,
// spread over it, and the axes hold the data.
func TestChartsOfOneScenarioRead(t *testing.T) {
	in := oneScenario()
	a := Analyze(in)
	var times, ratios, copies []float64
	for _, p := range a.All.compared {
		times = append(times, float64(p.Local.CatchUpMs), float64(p.Tiered.CatchUpMs))
		r, _ := p.Ratio()
		c, _ := copyRatio(p)
		ratios, copies = append(ratios, r), append(copies, c)
	}
	cdf, err := cdfPage(in, a)
	if err != nil {
		t.Fatal(err)
	}
	checkLogAxis(t, "CDF x", cdf.rows[0][0].X, times)
	paired, err := pairedPage(in, a)
	if err != nil {
		t.Fatal(err)
	}
	checkLogAxis(t, "paired x", paired.rows[0][0].X, times)
	checkLogAxis(t, "paired y", paired.rows[0][0].Y, times)
	cp, err := copyPage(in, a)
	if err != nil {
		t.Fatal(err)
	}
	checkLogAxis(t, "copy x", cp.rows[0][0].X, copies)
	checkLogAxis(t, "copy y", cp.rows[0][0].Y, ratios)

	sw := sweepInput([]string{"1048576", "5242880", "41943040", "-2"}, []float64{0.6, 0.23, 0.04, 1})
	sa := Analyze(sw)
	sp, err := sweepPage(sw, sa)
	if err != nil {
		t.Fatal(err)
	}
	var gms, p50s []float64
	for _, g := range sa.ByValue {
		gms, p50s = append(gms, g.GeoMean), append(p50s, g.Local.P50, g.Tiered.P50)
	}
	checkLogAxis(t, "sweep ratio", sp.rows[0][0].Y, gms)
	checkLogAxis(t, "sweep p50", sp.rows[1][0].Y, p50s)
}

// TestChartsNameTheirProfile: every chart's page title names the scenario
// (or how many), the profile and the seeds, and the drawn page says it.
func TestChartsNameTheirProfile(t *testing.T) {
	one := oneScenario()
	two := sampleInput()
	two.Profile = "kafka-trunk"
	sw := sweepInput([]string{"1048576", "-2"}, []float64{0.5, 1})
	sw.Profile = "kafka-4.3"
	for _, c := range []struct {
		in    *CompareInput
		build func(*CompareInput, *Analysis) (*page, error)
		want  string
	}{
		{one, cdfPage, "omts-local-deleted, profile kafka-4.3, seeds 1..20"},
		{one, pairedPage, "omts-local-deleted, profile kafka-4.3, seeds 1..20"},
		{one, copyPage, "omts-local-deleted, profile kafka-4.3, seeds 1..20"},
		{two, cdfPage, "2 scenarios, profile kafka-trunk, seeds 1..4"},
		{two, pairedPage, "2 scenarios, profile kafka-trunk, seeds 1..4"},
		{two, copyPage, "2 scenarios, profile kafka-trunk, seeds 1..4"},
		{sw, sweepPage, "s, profile kafka-4.3, seeds 1..2, local_retention_bytes at 2 values"},
		{sw, copyPage, "s, profile kafka-4.3, seeds 1..2, local_retention_bytes at 2 values"},
	} {
		pg, err := c.build(c.in, Analyze(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if pg.title != c.want {
			t.Errorf("page title %q, want %q", pg.title, c.want)
		}
		svg, err := pg.svg()
		if err != nil {
			t.Fatal(err)
		}
		if !bytespkg.Contains(svg, []byte(">"+c.want+"<")) {
			t.Errorf("the drawn page does not say %q", c.want)
		}
	}
}

// TestSweepOffScaleValuesStandApart: a value off the parameter's scale
// (-2, "the same as retention") is placed after the values on it, wherever
// it was given, beyond a divider; the curve joins only the values on the
// scale, in order along it, and draws the other alone.
func TestSweepOffScaleValuesStandApart(t *testing.T) {
	values := []string{"1048576", "-2", "41943040", "5242880"}
	ax := SweepAxis("local_retention_bytes", values)
	if !ax.Numeric || !ax.Log || !slices.Equal(ax.OffScale, []bool{false, true, false, false}) {
		t.Fatalf("axis numeric %v log %v off scale %v, want a log scale with -2 off it", ax.Numeric, ax.Log, ax.OffScale)
	}
	div, ok := ax.Divider()
	if !ok || !(div > 40<<20 && div < ax.X[1]) {
		t.Errorf("divider at %v (%v), want between 40 MiB and -2's place %v", div, ok, ax.X[1])
	}
	curve := splitSweep(ax, func(i int) (float64, bool) { return float64(i + 1), true })
	if !slices.Equal(curve.onIdx, []int{0, 3, 2}) || !slices.Equal(curve.offIdx, []int{1}) {
		t.Errorf("joined %v, apart %v; want 1, 5, 40 MiB joined in order and -2 apart", curve.onIdx, curve.offIdx)
	}
	for _, xy := range curve.on {
		if xy.X == ax.X[1] {
			t.Errorf("the joined curve passes through -2's place %v", xy.X)
		}
	}
	// Drawn: the chart says what stands apart, and labels every value.
	in := sweepInput(values, []float64{0.6, 1, 0.04, 0.23})
	svg, err := SweepChart(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"off the scale, not joined:", "-2 (= retention)", "1.00 MiB", "40.00 MiB"} {
		if !bytespkg.Contains(svg, []byte(want+"<")) {
			t.Errorf("sweep chart lacks %q", want)
		}
	}
	// Up to three values off the scale each get a sixth of the axis or
	// more, so their labels have room.
	for n := 1; n <= 3; n++ {
		step := offScaleStep(n)
		if each := step / (1 + step*(float64(n)+0.5)); each < 0.16 {
			t.Errorf("%d values off the scale: each gets %.2f of the axis", n, each)
		}
	}
	// Nothing off the scale: no divider, no legend entry for it.
	plain := sweepInput([]string{"1048576", "5242880"}, []float64{0.6, 0.23})
	if _, ok := SweepAxis("local_retention_bytes", plain.VaryValues).Divider(); ok {
		t.Error("a divider with every value on the scale")
	}
	svg, err = SweepChart(plain, Analyze(plain))
	if err != nil {
		t.Fatal(err)
	}
	if bytespkg.Contains(svg, []byte("off the scale")) {
		t.Error("the legend names values off the scale where there are none")
	}
}

// TestCopyChartPlacesNoneApart: a pair whose last-tiered follower held no
// bytes at its join has no place on the log scale: it goes to a "0 (none)"
// tick left of the scale's ticks, and the legend says so only then.
func TestCopyChartPlacesNoneApart(t *testing.T) {
	in := oneScenario()
	in.Pairs[0].Tiered.LocalBytesAtJoin = 0
	pg, err := copyPage(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	x := pg.rows[0][0].X
	values, labels := labelled(x.Tick.Marker, x.Min, x.Max)
	i := slices.Index(labels, "0 (none)")
	if i < 0 {
		t.Fatalf("no 0 (none) tick among %q", labels)
	}
	for j, v := range values {
		if j != i && v <= values[i] {
			t.Errorf("tick %q at %v is not right of 0 (none) at %v", labels[j], v, values[i])
		}
	}
	if values[i] < x.Min {
		t.Errorf("0 (none) at %v is off the axis [%v, %v]", values[i], x.Min, x.Max)
	}
	svg, err := pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	if !bytespkg.Contains(svg, []byte(">0 (none): last-tiered")) {
		t.Error("the legend does not say what 0 (none) is")
	}
	svg, err = CopyChart(oneScenario(), Analyze(oneScenario()))
	if err != nil {
		t.Fatal(err)
	}
	if bytespkg.Contains(svg, []byte("0 (none)")) {
		t.Error("0 (none) drawn where every follower held bytes")
	}
}

// TestSweepLabelsHaveRoom: on a sweep chart's x axis (about
// sweepAxisWidth points wide), no two value labels run into each other,
// values off the scale included, however the values are placed.
func TestSweepLabelsHaveRoom(t *testing.T) {
	for _, values := range [][]string{
		{"1048576", "5242880", "10485760", "20971520", "41943040", "-2"}, // the default sweep
		{"1048576", "5242880", "41943040", "-2"},
		{"1048576", "4194304", "16777216", "-1", "-2"},
		{"1048576", "2097152", "3145728", "1048576000", "-2"},
		{"1048576", "1073741824"},
	} {
		ax := SweepAxis("local_retention_bytes", values)
		lo, hi := sweepRange(ax)
		// As a chart draws a tick label, in a fallback font.
		tickLabel := newPlot("", "", "").X.Tick.Label
		width := func(s string) float64 { return float64(tickLabel.Width(s)) * fallbackFontWidth }
		at := func(x float64) float64 {
			if ax.Log {
				return math.Log(x/lo) / math.Log(hi/lo) * sweepAxisWidth
			}
			return (x - lo) / (hi - lo) * sweepAxisWidth
		}
		order := make([]int, len(values))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(i, j int) int { return cmpFloat(ax.X[i], ax.X[j]) })
		for k := 1; k < len(order); k++ {
			i, j := order[k-1], order[k]
			if room, need := at(ax.X[j])-at(ax.X[i]), (width(ax.Labels[i])+width(ax.Labels[j]))/2; room < need {
				t.Errorf("%v: %q and %q are %.0f pt apart, their labels need %.0f", values, ax.Labels[i], ax.Labels[j], room, need)
			}
		}
	}
}
