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
	out, n := Room(dst, 10*binary.MaxVarintLen64)
	n = PutUvarint(out, n, uint64(b.Incarnation))
	n = PutVarint(out, n, int64(b.InSyncEpoch))
	n = PutVarint(out, n, int64(b.Leader))
	n = PutVarint(out, n, int64(b.LeaderEpoch))
	n = PutVarint(out, n, b.HighestRemote)
	n = PutVarint(out, n, relTime(b.MetadataReadyAt, now))
	n = PutVarint(out, n, int64(b.copyOp))
	n = PutVarint(out, n, int64(b.copySeg))
	n = PutVarint(out, n, b.copyBase)
	n = PutVarint(out, n, b.copyEnd)
	dst = out[:n]
	dst = binary.AppendUvarint(dst, uint64(len(b.cancelledCopies)))
	for _, x := range b.cancelledCopies {
		for _, v := range [...]int64{int64(x.op), int64(x.seg), x.base, x.end} {
			dst = binary.AppendVarint(dst, v)
		}
	}
	dst = appendU64s(dst, b.deleteOps)
	dst = appendCache(dst, b.cache, b.seen)
	l := &b.Log
	out, n = Room(dst, 6*binary.MaxVarintLen64)
	n = PutVarint(out, n, l.LogStart)
	n = PutVarint(out, n, l.LocalLogStart)
	n = PutVarint(out, n, l.localStartLag)
	n = PutVarint(out, n, l.HighWatermark)
	n = PutVarint(out, n, l.LogEnd)
	n = PutUvarint(out, n, uint64(len(l.Segments)))
	dst = out[:n]
	for i := range l.Segments {
		s := &l.Segments[i]
		out, n = Room(dst, 3*binary.MaxVarintLen64)
		n = PutVarint(out, n, s.Base)
		n = PutVarint(out, n, s.End)
		n = PutVarint(out, n, s.MaxTsMs-now.Ms())
		dst = appendBatches(out[:n], s.Batches, now)
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
	ld := &b.lead
	out, n = Room(dst, 8+9*binary.MaxVarintLen64)
	out[n], out[n+1], out[n+2] = boolByte(a.active), byte(a.path), boolByte(a.snapshot)
	n += 3
	n = PutVarint(out, n, a.start)
	n = PutVarint(out, n, int64(a.epoch))
	n = PutVarint(out, n, a.logStart)
	n = PutVarint(out, n, int64(a.target))
	n = PutVarint(out, n, int64(a.segment))
	n = PutVarint(out, n, a.readBytes)
	// Leader state.
	out[n], out[n+1], out[n+2], out[n+3], out[n+4] = boolByte(ld.copyTask), boolByte(ld.copySeeded),
		boolByte(ld.logStartChecked), boolByte(ld.unrefPending), boolByte(ld.allSegmentsValid)
	n += 5
	n = PutVarint(out, n, ld.copiedOffset)
	n = PutVarint(out, n, ld.epochStart)
	n = PutVarint(out, n, int64(ld.deleteOp))
	dst = out[:n]
	dst = appendInt32s(appendU64s(dst, ld.expiring), ld.remoteEpochs)
	dst = binary.AppendUvarint(dst, uint64(len(ld.followers)))
	for i := range ld.followers {
		v := &ld.followers[i]
		out, n = Room(dst, 1+4*binary.MaxVarintLen64)
		n = PutVarint(out, n, v.fetchOffset)
		n = PutVarint(out, n, relTime(c.viewCaughtUpAt(v), now))
		n = PutVarint(out, n, v.lastFetchLeaderEnd)
		n = PutVarint(out, n, relTime(c.viewFetchAt(v), now))
		out[n] = boolByte(v.isParked)
		dst = out[:n+1]
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
	out, n := Room(dst, 4+11*binary.MaxVarintLen64)
	out[n], out[n+1], out[n+2], out[n+3] = byte(m.Kind), byte(m.Err), boolByte(m.Diverging), boolByte(c.currentRequest(m))
	n += 4
	n = PutVarint(out, n, int64(m.From))
	n = PutVarint(out, n, int64(m.To))
	n = PutVarint(out, n, int64(m.LeaderEpoch))
	n = PutVarint(out, n, m.FetchOffset)
	n = PutVarint(out, n, int64(m.LastFetchedEpoch))
	n = PutVarint(out, n, m.MaxBytes)
	n = PutVarint(out, n, m.HighWatermark)
	n = PutVarint(out, n, m.LogStart)
	n = PutVarint(out, n, m.Timestamp)
	n = PutVarint(out, n, int64(m.Epoch))
	n = PutVarint(out, n, m.Offset)
	return appendBatches(out[:n], m.Batches, now)
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
	return binary.AppendVarint(dst, relTime(t, now))
}

// relTime is what appendRel writes.
func relTime(t, now sim.Time) int64 { return max(-1, int64(t.Sub(now))) }

func appendIntList(dst []byte, v []int) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(v)))
	for _, x := range v {
		dst = binary.AppendVarint(dst, int64(x))
	}
	return dst
}

