package harness

import (
	"tierfetch/model"
	"tierfetch/sim"
)

// digestChunk is how many bytes of event encodings the runner gathers
// before it hands them to the digest: hashing in chunks costs less than a
// call per event and gives the same SHA-256.
const digestChunk = 8 << 10

// begin records an input event the environment records itself, the first
// event of its step: the run's start, a network partition and its end, a
// message the network drops (the model records the inputs it takes).
// A run that keeps no tail has no other view than the digest, and a failure
// reruns it (Execute): then the event is hashed where it is and not kept.
func (r *runner) begin(e model.Event) {
	if r.mp != nil && e.Kind != model.EvDeliver {
		e.Part = -1 // the run's start, a network partition: the whole fleet's
	}
	if !r.keepTail {
		if r.lean { // a fork (Run.Fork): the checker is its only view
			r.events++
			r.checker.Event(r.sched.Now(), &e)
			return
		}
		r.hash(&e)
		r.observe(r.sched.Now(), &e)
		return
	}
	r.s.input = timedEvent{at: r.sched.Now(), e: e}
	r.record(&r.s.input.e)
}

// hash adds one event to the digest.
func (r *runner) hash(e *model.Event) {
	if r.mp != nil {
		r.enc = e.AppendBinaryPart(r.enc, r.sched.Now())
	} else {
		r.enc = e.AppendBinary(r.enc, r.sched.Now())
	}
	if len(r.enc) >= digestChunk {
		r.digest.Write(r.enc)
		r.enc = r.enc[:0]
	}
	r.events++
}

// record passes one event to every view of the run: the digest, the tail
// a failure report shows, the text sink and the observers. e must not be a
// local variable's address: observers are called through an interface, so
// the compiler would move every such event to the heap.
func (r *runner) record(e *model.Event) {
	now := r.sched.Now()
	if r.lean { // a fork (Run.Fork): the checker is its only view
		r.events++
		r.checker.Event(now, e)
	} else {
		r.hash(e)
		r.observe(now, e)
	}
	if e.Shown() {
		if r.keepTail {
			r.tail.Push(timedEvent{at: now, e: *e})
		}
		if r.opt.TraceSink != nil && (r.mp == nil || r.mp.traceOnly < 0 || e.Part < 0 || e.Part == r.mp.traceOnly) {
			r.line = r.appendLine(r.line[:0], now, e)
			r.opt.TraceSink(string(r.line))
		}
	}
	for _, o := range r.opt.Observers {
		o.Event(now, e)
	}
}

// observe passes one event to the runner's own observers: the view (replica
// stats, consumes, coverage) and the checker.
func (r *runner) observe(now sim.Time, e *model.Event) {
	if r.mp != nil {
		r.mp.observe(now, e)
		return
	}
	r.view.Event(now, e)
	if r.checker != nil { // nil only for the run's start event
		r.checker.Event(now, e)
	}
}

// skip notes that the step's scenario event did not happen (the model's
// EvSkipped), and why.
func (r *runner) skip(reason string) {
	typ, index := r.skipType, r.skipIndex
	at := r.sched.Now().Ms()
	if index >= 0 {
		at = r.sc.Events[index].AtMs
	}
	r.skipped = append(r.skipped, SkippedEvent{Index: index, Fault: r.faultIndex, AtMs: at, Type: typ, Reason: reason})
}

// recordStateChanges emits, after a step, the state of every broker it
// changed and the finished remote range when remote storage changed.
// brokerView is what a broker-state event reports of a broker.
type brokerView struct {
	role  model.Role
	up    bool
	epoch int32
	log   model.LogOffsets
	hro   int64
}

// partState is what the last step left of one partition, to emit its
// broker and remote state changes.
type partState struct {
	brokers    []brokerView
	remoteVer  uint64
	remoteNow  [2]int64
	remoteSeen bool
}

