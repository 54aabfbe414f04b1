package reports

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"tierfetch/model"
	"tierfetch/sim"
)

// at is a sample at ms: the leader's log end leo (its other offsets 0),
// the follower's log end fleo (-1: no follower yet) and the remote range
// [0, remote) (0: none).
func at(ms, leo, fleo, remote int64) timelineSample {
	s := timelineSample{at: sim.AtMs(ms), leader: true, follower: fleo >= 0, remote: remote > 0}
	s.v[tsLeaderHW], s.v[tsLeaderLEO] = leo, leo
	if fleo >= 0 {
		s.v[tsFollowerHW], s.v[tsFollowerLEO] = fleo, fleo
	}
	if remote > 0 {
		s.v[tsRemoteEnd] = remote
	}
	return s
}

// handRun is a run sampled by hand: broker follower (-1: none) added at
// addMs, joined at joinMs (-1: never), the run ending at endMs.
func handRun(strategy string, follower int, addMs, joinMs, endMs int64, samples ...timelineSample) *TimelineSampler {
	r := &TimelineSampler{Strategy: strategy, follower: follower, addedAt: sim.AtMs(addMs), end: sim.AtMs(endMs), samples: samples, leader: 0}
	if joinMs >= 0 {
		r.joined, r.joinedAt = true, sim.AtMs(joinMs)
	}
	return r
}

// twoRuns is a pair whose new followers, both broker 0, joined 100 and lt
// ms after their add_replica at 1 s, in runs of 2 s.
func twoRuns(lt int64) []*TimelineSampler {
	return []*TimelineSampler{
		handRun("local-log-start", 0, 1000, 1100, 2000, at(0, 1000, -1, 0), at(1000, 1200, 0, 400), at(1100, 1250, 1250, 400)),
		handRun("last-tiered", 0, 1000, 1000+lt, 2000, at(0, 1000, -1, 0), at(1000, 1200, 800, 400), at(1000+lt, 1300, 1300, 800)),
	}
}

// count is how many texts on the page read s.
func count(texts []svgText, s string) int {
	n := 0
	for _, tx := range texts {
		if tx.s == s {
			n++
		}
	}
	return n
}

// TestTimelinePageLayout: two runs whose bootstraps (of broker 0) are
// exactly sharedZoomFactor apart share one time scale: a page 13 in wide
// and 1 + 3.4 in a row high, each row the whole run (0 to its end) and
// its bootstrap (a twentieth of the longer bootstrap before the
// add_replica to a quarter after the end of it), each time axis named
// once, under the last row; offsets up to 4% above the highest; the
// legend in a column at the right, 2 in wide or as wide as it needs (here
// 11 pt more, which widens the page).
func TestTimelinePageLayout(t *testing.T) {
	runs := twoRuns(300)
	pg, err := timelinePage("t", runs)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range pg.rows {
		if len(row) != 2 {
			t.Fatalf("row %d has %d panels, want the whole run and the bootstrap", i, len(row))
		}
		whole, z := row[0], row[1]
		if whole.X.Min != 0 || whole.X.Max != 2 || math.Abs(z.X.Min+0.015) > 1e-12 || z.X.Max != 0.375 {
			t.Errorf("row %d: whole run [%v, %v] s, bootstrap [%v, %v] s; want [0, 2] and [-0.015, 0.375]", i, whole.X.Min, whole.X.Max, z.X.Min, z.X.Max)
		}
		if whole.Y.Min != 0 || math.Abs(whole.Y.Max-1300*1.04) > 1e-9 || z.Y.Max != whole.Y.Max {
			t.Errorf("row %d: offsets [%v, %v], bootstrap up to %v; want up to 1352", i, whole.Y.Min, whole.Y.Max, z.Y.Max)
		}
	}
	svg, err := pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	w, h, texts := svgPage(t, svg)
	if w != 947 || math.Abs(h-561.6) > 1e-9 {
		t.Errorf("page %vx%v pt, want 947x561.6 (13 in and the legend's 11 pt beyond its column, by 1 + 2x3.4 in)", w, h)
	}
	second := find(t, texts, "last-tiered: whole run")
	for _, s := range []string{"time (s)", "time since add_replica"} {
		if n := count(texts, s); n != 1 {
			t.Errorf("%d texts %q, want one", n, s)
		} else if tx := find(t, texts, s); tx.y <= second.y {
			t.Errorf("%q at y %.1f, above the last row's title (%.1f)", s, tx.y, second.y)
		}
	}
	if n := count(texts, "time since add_replica (this row's own scale)"); n != 0 {
		t.Errorf("a shared scale says %d times that a row has its own", n)
	}
	if n := count(texts, "bootstrap of b0: joined the ISR after 100 ms") + count(texts, "bootstrap of b0: joined the ISR after 300 ms"); n != 2 {
		t.Errorf("%d bootstrap panel titles of b0, want 2", n)
	}
	for _, s := range []string{"LSO (log start)", "add_replica", "ISR join", "remote range", "new follower (dashed)"} {
		if tx := find(t, texts, s); tx.x < 800 || tx.x > 840 {
			t.Errorf("legend entry %q at x %.1f, want just right of the legend column's start at 800 (8 pt into it)", s, tx.x)
		}
	}
}

