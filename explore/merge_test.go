package explore

import (
	"slices"
	"testing"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/invariants"
	"tierfetch/model"
)

// TestMergeKeepsShortestAndAddsUp: shards split the frontier and each
// finds its own counterexamples, so the merged report adds up their
// frontiers, and keeps, per known kind, the counterexample with the fewest
// steps (and the earliest unknown violation), whichever shard found it and
// in whatever order the shards are given.
func TestMergeKeepsShortestAndAddsUp(t *testing.T) {
	shard := func(frontier int, violationStep int64, known map[string]int64) Report {
		r := Report{States: 100, SharedStates: 10, Frontier: frontier, Exhausted: true, Complete: true, Stop: StopComplete,
			LivenessChecked: int64(frontier), MemoHits: 1, LivenessCut: 2, LivenessStepsCut: 3, ContSteps: 1000}
		if violationStep > 0 {
			r.Violation = &Finding{Invariant: "no-hole", Step: violationStep}
		}
		for _, kind := range []string{"stale-hro", "stale-log-start"} {
			if step, ok := known[kind]; ok {
				r.Known = append(r.Known, Finding{Invariant: "no-hole", Kind: kind, Step: step})
			}
		}
		return r
	}
	reports := []Report{
		shard(3, 0, map[string]int64{"stale-hro": 30}),
		shard(5, 41, map[string]int64{"stale-hro": 12, "stale-log-start": 50}),
		shard(7, 17, map[string]int64{"stale-hro": 20}),
	}
	shards := []campaign.Shard{{K: 0, N: 3}, {K: 1, N: 3}, {K: 2, N: 3}}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		var rs []Report
		var ss []campaign.Shard
		for _, i := range order {
			rs, ss = append(rs, reports[i]), append(ss, shards[i])
		}
		m, err := Merge(rs, ss)
		if err != nil {
			t.Fatal(err)
		}
		if m.Frontier != 3+5+7 {
			t.Errorf("order %v: frontier %d, want the shards' 3+5+7 = 15", order, m.Frontier)
		}
		if m.States != 3*100-2*10 {
			t.Errorf("order %v: states %d, want 280 (3 shards of 100, the 10 before the split once)", order, m.States)
		}
		if got := [5]int64{m.LivenessChecked, m.MemoHits, m.LivenessCut, m.LivenessStepsCut, m.ContSteps}; got != [5]int64{15, 3, 6, 9, 3000} {
			t.Errorf("order %v: liveness checked, memo hits, cut, cut by max-steps, steps %v; want each shard's added up: [15 3 6 9 3000]",
				order, got)
		}
		if m.Violation == nil || m.Violation.Step != 17 {
			t.Errorf("order %v: violation %+v, want the earliest, at step 17", order, m.Violation)
		}
		if len(m.Known) != 2 || m.Known[0].Kind != "stale-hro" || m.Known[0].Step != 12 ||
			m.Known[1].Kind != "stale-log-start" || m.Known[1].Step != 50 {
			t.Errorf("order %v: known %+v, want stale-hro at step 12 (the shortest of 30, 12, 20), stale-log-start at 50",
				order, m.Known)
		}
	}
}

// TestEveryKnownKindGetsItsCounterexample: the search keeps the first
// counterexample of every known kind it meets, also of two kinds that
// break the same invariant (the stale-log-start kinds do). The checker's
// naming is stood in for by rerunHook: hw-not-reset's violations on
// tiny-join, all of one invariant, are named by turns after two kinds.
func TestEveryKnownKindGetsItsCounterexample(t *testing.T) {
	kinds := []string{invariants.KindStaleLogStartCopyDisabled, invariants.KindStaleLogStartTieringOff}
	calls := 0
	rerunHook = func(r *harness.RunResult) {
		if r.Violation != nil {
			r.Violation.Kind = kinds[calls%2]
			calls++
		}
	}
	defer func() { rerunHook = nil }()
	res, err := Run(Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: 14,
		Mutants: model.Mutants(0).With(model.MutantHWNotReset)})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 {
		t.Fatalf("%d violations: the fixture no longer breaks the invariant twice", calls)
	}
	var got []string
	for _, cx := range res.Known {
		got = append(got, cx.Failure.Kind)
	}
	if res.Violation != nil || res.KnownCount != int64(calls) || !slices.Equal(got, kinds) {
		t.Errorf("violation %v, known count %d of %d, counterexamples of %v; want one of each of %v",
			res.Violation, res.KnownCount, calls, got, kinds)
	}
}
