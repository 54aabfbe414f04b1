package reports

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/sim"
)

// Timeline series: the current leader's and the new follower's offsets, and
// the remote range (finished remote segments).
const (
	tsLeaderLSO = iota
	tsLeaderLLSO
	tsLeaderHW
	tsLeaderLEO
	tsFollowerLSO
	tsFollowerLLSO
	tsFollowerHW
	tsFollowerLEO
	tsRemoteStart
	tsRemoteEnd // exclusive: the last remote offset + 1
	numTimelineSeries
)

type timelineSample struct {
	at       sim.Time
	v        [numTimelineSeries]int64
	leader   bool
	follower bool
	remote   bool
}

// TimelineSampler records, from the events of one run (it is a
// model.Observer), the offsets of the current leader and of the first
// replica added by add_replica, and the range of finished remote segments,
// once per step in which one of them changed.
type TimelineSampler struct {
	Strategy string
	follower int
	addedAt  sim.Time
	joinedAt sim.Time
	joined   bool
	end      sim.Time
	samples  []timelineSample
	leader   int
	// elections holds when the leader changed to another broker.
	elections []sim.Time

	// The state the events so far describe, and the step they belong to.
	brokers  harness.BrokerLogs
	remote   [2]int64
	remoteOK bool
	stepAt   sim.Time
	inStep   bool
}

// NewTimelineSampler returns a sampler for one run of strategy.
func NewTimelineSampler(strategy string) *TimelineSampler {
	return &TimelineSampler{Strategy: strategy, follower: -1, leader: -1, brokers: harness.NewBrokerLogs()}
}

// Event implements model.Observer: a step's events update the state, and
// the state is sampled when the next step begins (and at Finish).
func (s *TimelineSampler) Event(now sim.Time, e *model.Event) {
	if e.Kind.IsInput() {
		s.sample()
		s.stepAt, s.inStep = now, true
	}
	s.brokers.Update(e)
	switch e.Kind {
	case model.EvAddReplica:
		if s.follower < 0 {
			s.follower, s.addedAt = e.Broker, now
		}
	case model.EvISRJoin:
		if e.Broker == s.follower && !s.joined {
			s.joined, s.joinedAt = true, now
		}
	case model.EvRemoteState:
		s.remoteOK = e.Last >= e.Offset
		s.remote = [2]int64{e.Offset, e.Last + 1}
	}
}

// sample records the state after the step that just ended.
func (s *TimelineSampler) sample() {
	if !s.inStep {
		return
	}
	s.inStep = false
	now := s.stepAt
	if l := s.brokers.Leader; l >= 0 && l != s.leader {
		if s.leader >= 0 {
			s.elections = append(s.elections, now)
		}
		s.leader = l
	}
	var cur timelineSample
	cur.at = now
	if o, ok := s.brokers.LeaderLog(); ok {
		cur.leader = true
		cur.v[tsLeaderLSO], cur.v[tsLeaderLLSO], cur.v[tsLeaderHW], cur.v[tsLeaderLEO] = o.LogStart, o.LocalLogStart, o.HighWatermark, o.LogEnd
	}
	if s.follower >= 0 && s.follower < len(s.brokers.Logs) {
		o := s.brokers.Logs[s.follower]
		cur.follower = true
		cur.v[tsFollowerLSO], cur.v[tsFollowerLLSO], cur.v[tsFollowerHW], cur.v[tsFollowerLEO] = o.LogStart, o.LocalLogStart, o.HighWatermark, o.LogEnd
	}
	if s.remoteOK {
		cur.remote = true
		cur.v[tsRemoteStart], cur.v[tsRemoteEnd] = s.remote[0], s.remote[1]
	}
	s.end = max(s.end, now)
	n := len(s.samples)
	if n > 0 {
		last := &s.samples[n-1]
		same := last.v == cur.v && last.leader == cur.leader && last.follower == cur.follower && last.remote == cur.remote
		switch {
		case same:
			return
		case last.at == now:
			*last = cur
			return
		}
	}
	s.samples = append(s.samples, cur)
}

