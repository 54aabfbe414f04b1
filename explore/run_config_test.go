package explore

import (
	"slices"
	"testing"

	"tierfetch/campaign"
	"tierfetch/harness"
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

// TestRunSaysWhyItStopped: a search that took every path to the bound
// is exhausted, complete when no depth bound cut it (from 2000 ms to the
// end: the heal's steps; ScenarioMs: the
// scenario's duration_ms + heal_ms, tiny-join's 300 + 2000); one whose
// runs the work budget cut is not exhausted and says the steps stopped it;
// a --from-ms at the scenario's end is refused. A whole search never
// splits: no states before a split.
func TestRunSaysWhyItStopped(t *testing.T) {
	tiny := fixture(t, "tiny-join")
	for _, c := range []struct {
		depth    int
		fromMs   int64
		maxSteps int64
		stop     string
		complete bool
	}{
		{0, 2000, 0, StopComplete, true},
		{3, 0, 0, StopDepth, false},
		{0, 0, 5, StopSteps, false},
		{3, 0, 2, StopSteps, false},
	} {
		res, err := Run(Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: c.depth, FromMs: c.fromMs, MaxSteps: c.maxSteps})
		if err != nil {
			t.Fatal(err)
		}
		exhausted := c.maxSteps == 0
		if res.Stop != c.stop || res.Exhausted != exhausted || res.Complete != c.complete || (res.BudgetCut > 0) == exhausted ||
			res.ScenarioMs != 2300 || res.SharedStates != 0 {
			t.Errorf("depth %d, max steps %d: stop %s, exhausted %v, complete %v, %d paths cut, scenario %d ms, %d shared; want %s, %v, %v, 2300 ms, 0",
				c.depth, c.maxSteps, res.Stop, res.Exhausted, res.Complete, res.BudgetCut, res.ScenarioMs, res.SharedStates, c.stop, exhausted, c.complete)
		}
	}
	if _, err := Run(Config{Scenario: tiny, FromMs: 2300}); err == nil {
		t.Error("--from-ms 2300 (the end of tiny-join) accepted")
	}
	if _, err := Run(Config{Scenario: tiny, FromMs: 2299, Depth: 1}); err != nil {
		t.Errorf("--from-ms 2299: %v", err)
	}
}

// TestShardsSplitAtTheFirstLevelBigEnough: a search in N shards runs
// together up to the first level holding at least splitStates*N states
// (Config.Shard's doc) and splits there: its states before the split are
// those the whole search had visited when that level was complete (what
// its progress says after each level). Among the N tried, one whose level
// holds exactly splitStates*N states (N <= 16), where "at least" is "equal".
func TestShardsSplitAtTheFirstLevelBigEnough(t *testing.T) {
	type level struct {
		states int64
		size   int
	}
	exact := false
	for _, rc := range referenceConfigs(t) {
		var levels []level
		whole := rc.Config
		whole.Progress = func(_ int, states int64, size int) { levels = append(levels, level{states, size}) }
		if _, err := Run(whole); err != nil {
			t.Fatal(err)
		}
		ns := []uint64{2, 3}
		for i, l := range levels {
			if l.size%splitStates == 0 && l.size/splitStates >= 2 && l.size/splitStates <= 16 &&
				!slices.ContainsFunc(levels[:i], func(e level) bool { return e.size >= l.size }) {
				ns, exact = append(ns, uint64(l.size/splitStates)), true
			}
		}
		for _, n := range ns {
			want := int64(-1)
			for _, l := range levels {
				if l.size >= splitStates*int(n) {
					want = l.states
					break
				}
			}
			if want < 0 {
				continue // never splits: checkShards' configurations do
			}
			for k := range n {
				c := rc.Config
				c.Shard = campaign.Shard{K: k, N: n}
				res, err := Run(c)
				if err != nil {
					t.Fatal(err)
				}
				if res.SharedStates != want {
					t.Errorf("%s, shard %d/%d: %d states before the split, want %d (levels %+v)", rc.Name, k, n, res.SharedStates, want, levels)
				}
			}
		}
	}
	if !exact {
		t.Error("no reference configuration has a level of exactly splitStates*N states")
	}
}

// TestStatesCountWhatTheSearchVisits: the states a search reports are
// those it visits, from the start or from --from-ms's first step there,
// each reached by a transition but the first (a search from the start
// runs its root at least once).
func TestStatesCountWhatTheSearchVisits(t *testing.T) {
	for _, from := range []int64{0, 2000} {
		visited := int64(0)
		visitHook = func(*harness.Run) { visited++ }
		res, err := Run(Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: 6, FromMs: from})
		visitHook = nil
		if err != nil {
			t.Fatal(err)
		}
		if res.States != visited || res.Transitions < res.States-1 || res.Runs < 1 {
			t.Errorf("--from-ms %d: %d states, %d transitions, %d runs; visited %d", from, res.States, res.Transitions, res.Runs, visited)
		}
	}
}
