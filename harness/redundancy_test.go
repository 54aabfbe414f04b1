package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestRedundancyRestoredByHistory: read from an ISR history of replicas
// 0, 1 and 2, the time from the first crash to the ISR whole again: 0 when
// it was whole at the crash, unknown when it never was again or nothing
// crashed; a crash at time 0 counts.
func TestRedundancyRestoredByHistory(t *testing.T) {
	at := func(ms int64, isr ...int) ISRChange { return ISRChange{At: sim.AtMs(ms), ISR: isr} }
	for _, c := range []struct {
		name    string
		crashMs int64 // -1: no crash
		changes []ISRChange
		ms      int64
		ok      bool
	}{
		{"no crash", -1, []ISRChange{at(10, 0, 1)}, 0, false},
		{"crash at 0, back at 300", 0, []ISRChange{at(0, 0, 1), at(300, 0, 1, 2)}, 300, true},
		{"every change before the crash", 100, []ISRChange{at(10, 0, 1), at(20, 0, 1, 2)}, 0, true},
		{"never whole again", 100, []ISRChange{at(100, 0, 1), at(200, 0)}, 0, false},
		{"whole at the second change after", 100, []ISRChange{at(100, 0, 1), at(200, 0), at(400, 0, 1, 2), at(500, 0, 1)}, 300, true},
	} {
		sc := &scenarios.Scenario{Replicas: []int{0, 1, 2}}
		if c.crashMs >= 0 {
			sc.Events = []scenarios.Event{{AtMs: c.crashMs / 2, Type: scenarios.EventProduce}, {AtMs: c.crashMs, Type: scenarios.EventCrash}}
		}
		res := &RunResult{Cluster: &model.Cluster{Ctrl: model.Controller{Replicas: []int{0, 1, 2}}}, ISRChanges: c.changes}
		ms, ok := RedundancyRestored(sc, res)
		if ms != c.ms || ok != c.ok {
			t.Errorf("%s: %d ms (%v), want %d ms (%v)", c.name, ms, ok, c.ms, c.ok)
		}
	}
}

// TestLocalFractionOfAnEmptyLog: a replica added to a leader holding no
// records has no local share to report.
func TestLocalFractionOfAnEmptyLog(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "replicas": [0, 1], "duration_ms": 500, "heal_ms": 500,
	  "events": [{"at_ms": 100, "type": "add_replica", "broker": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, res := Measure(sc, Options{Seed: 1, Strategy: LastTiered})
	if res.Outcome != OutcomeOK || m.Follower != 2 || m.LocalFractionKnown || m.LogBytesAtAdd != 0 {
		t.Errorf("outcome %s, follower %d, local fraction %v (known %v), log bytes %d", res.Outcome, m.Follower,
			m.LocalFractionAtAdd, m.LocalFractionKnown, m.LogBytesAtAdd)
	}
}
