package fuzz

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// TestGeneratedScenariosReachEveryGoal: the generator's first 300 seeds,
// run under KIP-1023 (every goal is a path of that protocol), reach every
// coverage goal the model counts, so a change to the generator or the model
// that makes a path unreachable fails here instead of going quiet in a
// sweep's table. Seed 920 is added for aux-segment-deleted, a race (remote
// retention deletes the segment an aux build is reading) that none of the
// first 300 reaches since the expiration task deletes one segment at a time,
// after raising the log start offset, as Kafka's does.
func TestGeneratedScenariosReachEveryGoal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs seeds 1..300 (every goal needs them)")
	}
	const seeds = GoalSeeds
	totals := NewSweepTotals([]harness.Strategy{harness.LastTiered})
	for seed := uint64(1); seed <= seeds; seed++ {
		totals.Add(SweepSeed(seed, []harness.Strategy{harness.LastTiered}, model.KIP))
	}
	totals.Add(SweepSeed(920, []harness.Strategy{harness.LastTiered}, model.KIP))
	cov := totals.Coverage[harness.LastTiered]
	for g := model.Goal(0); g < model.NumGoals; g++ {
		if cov[g] == 0 {
			t.Errorf("goal %s: no run of seeds 1..%d and 920 reached it", g, seeds)
		}
	}
}