// TestTimelineOwnScales: bootstraps more than sharedZoomFactor apart each
// get their own scale, and each row says so; the first row's starts a
// twentieth of its own bootstrap before the add_replica.
func TestTimelineOwnScales(t *testing.T) {
	pg, err := timelinePage("t", twoRuns(301))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]float64{{-0.005, 0.125}, {-0.01505, 0.37625}} {
		z := pg.rows[i][1]
		if math.Abs(z.X.Min-want[0]) > 1e-12 || math.Abs(z.X.Max-want[1]) > 1e-12 {
			t.Errorf("row %d: bootstrap [%v, %v] s, want %v", i, z.X.Min, z.X.Max, want)
		}
		if z.X.Label.Text != "time since add_replica (this row's own scale)" {
			t.Errorf("row %d: bootstrap axis %q", i, z.X.Label.Text)
		}
	}
}

// TestTimelineWithoutFollower: a run no replica was added to has no
// bootstrap panel; alone, its page is 9 in wide (and what the legend
// needs), one panel; beside a run
// with one, only that run's row has a bootstrap panel.
func TestTimelineWithoutFollower(t *testing.T) {
	none := handRun("last-tiered", -1, 0, -1, 2000, at(0, 1000, -1, 0), at(500, 1500, -1, 0))
	pg, err := timelinePage("t", []*TimelineSampler{none})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	if w, h, _ := svgPage(t, svg); len(pg.rows[0]) != 1 || w != 655.12 || math.Abs(h-316.8) > 1e-9 {
		t.Errorf("%d panels on a page %vx%v pt, want 1 on 655.12x316.8 (9 in and the legend's 7.12 pt beyond its column, by 1 + 3.4 in)", len(pg.rows[0]), w, h)
	}
	runs := []*TimelineSampler{twoRuns(300)[0], none}
	pg, err = timelinePage("t", runs)
	if err != nil {
		t.Fatal(err)
	}
	if pg.rows[0][1] == nil || pg.rows[1][1] != nil {
		t.Fatalf("bootstrap panels %v, %v: want the first row's only", pg.rows[0][1], pg.rows[1][1])
	}
	svg, err = pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, texts := svgPage(t, svg); count(texts, "bootstrap of b0: joined the ISR after 100 ms") != 1 || strings.Contains(string(svg), "bootstrap of b-1") {
		t.Errorf("bootstrap panels: want b0's alone")
	}
}

