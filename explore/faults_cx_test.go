package explore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// TestCounterexamplesWithFaultsReplay: a counterexample found with faults
// to inject replays, written as a file and read back, to the same failure,
// whether its path injected none of them (its choices then hold none of
// the fault points, which the replay without faults does not have) or some
// (its schedule then holds each fault it injected, once, and nothing else);
// its choices end in a pick other than 0.
// The bug zoo's shrunk scenarios, each with the mutant they were shrunk for,
// break an invariant within a few thousand states under these faults.
func TestCounterexamplesWithFaultsReplay(t *testing.T) {
	for _, c := range []struct {
		mutant   model.Mutant
		fault    string
		injected bool
	}{
		{model.MutantLSOAfterRemoteDelete, "elect", false},
		{model.MutantStaleLLSOAfterAux, "elect", false},
		{model.MutantStaleLLSOAfterAux, "crash", true},
		{model.MutantHWNotReset, "partition", true},
	} {
		name := fmt.Sprintf("%s with %s faults", c.mutant, c.fault)
		cfg := Config{Scenario: fixture(t, "zoo/"+c.mutant.String()), Strategy: zooStrategy(t, c.mutant), MaxStates: 3000,
			Liveness: true, Faults: []string{c.fault}, Mutants: model.Mutants(0).With(c.mutant)}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cx := res.Violation
		if cx == nil {
			t.Fatalf("%s: no violation in %d states", name, res.States)
		}
		if (len(cx.Faults) > 0) != c.injected {
			t.Fatalf("%s: %d faults injected; the fixture no longer needs %v of them", name, len(cx.Faults), c.injected)
		}
		checkReplays(t, cfg, cx)
		sched := cx.Scenario.Explore
		if sched == nil || sched.Faults == nil {
			t.Fatalf("%s: the counterexample has no fault list: %+v", name, sched)
		}
		distinct := []scenarios.Event{}
		for _, in := range cx.Faults {
			if !containsFault(distinct, in.Event) {
				distinct = append(distinct, in.Event)
			}
		}
		if len(sched.Faults) != len(distinct) {
			t.Errorf("%s: the schedule holds %d faults, the path injected %d distinct ones", name, len(sched.Faults), len(distinct))
		}
		for _, e := range sched.Faults {
			if !containsFault(distinct, e) {
				t.Errorf("%s: the schedule holds %+v, which the path never injected", name, e)
			}
		}
		// Past the end every pick is 0 (docs/reference/scenario-format.md):
		// a trailing 0 says nothing and is left out.
		if n := len(sched.Choices); n > 0 && sched.Choices[n-1] == 0 {
			t.Errorf("%s: the choices %v end in a 0", name, sched.Choices)
		}
		if cx.Choices != len(sched.Choices) {
			t.Errorf("%s: %d choices counted, %d in the schedule", name, cx.Choices, len(sched.Choices))
		}
	}
}

// containsFault reports whether faults hold e, whenever it is injected.
func containsFault(faults []scenarios.Event, e scenarios.Event) bool {
	e.AtMs = 0
	want, _ := json.Marshal(e)
	for _, f := range faults {
		f.AtMs = 0
		if got, _ := json.Marshal(f); bytes.Equal(got, want) {
			return true
		}
	}
	return false
}

// zooStrategy is the strategy of the hunt that caught mutant (zooCases).
func zooStrategy(t *testing.T, mutant model.Mutant) harness.Strategy {
	t.Helper()
	for _, c := range zooCases {
		if c.mutant == mutant {
			return c.strategy
		}
	}
	t.Fatalf("%s is not in the zoo", mutant)
	return ""
}

// TestDescribeFault: an injected fault prints as its time in seconds to
// the millisecond, its type and what it hits (the doc's example: "t=0.010s
// crash broker 1").
func TestDescribeFault(t *testing.T) {
	one := 1
	for _, c := range []struct {
		in   Injected
		want string
	}{
		{Injected{AtMs: 10, Event: scenarios.Event{Type: scenarios.EventCrash, Broker: &one}}, "t=0.010s crash broker 1"},
		{Injected{AtMs: 61_234, Event: scenarios.Event{Type: scenarios.EventNetworkPartition, Brokers: []int{0, 2}, DurationMs: 250}},
			"t=61.234s network_partition [0 2] for 250 ms"},
		{Injected{AtMs: 0, Event: scenarios.Event{Type: scenarios.EventRemoteOutage, DurationMs: 500}}, "t=0.000s remote_outage for 500 ms"},
	} {
		if got := DescribeFault(c.in); got != c.want {
			t.Errorf("DescribeFault(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}
