package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/sim"
)

// TestRollingRestart: a rolling_restart of b0, b1, b2 over three
// partitions of three replicas each: each broker crashes, restarts
// down_ms later, and the next crashes at the first instant the restarted
// one is back in the ISR of every partition (all three hold it), so no two
// are ever down at once; the run passes.
func TestRollingRestart(t *testing.T) {
	const downMs = 2000
	res, evs := runWith(t, `{"brokers": 3, "duration_ms": 60000, "heal_ms": 10000,
	  "config": {"network_latency_ms": [1, 1]},
	  "partitions": [{"topic": "t", "count": 3, "replicas": [0, 1, 2],
	    "initial": {"high_watermark": 1000, "local_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0}]}}],
	  "events": [{"at_ms": 0, "type": "produce", "records": 3000, "over_ms": 30000},
	    {"at_ms": 1000, "type": "rolling_restart", "brokers": [0, 1, 2], "down_ms": 2000}]}`)
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, res.Violation)
	}
	want := sim.Time(sim.Second) // b0 stops at the event
	for _, b := range []int{0, 1, 2} {
		var crash, restart sim.Time = -1, -1
		joined := map[model.PartID]sim.Time{}
		for _, x := range evs {
			switch {
			case x.e.Kind == model.EvCrash && x.e.Broker == b:
				if crash >= 0 {
					t.Fatalf("b%d crashes twice (at %v and %v)", b, crash, x.at)
				}
				crash = x.at
			case x.e.Kind == model.EvRestart && x.e.Broker == b && restart < 0:
				restart = x.at
			case x.e.Kind == model.EvISRJoin && x.e.Broker == b && restart >= 0:
				if _, ok := joined[x.e.Part]; !ok {
					joined[x.e.Part] = x.at
				}
			}
		}
		if crash != want || restart != crash.Add(sim.Ms(downMs)) {
			t.Fatalf("b%d crashes at %v, restarts at %v; want %v and %d ms later", b, crash, restart, want, downMs)
		}
		if len(joined) != 3 {
			t.Fatalf("b%d rejoined the ISR of %d partitions after its restart, want 3", b, len(joined))
		}
		want = 0
		for _, at := range joined {
			want = max(want, at)
		}
	}
}

// TestRollingRestartEndsAtTheHeal: in a one-partition file, the heal at
// 3 s restarts b0, which the rolling restart stopped at 1 s for 5 s: its
// own restart at 6 s is skipped (b0 is up), and b1 never stops.
func TestRollingRestartEndsAtTheHeal(t *testing.T) {
	res, evs := runWith(t, `{"brokers": 2, "replicas": [0, 1], "duration_ms": 3000, "heal_ms": 10000,
	  "initial": {"high_watermark": 100, "local_segments": [{"base_offset": 0, "end_offset": 99, "epoch": 0}]},
	  "events": [{"at_ms": 1000, "type": "rolling_restart", "brokers": [0, 1], "down_ms": 5000}]}`)
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, res.Violation)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Type != "rolling_restart" || res.Skipped[0].AtMs != 1000 || res.Skipped[0].Reason != "b0 is already up" {
		t.Fatalf("skipped %+v, want the rolling restart (due at 1000 ms) skipped once: b0 is already up", res.Skipped)
	}
	var restarts []sim.Time
	for _, x := range evs {
		if x.e.Kind == model.EvCrash && x.e.Broker == 1 {
			t.Fatalf("b1 crashes at %v, after the heal", x.at)
		}
		if x.e.Kind == model.EvRestart && x.e.Broker == 0 {
			restarts = append(restarts, x.at)
		}
	}
	if len(restarts) != 1 || restarts[0] != sim.Time(6*sim.Second) {
		t.Fatalf("restart inputs of b0 at %v, want the rolling restart's at 6 s (the heal's restart is the heal's)", restarts)
	}
}