// TestTimelineJoinAtTheEnd: an ISR join at the run's last instant is
// drawn (the legend lists it).
func TestTimelineJoinAtTheEnd(t *testing.T) {
	r := handRun("last-tiered", 1, 1000, 1500, 1500, at(0, 1000, -1, 0), at(1000, 1200, 0, 0), at(1500, 1200, 1200, 0))
	svg, err := TimelineChart("t", []*TimelineSampler{r})
	if err != nil {
		t.Fatal(err)
	}
	_, _, texts := svgPage(t, svg)
	find(t, texts, "ISR join")
}

// TestTimelineBootstrapAtTheEnd: a run that ends at its add_replica, at
// time 0, still gets a bootstrap window: its 20 ms minimum.
func TestTimelineBootstrapAtTheEnd(t *testing.T) {
	r := handRun("last-tiered", 1, 0, -1, 0, at(0, 1000, 0, 0))
	pg, err := timelinePage("t", []*TimelineSampler{r})
	if err != nil {
		t.Fatal(err)
	}
	if z := pg.rows[0][1]; z.X.Min != 0 || z.X.Max != 0.02 {
		t.Errorf("bootstrap [%v, %v] s, want [0, 0.02]", z.X.Min, z.X.Max)
	}
}

// TestStepSeries: a series within [lo, hi] is a step polyline: it starts
// at lo with the value then held (a sample that ends exactly at lo is
// that value), steps at each change, breaks where the series has no
// value, and ends at hi (a change exactly at hi is drawn); the remote
// band is the polygon between its end and start series.
func TestStepSeries(t *testing.T) {
	r := handRun("last-tiered", 1, 50, -1, 400,
		at(0, 100, -1, 0), at(100, 200, 0, 50), at(200, 200, 150, 100), at(300, 300, -1, 100), at(400, 300, -1, 0))
	r.samples[3].leader = false // a leader-less step: the leader's series break, the others go on
	r.samples[3].remote = true
	lo, hi := sim.AtMs(100), sim.AtMs(300)
	str := func(ls []plotter.XYs) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString("[")
			for _, p := range l {
				fmt.Fprintf(&b, " %g,%g", p.X, p.Y)
			}
			b.WriteString(" ]")
		}
		return b.String()
	}
	for _, c := range []struct {
		idx  int
		want string
	}{
		{tsLeaderLEO, "[ 0.1,100 0.1,100 0.1,200 0.3,200 ]"},
		{tsFollowerLEO, "[ 0.1,0 0.2,0 0.2,150 0.3,150 ]"},
		{tsRemoteEnd, "[ 0.1,50 0.2,50 0.2,100 0.3,100 ]"},
	} {
		if got := str(stepSeries(r, c.idx, lo, hi)); got != c.want {
			t.Errorf("series %d: %s, want %s", c.idx, got, c.want)
		}
	}
	r.samples[3].leader = true
	if got := str(stepSeries(r, tsLeaderLEO, lo, hi)); got != "[ 0.1,100 0.1,100 0.1,200 0.3,200 0.3,300 0.3,300 ]" {
		t.Errorf("leader's log end with a change at hi: %s", got)
	}
	band, err := remoteBand(r, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	if len(band) != 1 || str(band[0].XYs) != "[ 0.1,50 0.2,50 0.2,100 0.3,100 0.3,0 0.1,0 ]" {
		t.Errorf("remote band %d polygons: %s", len(band), str(band[0].XYs))
	}
}

