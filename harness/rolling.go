package harness

import (
	"slices"

	"tierfetch/model"
	"tierfetch/sim"
)

// A rolling_restart (an extension outside the shared format) restarts its
// brokers one after another: each stops as a crash does (the model has no
// controlled shutdown: the controller fences it and moves the leadership
// it held), starts again down_ms later with its disk, and the next one
// stops once every replica the restarted broker holds is back in its ISR
// (wait "isr", what an operator's tooling waits for: no under-replicated
// partition). The heal ends it: no broker stops from the end of the fault
// phase on; one it left down is restarted by the heal, and its own restart
// then finds it up (skipped).

// rollingWait is a rolling restart waiting for broker's replicas to rejoin:
// parts are the partitions whose ISR it is not back in yet.
type rollingWait struct {
	idx, next, broker int
	parts             []model.PartID
}

// rollingStep takes one step of the rolling restart at ev.idx: the broker
// at position ev.records stops (ev.chunks 0) or starts again (1).
func (r *runner) rollingStep(ev *event) {
	e := &r.sc.Events[ev.idx]
	i, b := int(ev.records), e.Brokers[ev.records]
	if ev.chunks == 0 {
		r.step(&model.Input{Kind: model.EvCrash, Broker: b, Part: -1}, e.Type, ev.idx)
		r.sched.After(sim.Ms(e.DownMs), event{kind: evRolling, idx: ev.idx, records: ev.records, chunks: 1})
		return
	}
	r.step(&model.Input{Kind: model.EvRestart, Broker: b, Part: -1}, e.Type, ev.idx)
	if i+1 < len(e.Brokers) {
		w := rollingWait{idx: ev.idx, next: i + 1, broker: b}
		for p, c := range r.f.Parts {
			if c.Ctrl.IsReplica(b) {
				w.parts = append(w.parts, model.PartID(p))
			}
		}
		r.rolling = append(r.rolling, w)
	}
}

// rollOn starts the next broker of each rolling restart whose restarted
// broker is back in the ISR of every partition it holds.
func (r *runner) rollOn() {
	if len(r.rolling) == 0 {
		return
	}
	if r.healed || r.sched.Now() >= sim.AtMs(r.sc.DurationMs) {
		r.rolling = r.rolling[:0] // the heal ends it
		return
	}
	left := r.rolling[:0]
	for _, w := range r.rolling {
		w.parts = slices.DeleteFunc(w.parts, func(p model.PartID) bool { return r.f.Parts[p].Ctrl.InISR(w.broker) })
		if len(w.parts) > 0 {
			left = append(left, w)
			continue
		}
		r.sched.At(r.sched.Now(), event{kind: evRolling, idx: w.idx, records: int64(w.next)})
	}
	r.rolling = left
}
