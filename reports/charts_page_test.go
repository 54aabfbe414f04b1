package reports

import (
	bytespkg "bytes"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
)

// svgText is a text an SVG page draws: where it starts (x from the left,
// baseline y from the top, in points), its font size and its words.
type svgText struct {
	x, y, size float64
	s          string
}

var svgTextRE = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*font-size:([0-9.]+)px">([^<]*)</text>`)

// svgPage reads an SVG page as drawn: its width and height (points) and its
// texts in drawing order.
func svgPage(t *testing.T, svg []byte) (w, h float64, texts []svgText) {
	t.Helper()
	s := string(svg)
	w, h = svgNumber(t, s, `<svg width="`), svgNumber(t, s, `height="`)
	num := func(v string) float64 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, m := range svgTextRE.FindAllStringSubmatch(s, -1) {
		// vgsvg flips the page: a text's y is minus its height above the
		// bottom.
		texts = append(texts, svgText{x: num(m[1]), y: h + num(m[2]), size: num(m[3]), s: m[4]})
	}
	return w, h, texts
}

// find is the first text that reads s.
func find(t *testing.T, texts []svgText, s string) svgText {
	t.Helper()
	for _, tx := range texts {
		if tx.s == s {
			return tx
		}
	}
	t.Fatalf("no text %q on the page", s)
	return svgText{}
}

// width is how wide a text is set in Liberation Sans at its size.
func (tx svgText) width() float64 {
	st := pageTitleStyle()
	st.XAlign = 0
	st.Font = font.From(sans, font.Length(tx.size))
	return float64(st.Rectangle(tx.s).Max.X)
}