// TestReduceBuckets: a polyline of more than 2 x timelineBuckets points
// keeps, per bucket of [lo, hi], its first, lowest (the first of equals),
// highest (likewise) and last point, in order; buckets are counted from
// lo. One of 2 x timelineBuckets points is left as it is.
func TestReduceBuckets(t *testing.T) {
	// Rising: every bucket keeps its first and last point. lo is half a
	// bucket off a multiple of the width.
	lo, hi := 10.002, 11.002
	var xys plotter.XYs
	for i := range 1000 {
		xys = append(xys, plotter.XY{X: lo + (float64(i)+0.5)*(hi-lo)/1000, Y: float64(i)})
	}
	var want []float64
	for b := range timelineBuckets {
		want = append(want, float64(4*b), float64(4*b+3))
	}
	var got []float64
	for _, p := range reduce(xys, lo, hi) {
		got = append(got, p.Y)
	}
	if !slices.Equal(got, want) {
		t.Errorf("rising line reduced to %v..., want %v...", got[:min(8, len(got))], want[:8])
	}
	// A first bucket of one point; then a bucket whose highest comes
	// before its lowest, each twice; then a rising tail.
	xys = plotter.XYs{{X: 0.001, Y: 5}, {X: 0.0041, Y: 5}, {X: 0.0045, Y: 9}, {X: 0.005, Y: 0}, {X: 0.0055, Y: 0}, {X: 0.006, Y: 9}, {X: 0.007, Y: 5}}
	for i := range 500 {
		xys = append(xys, plotter.XY{X: 0.01 + float64(i)*0.0019, Y: 10 + float64(i)})
	}
	want3 := append(slices.Clone(xys[:4]), xys[6], xys[7]) // 0 | 1, 2 (highest), 3 (lowest), 6 | 7
	if r := reduce(xys, 0, 1); !slices.Equal(r[:6], want3) {
		t.Errorf("first buckets reduced to %v, want %v", r[:6], want3)
	}
	// Exactly 2 x timelineBuckets points, all in one bucket: as they are.
	xys = xys[:0]
	for i := range 2 * timelineBuckets {
		xys = append(xys, plotter.XY{X: 0.001 * float64(i) / 1000, Y: float64(i % 3)})
	}
	if r := reduce(xys, 0, 1); len(r) != 2*timelineBuckets {
		t.Errorf("%d points reduced to %d", len(xys), len(r))
	}
}

// TestSortInts sorts.
func TestSortInts(t *testing.T) {
	for _, c := range [][]int{{3, 1, 2}, {2, 3, 1}, {4, 3, 2, 1}, {1}, {}} {
		got := sortInts(slices.Clone(c))
		want := slices.Sorted(slices.Values(c))
		if !slices.Equal(got, want) {
			t.Errorf("sortInts(%v) = %v", c, got)
		}
	}
}

