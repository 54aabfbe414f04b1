package model

import (
	"encoding/binary"
	"slices"

	"tierfetch/sim"
)

// AppendState appends a canonical, compact binary encoding of the cluster's
// behavioural state to dst: everything a later step can read (brokers with
// their logs, leader and fetcher state, the controller, remote storage, the
// id counters and the producers), with every instant written relative to
// now (the caller's time: the last step's, or the end of the run), so two
// runs that reach the same state at the same point of a schedule encode
// alike. Left out, because no step reads them: statistics (Coverage),
// observers' version counters (Remote.Version, Log.Gen), configuration and
// profile (fixed for a run); and the bootstrap path of a follower, which
// only its EvBootstrapped reports.
func (c *Cluster) AppendState(dst []byte, now sim.Time) []byte {
	dst, _ = c.AppendStateMarked(dst, nil, now)
	return dst
}

// AppendStateMarked is AppendState that also appends to marks, for each
// broker in order, where its part of the encoding begins in dst: simrun
// explore tells from them which brokers a step changed.
func (c *Cluster) AppendStateMarked(dst []byte, marks []int, now sim.Time) ([]byte, []int) {
	// Request ids are names, matched only for equality with the
	// requester's own (one at a time, never reused): a message carries
	// whether it is its requester's request in flight (currentRequest),
	// not the id, and the counter is left out, so that paths that sent a
	// different number of requests meet.
	dst = binary.AppendUvarint(dst, c.nextOrigin)
	dst = binary.AppendUvarint(dst, c.nextOp)
	for _, p := range c.producers {
		dst = binary.AppendVarint(dst, p.nextSeq)
	}
	dst = appendIntList(dst, c.Ctrl.Replicas)
	dst = appendIntList(dst, c.Ctrl.ISR)
	dst = appendIntList(dst, c.Ctrl.ELR)
	dst = binary.AppendVarint(dst, int64(c.Ctrl.LastKnownLeader))
	dst = binary.AppendVarint(dst, int64(c.Ctrl.Leader))
	dst = binary.AppendVarint(dst, int64(c.Ctrl.LeaderEpoch))
	dst = binary.AppendVarint(dst, int64(c.Ctrl.Unclean))
	if c.Ctrl.Reassigning() { // only broker-scale files reassign: a state without one keeps its bytes
		dst = appendIntList(appendIntList(append(dst, 'R'), c.Ctrl.Adding), c.Ctrl.Removing)
	}
	r := &c.Remote
	dst = binary.AppendUvarint(dst, r.NextID)
	dst = binary.AppendVarint(dst, max(0, r.OutageUntilUs-int64(now)))
	dst = binary.AppendUvarint(dst, uint64(len(r.Segments)))
	for i := range r.Segments {
		s := &r.Segments[i]
		dst = binary.AppendUvarint(dst, s.ID)
		dst = append(dst, byte(s.State))
		dst = appendInt32s(appendInt32s(dst, s.unref()), s.unlisted())
		dst = binary.AppendVarint(dst, s.Base)
		dst = binary.AppendVarint(dst, s.End)
		dst = binary.AppendVarint(dst, s.MaxTsMs-now.Ms())
		dst = appendEpochs(dst, s.Epochs)
		dst = appendEpochs(dst, s.Checkpt)
		dst = appendProducers(dst, s.Snapshot)
		dst = appendBatches(dst, s.Batches, now)
	}
	dst = appendEpochs(dst, r.highest)
	dst = binary.AppendUvarint(dst, uint64(len(c.metaLog)))
	for i := range c.metaLog {
		ev := &c.metaLog[i]
		dst = appendRel(append(dst, byte(ev.kind)), ev.at, now)
		dst = binary.AppendUvarint(dst, ev.id)
	}
	for _, b := range c.Brokers {
		marks = append(marks, len(dst))
		dst = b.appendState(dst, c, now)
	}
	return dst, marks
}

// appendCache appends what a lagging broker's metadata fold holds: each
// segment's id, state and marks, and the epochs' highest offsets (the
// segments' contents are those of c.Remote's, which are encoded).
func appendCache(dst []byte, r *Remote, seen int) []byte {
	if r == nil {
		return append(dst, 0)
	}
	dst = binary.AppendUvarint(append(dst, 1), uint64(seen))
	dst = binary.AppendUvarint(dst, uint64(len(r.Segments)))
	for i := range r.Segments {
		s := &r.Segments[i]
		dst = binary.AppendUvarint(dst, s.ID)
		dst = appendInt32s(appendInt32s(append(dst, byte(s.State)), s.unref()), s.unlisted())
	}
	return appendEpochs(dst, r.highest)
}

