package explore

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

func fixture(t testing.TB, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Load("testdata/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// checkReplays: the counterexample, written as a file and parsed back, makes
// simrun run's harness break the same invariant at the same step, with the
// same known-finding kind.
func checkReplays(t *testing.T, cfg Config, cx *Counterexample) {
	t.Helper()
	data, err := cx.Scenario.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenarios.Parse(data)
	if err != nil {
		t.Fatalf("counterexample does not parse: %v\n%s", err, data)
	}
	r := harness.Execute(back, harness.Options{Strategy: cfg.Strategy, Profile: cfg.Profile, Mutants: cfg.Mutants})
	if r.Outcome != cx.Outcome || r.Violation == nil || r.Violation.Invariant != cx.Failure.Invariant ||
		r.Violation.Kind != cx.Failure.Kind || (cx.Outcome == harness.OutcomeSafety && r.Steps != cx.Steps) {
		t.Fatalf("replay: %s %+v at step %d, explore found %s %+v at step %d\n%s", r.Outcome, r.Violation, r.Steps,
			cx.Outcome, cx.Failure, cx.Steps, data)
	}
}

// TestUnmutatedSmallConfigs: on the unmutated model the documented small
// configurations (README, "Exhaustive exploration") are explored to their
// bound with no violation.
func TestUnmutatedSmallConfigs(t *testing.T) {
	for _, c := range SmallConfigs(t) {
		res, err := Run(c.Config)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil {
			t.Errorf("%s: %s at step %d: %s", c.Name, res.Violation.Failure.Invariant, res.Violation.Steps, res.Violation.Failure.Message)
		}
		if !res.Exhausted {
			t.Errorf("%s: bound not exhausted: %+v", c.Name, *res)
		}
		t.Logf("%s: %d states, %d transitions, depth %d, frontier %d", c.Name, res.States, res.Transitions, res.Depth, res.Frontier)
	}
}

// SmallConfig is a documented bounded configuration.
type SmallConfig struct {
	Name string
	Config
}

// SmallConfigs are the configurations the README documents.
func SmallConfigs(t testing.TB) []SmallConfig {
	tiny := fixture(t, "tiny-join")
	var out []SmallConfig
	for _, st := range harness.Strategies {
		out = append(out,
			SmallConfig{"tiny-join/" + string(st) + "/depth-24", Config{Scenario: tiny, Strategy: st, Depth: 24, Liveness: true}},
			SmallConfig{"tiny-join/" + string(st) + "/crash-restart-elect/depth-7", Config{Scenario: tiny, Strategy: st, Depth: 7,
				Faults: []string{FaultCrash, FaultRestart, FaultElect}, Liveness: true}},
		)
	}
	return out
}

// TestRefindsMutants: explore re-finds the bug-zoo mutants whose trigger
// fits a small fixture, with a counterexample that replays.
func TestRefindsMutants(t *testing.T) {
	cases := []struct {
		fixture   string
		mutant    model.Mutant
		invariant string
	}{
		{"tiny-join", model.MutantStaleLLSOAfterAux, "offset-order"},
		{"tiny-join", model.MutantHWNotReset, "offset-order"},
	}
	for _, c := range cases {
		for _, st := range harness.Strategies {
			cfg := Config{Scenario: fixture(t, c.fixture), Strategy: st, Depth: 40, MaxStates: 50_000,
				Mutants: model.Mutants(0).With(c.mutant)}
			res, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation == nil {
				t.Errorf("%s %s: not found (%d states, depth %d)", c.mutant, st, res.States, res.Depth)
				continue
			}
			if got := res.Violation.Failure.Invariant; got != c.invariant {
				t.Errorf("%s %s: %s, want %s", c.mutant, st, got, c.invariant)
			}
			checkReplays(t, cfg, res.Violation)
			t.Logf("%s %s: %s at step %d after %d states, %d choices", c.mutant, st, res.Violation.Failure.Invariant,
				res.Violation.Steps, res.States, res.Violation.Choices)
		}
	}
}
