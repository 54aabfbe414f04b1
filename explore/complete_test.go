package explore

import (
	"fmt"
	"testing"

	"tierfetch/harness"
)

// TestCompleteSearchMatchesBruteForce: a search to the scenario's end
// (tiny-join from 2200 ms: the last 100 ms of the heal, every path ending) visits
// exactly the states the brute force passes through, the ended ones
// included, with the reduction on and off, and says so: complete, the
// paths that ended, the deepest level (an ended path's), the states
// counted once each. Its figures are pinned; kept or re-executed, it
// reports the same.
func TestCompleteSearchMatchesBruteForce(t *testing.T) {
	cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, FromMs: 2200}
	ref := cfg
	ref.Depth = 1000 // never reached: every path ends before
	want, _ := bruteForce(t, ref)
	for _, c := range []struct {
		name string
		cfg  Config
		pin  string
	}{
		{"reduced", cfg, "states 46, transitions 53, skipped 1, ended 8, depth 9, covered 8, frontier 0, complete, exhausted true, complete true; runs 1, steps run 238"},
		{"full", Config{Scenario: cfg.Scenario, Strategy: cfg.Strategy, FromMs: cfg.FromMs, NoReduction: true}, "states 46, transitions 54, skipped 0, ended 8, depth 9, covered 8, frontier 0, complete, exhausted true, complete true; runs 1, steps run 238"},
		{"re-executed", Config{Scenario: cfg.Scenario, Strategy: cfg.Strategy, FromMs: cfg.FromMs, Reexecute: true}, "states 46, transitions 53, skipped 1, ended 8, depth 9, covered 8, frontier 0, complete, exhausted true, complete true; runs 93, steps run 10678"},
	} {
		got, _, res := searched(t, c.cfg)
		if diff := setDiff(want, got); diff != "" {
			t.Errorf("%s: %s", c.name, diff)
		}
		if int64(len(got)) != res.States {
			t.Errorf("%s: %d states visited, %d counted", c.name, len(got), res.States)
		}
		pin := fmt.Sprintf("states %d, transitions %d, skipped %d, ended %d, depth %d, covered %d, frontier %d, %s, exhausted %v, complete %v; runs %d, steps run %d",
			res.States, res.Transitions, res.Skipped, res.Ended, res.Depth, res.Covered, res.Frontier, res.Stop, res.Exhausted, res.Complete,
			res.Runs, res.StepsRun)
		if pin != c.pin {
			t.Errorf("%s: %s, want %s", c.name, pin, c.pin)
		}
	}
}
