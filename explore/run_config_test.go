package explore

import (
	"testing"

	"tierfetch/campaign"
	"tierfetch/model"
)

// TestRunTakesItsProfile: a search runs the profile it is given, and its
// counterexample's failure record names it, so 'simrun replay' reruns the
// same profile (the default, nil, is kip).
func TestRunTakesItsProfile(t *testing.T) {
	m := model.MutantLSOAfterRemoteDelete
	for _, name := range model.ProfileNames() {
		cfg := Config{Scenario: fixture(t, "zoo/"+m.String()), Strategy: zooStrategy(t, m), MaxStates: 100,
			Mutants: model.Mutants(0).With(m), Profile: model.Profiles[name]}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation == nil || res.Violation.Scenario.Failure == nil || res.Violation.Scenario.Failure.Profile != name {
			t.Fatalf("%s: violation %+v; want one whose record names %s", name, res.Violation, name)
		}
		checkReplays(t, cfg, res.Violation)
	}
}

// TestRunRefusesAShardPastItsSplit: shard K/N takes K in 0..N-1.
func TestRunRefusesAShardPastItsSplit(t *testing.T) {
	for _, s := range []campaign.Shard{{K: 2, N: 2}, {K: 3, N: 2}} {
		if _, err := Run(Config{Scenario: fixture(t, "tiny-join"), Depth: 1, Shard: s}); err == nil {
			t.Errorf("shard %s: no error", s)
		}
	}
	if _, err := Run(Config{Scenario: fixture(t, "tiny-join"), Depth: 1, Shard: campaign.Shard{K: 1, N: 2}}); err != nil {
		t.Errorf("shard 1/2: %v", err)
	}
}
