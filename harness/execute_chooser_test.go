package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestFailingRunWithAChooserRunsOnce: a run with a chooser is not
// repeated to keep its failure's trace (the chooser's state moved on), so
// a recording script records each choice point once, as a run kept for an
// observer does, with the failure's trace tail; the ties it met had
// several events each.
func TestFailingRunWithAChooserRunsOnce(t *testing.T) {
	sc, ok := scenarios.Lookup("finding-follower-gap-after-disable")
	if !ok {
		t.Fatal("no finding-follower-gap-after-disable")
	}
	alone := &Script{Record: true}
	r := Execute(sc, Options{Seed: sc.Seed, Strategy: LastTiered, Chooser: alone})
	watched := &Script{Record: true}
	obs := model.ObserverFunc(func(sim.Time, *model.Event) {})
	w := Execute(sc, Options{Seed: sc.Seed, Strategy: LastTiered, Chooser: watched, Observers: []model.Observer{obs}})
	if r.Outcome != OutcomeSafety || w.Outcome != OutcomeSafety || len(r.Violation.TraceTail) == 0 {
		t.Fatalf("outcomes %s and %s, want safety with a trace tail (%d lines)", r.Outcome, w.Outcome, len(r.Violation.TraceTail))
	}
	if len(alone.Points) != len(watched.Points) {
		t.Errorf("the script recorded %d choice points alone, %d with an observer", len(alone.Points), len(watched.Points))
	}
	ties := 0
	for _, p := range alone.Points {
		if p.N < 2 {
			t.Errorf("a choice point of %d alternatives: %+v", p.N, p)
		}
		if p.Kind == ChoiceTie {
			ties++
		}
	}
	if ties == 0 {
		t.Errorf("no tie recorded among %d choice points", len(alone.Points))
	}
}