// Finish records the last step and the end of the run (its simulated time).
func (s *TimelineSampler) Finish(end sim.Time) {
	s.sample()
	s.end = max(s.end, end)
}

// Timeline series colours, one per offset kind, and the marks: the
// add_replica a grey dotted line, the ISR join a red dashed one, a leader
// change a teal dash-dot one (a different hue and stroke from the join).
var (
	colorLSO      = color.RGBA{R: 0x80, G: 0x3d, B: 0xa8, A: 0xff}
	colorLLSO     = color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}
	colorHW       = color.RGBA{R: 0x7f, G: 0xd8, B: 0xb0, A: 0xff}
	colorLEO      = color.RGBA{R: 0x20, G: 0x20, B: 0x20, A: 0xff}
	colorRemote   = color.RGBA{R: 0xf0, G: 0xdc, B: 0xa0, A: 0xff}
	colorJoin     = color.RGBA{R: 0xcc, G: 0x00, B: 0x00, A: 0xff}
	colorElection = color.RGBA{R: 0x00, G: 0x6e, B: 0x5a, A: 0xff}
)

// The marks' strokes: width and dashes, in points.
var (
	strokeAdd      = []float64{1.2, 2, 2}
	strokeJoin     = []float64{1.6, 5, 2.5}
	strokeElection = []float64{2, 9, 3, 2, 3}
)

// timelineSeries is the drawing order: HW wide and pale under LEO, so both
// show where they coincide; the follower's dashed lines over the leader's.
var timelineSeries = []struct {
	idx      int
	c        color.Color
	width    float64
	follower bool
}{
	{tsLeaderLSO, colorLSO, 1.6, false}, {tsLeaderLLSO, colorLLSO, 1.6, false}, {tsLeaderHW, colorHW, 4.5, false}, {tsLeaderLEO, colorLEO, 1.3, false},
	{tsFollowerLSO, colorLSO, 2.2, true}, {tsFollowerLLSO, colorLLSO, 2.2, true}, {tsFollowerHW, colorHW, 4.5, true}, {tsFollowerLEO, colorLEO, 1.6, true},
}

// timelineBuckets bounds the points of one series in one panel: a series is
// reduced to its first, lowest, highest and last point per bucket, which
// keeps its drawn shape at this resolution.
const timelineBuckets = 250

// sharedZoomFactor is how much longer one run's bootstrap may be than
// another's for their bootstrap panels to share a time scale: beyond it,
// the shorter would be a sliver, so each panel gets its own.
const sharedZoomFactor = 3

// TimelineChart draws the samplers' runs one per row (both protocols on one
// page): on the left the whole run, on the right the new follower's
// bootstrap, from its add_replica to a little after its ISR join, in time
// since the add_replica. The bootstrap panels share a time scale unless
// one bootstrap is more than sharedZoomFactor times another: then each has
// its own, and says so. Solid lines are the current leader's LSO, LLSO, HW
// and LEO; dashed lines the follower's; the shaded band is the remote
// range. The legend lists only what is drawn.
func TimelineChart(title string, runs []*TimelineSampler) ([]byte, error) {
	return render(timelinePage(title, runs))
}

func timelinePage(title string, runs []*TimelineSampler) (*page, error) {
	spans, shared := bootstrapSpans(runs)
	var yMax int64 = 1
	for _, r := range runs {
		for _, smp := range r.samples {
			for _, v := range smp.v {
				yMax = max(yMax, v)
			}
		}
	}
	zoom := slices.ContainsFunc(spans, func(s sim.Duration) bool { return s > 0 })
	var drawn timelineDrawn
	var rows [][]*plot.Plot
	for i, r := range runs {
		whole := newPlot(fmt.Sprintf("%s: whole run", r.Strategy), "", "offset")
		if i == len(runs)-1 {
			whole.X.Label.Text = "time (s)"
		}
		whole.X.Tick.Marker = timeTicks{}
		if err := timelinePanel(whole, r, 0, r.end, 0, yMax, &drawn); err != nil {
			return nil, err
		}
		row := []*plot.Plot{whole}
		if zoom {
			z, err := bootstrapPanel(r, spans[i], shared, i == len(runs)-1, yMax, &drawn)
			if err != nil {
				return nil, err
			}
			row = append(row, z)
		}
		rows = append(rows, row)
	}
	legend := timelineLegend(drawn)
	w := 13 * vg.Inch
	if !zoom {
		w = 9 * vg.Inch
	}
	return &page{title: title, rows: rows, legend: &legend, w: w, h: vg.Length(1+3.4*float64(len(runs))) * vg.Inch, legendW: 2 * vg.Inch}, nil
}

