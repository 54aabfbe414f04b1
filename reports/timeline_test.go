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
	return sampledUnder(t, name, st, model.KIP)
}

func sampledUnder(t *testing.T, name string, st harness.Strategy, p model.Profile) *TimelineSampler {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	s := NewTimelineSampler(string(st))
	res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Profile: p, Observers: []model.Observer{s}})
	s.Finish(res.End)
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

// bothStrategies samples both strategies' runs of a scenario under p.
func bothStrategies(t *testing.T, name string, p model.Profile) []*TimelineSampler {
	return []*TimelineSampler{sampledUnder(t, name, harness.LocalLogStart, p), sampledUnder(t, name, harness.LastTiered, p)}
}

// TestTimelineLegendListsWhatIsDrawn: the leader-change mark is in the
// legend only when a leader changes in a drawn window; the follower's
// entries only when a replica was added.
func TestTimelineLegendListsWhatIsDrawn(t *testing.T) {
	for _, c := range []struct {
		scenario string
		want     []string
		absent   []string
	}{
		{"omts-local-deleted", []string{"new follower (dashed)", "add_replica", "ISR join", "remote range"}, []string{"leader change"}},
		{"election-mid-bootstrap", []string{"leader change", "ISR join"}, nil},
	} {
		runs := bothStrategies(t, c.scenario, model.KIP)
		if c.scenario == "election-mid-bootstrap" && len(runs[0].elections) == 0 {
			t.Fatalf("%s: no leader change sampled", c.scenario)
		}
		svg, err := TimelineChart(TimelineTitle(c.scenario, "kip", 1, ""), runs)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !bytespkg.Contains(svg, []byte(">"+w+"<")) {
				t.Errorf("%s: legend lacks %q", c.scenario, w)
			}
		}
		for _, w := range c.absent {
			if bytespkg.Contains(svg, []byte(">"+w+"<")) {
				t.Errorf("%s: legend lists %q, which is not drawn", c.scenario, w)
			}
		}
	}
	// A run with no replica added: no follower, no add_replica, no join.
	r := sampled(t, "finding-reenable-stale-hro", harness.LastTiered)
	if r.follower >= 0 {
		t.Fatalf("finding-reenable-stale-hro adds b%d: pick a fixture without add_replica", r.follower)
	}
	pg, err := timelinePage("t", []*TimelineSampler{r})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := pg.svg()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"new follower (dashed)", "add_replica", "ISR join"} {
		if bytespkg.Contains(svg, []byte(">"+w+"<")) {
			t.Errorf("no follower: legend lists %q", w)
		}
	}
}

// TestTimelineBootstrapScales: under kafka-4.3, hazard-idle-fully-tiered's
// flag-on follower takes about a minute to join where the flag-off one
// takes a few hundred ms: each bootstrap panel gets its own time scale,
// spanning a quarter more than its own bootstrap, and says so; where the
// two are alike (omts-local-deleted) they share one. Every bootstrap
// panel's time axis has at least three labels.
func TestTimelineBootstrapScales(t *testing.T) {
	for _, c := range []struct {
		scenario string
		profile  model.Profile
		shared   bool
	}{{"hazard-idle-fully-tiered", model.Kafka43, false}, {"omts-local-deleted", model.KIP, true}} {
		runs := bothStrategies(t, c.scenario, c.profile)
		pg, err := timelinePage(TimelineTitle(c.scenario, c.profile.Name(), 1, ""), runs)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(pg.title, "profile "+c.profile.Name()) {
			t.Errorf("%s: title %q does not name the profile", c.scenario, pg.title)
		}
		var spans []float64
		for i, row := range pg.rows {
			z := row[1]
			r := runs[i]
			own := seconds(r.joinedAt) - seconds(r.addedAt)
			spans = append(spans, z.X.Max)
			if !c.shared && math.Abs(z.X.Max-1.25*own) > 1e-6 {
				t.Errorf("%s row %d: bootstrap panel ends at %v s, want 1.25 x its own %v s", c.scenario, i, z.X.Max, own)
			}
			if !c.shared && !strings.Contains(z.X.Label.Text, "own scale") {
				t.Errorf("%s row %d: axis %q does not say it has its own scale", c.scenario, i, z.X.Label.Text)
			}
			values, labels := labelled(z.X.Tick.Marker, z.X.Min, z.X.Max)
			if len(labels) < 3 || values[0] > z.X.Min+(z.X.Max-z.X.Min)/2 {
				t.Errorf("%s row %d: time labels %q on [%v, %v]", c.scenario, i, labels, z.X.Min, z.X.Max)
			}
		}
		if c.shared != (spans[0] == spans[1]) {
			t.Errorf("%s: bootstrap panels end at %v: shared %v, want %v", c.scenario, spans, spans[0] == spans[1], c.shared)
		}
		if !c.shared && spans[1] < 50*spans[0] {
			t.Errorf("%s: bootstraps %v s: the fixture no longer differs enough", c.scenario, spans)
		}
	}
}

// TestSinceTicks: the bootstrap axis reads in ms under 2 s and in s above,
// three to eight distinct labels, 0 at the add_replica.
func TestSinceTicks(t *testing.T) {
	for _, c := range []struct{ lo, hi float64 }{{-0.01, 0.28}, {-0.001, 0.025}, {-3, 75}, {-0.05, 1.2}, {0, 1.99}} {
		_, labels := labelled(sinceTicks{}, c.lo, c.hi)
		seen := map[string]bool{}
		for _, l := range labels {
			if seen[l] {
				t.Errorf("[%v, %v]: %q repeats %q", c.lo, c.hi, labels, l)
			}
			seen[l] = true
		}
		unit := " ms"
		if c.hi >= 2 {
			unit = " s"
		}
		if len(labels) < 3 || len(labels) > 8 || labels[0] != "0"+unit {
			t.Errorf("[%v, %v]: labels %q, want 3 to 8 from 0%s", c.lo, c.hi, labels, unit)
		}
	}
}
