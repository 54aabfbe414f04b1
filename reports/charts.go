package reports

import (
	bytespkg "bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Colours: the two protocols (Okabe-Ito blue and vermillion, distinct for
// colour-blind readers too) and a palette for scenarios.
var (
	colorLocal  = color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}
	colorTiered = color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}
	colorGrey   = color.RGBA{R: 0x70, G: 0x70, B: 0x70, A: 0xff}
	palette     = []color.RGBA{
		{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff}, {0xd6, 0x27, 0x28, 0xff},
		{0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff}, {0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff},
		{0xbc, 0xbd, 0x22, 0xff}, {0x17, 0xbe, 0xcf, 0xff},
	}
	glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.RingGlyph{},
		draw.CrossGlyph{}, draw.PlusGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
)

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot returns a plot with a title and axis labels in a sans font, sized
// to be read at a glance.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.Title.Padding = vg.Points(6)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(sans, 11)
		ax.Tick.Label.Font = font.From(sans, 10)
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.TextStyle.Font = font.From(sans, 10)
	p.Add(plotter.NewGrid())
	return p
}

// legendMargin is the room beside the legend column's entries: the gap
// from the plots and a margin at the page's right edge.
const legendMargin vg.Length = 14 // points

// fallbackFontWidth is how much wider than Liberation Sans, whose metrics
// lay the charts out, a viewer without it may set the text: DejaVu Sans,
// the usual fallback on Linux (rsvg-convert here), runs about 12% wider.
const fallbackFontWidth = 1.15

func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 10)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(22)
	l.Padding = vg.Points(3) // room between entries: descenders never touch the next line
	return l
}

// svg renders plots stacked in rows (each row's plots side by side), under
// an optional page title, with an optional legend in a column on the right,
// legendW wide, or wider when its longest entry needs it: the page then
// grows by the difference, so nothing is cut off and the plots keep their
// size.
func svg(title string, rows [][]*plot.Plot, legend *plot.Legend, w, h, legendW vg.Length) ([]byte, error) {
	if legend != nil {
		r := legend.Rectangle(draw.Canvas{})
		if need := (r.Max.X-r.Min.X)*fallbackFontWidth + legendMargin; need > legendW {
			w, legendW = w+need-legendW, need
		}
	}
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	c.SetColor(color.White)
	c.Fill(dc.Rectangle.Path())
	area := dc
	if title != "" {
		sty := text.Style{Color: color.Black, Font: font.From(sans, 14), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
		dc.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(6)}, title)
		area.Max.Y -= vg.Points(28)
	}
	if legend != nil {
		area.Max.X -= legendW
		lc := dc
		lc.Min.X = area.Max.X + vg.Points(8)
		// Start below the page title and the first row's plot title, so
		// a long plot title never runs into the legend.
		lc.Max.Y = area.Max.Y - vg.Points(26)
		legend.Draw(lc)
	}
	tiles := draw.Tiles{Rows: len(rows), Cols: len(rows[0]), PadTop: vg.Points(4), PadBottom: vg.Points(4),
		PadLeft: vg.Points(4), PadRight: vg.Points(8), PadX: vg.Points(18), PadY: vg.Points(14)}
	canvases := plot.Align(rows, tiles, area)
	for i, row := range rows {
		for j, p := range row {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	var buf bytespkg.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// msTicks marks a log axis of milliseconds at 1, 2 and 5 of each decade,
// labelled in ms or s. Labels thin out as the range widens so that they
// never run into each other: all three per decade up to three decades (or
// only the 1s when sparse), one per decade up to six, one every other decade
// beyond.
type msTicks struct{ sparse bool }

func (t msTicks) Ticks(lo, hi float64) []plot.Tick {
	decades := math.Log10(hi / lo)
	every := 1 // label every n-th decade
	if decades > 6 {
		every = 2
	}
	var ticks []plot.Tick
	for d := math.Pow10(int(math.Floor(math.Log10(lo)))); d <= hi*10; d *= 10 {
		for m := 1.0; m < 10; m++ {
			v := d * m
			if v < lo*0.999 || v > hi*1.001 {
				continue
			}
			label := ""
			switch {
			case m == 1 && int(math.Round(math.Log10(d)))%every == 0:
				label = msLabel(v)
			case (m == 5 || m == 2) && !t.sparse && decades <= 3:
				label = msLabel(v)
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: label})
		}
	}
	return ticks
}

func msLabel(v float64) string {
	if v >= 1000 {
		return strconv.FormatFloat(v/1000, 'g', 4, 64) + " s"
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " ms"
}

// ratioTicks marks a log axis of ratios at 1, 2 and 5 of each decade.
type ratioTicks struct{}

func (ratioTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for d := math.Pow10(int(math.Floor(math.Log10(lo)))); d <= hi*10; d *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if v := d * m; v >= lo*0.999 && v <= hi*1.001 {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 4, 64) + "x"})
			}
		}
	}
	return ticks
}