// bootstrapSpans is the length of each run's bootstrap window, from its
// add_replica to its ISR join (or the end of the run), at least 20 ms; 0
// for a run without an added follower. When no bootstrap is more than
// sharedZoomFactor times another, every span is the longest, and shared
// is true.
func bootstrapSpans(runs []*TimelineSampler) (spans []sim.Duration, shared bool) {
	var lo, hi sim.Duration
	for _, r := range runs {
		var s sim.Duration
		if r.follower >= 0 {
			end := r.end
			if r.joined {
				end = r.joinedAt
			}
			s = max(end.Sub(r.addedAt), sim.Ms(20))
			lo, hi = min(cmp.Or(lo, s), s), max(hi, s)
		}
		spans = append(spans, s)
	}
	if hi > sharedZoomFactor*lo {
		return spans, false
	}
	for i := range spans {
		if spans[i] > 0 {
			spans[i] = hi
		}
	}
	return spans, true
}

// bootstrapPanel draws run r's bootstrap: from a twentieth of span before
// its add_replica to a quarter of span after it, in time since the
// add_replica; nil without an added follower.
func bootstrapPanel(r *TimelineSampler, span sim.Duration, shared, last bool, yMax int64, drawn *timelineDrawn) (*plot.Plot, error) {
	if span <= 0 {
		return nil, nil
	}
	caught := "never joined the ISR"
	if r.joined {
		caught = "joined the ISR after " + ms(r.joinedAt.Sub(r.addedAt).Ms())
	}
	z := newPlot(fmt.Sprintf("bootstrap of b%d: %s", r.follower, caught), "", "")
	switch {
	case !shared:
		z.X.Label.Text = "time since add_replica (this row's own scale)"
	case last:
		z.X.Label.Text = "time since add_replica"
	}
	z.X.Tick.Marker = sinceTicks{}
	lo := max(0, r.addedAt.Add(-span/20))
	hi := min(r.addedAt.Add(span+span/4), r.end)
	if hi <= lo {
		hi = lo.Add(span)
	}
	return z, timelinePanel(z, r, lo, hi, r.addedAt, yMax, drawn)
}

// timelineDrawn records what the panels drew, for the legend.
type timelineDrawn struct {
	remote, follower, add, join, election bool
}

func seconds(t sim.Time) float64 { return float64(t) / float64(sim.Second) }

// offsetTicks labels an offset axis with whole numbers.
type offsetTicks struct{}

func (offsetTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}

// timeTicks labels a time axis in seconds with as few decimals as keep
// every label exact to a hundredth of the step between labels (a bootstrap
// window of 0.2 s reads 1.05, 1.10, 1.15, not 1.1 twice).
type timeTicks struct{}

func (timeTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var values []float64
	for _, t := range ticks {
		if t.Label != "" {
			values = append(values, t.Value)
		}
	}
	step := hi - lo
	for i := 1; i < len(values); i++ {
		step = min(step, values[i]-values[i-1])
	}
	decimals := 0
	for ; decimals < 9; decimals++ {
		exact := true
		for _, v := range values {
			f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
			exact = exact && math.Abs(f-v) <= step/100
		}
		if exact {
			break
		}
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', decimals, 64)
		}
	}
	return ticks
}

