package explore

import (
	"fmt"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestABudgetKeepsItsStop: a search a budget stopped says which one, even
// when another budget cut part of it afterwards: the state budget, though
// the work budget then cut liveness continuations (max-steps relabels only
// a search that would otherwise be exhausted); the memory budget, though
// the continuations' budget then left cut states unchecked (max-states
// relabels only a search that would otherwise be exhausted). Neither is
// exhausted, and the text names the budget that stopped it.
func TestABudgetKeepsItsStop(t *testing.T) {
	tiny := fixture(t, "tiny-join")
	for _, c := range []struct {
		name    string
		cfg     Config
		h       Header
		figures string
		line    string
		live    string
	}{
		// From 2200 ms (step 184) 10 states are four steps deep; the
		// continuations from the cut states pass step 189.
		{"from-2200ms/max-states-10/max-steps-189",
			Config{Scenario: tiny, Strategy: harness.LastTiered, FromMs: 2200, MaxStates: 10, MaxSteps: 189, Liveness: true},
			Header{MaxStates: 10, Liveness: true}, "states 10, max-states, exhausted false, paths cut 4, continuations 0 checked 0 cut 4 cut by max-steps",
			"NOT exhausted: MaxStates 10 reached at depth 4",
			"liveness: 0 continuations from the states the bound cut, 0 took a memoized verdict, 8 steps; 4 NOT checked (MaxSteps cut their runs)\n"},
		// The visited states alone pass 0.75 MiB before depth 4 is done;
		// 1,200 x 64 continuation steps do not reach every cut state.
		{"every-fault/depth-4/max-memory-17/max-states-1200",
			Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 4, Faults: FaultKinds, Liveness: true, MaxMemoryMiB: 17, MaxStates: 1200},
			Header{Depth: 4, MaxStates: 1200, MaxMemory: 17, Liveness: true}, "states 1110, max-memory, exhausted false, paths cut 0, continuations 442 checked 363 cut 0 cut by max-steps",
			"NOT exhausted: MaxMemory 17 MiB reached at depth 4",
			"; 363 cut states NOT checked (the continuations' budget, MaxStates x 64 steps, ran out)\n"},
	} {
		res, err := Run(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		figures := fmt.Sprintf("states %d, %s, exhausted %v, paths cut %d, continuations %d checked %d cut %d cut by max-steps", res.States,
			res.Stop, res.Exhausted, res.BudgetCut, res.LivenessChecked, res.LivenessCut, res.LivenessStepsCut)
		if figures != c.figures {
			t.Errorf("%s: %s, want %s", c.name, figures, c.figures)
		}
		r, _ := ReportOf(res)
		text := Text(c.h, r, 0, nil)
		if !strings.Contains(text, "\n  "+c.line) {
			t.Errorf("%s: no line %q in\n%s", c.name, c.line, text)
		}
		if !strings.Contains(text, c.live) {
			t.Errorf("%s: no %q in\n%s", c.name, c.live, text)
		}
	}
}

// TestDepthBoundsOfOneAndTwo: a search bounded at one or two steps
// reaches exactly that depth, every state within it visited; the initial
// states are depth 0.
func TestDepthBoundsOfOneAndTwo(t *testing.T) {
	tiny := fixture(t, "tiny-join")
	for _, c := range []struct {
		depth int
		want  string
	}{{1, "states 8, depth reached 1, covered 1, depth, runs 1"}, {2, "states 27, depth reached 2, covered 2, depth, runs 1"}} {
		res, err := Run(Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: c.depth})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("states %d, depth reached %d, covered %d, %s, runs %d", res.States, res.Depth, res.Covered, res.Stop,
			res.Runs); got != c.want {
			t.Errorf("depth %d: %s, want %s", c.depth, got, c.want)
		}
	}
}

// TestStoppedPrefixAsksEveryStopEverySteps: a --from-ms prefix asks
// Config.Stopped at its first step and every stopEvery steps after: told
// to stop at the second question, it stops at step stopEvery, in the
// prefix, with no state visited.
func TestStoppedPrefixAsksEveryStopEverySteps(t *testing.T) {
	omts, ok := scenarios.Lookup("omts-local-deleted")
	if !ok {
		t.Fatal("no omts-local-deleted")
	}
	calls := 0
	// 12 s into omts-local-deleted is step 616 of a seeded run.
	res, err := Run(Config{Scenario: omts, Strategy: harness.LastTiered, FromMs: 12_000, Depth: 1,
		Stopped: func() bool { calls++; return calls > 1 }})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.InterruptedIn != PartPrefix || res.StepsRun != stopEvery || res.States != 0 || calls != 2 {
		t.Errorf("interrupted %v in %q after %d steps, %d states, %d questions; want in %q after %d steps, 0 states, 2 questions",
			res.Interrupted, res.InterruptedIn, res.StepsRun, res.States, calls, PartPrefix, stopEvery)
	}
}

// TestSpentContinuationBudgetChecksNoMore: the continuations take exactly
// their budget (MaxStates x 64 steps) and no more; once it is spent, every
// cut state left is counted unchecked, except one an earlier continuation
// went through, which takes its memoized verdict for free: with 11 states
// and crash faults, 3 continuations run, a fourth state takes a verdict
// from the memo, and 5 cut states are not checked.
func TestSpentContinuationBudgetChecksNoMore(t *testing.T) {
	res, err := Run(Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, MaxStates: 11, Liveness: true,
		Faults: []string{"crash"}})
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%d steps, %d checked, %d memo hits, %d cut, %s", res.ContinuationSteps, res.LivenessChecked, res.MemoHits,
		res.LivenessCut, res.Stop)
	if want := fmt.Sprintf("%d steps, 4 checked, 1 memo hits, 5 cut, max-states", 11*continuationSteps); got != want {
		t.Errorf("continuations: %s, want %s", got, want)
	}
}