// TestPageTitleCentredAtTheTop: a chart's page title is centred across
// the page, whole inside it, above the plot's own title; a short one
// leaves the page at its size.
func TestPageTitleCentredAtTheTop(t *testing.T) {
	in := sampleInput()
	svg, err := CDFChart(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	w, h, texts := svgPage(t, svg)
	if w != 756 || h != 388.8 {
		t.Errorf("page %vx%v pt, want 756x388.8 (10.5x5.4 in)", w, h)
	}
	title := find(t, texts, "2 scenarios, profile kip, seeds 1..4")
	if mid := title.x + title.width()/2; math.Abs(mid-w/2) > 0.5 {
		t.Errorf("page title centred at x=%.1f, want the page's middle %.1f", mid, w/2)
	}
	ext := pageTitleStyle().FontExtents()
	if top := title.y - float64(ext.Ascent); top < 3 || top > 9 {
		t.Errorf("page title's top %.1f pt below the page's top, want about 6", top)
	}
	plotTitle := find(t, texts, "Catch-up time, add_replica to ISR join (6 pairs)")
	if title.y+float64(ext.Descent) >= plotTitle.y-plotTitle.size*0.7 {
		t.Errorf("page title's baseline at %.1f runs into the plot's title at %.1f", title.y, plotTitle.y)
	}
}

// TestLongPageTitleWidensThePage: a page title wider than the page widens
// it, so that the title, centred as laid out, ends legendMargin inside the
// page's right edge in the wider fallback font (which runs it on to the
// right), and no further.
func TestLongPageTitleWidensThePage(t *testing.T) {
	in := sampleInput()
	long := "hazard-log-start-above-tiered-copy-disabled-with-a-mutant-and-a-varied-value"
	for i := range in.Pairs {
		if in.Pairs[i].Scenario == "a" {
			in.Pairs[i].Scenario = long
		}
	}
	in.Scenarios = []string{long}
	in.Pairs = in.Pairs[:4]
	in.Profile = "kafka-trunk-with-kip-1023"
	svg, err := CDFChart(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	w, _, texts := svgPage(t, svg)
	title := find(t, texts, long+", profile kafka-trunk-with-kip-1023, seeds 1..4")
	tw := title.width()
	if tw*fallbackFontWidth < 756 {
		t.Fatalf("title %.0f pt wide: not long enough to test", tw)
	}
	if mid := title.x + tw/2; math.Abs(mid-w/2) > 0.5 {
		t.Errorf("page title centred at x=%.1f, want %.1f", mid, w/2)
	}
	if end := title.x + tw*fallbackFontWidth + float64(legendMargin); math.Abs(w-end) > 0.5 {
		t.Errorf("page %.1f pt wide; the title, %.1f pt from x=%.1f (%.1f in a fallback font), wants it %.1f",
			w, tw, title.x, tw*fallbackFontWidth, end)
	}
}

// TestLongLegendWidensThePageOnly: a legend entry longer than the legend's
// column widens the page by what it needs, no more: the plots keep their
// place and size (their tick labels stay where they were), and the page
// ends within legendMargin of the entry's end in the fallback font. The
// legend starts below the plot's title.
func TestLongLegendWidensThePageOnly(t *testing.T) {
	long := "hazard-log-start-above-tiered-copy-disabled-and-then-some"
	short, wide := sampleInput(), sampleInput()
	for i := range wide.Pairs {
		if wide.Pairs[i].Scenario == "b" {
			wide.Pairs[i].Scenario = long
		}
	}
	wide.Scenarios[1] = long
	for name, chart := range map[string]func(*CompareInput, *Analysis) ([]byte, error){"paired": PairedChart, "copy": CopyChart} {
		before, err := chart(short, Analyze(short))
		if err != nil {
			t.Fatal(err)
		}
		after, err := chart(wide, Analyze(wide))
		if err != nil {
			t.Fatal(err)
		}
		w0, _, texts0 := svgPage(t, before)
		w, _, texts := svgPage(t, after)
		entry := find(t, texts, long)
		end := entry.x + entry.width()*fallbackFontWidth
		if w < end || w > end+float64(legendMargin) {
			t.Errorf("%s: page %.1f pt wide (%.1f with short names), the longest entry ends at %.1f in a fallback font: want the page to end within %v pt after it",
				name, w, w0, end, legendMargin)
		}
		for _, l := range []string{"100 ms", "200 ms", "400 ms", "0.5x", "1x", "2x"} {
			var at0, at []float64
			for _, tx := range texts0 {
				if tx.s == l {
					at0 = append(at0, tx.x, tx.y)
				}
			}
			for _, tx := range texts {
				if tx.s == l {
					at = append(at, tx.x, tx.y)
				}
			}
			if !slices.Equal(at0, at) {
				t.Errorf("%s: tick label %q at %v with short names, at %v with a long one: the plot moved", name, l, at0, at)
			}
		}
		first := texts[1] // the page title, then the legend
		var plotTitle svgText
		for _, tx := range texts {
			if tx.size == 13 {
				plotTitle = tx
			}
		}
		if first.y-first.size*0.8 <= plotTitle.y {
			t.Errorf("%s: the legend's first entry (baseline %.1f) starts above the plot title's baseline %.1f (%q)", name, first.y, plotTitle.y, plotTitle.s)
		}
	}
}

// pathYs are the distinct heights, in order, of the first path drawn in
// style (an SVG style attribute's text) with more than two points.
func pathYs(t *testing.T, svg []byte, style string) []float64 {
	t.Helper()
	re := regexp.MustCompile(`<path d="([^"]*)" style="` + regexp.QuoteMeta(style) + `"`)
	for _, m := range re.FindAllStringSubmatch(string(svg), -1) {
		pts := strings.FieldsFunc(m[1], func(r rune) bool { return r == 'M' || r == 'L' })
		if len(pts) <= 2 {
			continue // a legend's thumbnail
		}
		var ys []float64
		for _, p := range pts {
			_, y, _ := strings.Cut(p, ",")
			v, err := strconv.ParseFloat(y, 64)
			if err != nil {
				t.Fatal(err)
			}
			if len(ys) == 0 || ys[len(ys)-1] != v {
				ys = append(ys, v)
			}
		}
		return ys
	}
	t.Fatalf("no path drawn in %q", style)
	return nil
}

// TestCDFChartSteps: the CDF chart steps up once per distinct catch-up
// time, to the share of pairs caught up by then, for each protocol, and
// its legend gives each protocol's p50 and p90.
func TestCDFChartSteps(t *testing.T) {
	in := sampleInput() // compared: local 100 100 100 100 200 400, tiered 50 50 100 100 100 200
	svg, err := CDFChart(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		style, legend string
		want          []float64
	}{
		{"fill:none;stroke:#0072B2;stroke-width:2.5", "  p50 100 ms, p90 400 ms", []float64{0, 4.0 / 6, 5.0 / 6, 1}},
		{"fill:none;stroke:#D55E00;stroke-width:2;stroke-dasharray:6,3", "  p50 100 ms, p90 200 ms", []float64{0, 2.0 / 6, 5.0 / 6, 1}},
	} {
		ys := pathYs(t, svg, c.style)
		var got []float64
		for _, y := range ys {
			got = append(got, math.Round((y-ys[0])/(ys[len(ys)-1]-ys[0])*1000)/1000)
		}
		var want []float64
		for _, f := range c.want {
			want = append(want, math.Round(f*1000)/1000)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: steps to %v, want %v", c.legend, got, want)
		}
		_, _, texts := svgPage(t, svg)
		find(t, texts, c.legend)
	}
}

// TestChartPageSizes: each chart's page has its size when nothing in it
// needs more room.
func TestChartPageSizes(t *testing.T) {
	in := sampleInput()
	a := Analyze(in)
	for _, c := range []struct {
		name string
		svg  func() ([]byte, error)
		w, h float64
	}{
		{"cdf", func() ([]byte, error) { return CDFChart(in, a) }, 756, 388.8},
		{"paired", func() ([]byte, error) { return PairedChart(in, a) }, 684, 496.8},
		{"copy", func() ([]byte, error) { return CopyChart(in, a) }, 756, 460.8},
	} {
		svg, err := c.svg()
		if err != nil {
			t.Fatal(err)
		}
		if w, h, _ := svgPage(t, svg); w != c.w || h != c.h {
			t.Errorf("%s: page %vx%v pt, want %vx%v", c.name, w, h, c.w, c.h)
		}
	}
}

// TestCopyChartAxisAndMissing: the copy chart's x axis spans the copy
// ratios (bytes held at join, last-tiered over local-log-start) and 1; a
// pair whose local-log-start follower held no bytes is not drawn, and the
// legend says so.
func TestCopyChartAxisAndMissing(t *testing.T) {
	in := sampleInput()
	for i := range in.Pairs {
		in.Pairs[i].Local.LocalBytesAtJoin, in.Pairs[i].Tiered.LocalBytesAtJoin = 5000, 1000 // 0.2
	}
	in.Pairs[0].Local.LocalBytesAtJoin = 0
	a := Analyze(in)
	pg, err := copyPage(in, a)
	if err != nil {
		t.Fatal(err)
	}
	// From 0.2 (less the mean's bar, 0.2/1.1 to 0.2*1.1) to 1.
	if x := pg.rows[0][0].X; x.Min < 0.18 || x.Min > 0.2 || x.Max != 1 {
		t.Errorf("x axis [%v, %v], want [0.2/1.1, 1] around copy ratio 0.2 and 1", x.Min, x.Max)
	}
	svg, err := pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	_, _, texts := svgPage(t, svg)
	find(t, texts, "not drawn: 1 pairs whose local-log-start")
}

// pathXs are the x coordinates of every path drawn in style with exactly
// two points (a line segment), in drawing order, each as its two ends.
func pathXs(t *testing.T, svg []byte, style string) [][2]float64 {
	t.Helper()
	re := regexp.MustCompile(`<path d="M([-0-9.]+),[-0-9.]+L([-0-9.]+),[-0-9.]+" style="` + regexp.QuoteMeta(style) + `"`)
	var out [][2]float64
	for _, m := range re.FindAllStringSubmatch(string(svg), -1) {
		a, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		b, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]float64{a, b})
	}
	return out
}

