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

// apply hands one scheduled event to the cluster (Step), or records it when
// it is the environment's own (a partition that ends, a message the network
// drops).
func (r *runner) apply(ev *event) {
	r.scIndex, r.faultIndex = -1, -1
	switch ev.kind {
	case evScenario:
		r.scIndex = ev.idx
		r.applyScenario(r.sc.Events[ev.idx])
	case evProduceChunk:
		in := &model.Input{Kind: model.EvProduceChunk}
		if ev.idx >= 0 {
			in = r.aim(in, &r.sc.Events[ev.idx])
		}
		r.produceChunk(ev, in)
	case evDeliver:
		r.deliver(ev)
	case evTimer:
		r.timers[r.timerSlot(ev.timer)] = sim.Timer{}
		r.step(&model.Input{Kind: model.EvTimer, Timer: ev.timer}, "", -1)
	case evRemoteDone:
		op := r.ops.take(ev.op)
		r.remoteDone(&op)
		r.step(&model.Input{Kind: model.EvRemoteDone, Op: op, Failed: ev.failed}, "", -1)
	case evPartitionEnd:
		e := model.NewEvent(model.EvPartitionEnd, -1)
		e.Brokers = r.cuts[ev.idx].brokers
		r.begin(e)
	case evHeal:
		r.heal()
	case evFault:
		r.faultIndex = ev.idx
		r.applyScenario(r.faults[ev.idx])
	case evRolling:
		r.scIndex = ev.idx
		r.rollingStep(ev)
	}
}

// step hands the cluster one input; a refusal of it (EvSkipped) is noted
// as the scenario event of type typ at index (-1: none) that did not
// happen.
func (r *runner) step(in *model.Input, typ string, index int) {
	r.skipType, r.skipIndex = typ, index
	r.f.Step(r.sched.Now(), in)
}

// aim sets the partitions a scenario event's input is for in a
// broker-scale run: the one or the topic's it names, or every partition
// (a one-partition run's input goes to its partition).
func (r *runner) aim(in *model.Input, e *scenarios.Event) *model.Input {
	if r.mp == nil {
		return in
	}
	in.Part = -1
	if t := r.mp.targets(r.f, e); len(t) == 1 {
		in.Part = t[0]
	} else {
		in.Only = t
	}
	return in
}

// applyScenario hands the cluster one scenario event: a fault as the fault
// table says (applyFault), any other event by its type.
func (r *runner) applyScenario(e scenarios.Event) {
	if k, ok := scenarios.FaultOf(&e); ok {
		r.applyFault(k, &e)
		return
	}
	switch e.Type {
	case scenarios.EventAddReplica:
		r.step(r.brokerInput(model.EvAddReplica, &e), e.Type, r.scIndex)
	case scenarios.EventProduce:
		chunks := max(1, min(e.Records, e.OverMs/produceChunkMs))
		r.produceChunk(&event{idx: r.scIndex, records: e.Records, chunks: chunks, interval: sim.Ms(e.OverMs) / sim.Duration(chunks)},
			r.aim(&model.Input{Kind: model.EvProduce, Count: e.Records, Ms: e.OverMs}, &e))
	case scenarios.EventReplaceBroker:
		r.step(r.brokerInput(model.EvReplaceBroker, &e), e.Type, r.scIndex)
	case scenarios.EventReassign:
		r.step(r.aim(&model.Input{Kind: model.EvReassign, Brokers: e.Replicas}, &e), e.Type, r.scIndex)
	case scenarios.EventSetConfig: // a key no fault kind owns
		r.setConfig(model.EvSetConfig, &e)
	case scenarios.EventConsume:
		r.step(r.aim(&model.Input{Kind: model.EvConsume, Offset: e.FromOffset}, &e), e.Type, r.scIndex)
	case scenarios.EventRollingRestart:
		r.rollingStep(&event{kind: evRolling, idx: r.scIndex})
	default:
		panic(fmt.Sprintf("harness: scenario event %q at %d ms has no handler (a validated scenario has none such)", e.Type, e.AtMs))
	}
}

// applyFault injects fault k, scenario event e: the model input (or, for a
// network partition, the environment's own event) is of the kind the fault
// table names (scenarios.Fault.Model), so the table and the run cannot
// disagree on what a fault is in the model. A kind with no case here
// panics: TestFaultTableModelEvents runs every kind.
func (r *runner) applyFault(k scenarios.FaultKind, e *scenarios.Event) {
	kind := k.Fault().Model
	switch k {
	case scenarios.FaultCrash, scenarios.FaultRestart, scenarios.FaultElect:
		r.step(r.brokerInput(kind, e), e.Type, r.scIndex)
	case scenarios.FaultTiering, scenarios.FaultCopy, scenarios.FaultFlag, scenarios.FaultRetention, scenarios.FaultRemoteRetention:
		r.setConfig(kind, e)
	case scenarios.FaultDeleteRecords:
		r.step(r.aim(&model.Input{Kind: kind, Offset: e.BeforeOffset}, e), e.Type, r.scIndex)
	case scenarios.FaultPartition:
		x := model.NewEvent(kind, -1)
		x.Brokers, x.Ms = slices.Clone(e.Brokers), e.DurationMs
		r.begin(x)
		r.cuts = append(r.cuts, partition{brokers: slices.Clone(e.Brokers), until: r.sched.Now().Add(sim.Ms(e.DurationMs))})
		r.sched.At(r.cuts[len(r.cuts)-1].until, event{kind: evPartitionEnd, idx: len(r.cuts) - 1})
	case scenarios.FaultRemoteOutage:
		r.step(r.aim(&model.Input{Kind: kind, Ms: e.DurationMs}, e), e.Type, r.scIndex)
	default:
		panic(fmt.Sprintf("harness: fault %s (scenario event %s) has no handler in applyFault", k, e.Type))
	}
}