func appendInt32s(dst []byte, v []int32) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	for _, x := range v {
		dst = binary.AppendVarint(dst, int64(x))
	}
	return dst
}

func (b *Broker) appendState(dst []byte, c *Cluster, now sim.Time) []byte {
	dst = append(dst, boolByte(b.Up), boolByte(b.LastTieredEnable), byte(b.Role), boolByte(b.fetch.bootstrapping),
		byte(b.fetch.phase))
	dst = binary.AppendUvarint(dst, uint64(b.Incarnation))
	dst = binary.AppendVarint(dst, int64(b.InSyncEpoch))
	dst = binary.AppendVarint(dst, int64(b.Leader))
	dst = binary.AppendVarint(dst, int64(b.LeaderEpoch))
	dst = binary.AppendVarint(dst, b.HighestRemote)
	dst = appendRel(dst, b.MetadataReadyAt, now)
	for _, v := range [...]int64{int64(b.copyOp), int64(b.copySeg), b.copyBase, b.copyEnd} {
		dst = binary.AppendVarint(dst, v)
	}
	dst = binary.AppendUvarint(dst, uint64(len(b.cancelledCopies)))
	for _, x := range b.cancelledCopies {
		for _, v := range [...]int64{int64(x.op), int64(x.seg), x.base, x.end} {
			dst = binary.AppendVarint(dst, v)
		}
	}
	dst = appendU64s(dst, b.deleteOps)
	dst = appendCache(dst, b.cache, b.seen)
	l := &b.Log
	for _, v := range [...]int64{l.LogStart, l.LocalLogStart, l.localStartLag, l.HighWatermark, l.LogEnd} {
		dst = binary.AppendVarint(dst, v)
	}
	dst = binary.AppendUvarint(dst, uint64(len(l.Segments)))
	for i := range l.Segments {
		s := &l.Segments[i]
		dst = binary.AppendVarint(dst, s.Base)
		dst = binary.AppendVarint(dst, s.End)
		dst = binary.AppendVarint(dst, s.MaxTsMs-now.Ms())
		dst = appendBatches(dst, s.Batches, now)
		dst = appendProducers(dst, s.Snapshot)
	}
	dst = appendEpochs(dst, l.Epochs)
	dst = appendProducers(dst, l.Producers)
	// Fetcher.
	f := &b.fetch
	dst = append(dst, boolByte(f.reqID != 0))
	dst = binary.AppendUvarint(dst, f.auxOp)
	if q := f.query; q != nil {
		dst = append(dst, 1, byte(q.Err), boolByte(q.LastTiered), boolByte(q.Tiered), boolByte(q.Compacted), boolByte(q.fellBack))
		dst = binary.AppendVarint(dst, q.LogEnd)
		for _, a := range q.answers {
			dst = append(dst, boolByte(a.known))
			dst = binary.AppendVarint(dst, a.offset)
			dst = binary.AppendVarint(dst, int64(a.epoch))
		}
	} else {
		dst = append(dst, 0)
	}
	a := &f.aux
	dst = append(dst, boolByte(a.active), byte(a.path), boolByte(a.snapshot))
	for _, v := range [...]int64{a.start, int64(a.epoch), a.logStart, int64(a.target), int64(a.segment), a.readBytes} {
		dst = binary.AppendVarint(dst, v)
	}
	// Leader state.
	ld := &b.lead
	dst = append(dst, boolByte(ld.copyTask), boolByte(ld.copySeeded), boolByte(ld.logStartChecked), boolByte(ld.unrefPending),
		boolByte(ld.allSegmentsValid))
	for _, v := range [...]int64{ld.copiedOffset, ld.epochStart, int64(ld.deleteOp)} {
		dst = binary.AppendVarint(dst, v)
	}
	dst = appendInt32s(appendU64s(dst, ld.expiring), ld.remoteEpochs)
	dst = binary.AppendUvarint(dst, uint64(len(ld.followers)))
	for i := range ld.followers {
		v := &ld.followers[i]
		dst = binary.AppendVarint(dst, v.fetchOffset)
		dst = appendRel(dst, c.viewCaughtUpAt(v), now)
		dst = binary.AppendVarint(dst, v.lastFetchLeaderEnd)
		dst = appendRel(dst, c.viewFetchAt(v), now)
		dst = append(dst, boolByte(v.isParked))
		if v.isParked {
			dst = c.AppendMessageState(dst, &v.parked, now)
		}
	}
	return dst
}