// TestTimelineTicksExact: the time axes' and the offset axis's labels word
// for word, and how many unlabelled ticks lie between: the bootstrap axis
// in ms below 2 s, in s from 2 s, with a minor tick a fifth of a label
// step (a quarter of a step of 2).
func TestTimelineTicksExact(t *testing.T) {
	type tc struct {
		lo, hi float64
		labels string
		minor  int
	}
	check := func(name string, ticks []plot.Tick, c tc) {
		t.Helper()
		var labels []string
		minor := 0
		for _, tk := range ticks {
			if tk.Label == "" {
				minor++
			} else {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " | "); got != c.labels || minor != c.minor {
			t.Errorf("%s [%v, %v]: %q and %d minor, want %q and %d", name, c.lo, c.hi, got, minor, c.labels, c.minor)
		}
	}
	for _, c := range []tc{
		{-0.001, 0.02, "0 ms | 5 ms | 10 ms | 15 ms | 20 ms", 17},
		{-0.003, 0.06, "0 ms | 20 ms | 40 ms | 60 ms", 9},
		{-0.0015, 0.03, "0 ms | 10 ms | 20 ms | 30 ms", 12},
		{-0.1, 2, "0.0 s | 0.5 s | 1.0 s | 1.5 s | 2.0 s", 17},
		{-0.15, 3, "0 s | 1 s | 2 s | 3 s", 12},
		{-0.005, 0.055, "0 ms | 20 ms | 40 ms", 10}, // a third of the range is a 1-2-5 step itself
	} {
		check("since", sinceTicks{}.Ticks(c.lo, c.hi), c)
	}
	for _, c := range []tc{{0, 0.02, "0.00 | 0.01 | 0.02", 8}, {0, 1.3, "0.0 | 0.4 | 0.8 | 1.2", 10}} {
		check("time", timeTicks{}.Ticks(c.lo, c.hi), c)
	}
	for _, c := range []tc{{0, 1.04, "0 | 0.5 | 1", 8}, {0, 12480, "0 | 4000 | 8000 | 12000", 9}} {
		check("offset", offsetTicks{}.Ticks(c.lo, c.hi), c)
	}
}

// TestTimelineSamplerEvents: the sampler follows the first replica added
// (broker 0 here, before it reported: zero offsets), not a later one,
// counts a remote range of one offset, and keeps one sample per instant
// (the state after the last step at it); a follower that has not reported
// and is not below one that has is left out.
func TestTimelineSamplerEvents(t *testing.T) {
	var s *TimelineSampler
	state := func(ms int64, b int, leader bool, leo int64) {
		role := model.RoleNone
		if leader {
			role = model.RoleLeader
		}
		s.Event(sim.AtMs(ms), &model.Event{Kind: model.EvBrokerState, Broker: b, Role: role, Up: true, Log: model.LogOffsets{HighWatermark: leo, LogEnd: leo}})
	}
	input := func(ms int64, kind model.EventKind, b int) {
		s.Event(sim.AtMs(ms), &model.Event{Kind: kind, Broker: b})
	}
	s = NewTimelineSampler("last-tiered")
	input(0, model.EvRunStart, -1)
	state(0, 1, true, 100)
	input(1000, model.EvAddReplica, 0)
	input(2000, model.EvAddReplica, 2)
	s.Event(sim.AtMs(2000), &model.Event{Kind: model.EvRemoteState, Offset: 0, Last: 0})
	input(3000, model.EvProduce, -1)
	state(3000, 1, true, 300)
	input(3000, model.EvProduce, -1)
	state(3000, 1, true, 400)
	s.Finish(sim.AtMs(4000))
	if s.follower != 0 || s.addedAt != sim.AtMs(1000) || s.end != sim.AtMs(4000) {
		t.Errorf("follows b%d added at %v, ends at %v; want b0 at 1 s, 4 s", s.follower, s.addedAt, s.end)
	}
	want := []timelineSample{at(0, 100, -1, 0), at(1000, 100, 0, 0), at(2000, 100, 0, 1), at(3000, 400, 0, 1)}
	if !slices.Equal(s.samples, want) {
		t.Errorf("samples\n%+v\nwant\n%+v", s.samples, want)
	}

	s = NewTimelineSampler("last-tiered")
	input(0, model.EvRunStart, -1)
	state(0, 0, true, 100)
	state(0, 1, false, 100)
	input(1000, model.EvAddReplica, 2)
	input(2000, model.EvProduce, -1)
	s.Finish(sim.AtMs(2000))
	if want := []timelineSample{at(0, 100, -1, 0)}; s.follower != 2 || !slices.Equal(s.samples, want) {
		t.Errorf("b2 added before it reported: follows b%d, samples %+v, want b2 and %+v", s.follower, s.samples, want)
	}
}

// TestBootstrapWindowWithoutLeader: the bootstrap window starts a
// twentieth of the bootstrap before the add_replica even when nothing is
// drawn there (no broker leads from just before the add_replica).
func TestBootstrapWindowWithoutLeader(t *testing.T) {
	gone := at(900, 0, -1, 0)
	gone.leader = false
	back := at(1000, 0, 0, 0)
	back.leader = false
	r := handRun("last-tiered", 1, 1000, 1100, 2000, at(0, 1000, -1, 0), gone, back, at(1050, 1200, 500, 0), at(1100, 1200, 1200, 0))
	pg, err := timelinePage("t", []*TimelineSampler{r})
	if err != nil {
		t.Fatal(err)
	}
	if z := pg.rows[0][1]; math.Abs(z.X.Min+0.005) > 1e-12 || z.X.Max != 0.125 {
		t.Errorf("bootstrap [%v, %v] s, want [-0.005, 0.125]", z.X.Min, z.X.Max)
	}
}
