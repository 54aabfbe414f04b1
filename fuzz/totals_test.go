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