// timelinePanel draws run r within [lo, hi] on p, in seconds since
// origin, and records in drawn what it drew.
func timelinePanel(p *plot.Plot, r *TimelineSampler, lo, hi, origin sim.Time, yMax int64, drawn *timelineDrawn) error {
	x0 := seconds(origin)
	shift := func(xys plotter.XYs) plotter.XYs {
		for i := range xys {
			xys[i].X -= x0
		}
		return xys
	}
	p.X.Min, p.X.Max = seconds(lo)-x0, seconds(hi)-x0
	p.Y.Min, p.Y.Max = 0, float64(yMax)*1.04
	p.Y.Tick.Marker = offsetTicks{}
	band, err := remoteBand(r, lo, hi)
	if err != nil {
		return err
	}
	for _, b := range band {
		shift(b.XYs[0])
		p.Add(b)
		drawn.remote = true
	}
	for _, s := range timelineSeries {
		for _, xys := range stepSeries(r, s.idx, lo, hi) {
			var l *plotter.Line
			if s.follower {
				l, err = line(shift(xys), s.c, s.width, 5, 3)
				drawn.follower = true
			} else {
				l, err = line(shift(xys), s.c, s.width)
			}
			if err != nil {
				return err
			}
			p.Add(l)
		}
	}
	type mark struct {
		at     sim.Time
		show   bool
		c      color.Color
		stroke []float64
		drawn  *bool
	}
	marks := []mark{{r.addedAt, r.follower >= 0, colorGrey, strokeAdd, &drawn.add}, {r.joinedAt, r.joined, colorJoin, strokeJoin, &drawn.join}}
	for _, at := range r.elections {
		marks = append(marks, mark{at, true, colorElection, strokeElection, &drawn.election})
	}
	for _, m := range marks {
		if !m.show || m.at < lo || m.at > hi {
			continue
		}
		x := seconds(m.at) - x0
		l, err := line(plotter.XYs{{X: x, Y: 0}, {X: x, Y: p.Y.Max}}, m.c, m.stroke[0], m.stroke[1:]...)
		if err != nil {
			return err
		}
		p.Add(l)
		*m.drawn = true
	}
	return nil
}

// present reports whether series idx has a value in sample smp.
func present(smp *timelineSample, idx int) bool {
	switch {
	case idx <= tsLeaderLEO:
		return smp.leader
	case idx <= tsFollowerLEO:
		return smp.follower
	}
	return smp.remote
}

// stepSeries returns series idx within [lo, hi] as step polylines (a new
// one after each gap): each change is a vertical step at its time, each
// value holds until the next change or hi. Long polylines are reduced to
// timelineBuckets buckets.
func stepSeries(r *TimelineSampler, idx int, lo, hi sim.Time) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	flush := func(end sim.Time) {
		if len(cur) > 0 {
			cur = append(cur, plotter.XY{X: seconds(end), Y: cur[len(cur)-1].Y})
			out = append(out, reduce(cur, seconds(lo), seconds(hi)))
			cur = nil
		}
	}
	for i := range r.samples {
		smp := &r.samples[i]
		next := hi
		if i+1 < len(r.samples) {
			next = min(hi, r.samples[i+1].at)
		}
		if next < lo || smp.at > hi {
			continue
		}
		if !present(smp, idx) {
			flush(max(smp.at, lo))
			continue
		}
		x, y := seconds(max(smp.at, lo)), float64(smp.v[idx])
		if n := len(cur); n > 0 {
			if cur[n-1].Y == y {
				continue
			}
			cur = append(cur, plotter.XY{X: x, Y: cur[n-1].Y})
		}
		cur = append(cur, plotter.XY{X: x, Y: y})
	}
	flush(hi)
	return out
}

// reduce keeps, per bucket of [lo, hi], the first, lowest, highest and last
// point, in order: the polyline looks the same at that resolution.
func reduce(xys plotter.XYs, lo, hi float64) plotter.XYs {
	if len(xys) <= 2*timelineBuckets {
		return xys
	}
	width := (hi - lo) / timelineBuckets
	var out plotter.XYs
	for i := 0; i < len(xys); {
		b := math.Floor((xys[i].X - lo) / width)
		j := i
		lowest, highest := i, i
		for j < len(xys) && math.Floor((xys[j].X-lo)/width) == b {
			if xys[j].Y < xys[lowest].Y {
				lowest = j
			}
			if xys[j].Y > xys[highest].Y {
				highest = j
			}
			j++
		}
		last := -1
		for _, k := range sortInts([]int{i, lowest, highest, j - 1}) {
			if k != last {
				out = append(out, xys[k])
				last = k
			}
		}
		i = j
	}
	return out
}

