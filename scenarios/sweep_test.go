package scenarios

import (
	"os"
	"strconv"
	"testing"
)

// sweepSeeds is how many generated scenarios the test suite runs under both
// strategies (TIERFETCH_SWEEP_SEEDS overrides it for a longer local run).
func sweepSeeds() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("TIERFETCH_SWEEP_SEEDS"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 300
}

// TestGeneratedScenariosHaveNoUnknownFailures runs generated scenarios under
// both protocols: every invariant must hold, except known findings, which
// the checker names by kind.
func TestGeneratedScenariosHaveNoUnknownFailures(t *testing.T) {
	known := 0
	n := sweepSeeds()
	for seed := uint64(1); seed <= n; seed++ {
		sc := Generate(seed)
		for _, st := range Strategies {
			r := Execute(sc, Options{Seed: seed, Strategy: st})
			switch {
			case r.Outcome == OutcomeOK:
			case r.Violation.Kind != "":
				known++
			default:
				t.Errorf("seed %d %s: %s %s: %s (replay: simrun gen --seed %d --out s.json && simrun run --scenario s.json --strategy %s --trace)",
					seed, st, r.Outcome, r.Violation.Invariant, r.Violation.Message, seed, st)
			}
		}
	}
	t.Logf("%d seeds x 2 strategies, %d known findings", n, known)
}