// logRange returns a log axis range around positive values: whole 1-2-5
// steps around them.
func logRange(vals []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		return 1, 10
	}
	return stepDown(lo), stepUp(hi)
}

func stepDown(v float64) float64 {
	d := math.Pow10(int(math.Floor(math.Log10(v))))
	for _, m := range []float64{5, 2, 1} {
		if d*m <= v*1.0001 {
			return d * m
		}
	}
	return d
}

func stepUp(v float64) float64 {
	d := math.Pow10(int(math.Floor(math.Log10(v))))
	for _, m := range []float64{1, 2, 5, 10} {
		if d*m >= v*0.9999 {
			return d * m
		}
	}
	return d * 10
}

func line(xys plotter.XYs, c color.Color, width float64, dashes ...float64) (*plotter.Line, error) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.Color, l.Width = c, vg.Points(width)
	for _, d := range dashes {
		l.Dashes = append(l.Dashes, vg.Points(d))
	}
	return l, nil
}

// CDFChart draws the empirical CDF of catch-up time for both protocols over
// the compared pairs, on a log time axis (0 ms drawn at 1 ms).
func CDFChart(a *Analysis) ([]byte, error) {
	g := a.All
	p := newPlot(fmt.Sprintf("Catch-up time, add_replica to ISR join (%d pairs)", g.Compared), "catch-up time (log scale)", "fraction of pairs caught up")
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, msTicks{}
	p.X.Min, p.X.Max = logRange(append(slices.Clone(g.Local.sorted), g.Tiered.sorted...))
	p.Y.Min, p.Y.Max = 0, 1
	legend := newLegend()
	for _, s := range []struct {
		name  string
		d     Dist
		c     color.Color
		width float64
		dash  []float64
	}{{"local-log-start (KIP-405)", g.Local, colorLocal, 2.5, nil}, {"last-tiered (KIP-1023)", g.Tiered, colorTiered, 2, []float64{6, 3}}} {
		if s.d.N == 0 {
			continue
		}
		xys := plotter.XYs{{X: max(s.d.sorted[0], 1), Y: 0}}
		for i, v := range s.d.sorted {
			if i+1 < s.d.N && s.d.sorted[i+1] == v {
				continue // one step per distinct time
			}
			xys = append(xys, plotter.XY{X: max(v, 1), Y: float64(i+1) / float64(s.d.N)})
		}
		xys = append(xys, plotter.XY{X: p.X.Max, Y: 1})
		l, err := line(xys, s.c, s.width, s.dash...)
		if err != nil {
			return nil, err
		}
		l.StepStyle = plotter.PostStep
		p.Add(l)
		legend.Add(s.name, l)
		legend.Add(fmt.Sprintf("  p50 %s, p90 %s", fms(s.d.P50), fms(s.d.P90)))
	}
	return svg("", [][]*plot.Plot{{p}}, &legend, 10.5*vg.Inch, 5*vg.Inch, 3.2*vg.Inch)
}

// scenarioStyle gives each scenario (in first-appearance order) a colour and
// a glyph.
func scenarioStyle(i int) draw.GlyphStyle {
	c := palette[i%len(palette)]
	return draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: glyphs[(i/len(palette)+i)%len(glyphs)]}
}

// byScenario splits pairs by scenario, in the order of a.ByScenario.
func byScenario(a *Analysis, pairs []*ComparePair) [][]*ComparePair {
	out := make([][]*ComparePair, len(a.ByScenario))
	for _, p := range pairs {
		for i, g := range a.ByScenario {
			if g.Name == p.Scenario {
				out[i] = append(out[i], p)
			}
		}
	}
	return out
}

