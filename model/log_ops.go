package model

import (
	"fmt"
	"sort"
)

// TruncateTo removes every record at or above offset to (divergence after a
// leader change). Truncating below LocalLogStart restarts the log at to.
func (l *Log) TruncateTo(to int64) {
	if to >= l.LogEnd {
		// Nothing to drop, but an epoch this broker started as leader
		// without appending to it may conflict with the new leader's
		// history: truncate the cache anyway (as Kafka's truncateTo does).
		l.truncateEpochsFromEnd(l.LogEnd)
		return
	}
	if to < l.LocalLogStart {
		l.TruncateFullyAndStartAt(to, min(l.LogStart, to))
		return
	}
	// Truncating to exactly the local log start drops every local record
	// but keeps the epoch cache below it, which still names the epochs of
	// the remote data (Kafka truncates fully only below the first segment).
	l.Gen++
	i := sort.Search(len(l.Segments), func(i int) bool { return l.Segments[i].End >= to })
	l.Segments = l.Segments[: i+1 : i+1]
	seg := &l.Segments[i]
	seg.Snapshot = nil
	kept := seg.Batches[:0:0]
	var bytes, maxTs int64
	for _, b := range seg.Batches {
		if b.Base >= to {
			break
		}
		if b.Last() >= to {
			b = b.Slice(b.Base, to)
		}
		kept = append(kept, b)
		bytes += b.Bytes
		maxTs = max(maxTs, b.TsMs)
	}
	seg.Batches, seg.End, seg.Bytes, seg.MaxTsMs = kept, to-1, bytes, maxTs
	l.LogEnd = to
	l.HighWatermark = min(l.HighWatermark, to)
	l.truncateEpochsFromEnd(to)
	l.rebuildProducers()
}

// TruncateFullyAndStartAt drops every local record and restarts the log at
// start, with log start offset logStart (<= start).
func (l *Log) TruncateFullyAndStartAt(start, logStart int64) {
	l.Gen++
	l.Segments = []Segment{{Base: start, End: start - 1}}
	l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd = min(logStart, start), start, start, start
	l.localStartLag = 0
	l.Epochs = nil
	l.Producers = nil
}

// IncrementLogStart raises the log start offset to to (bounded by the high
// watermark, where Kafka's maybeIncrementLogStartOffset throws instead,
// UnifiedLog.java:1338-1341 @004b2276), dragging the local log start offset
// with it and dropping local segments that lie wholly below it, as a log
// with remote storage enabled does. It reports whether anything moved.
func (l *Log) IncrementLogStart(to int64) bool {
	return l.incrementLogStart(to, true)
}

// IncrementLogStartUntiered is IncrementLogStart for a log with remote
// storage disabled: Kafka's UnifiedLog leaves its local log start offset
// behind (LocalLogStartOffset).
func (l *Log) IncrementLogStartUntiered(to int64) bool {
	return l.incrementLogStart(to, false)
}

func (l *Log) incrementLogStart(to int64, tiered bool) bool {
	to = min(to, l.HighWatermark)
	if tiered && l.localStartLag > 0 && to <= l.LogStart {
		// With remote storage enabled maybeIncrementLogStartOffset raises
		// UnifiedLog's local log start offset to the offset asked for even
		// when the log start offset stays (UnifiedLog.java:1343-1349
		// @004b2276).
		l.localStartLag = l.LocalLogStart - max(l.LocalLogStartOffset(), to)
	}
	if to <= l.LogStart {
		return false
	}
	kept := l.LocalLogStartOffset()
	if tiered {
		kept = max(kept, to)
	}
	l.LogStart = to
	if to > l.LocalLogStart {
		l.IncrementLocalLogStart(to)
	}
	l.localStartLag = l.LocalLogStart - kept
	l.truncateEpochsFromStart(to)
	return true
}

// IncrementLocalLogStart raises the local log start offset to to, which must
// not pass the high watermark, then drops the segments wholly below it. The
// offset moves first, then the data: a reader never sees a gap.
func (l *Log) IncrementLocalLogStart(to int64) {
	if to <= l.LocalLogStart {
		return
	}
	if to > l.HighWatermark {
		panic(fmt.Sprintf("model: local log start %d past high watermark %d", to, l.HighWatermark))
	}
	l.LocalLogStart, l.localStartLag = to, 0
	drop := 0
	for drop < len(l.Segments)-1 && l.Segments[drop].End < to {
		drop++
	}
	if drop > 0 {
		l.Segments = l.Segments[drop:]
	}
}

