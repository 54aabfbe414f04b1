package explore

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// TestCloneMatchesReexecution: stepping clones and re-running every path
// from the start visit the same states and find the same violations.
func TestCloneMatchesReexecution(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: searches twice, cloning and re-executing")
	}
	sc := fixture(t, "tiny-join")
	for _, c := range []Config{
		{Scenario: sc, Strategy: harness.LastTiered, Depth: 16, Liveness: true},
		{Scenario: sc, Strategy: harness.LocalLogStart, Depth: 5, Faults: FaultKinds, Lost: true},
		{Scenario: sc, Strategy: harness.LastTiered, Depth: 30, Mutants: model.Mutants(0).With(model.MutantHWNotReset)},
	} {
		a, err := Run(c)
		if err != nil {
			t.Fatal(err)
		}
		c.Reexecute = true
		b, _ := Run(c)
		if a.States != b.States || a.Transitions != b.Transitions || a.Depth != b.Depth || a.Frontier != b.Frontier ||
			(a.Violation == nil) != (b.Violation == nil) {
			t.Errorf("clone %+v\nre-execution %+v", *a, *b)
		}
		if a.Violation != nil && (a.Violation.Steps != b.Violation.Steps || a.Violation.Choices != b.Violation.Choices) {
			t.Errorf("violations differ: %+v vs %+v", *a.Violation, *b.Violation)
		}
		t.Logf("clone: %d runs, %d steps; re-execution: %d runs, %d steps", a.Runs, a.StepsRun, b.Runs, b.StepsRun)
	}
}

// TestRebuiltFrontierMatches: states the memory budget does not let the
// search keep, rebuilt by re-running their paths, are expanded exactly as
// kept ones are: the same states, transitions and findings; only the
// runs, the rebuilt count, the memory estimate and the memo's hits (it is
// bounded by the budget too) differ.
func TestRebuiltFrontierMatches(t *testing.T) {
	// -short: depth 4 (1,271 states, about 200 rebuilt, under half a
	// second) in place of 5 (a few seconds).
	depth := 5
	if testing.Short() {
		depth = 4
	}
	cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: depth, Faults: FaultKinds, Liveness: true}
	a, _ := Run(cfg)
	// The default budget (2 GiB) holds every state whole: none rebuilt, one
	// run; the peak estimate counts at least each visited state's fixed
	// cost and the frontier's states kept whole (cloneBytes: 11 KiB each and
	// more) for their continuations.
	if floor := float64(a.States*stateBytes+int64(a.Frontier)*(11<<10)) / (1 << 20); a.Rebuilt != 0 || a.Runs != 1 || a.MemoryMiB < floor {
		t.Fatalf("default budget: %d rebuilt, %d runs, peak %.2f MiB; want none rebuilt, 1 run, at least %.2f MiB", a.Rebuilt, a.Runs,
			a.MemoryMiB, floor)
	}
	// A search budget of about 8 MiB: the visited set and the levels fit
	// (about 2 MiB), few states kept whole (8 KiB and more each).
	cfg.MaxMemoryMiB = 27
	budget := float64(searchBudget(cfg.MaxMemoryMiB)) / (1 << 20)
	b, _ := Run(cfg)
	ra, _ := ReportOf(a)
	rb, _ := ReportOf(b)
	if b.Rebuilt == 0 || b.Runs <= a.Runs || b.MemoryMiB > budget {
		t.Fatalf("the small budget rebuilt nothing: %d rebuilt, %d runs vs %d, %.1f MiB", b.Rebuilt, b.Runs, a.Runs, b.MemoryMiB)
	}
	for _, r := range []*Report{&ra, &rb} {
		r.Rebuilt, r.MemoryMiB = 0, 0
		r.MemoHits, r.ContSteps = 0, 0 // the memo is bounded by the budget too: fewer continuations meet
	}
	if fmt.Sprintf("%+v", ra) != fmt.Sprintf("%+v", rb) {
		t.Fatalf("kept %+v\nrebuilt %+v", ra, rb)
	}
}

