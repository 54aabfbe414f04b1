package harness

import (
	"slices"
	"testing"

	"tierfetch/scenarios"
)

// TestInputOfEachStep: what a step took (Run.Input) names the injected
// fault and its broker, says whether the model refused it, and names no
// fault and no broker for a scenario event, whose refusal is not a
// refused fault.
func TestInputOfEachStep(t *testing.T) {
	sc, _ := scenarios.Lookup("leader-knows-hro")
	c := *sc
	c.Events = append(slices.Clone(c.Events), scenarios.Event{AtMs: 0, Type: scenarios.EventRestart, Broker: bp(2)})
	c.Explore = &scenarios.Schedule{Faults: []scenarios.Event{
		{Type: scenarios.EventRestart, Broker: bp(1)}, // b1 is up: refused
		{Type: scenarios.EventCrash, Broker: bp(1)},
	}, Choices: []int{1, 2}}
	x := Start(&c, Options{Seed: c.Seed, Strategy: LastTiered, StateHash: true, StopAfter: 40})
	faults, global, skippedScenario := map[int]Input{}, 0, false
	for x.Done() == nil {
		before := len(x.r.skipped)
		x.Step()
		in := x.Input()
		if in.Fault >= 0 {
			faults[in.Fault] = in
			continue
		}
		if in.Refused {
			t.Errorf("step %d took no fault but is a refused one: %+v", x.Steps(), in)
		}
		if in.Global {
			global++
			if in.Brokers != [2]int{-1, -1} {
				t.Errorf("step %d, a scenario event, reads brokers %v", x.Steps(), in.Brokers)
			}
		}
		if len(x.r.skipped) > before {
			skippedScenario = true
		}
	}
	if in, ok := faults[0]; !ok || !in.Refused || in.Brokers != [2]int{1, -1} {
		t.Errorf("the refused restart of b1: %+v (taken %v)", in, ok)
	}
	if in, ok := faults[1]; !ok || in.Refused || in.Brokers != [2]int{1, -1} {
		t.Errorf("the crash of b1: %+v (taken %v)", in, ok)
	}
	if global == 0 || !skippedScenario {
		t.Errorf("%d scenario steps, a refused scenario restart: %v", global, skippedScenario)
	}
}

func bp(b int) *int { return &b }
