package fuzz

import (
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/invariants"
	"tierfetch/model"
)

// TestAKnownFindingCatchesNoMutant: a hunt counts a mutant caught only by
// a failure no known finding explains. Generated seed 348 passes unmutated
// under kip; with lso-after-remote-delete both strategies break no-hole
// the way the known finding hro-after-truncation does (found by running
// seeds 1..400 under every mutant): simrun mutants --seeds 348..348 must
// not call the mutant caught there.
func TestAKnownFindingCatchesNoMutant(t *testing.T) {
	const seed = 348
	m := model.MutantLSOAfterRemoteDelete
	sc := gen.Generate(seed)
	base := NewBaseline()
	for _, st := range harness.Strategies {
		if !base.OK(sc, seed, st, model.KIP) {
			t.Fatalf("seed %d %s fails unmutated: the seed no longer tells a mutant's failure from the model's", seed, st)
		}
		r := harness.Execute(sc, harness.Options{Seed: seed, Strategy: st, Profile: model.KIP, Mutants: model.Mutants(0).With(m)})
		if r.Violation == nil || r.Violation.Kind != invariants.KindHROAfterTruncation {
			t.Fatalf("seed %d %s under %s: %s %+v; the seed no longer shows the known finding", seed, st, m, r.Outcome, r.Violation)
		}
	}
	h := HuntMutant(m, seed, seed, harness.Strategies, model.KIP, base, 0)
	if h.Caught {
		t.Errorf("%s caught at seed %d %s by %s (%s): a known finding, not the mutant", m, h.Seed, h.Strategy, h.Run.Invariant, h.Run.Kind)
	}
}