func (r *runner) recordStateChanges() {
	if r.mp != nil {
		m, only := r.mp, r.f.HROOnly()
		m.violation, m.violated = nil, -1
		for _, p := range r.f.Dirty() {
			r.recordPartChanges(r.f.Parts[p], &m.states[p], p, only)
			// Checked now, while what recordPartChanges just read of the
			// partition (its brokers' offsets, roles, HROs) is still in
			// cache: at 10,000 partitions a step's partitions do not all
			// stay there until a second pass. The checks read only the
			// cluster, which neither the other partitions' records nor
			// the step's effects change, and the checker's events, all
			// recorded by now (a partition's records go to its own
			// checker), so each answers as it would after them; the
			// first violation, in Dirty order, fails the step once its
			// records are all made (multiRun.check), and the partitions
			// after it are not checked, as before.
			if m.violation == nil {
				m.violation, m.violated = m.checkPart(r, p, only), p
			}
		}
		return
	}
	r.recordPartChanges(r.c, &r.st, 0, -1)
}

// recordPartChanges emits the changes of partition part (cluster c) since
// st; only >= 0 is the one broker the step can have changed
// (Fleet.HROOnly): the others are not compared. With the flag off, a broker
// replacement's runs of that kind are most of its steps, and comparing a
// partition's every broker costs each a cache miss or more at 10,000
// partitions.
func (r *runner) recordPartChanges(c *model.Cluster, st *partState, part model.PartID, only int) {
	lo, hi := 0, len(c.Brokers)
	if only >= 0 && st.brokers != nil {
		lo, hi = only, only+1
	}
	if st.brokers == nil {
		st.brokers = make([]brokerView, len(c.Brokers))
		for i := range st.brokers {
			st.brokers[i].epoch = -2 // never a real epoch: the first step reports every broker
		}
		st.remoteVer = ^uint64(0)
	}
	for i := lo; i < hi; i++ {
		b := c.Brokers[i]
		// Field by field, the offsets (what changes most) first: the
		// struct comparison the compiler makes is a call and a memequal.
		w, l := &st.brokers[i], &b.Log
		if w.log.HighWatermark != l.HighWatermark || w.log.LogEnd != l.LogEnd ||
			w.log.LocalLogStart != l.LocalLogStart || w.log.LogStart != l.LogStart ||
			w.hro != b.HighestRemote || w.epoch != b.LeaderEpoch || w.role != b.Role || w.up != b.Up {
			v := brokerView{b.Role, b.Up, b.LeaderEpoch, model.OffsetsOf(l), b.HighestRemote}
			*w = v
			// Made once and then only the fields below written: clearing
			// the whole 432-byte event for every change cost more than the
			// change.
			e := &r.s.brokerEv
			if !r.s.brokerEvMade {
				*e, r.s.brokerEvMade = model.NewEvent(model.EvBrokerState, i), true
			}
			e.Broker, e.Part = i, part
			e.Role, e.Up, e.Epoch, e.Log, e.HRO = v.role, v.up, v.epoch, v.log, v.hro
			r.record(e)
		}
	}
	if c.Remote.Version != st.remoteVer {
		st.remoteVer = c.Remote.Version
		start, end, ok := c.Remote.Finished()
		if !ok {
			start, end = 0, -1
		}
		if !st.remoteSeen || [2]int64{start, end} != st.remoteNow {
			st.remoteSeen, st.remoteNow = true, [2]int64{start, end}
			r.s.remoteEv = model.NewEvent(model.EvRemoteState, -1)
			r.s.remoteEv.Offset, r.s.remoteEv.Last, r.s.remoteEv.Part = start, end, part
			r.record(&r.s.remoteEv)
		}
	}
}

// appendLine appends e's trace line at time at: in a run of many
// partitions, with the partition it is about.
func (r *runner) appendLine(dst []byte, at sim.Time, e *model.Event) []byte {
	if r.mp == nil || e.Part < 0 {
		return e.AppendLine(dst, at)
	}
	return e.AppendLineIn(dst, at, r.f.TPs[e.Part].String())
}
