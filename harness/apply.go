package harness

import (
	"fmt"
	"slices"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// produceChunkMs is how finely a produce event is spread: one batch per
// this much virtual time.
const produceChunkMs = 100

// apply hands one scheduled event to the cluster, recording it as the
// step's input event first.
func (r *runner) apply(ev *event) {
	r.scIndex, r.faultIndex = -1, -1
	switch ev.kind {
	case evScenario:
		r.scIndex = ev.idx
		r.applyScenario(r.sc.Events[ev.idx])
	case evProduceChunk:
		r.produceChunk(ev)
	case evDeliver:
		r.deliver(ev)
	case evTimer:
		r.timers[r.timerSlot(ev.timer)] = sim.Timer{}
		e := model.NewEvent(model.EvTimer, ev.timer.Broker)
		e.Timer, e.Peer = ev.timer.Kind, ev.timer.Peer
		if ev.timer.Kind != model.TimerParkedFetch {
			e.Peer = -1
		}
		r.begin(e)
		r.c.Fire(ev.timer)
	case evRemoteDone:
		op := r.ops.take(ev.op)
		e := model.NewEvent(model.EvRemoteDone, op.Broker)
		e.Remote, e.Segment.ID, e.Op, e.Bytes = op.Kind, op.Segment, op.ID, op.Bytes
		e.Failed = ev.failed || int64(r.sched.Now()) < r.c.Remote.OutageUntilUs
		r.begin(e)
		r.c.RemoteDone(op, ev.failed)
	case evPartitionEnd:
		e := model.NewEvent(model.EvPartitionEnd, -1)
		e.Brokers = r.cuts[ev.idx].brokers
		r.begin(e)
	case evHeal:
		r.heal()
	case evFault:
		r.faultIndex = ev.idx
		r.applyScenario(r.faults[ev.idx])
	}
}

func (r *runner) applyScenario(e scenarios.Event) {
	var err error
	in := func(k model.EventKind, broker int) model.Event { return model.NewEvent(k, broker) }
	switch e.Type {
	case scenarios.EventAddReplica:
		r.begin(in(model.EvAddReplica, *e.Broker))
		err = r.c.AddReplica(*e.Broker)
	case scenarios.EventProduce:
		x := in(model.EvProduce, -1)
		x.Count, x.Ms = e.Records, e.OverMs
		r.begin(x)
		chunks := max(1, min(e.Records, e.OverMs/produceChunkMs))
		r.produceChunk(&event{idx: r.scIndex, records: e.Records, chunks: chunks, interval: sim.Ms(e.OverMs) / sim.Duration(chunks)})
	case scenarios.EventElectLeader:
		r.begin(in(model.EvElectLeader, *e.Broker))
		err = r.c.ElectLeader(*e.Broker)
	case scenarios.EventCrash:
		r.begin(in(model.EvCrash, *e.Broker))
		err = r.c.Crash(*e.Broker)
	case scenarios.EventRestart:
		r.begin(in(model.EvRestart, *e.Broker))
		err = r.c.Restart(*e.Broker)
	case scenarios.EventSetConfig:
		err = r.setConfig(e)
	case scenarios.EventDeleteRecords:
		x := in(model.EvDeleteRecords, -1)
		x.Offset = e.BeforeOffset
		r.begin(x)
		err = r.c.DeleteRecords(e.BeforeOffset)
	case scenarios.EventNetworkPartition:
		x := in(model.EvNetworkPartition, -1)
		x.Brokers, x.Ms = slices.Clone(e.Brokers), e.DurationMs
		r.begin(x)
		r.cuts = append(r.cuts, partition{brokers: slices.Clone(e.Brokers), until: r.sched.Now().Add(sim.Ms(e.DurationMs))})
		r.sched.At(r.cuts[len(r.cuts)-1].until, event{kind: evPartitionEnd, idx: len(r.cuts) - 1})
	case scenarios.EventRemoteOutage:
		x := in(model.EvRemoteOutage, -1)
		x.Ms = e.DurationMs
		r.begin(x)
		r.c.RemoteOutage(int64(r.sched.Now().Add(sim.Ms(e.DurationMs))))
	case scenarios.EventConsume:
		x := in(model.EvConsume, -1)
		x.Offset = e.FromOffset
		r.begin(x)
		err = r.c.Consume(e.FromOffset)
	}
	if err != nil {
		r.skip(e.Type, r.scIndex, err.Error())
	}
}

func (r *runner) setConfig(e scenarios.Event) error {
	broker := -1
	if e.Broker != nil {
		broker = *e.Broker
	}
	x := model.NewEvent(model.EvSetConfig, broker)
	x.Key = e.Key
	if scenarios.SetConfigBool(e.Key) {
		x.Bool, x.On = true, e.BoolValue()
		r.begin(x)
		return r.c.SetConfig(e.Key, x.On, 0, broker)
	}
	x.Value = e.IntValue()
	r.begin(x)
	return r.c.SetConfig(e.Key, false, x.Value, broker)
}

// produceChunk appends one batch of a spread produce and schedules the next.
func (r *runner) produceChunk(ev *event) {
	n := ev.records / ev.chunks
	if ev.kind == evProduceChunk {
		x := model.NewEvent(model.EvProduceChunk, -1)
		x.Count = n
		r.begin(x)
	}
	if !r.c.Produce(n, r.choose.Producer(3)) {
		why := "partition offline, records dropped"
		if r.c.Leader() != nil && r.c.UnderMinISR() {
			why = "NOT_ENOUGH_REPLICAS (ISR below min_insync_replicas), records dropped"
		}
		r.skip(scenarios.EventProduce, ev.idx, why)
	}
	if ev.chunks > 1 {
		r.sched.After(ev.interval, event{kind: evProduceChunk, idx: ev.idx, records: ev.records - n, chunks: ev.chunks - 1, interval: ev.interval})
	}
}

// heal ends the fault phase: crashed replicas restart, partitions and
// outages end.
func (r *runner) heal() {
	r.begin(model.NewEvent(model.EvHeal, -1))
	r.healed = true
	for i := range r.cuts {
		r.cuts[i].until = min(r.cuts[i].until, r.sched.Now())
	}
	r.c.Remote.OutageUntilUs = 0
	for _, b := range r.c.Brokers {
		if !b.Up && r.c.Ctrl.IsReplica(b.ID) {
			if err := r.c.Restart(b.ID); err != nil {
				r.skip(scenarios.EventRestart, -1, err.Error())
			}
		}
	}
}

// cut reports whether a network partition separates brokers a and b now.
func (r *runner) cut(a, b int) bool {
	now := r.sched.Now()
	for _, p := range r.cuts {
		if p.until > now && slices.Contains(p.brokers, a) != slices.Contains(p.brokers, b) {
			return true
		}
	}
	return false
}

func (r *runner) deliver(ev *event) {
	// Read in place: nothing puts a message before the step's effects.
	m := r.msgs.at(ev.msg)
	defer r.msgs.release(ev.msg)
	e := model.NewEvent(model.EvDeliver, m.To)
	e.Peer, e.Msg = m.From, *m
	r.begin(e)
	drop := model.CauseNone
	switch {
	case r.cut(m.From, m.To):
		drop = model.DropPartition
	case r.c.Brokers[m.From].Incarnation != ev.senderInc:
		drop = model.DropSenderRestarted
	}
	if drop != model.CauseNone {
		d := model.NewEvent(model.EvDropped, m.To)
		d.Peer, d.Msg, d.Cause = m.From, *m, drop
		r.outcome(d)
		return
	}
	r.c.Deliver(*m)
}

// effect schedules one effect of the step.
func (r *runner) effect(e *model.Effect) {
	cfg := &r.sc.Config
	switch e.Kind {
	case model.EffSend:
		m := &e.Msg
		bytes := m.WireBytes()
		now := r.sched.Now()
		depart := max(now, r.egress[m.From])
		free := depart.Add(sim.Duration(bytes * int64(sim.Second) / cfg.ReplicationBytesPerSec))
		r.egress[m.From] = free
		r.sent[m.From] += bytes
		ms, lost := r.choose.Network(cfg.NetworkLatencyMs[0], cfg.NetworkLatencyMs[1])
		if lost {
			r.s.lost = model.NewEvent(model.EvDropped, m.To)
			r.s.lost.Peer, r.s.lost.Msg, r.s.lost.Cause = m.From, *m, model.DropLost
			r.record(&r.s.lost)
			return
		}
		r.sched.At(free.Add(sim.Ms(ms)), event{kind: evDeliver, msg: r.msgs.put(*m), senderInc: r.c.Brokers[m.From].Incarnation})
	case model.EffSetTimer:
		i := r.timerSlot(e.Timer)
		r.sched.Cancel(r.timers[i]) // a no-op when none is pending
		r.timers[i] = r.sched.After(e.After, event{kind: evTimer, timer: e.Timer})
	case model.EffCancelTimer:
		i := r.timerSlot(e.Timer)
		r.sched.Cancel(r.timers[i])
		r.timers[i] = sim.Timer{}
	case model.EffRemote:
		span := cfg.RemoteFetchMs
		if e.Remote.Kind == model.RemoteUpload {
			span = cfg.RemoteUploadMs
		}
		ms, failed := r.choose.Remote(span[0], span[1], cfg.RemoteErrorRate)
		r.sched.After(sim.Ms(ms), event{kind: evRemoteDone, op: r.ops.put(e.Remote), failed: failed})
	}
}

// timerSlot is where r.timers keeps the timer k names: a table indexed by
// broker, kind and peer instead of a map, which hashed a key on every set,
// cancel and fire.
func (r *runner) timerSlot(k model.TimerKey) int {
	n := r.sc.Brokers
	if k.Broker < 0 || k.Broker >= n || k.Peer < 0 || k.Peer >= n || k.Kind >= model.NumTimerKinds {
		panic(fmt.Sprintf("scenarios: timer %+v outside %d brokers", k, n))
	}
	return (k.Broker*int(model.NumTimerKinds)+int(k.Kind))*n + k.Peer
}
