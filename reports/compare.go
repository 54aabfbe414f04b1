package reports

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"tierfetch/config"
	"tierfetch/harness"
)

// ComparePair is one seed of one scenario (at one value of a varied
// parameter) run under both follower protocols on the same workload.
type ComparePair struct {
	Scenario  string
	VaryValue string // "" without a varied parameter
	Profile   string // the behaviour profile both runs used
	Fixes     string // the fixes both runs had on, as --fix takes them ("" none)
	Seed      uint64
	Local     *harness.RunMetrics // local-log-start (KIP-405)
	Tiered    *harness.RunMetrics // last-tiered (KIP-1023)
}

// Included reports whether both runs passed every invariant: only such pairs
// enter the statistics.
func (p *ComparePair) Included() bool {
	return p.Local.Outcome == harness.OutcomeOK && p.Tiered.Outcome == harness.OutcomeOK
}

// Exclusion says why a pair is left out, "" when it is included: each
// failing strategy with its invariant and known kind.
func (p *ComparePair) Exclusion() string {
	var parts []string
	for _, r := range []*harness.RunMetrics{p.Local, p.Tiered} {
		if r.Outcome == harness.OutcomeOK {
			continue
		}
		s := fmt.Sprintf("%s: %s", r.Strategy, r.Invariant)
		if r.Kind != "" {
			s += " (" + r.Kind + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// Comparable reports whether the pair is included and both followers joined
// the ISR, so their catch-up times can be compared.
func (p *ComparePair) Comparable() bool {
	return p.Included() && p.Local.CaughtUp && p.Tiered.CaughtUp
}

// Ratio is the pair's catch-up ratio last-tiered / local-log-start; ok is
// false when it is not comparable or either time is 0 ms.
func (p *ComparePair) Ratio() (float64, bool) {
	if !p.Comparable() || p.Local.CatchUpMs <= 0 || p.Tiered.CatchUpMs <= 0 {
		return 0, false
	}
	return float64(p.Tiered.CatchUpMs) / float64(p.Local.CatchUpMs), true
}

// CompareInput is a whole comparison: how it was set up and every pair, in
// the order they were run (vary value, scenario, seed).
type CompareInput struct {
	Command string // the exact command that regenerates the report
	// Version is the simrun that made it (module version and VCS revision
	// from the build info), "" to leave it out.
	Version    string
	Scenarios  []string
	Generated  bool // scenarios generated from the seeds
	Seeds      string
	Profile    string // the profile of Pairs: the statistics
	VaryKey    string
	VaryValues []string
	Pairs      []ComparePair
	// Others holds the same pairs run under each further profile
	// (--profiles), in the order given, each in the order of Pairs; they
	// enter only the section comparing the profiles.
	Others []ProfilePairs
	// Fix is --fix as given: every pair ran with those fixes. Fixed holds,
	// without --fix, the same pairs again under each profile (the first's
	// and Others', in that order) with every fix on: the report's "with
	// fixes" column.
	Fix   string
	Fixed []ProfilePairs
	// FindingsLink is the link to FINDINGS.md from the report's directory,
	// "" when it is not known.
	FindingsLink string
	// Sweep is a parameter sweep reported beside the comparison (the
	// default comparison's headline curve), nil without one. Its Command
	// runs it alone.
	Sweep *CompareInput
	// About is a sentence on what the scenario of a sweep beside a
	// comparison shows.
	About string
	// Timeline names the pair the timeline chart shows (TimelinePick), and
	// TimelineCommand the command that draws it alone.
	Timeline        *ComparePair
	TimelineCommand string
	// BrokerScale says the scenarios are broker-scale files: the catch-up
	// time is the time until the broker was restored, and the report and
	// runs.csv add the broker-scale statistics.
	BrokerScale bool
	// Names spells the settings the report names (the command's flags;
	// nil: the fields' names).
	Names config.Names
}

// Bootstrap settings: resamples and the fixed seed of the PCG generator, so
// the same pairs always give the same interval.
const (
	BootstrapResamples = 2000
	bootstrapSeed1     = 0x7469657266657463 // "tierfetc"
	bootstrapSeed2     = 0x68636f6d70617265 // "hcompare"
)

// Dist is a catch-up time distribution, in ms.
type Dist struct {
	N                  int
	P50, P90, P99, Max float64
	Mean               float64
	sorted             []float64
}

func newDist(xs []float64) Dist {
	s := slices.Clone(xs)
	slices.Sort(s)
	d := Dist{N: len(s), sorted: s}
	if len(s) == 0 {
		nan := math.NaN()
		d.P50, d.P90, d.P99, d.Max, d.Mean = nan, nan, nan, nan, nan
		return d
	}
	d.P50, d.P90, d.P99, d.Max = Percentile(s, 50), Percentile(s, 90), Percentile(s, 99), s[len(s)-1]
	d.Mean = mean(s)
	return d
}

// Percentile returns the p-th percentile (0 < p <= 100) of sorted values by
// the nearest-rank method: the smallest value with at least p% of the values
// at or below it. NaN for no values.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	k := int(math.Ceil(p*float64(n)/100 - 1e-9))
	return sorted[min(max(k, 1), n)-1]
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// GeoMeanCI returns the geometric mean of ratios and its 95% percentile
// bootstrap confidence interval (BootstrapResamples resamples of the pairs,
// drawn from a PCG generator with a fixed seed: the same ratios always give
// the same interval). NaN for no ratios.
func GeoMeanCI(ratios []float64) (gm, lo, hi float64) {
	n := len(ratios)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	logs := make([]float64, n)
	for i, r := range ratios {
		logs[i] = math.Log(r)
	}
	rng := rand.New(rand.NewPCG(bootstrapSeed1, bootstrapSeed2))
	means := make([]float64, BootstrapResamples)
	for i := range means {
		s := 0.0
		for range n {
			s += logs[rng.IntN(n)]
		}
		means[i] = s / float64(n)
	}
	slices.Sort(means)
	return math.Exp(mean(logs)), math.Exp(Percentile(means, 2.5)), math.Exp(Percentile(means, 97.5))
}

// WinRate counts, over paired catch-up times, how often last-tiered was
// strictly faster (wins), as fast (ties) or slower (losses); rate is
// wins / pairs, NaN for none.
func WinRate(local, tiered []float64) (wins, ties, losses int, rate float64) {
	for i := range local {
		switch {
		case tiered[i] < local[i]:
			wins++
		case tiered[i] == local[i]:
			ties++
		default:
			losses++
		}
	}
	if len(local) == 0 {
		return 0, 0, 0, math.NaN()
	}
	return wins, ties, losses, float64(wins) / float64(len(local))
}

// GroupStats is the statistics of a set of pairs.
type GroupStats struct {
	Name     string
	Pairs    int // all pairs
	Included int // both passed every invariant
	Compared int // included and both followers joined the ISR
	Local    Dist
	Tiered   Dist
	RatioN   int // pairs with a ratio (both times > 0 ms)
	GeoMean  float64
	CILo     float64
	CIHi     float64
	Median   float64 // median ratio
	Wins     int
	Ties     int
	Losses   int
	WinRate  float64
	Fraction float64 // median leader local-log fraction at add_replica (NaN: none)
	included []*ComparePair
	compared []*ComparePair
}

// Stats computes the statistics of pairs.
func Stats(name string, pairs []*ComparePair) GroupStats {
	g := GroupStats{Name: name, Pairs: len(pairs)}
	var local, tiered, ratios, fractions []float64
	for _, p := range pairs {
		if !p.Included() {
			continue
		}
		g.included = append(g.included, p)
		if !p.Comparable() {
			continue
		}
		g.compared = append(g.compared, p)
		local = append(local, float64(p.Local.CatchUpMs))
		tiered = append(tiered, float64(p.Tiered.CatchUpMs))
		if r, ok := p.Ratio(); ok {
			ratios = append(ratios, r)
		}
		if p.Local.LocalFractionKnown {
			fractions = append(fractions, p.Local.LocalFractionAtAdd)
		}
	}
	g.Included, g.Compared, g.RatioN = len(g.included), len(g.compared), len(ratios)
	g.Local, g.Tiered = newDist(local), newDist(tiered)
	g.GeoMean, g.CILo, g.CIHi = GeoMeanCI(ratios)
	slices.Sort(ratios)
	g.Median = Percentile(ratios, 50)
	g.Wins, g.Ties, g.Losses, g.WinRate = WinRate(local, tiered)
	slices.Sort(fractions)
	g.Fraction = Percentile(fractions, 50)
	return g
}

// Analysis is the statistics of a whole comparison: overall, by scenario and
// by value of the varied parameter.
type Analysis struct {
	All        GroupStats
	ByScenario []GroupStats // in the order scenarios first appear
	ByValue    []GroupStats // in VaryValues order; empty without --vary
	Exclusions []Exclusion  // by count, then reason
	// SweepBreakEven is where the ratio crosses 1 against the varied
	// parameter, in the sweep chart's x coordinate (SweepAxis), and
	// SweepBreakEvenLabel says it in the parameter's terms. It is only
	// looked for along the numeric values of a parameter varied on one
	// scenario: across scenarios (or across special values such as -2,
	// "same as retention") a crossing says nothing about the parameter.
	SweepBreakEven      float64
	SweepBreakEvenLabel string
	SweepBreakEvenFound bool
	// Profiles compares the profiles run, nil with one profile.
	Profiles *ProfileComparison
	// Fixes compares each profile's pairs with the same pairs run with
	// every fix (CompareInput.Fixed), nil when none ran.
	Fixes []FixedProfile
	// Sweep is the analysis of CompareInput.Sweep, nil without one.
	Sweep *Analysis
}

// Exclusion is one reason pairs were left out of the statistics.
type Exclusion struct {
	Reason string
	Pairs  []*ComparePair
}

// Analyze computes the statistics of a comparison.
func Analyze(in *CompareInput) *Analysis {
	a := &Analysis{}
	all := make([]*ComparePair, len(in.Pairs))
	byScenario := map[string][]*ComparePair{}
	var order []string
	byValue := map[string][]*ComparePair{}
	excl := map[string][]*ComparePair{}
	for i := range in.Pairs {
		p := &in.Pairs[i]
		all[i] = p
		if _, ok := byScenario[p.Scenario]; !ok {
			order = append(order, p.Scenario)
		}
		byScenario[p.Scenario] = append(byScenario[p.Scenario], p)
		byValue[p.VaryValue] = append(byValue[p.VaryValue], p)
		if !p.Included() {
			excl[p.Exclusion()] = append(excl[p.Exclusion()], p)
		}
	}
	a.All = Stats("all", all)
	for _, name := range order {
		a.ByScenario = append(a.ByScenario, Stats(name, byScenario[name]))
	}
	if in.VaryKey != "" {
		for _, v := range in.VaryValues {
			a.ByValue = append(a.ByValue, Stats(in.VaryKey+"="+v, byValue[v]))
		}
		if len(in.Scenarios) == 1 {
			a.SweepBreakEven, a.SweepBreakEvenLabel, a.SweepBreakEvenFound = sweepBreakEven(in.VaryKey, in.VaryValues, a.ByValue)
		}
	}
	for _, reason := range sortedMapKeys(excl) {
		a.Exclusions = append(a.Exclusions, Exclusion{Reason: reason, Pairs: excl[reason]})
	}
	slices.SortStableFunc(a.Exclusions, func(x, y Exclusion) int { return cmp.Compare(len(y.Pairs), len(x.Pairs)) })
	if len(in.Others) > 0 {
		a.Profiles = CompareProfiles(in)
	}
	a.Fixes = CompareFixes(in)
	if in.Sweep != nil {
		a.Sweep = Analyze(in.Sweep)
	}
	return a
}

// BreakEven returns the first x at which the piecewise-linear curve through
// (xs, ys), in increasing x, crosses y = 1 from one side to the other
// (interpolated in log y, and in log x when logX; where it rests at exactly
// 1 between the two sides, the first such point). Touching 1 without
// crossing is no break-even; ok is false then, and when it never crosses.
// Points with NaN or non-positive y are skipped.
func BreakEven(xs, ys []float64, logX bool) (float64, bool) {
	type pt struct{ x, l float64 }
	var pts []pt
	for i := range xs {
		if !math.IsNaN(ys[i]) && ys[i] > 0 && (!logX || xs[i] > 0) {
			pts = append(pts, pt{xs[i], math.Log(ys[i])})
		}
	}
	slices.SortStableFunc(pts, func(a, b pt) int { return cmp.Compare(a.x, b.x) })
	tx := func(x float64) float64 {
		if logX {
			return math.Log(x)
		}
		return x
	}
	last := -1 // the last point off the line
	for i, p := range pts {
		if p.l == 0 {
			continue
		}
		if last >= 0 && (pts[last].l < 0) != (p.l < 0) {
			if last+1 < i {
				return pts[last+1].x, true
			}
			a := pts[last]
			x := tx(a.x) + a.l/(a.l-p.l)*(tx(p.x)-tx(a.x))
			if logX {
				x = math.Exp(x)
			}
			return x, true
		}
		last = i
	}
	return 0, false
}

// Sides counts the points of a curve below, at and above ratio 1.
func Sides(ys []float64) (below, even, above int) {
	for _, y := range ys {
		switch {
		case math.IsNaN(y):
		case y < 1:
			below++
		case y > 1:
			above++
		default:
			even++
		}
	}
	return below, even, above
}

// sweepBreakEven finds where the geometric-mean ratio crosses 1 along the
// values of the varied parameter on its scale (values off it, such as -1
// and -2, are left out), in the chart's x coordinate.
func sweepBreakEven(key string, values []string, groups []GroupStats) (float64, string, bool) {
	ax := SweepAxis(key, values)
	var on []int
	var xs, ys []float64
	for i, v := range values {
		if !ax.OffScale[i] {
			f, _ := numericValue(v)
			on, xs, ys = append(on, i), append(xs, f), append(ys, groups[i].GeoMean)
		}
	}
	if len(on) < 2 {
		return 0, "", false
	}
	logX := logSpan(xs)
	x, ok := BreakEven(xs, ys, logX)
	if !ok {
		return 0, "", false
	}
	label := ax.Format(x)
	if ax.Numeric {
		return x, label, true
	}
	// The chart places values one after another: find the two neighbours
	// of x in the order given and interpolate between their positions.
	for k := 0; k+1 < len(on); k++ {
		lo, hi := xs[k], xs[k+1]
		if x < min(lo, hi) || x > max(lo, hi) || lo == hi {
			continue
		}
		t := (x - lo) / (hi - lo)
		if logX {
			t = math.Log(x/lo) / math.Log(hi/lo)
		}
		return ax.X[on[k]] + t*(ax.X[on[k+1]]-ax.X[on[k]]), label, true
	}
	return 0, "", false
}

// Axis is how a sweep chart places the varied values. Values on the
// parameter's scale (numbers, not negative) go at their numbers (on a log
// axis when they span a factor of 20 or more), or one after another in the
// order given when two would sit so close that their labels collide
// (crowded).
// Values off the scale (Kafka's -1 and -2, "unlimited" and "the same as
// retention", or a value that is not a number) go after them, in the order
// given, apart: they are not points of the same curve. Ticks go at the
// swept values only.
type Axis struct {
	Numeric  bool      // the values on the scale are at their numbers
	Log      bool      // on a log axis
	X        []float64 // each value's position
	Labels   []string
	OffScale []bool // each value: off the parameter's scale
	key      string
}

// SweepAxis places the varied values of key.
func SweepAxis(key string, values []string) Axis {
	ax := Axis{key: key, X: make([]float64, len(values)), Labels: make([]string, len(values)), OffScale: make([]bool, len(values))}
	var on []int
	var xs []float64
	var labels []string
	for i, v := range values {
		ax.Labels[i] = v
		f, ok := numericValue(v)
		if ok {
			ax.Labels[i] = ax.Format(f)
		}
		if !ok || f < 0 {
			ax.OffScale[i] = true
			continue
		}
		on, xs, labels = append(on, i), append(xs, f), append(labels, ax.Labels[i])
	}
	nOff := len(values) - len(on)
	offStep, share := offScaleStep(nOff), 1.0 // share: of the axis, the values on the scale's
	if nOff > 0 {
		share = 1 / (1 + offStep*(float64(nOff)+0.5))
	}
	if len(xs) > 0 && !crowded(xs, labels, logSpan(xs), share) {
		ax.Numeric, ax.Log = true, logSpan(xs)
		for k, i := range on {
			ax.X[i] = xs[k]
		}
	} else {
		for k, i := range on {
			ax.X[i] = float64(k)
		}
	}
	ax.placeOffScale(on, offStep)
	return ax
}

// offScaleStep is the step between n values placed off the scale, as a
// share of the span of the values on it: each takes a fifth of the whole
// axis, so that their labels do not collide (more than two take less).
func offScaleStep(n int) float64 {
	const each = 0.2
	return each / max(1-each*(float64(n)+0.5), 0.3)
}

// placeOffScale puts the values off the scale after those on it (at
// indices on): a step and a half beyond the last, then a step apart, where
// a step is step times the scale's span (on a log axis, in log space), or
// one position when the values are placed one after another.
func (ax *Axis) placeOffScale(on []int, step float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, i := range on {
		lo, hi = min(lo, ax.X[i]), max(hi, ax.X[i])
	}
	next := func(k int) float64 {
		gap := 1.5 + float64(k)
		switch {
		case len(on) == 0:
			return float64(k)
		case !ax.Numeric:
			return hi + gap
		case ax.Log:
			return hi * math.Pow(hi/lo, gap*step)
		case hi > lo:
			return hi + (hi-lo)*gap*step
		}
		return hi + max(math.Abs(hi), 1)*gap/2
	}
	k := 0
	for i, off := range ax.OffScale {
		if off {
			ax.X[i] = next(k)
			k++
		}
	}
}

// Divider is where a line between the values on the scale and those off it
// goes (midway, in log space on a log axis); ok is false unless there are
// both.
func (ax Axis) Divider() (float64, bool) {
	lastOn, firstOff := math.Inf(-1), math.Inf(1)
	for i, x := range ax.X {
		if ax.OffScale[i] {
			firstOff = min(firstOff, x)
		} else {
			lastOn = max(lastOn, x)
		}
	}
	if math.IsInf(lastOn, 0) || math.IsInf(firstOff, 0) {
		return 0, false
	}
	if ax.Log {
		return math.Sqrt(lastOn * firstOff), true
	}
	return (lastOn + firstOff) / 2, true
}

// Format writes a value of the varied parameter for people: bytes in
// KiB/MiB/GiB for *_bytes keys and per second for rates (*_bytes_per_sec,
// *_throttled_rate; -1 unlimited), times in ms or s for *_ms keys.
func (ax Axis) Format(v float64) string {
	retention := strings.Contains(ax.key, "retention_")
	switch {
	case retention && v == -2 && strings.HasPrefix(ax.key, "local_"):
		return "-2 (= retention)"
	case retention && v == -1:
		return "-1 (unlimited)"
	case strings.HasSuffix(ax.key, "_bytes"):
		return bytes(int64(math.Round(v)))
	case (strings.HasSuffix(ax.key, "_bytes_per_sec") || strings.HasSuffix(ax.key, "_throttled_rate")) && v == -1:
		return "-1 (unlimited)"
	case strings.HasSuffix(ax.key, "_bytes_per_sec") || strings.HasSuffix(ax.key, "_throttled_rate"):
		return bytes(int64(v)) + "/s"
	case strings.HasSuffix(ax.key, "_ms"):
		return fms(v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// numericValue parses a varied value as a number: the whole value ("5..20"
// is a range, not 5).
func numericValue(v string) (float64, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// sweepAxisWidth is about how wide, in points, a sweep chart draws its x
// axis (the page less its legend and y axis): crowded measures the value
// labels against it.
const sweepAxisWidth = 420

// crowded reports whether the tick labels of values at xs (in log space
// when logScale) would run into each other on a sweep chart, their span
// taking share of its x axis (the rest goes to values off the scale); the
// values are then placed one after another instead.
func crowded(xs []float64, labels []string, logScale bool, share float64) bool {
	type tick struct {
		pos   float64
		width float64
	}
	ticks := make([]tick, len(xs))
	for i, x := range xs {
		ticks[i] = tick{x, tickLabelWidth(labels[i])}
		if logScale {
			ticks[i].pos = math.Log(x)
		}
	}
	slices.SortFunc(ticks, func(a, b tick) int { return cmp.Compare(a.pos, b.pos) })
	if len(ticks) < 2 || ticks[len(ticks)-1].pos == ticks[0].pos {
		return len(ticks) > 1
	}
	span := ticks[len(ticks)-1].pos - ticks[0].pos
	for i := 1; i < len(ticks); i++ {
		room := (ticks[i].pos - ticks[i-1].pos) / span * share * sweepAxisWidth
		if room < (ticks[i].width+ticks[i-1].width)/2+6 {
			return true
		}
	}
	return false
}

// logSpan reports whether positive values span a factor of 20 or more, so a
// log axis shows them better.
func logSpan(xs []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if x <= 0 {
			return false
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return len(xs) > 1 && hi/lo >= 20
}

// TimelinePick chooses the pair a report's timeline shows: among comparable
// pairs whose catch-up times differ, the one with the median ratio (the
// lower middle one, first in run order among equals); if there are none, the
// first comparable pair; nil when no pair is comparable.
func TimelinePick(pairs []ComparePair) *ComparePair {
	var differ, comparable []*ComparePair
	for i := range pairs {
		p := &pairs[i]
		if !p.Comparable() {
			continue
		}
		comparable = append(comparable, p)
		if r, ok := p.Ratio(); ok && r != 1 {
			differ = append(differ, p)
		}
	}
	if len(differ) == 0 {
		if len(comparable) == 0 {
			return nil
		}
		return comparable[0]
	}
	slices.SortStableFunc(differ, func(a, b *ComparePair) int {
		ra, _ := a.Ratio()
		rb, _ := b.Ratio()
		return cmp.Compare(ra, rb)
	})
	return differ[(len(differ)-1)/2]
}
