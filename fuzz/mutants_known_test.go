package fuzz

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/scenarios"
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

// TestHuntAll: every mutant is hunted once, in order, under the profile
// given (explicit) with the hunts' budget and fixes; a budget too small for
// any unmutated run leaves every mutant uncaught (a baseline that fails
// cannot tell a mutant's failure). A caught hunt saves its shrunk case,
// listed in the directory's manifest, as a scenario that reads back.
func TestHuntAll(t *testing.T) {
	var order []model.Mutant
	var first *MutantHunt
	HuntAll(2, 3, model.KIP, true, 0, 0, 0, func(h MutantHunt, p model.Profile) {
		order = append(order, h.Mutant)
		if p.Name() != model.KIP.Name() {
			t.Errorf("%s hunted under %s, want kip", h.Mutant, p.Name())
		}
		if want := HuntMutant(h.Mutant, 2, 3, harness.Strategies, model.KIP, NewBaseline(), 0); h.Caught != want.Caught || h.Seed != want.Seed || h.Strategy != want.Strategy {
			t.Errorf("%s: HuntAll caught %v at %d %s, HuntMutant %v at %d %s", h.Mutant, h.Caught, h.Seed, h.Strategy, want.Caught, want.Seed, want.Strategy)
		}
		if h.Caught && first == nil {
			first = &h
		}
	})
	if len(order) != int(model.NumMutants) || !slices.IsSorted(order) {
		t.Fatalf("hunted %v, want each of the %d mutants once, in order", order, model.NumMutants)
	}
	if first == nil {
		t.Fatal("seeds 2..3 catch no mutant: pick other seeds")
	}
	HuntAll(2, 3, model.KIP, true, 0, 1, 0, func(h MutantHunt, _ model.Profile) {
		if h.Caught {
			t.Errorf("%s caught with a budget of one step: the baseline's budget was not the hunt's", h.Mutant)
		}
	})

	dir := t.TempDir()
	m, err := outfile.OpenManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Save(dir, m); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(first.SaveFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenarios.Parse(data)
	if err != nil {
		t.Fatalf("saved case does not read back: %v", err)
	}
	want, _ := first.Shrunk.Marshal()
	if got, _ := back.Marshal(); !bytes.Equal(got, want) {
		t.Errorf("saved case differs from the hunt's:\n%s\n%s", got, want)
	}
	listed, _ := os.ReadFile(filepath.Join(dir, outfile.ManifestName))
	if !strings.Contains(string(listed), filepath.Base(first.SaveFile(dir))+"\n") {
		t.Errorf("manifest does not list %s:\n%s", first.SaveFile(dir), listed)
	}
}
