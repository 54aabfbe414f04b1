package scenarios

import (
	"fmt"
	"slices"
	"strconv"

	"tierfetch/model"
	"tierfetch/sim"
)

// produceChunkMs is how finely a produce event is spread: one batch per
// this much virtual time.
const produceChunkMs = 100

// apply hands one scheduled event to the cluster and writes its trace line.
func (r *runner) apply(ev event) {
	now := r.sched.Now()
	switch ev.kind {
	case evScenario:
		r.applyScenario(r.sc.Events[ev.idx])
	case evProduceChunk:
		r.produceChunk(ev)
	case evDeliver:
		r.deliver(ev)
	case evTimer:
		r.timers[r.timerSlot(ev.timer)] = sim.Timer{}
		line := append(appendBroker(r.beginLine(), ev.timer.Broker), " timer "...)
		r.endLine(append(line, ev.timer.Kind.String()...))
		r.c.Fire(ev.timer)
	case evRemoteDone:
		st := "ok"
		if ev.failed || int64(now) < r.c.Remote.OutageUntilUs {
			st = "failed"
		}
		line := append(appendBroker(r.beginLine(), ev.op.Broker), " remote "...)
		line = strconv.AppendUint(append(append(line, ev.op.Kind.String()...), " #"...), ev.op.Segment, 10)
		r.endLine(append(append(line, ' '), st...))
		r.c.RemoteDone(ev.op, ev.failed)
	case evPartitionEnd:
		r.note("network partition of %v ends", r.cuts[ev.idx].brokers)
	case evHeal:
		r.heal()
	}
}

// note writes the step's event line.
func (r *runner) note(format string, args ...any) {
	r.endLine(fmt.Appendf(r.beginLine(), format, args...))
}

// beginLine starts the step's event line, "t=1.250s ", in the reused buffer;
// the frequent events append the rest themselves instead of going through
// fmt, which was most of a run's time (the text is the same).
func (r *runner) beginLine() []byte {
	return append(r.sched.Now().AppendTo(r.line[:0]), ' ')
}

// endLine records line, begun by beginLine, as the step's event line.
func (r *runner) endLine(line []byte) {
	r.line = line
	r.trace.AddBytes(line)
}

// appendBroker appends "b<id>".
func appendBroker(dst []byte, id int) []byte {
	return strconv.AppendInt(append(dst, 'b'), int64(id), 10)
}

func (r *runner) applyScenario(e Event) {
	var err error
	switch e.Type {
	case EventAddReplica:
		r.note("add_replica b%d", *e.Broker)
		err = r.c.AddReplica(*e.Broker)
	case EventProduce:
		r.note("produce %d records over %dms", e.Records, e.OverMs)
		chunks := max(1, min(e.Records, e.OverMs/produceChunkMs))
		r.produceChunk(event{records: e.Records, chunks: chunks, interval: sim.Ms(e.OverMs) / sim.Duration(chunks)})
	case EventElectLeader:
		r.note("elect_leader b%d", *e.Broker)
		err = r.c.ElectLeader(*e.Broker)
	case EventCrash:
		r.note("crash b%d", *e.Broker)
		err = r.c.Crash(*e.Broker)
	case EventRestart:
		r.note("restart b%d", *e.Broker)
		err = r.c.Restart(*e.Broker)
	case EventSetConfig:
		err = r.setConfig(e)
	case EventDeleteRecords:
		r.note("delete_records before %d", e.BeforeOffset)
		err = r.c.DeleteRecords(e.BeforeOffset)
	case EventNetworkPartition:
		r.note("network_partition %v for %dms", e.Brokers, e.DurationMs)
		r.cuts = append(r.cuts, partition{brokers: slices.Clone(e.Brokers), until: r.sched.Now().Add(sim.Ms(e.DurationMs))})
		r.sched.At(r.cuts[len(r.cuts)-1].until, event{kind: evPartitionEnd, idx: len(r.cuts) - 1})
	case EventRemoteOutage:
		r.note("remote_outage for %dms", e.DurationMs)
		r.c.RemoteOutage(int64(r.sched.Now().Add(sim.Ms(e.DurationMs))))
	case EventConsume:
		var st model.ConsumeStats
		st, err = r.c.Consume(e.FromOffset)
		r.note("consume from %d on b%d: [%d,%d) local=%dB remote=%dB", e.FromOffset, st.Broker, st.FromOffset, st.ToOffset, st.LocalBytes, st.RemoteBytes)
	}
	if err != nil {
		r.c.Notes = append(r.c.Notes, "skipped: "+err.Error())
	}
}

