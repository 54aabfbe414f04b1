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

// tickLabelWidth is how wide, in points, a tick label may be drawn: as
// newPlot sets it, in the wider fallback font.
func tickLabelWidth(label string) float64 {
	sty := text.Style{Font: font.From(sans, 10), Handler: plot.DefaultTextHandler}
	return float64(sty.Rectangle(label).Max.X) * fallbackFontWidth
}

// pageTitleStyle is the style of a page's title, centred at its top.
func pageTitleStyle() text.Style {
	return text.Style{Color: color.Black, Font: font.From(sans, 14), XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
}

// svg renders plots stacked in rows (each row's plots side by side), under
// an optional page title, with an optional legend in a column on the right,
// legendW wide, or wider when its longest entry needs it: the page then
// grows by the difference, so nothing is cut off and the plots keep their
// size. The page also grows to fit a long title.
func svg(title string, rows [][]*plot.Plot, legend *plot.Legend, w, h, legendW vg.Length) ([]byte, error) {
	if legend != nil {
		r := legend.Rectangle(draw.Canvas{})
		if need := (r.Max.X-r.Min.X)*fallbackFontWidth + legendMargin; need > legendW {
			w, legendW = w+need-legendW, need
		}
	}
	if title != "" {
		// The title starts half its width (as laid out) left of the
		// middle, and a wider fallback font runs it on to the right only:
		// it ends at w/2 + tw*(fallbackFontWidth-1/2).
		r := pageTitleStyle().Rectangle(title)
		if need := (r.Max.X-r.Min.X)*(2*fallbackFontWidth-1) + 2*legendMargin; need > w {
			w = need
		}
	}
	c := vgsvg.New(w, h)
	dc := draw.New(c)
	c.SetColor(color.White)
	c.Fill(dc.Rectangle.Path())
	area := dc
	if title != "" {
		dc.FillText(pageTitleStyle(), vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(6)}, title)
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

// minLogLabels is the fewest labelled ticks a log axis gets, and
// maxDecadeLabels the most powers of ten it labels before it labels only
// every other (or third, ...) one.
const (
	minLogLabels    = 3
	maxDecadeLabels = 7
)

// logMantissas are the sets of ticks within a decade a log axis tries, from
// sparse to dense, when its powers of ten alone give fewer than
// minLogLabels labels: 1-2-5, every integer, then finer steps for a range
// within one decade.
var logMantissas = [][]float64{
	{1, 2, 5},
	{1, 2, 3, 4, 5, 6, 7, 8, 9},
	{1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9},
	{1, 1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9},
	{1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.2, 2.4, 2.6, 2.8, 3, 3.2, 3.4, 3.6, 3.8, 4, 4.2, 4.4, 4.6, 4.8,
		5, 5.5, 6, 6.5, 7, 7.5, 8, 8.5, 9, 9.5},
}

// logTicks marks a log axis with labelled ticks spread over its whole
// range, written by format: on an axis of more than two decades the powers
// of ten when they give at least minLogLabels labels (every other one, or
// every third, ... when there are more than maxDecadeLabels), otherwise
// the sparsest set of logMantissas that does, so that an axis within one
// decade is labelled too; unlabelled minor ticks at the next denser set.
type logTicks struct{ format func(float64) string }

func (t logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil // plot.DefaultTicks panics on an empty range
	}
	if !(lo > 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	decades := logValues(lo, hi, []float64{1})
	labels := decades
	if math.Log10(hi/lo) <= 2+1e-9 {
		labels = nil // within two decades, 1-2-5 at least
	}
	for every := 2; len(labels) > maxDecadeLabels; every++ {
		labels = nil
		for _, v := range decades {
			if int(math.Round(math.Log10(v)))%every == 0 {
				labels = append(labels, v)
			}
		}
	}
	minors := decades
	if math.Log10(hi/lo) <= 6 {
		minors = logValues(lo, hi, logMantissas[1])
	}
	for i := 0; len(labels) < minLogLabels && i < len(logMantissas); i++ {
		labels = logValues(lo, hi, logMantissas[i])
		if i+1 < len(logMantissas) && i > 0 {
			minors = logValues(lo, hi, logMantissas[i+1])
		}
	}
	if len(labels) < minLogLabels { // narrower than the finest set: linear steps
		labels, minors = nil, nil
		for _, tk := range (plot.DefaultTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Value)
			}
		}
	}
	var ticks []plot.Tick
	for _, v := range labels {
		ticks = append(ticks, plot.Tick{Value: v, Label: t.format(v)})
	}
	for _, v := range minors {
		if !slices.ContainsFunc(labels, func(l float64) bool { return math.Abs(l-v) <= 1e-9*v }) {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	slices.SortStableFunc(ticks, func(a, b plot.Tick) int { return cmpFloat(a.Value, b.Value) })
	return ticks
}

// logValues are the values m * 10^k within [lo, hi] for every m of
// mantissas, in increasing order.
func logValues(lo, hi float64, mantissas []float64) []float64 {
	var out []float64
	for e := int(math.Floor(math.Log10(lo))); math.Pow10(e) <= hi; e++ {
		for _, m := range mantissas {
			// m * 10^e, rounded to the digits the mantissa has, so 1.2e-1
			// is 0.12 and not 0.12000000000000001.
			v, _ := strconv.ParseFloat(strconv.FormatFloat(m, 'f', -1, 64)+"e"+strconv.Itoa(e), 64)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				out = append(out, v)
			}
		}
	}
	return out
}

// msTicks labels a log axis of milliseconds in ms or s; ratioTicks a log
// axis of ratios.
var (
	msTicks    = logTicks{format: msLabel}
	ratioTicks = logTicks{format: func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) + "x" }}
)

