package reports

import (
	bytespkg "bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
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
		{"special value -2", []string{mib(1), mib(5), "-2"}, false, false,
			[]float64{0, 1, 2}, []string{"1.00 MiB", "5.00 MiB", "-2 (= retention)"}, nil},
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
	cat := sweepInput([]string{"1048576", "4194304", "-2"}, []float64{0.5, 2, 1})
	if a := Analyze(cat); !a.SweepBreakEvenFound || a.SweepBreakEven <= 0 || a.SweepBreakEven >= 1 {
		t.Errorf("categorical axis: break-even %v %v, want between positions 0 and 1", a.SweepBreakEven, a.SweepBreakEvenFound)
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
	for name, chart := range map[string]func(*Analysis) ([]byte, error){"paired": PairedChart, "local log": LocalLogChart} {
		svg, err := chart(a)
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

// TestLocalLogChartMeanPerVariedValue: with --vary, each value of the
// varied parameter is its own experiment, so the local-log chart draws a
// geometric mean per scenario and value, labelled with the value, not one
// across them all.
func TestLocalLogChartMeanPerVariedValue(t *testing.T) {
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
	svg, err := LocalLogChart(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range append(labels, "geometric mean, one per scenario and") {
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