// DropSegmentsBelow drops the local segments wholly below to without moving
// the local log start offset (only MutantLLSOAfterLocalDelete does that).
func (l *Log) DropSegmentsBelow(to int64) {
	drop := 0
	for drop < len(l.Segments)-1 && l.Segments[drop].End < to {
		drop++
	}
	l.Segments = l.Segments[drop:]
}

// Read returns the batches holding offsets [from, ...), at most maxBytes of
// them but always at least one record when from < LogEnd. from must be in
// [LocalLogStart, LogEnd]. The result may share memory with the log: when
// it is a run of whole batches of one segment (the common case: a follower
// fetches from a batch boundary) it is that run of the segment's slice,
// clipped, not a copy; the log never writes a batch it holds in place.
func (l *Log) Read(from, maxBytes int64) []Batch {
	if from < l.LocalLogStart || from > l.LogEnd {
		panic(fmt.Sprintf("model: read at %d outside local log [%d,%d)", from, l.LocalLogStart, l.LogEnd))
	}
	si := sort.Search(len(l.Segments), func(i int) bool { return l.Segments[i].End >= from })
	if si == len(l.Segments) {
		return nil
	}
	// The whole batches bs[bi:bj] of the first segment, while they fit.
	bs := l.Segments[si].Batches
	bi := sort.Search(len(bs), func(i int) bool { return bs[i].Last() >= from })
	if bi == len(bs) || bs[bi].Base < from {
		return l.readCopy(si, bi, from, maxBytes, nil, 0)
	}
	var bytes int64
	bj := bi
	for ; bj < len(bs); bj++ {
		if bytes+bs[bj].Bytes > maxBytes {
			if bj > bi {
				return bs[bi:bj:bj]
			}
			return l.readCopy(si, bj, from, maxBytes, nil, 0)
		}
		bytes += bs[bj].Bytes
	}
	if si+1 == len(l.Segments) {
		return bs[bi:bj:bj]
	}
	return l.readCopy(si+1, 0, from, maxBytes, append([]Batch(nil), bs[bi:bj]...), bytes)
}

// readCopy is Read from batch bi of segment si on, into out (holding bytes
// already), copying.
func (l *Log) readCopy(si, bi int, from, maxBytes int64, out []Batch, bytes int64) []Batch {
	for ; si < len(l.Segments); si, bi = si+1, 0 {
		bs := l.Segments[si].Batches
		for ; bi < len(bs); bi++ {
			b := bs[bi]
			if b.Base < from {
				b = b.Slice(from, b.Last()+1)
			}
			if bytes+b.Bytes > maxBytes {
				if len(out) > 0 {
					return out
				}
				perRecord := max(b.Bytes/b.Count, 1)
				n := max(maxBytes/perRecord, 1)
				if n < b.Count {
					b = b.Slice(b.Base, b.Base+n)
				}
				return append(out, b)
			}
			out = append(out, b)
			bytes += b.Bytes
		}
	}
	return out
}

// BatchAt returns the batch (or piece) holding offset o locally.
func (l *Log) BatchAt(o int64) (Batch, bool) {
	if o < l.LocalLogStart || o >= l.LogEnd {
		return Batch{}, false
	}
	si := sort.Search(len(l.Segments), func(i int) bool { return l.Segments[i].End >= o })
	bs := l.Segments[si].Batches
	bi := sort.Search(len(bs), func(i int) bool { return bs[i].Last() >= o })
	if bi == len(bs) || bs[bi].Base > o {
		return Batch{}, false
	}
	return bs[bi], true
}

// LatestEpoch returns the epoch of the last epoch-cache entry, -1 if none.
func (l *Log) LatestEpoch() int32 {
	if n := len(l.Epochs); n > 0 {
		return l.Epochs[n-1].Epoch
	}
	return -1
}

