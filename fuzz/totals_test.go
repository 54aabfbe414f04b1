package fuzz

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// TestCoverageCountsRuns: a sweep's coverage table says, per strategy and
// goal, how many runs reached the goal, not how often they did: a run that
// reached a goal many times counts once.
func TestCoverageCountsRuns(t *testing.T) {
	strategies := []harness.Strategy{harness.LastTiered, harness.LocalLogStart}
	totals := NewSweepTotals(strategies)
	want := map[harness.Strategy]*[model.NumGoals]int64{harness.LastTiered: {}, harness.LocalLogStart: {}}
	repeated := false
	for seed := uint64(1); seed <= 2; seed++ {
		r := SweepSeed(seed, strategies, model.KIP)
		totals.Add(r)
		for _, run := range r.Runs {
			for g, n := range run.Coverage {
				if n > 0 {
					want[run.Strategy][g]++
				}
				repeated = repeated || n > 1
			}
		}
	}
	if !repeated {
		t.Fatal("no run of seeds 1..2 reached a goal twice: the seeds no longer tell runs from hits")
	}
	for _, st := range strategies {
		if *totals.Coverage[st] != *want[st] {
			t.Errorf("%s: coverage %v, want the runs reaching each goal %v", st, *totals.Coverage[st], *want[st])
		}
	}
}

// TestTotalsAdd: totals count seeds, runs and steps, known findings and
// unknown failures by name and strategy, the first seed of each finding,
// every unknown outcome, and keep exactly the first Keep unknown failures.
func TestTotalsAdd(t *testing.T) {
	ll, lt := harness.LocalLogStart, harness.LastTiered
	totals := NewSweepTotals([]harness.Strategy{ll, lt})
	totals.Keep = 2
	run := func(st harness.Strategy, outcome, inv, kind string, steps int64) harness.RunSummary {
		return harness.RunSummary{Strategy: st, Outcome: outcome, Invariant: inv, Kind: kind, Steps: steps}
	}
	ok, safety, live := harness.OutcomeOK, harness.OutcomeSafety, harness.OutcomeLiveness
	results := []SeedResult{
		{Seed: 4, Runs: []harness.RunSummary{run(ll, ok, "", "", 10), run(lt, safety, "no-hole", "stale-hro", 20)}},
		{Seed: 5, Runs: []harness.RunSummary{run(ll, safety, "no-hole", "", 30), run(lt, live, "catch-up", "", 40)}},
		{Seed: 6, Runs: []harness.RunSummary{run(ll, safety, "no-hole", "", 50), run(lt, safety, "no-hole", "stale-hro", 60)}},
	}
	for _, r := range results {
		totals.Add(r)
	}
	if totals.Seeds != 3 || totals.Runs != 6 || totals.Steps != 210 {
		t.Errorf("seeds %d runs %d steps %d, want 3 6 210", totals.Seeds, totals.Runs, totals.Steps)
	}
	if got := totals.Findings["stale-hro"][lt]; got != 2 || len(totals.Findings) != 1 {
		t.Errorf("findings %v, want stale-hro twice under %s", totals.Findings, lt)
	}
	if f := totals.FirstFindings["stale-hro"]; f.Seed != 4 {
		t.Errorf("first stale-hro at seed %d, want 4", f.Seed)
	}
	if totals.Failures["no-hole"][ll] != 2 || totals.Failures["catch-up"][lt] != 1 || totals.UnknownFailures() != 3 {
		t.Errorf("failures %v (%d), want no-hole twice under %s, catch-up once under %s", totals.Failures, totals.UnknownFailures(), ll, lt)
	}
	if totals.UnknownOutcomes[safety] != 2 || totals.UnknownOutcomes[live] != 1 {
		t.Errorf("unknown outcomes %v", totals.UnknownOutcomes)
	}
	if len(totals.FirstFailures) != 2 || totals.FirstFailures[0].Seed != 5 || totals.FirstFailures[1].Seed != 5 ||
		totals.FirstFailures[1].Run.Strategy != lt {
		t.Errorf("first failures %+v, want seed 5's two (Keep 2)", totals.FirstFailures)
	}
}
