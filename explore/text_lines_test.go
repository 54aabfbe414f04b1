package explore

import (
	"testing"

	"tierfetch/harness"
)

// TestTextLineByLine: what explore prints, line by line, for a plain
// search (no faults, to the end, no liveness, no time, nothing found) and
// for one with every optional line (faults, a depth, a mutant and a fix,
// liveness with cut states, the time taken, a seeded run that fails, a
// start after a prefix, known findings and a violation with its injected
// faults): each optional part shows exactly when its setting does.
func TestTextLineByLine(t *testing.T) {
	plain := Text(Header{Scenario: "tiny", Strategy: "last-tiered", Profile: "kip", Shard: "0/1"},
		Report{States: 3, Transitions: 4, Depth: 2, Covered: 2, ScenarioSteps: 2, ScenarioMs: 1500, ReachedMinMs: 1500,
			ReachedMaxMs: 1500, Ended: 1, Exhausted: true, Complete: true, Stop: StopComplete}, 0, nil)
	want := "explore tiny  strategy last-tiered  profile kip  depth to the end  faults none  lost false  reduction off  shard 0/1\n" +
		"  scenario: a seeded run takes 2 steps; 1.500 s simulated\n" +
		"  states 3  transitions 4  inputs skipped by the reduction 0  depth reached 2  frontier 0  ended 1\n" +
		"  exhausted: every reachable state visited, to the end of the scenario (every path ended, at the end or at a violation)\n" +
		"  64-bit state hashes: chance two of the 3 states collided (taken for one, the second's successors perhaps unexplored), optimistically n^2/2^65: 2.4e-19\n" +
		"  no unknown violation\n"
	if plain != want {
		t.Errorf("plain search:\n%s\nwant\n%s", plain, want)
	}

	full := Text(Header{Scenario: "tiny", Strategy: "last-tiered", Profile: "kafka-4.3", Depth: 7, Faults: []string{"crash", "elect"},
		Lost: true, Reduction: true, Shard: "1/2", Mutant: "hw-not-reset", Fix: "all", Liveness: true, MaxStates: 100, MaxMemory: 512},
		Report{States: 1000, Transitions: 2500, Skipped: 9, Depth: 7, Covered: 7, Frontier: 40, ScenarioSteps: 411, ScenarioMs: 2250,
			SeededOutcome: harness.OutcomeSafety, BaseSteps: 5, BaseMs: 12, ReachedMinMs: 30, ReachedMaxMs: 45, Stop: StopStates,
			LivenessChecked: 30, MemoHits: 12, LivenessCut: 10, ContSteps: 6400, MemoryMiB: 3, KnownCount: 2,
			Known:     []Finding{{Outcome: harness.OutcomeLiveness, Invariant: "liveness", Kind: "stale-hro", Step: 20, AtMs: 300, Choices: 3}},
			Violation: &Finding{Outcome: harness.OutcomeSafety, Invariant: "no-hole", Message: "a hole", Step: 9, AtMs: 40, Choices: 2, Faults: []string{"t=0.010s crash broker 1"}}},
		2, nil)
	want = "explore tiny  strategy last-tiered  profile kafka-4.3  depth 7  faults crash,elect  lost true  reduction on  shard 1/2  mutant hw-not-reset  fix all\n" +
		"  scenario: a seeded run stops at step 411 (safety-violation); 2.250 s simulated; the search starts at step 5 (t=0.012 s, FromMs)\n" +
		"  states 1000  transitions 2500  inputs skipped by the reduction 9  depth reached 7  frontier 40  ended 0\n" +
		"  liveness: 30 continuations from the states the bound cut, 12 took a memoized verdict, 6400 steps; 10 cut states NOT checked (the continuations' budget, MaxStates x 64 steps, ran out)\n" +
		"  2.00 s, 500 states/s, memory estimate 3 of the search's 372 MiB (MaxMemory 512)\n" +
		"  NOT exhausted: MaxStates 100 reached at depth 7: every state of 7 steps from step 5 (12 of the 411 steps of a seeded run: 2.9%) visited; every path explored to 0.030 s or later (at most 0.045 s) of 2.250 s\n" +
		"  64-bit state hashes: chance two of the 1000 states collided (taken for one, the second's successors perhaps unexplored), optimistically n^2/2^65: 2.7e-14\n" +
		"  known finding stale-hro: liveness-violation liveness at step 20 (t=300 ms), 3 choices\n" +
		"  2 violating transitions explained by known findings\n" +
		"  VIOLATION safety-violation no-hole at step 9 (t=40 ms), 2 choices: a hole\n" +
		"    injected t=0.010s crash broker 1\n"
	if full != want {
		t.Errorf("every line:\n%s\nwant\n%s", full, want)
	}

	// Liveness with no cut state left unchecked, and a depth-bound search
	// of a scenario whose length is not known (a seeded run's steps 0).
	cut := Text(Header{Scenario: "tiny", Strategy: "last-tiered", Profile: "kip", Depth: 3, Liveness: true, Shard: "0/1"},
		Report{States: 5, Transitions: 6, Depth: 3, Covered: 3, ScenarioMs: 1000, ReachedMinMs: 10, ReachedMaxMs: 20, Stop: StopDepth,
			Exhausted: true, LivenessChecked: 2, MemoHits: 1, ContSteps: 80}, 0, nil)
	want = "explore tiny  strategy last-tiered  profile kip  depth 3  faults none  lost false  reduction off  shard 0/1\n" +
		"  scenario: a seeded run takes 0 steps; 1.000 s simulated\n" +
		"  states 5  transitions 6  inputs skipped by the reduction 0  depth reached 3  frontier 0  ended 0\n" +
		"  liveness: 2 continuations from the states the bound cut, 1 took a memoized verdict, 80 steps\n" +
		"  exhausted to Depth 3, not to the scenario's end: every state of the first 3 steps visited; every path explored to 0.010 s or later (at most 0.020 s) of 1.000 s\n" +
		"  64-bit state hashes: chance two of the 5 states collided (taken for one, the second's successors perhaps unexplored), optimistically n^2/2^65: 6.8e-19\n" +
		"  no unknown violation\n"
	if cut != want {
		t.Errorf("liveness, no cut, length unknown:\n%s\nwant\n%s", cut, want)
	}
}