func appendEpochs(dst []byte, es []EpochEntry) []byte {
	out, n := Room(dst, (1+2*len(es))*binary.MaxVarintLen64)
	n = PutUvarint(out, n, uint64(len(es)))
	for i := range es {
		e := &es[i]
		n = PutVarint(out, n, int64(e.Epoch))
		n = PutVarint(out, n, e.StartOffset)
	}
	return out[:n]
}

func appendProducers(dst []byte, ps []ProducerEntry) []byte {
	out, n := Room(dst, (1+3*len(ps))*binary.MaxVarintLen64)
	n = PutUvarint(out, n, uint64(len(ps)))
	for i := range ps {
		p := &ps[i]
		n = PutVarint(out, n, p.ProducerID)
		n = PutVarint(out, n, p.LastSeq)
		n = PutVarint(out, n, p.LastOffset)
	}
	return out[:n]
}

// appendBatches writes binary.AppendVarint's bytes into room made once for
// all the batches: the batches are most of a long scenario's state, and
// an append a varint (a length check and a store of the slice each) took
// 1.7 times as long (BenchmarkAppendBatches).
func appendBatches(dst []byte, bs []Batch, now sim.Time) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(bs)))
	nowMs := now.Ms()
	out, n := Room(dst, len(bs)*8*binary.MaxVarintLen64)
	for i := range bs {
		b := &bs[i]
		n = PutVarint(out, n, b.Base)
		n = PutVarint(out, n, b.Count)
		n = PutVarint(out, n, b.Bytes)
		n = PutVarint(out, n, int64(b.Epoch))
		n = PutVarint(out, n, b.ProducerID)
		n = PutVarint(out, n, b.Seq)
		n = PutVarint(out, n, int64(b.Origin))
		n = PutVarint(out, n, b.TsMs-nowMs)
	}
	return out[:n]
}

// PutVarint writes v as binary.PutVarint does at out[n:], which has room,
// and returns where it ends: an encoder that makes room once for a group
// of varints (slices.Grow, binary.MaxVarintLen64 bytes each) spares
// binary.AppendVarint's length check and slice store for each (a state's
// encoding is some hundred varints, taken at every step of a search).
func PutVarint(out []byte, n int, v int64) int {
	return PutUvarint(out, n, uint64(v<<1)^uint64(v>>63))
}

// Room returns dst grown by size bytes, as a slice to its capacity, and
// where dst ends in it: varints are written there with PutVarint and
// PutUvarint, and out[:n] is dst with them (one growth for a run of
// varints, not a check at each).
func Room(dst []byte, size int) (out []byte, n int) {
	dst = slices.Grow(dst, size)
	return dst[:cap(dst)], len(dst)
}

// PutUvarint writes x as binary.PutUvarint does at out[n:], which has
// room, and returns where it ends (PutVarint).
func PutUvarint(out []byte, n int, x uint64) int {
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
