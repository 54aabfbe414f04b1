package explore

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestMaxStatesIsExact: --max-states N stops the search after exactly N
// distinct states (the work budget, not N+1), and says so.
func TestMaxStatesIsExact(t *testing.T) {
	for _, n := range []int{1, 2, 20} {
		visited := 0
		visitHook = func(*harness.Run) { visited++ }
		res, err := Run(Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, MaxStates: n})
		visitHook = nil
		if err != nil {
			t.Fatal(err)
		}
		if res.States != int64(n) || visited != n || res.Stop != StopStates || res.Exhausted {
			t.Errorf("--max-states %d: %d states (%d visited), stop %q, exhausted %v; want %d states, stopped by the state budget",
				n, res.States, visited, res.Stop, res.Exhausted, n)
		}
	}
}

// TestReachedTimesSpanTheLastLevel: a search bounded by --depth D reports
// as ReachedMinMs and ReachedMaxMs the earliest and the latest simulated
// time of the states D steps from the root (the frontier); in tiny-join a
// message delivered at the network range's low or high end puts them at
// different times.
func TestReachedTimesSpanTheLastLevel(t *testing.T) {
	const depth = 8
	var level, last []int64 // the times of the states the level being expanded adds
	visitHook = func(run *harness.Run) {
		if run.Done() == nil {
			level = append(level, run.NowMs())
		}
	}
	defer func() { visitHook = nil }()
	res, err := Run(Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: depth, NoReduction: true,
		Progress: func(int, int64, int) { last, level = level, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Covered != depth || res.Stop != StopDepth || len(last) != res.Frontier {
		t.Fatalf("covered %d, stop %q, %d states at depth %d of a frontier of %d: want the search cut at --depth %d",
			res.Covered, res.Stop, len(last), depth, res.Frontier, depth)
	}
	lo, hi := last[0], last[0]
	for _, ms := range last {
		lo, hi = min(lo, ms), max(hi, ms)
	}
	if lo == hi {
		t.Fatalf("every state at depth %d is at %d ms: the fixture no longer tells the ends apart", depth, lo)
	}
	if res.ReachedMinMs != lo || res.ReachedMaxMs != hi {
		t.Errorf("reached %d..%d ms, want the depth-%d states' %d..%d ms", res.ReachedMinMs, res.ReachedMaxMs, depth, lo, hi)
	}
}

// TestFromMsStopsAtTheFirstStepThere: --from-ms T runs the prefix
// (alternative 0 at every choice) up to and including the first step at or
// after T: the root is the state it leaves (BaseSteps, BaseMs), so the
// other steps due at that time are the search's. tiny-join's plain run has
// three steps at 200 ms; the prefix takes only the first.
func TestFromMsStopsAtTheFirstStepThere(t *testing.T) {
	sc := *fixture(t, "tiny-join")
	sc.Explore = &scenarios.Schedule{Choices: []int{}}
	run := harness.Start(&sc, harness.Options{Strategy: harness.LastTiered, Chooser: &harness.Script{}, StateHash: true})
	var times []int64 // times[i]: the time of step i+1
	for run.Done() == nil {
		run.Step()
		times = append(times, run.NowMs())
	}
	for _, from := range []int64{1, 10, 200} {
		i := slices.IndexFunc(times, func(ms int64) bool { return ms >= from })
		if i < 0 || from == 200 && times[i+1] != 200 {
			t.Fatalf("--from-ms %d: the plain run's step times %v changed (want two or more at 200 ms)", from, times)
		}
		res, err := Run(Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, FromMs: from, Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.BaseSteps != int64(i+1) || res.BaseMs != times[i] {
			t.Errorf("--from-ms %d: root after step %d at %d ms, want after step %d at %d ms (the first at or after %d ms)",
				from, res.BaseSteps, res.BaseMs, i+1, times[i], from)
		}
	}
}

// TestFromMsShareCountsThePrefix: a search started by --from-ms covers
// the prefix's steps as well as its own: the share of a seeded run's steps
// it names is (prefix + covered) of the run's.
func TestFromMsShareCountsThePrefix(t *testing.T) {
	r := Report{Covered: 10, BaseSteps: 760, BaseMs: 30_000, ScenarioSteps: 1101, ScenarioMs: 60_000, Exhausted: true, Stop: StopDepth}
	text := Text(Header{Depth: 10, MaxStates: 1000}, r, 0, nil)
	if want := "every state of 10 steps from step 760 (770 of the 1101 steps of a seeded run: 69.9%) visited"; !strings.Contains(text, want) {
		t.Errorf("lacks %q:\n%s", want, text)
	}
}

// TestKnownFileBesideOut: a known finding's file is --out's name with
// "-KIND" before its extension, in --out's directory.
func TestKnownFileBesideOut(t *testing.T) {
	for out, want := range map[string]string{
		"cx.json":         "cx-stale-hro.json",
		"kx/cx.json":      "kx/cx-stale-hro.json",
		"cx":              "cx-stale-hro",
		"a.d/cx.min.json": "a.d/cx.min-stale-hro.json",
	} {
		if got := KnownFile(out, "stale-hro"); got != filepath.FromSlash(want) {
			t.Errorf("KnownFile(%q) = %q, want %q", out, got, want)
		}
	}
}