func msLabel(v float64) string {
	if v >= 1000 {
		s := strconv.FormatFloat(v/1000, 'g', 4, 64)
		if strings.Contains(s, "e") { // 10,000 s and more: whole seconds, not 1e+04
			s = strconv.FormatFloat(math.Round(v/1000), 'f', -1, 64)
		}
		return s + " s"
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " ms"
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
	lo, hi = stepDown(lo), stepUp(hi)
	if !(hi > lo) { // one value on a step: a range around it (an empty range has no ticks)
		hi = stepUp(lo * 1.5)
	}
	return lo, hi
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

// page is a chart before it is drawn: what svg lays out. Tests read its
// plots (titles, axes, ticks) to check what a chart shows.
type page struct {
	title         string
	rows          [][]*plot.Plot
	legend        *plot.Legend
	w, h, legendW vg.Length
}

func (pg *page) svg() ([]byte, error) {
	return svg(pg.title, pg.rows, pg.legend, pg.w, pg.h, pg.legendW)
}

// render draws the page build makes.
func render(pg *page, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return pg.svg()
}

// chartSubject says what a comparison's charts are about, for their page
// title: the scenario (or how many), the profile and the seeds, and the
// varied parameter.
func chartSubject(in *CompareInput) string {
	s := fmt.Sprintf("%d scenarios", len(in.Scenarios))
	switch {
	case in.Generated:
		s = "generated scenarios"
	case len(in.Scenarios) == 1:
		s = in.Scenarios[0]
	}
	s += ", profile " + in.Profile + ", " + seedsText(in.Seeds)
	if in.VaryKey != "" {
		s += fmt.Sprintf(", %s at %d values", in.VaryKey, len(in.VaryValues))
	}
	return s
}

// seedsText is "seeds A..B", or "seed N" for one.
func seedsText(seeds string) string {
	if strings.Contains(seeds, "..") {
		return "seeds " + seeds
	}
	return "seed " + seeds
}

// TimelineTitle is the page title of a timeline: the scenario, the
// profile, the seed, and what else sets the run apart ("" for nothing),
// such as a varied value or a mutant.
func TimelineTitle(scenario, profile string, seed uint64, also string) string {
	s := fmt.Sprintf("%s, profile %s, seed %d", scenario, profile, seed)
	if also != "" {
		s += ", " + also
	}
	return s
}

// CDFChart draws the empirical CDF of catch-up time for both protocols over
// the compared pairs, on a log time axis (0 ms drawn at 1 ms).
func CDFChart(in *CompareInput, a *Analysis) ([]byte, error) { return render(cdfPage(in, a)) }

func cdfPage(in *CompareInput, a *Analysis) (*page, error) {
	g := a.All
	p := newPlot(chartWords(in, fmt.Sprintf("Catch-up time, add_replica to ISR join (%d pairs)", g.Compared)), chartWords(in, "catch-up time (log scale)"), chartWords(in, "fraction of pairs caught up"))
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, msTicks
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
	return &page{title: chartSubject(in), rows: [][]*plot.Plot{{p}}, legend: &legend, w: 10.5 * vg.Inch, h: 5.4 * vg.Inch, legendW: 3.2 * vg.Inch}, nil
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
func PairedChart(in *CompareInput, a *Analysis) ([]byte, error) { return render(pairedPage(in, a)) }

func pairedPage(in *CompareInput, a *Analysis) (*page, error) {
	g := a.All
	p := newPlot(chartWords(in, fmt.Sprintf("Paired catch-up time per seed (%d pairs)", g.Compared)), chartWords(in, "local-log-start catch-up (log scale)"), chartWords(in, "last-tiered catch-up (log scale)"))
	var all []float64
	for _, q := range g.compared {
		all = append(all, max(float64(q.Local.CatchUpMs), 1), max(float64(q.Tiered.CatchUpMs), 1))
	}
	lo, hi := logRange(all)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Scale, ax.Tick.Marker, ax.Min, ax.Max = plot.LogScale{}, msTicks, lo, hi
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
	return &page{title: chartSubject(in), rows: [][]*plot.Plot{{p}}, legend: &legend, w: 9.5 * vg.Inch, h: 6.9 * vg.Inch, legendW: 3.2 * vg.Inch}, nil
}

// copyRatio is a pair's copy ratio: the bytes last-tiered's new follower
// held at its ISR join over local-log-start's (what each copied from the
// leader, less what its own retention removed by then); ok is false when
// local-log-start's held none.
func copyRatio(p *ComparePair) (float64, bool) {
	if p.Local.LocalBytesAtJoin <= 0 {
		return 0, false
	}
	return float64(p.Tiered.LocalBytesAtJoin) / float64(p.Local.LocalBytesAtJoin), true
}

// CopyChart draws each compared pair's catch-up ratio against its copy
// ratio (copyRatio), both on log scales, with the diagonal on which the
// catch-up time is in proportion to the bytes copied: above it, costs the
// copy does not explain (round trips, stalls, the auxiliary-state build)
// take back part of what last-tiered saves. A pair whose last-tiered
// follower copied nothing has no place on a log scale: it stands apart at
// "0", left of a divider. Each scenario's geometric-mean ratio is a black
// bar at its median copy ratio; with --vary one per scenario and value,
// labelled with the value.
func CopyChart(in *CompareInput, a *Analysis) ([]byte, error) { return render(copyPage(in, a)) }

func copyPage(in *CompareInput, a *Analysis) (*page, error) {
	g := a.All
	p := newPlot(chartWords(in, fmt.Sprintf("Catch-up ratio against the bytes each follower copied (%d pairs)", g.Compared)),
		chartWords(in, "copy ratio: bytes at ISR join, last-tiered / local-log-start (log scale)"), chartWords(in, "catch-up ratio (log scale)"))
	lo, zeroX, missing, err := copyAxes(p, g.compared)
	if err != nil {
		return nil, err
	}
	legend := newLegend()
	diag, err := line(plotter.XYs{{X: lo, Y: lo}, {X: p.X.Max, Y: p.X.Max}}, colorGrey, 1.4, 7, 3)
	if err != nil {
		return nil, err
	}
	one, err := line(plotter.XYs{{X: p.X.Min, Y: 1}, {X: p.X.Max, Y: 1}}, colorGrey, 1, 2, 3)
	if err != nil {
		return nil, err
	}
	p.Add(diag, one)
	legend.Add("y = x: time in proportion to", diag)
	legend.Add("  bytes copied (above: other costs)")
	legend.Add("ratio 1 (below: last-tiered faster)", one)
	at := func(q *ComparePair) (float64, bool) {
		c, ok := copyRatio(q)
		if c == 0 {
			c = zeroX
		}
		return c, ok
	}
	var bars []*plotter.Line
	var barLabels plotter.XYLabels
	for i, ps := range byScenario(a, g.compared) {
		var pts plotter.XYs
		for _, q := range ps {
			r, ok := q.Ratio()
			if x, xok := at(q); ok && xok {
				pts = append(pts, plotter.XY{X: x, Y: r})
			}
		}
		if len(pts) == 0 {
			continue
		}
		if err := addScenarioScatter(p, &legend, a, i, pts); err != nil {
			return nil, err
		}
		bars, barLabels, err = appendCopyMeans(bars, barLabels, meanGroups(a, i, ps), at)
		if err != nil {
			return nil, err
		}
	}
	if err := addMeanBars(p, &legend, a, bars, barLabels); err != nil {
		return nil, err
	}
	if zeroX > 0 {
		legend.Add("0 (none): last-tiered's follower held")
		legend.Add("  no bytes at its join (off the scale)")
	}
	if missing > 0 {
		legend.Add(fmt.Sprintf("not drawn: %d pairs whose local-log-start", missing))
		legend.Add("  follower held no bytes at its join")
	}
	return &page{title: chartSubject(in), rows: [][]*plot.Plot{{p}}, legend: &legend, w: 10.5 * vg.Inch, h: 6.4 * vg.Inch, legendW: 3.2 * vg.Inch}, nil
}

// copyAxes sets up the copy chart's log axes around the compared pairs:
// x from lo, at or below the smallest copy ratio, to 1 at least; y around
// the catch-up ratios and the diagonal's values at those copy ratios. When
// a pair's last-tiered follower copied nothing, zeroX is where it goes,
// left of the scale beyond a dotted divider (0 when none did); missing
// counts the pairs without a copy ratio.
func copyAxes(p *plot.Plot, compared []*ComparePair) (lo, zeroX float64, missing int, err error) {
	var xs, ys []float64
	zero := false
	for _, q := range compared {
		r, ok := q.Ratio()
		c, cok := copyRatio(q)
		switch {
		case !ok:
		case !cok:
			missing++
		case c == 0:
			zero, ys = true, append(ys, r)
		default:
			xs, ys = append(xs, c), append(ys, r)
		}
	}
	lo, hi := logRange(append(slices.Clone(xs), 1))
	ylo, yhi := logRange(append(append(ys, 0.9, 1.1), xs...))
	p.Y.Scale, p.Y.Tick.Marker, p.Y.Min, p.Y.Max = plot.LogScale{}, ratioTicks, ylo, yhi
	ticks := logTicks{format: func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }}
	p.X.Scale, p.X.Tick.Marker, p.X.Min, p.X.Max = plot.LogScale{}, ticks, lo, hi
	if !zero {
		return lo, 0, missing, nil
	}
	zeroX = lo / max(2, math.Pow(hi/lo, 0.15))
	p.X.Min = zeroX / math.Pow(hi/zeroX, 0.04)
	p.X.Tick.Marker = offScaleTicks{base: ticks, lo: lo, hi: hi, extra: []plot.Tick{{Value: zeroX, Label: "0 (none)"}}}
	div, err := line(plotter.XYs{{X: math.Sqrt(zeroX * lo), Y: ylo}, {X: math.Sqrt(zeroX * lo), Y: yhi}}, colorGrey, 1, 1, 3)
	if err != nil {
		return 0, 0, 0, err
	}
	p.Add(div)
	return lo, zeroX, missing, nil
}

// appendCopyMeans adds a bar for each group's geometric-mean ratio at its
// median copy ratio (placed by at), and its label when it has one.
func appendCopyMeans(bars []*plotter.Line, labels plotter.XYLabels, groups []meanGroup, at func(*ComparePair) (float64, bool)) (
	[]*plotter.Line, plotter.XYLabels, error) {
	for _, mg := range groups {
		var cs []float64
		for _, q := range mg.compared {
			if x, ok := at(q); ok {
				cs = append(cs, x)
			}
		}
		slices.Sort(cs)
		x := Percentile(cs, 50)
		if math.IsNaN(mg.GeoMean) || mg.GeoMean <= 0 || math.IsNaN(x) {
			continue
		}
		bar, err := line(plotter.XYs{{X: x / 1.1, Y: mg.GeoMean}, {X: x * 1.1, Y: mg.GeoMean}}, color.Black, 2.5)
		if err != nil {
			return nil, labels, err
		}
		bars = append(bars, bar)
		if mg.label != "" {
			labels.XYs = append(labels.XYs, plotter.XY{X: x * 1.12, Y: mg.GeoMean})
			labels.Labels = append(labels.Labels, mg.label)
		}
	}
	return bars, labels, nil
}

// addMeanBars draws the bars of the geometric means over the points, with
// their labels, and names them in the legend.
func addMeanBars(p *plot.Plot, legend *plot.Legend, a *Analysis, bars []*plotter.Line, barLabels plotter.XYLabels) error {
	for _, b := range bars {
		p.Add(b)
	}
	if len(barLabels.Labels) > 0 {
		labels, err := plotter.NewLabels(mergeCloseLabels(barLabels, p.Y.Min, p.Y.Max))
		if err != nil {
			return err
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
		// The varied key can be long (num_replica_fetchers): it gets a
		// line of its own so that the entry stays inside the page.
		legend.Add("geometric mean, one per scenario", bars[0])
		legend.Add("  and " + key + " value")
		legend.Add("  (labelled)")
	case len(bars) > 0:
		legend.Add("a scenario's geometric mean", bars[0])
	}
	return nil
}

// mergeCloseLabels joins the bar labels that would print over each other
// (at most 10% apart across, and a fortieth of the log y axis [ylo, yhi]
// apart up, about a line of 9-point text on the chart) into one, "1, 2, 5",
// at their geometric-mean height: bars of varied values with the same
// ratio lie on top of each other, and their labels did too.
func mergeCloseLabels(in plotter.XYLabels, ylo, yhi float64) plotter.XYLabels {
	tol := math.Log(yhi/ylo) / 40
	type group struct {
		x, y0, logSum float64
		names         []string
	}
	var gs []*group
	for i, xy := range in.XYs {
		var into *group
		for _, g := range gs {
			if math.Abs(math.Log(xy.X/g.x)) <= math.Log(1.1) && math.Abs(math.Log(xy.Y/g.y0)) <= tol {
				into = g
				break
			}
		}
		if into == nil {
			into = &group{x: xy.X, y0: xy.Y}
			gs = append(gs, into)
		}
		into.logSum += math.Log(xy.Y)
		into.names = append(into.names, in.Labels[i])
	}
	var out plotter.XYLabels
	for _, g := range gs {
		out.XYs = append(out.XYs, plotter.XY{X: g.x, Y: math.Exp(g.logSum / float64(len(g.names)))})
		out.Labels = append(out.Labels, strings.Join(g.names, ", "))
	}
	return out
}

// offScaleTicks is a log axis's ticks over [lo, hi], where its scale
// holds, and extra ticks at places off the scale (a category such as
// "none" drawn beside it).
type offScaleTicks struct {
	base   plot.Ticker
	lo, hi float64
	extra  []plot.Tick
}

func (t offScaleTicks) Ticks(_, _ float64) []plot.Tick {
	return append(t.base.Ticks(t.lo, t.hi), t.extra...)
}

// SweepChart draws, against the varied parameter, the geometric-mean
// catch-up ratio with its 95% bootstrap interval (top) and each protocol's
// median catch-up time (bottom). The values on the parameter's scale are
// joined in order; values off it (Kafka's -1 and -2) stand apart, right of
// a dotted divider, as squares no line reaches.
func SweepChart(in *CompareInput, a *Analysis) ([]byte, error) { return render(sweepPage(in, a)) }

// sweepCurve is one curve of a sweep chart, split: the points at values on
// the parameter's scale, in order along it (joined by a line), and those
// off it (drawn alone), each with the index of its value.
type sweepCurve struct {
	on, off       plotter.XYs
	onIdx, offIdx []int
}

// splitSweep places y(i) of every value i that has one.
func splitSweep(ax Axis, y func(i int) (float64, bool)) sweepCurve {
	order := make([]int, len(ax.X))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmpFloat(ax.X[i], ax.X[j]) })
	var c sweepCurve
	for _, i := range order {
		v, ok := y(i)
		if !ok {
			continue
		}
		if ax.OffScale[i] {
			c.off, c.offIdx = append(c.off, plotter.XY{X: ax.X[i], Y: v}), append(c.offIdx, i)
		} else {
			c.on, c.onIdx = append(c.on, plotter.XY{X: ax.X[i], Y: v}), append(c.onIdx, i)
		}
	}
	return c
}

func sweepPage(in *CompareInput, a *Analysis) (*page, error) {
	ax := SweepAxis(in.VaryKey, in.VaryValues)
	top := newPlot("", "", "ratio (log scale)")
	bottom := newPlot(chartWords(in, "Median catch-up time"), chartWords(in, in.VaryKey), chartWords(in, "p50 catch-up (log scale)"))
	for _, p := range []*plot.Plot{top, bottom} {
		p.X.Tick.Marker = sweepTicks(ax)
		p.X.Min, p.X.Max = sweepRange(ax)
		if ax.Log {
			p.X.Scale = plot.LogScale{}
		}
	}
	legend := newLegend()
	if err := addSweepRatio(top, ax, a, &legend); err != nil {
		return nil, err
	}
	var times []float64
	for _, g := range a.ByValue {
		times = append(times, g.Local.P50, g.Tiered.P50)
	}
	tlo, thi := logRange(times)
	bottom.Y.Scale, bottom.Y.Tick.Marker, bottom.Y.Min, bottom.Y.Max = plot.LogScale{}, msTicks, tlo, thi
	// Off the scale the two medians may be equal: the squares nest.
	for _, s := range []struct {
		name string
		c    color.Color
		offR float64
		f    func(GroupStats) float64
	}{{"local-log-start p50", colorLocal, 6.5, func(g GroupStats) float64 { return g.Local.P50 }},
		{"last-tiered p50", colorTiered, 3.5, func(g GroupStats) float64 { return g.Tiered.P50 }}} {
		curve := splitSweep(ax, func(i int) (float64, bool) {
			v := s.f(a.ByValue[i])
			return max(v, 1), !math.IsNaN(v)
		})
		thumbs, err := addSweepCurve(bottom, curve, s.c, s.offR, nil)
		if err != nil {
			return nil, err
		}
		if len(thumbs) > 0 {
			legend.Add(s.name, thumbs...)
		}
	}
	if err := addSweepDivider(ax, top, bottom, &legend); err != nil {
		return nil, err
	}
	top.Title.Text = chartWords(in, "Catch-up ratio, last-tiered / local-log-start, against "+in.VaryKey)
	return &page{title: chartSubject(in), rows: [][]*plot.Plot{{top}, {bottom}}, legend: &legend, w: 10 * vg.Inch, h: 8 * vg.Inch, legendW: 2.8 * vg.Inch}, nil
}

// addSweepRatio draws on top, against the varied values, the
// geometric-mean catch-up ratio with its 95% bootstrap interval, the line
// of ratio 1 and the break-even when there is one, on a log ratio axis
// around them, and names them in the legend.
func addSweepRatio(top *plot.Plot, ax Axis, a *Analysis, legend *plot.Legend) error {
	ratio := splitSweep(ax, func(i int) (float64, bool) {
		g := a.ByValue[i]
		return g.GeoMean, !math.IsNaN(g.GeoMean)
	})
	ratioVals := []float64{0.9, 1.1}
	for _, i := range append(slices.Clone(ratio.onIdx), ratio.offIdx...) {
		ratioVals = append(ratioVals, a.ByValue[i].CILo, a.ByValue[i].CIHi)
	}
	lo, hi := logRange(ratioVals)
	top.Y.Scale, top.Y.Tick.Marker, top.Y.Min, top.Y.Max = plot.LogScale{}, ratioTicks, lo, hi
	if len(ratio.on)+len(ratio.off) == 0 {
		return nil
	}
	one, err := line(plotter.XYs{{X: top.X.Min, Y: 1}, {X: top.X.Max, Y: 1}}, colorGrey, 1.2, 5, 4)
	if err != nil {
		return err
	}
	top.Add(one)
	errs := func(idx []int) plotter.YErrors {
		var out plotter.YErrors
		for _, i := range idx {
			g := a.ByValue[i]
			out = append(out, struct{ Low, High float64 }{g.GeoMean - g.CILo, g.CIHi - g.GeoMean})
		}
		return out
	}
	thumbs, err := addSweepCurve(top, ratio, color.Black, 5, errs)
	if err != nil {
		return err
	}
	legend.Add("ratio: geometric mean", thumbs...)
	legend.Add("  (bars: 95% bootstrap interval)")
	legend.Add("ratio 1 (below: last-tiered faster)", one)
	if a.SweepBreakEvenFound {
		be, err := line(plotter.XYs{{X: a.SweepBreakEven, Y: lo}, {X: a.SweepBreakEven, Y: hi}}, color.RGBA{R: 0xcc, A: 0xff}, 1.5, 2, 2)
		if err != nil {
			return err
		}
		top.Add(be)
		legend.Add("break-even: "+a.SweepBreakEvenLabel, be)
	}
	return nil
}

// addSweepCurve draws a sweep curve in c: the points on the scale as dots
// joined by a line, those off it as squares of radius offR (points)
// alone; errs, when not nil, gives each point's error bars. It returns the
// legend's thumbnails.
func addSweepCurve(p *plot.Plot, curve sweepCurve, c color.Color, offR float64, errs func([]int) plotter.YErrors) ([]plot.Thumbnailer, error) {
	var thumbs []plot.Thumbnailer
	for _, part := range []struct {
		xys   plotter.XYs
		idx   []int
		shape draw.GlyphDrawer
		join  bool
	}{{curve.on, curve.onIdx, draw.CircleGlyph{}, true}, {curve.off, curve.offIdx, draw.BoxGlyph{}, false}} {
		if len(part.xys) == 0 {
			continue
		}
		if errs != nil {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{part.xys, errs(part.idx)})
			if err != nil {
				return nil, err
			}
			eb.LineStyle.Width, eb.LineStyle.Color = vg.Points(1.2), c
			p.Add(eb)
		}
		if part.join && len(part.xys) > 1 {
			l, err := line(part.xys, c, 2)
			if err != nil {
				return nil, err
			}
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		dots, err := plotter.NewScatter(part.xys)
		if err != nil {
			return nil, err
		}
		dots.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: part.shape}
		if !part.join {
			dots.GlyphStyle.Radius = vg.Points(offR)
		}
		p.Add(dots)
		if part.join {
			thumbs = append(thumbs, dots)
		}
	}
	return thumbs, nil
}

