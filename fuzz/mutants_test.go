package fuzz

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// mutantSeedBudget is the fixed, small seed budget within which every
// mutant must be caught.
const mutantSeedBudget = 300

// TestEveryMutantIsCaught: each deliberate bug breaks an invariant within
// the seed budget on a seed the unmutated model passes, with a failure that
// no known finding explains: a mutant labelled as a known finding would pass
// a sweep (simrun sweep --mutant M would exit 0). Each is hunted under the
// KIP text's profile unless HuntProfiles names another. Harmless mutants are
// findings and must stay uncaught. The catching scenario, shrunk as simrun
// mutants shrinks it, still fails under the mutant with the same outcome,
// invariant and no known finding's kind, and its failure record says so: an
// unknown failure never shrinks into a known one.
func TestEveryMutantIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: hunts every mutant in seeds 1..300")
	}
	bases := map[string]*Baseline{} // the unmutated runs, per profile
	for m := model.Mutant(0); m < model.NumMutants; m++ {
		p := HuntProfile(m, model.KIP)
		if bases[p.Name()] == nil {
			bases[p.Name()] = NewBaseline()
		}
		h := HuntMutant(m, 1, mutantSeedBudget, harness.Strategies, p, bases[p.Name()], shrinkKindRuns)
		_, harmless := HarmlessMutants[m]
		switch {
		case harmless && h.Caught:
			t.Errorf("%s is declared harmless but seed %d %s broke %s: %s", m, h.Seed, h.Strategy, h.Run.Invariant, h.Run.Message)
		case !harmless && !h.Caught:
			t.Errorf("%s: no seed in 1..%d caught it", m, mutantSeedBudget)
		case h.Caught && h.Run.Kind != "":
			t.Errorf("%s: caught by %s labelled as the known finding %s", m, h.Run.Invariant, h.Run.Kind)
		case h.Caught:
			checkShrunkKeeps(t, m.String(), h.Shrunk, h.Run)
			t.Logf("%-24s caught at seed %d (%s, %s) by %s", m, h.Seed, h.Strategy, p.Name(), h.Run.Invariant)
		}
	}
}
