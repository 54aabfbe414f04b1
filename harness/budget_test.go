package harness_test

import (
	"fmt"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// stepped runs sc one Run.Step at a time to its end, counting the calls
// that moved it on, as simrun explore drives a run.
func stepped(sc *scenarios.Scenario, opt harness.Options) *harness.RunResult {
	x := harness.Start(sc, opt)
	for x.Done() == nil {
		before := x.Steps()
		x.Step()
		if x.Done() == nil && x.Steps() != before+1 {
			panic(fmt.Sprintf("Step moved the run from step %d to %d", before, x.Steps()))
		}
	}
	return x.Done()
}

// TestWorkBudgetBoundary: a run that takes exactly N steps (the scenario's
// own end, or the step an invariant breaks at) ends the same with
// --max-steps N as with no budget, and with N-1 stops after N-1 steps with
// the budget's outcome, the same whether Execute runs it or Run.Step steps
// it to its end. A budget at the prediction (the least a run may start with)
// and one of MaxStepsLimit bracket them.
func TestWorkBudgetBoundary(t *testing.T) {
	outcomes := map[string]int{}
	for _, sc := range scenarios.Named() {
		predicted, _ := harness.PredictSteps(sc)
		for _, st := range harness.Strategies {
			base := harness.Options{Seed: sc.Seed, Strategy: st}
			full := harness.Execute(sc, base)
			n := full.Steps
			if n > 20_000 || predicted > n-1 {
				continue // too long for a unit test, or refused before its first step below N
			}
			name := sc.Name + "/" + string(st)
			outcomes[full.Outcome]++
			for _, run := range []struct {
				how string
				do  func(*scenarios.Scenario, harness.Options) *harness.RunResult
			}{{"Execute", harness.Execute}, {"Run.Step", stepped}} {
				for _, budget := range []int64{n, n + 1, harness.MaxStepsLimit} {
					opt := base
					opt.MaxSteps = budget
					got := run.do(sc, opt)
					if got.Outcome != full.Outcome || got.Steps != n || got.Digest != full.Digest || !sameFailure(got.Violation, full.Violation) {
						t.Errorf("%s, %s, --max-steps %d: %s after %d steps (%s), want %s after %d (%s) as without a budget",
							name, run.how, budget, got.Outcome, got.Steps, failureText(got.Violation), full.Outcome, n, failureText(full.Violation))
					}
				}
				for _, budget := range []int64{n - 1, max(predicted, 1)} {
					opt := base
					opt.MaxSteps = budget
					got := run.do(sc, opt)
					v := got.Violation
					// The time left, in whole ms: the run stopped within SimMs' millisecond.
					left := sc.DurationMs + sc.HealMs - got.SimMs
					leftSaid := v != nil && (strings.Contains(v.Message, fmt.Sprintf("with %d ms of simulated time left", left)) ||
						strings.Contains(v.Message, fmt.Sprintf("with %d ms of simulated time left", left-1)))
					if got.Outcome != harness.OutcomeBudget || got.Steps != budget || v == nil || v.Invariant != harness.InvariantBudget ||
						v.Step != budget || !strings.Contains(v.Message, fmt.Sprintf("stopped after %d steps", budget)) || budget >= predicted && !leftSaid {
						t.Errorf("%s, %s, --max-steps %d (the run takes %d): %s after %d steps (%s), want %s after %d",
							name, run.how, budget, n, got.Outcome, got.Steps, failureText(v), harness.OutcomeBudget, budget)
					}
				}
			}
		}
	}
	// The boundary is checked where a run ends by itself, by a broken
	// invariant and by the liveness check at its end.
	for _, o := range []string{harness.OutcomeOK, harness.OutcomeSafety, harness.OutcomeLiveness} {
		if outcomes[o] == 0 {
			t.Errorf("no named scenario ends %s within its prediction: the boundary is not checked there (%v)", o, outcomes)
		}
	}
}

// TestWorkBudgetRefusesBeforeTheFirstStep: a budget below the predicted
// steps refuses the run before its first step, through Execute and Start
// alike; a budget of the prediction lets it start.
func TestWorkBudgetRefusesBeforeTheFirstStep(t *testing.T) {
	sc, ok := scenarios.Lookup("local-retention-sweep")
	if !ok {
		t.Fatal("no named scenario local-retention-sweep")
	}
	predicted, why := harness.PredictSteps(sc)
	if predicted < 2 || why == "" {
		t.Fatalf("PredictSteps = %d, %q", predicted, why)
	}
	for _, run := range []struct {
		how string
		do  func(*scenarios.Scenario, harness.Options) *harness.RunResult
	}{{"Execute", harness.Execute}, {"Run.Step", stepped}} {
		opt := harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, MaxSteps: predicted - 1}
		got := run.do(sc, opt)
		if got.Outcome != harness.OutcomeBudget || got.Steps != 0 || got.Violation == nil || got.Violation.Invariant != harness.InvariantBudget {
			t.Errorf("%s, --max-steps %d below the prediction %d: %s after %d steps, want refused before the first", run.how, predicted-1, predicted, got.Outcome, got.Steps)
		}
		opt.MaxSteps = predicted
		if got := run.do(sc, opt); got.Steps == 0 {
			t.Errorf("%s, --max-steps %d = the prediction: refused before the first step (%s)", run.how, predicted, failureText(got.Violation))
		}
	}
	err := harness.CheckBudget(sc, predicted-1)
	var be *harness.BudgetError
	if err == nil || !asBudget(err, &be) || be.Predicted != predicted || be.MaxSteps != predicted-1 || !strings.Contains(err.Error(), "raise MaxSteps or make the scenario smaller") {
		t.Errorf("CheckBudget(%d) = %v, want a BudgetError naming the prediction %d", predicted-1, err, predicted)
	}
	if err := harness.CheckBudget(sc, predicted); err != nil {
		t.Errorf("CheckBudget(%d) = %v, want nil at the prediction", predicted, err)
	}
}

