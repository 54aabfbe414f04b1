package harness

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// A run without views keeps no trace tail on the way and reruns when it
// fails (Execute): its failure report must be the one a run that kept the
// tail all along gives, for safety and liveness failures and the budget.
func TestTraceTailFromRerun(t *testing.T) {
	keep := model.ObserverFunc(func(sim.Time, *model.Event) {})
	check := func(name string, sc *scenarios.Scenario, opt Options) {
		t.Helper()
		got := Execute(sc, opt)
		opt.Observers = []model.Observer{keep}
		want := Execute(sc, opt)
		if got.Violation == nil || len(got.Violation.TraceTail) == 0 {
			t.Fatalf("%s: no failure with a trace tail: %+v", name, got.Violation)
		}
		if d := cmp.Diff(want.Violation, got.Violation); d != "" {
			t.Errorf("%s: failure differs from the run that kept its tail (-kept +rerun):\n%s", name, d)
		}
		if got.Digest != want.Digest || got.Steps != want.Steps || got.Events != want.Events {
			t.Errorf("%s: digest/steps/events %s/%d/%d, kept %s/%d/%d", name, got.Digest, got.Steps, got.Events, want.Digest, want.Steps, want.Events)
		}
	}
	failed := 0
	for _, name := range []string{"finding-reenable-stale-hro", "finding-tiered-follower-after-disable"} {
		sc, ok := scenarios.Lookup(name)
		if !ok {
			t.Fatalf("no named scenario %q", name)
		}
		for _, st := range Strategies {
			opt := Options{Seed: sc.Seed, Strategy: st}
			if r := Execute(sc, opt); r.Violation != nil {
				failed++
				check(name+"/"+string(st), sc, opt)
			}
			opt.MaxSteps = 50
			check(name+"/"+string(st)+"/budget", sc, opt)
		}
	}
	if failed == 0 {
		t.Fatal("no named finding failed: the test checks no invariant failure")
	}
}