// TestStoppedSearch: a search Config.Stopped stops reports the part done,
// interrupted and not exhausted, and which part it cut short: the search,
// the liveness continuations (within stopEvery steps of one: a signal does
// not wait for a long continuation's end) or the --from-ms prefix.
func TestStoppedSearch(t *testing.T) {
	tiny := fixture(t, "tiny-join")
	stopAfter := func(n int) func() bool {
		calls := 0
		return func() bool { calls++; return calls > n }
	}
	res, err := Run(Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 20, Stopped: stopAfter(50)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Exhausted || res.States == 0 || res.InterruptedIn != PartSearch || res.Stop != StopInterrupted {
		t.Fatalf("want an interrupted partial search, got %+v", *res)
	}

	// The liveness part: the questions a search of omts-local-deleted to
	// depth 2 asks without liveness, then two more: before the first
	// continuation and at its first step; the next, at its stopEvery-th
	// step (of about 1,850 to the scenario's end), stops it there.
	omts, ok := scenarios.Lookup("omts-local-deleted")
	if !ok {
		t.Fatal("no omts-local-deleted")
	}
	calls := 0
	cfg := Config{Scenario: omts, Strategy: harness.LastTiered, Depth: 2, Stopped: func() bool { calls++; return false }}
	whole, _ := Run(cfg)
	cfg.Liveness, cfg.Stopped = true, stopAfter(calls+2)
	res, _ = Run(cfg)
	if !res.Interrupted || res.Exhausted || res.InterruptedIn != PartLiveness || res.States != whole.States ||
		res.LivenessChecked != 0 || res.ContinuationSteps != stopEvery {
		t.Fatalf("want the first continuation stopped at step %d, got %+v", stopEvery, *res)
	}

	res, _ = Run(Config{Scenario: tiny, Strategy: harness.LastTiered, FromMs: 2000, Stopped: stopAfter(0)})
	if !res.Interrupted || res.InterruptedIn != PartPrefix || res.States != 0 || res.Stop != StopInterrupted {
		t.Fatalf("want the prefix stopped, got %+v", *res)
	}
}

// TestNondeterminismIsAnError: when re-running a violating path does not
// give the violation the search saw, Run returns a NondeterminismError
// (no panic) with the part searched, not exhausted and no counterexample.
func TestNondeterminismIsAnError(t *testing.T) {
	rerunHook = func(r *harness.RunResult) { r.Outcome, r.Violation = harness.OutcomeOK, nil }
	defer func() { rerunHook = nil }()
	cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: 30,
		Mutants: model.Mutants(0).With(model.MutantHWNotReset)}
	res, err := Run(cfg)
	var nd *NondeterminismError
	if !errors.As(err, &nd) {
		t.Fatalf("want a NondeterminismError, got %v", err)
	}
	if !strings.HasPrefix(err.Error(), "NONDETERMINISM: ") || !strings.Contains(nd.Explored, "offset-order") ||
		!strings.Contains(nd.Rerun, harness.OutcomeOK) {
		t.Errorf("message: %v", err)
	}
	if res == nil || res.Exhausted || res.Violation != nil || res.States == 0 {
		t.Errorf("result: %+v", res)
	}
}