// TestCopyChartNoneAndMeanBar: on the copy chart, "0 (none)" stands 15% of
// the log scale's width left of its low end (a factor of 2 at least), the
// axis starts a little further left, a dotted divider stands halfway
// between them, and a scenario's mean is a bar centred on its median copy
// ratio, 10% to either side.
func TestCopyChartNoneAndMeanBar(t *testing.T) {
	in := oneScenario()
	in.Pairs = in.Pairs[:5]
	for i, b := range []int64{5, 100, 100, 1000, 0} { // copy ratios 0.005 0.1 0.1 1 0: median 0.1
		in.Pairs[i].Local.LocalBytesAtJoin, in.Pairs[i].Tiered.LocalBytesAtJoin = 1000, b
	}
	pg, err := copyPage(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	x := pg.rows[0][0].X
	lo, hi := 0.005, 1.0
	var zero float64
	for _, tk := range x.Tick.Marker.Ticks(x.Min, x.Max) {
		if tk.Label == "0 (none)" {
			zero = tk.Value
		}
	}
	if share := math.Log(lo/zero) / math.Log(hi/lo); math.Abs(share-0.15) > 1e-6 {
		t.Errorf("0 (none) at %v: %.3f of the scale [%v, %v] left of it, want 0.15", zero, share, lo, hi)
	}
	if share := math.Log(zero/x.Min) / math.Log(hi/zero); math.Abs(share-0.04) > 1e-6 || x.Max != hi {
		t.Errorf("axis [%v, %v]: starts %.3f of the rest left of 0 (none) at %v, want 0.04, and ends at %v", x.Min, x.Max, share, zero, hi)
	}
	svg, err := pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	// Where a value is drawn, from the centres of the labels 0.01 and 0.1.
	_, _, texts := svgPage(t, svg)
	c1, c2 := find(t, texts, "0.01"), find(t, texts, "0.1")
	x1, x2 := c1.x+c1.width()/2, c2.x+c2.width()/2
	at := func(v float64) float64 { return x1 + (math.Log10(v)+2)*(x2-x1) }
	div := pathXs(t, svg, "fill:none;stroke:#707070;stroke-dasharray:1,3")
	if want := (at(zero) + at(lo)) / 2; len(div) != 1 || math.Abs(div[0][0]-want) > 0.5 || math.Abs(div[0][1]-want) > 0.5 {
		t.Errorf("divider at %v, want one upright at x=%.1f, halfway between 0 (none) and %v", div, want, lo)
	}
	bars := pathXs(t, svg, "fill:none;stroke:#000000;stroke-width:2.5")
	if len(bars) != 2 { // the legend's, the scenario's
		t.Fatalf("mean bars %v, want the legend's and one", bars)
	}
	if b := bars[1]; math.Abs(b[0]-at(0.1/1.1)) > 0.5 || math.Abs(b[1]-at(0.1*1.1)) > 0.5 {
		t.Errorf("mean bar from x=%.1f to %.1f, want %.1f to %.1f (0.1, 10%% either side)", b[0], b[1], at(0.1/1.1), at(0.1*1.1))
	}
}

// TestCopyChartMeanLabels: with --vary, each mean bar's value label starts
// just right of the bar, at its height.
func TestCopyChartMeanLabels(t *testing.T) {
	in := sweepInput([]string{"1048576", "4194304", "16777216"}, []float64{0.5, 0.25, 0.1})
	svg, err := CopyChart(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	_, _, texts := svgPage(t, svg)
	bars := pathXs(t, svg, "fill:none;stroke:#000000;stroke-width:2.5")[1:]
	for i, l := range []string{"1.00 MiB", "4.00 MiB", "16.00 MiB"} {
		tx := find(t, texts, l)
		if end := bars[i][1]; tx.x < end || tx.x > end+5 {
			t.Errorf("%s starts at x=%.1f, its bar ends at %.1f: want the label just right of it", l, tx.x, end)
		}
	}
}

// TestSweepChartLegend: a sweep chart's legend names the ratio curve and
// each protocol's median, one value on the scale and one off it too; a
// protocol with no median at any value is not named. Its page is 10x8 in,
// 2.6 pt wider for its legend's longest entry.
func TestSweepChartLegend(t *testing.T) {
	for _, values := range [][]string{{"1048576", "4194304", "16777216"}, {"1048576", "-2"}} {
		in := sweepInput(values, []float64{0.5, 0.25, 0.1})
		svg, err := SweepChart(in, Analyze(in))
		if err != nil {
			t.Fatal(err)
		}
		w, h, texts := svgPage(t, svg)
		for _, l := range []string{"ratio: geometric mean", "  (bars: 95% bootstrap interval)", "local-log-start p50", "last-tiered p50"} {
			find(t, texts, l)
		}
		if len(values) == 3 && (w != 722.6 || h != 576) {
			t.Errorf("%v: page %vx%v pt, want 722.6x576", values, w, h)
		}
	}
	in := sweepInput([]string{"1048576", "4194304"}, []float64{0.5, 0.25})
	for i := range in.Pairs {
		in.Pairs[i].Local.CaughtUp, in.Pairs[i].Local.Outcome = false, "timeout"
	}
	svg, err := SweepChart(in, Analyze(in))
	if err != nil {
		t.Fatal(err)
	}
	_, _, texts := svgPage(t, svg)
	for _, tx := range texts {
		if strings.HasSuffix(tx.s, " p50") {
			t.Errorf("legend names %q where no pair caught up", tx.s)
		}
	}
}

// TestSweepChartErrorBarsAndRange: a sweep chart's error bars run from
// each value's bootstrap interval's low end to its high end; its curve
// joins two or more values on the scale, and one alone is a dot, no line;
// its x axis leaves 6% of the values' span (in log space on a log axis)
// beyond the first and the last.
func TestSweepChartErrorBarsAndRange(t *testing.T) {
	in := sweepInput([]string{"1048576", "4194304", "16777216"}, []float64{0.5, 0.25, 0.1})
	in.Pairs[1].Tiered.CatchUpMs, in.Pairs[3].Tiered.CatchUpMs = 100, 50 // ratios 0.5 and 1, 0.25 and 0.5
	a := Analyze(in)
	svg, err := SweepChart(in, a)
	if err != nil {
		t.Fatal(err)
	}
	_, _, texts := svgPage(t, svg)
	perDecade := find(t, texts, "0.1x").y - find(t, texts, "1x").y
	var bars [][2]float64
	re := regexp.MustCompile(`<path d="M([-0-9.]+),([-0-9.]+)L([-0-9.]+),([-0-9.]+)" style="fill:none;stroke:#000000;stroke-width:1.2"`)
	for _, m := range re.FindAllStringSubmatch(string(svg), -1) {
		if m[1] == m[3] { // upright: the bar, not a cap
			lo, _ := strconv.ParseFloat(m[2], 64)
			hi, _ := strconv.ParseFloat(m[4], 64)
			bars = append(bars, [2]float64{lo, hi})
		}
	}
	if len(bars) != 3 {
		t.Fatalf("%d error bars, want 3", len(bars))
	}
	for i, g := range a.ByValue {
		if got, want := bars[i][1]-bars[i][0], perDecade*math.Log10(g.CIHi/g.CILo); math.Abs(got-want) > 0.5 {
			t.Errorf("%s: error bar %.1f pt long, want %.1f (from %v to %v)", g.Name, got, want, g.CILo, g.CIHi)
		}
	}
	if ys := pathYs(t, svg, "fill:none;stroke:#000000;stroke-width:2"); len(ys) != 3 {
		t.Errorf("the ratio's line passes %d heights, want the 3 values'", len(ys))
	}
	one := sweepInput([]string{"1048576", "-2"}, []float64{0.5, 0.25})
	svg, err = SweepChart(one, Analyze(one))
	if err != nil {
		t.Fatal(err)
	}
	if bytespkg.Contains(svg, []byte(`style="fill:none;stroke:#000000;stroke-width:2"`)) {
		t.Error("a line drawn through the one value on the scale")
	}
	for _, values := range [][]string{{"1048576", "4194304", "16777216"}, {"1048576", "33554432", "1073741824"}} {
		ax := SweepAxis("local_retention_bytes", values)
		lo, hi := sweepRange(ax)
		first, last := ax.X[0], ax.X[len(ax.X)-1]
		pos := func(v float64) float64 { return v }
		if ax.Log {
			pos = math.Log
		}
		span := pos(last) - pos(first)
		if l, r := (pos(first)-pos(lo))/span, (pos(hi)-pos(last))/span; math.Abs(l-0.06) > 1e-9 || math.Abs(r-0.06) > 1e-9 {
			t.Errorf("%v (log %v): the axis [%v, %v] leaves %.3f and %.3f of the span at its ends, want 0.06", values, ax.Log, lo, hi, l, r)
		}
	}
}
