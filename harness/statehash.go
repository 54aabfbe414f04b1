package harness

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/cespare/xxhash/v2"

	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// StateHash is the XXH64 of the run's canonical state encoding (AppendState).
func (r *runner) stateHash() uint64 {
	r.s.stateBuf = r.appendState(r.s.stateBuf[:0], &r.s.offs)
	return xxhash.Sum64(r.s.stateBuf)
}

// stateOffsets are where appendState's parts begin: each broker's part of
// the cluster's (model.Cluster.AppendStateMarked), then the checker's, the
// heal flag, the links' backlogs, the partitions, the pending events.
type stateOffsets struct {
	brokers                             []int
	checker, healed, egress, cuts, pend int
}

// appendState appends the canonical encoding of everything the rest of the
// run depends on: the cluster (model.Cluster.AppendState), the pending
// events (messages in flight, timers, remote operations, scenario events
// still due, the heal and the end) with their times relative to now and in
// a canonical order, the network partitions in force, each link's backlog
// and whether the fault phase is over, and the checker's own record
// (invariants.Checker.AppendState: the committed history as kept, the
// uploaded offsets, the stale-log-start clock, ...), so that two paths to the
// same cluster state that committed by different routes are told apart when
// the checker could judge their continuations differently. It records in
// o where each part begins (Parts fingerprints them).
func (r *runner) appendState(dst []byte, o *stateOffsets) []byte {
	now := r.sched.Now()
	dst, o.brokers = r.c.AppendStateMarked(dst, o.brokers[:0], now)
	o.checker = len(dst)
	dst = r.checker.AppendState(dst, r.c, now)
	o.healed = len(dst)
	dst = append(dst, boolByte(r.healed))
	o.egress = len(dst)
	for _, e := range r.egress {
		dst = binary.AppendVarint(dst, max(0, int64(e.Sub(now))))
	}
	o.cuts = len(dst)
	dst = r.appendCuts(dst, now)
	o.pend = len(dst)
	return r.appendPending(dst, now)
}

func (r *runner) appendCuts(dst []byte, now sim.Time) []byte {
	for _, p := range r.cuts {
		if p.until > now {
			dst = appendIntList(dst, p.brokers)
			dst = binary.AppendVarint(dst, int64(p.until.Sub(now)))
		}
	}
	return append(dst, 0xff)
}

// appendPending appends the pending events, each encoded alone, then
// sorted: the order in which they were scheduled is not state (ties are a
// choice).
func (r *runner) appendPending(dst []byte, now sim.Time) []byte {
	pend, buf := r.s.pend[:0], r.s.pendBuf[:0]
	r.sched.Each(func(at sim.Time, ev *event) {
		start, rel := len(buf), uint64(at.Sub(now))
		buf = r.appendEvent(binary.BigEndian.AppendUint64(buf, rel), ev, now)
		pend = append(pend, pendRef{at: rel, start: start, end: len(buf)})
	})
	r.s.pend, r.s.pendBuf = pend, buf
	sortPending(pend, buf)
	for _, p := range pend {
		dst = binary.AppendUvarint(dst, uint64(p.end-p.start))
		dst = append(dst, buf[p.start:p.end]...)
	}
	return dst
}

// sortPending sorts pend by their bytes in buf. A state holds a few
// pending events (omts-local-deleted 15), which an insertion sort
// comparing their times inline sorts in a fraction of the time
// slices.SortFunc takes through its comparison function (3% of an
// explore's CPU); more are sorted by slices.SortFunc, as an insertion
// sort's time grows with their square.
func sortPending(pend []pendRef, buf []byte) {
	if len(pend) > insertionSortMax {
		slices.SortFunc(pend, func(a, b pendRef) int {
			if a.at != b.at {
				return cmp.Compare(a.at, b.at)
			}
			return bytes.Compare(buf[a.start+8:a.end], buf[b.start+8:b.end])
		})
		return
	}
	for i := 1; i < len(pend); i++ {
		p := pend[i]
		j := i
		for ; j > 0; j-- {
			q := &pend[j-1]
			if p.at > q.at || p.at == q.at && bytes.Compare(buf[p.start+8:p.end], buf[q.start+8:q.end]) >= 0 {
				break
			}
			pend[j] = *q
		}
		pend[j] = p
	}
}

