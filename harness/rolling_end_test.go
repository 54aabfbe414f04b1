package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestRollingRestartEndsAtDuration: a rolling restart whose broker is
// back in the ISR goes on to its next broker before duration_ms, not at
// it (the fault phase is over then, healed or not).
func TestRollingRestartEndsAtDuration(t *testing.T) {
	for _, c := range []struct {
		ms   int64
		next bool
	}{{99, true}, {100, false}} {
		r := &runner{sc: &scenarios.Scenario{DurationMs: 100},
			f:       &model.Fleet{Parts: []*model.Cluster{{Ctrl: model.Controller{ISR: []int{0, 1}}}}},
			rolling: []rollingWait{{idx: 0, next: 1, broker: 1, parts: []model.PartID{0}}}}
		r.sched.At(sim.AtMs(c.ms), event{})
		r.sched.Next()
		r.rollOn()
		if got := r.sched.Len() == 1; got != c.next || len(r.rolling) != 0 {
			t.Errorf("b1 back in the ISR at %d ms of 100: next broker scheduled %v, want %v (%d waits left)", c.ms, got, c.next, len(r.rolling))
		}
	}
}
