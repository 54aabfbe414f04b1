package harness

import (
	"bytes"
	"encoding/binary"
	"slices"

	"github.com/cespare/xxhash/v2"

	"tierfetch/sim"
)

// StateHash is the XXH64 of the run's canonical state encoding (AppendState).
func (r *runner) stateHash() uint64 {
	r.s.stateBuf = r.appendState(r.s.stateBuf[:0])
	return xxhash.Sum64(r.s.stateBuf)
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
// the checker could judge their continuations differently.
func (r *runner) appendState(dst []byte) []byte {
	now := r.sched.Now()
	dst = r.c.AppendState(dst)
	dst = r.checker.AppendState(dst, r.c)
	dst = append(dst, boolByte(r.healed))
	for _, e := range r.egress {
		dst = binary.AppendVarint(dst, max(0, int64(e.Sub(now))))
	}
	for _, p := range r.cuts {
		if p.until > now {
			dst = appendIntList(dst, p.brokers)
			dst = binary.AppendVarint(dst, int64(p.until.Sub(now)))
		}
	}
	dst = append(dst, 0xff)
	// Pending events, each encoded alone, then sorted: the order in which
	// they were scheduled is not state (ties are a choice).
	r.s.pend = r.s.pend[:0]
	r.s.pendBuf = r.s.pendBuf[:0]
	r.sched.Each(func(at sim.Time, ev *event) {
		start := len(r.s.pendBuf)
		r.s.pendBuf = binary.BigEndian.AppendUint64(r.s.pendBuf, uint64(at.Sub(now)))
		r.s.pendBuf = r.appendEvent(r.s.pendBuf, ev, now)
		r.s.pend = append(r.s.pend, [2]int{start, len(r.s.pendBuf)})
	})
	slices.SortFunc(r.s.pend, func(a, b [2]int) int { return bytes.Compare(r.s.pendBuf[a[0]:a[1]], r.s.pendBuf[b[0]:b[1]]) })
	for _, p := range r.s.pend {
		dst = binary.AppendUvarint(dst, uint64(p[1]-p[0]))
		dst = append(dst, r.s.pendBuf[p[0]:p[1]]...)
	}
	return dst
}

func (r *runner) appendEvent(dst []byte, ev *event, now sim.Time) []byte {
	dst = append(dst, byte(ev.kind), boolByte(ev.failed))
	switch ev.kind {
	case evDeliver:
		dst = binary.AppendUvarint(dst, uint64(ev.senderInc))
		dst = r.msgs.at(ev.msg).AppendState(dst, now)
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