// insertionSortMax is the most pending events sortPending sorts by
// insertion.
const insertionSortMax = 48

// pendRef is a pending event's encoding in scratch.pendBuf, [start, end),
// which begins with at, the event's time relative to now, big-endian:
// events sorted by at, then by the rest of their bytes, are sorted by
// their bytes (bytes.Compare), without comparing most of them.
type pendRef struct {
	at         uint64
	start, end int
}

func (r *runner) appendEvent(dst []byte, ev *event, now sim.Time) []byte {
	dst = append(dst, byte(ev.kind), boolByte(ev.failed))
	switch ev.kind {
	case evDeliver:
		dst = binary.AppendUvarint(dst, uint64(ev.senderInc))
		dst = r.c.AppendMessageState(dst, r.msgs.at(ev.msg), now)
	case evTimer:
		dst = append(dst, byte(ev.timer.Kind), byte(ev.timer.Broker), byte(ev.timer.Peer))
	case evRemoteDone:
		o := r.ops.at(ev.op)
		dst = append(dst, byte(o.Kind))
		for _, v := range [...]int64{int64(o.ID), int64(o.Broker), int64(o.Segment), o.Bytes} {
			dst = binary.AppendVarint(dst, v)
		}
	default:
		for _, v := range [...]int64{int64(ev.idx), ev.records, ev.chunks, int64(ev.interval)} {
			dst = binary.AppendVarint(dst, v)
		}
	}
	return dst
}

func appendIntList(dst []byte, v []int) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	for _, x := range v {
		dst = binary.AppendVarint(dst, int64(x))
	}
	return dst
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Parts fingerprints the parts of a run's state one step can change, for
// simrun explore's partial-order reduction: two steps that change only
// their own brokers' parts (and neither reads the other's) commute, and
// a search that took one order need not take the other. Every fingerprint
// is the XXH64 of that part of the encoding Hash hashes.
type Parts struct {
	Hash uint64 // Hash()
	Size int    // bytes of the encoding (a deterministic measure of the state's size)
	// NowUs is the run's simulated time.
	NowUs int64
	// Shared is the cluster apart from its brokers (controller, remote
	// storage, producers, id counters); Checker the checker's record;
	// Global the heal and the partitions in force.
	Shared, Checker, Global uint64
	// Brokers holds each broker's part and its link's backlog.
	Brokers []uint64
}

// Parts computes p for the run's state (Options.StateHash), reusing
// p.Brokers.
func (x *Run) Parts(p *Parts) {
	r := x.r
	now := r.sched.Now()
	o := &r.s.offs
	buf := r.appendState(r.s.stateBuf[:0], o)
	r.s.stateBuf = buf
	p.Hash, p.Size, p.NowUs = xxhash.Sum64(buf), len(buf), int64(now)
	p.Shared = xxhash.Sum64(buf[:o.brokers[0]])
	p.Checker = xxhash.Sum64(buf[o.checker:o.healed])
	p.Global = xxhash.Sum64(buf[o.healed:o.egress]) ^ xxhash.Sum64(buf[o.cuts:o.pend])*prime
	p.Brokers = p.Brokers[:0]
	for i, start := range o.brokers {
		end := o.checker
		if i+1 < len(o.brokers) {
			end = o.brokers[i+1]
		}
		var e [binary.MaxVarintLen64]byte
		n := binary.PutVarint(e[:], max(0, int64(r.egress[i].Sub(now))))
		p.Brokers = append(p.Brokers, xxhash.Sum64(buf[start:end])^xxhash.Sum64(e[:n])*prime)
	}
}

// Cluster returns the run's cluster (read it, never change it).
func (x *Run) Cluster() *model.Cluster { return x.r.c }

// Checker returns the run's checker (read it, never change it).
func (x *Run) Checker() *invariants.Checker { return x.r.checker }

// prime mixes a broker's link backlog into its fingerprint.
const prime = 0x9E3779B97F4A7C15

