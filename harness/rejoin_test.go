package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestCatchUpIsTheFirstJoin: an added replica that joins the ISR, is
// crashed out of it and joins again has caught up at its first join: the
// metrics' catch-up time and the result's are from the add to that join,
// not the last.
func TestCatchUpIsTheFirstJoin(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 2, "duration_ms": 60000, "heal_ms": 30000,
	  "initial": {"high_watermark": 1000, "local_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0}]},
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1},
	    {"at_ms": 20000, "type": "crash", "broker": 1}, {"at_ms": 25000, "type": "restart", "broker": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var joins []sim.Time
	obs := model.ObserverFunc(func(now sim.Time, e *model.Event) {
		if e.Kind == model.EvISRJoin && e.Broker == 1 {
			joins = append(joins, now)
		}
	})
	m, res := Measure(sc, Options{Seed: 1, Strategy: LocalLogStart, Observers: []model.Observer{obs}})
	if res.Outcome != OutcomeOK || len(joins) < 2 || joins[0] >= 20000 || joins[len(joins)-1] <= 25000 {
		t.Fatalf("outcome %s, joins at %v: want a join before the crash at 20 s and one after the restart at 25 s", res.Outcome, joins)
	}
	if !m.CaughtUp || m.CatchUpMs != joins[0].Ms() {
		t.Errorf("caught up %v at %d ms, want at the first join, %d ms (joins %v)", m.CaughtUp, m.CatchUpMs, joins[0].Ms(), joins)
	}
}