// brokerInput is the input of kind for the broker scenario event e names.
func (r *runner) brokerInput(kind model.EventKind, e *scenarios.Event) *model.Input {
	return r.aim(&model.Input{Kind: kind, Broker: *e.Broker}, e)
}

// setConfig hands the cluster a set_config event as an input of kind.
func (r *runner) setConfig(kind model.EventKind, e *scenarios.Event) {
	in := &model.Input{Kind: kind, Broker: -1, Key: e.Key}
	if e.Broker != nil {
		in.Broker = *e.Broker
	}
	if scenarios.SetConfigBool(e.Key) {
		in.Bool, in.On = true, e.BoolValue()
	} else {
		in.Value = e.IntValue()
	}
	r.step(in, e.Type, r.scIndex)
}

// produceChunk appends one batch of a spread produce as input in (the
// produce event itself for the first, EvProduceChunk for the others) and
// schedules the next.
func (r *runner) produceChunk(ev *event, in *model.Input) {
	n := ev.records / ev.chunks
	in.Records, in.Producer = n, r.choose.Producer(3)
	r.step(in, scenarios.EventProduce, ev.idx)
	if ev.chunks > 1 {
		r.sched.After(ev.interval, event{kind: evProduceChunk, idx: ev.idx, records: ev.records - n, chunks: ev.chunks - 1, interval: ev.interval})
	}
}

// heal ends the fault phase: network partitions end and the cluster heals
// (crashed replicas restart, remote storage is back).
func (r *runner) heal() {
	r.healed = true
	for i := range r.cuts {
		r.cuts[i].until = min(r.cuts[i].until, r.sched.Now())
	}
	in := &model.Input{Kind: model.EvHeal}
	if r.mp != nil {
		in.Part = -1 // every partition heals, not the first alone
	}
	r.step(in, scenarios.EventRestart, -1)
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

// deliver hands a message to its receiver, unless a network partition or
// the sender's restart since it sent it drops it: the environment then
// records the delivery and the drop itself.
func (r *runner) deliver(ev *event) {
	// Read in place: nothing puts a message before the step's effects.
	m := r.msgs.at(ev.msg)
	defer r.msgs.release(ev.msg)
	drop := model.CauseNone
	switch {
	case r.cut(m.From, m.To):
		drop = model.DropPartition
	case r.f.Incarnation(m.From) != ev.senderInc:
		drop = model.DropSenderRestarted
	}
	if drop == model.CauseNone {
		r.step(&model.Input{Kind: model.EvDeliver, Msg: *m}, "", -1)
		return
	}
	e := model.NewEvent(model.EvDeliver, m.To)
	e.Peer, e.Msg, e.Part, e.Fetcher = m.From, *m, m.Part, m.Fetcher
	r.begin(e)
	r.s.dropped = model.NewEvent(model.EvDropped, m.To)
	r.s.dropped.Peer, r.s.dropped.Msg, r.s.dropped.Cause = m.From, *m, drop
	r.s.dropped.Part, r.s.dropped.Fetcher = m.Part, m.Fetcher
	r.record(&r.s.dropped)
}

// effect schedules one effect of the step.
func (r *runner) effect(e *model.Effect) {
	switch e.Kind {
	case model.EffSend:
		r.sendMsg(&e.Msg)
	case model.EffSetTimer:
		i := r.timerSlot(e.Timer)
		r.sched.Cancel(r.timers[i]) // a no-op when none is pending
		ev := event{kind: evTimer, timer: e.Timer}
		// A broker-scale run's RLM task timers go first at their instant,
		// by rank, whenever they were set: the model leaves idle tasks
		// without a timer and wakes them for the same instant
		// (model/ticks.go).
		if rank, ok := e.Timer.TaskRank(r.sc.Brokers); ok && r.mp != nil {
			r.timers[i] = r.sched.AtKey(r.sched.Now().Add(e.After), rank, ev)
		} else {
			r.timers[i] = r.sched.After(e.After, ev)
		}
	case model.EffCancelTimer:
		i := r.timerSlot(e.Timer)
		r.sched.Cancel(r.timers[i])
		r.timers[i] = sim.Timer{}
	case model.EffRemote:
		r.requestRemote(e.Remote)
	}
}

// timerSlot is where r.timers keeps the timer k names: a table indexed by
// broker, kind and peer instead of a map, which hashed a key on every set,
// cancel and fire.
//
// A broker-scale run has one such table a partition, then one a fetcher
// id for the fetcher threads' timers (Part -1).
func (r *runner) timerSlot(k model.TimerKey) int {
	n := r.sc.Brokers
	if k.Broker < 0 || k.Broker >= n || k.Peer < 0 || k.Peer >= n || k.Kind >= model.NumTimerKinds {
		panic(fmt.Sprintf("scenarios: timer %+v outside %d brokers", k, n))
	}
	i := (k.Broker*int(model.NumTimerKinds)+int(k.Kind))*n + k.Peer
	if r.mp == nil {
		return i
	}
	table := n * int(model.NumTimerKinds) * n
	if k.Part >= 0 {
		return int(k.Part)*table + i
	}
	return (len(r.f.Parts)+int(k.Fetcher))*table + i
}
