package explore

import (
	"reflect"
	"slices"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestLastStepOnTheState: a search that takes the step it guesses is a
// state's last on the state itself (and rebuilds the state when the guess
// was wrong) visits the same states, in the same order, with the same
// transitions and findings as one that takes every step on a copy. The
// searches chosen both take steps on the state and guess wrong.
func TestLastStepOnTheState(t *testing.T) {
	omts, ok := scenarios.Lookup("omts-local-deleted")
	if !ok {
		t.Fatal("no omts-local-deleted")
	}
	cfgs := []Config{
		{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: 4, Faults: FaultKinds, Lost: true},
		{Scenario: omts, Strategy: harness.LastTiered, Depth: 25},
	}
	if testing.Short() {
		cfgs = cfgs[:1]
	}
	var guessedWrong int64
	for _, cfg := range cfgs {
		var visited [2][]uint64
		search := func(copies bool) *Result {
			copyEveryStep = copies
			defer func() { copyEveryStep, visitHook = false, nil }()
			visitHook = func(run *harness.Run) {
				visited[boolInt(copies)] = append(visited[boolInt(copies)], run.Hash())
			}
			res, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		a, b := search(false), search(true)
		if a.InPlace == 0 || b.InPlace != 0 || b.Restored != 0 {
			t.Errorf("%s: steps on the state %d (want > 0) and %d (want 0), restored %d (want 0)",
				cfg.Scenario.Name, a.InPlace, b.InPlace, b.Restored)
		}
		guessedWrong += a.Restored
		ra, _ := ReportOf(a)
		rb, _ := ReportOf(b)
		if !reflect.DeepEqual(ra, rb) || a.StepsRun != b.StepsRun || a.Runs != b.Runs {
			t.Errorf("%s: on the state %+v\non copies %+v", cfg.Scenario.Name, ra, rb)
		}
		if !slices.Equal(visited[0], visited[1]) {
			t.Errorf("%s: %d states visited on the state, %d on copies, or in another order",
				cfg.Scenario.Name, len(visited[0]), len(visited[1]))
		}
	}
	if !testing.Short() && guessedWrong == 0 {
		t.Error("no guess was wrong: the rebuild is not tested")
	}
}
