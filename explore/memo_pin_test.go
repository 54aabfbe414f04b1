package explore

import (
	"fmt"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestContinuationCountsArePinned: what explore prints of its search
// (states, transitions, runs, steps run, why it stopped, the steps the
// reduction skipped) and of its
// liveness continuations (how many ran, how many met an earlier one, their
// steps) is a function of the scenario and the flags, the same on every machine.
// Where a continuation hashes its state for the memo (the first memoFirst
// steps, then once a period) and when it gives up on its budget decide
// those figures without changing a verdict (TestMemoKeepsVerdicts), so a
// change there must show up here, and be meant.
func TestContinuationCountsArePinned(t *testing.T) {
	stale, ok := scenarios.Lookup("finding-reenable-stale-hro")
	if !ok {
		t.Fatal("no finding-reenable-stale-hro")
	}
	tiny := fixture(t, "tiny-join")
	omts, ok := scenarios.Lookup("omts-local-deleted")
	if !ok {
		t.Fatal("no omts-local-deleted")
	}
	for _, c := range []struct {
		name                                  string
		cfg                                   Config
		checked, hits, steps, cut, knownCount int64
		search                                string
	}{
		{"tiny-join/depth-16", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 16, Liveness: true}, 396, 336, 11295, 0, 0, "1322 1895 1 1902 depth, skipped 8"},
		{"finding-reenable-stale-hro/depth-10", Config{Scenario: stale, Strategy: harness.LastTiered, Depth: 10, Liveness: true}, 6, 2, 84, 0, 6, "76 118 6 236 depth, skipped 0"},
		{"omts-local-deleted/depth-3", Config{Scenario: omts, Strategy: harness.LastTiered, Depth: 3, Liveness: true}, 92, 89, 7278, 0, 0, "162 362 2 368 depth, skipped 8"},
		{"tiny-join/from-5ms/depth-6", Config{Scenario: tiny, Strategy: harness.LastTiered, FromMs: 5, Depth: 6, Liveness: true}, 36, 21, 2676, 0, 0, "77 82 1 92 depth, skipped 0"},
		{"tiny-join/crash-elect-lost/depth-5/max-memory-64", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 5, Liveness: true,
			Faults: []string{"crash", "elect"}, Lost: true, MaxMemoryMiB: 64}, 61, 33, 4648, 0, 0, "306 1552 1 1579 depth, skipped 32"},
		{"tiny-join/crash/max-states-20", Config{Scenario: tiny, Strategy: harness.LastTiered, MaxStates: 20, Liveness: true,
			Faults: []string{"crash"}}, 16, 10, 1280, 1, 0, "20 20 1 19 max-states, skipped 0"},
	} {
		res, err := Run(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := [5]int64{res.LivenessChecked, res.MemoHits, res.ContinuationSteps, res.LivenessCut, int64(res.KnownCount)}
		if want := [5]int64{c.checked, c.hits, c.steps, c.cut, c.knownCount}; got != want {
			t.Errorf("%s: continuations checked, memo hits, steps, cut, known findings %v, want %v", c.name, got, want)
		}
		if got := fmt.Sprintf("%d %d %d %d %s, skipped %d", res.States, res.Transitions, res.Runs, res.StepsRun, res.Stop, res.Skipped); got != c.search {
			t.Errorf("%s: states, transitions, runs, steps run, stop, skipped by the reduction %q, want %q", c.name, got, c.search)
		}
	}
}
