package harness_test

import (
	"testing"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestRunEventsSetOnlyTheirKindsFields: on the events of real runs (every
// named scenario and some generated ones, both strategies, every profile),
// no event holds a value in a field outside its kind's set, so the digest,
// which encodes exactly those fields, misses nothing an event says; and
// every event prints a line.
func TestRunEventsSetOnlyTheirKindsFields(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs every named scenario under every profile, event by event")
	}
	list := scenarios.Named()
	for seed := uint64(1); seed <= 40; seed++ {
		list = append(list, fuzz.Generate(seed))
	}
	seen := make([]int, model.NumEventKinds)
	for _, p := range model.Profiles {
		for _, sc := range list {
			for _, st := range harness.Strategies {
				check := model.ObserverFunc(func(_ sim.Time, e *model.Event) {
					seen[e.Kind]++
					if extra := e.FieldsOutsideKind(); len(extra) > 0 {
						t.Fatalf("%s %s %s: %s event sets %v outside its kind's fields: %s", sc.Name, st, p.Name(), e.Kind, extra, e.String())
					}
					_ = e.String()
				})
				harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: st, Profile: p, Observers: []model.Observer{check}})
			}
		}
	}
	for k, n := range seen {
		if n == 0 {
			t.Logf("no run emitted a %s event", model.EventKind(k))
		}
	}
}
