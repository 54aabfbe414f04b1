package model

import (
	"fmt"
	"strconv"
)

// Batch is a run of records appended together: offsets [Base, Base+Count).
// Every record of a batch has the same leader epoch and producer; record i
// has sequence Seq+i. A batch may be split into pieces at record boundaries
// (a fetch bounded by bytes takes a prefix); a piece keeps Origin, the id of
// the batch it came from, so replicas can be compared record by record.
type Batch struct {
	Base       int64
	Count      int64
	Bytes      int64
	Epoch      int32
	ProducerID int64 // 0: not an idempotent producer
	Seq        int64 // sequence of the first record
	Origin     uint64
	TsMs       int64 // append time on the leader that wrote it
}

// Last returns the offset of the batch's last record.
func (b Batch) Last() int64 { return b.Base + b.Count - 1 }

// Slice returns the piece of b holding offsets [from, to); from and to must
// lie within b.
func (b Batch) Slice(from, to int64) Batch {
	if from < b.Base || to > b.Base+b.Count || from >= to {
		panic(fmt.Sprintf("model: slice [%d,%d) outside batch %v", from, to, b))
	}
	perRecord := b.Bytes / b.Count
	p := b
	p.Base, p.Count = from, to-from
	p.Seq = b.Seq + (from - b.Base)
	p.Bytes = perRecord * p.Count
	if to == b.Base+b.Count { // the last piece takes the rounding remainder
		p.Bytes = b.Bytes - perRecord*(from-b.Base)
	}
	return p
}

// continues reports whether c is the next piece of the same batch as b.
func (b Batch) continues(c Batch) bool {
	return b.Origin == c.Origin && b.Last()+1 == c.Base && b.Epoch == c.Epoch
}

// String prints the batch on one line.
func (b Batch) String() string {
	var buf [96]byte
	return string(b.AppendTo(buf[:0]))
}

// AppendTo appends the line String prints to dst and returns the extended
// slice.
func (b Batch) AppendTo(dst []byte) []byte {
	dst = appendInt(append(dst, '['), b.Base)
	dst = appendInt(append(dst, ".."...), b.Last())
	dst = appendInt(append(dst, "]e"...), int64(b.Epoch))
	dst = appendInt(append(dst, " p"...), b.ProducerID)
	dst = appendInt(append(dst, '/'), b.Seq)
	return strconv.AppendUint(append(dst, " #"...), b.Origin, 10)
}

// EpochEntry is one entry of a leader-epoch cache: Epoch began at StartOffset.
type EpochEntry struct {
	Epoch       int32
	StartOffset int64
}

// ProducerEntry is one producer's state: its last sequence and offset.
type ProducerEntry struct {
	ProducerID int64
	LastSeq    int64
	LastOffset int64
}

// Segment is one local log segment: offsets [Base, End], End = Base-1 when
// empty. Batches are never modified in place once appended: truncation
// clips the slice's capacity so a later append copies, which lets fetch
// responses and remote uploads share batch slices safely.
type Segment struct {
	Base     int64
	End      int64
	Bytes    int64
	MaxTsMs  int64
	Batches  []Batch
	Snapshot []ProducerEntry // producer state at End, taken when the segment rolled
}

// Log is one replica's copy of the partition: its local segments, its offsets,
// its leader-epoch cache and its producer state.
//
// Invariant: LogStart <= LocalLogStart <= HighWatermark <= LogEnd.
type Log struct {
	LogStart      int64
	LocalLogStart int64
	HighWatermark int64
	LogEnd        int64
	Segments      []Segment // the last one is active
	Epochs        []EpochEntry
	Producers     []ProducerEntry // sorted by ProducerID
	// Gen rises whenever records below LogEnd are removed or the log is
	// restarted, so observers can tell an append from a rewrite.
	Gen uint64
	// localStartLag is how far the local log start offset Kafka's UnifiedLog
	// keeps (localLogStartOffset) lies below LocalLogStart, the first offset
	// on disk: raising the log start offset while remote storage is
	// disabled leaves it behind (LocalLogStartOffset). 0: in step.
	localStartLag int64
	// grown: the active segment's batch array is this log's own, made
	// since the log was copied (a copy shares the arrays, clipped). Only
	// how an array grows reads it: a full one of its own doubles, a
	// copy's grows by one batch at its first append.
	grown bool
}

// LocalLogStartOffset returns the local log start offset as Kafka's
// UnifiedLog keeps it, which ListOffsets -4 answers with remote storage
// enabled (UnifiedLog.fetchOffsetByTimestamp, UnifiedLog.java:1680-1688
// @004b2276). It follows LocalLogStart except that
// maybeIncrementLogStartOffset raises it only while remote storage is
// enabled (1343-1346): a log start offset raised with tiering off (local
// retention, deleteRecords, a follower's fetch) leaves it where it was until
// the log is loaded again (the UnifiedLog constructor, 232) or tiering, on
// again, moves it (a local deletion, a log start raise). Under every
// profile: the KIPs take UnifiedLog's offsets as given.
func (l *Log) LocalLogStartOffset() int64 { return l.LocalLogStart - l.localStartLag }