// PairedChart draws each compared pair as a point: x the local-log-start
// catch-up time, y the last-tiered one, log-log, with the line y = x
// (below it last-tiered was faster).
func PairedChart(a *Analysis) ([]byte, error) {
	g := a.All
	p := newPlot(fmt.Sprintf("Paired catch-up time per seed (%d pairs)", g.Compared), "local-log-start catch-up (log scale)", "last-tiered catch-up (log scale)")
	var all []float64
	for _, q := range g.compared {
		all = append(all, max(float64(q.Local.CatchUpMs), 1), max(float64(q.Tiered.CatchUpMs), 1))
	}
	lo, hi := logRange(all)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Scale, ax.Tick.Marker, ax.Min, ax.Max = plot.LogScale{}, msTicks{sparse: true}, lo, hi
	}
	diag, err := line(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}, colorGrey, 1.2, 5, 4)
	if err != nil {
		return nil, err
	}
	p.Add(diag)
	legend := newLegend()
	legend.Add("y = x (below: last-tiered faster)", diag)
	for i, ps := range byScenario(a, g.compared) {
		if len(ps) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(ps))
		for j, q := range ps {
			xys[j] = plotter.XY{X: max(float64(q.Local.CatchUpMs), 1), Y: max(float64(q.Tiered.CatchUpMs), 1)}
		}
		if err := addScenarioScatter(p, &legend, a, i, xys); err != nil {
			return nil, err
		}
	}
	return svg("", [][]*plot.Plot{{p}}, &legend, 9.5*vg.Inch, 6.5*vg.Inch, 3.2*vg.Inch)
}

// LocalLogChart is the headline chart: each compared pair's catch-up ratio
// (last-tiered / local-log-start, log scale) against the leader's local log
// fraction at add_replica, and each scenario's geometric mean as a short
// black bar at its median fraction; with --vary, one bar per scenario and
// value of the varied parameter, labelled with the value, since each value
// is its own experiment. Scenarios are not joined: a named
// scenario fixes its log, so the fraction varies between scenarios, not
// within one, and a line through them would suggest a trend no parameter
// was varied to show (a --vary sweep of one scenario shows that).
func LocalLogChart(a *Analysis) ([]byte, error) {
	g := a.All
	p := newPlot("Catch-up ratio last-tiered / local-log-start against the leader's local log",
		"leader's local log / whole log at add_replica, (LEO - LLSO) / (LEO - LSO)", "catch-up ratio (log scale)")
	var ratios []float64
	for _, q := range g.compared {
		if r, ok := q.Ratio(); ok {
			ratios = append(ratios, r)
		}
	}
	lo, hi := logRange(append(ratios, 0.9, 1.1))
	p.Y.Scale, p.Y.Tick.Marker, p.Y.Min, p.Y.Max = plot.LogScale{}, ratioTicks{}, lo, hi
	p.X.Min, p.X.Max = -0.02, 1.02
	var fracTicks plot.ConstantTicks
	for i := 0; i <= 10; i++ {
		t := plot.Tick{Value: float64(i) / 10}
		if i%2 == 0 {
			t.Label = strconv.FormatFloat(t.Value, 'f', 1, 64)
		}
		fracTicks = append(fracTicks, t)
	}
	p.X.Tick.Marker = fracTicks
	legend := newLegend()
	one, err := line(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}}, colorGrey, 1.2, 5, 4)
	if err != nil {
		return nil, err
	}
	p.Add(one)
	legend.Add("ratio 1 (below: last-tiered faster)", one)
	var bars []*plotter.Line
	var barLabels plotter.XYLabels
	for i, ps := range byScenario(a, g.compared) {
		var xys plotter.XYs
		for _, q := range ps {
			if r, ok := q.Ratio(); ok && q.Local.LocalFractionKnown {
				xys = append(xys, plotter.XY{X: q.Local.LocalFractionAtAdd, Y: r})
			}
		}
		if len(xys) == 0 {
			continue
		}
		if err := addScenarioScatter(p, &legend, a, i, xys); err != nil {
			return nil, err
		}
		for _, mg := range meanGroups(a, i, ps) {
			if math.IsNaN(mg.GeoMean) || mg.GeoMean <= 0 || math.IsNaN(mg.Fraction) {
				continue
			}
			bar, err := line(plotter.XYs{{X: mg.Fraction - 0.025, Y: mg.GeoMean}, {X: mg.Fraction + 0.025, Y: mg.GeoMean}}, color.Black, 2.5)
			if err != nil {
				return nil, err
			}
			bars = append(bars, bar)
			if mg.label != "" {
				barLabels.XYs = append(barLabels.XYs, plotter.XY{X: mg.Fraction + 0.03, Y: mg.GeoMean})
				barLabels.Labels = append(barLabels.Labels, mg.label)
			}
		}
	}
	for _, b := range bars {
		p.Add(b)
	}
	if len(barLabels.Labels) > 0 {
		labels, err := plotter.NewLabels(barLabels)
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].Font = font.From(sans, 9)
			labels.TextStyle[i].YAlign = draw.YCenter
		}
		p.Add(labels)
	}
	switch {
	case len(bars) > 0 && len(a.ByValue) > 0:
		key, _, _ := strings.Cut(a.ByValue[0].Name, "=")
		legend.Add("geometric mean, one per scenario and", bars[0])
		legend.Add("  " + key + " value (labelled)")
	case len(bars) > 0:
		legend.Add("a scenario's geometric mean", bars[0])
	}
	return svg("", [][]*plot.Plot{{p}}, &legend, 10.5*vg.Inch, 6*vg.Inch, 3.2*vg.Inch)
}

