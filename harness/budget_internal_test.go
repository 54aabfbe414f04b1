package harness

import (
	"testing"

	"tierfetch/scenarios"
)

// TestScheduledCoversOnlyACopy: a passed check carries over to a copy of
// its scenario with another explore schedule and failure record, which the
// prediction does not read, and to nothing else.
func TestScheduledCoversOnlyACopy(t *testing.T) {
	sc, b := sweepBudget(t)
	scheduled := *sc
	scheduled.Explore = &scenarios.Schedule{Choices: []int{1, 0, 2}}
	scheduled.Failure = &scenarios.Failure{Strategy: string(LastTiered)}
	if got := b.Scheduled(&scheduled); !got.covers(&scheduled, b.maxSteps) {
		t.Error("the check does not carry over to a copy with a schedule")
	}
	longer := scheduled
	longer.DurationMs *= 100
	more := scheduled
	more.Events = append(append([]scenarios.Event{}, sc.Events...), sc.Events[0])
	for name, other := range map[string]*scenarios.Scenario{"longer": &longer, "more events": &more} {
		if b.Scheduled(other).s != nil {
			t.Errorf("%s: the check carried over to a scenario whose prediction differs", name)
		}
	}
	if (Budgeted{}).Scheduled(&scheduled).s != nil {
		t.Error("no check carried over as one")
	}
}

// TestBudgetOf0CoversDefaultRuns: a check passed with a budget of 0 (the
// default) is the check of a run that asks for no budget, whose budget is
// the default: the run does not predict again.
func TestBudgetOf0CoversDefaultRuns(t *testing.T) {
	sc, b := sweepBudget(t)
	opt := Options{Budget: b}
	if !b.covers(sc, opt.maxStepsFor(sc)) {
		t.Errorf("Budget(sc, 0) = %+v does not cover a run of the default budget %d", b, opt.maxStepsFor(sc))
	}
}

// sweepBudget is local-retention-sweep and its passed budget check at the
// default budget.
func sweepBudget(t *testing.T) (*scenarios.Scenario, Budgeted) {
	t.Helper()
	sc, ok := scenarios.Lookup("local-retention-sweep")
	if !ok {
		t.Fatal("no named scenario local-retention-sweep")
	}
	b, err := Budget(sc, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sc, b
}
