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

// TestAHuntNeedsAFailure: a hunt over seeds where its mutant breaks nothing
// reports it not caught, and a hunt that catches one reports a run that
// failed, at a seed and strategy whose mutated run fails the same way.
func TestAHuntNeedsAFailure(t *testing.T) {
	base := NewBaseline()
	quiet, caught := false, false
	for m := model.Mutant(0); m < model.NumMutants && !(quiet && caught); m++ {
		for seed := uint64(1); seed <= 3; seed++ {
			h := HuntMutant(m, seed, seed, harness.Strategies, model.KIP, base, 0)
			if !h.Caught {
				if !quiet && bitesNowhere(t, base, m, seed) {
					quiet = true
				}
				continue
			}
			if !caught {
				// with a shrink budget the hunt keeps a smaller case that fails the same way
				s := HuntMutant(m, seed, seed, harness.Strategies, model.KIP, base, 30)
				r := harness.Execute(s.Shrunk, harness.Options{Seed: seed, Strategy: s.Strategy, Profile: model.KIP, Mutants: model.Mutants(0).With(m)})
				if s.After.Events >= s.Before.Events || r.Violation == nil || r.Violation.Invariant != h.Run.Invariant {
					t.Errorf("%s at seed %d shrunk %v -> %v, its run %s %+v: want fewer events failing %s", m, seed, s.Before, s.After, r.Outcome, r.Violation, h.Run.Invariant)
				}
			}
			caught = true
			if h.Seed != seed || h.Run.Outcome == harness.OutcomeOK || h.Run.Kind != "" {
				t.Errorf("%s caught at seed %d %s by a run %+v: want a failure at seed %d no known finding explains", m, h.Seed, h.Strategy, h.Run, seed)
			}
			r := harness.Execute(gen.Generate(seed), harness.Options{Seed: seed, Strategy: h.Strategy, Profile: model.KIP, Mutants: model.Mutants(0).With(m)})
			if got := harness.Summarize(r); got.Outcome != h.Run.Outcome || got.Invariant != h.Run.Invariant || got.Step != h.Run.Step {
				t.Errorf("%s at seed %d %s: the hunt reports %+v, the run %+v", m, seed, h.Strategy, h.Run, got)
			}
		}
	}
	if !quiet || !caught {
		t.Fatalf("seeds 1..3 hold no mutant that bites nowhere (%v) or none caught (%v): pick other seeds", quiet, caught)
	}
}

// bitesNowhere reports whether every strategy's run of seed under mutant m
// passes: a hunt there must report m not caught.
func bitesNowhere(t *testing.T, base *Baseline, m model.Mutant, seed uint64) bool {
	t.Helper()
	sc := gen.Generate(seed)
	for _, st := range harness.Strategies {
		if !base.OK(sc, seed, st, model.KIP) {
			return false
		}
		r := harness.Execute(sc, harness.Options{Seed: seed, Strategy: st, Profile: model.KIP, Mutants: model.Mutants(0).With(m)})
		if r.Outcome != harness.OutcomeOK {
			return false
		}
	}
	return true
}