func sortInts(xs []int) []int {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs
}

// remoteBand returns the remote range within [lo, hi] as filled polygons.
func remoteBand(r *TimelineSampler, lo, hi sim.Time) ([]*plotter.Polygon, error) {
	starts, ends := stepSeries(r, tsRemoteStart, lo, hi), stepSeries(r, tsRemoteEnd, lo, hi)
	var out []*plotter.Polygon
	for i := range starts {
		if i >= len(ends) {
			break
		}
		ring := slices.Clone(ends[i])
		for j := len(starts[i]) - 1; j >= 0; j-- {
			ring = append(ring, starts[i][j])
		}
		poly, err := plotter.NewPolygon(ring)
		if err != nil {
			return nil, err
		}
		poly.Color = colorRemote
		poly.LineStyle.Width = 0
		out = append(out, poly)
	}
	return out, nil
}

// timelineLegend names the offsets and the marks drawn: a mark or band no
// panel drew is not listed.
func timelineLegend(drawn timelineDrawn) plot.Legend {
	l := newLegend()
	mk := func(c color.Color, width float64, dashes ...float64) *plotter.Line {
		ln, _ := line(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}}, c, width, dashes...)
		return ln
	}
	l.Add("LSO (log start)", mk(colorLSO, 2))
	l.Add("LLSO (local log start)", mk(colorLLSO, 2))
	l.Add("HW (high watermark)", mk(colorHW, 4.5))
	l.Add("LEO (log end)", mk(colorLEO, 2))
	l.Add("leader (solid)", mk(colorLEO, 1.4))
	if drawn.follower {
		l.Add("new follower (dashed)", mk(colorLEO, 2.2, 5, 3))
	}
	if drawn.remote {
		poly, _ := plotter.NewPolygon(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}})
		poly.Color, poly.LineStyle.Width = colorRemote, 0
		l.Add("remote range", poly)
	}
	for _, m := range []struct {
		name   string
		show   bool
		c      color.Color
		stroke []float64
	}{{"add_replica", drawn.add, colorGrey, strokeAdd}, {"ISR join", drawn.join, colorJoin, strokeJoin},
		{"leader change", drawn.election, colorElection, strokeElection}} {
		if m.show {
			l.Add(m.name, mk(m.c, m.stroke[0], m.stroke[1:]...))
		}
	}
	return l
}

// sinceTicks labels a time axis of seconds since an instant, in ms below 2
// s and in s above, at a 1-2-5 step that gives 3 to 8 labels.
type sinceTicks struct{}

func (sinceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return nil
	}
	step := niceStepAtMost((hi - lo) / 3)
	minor := step / 5
	if m := step / math.Pow10(int(math.Floor(math.Log10(step)))); math.Abs(m-2) < 1e-9 {
		minor = step / 4
	}
	unit, scale := " s", 1.0
	if hi < 2 {
		unit, scale = " ms", 1000
	}
	decimals := max(0, -int(math.Floor(math.Log10(step*scale)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo/minor - 1e-9); k*minor <= hi+minor*1e-9; k++ {
		v := k * minor
		if v == 0 {
			v = 0 // not -0
		}
		t := plot.Tick{Value: v}
		if r := v / step; math.Abs(r-math.Round(r)) < 1e-6 {
			t.Label = strconv.FormatFloat(v*scale, 'f', decimals, 64) + unit
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// niceStepAtMost is the largest 1, 2 or 5 times a power of ten not above x.
func niceStepAtMost(x float64) float64 {
	d := math.Pow10(int(math.Floor(math.Log10(x))))
	for _, m := range []float64{5, 2, 1} {
		if d*m <= x*(1+1e-9) {
			return d * m
		}
	}
	return d
}