// addSweepDivider draws, when some values are off the parameter's scale, a
// dotted line between them and the rest on both plots, and says in the
// legend what the squares beyond it are.
func addSweepDivider(ax Axis, top, bottom *plot.Plot, legend *plot.Legend) error {
	at, ok := ax.Divider()
	if !ok {
		return nil
	}
	var off []string
	for i, o := range ax.OffScale {
		if o {
			off = append(off, ax.Labels[i])
		}
	}
	for _, p := range []*plot.Plot{top, bottom} {
		div, err := line(plotter.XYs{{X: at, Y: p.Y.Min}, {X: at, Y: p.Y.Max}}, colorGrey, 1, 1, 3)
		if err != nil {
			return err
		}
		p.Add(div)
	}
	square, err := plotter.NewScatter(plotter.XYs{{}})
	if err != nil {
		return err
	}
	square.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4.5), Shape: draw.BoxGlyph{}}
	legend.Add("squares, right of the dotted line:", square)
	legend.Add("  off the scale, not joined:")
	for _, l := range off {
		legend.Add("  " + l)
	}
	return nil
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

// meanGroup is the statistics of the pairs a bar of CopyChart stands
// for, and the label beside the bar ("" without --vary).
type meanGroup struct {
	GroupStats
	label string
}

// meanGroups are the groups of scenario i's compared pairs ps whose
// geometric means CopyChart draws: the whole scenario, or with --vary
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
