package reports

import (
	bytespkg "bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

func sampled(t *testing.T, name string, st harness.Strategy) *TimelineSampler {
	t.Helper()
	sc, _ := scenarios.Lookup(name)
	s := NewTimelineSampler(string(st))
	res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{s}})
	s.Finish(res.Cluster.Now)
	return s
}

// TestTimelineSamplerSeesTheBootstrap: the follower appears at its
// add_replica, starts at LLSO 3000 (KIP-405) or EPUO 9000 (KIP-1023), joins
// the ISR; the remote range is [0, 9000).
func TestTimelineSamplerSeesTheBootstrap(t *testing.T) {
	for st, start := range map[harness.Strategy]int64{harness.LocalLogStart: 3000, harness.LastTiered: 9000} {
		s := sampled(t, "omts-local-deleted", st)
		if s.follower != 1 || !s.joined || s.end != sim.AtMs(90_000) {
			t.Fatalf("%s: follower b%d joined %v end %v", st, s.follower, s.joined, s.end)
		}
		last := s.samples[len(s.samples)-1]
		if !last.leader || !last.follower || !last.remote || last.v[tsFollowerLLSO] != start || last.v[tsRemoteStart] != 0 ||
			last.v[tsRemoteEnd] != 9000 || last.v[tsLeaderLEO] != 12000 || last.v[tsFollowerLEO] != 12000 {
			t.Errorf("%s: last sample %+v", st, last)
		}
		for i := 1; i < len(s.samples); i++ {
			if s.samples[i].at <= s.samples[i-1].at || s.samples[i].v == s.samples[i-1].v {
				t.Fatalf("%s: samples %d and %d are not distinct changes in time order", st, i-1, i)
			}
		}
	}
}

// TestTimelineChart: both protocols on one page, deterministic, bounded.
func TestTimelineChart(t *testing.T) {
	draw := func() []byte {
		data, err := TimelineChart("omts-local-deleted, seed 1", []*TimelineSampler{
			sampled(t, "omts-local-deleted", harness.LocalLogStart), sampled(t, "omts-local-deleted", harness.LastTiered)})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b := draw(), draw()
	if !bytespkg.Equal(a, b) {
		t.Errorf("two drawings of the same runs differ")
	}
	for _, want := range []string{"<?xml", "local-log-start: whole run", "last-tiered: whole run", "bootstrap of b1", "remote range", "ISR join"} {
		if !bytespkg.Contains(a, []byte(want)) {
			t.Errorf("timeline lacks %q", want)
		}
	}
	if len(a) > 300_000 {
		t.Errorf("timeline is %d bytes: the series are not reduced", len(a))
	}
}

func TestReduceKeepsTheShape(t *testing.T) {
	var xys plotter.XYs
	for i := range 10_000 {
		xys = append(xys, plotter.XY{X: float64(i) / 10_000, Y: float64(i % 7)})
	}
	r := reduce(xys, 0, 1)
	if len(r) > 4*timelineBuckets || len(r) < timelineBuckets {
		t.Errorf("reduced to %d points", len(r))
	}
	if r[0] != xys[0] || r[len(r)-1] != xys[len(xys)-1] {
		t.Errorf("ends moved: %v %v", r[0], r[len(r)-1])
	}
	lo, hi := r[0].Y, r[0].Y
	for i, p := range r {
		lo, hi = min(lo, p.Y), max(hi, p.Y)
		if i > 0 && p.X < r[i-1].X {
			t.Fatalf("out of order at %d", i)
		}
	}
	if lo != 0 || hi != 6 {
		t.Errorf("range [%v, %v], want [0, 6]", lo, hi)
	}
}

// TestTimeTicksAreDistinct: a short bootstrap window's time labels keep
// enough decimals to be distinct and exact; a long run's are whole seconds.
func TestTimeTicksAreDistinct(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{0.995, 1.17}, {1.0, 1.2}, {64.99, 65.3}, {0, 0.03}, {0, 120}} {
		seen := map[string]bool{}
		var labels []string
		for _, tk := range (timeTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label == "" {
				continue
			}
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || seen[tk.Label] || math.Abs(v-tk.Value) > (c.hi-c.lo)/1000 {
				t.Errorf("ticks of [%v, %v]: label %q for %v (labels so far %q)", c.lo, c.hi, tk.Label, tk.Value, labels)
			}
			seen[tk.Label] = true
			labels = append(labels, tk.Label)
		}
		if len(labels) < 2 {
			t.Errorf("ticks of [%v, %v]: %q", c.lo, c.hi, labels)
		}
		if c.hi == 120 && strings.Join(labels, " ") != "0 50 100" {
			t.Errorf("ticks of a whole run: %q, want whole seconds", labels)
		}
	}
}
