package harness_test

import (
	"testing"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestIncrementalChecksAgreeWithFull: over a sweep of generated scenarios,
// under each strategy and profile, and with each deliberate bug switched on
// (so that there are violations to find), the checker that skips brokers
// whose state did not change finds, at every step, what a checker that
// checks every broker finds (Options.CrossCheck fails the run where they
// differ).
func TestIncrementalChecksAgreeWithFull(t *testing.T) {
	seeds := uint64(200)
	if testing.Short() {
		seeds = 40
	}
	type config struct {
		profile model.Profile
		mutants model.Mutants
		seeds   uint64
	}
	var configs []config
	for _, name := range model.ProfileNames() {
		configs = append(configs, config{model.Profiles[name], 0, seeds})
	}
	for _, name := range model.MutantNames() {
		m, _ := model.MutantByName(name)
		configs = append(configs, config{model.KIP, model.Mutants(0).With(m), seeds / 4})
	}
	violations := 0
	for _, cf := range configs {
		for seed := uint64(1); seed <= cf.seeds; seed++ {
			sc := fuzz.Generate(seed)
			for _, st := range harness.Strategies {
				r := harness.Execute(sc, harness.Options{Seed: seed, Strategy: st, Profile: cf.profile, Mutants: cf.mutants, CrossCheck: true})
				if r.Violation != nil && r.Violation.Invariant == harness.InvariantCrossCheck {
					t.Fatalf("seed %d %s %s mutants %b, step %d: %s", seed, st, cf.profile.Name(), cf.mutants, r.Steps, r.Violation.Message)
				}
				if r.Violation != nil {
					violations++
				}
			}
		}
	}
	if violations < 100 {
		t.Fatalf("only %d runs found a violation: too few to compare the checkers on", violations)
	}
	t.Logf("%d runs with a violation, found alike", violations)
}