// Input is what the last step took (Options.StateHash): the identity of
// its input event, the same for the same event wherever it is taken, and
// the brokers whose state the step reads (Global: any). The initial step
// has none.
type Input struct {
	ID uint64
	// Fault is the index of the injected fault (-1: none).
	Fault int
	// Brokers the step reads: a message's receiver and sender (whose
	// incarnation decides whether it is dropped), a timer's or remote
	// operation's broker, a crash's, restart's or election's broker.
	Brokers [2]int
	// Global: the step may read or change any part of the state (a
	// scenario event, a produced batch, a partition, an outage, the heal).
	Global bool
	// ReadsTime: an injected fault whose effect depends on when it is
	// injected (a restart's metadata delay, a partition's or an outage's
	// end).
	ReadsTime bool
	// Refused: an injected fault the model refused (a crash of a broker
	// already down, an election of the leader, ...): the step changed
	// nothing, its state is the one before.
	Refused bool
}

// Input returns what the last step took.
func (x *Run) Input() Input { return x.r.s.in }

// noteInput records what the step's input event ev is, before it is
// applied (a message leaves the slab then).
func (r *runner) noteInput(ev *event) {
	in := Input{ID: r.inputID(ev), Fault: -1, Brokers: [2]int{-1, -1}}
	switch ev.kind {
	case evDeliver:
		m := r.msgs.at(ev.msg)
		in.Brokers = [2]int{m.To, m.From}
	case evTimer:
		in.Brokers[0] = ev.timer.Broker
	case evRemoteDone:
		in.Brokers[0] = r.ops.at(ev.op).Broker
	case evFault:
		in.Fault = ev.idx
		f := r.faults[ev.idx]
		switch f.Type {
		case scenarios.EventCrash, scenarios.EventElectLeader:
			in.Brokers[0] = *f.Broker
		case scenarios.EventRestart:
			in.Brokers[0], in.ReadsTime = *f.Broker, true
		default:
			in.Global, in.ReadsTime = true, true
		}
	default:
		in.Global = true
	}
	r.s.in = in
}

// inputID names the event ev by the fields that tell events apart (a
// message's kind, endpoints, request id, the sender's incarnation, its
// offsets and epochs and its batches' ends; a timer's key; a remote
// operation's id, broker, kind and segment; a scenario event's index, a
// produce chunk's place), without encoding the whole message: the same
// event has the same name wherever it is taken.
func (r *runner) inputID(ev *event) uint64 {
	var f [24]uint64
	f[0] = uint64(ev.kind)<<1 | uint64(boolByte(ev.failed))
	switch ev.kind {
	case evDeliver:
		m := r.msgs.at(ev.msg)
		copy(f[1:], []uint64{uint64(m.Kind), uint64(m.From), uint64(m.To), m.ReqID, uint64(ev.senderInc),
			uint64(m.LeaderEpoch), uint64(m.Err), uint64(m.FetchOffset), uint64(m.LastFetchedEpoch), uint64(m.MaxBytes),
			uint64(m.HighWatermark), uint64(m.LogStart), uint64(boolByte(m.Diverging)), uint64(m.Timestamp),
			uint64(m.Epoch), uint64(m.Offset), uint64(len(m.Batches))})
		if n := len(m.Batches); n > 0 {
			first, last := &m.Batches[0], &m.Batches[n-1]
			copy(f[18:], []uint64{uint64(first.Base), uint64(first.Origin), uint64(last.Base + last.Count),
				uint64(last.Origin), uint64(last.Epoch)})
		}
	case evTimer:
		copy(f[1:], []uint64{uint64(ev.timer.Kind), uint64(ev.timer.Broker), uint64(ev.timer.Peer)})
	case evRemoteDone:
		o := r.ops.at(ev.op)
		copy(f[1:], []uint64{o.ID, uint64(o.Broker), uint64(o.Kind), o.Segment, uint64(o.Bytes)})
	default:
		copy(f[1:], []uint64{uint64(ev.idx), uint64(ev.records), uint64(ev.chunks), uint64(ev.interval)})
	}
	buf := r.s.inBuf[:0]
	for _, v := range f {
		buf = binary.LittleEndian.AppendUint64(buf, v)
	}
	r.s.inBuf = buf
	return xxhash.Sum64(buf)
}

// FaultInputID is Input().ID of a step that injects fault i: the search
// knows it before taking the step.
func FaultInputID(i int) uint64 {
	r := runner{s: &scratch{}}
	return r.inputID(&event{kind: evFault, idx: i})
}