// EpochAt returns the leader epoch of offset o by the epoch cache, -1 if the
// cache does not cover it.
func (l *Log) EpochAt(o int64) int32 {
	e := int32(-1)
	for _, en := range l.Epochs {
		if en.StartOffset > o {
			break
		}
		e = en.Epoch
	}
	return e
}

// EndOffsetFor answers OffsetsForLeaderEpoch the way Kafka's leader-epoch
// cache does: for the latest epoch, (epoch, LogEnd); otherwise the largest
// epoch <= epoch and the start of the next one; an epoch older than the
// whole cache gives (epoch, first start); an epoch newer than every entry,
// or -1, is undefined: (-1, -1).
func (l *Log) EndOffsetFor(epoch int32) (int32, int64) {
	n := len(l.Epochs)
	if epoch < 0 || n == 0 {
		return -1, -1
	}
	if l.Epochs[n-1].Epoch == epoch {
		return epoch, l.LogEnd
	}
	hi := sort.Search(n, func(i int) bool { return l.Epochs[i].Epoch > epoch })
	switch {
	case hi == n:
		return -1, -1
	case hi == 0:
		return epoch, l.Epochs[0].StartOffset
	}
	return l.Epochs[hi-1].Epoch, l.Epochs[hi].StartOffset
}

// AssignEpoch records that epoch begins at LogEnd (a leader's first act).
func (l *Log) AssignEpoch(epoch int32) {
	if epoch < 0 {
		panic(fmt.Sprintf("model: epoch %d assigned at log end %d", epoch, l.LogEnd))
	}
	if n := len(l.Epochs); n > 0 && l.Epochs[n-1].Epoch >= epoch {
		return
	}
	if n := len(l.Epochs); n > 0 && l.Epochs[n-1].StartOffset == l.LogEnd {
		l.Epochs = append(l.Epochs[:n-1:n-1], EpochEntry{Epoch: epoch, StartOffset: l.LogEnd})
		return
	}
	l.Epochs = append(l.Epochs, EpochEntry{Epoch: epoch, StartOffset: l.LogEnd})
}

func (l *Log) truncateEpochsFromEnd(to int64) {
	n := len(l.Epochs)
	for n > 0 && l.Epochs[n-1].StartOffset >= to {
		n--
	}
	l.Epochs = l.Epochs[:n:n]
}

func (l *Log) truncateEpochsFromStart(to int64) {
	i := 0
	for i+1 < len(l.Epochs) && l.Epochs[i+1].StartOffset <= to {
		i++
	}
	if i >= len(l.Epochs) {
		return
	}
	rest := append([]EpochEntry(nil), l.Epochs[i:]...)
	if rest[0].StartOffset < to {
		rest[0].StartOffset = to
	}
	l.Epochs = rest
}

// rebuildProducers recomputes producer state from the local batches after a
// truncation (Kafka reloads it from the last snapshot and the log).
func (l *Log) rebuildProducers() {
	var base []ProducerEntry
	start := 0
	for i := len(l.Segments) - 2; i >= 0; i-- {
		if l.Segments[i].Snapshot != nil {
			base, start = l.Segments[i].Snapshot, i+1
			break
		}
	}
	l.Producers = append([]ProducerEntry(nil), base...)
	for _, seg := range l.Segments[start:] {
		for _, b := range seg.Batches {
			if b.ProducerID != 0 {
				l.setProducer(ProducerEntry{ProducerID: b.ProducerID, LastSeq: b.Seq + b.Count - 1, LastOffset: b.Last()})
			}
		}
	}
}

// SnapshotAt returns the producer state at the end of the local segment
// ending at end, ok false when no such rolled segment exists.
func (l *Log) SnapshotAt(end int64) ([]ProducerEntry, bool) {
	for i := range l.Segments[:len(l.Segments)-1] {
		if l.Segments[i].End == end {
			return l.Segments[i].Snapshot, true
		}
	}
	return nil, false
}

// EpochsUpTo returns a copy of the epoch cache truncated to offsets < end+1.
func (l *Log) EpochsUpTo(end int64) []EpochEntry {
	var out []EpochEntry
	for _, e := range l.Epochs {
		if e.StartOffset > end {
			break
		}
		out = append(out, e)
	}
	return out
}