// TestMemoKeepsVerdicts: continuations that take a memoized verdict end
// the search as running each to its end does: the same violation or none,
// the same known findings counted as often; and, when no violation stops
// them early, they take fewer steps (how many go to the log).
func TestMemoKeepsVerdicts(t *testing.T) {
	stale, ok := scenarios.Lookup("finding-reenable-stale-hro")
	if !ok {
		t.Fatal("no finding-reenable-stale-hro")
	}
	tiny := fixture(t, "tiny-join")
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"tiny-join/depth-24", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 24, Liveness: true}},
		{"tiny-join/crash-restart-elect/depth-6", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 6, Liveness: true,
			Faults: []string{"crash", "restart", "elect"}}},
		{"tiny-join/hw-not-reset/depth-8", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 8, Liveness: true,
			Mutants: model.Mutants(0).With(model.MutantHWNotReset)}},
		{"finding-reenable-stale-hro/depth-12", Config{Scenario: stale, Strategy: harness.LastTiered, Depth: 12, Liveness: true}},
	} {
		memoOff = true
		plain, err := Run(c.cfg)
		memoOff = false
		if err != nil {
			t.Fatal(err)
		}
		memo, _ := Run(c.cfg)
		rp, _ := ReportOf(plain)
		rm, _ := ReportOf(memo)
		if fmt.Sprint(rp.Violation, rp.Known, rp.KnownCount, rp.Stop, rp.States) != fmt.Sprint(rm.Violation, rm.Known, rm.KnownCount, rm.Stop, rm.States) {
			t.Errorf("%s: the memo changed the verdict:\nwithout %+v\nwith    %+v", c.name, rp, rm)
		}
		if memo.Violation == nil && (memo.MemoHits == 0 || memo.ContinuationSteps >= plain.ContinuationSteps) {
			t.Errorf("%s: the memo saved nothing (%d hits, %d steps, %d without)", c.name, memo.MemoHits,
				memo.ContinuationSteps, plain.ContinuationSteps)
		}
		// A hit is a continuation that met an earlier one: never more
		// than the continuations, none without the memo.
		if memo.MemoHits < 0 || memo.MemoHits > memo.LivenessChecked || plain.MemoHits != 0 {
			t.Errorf("%s: %d memo hits of %d continuations, %d without the memo", c.name, memo.MemoHits, memo.LivenessChecked, plain.MemoHits)
		}
		t.Logf("%s: %d continuations, %d met an earlier one: %d steps, %d without the memo (%.1fx); known %d, violation %v",
			c.name, memo.LivenessChecked, memo.MemoHits, memo.ContinuationSteps, plain.ContinuationSteps,
			float64(plain.ContinuationSteps)/float64(memo.ContinuationSteps), memo.KnownCount, memo.Violation != nil)
	}
}

// TestContinuationBudget: the continuations from the cut states take at
// most --max-states x 64 steps in all; the cut states left unchecked are
// counted, the search is not exhausted, and the text says so.
func TestContinuationBudget(t *testing.T) {
	// 20 states, about 15 cut, continuations of about 180 steps: 1,280
	// steps run out first.
	cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, MaxStates: 20, Liveness: true,
		Faults: []string{"crash"}}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.ContinuationSteps > int64(cfg.MaxStates)*continuationSteps || res.LivenessCut == 0 || res.Exhausted ||
		res.LivenessChecked+res.LivenessCut != int64(res.Frontier) {
		t.Fatalf("%d steps (budget %d), %d checked + %d cut of %d cut states, exhausted %v", res.ContinuationSteps,
			cfg.MaxStates*continuationSteps, res.LivenessChecked, res.LivenessCut, res.Frontier, res.Exhausted)
	}
	rep, _ := ReportOf(res)
	if text := Text(Header{Liveness: true, MaxStates: cfg.MaxStates}, rep, 0, nil); !strings.Contains(text,
		fmt.Sprintf("%d cut states NOT checked (the continuations' budget, MaxStates x 64 steps, ran out)", res.LivenessCut)) {
		t.Errorf("text:\n%s", text)
	}
}

// TestContinuationBudgetStopsADoneSearch: a search that visited every
// state within its depth but could not check every cut state's liveness
// (the continuations' budget ran out) did not stop at the depth: it says
// the state budget stopped it and is not exhausted. With budget to spare the
// same search stops at its depth, every cut state checked.
func TestContinuationBudgetStopsADoneSearch(t *testing.T) {
	sc := fixture(t, "tiny-join")
	sc.HealMs = 20_000 // continuations of about 630 steps
	run := func(maxStates int) *Result {
		res, err := Run(Config{Scenario: sc, Strategy: harness.LastTiered, MaxStates: maxStates, Depth: 2, Liveness: true,
			Faults: []string{"crash"}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cut, whole := run(46), run(1000)
	if whole.States != 45 || whole.Stop != StopDepth || whole.LivenessCut != 0 || whole.LivenessChecked != int64(whole.Frontier) {
		t.Fatalf("budget to spare: %d states, stop %s, %d cut, %d of %d checked", whole.States, whole.Stop, whole.LivenessCut,
			whole.LivenessChecked, whole.Frontier)
	}
	if cut.States != 45 || cut.Stop != StopStates || cut.LivenessCut == 0 || cut.Exhausted {
		t.Fatalf("46 states' budget: %d states, stop %s, %d cut, exhausted %v; want every state, stopped by max-states",
			cut.States, cut.Stop, cut.LivenessCut, cut.Exhausted)
	}
}