// AppendMessageState appends a canonical encoding of the message m in
// flight to dst (its batches' times relative to now): instead of its
// request id, whether it is its requester's current request or the answer
// to it (currentRequest).
func (c *Cluster) AppendMessageState(dst []byte, m *Message, now sim.Time) []byte {
	dst = append(dst, byte(m.Kind), byte(m.Err), boolByte(m.Diverging), boolByte(c.currentRequest(m)))
	for _, v := range [...]int64{int64(m.From), int64(m.To), int64(m.LeaderEpoch), m.FetchOffset,
		int64(m.LastFetchedEpoch), m.MaxBytes, m.HighWatermark, m.LogStart, m.Timestamp, int64(m.Epoch), m.Offset} {
		dst = binary.AppendVarint(dst, v)
	}
	return appendBatches(dst, m.Batches, now)
}

// currentRequest reports whether m is, or answers, the request its
// requester (the sender of a request, the receiver of an answer) waits for
// now: the only use a request id has (handleResponse).
func (c *Cluster) currentRequest(m *Message) bool {
	if m.ReqID == 0 {
		return false
	}
	for _, id := range [2]int{m.From, m.To} {
		if id >= 0 && id < len(c.Brokers) && c.Brokers[id].fetch.reqID == m.ReqID {
			return true
		}
	}
	return false
}

// appendRel appends t - now, or -1 for an instant already past (only
// "passed" matters then).
func appendRel(dst []byte, t, now sim.Time) []byte {
	return binary.AppendVarint(dst, max(-1, int64(t.Sub(now))))
}

func appendIntList(dst []byte, v []int) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	for _, x := range v {
		dst = binary.AppendVarint(dst, int64(x))
	}
	return dst
}

func appendEpochs(dst []byte, es []EpochEntry) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(es)))
	for _, e := range es {
		dst = binary.AppendVarint(dst, int64(e.Epoch))
		dst = binary.AppendVarint(dst, e.StartOffset)
	}
	return dst
}

func appendProducers(dst []byte, ps []ProducerEntry) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(ps)))
	for _, p := range ps {
		dst = binary.AppendVarint(dst, p.ProducerID)
		dst = binary.AppendVarint(dst, p.LastSeq)
		dst = binary.AppendVarint(dst, p.LastOffset)
	}
	return dst
}

// appendBatches writes binary.AppendVarint's bytes into room made once for
// all the batches: the batches are most of a long scenario's state, and
// an append a varint (a length check and a store of the slice each) took
// 1.7 times as long (BenchmarkAppendBatches).
func appendBatches(dst []byte, bs []Batch, now sim.Time) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(bs)))
	nowMs := now.Ms()
	dst = slices.Grow(dst, len(bs)*8*binary.MaxVarintLen64)
	n, out := len(dst), dst[:cap(dst)]
	for i := range bs {
		b := &bs[i]
		n = putVarint(out, n, b.Base)
		n = putVarint(out, n, b.Count)
		n = putVarint(out, n, b.Bytes)
		n = putVarint(out, n, int64(b.Epoch))
		n = putVarint(out, n, b.ProducerID)
		n = putVarint(out, n, b.Seq)
		n = putVarint(out, n, int64(b.Origin))
		n = putVarint(out, n, b.TsMs-nowMs)
	}
	return out[:n]
}

// putVarint writes v as binary.PutVarint does at out[n:], which has room,
// and returns where it ends.
func putVarint(out []byte, n int, v int64) int {
	x := uint64(v<<1) ^ uint64(v>>63)
	for x >= 0x80 {
		out[n] = byte(x) | 0x80
		x >>= 7
		n++
	}
	out[n] = byte(x)
	return n + 1
}

func appendU64s(dst []byte, v []uint64) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	for _, x := range v {
		dst = binary.AppendUvarint(dst, x)
	}
	return dst
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