// SweepChart draws, against the varied parameter, the geometric-mean
// catch-up ratio with its 95% bootstrap interval (top) and each protocol's
// median catch-up time (bottom).
func SweepChart(in *CompareInput, a *Analysis) ([]byte, error) {
	ax := SweepAxis(in.VaryKey, in.VaryValues)
	top := newPlot("Catch-up ratio, last-tiered / local-log-start", "", "ratio (log scale)")
	bottom := newPlot("Median catch-up time", in.VaryKey, "p50 catch-up (log scale)")
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Tick.Marker = sweepTicks(ax)
		p.X.Min, p.X.Max = sweepRange(ax)
		if ax.Log {
			p.X.Scale = plot.LogScale{}
		}
	}
	order := make([]int, len(ax.X))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmpFloat(ax.X[i], ax.X[j]) })
	var pts plotter.XYs
	var bars plotter.YErrors
	var ratioVals, times []float64
	for _, i := range order {
		g := a.ByValue[i]
		times = append(times, g.Local.P50, g.Tiered.P50)
		if math.IsNaN(g.GeoMean) {
			continue
		}
		pts = append(pts, plotter.XY{X: ax.X[i], Y: g.GeoMean})
		bars = append(bars, struct{ Low, High float64 }{g.GeoMean - g.CILo, g.CIHi - g.GeoMean})
		ratioVals = append(ratioVals, g.CILo, g.CIHi)
	}
	lo, hi := logRange(append(ratioVals, 0.9, 1.1))
	top.Y.Scale, top.Y.Tick.Marker, top.Y.Min, top.Y.Max = plot.LogScale{}, ratioTicks{}, lo, hi
	legend := newLegend()
	if len(pts) > 0 {
		one, err := line(plotter.XYs{{X: ax.X[order[0]], Y: 1}, {X: ax.X[order[len(order)-1]], Y: 1}}, colorGrey, 1.2, 5, 4)
		if err != nil {
			return nil, err
		}
		top.Add(one)
		l, err := line(pts, color.Black, 2)
		if err != nil {
			return nil, err
		}
		eb, err := plotter.NewYErrorBars(struct {
			plotter.XYs
			plotter.YErrors
		}{pts, bars})
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Width = vg.Points(1.2)
		dots, _ := plotter.NewScatter(pts)
		dots.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		top.Add(l, eb, dots)
		legend.Add("ratio: geometric mean", l, dots)
		legend.Add("  (bars: 95% bootstrap interval)")
		legend.Add("ratio 1 (below: last-tiered faster)", one)
		if a.SweepBreakEvenFound {
			be, err := line(plotter.XYs{{X: a.SweepBreakEven, Y: lo}, {X: a.SweepBreakEven, Y: hi}}, color.RGBA{R: 0xcc, A: 0xff}, 1.5, 2, 2)
			if err != nil {
				return nil, err
			}
			top.Add(be)
			legend.Add("break-even: "+a.SweepBreakEvenLabel, be)
		}
	}
	tlo, thi := logRange(times)
	bottom.Y.Scale, bottom.Y.Tick.Marker, bottom.Y.Min, bottom.Y.Max = plot.LogScale{}, msTicks{}, tlo, thi
	for _, s := range []struct {
		name string
		c    color.Color
		f    func(GroupStats) float64
	}{{"local-log-start p50", colorLocal, func(g GroupStats) float64 { return g.Local.P50 }},
		{"last-tiered p50", colorTiered, func(g GroupStats) float64 { return g.Tiered.P50 }}} {
		var xys plotter.XYs
		for _, i := range order {
			if v := s.f(a.ByValue[i]); !math.IsNaN(v) {
				xys = append(xys, plotter.XY{X: ax.X[i], Y: max(v, 1)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		l, err := line(xys, s.c, 2)
		if err != nil {
			return nil, err
		}
		dots, _ := plotter.NewScatter(xys)
		dots.GlyphStyle = draw.GlyphStyle{Color: s.c, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
		bottom.Add(l, dots)
		legend.Add(s.name, l, dots)
	}
	title := "Parameter sweep: " + in.VaryKey
	if len(in.Scenarios) == 1 {
		title += " on " + in.Scenarios[0]
	}
	return svg(title, [][]*plot.Plot{{top}, {bottom}}, &legend, 10*vg.Inch, 8*vg.Inch, 2.8*vg.Inch)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sweepTicks marks a sweep axis at the swept values and nowhere else,
// labelled in the parameter's terms.
func sweepTicks(ax Axis) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(ax.X))
	for i, x := range ax.X {
		ticks[i] = plot.Tick{Value: x, Label: ax.Labels[i]}
	}
	return ticks
}

// sweepRange pads a sweep axis so the first and last labels fit: half a
// step for values placed one after another, 6% of the span otherwise (in
// log space on a log axis).
func sweepRange(ax Axis) (lo, hi float64) {
	if len(ax.X) == 0 {
		return 0, 1
	}
	lo, hi = slices.Min(ax.X), slices.Max(ax.X)
	switch {
	case !ax.Numeric:
		return lo - 0.5, hi + 0.5
	case ax.Log:
		pad := math.Pow(hi/lo, 0.06)
		return lo / pad, hi * pad
	case hi == lo:
		return lo - 1, hi + 1
	}
	pad := (hi - lo) * 0.06
	return lo - pad, hi + pad
}

// meanGroup is the statistics of the pairs a bar of LocalLogChart stands
// for, and the label beside the bar ("" without --vary).
type meanGroup struct {
	GroupStats
	label string
}

// meanGroups are the groups of scenario i's compared pairs ps whose
// geometric means LocalLogChart draws: the whole scenario, or with --vary
// one group per value of the varied parameter (each its own experiment), in
// the order the values first appear.
func meanGroups(a *Analysis, i int, ps []*ComparePair) []meanGroup {
	if len(a.ByValue) == 0 {
		return []meanGroup{{GroupStats: a.ByScenario[i]}}
	}
	key, _, _ := strings.Cut(a.ByValue[0].Name, "=")
	ax := Axis{key: key}
	var values []string
	byValue := map[string][]*ComparePair{}
	for _, q := range ps {
		if _, ok := byValue[q.VaryValue]; !ok {
			values = append(values, q.VaryValue)
		}
		byValue[q.VaryValue] = append(byValue[q.VaryValue], q)
	}
	var out []meanGroup
	for _, v := range values {
		label := v
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			label = ax.Format(f)
		}
		out = append(out, meanGroup{GroupStats: Stats(a.ByScenario[i].Name+" "+key+"="+v, byValue[v]), label: label})
	}
	return out
}

// addScenarioScatter draws scenario i's points in its own glyph and names it
// in the legend.
func addScenarioScatter(p *plot.Plot, legend *plot.Legend, a *Analysis, i int, xys plotter.XYs) error {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	s.GlyphStyle = scenarioStyle(i)
	p.Add(s)
	legend.Add(a.ByScenario[i].Name, s)
	return nil
}
