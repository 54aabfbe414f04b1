package harness

import (
	"tierfetch/model"
	"tierfetch/scenarios"
)

// RunAll runs sc with every strategy in strategies and gathers the result
// object.
func RunAll(sc *scenarios.Scenario, seed uint64, strategies []Strategy, p model.Profile, sink func(string)) (Result, []*RunResult) {
	return RunAllWith(sc, Options{Seed: seed, Profile: p, TraceSink: sink}, strategies)
}

// RunAllWith is RunAll with every option (mutants, trace sink) given; the
// strategy of opt is replaced by each of strategies in turn.
func RunAllWith(sc *scenarios.Scenario, opt Options, strategies []Strategy) (Result, []*RunResult) {
	if opt.Profile == nil {
		opt.Profile = model.KIP
	}
	res := Result{SchemaVersion: SchemaVersion, Seed: opt.Seed, Scenario: sc.Name, Profile: opt.Profile.Name(), Fixes: opt.Fixes.Names()}
	var runs []*RunResult
	for _, st := range strategies {
		opt.Strategy = st
		r := Execute(sc, opt)
		runs = append(runs, r)
		res.Runs = append(res.Runs, r.JSON())
	}
	return res, runs
}

// StatesAround reruns a run up to its failing step and returns the state
// before and after that step: the run is deterministic, so the rerun is the
// same run.
func StatesAround(sc *scenarios.Scenario, opt Options, step int64) (before, after State) {
	opt.TraceSink = nil
	if step > 1 {
		opt.StopAfter = step - 1
		before = StateOf(Execute(sc, opt).Cluster)
	} else {
		opt.StopAfter = -1
		before = StateOf(Execute(sc, opt).Cluster)
	}
	opt.StopAfter = step
	after = StateOf(Execute(sc, opt).Cluster)
	return before, after
}
