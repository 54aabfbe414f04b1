package explore

import (
	"fmt"
	"testing"

	"tierfetch/harness"
)

// TestReexpandedStatesMatchTheFullSearch: a crash then a restart can bring
// a broker back to a state it had some steps before, so the reduced search
// reaches states it already expanded, by a path with fewer steps asleep,
// and expands them again for those steps only (Result.Reexpanded). With
// them it visits exactly the states of the full search (no reduction, no
// sleep sets; the brute force's, compared outside -short: 150,000 paths);
// its figures, the re-expanded states' times, the estimate that counts
// their steps left and the steps run included, are pinned.
func TestReexpandedStatesMatchTheFullSearch(t *testing.T) {
	cfg := Config{Scenario: fixture(t, "zoo/hw-not-reset"), Strategy: harness.LastTiered, Faults: []string{"crash", "restart"},
		Lost: true, Depth: 6}
	full := cfg
	full.NoReduction = true
	want, _, fres := searched(t, full)
	if !testing.Short() {
		brute, _ := bruteForce(t, cfg)
		if diff := setDiff(brute, want); diff != "" {
			t.Errorf("full search: %s", diff)
		}
	}
	got, _, res := searched(t, cfg)
	if diff := setDiff(want, got); diff != "" {
		t.Errorf("reduced search: %s", diff)
	}
	pin := fmt.Sprintf("states %d (full %d), transitions %d (full %d), skipped %d, re-expanded %d, reached %d to %d ms, memory %.4f MiB, steps run %d",
		res.States, fres.States, res.Transitions, fres.Transitions, res.Skipped, res.Reexpanded, res.ReachedMinMs, res.ReachedMaxMs,
		res.MemoryMiB, res.StepsRun)
	if want := "states 1441 (full 1441), transitions 3039 (full 3487), skipped 448, re-expanded 3, reached 0 to 15000 ms, memory 10.5439 MiB, steps run 3368"; pin != want {
		t.Errorf("%s, want %s", pin, want)
	}
}