// NewLog returns an empty log starting at offset start.
func NewLog(start int64) Log {
	return Log{LogStart: start, LocalLogStart: start, HighWatermark: start, LogEnd: start,
		Segments: []Segment{{Base: start, End: start - 1}}}
}

// Empty reports whether the log holds no local records.
func (l *Log) Empty() bool { return l.LocalLogStart == l.LogEnd }

// LocalBytes returns the bytes held in local segments.
func (l *Log) LocalBytes() int64 {
	var n int64
	for i := range l.Segments {
		n += l.Segments[i].Bytes
	}
	return n
}

// active returns the active segment.
func (l *Log) active() *Segment { return &l.Segments[len(l.Segments)-1] }

// Append appends b at LogEnd, rolling the active segment when b would take it
// past segmentBytes. A piece continuing the previous batch is merged into it
// so memory grows with batches, not with fetches.
func (l *Log) Append(b Batch, segmentBytes int64) {
	if b.Base != l.LogEnd || b.Count < 0 || b.Bytes < 0 {
		panic(fmt.Sprintf("model: append %v at log end %d", b, l.LogEnd))
	}
	for b.Count > 0 {
		seg := l.active()
		if seg.Bytes > 0 && seg.Bytes+b.Bytes > segmentBytes {
			room := (segmentBytes - seg.Bytes) / (b.Bytes / b.Count)
			if room > 0 && room < b.Count {
				l.appendToActive(b.Slice(b.Base, b.Base+room))
				b = b.Slice(b.Base+room, b.Base+b.Count)
			}
			l.roll()
			continue
		}
		l.appendToActive(b)
		return
	}
}

func (l *Log) appendToActive(b Batch) {
	seg := l.active()
	if n := len(seg.Batches); n > 0 && seg.Batches[n-1].continues(b) {
		prev := seg.Batches[n-1]
		prev.Count += b.Count
		prev.Bytes += b.Bytes
		prev.TsMs = max(prev.TsMs, b.TsMs)
		seg.Batches = append(seg.Batches[:n-1:n-1], prev) // copy: never write a shared slot
	} else if n := len(seg.Batches); n == cap(seg.Batches) && !l.grown {
		// A copy's clipped array: the copy is most often copied again
		// before it appends again (a search's state), and an append would
		// double the array and clear the half nobody then uses.
		// old is a name so that make and copy compile to one call
		// that clears only the new slot (makeslicecopy), not the whole array.
		old := seg.Batches
		bs := make([]Batch, n+1)
		copy(bs, old)
		bs[n] = b
		seg.Batches, l.grown = bs, true
	} else {
		seg.Batches = append(seg.Batches, b)
	}
	seg.End = b.Last()
	seg.Bytes += b.Bytes
	seg.MaxTsMs = max(seg.MaxTsMs, b.TsMs)
	l.LogEnd = b.Last() + 1
	if n := len(l.Epochs); n == 0 || l.Epochs[n-1].Epoch < b.Epoch {
		l.Epochs = append(l.Epochs, EpochEntry{Epoch: b.Epoch, StartOffset: b.Base})
	}
	if b.ProducerID != 0 {
		l.setProducer(ProducerEntry{ProducerID: b.ProducerID, LastSeq: b.Seq + b.Count - 1, LastOffset: b.Last()})
	}
}

// roll closes the active segment and opens an empty one at LogEnd.
func (l *Log) roll() {
	seg := l.active()
	if seg.Bytes <= 0 || seg.End != l.LogEnd-1 {
		panic(fmt.Sprintf("model: roll of the active segment [%d..%d] of %d bytes at log end %d", seg.Base, seg.End, seg.Bytes, l.LogEnd))
	}
	seg.Snapshot = make([]ProducerEntry, len(l.Producers)) // non-nil even when empty
	copy(seg.Snapshot, l.Producers)
	// The next segment will likely hold as many batches as this one: room
	// for them at once spares the doublings that would copy them (a fifth
	// of a run's allocated bytes).
	l.Segments = append(l.Segments, Segment{Base: l.LogEnd, End: l.LogEnd - 1, Batches: make([]Batch, 0, len(seg.Batches))})
	l.grown = true
}

// Roll closes a non-empty active segment (Kafka rolls before a leader
// change's first append in some paths; scenarios use it for fixtures).
func (l *Log) Roll() {
	if l.active().Bytes > 0 {
		l.roll()
	}
}

func (l *Log) setProducer(p ProducerEntry) {
	for i := range l.Producers {
		if l.Producers[i].ProducerID == p.ProducerID {
			l.Producers[i] = p
			return
		}
		if l.Producers[i].ProducerID > p.ProducerID {
			l.Producers = append(l.Producers, ProducerEntry{})
			copy(l.Producers[i+1:], l.Producers[i:])
			l.Producers[i] = p
			return
		}
	}
	l.Producers = append(l.Producers, p)
}

// Producer returns the state of producer pid, ok false when unknown.
func (l *Log) Producer(pid int64) (ProducerEntry, bool) {
	for _, p := range l.Producers {
		if p.ProducerID == pid {
			return p, true
		}
	}
	return ProducerEntry{}, false
}