// TestBudgetedCoversOnlyItsCheck: a passed budget check (harness.Budget)
// spares the run of the same scenario under the same budget its own check,
// and nothing else: given with another scenario, or with a smaller budget
// than it checked, the run still refuses before its first step what it is
// predicted to exceed; with its own scenario, the run is the one without it.
func TestBudgetedCoversOnlyItsCheck(t *testing.T) {
	sc, ok := scenarios.Lookup("local-retention-sweep")
	if !ok {
		t.Fatal("no named scenario local-retention-sweep")
	}
	predicted, _ := harness.PredictSteps(sc)
	budget, err := harness.Budget(sc, predicted)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := harness.Budget(sc, predicted-1); err == nil {
		t.Errorf("Budget(%d) below the prediction %d passed", predicted-1, predicted)
	}
	other := sc.Clone() // the same content, another scenario
	refused := func(sc *scenarios.Scenario, maxSteps int64) bool {
		got := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, MaxSteps: maxSteps, Budget: budget})
		return got.Outcome == harness.OutcomeBudget && got.Steps == 0
	}
	if !refused(other, predicted-1) {
		t.Error("a check of one scenario spared another's: not refused below the prediction")
	}
	if !refused(sc, predicted-1) {
		t.Error("a check at one budget spared a run under a smaller one: not refused below the prediction")
	}
	with := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, MaxSteps: predicted, Budget: budget})
	without := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, MaxSteps: predicted})
	if with.Steps == 0 || with.Digest != without.Digest || with.Outcome != without.Outcome {
		t.Errorf("the run with its check: %s after %d steps, digest %s; without: %s, %s", with.Outcome, with.Steps, with.Digest, without.Outcome, without.Digest)
	}
}

func asBudget(err error, be **harness.BudgetError) bool {
	b, ok := err.(*harness.BudgetError)
	*be = b
	return ok
}

func sameFailure(a, b *harness.Failure) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Invariant == b.Invariant && a.Kind == b.Kind && a.Step == b.Step && a.AtMs == b.AtMs && a.Message == b.Message
}

func failureText(f *harness.Failure) string {
	if f == nil {
		return "no failure"
	}
	return fmt.Sprintf("%s %s at step %d: %s", f.Invariant, f.Kind, f.Step, f.Message)
}

// BenchmarkCheckBudget: what a budget check costs beside the run it guards
// (simrun run and compare check before any output, for exit code 4, and
// hand the passed check to the runs, harness.Budget; explore and shrink
// run scenarios of their own making, which NewRun checks).
func BenchmarkCheckBudget(b *testing.B) {
	sc, ok := scenarios.Lookup("tiering-off")
	if !ok {
		b.Fatal("no tiering-off")
	}
	b.Run("check-budget", func(b *testing.B) {
		for range b.N {
			if err := harness.CheckBudget(sc, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("execute", func(b *testing.B) {
		for range b.N {
			harness.Execute(sc, harness.Options{Seed: 1, Strategy: harness.LastTiered, Profile: model.KIP})
		}
	})
}