func (r *runner) setConfig(e Event) error {
	broker := -1
	if e.Broker != nil {
		broker = *e.Broker
	}
	val := string(e.Value)
	r.note("set_config %s=%s broker=%d", e.Key, val, broker)
	if SetConfigBool(e.Key) {
		return r.c.SetConfig(e.Key, e.BoolValue(), 0, broker)
	}
	return r.c.SetConfig(e.Key, false, e.IntValue(), broker)
}

// produceChunk appends one batch of a spread produce and schedules the next.
func (r *runner) produceChunk(ev event) {
	n := ev.records / ev.chunks
	if ev.kind == evProduceChunk {
		line := strconv.AppendInt(append(r.beginLine(), "produce chunk "...), n, 10)
		r.endLine(append(line, " records"...))
	}
	if !r.c.Produce(n, r.workload.IntN(3)) {
		r.c.Notes = append(r.c.Notes, "skipped: partition offline, records dropped")
	}
	if ev.chunks > 1 {
		r.sched.After(ev.interval, event{kind: evProduceChunk, records: ev.records - n, chunks: ev.chunks - 1, interval: ev.interval})
	}
}

// heal ends the fault phase: crashed replicas restart, partitions and
// outages end.
func (r *runner) heal() {
	r.note("heal: fault phase over")
	for i := range r.cuts {
		r.cuts[i].until = min(r.cuts[i].until, r.sched.Now())
	}
	r.c.Remote.OutageUntilUs = 0
	for _, b := range r.c.Brokers {
		if !b.Up && r.c.Ctrl.IsReplica(b.ID) {
			if err := r.c.Restart(b.ID); err != nil {
				r.c.Notes = append(r.c.Notes, "skipped: "+err.Error())
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

func (r *runner) deliver(ev event) {
	m := &ev.msg
	r.endLine(m.AppendTo(append(r.beginLine(), "deliver "...)))
	if r.cut(m.From, m.To) {
		r.c.Notes = append(r.c.Notes, "dropped: network partition")
		return
	}
	if r.c.Brokers[m.From].Incarnation != ev.senderInc {
		r.c.Notes = append(r.c.Notes, fmt.Sprintf("dropped: b%d restarted since sending", m.From))
		return
	}
	r.c.Deliver(*m)
}

// effect schedules one effect of the step.
func (r *runner) effect(e *model.Effect) {
	cfg := &r.sc.Config
	switch e.Kind {
	case model.EffSend:
		m := e.Msg
		bytes := m.WireBytes()
		now := r.sched.Now()
		depart := max(now, r.egress[m.From])
		free := depart.Add(sim.Duration(bytes * int64(sim.Second) / cfg.ReplicationBytesPerSec))
		r.egress[m.From] = free
		r.sent[m.From] += bytes
		lat := sim.Ms(r.network.Int64Range(cfg.NetworkLatencyMs[0], cfg.NetworkLatencyMs[1]))
		r.sched.At(free.Add(lat), event{kind: evDeliver, msg: m, senderInc: r.c.Brokers[m.From].Incarnation})
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
		lat := sim.Ms(r.remote.Int64Range(span[0], span[1]))
		failed := r.remote.Chance(cfg.RemoteErrorRate)
		r.sched.After(lat, event{kind: evRemoteDone, op: e.Remote, failed: failed})
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
