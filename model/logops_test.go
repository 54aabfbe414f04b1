package model

import (
	"slices"
	"testing"
)

// The log's operations at their boundaries. TestLogMatchesReference checks
// them against a record-by-record reference on random inputs; these pin the
// edges a random walk rarely lands on.

// threeSegments: segments of 100 records of 10 bytes, [0..99] e0, [100..199]
// e1, active [200..249] e1, one batch each, producer 7 with seq = offset.
func threeSegments() Log {
	l := NewLog(0)
	l.Append(Batch{Base: 0, Count: 100, Bytes: 1000, Epoch: 0, ProducerID: pid, Seq: 0, Origin: 1, TsMs: 5}, 1000)
	l.Append(Batch{Base: 100, Count: 100, Bytes: 1000, Epoch: 1, ProducerID: pid, Seq: 100, Origin: 2, TsMs: 9}, 1000)
	l.Append(Batch{Base: 200, Count: 50, Bytes: 500, Epoch: 1, ProducerID: pid, Seq: 200, Origin: 3, TsMs: 12}, 1000)
	l.HighWatermark = 250
	return l
}

func segRanges(l *Log) [][2]int64 {
	var out [][2]int64
	for _, s := range l.Segments {
		out = append(out, [2]int64{s.Base, s.End})
	}
	return out
}

// TestAppendRolls: a segment rolls when the next batch would take it past
// segment.bytes; a batch that does not fit is split at the record that
// fills the segment; a segment exactly full rolls on the next append; the
// rolled segment keeps a producer snapshot and the largest timestamp.
func TestAppendRolls(t *testing.T) {
	l := threeSegments()
	if got := segRanges(&l); !slices.Equal(got, [][2]int64{{0, 99}, {100, 199}, {200, 249}}) {
		t.Fatalf("segments %v", got)
	}
	if l.Segments[0].Snapshot == nil || !slices.Equal(l.Segments[0].Snapshot, snapshotAt(99)) || l.Segments[2].Snapshot != nil {
		t.Errorf("snapshots %v %v", l.Segments[0].Snapshot, l.Segments[2].Snapshot)
	}
	if l.Segments[1].MaxTsMs != 9 || l.Segments[1].Bytes != 1000 || l.LocalBytes() != 2500 {
		t.Errorf("segment 1 ts %d bytes %d, local bytes %d", l.Segments[1].MaxTsMs, l.Segments[1].Bytes, l.LocalBytes())
	}
	// 70 records into a segment with room for 50: split 50 + 20.
	l.Append(Batch{Base: 250, Count: 70, Bytes: 700, Epoch: 1, ProducerID: pid, Seq: 250, Origin: 4, TsMs: 20}, 1000)
	if got := segRanges(&l); !slices.Equal(got, [][2]int64{{0, 99}, {100, 199}, {200, 299}, {300, 319}}) {
		t.Errorf("after a split append: %v", got)
	}
	if bs := l.Segments[2].Batches; len(bs) != 2 || bs[1].Count != 50 || bs[1].Bytes != 500 || bs[1].Seq != 250 {
		t.Errorf("the fitting piece: %v", bs)
	}
	if bs := l.Segments[3].Batches; len(bs) != 1 || bs[0].Base != 300 || bs[0].Seq != 300 || bs[0].Origin != 4 {
		t.Errorf("the rest: %v", bs)
	}
	// Two halves fill a segment exactly: no roll until the next append.
	h := NewLog(0)
	h.Append(Batch{Base: 0, Count: 50, Bytes: 500, Origin: 1}, 1000)
	h.Append(Batch{Base: 50, Count: 50, Bytes: 500, Origin: 2}, 1000)
	if got := segRanges(&h); !slices.Equal(got, [][2]int64{{0, 99}}) {
		t.Errorf("two halves: %v, want one full segment", got)
	}
	h.Append(Batch{Base: 100, Count: 0, Bytes: 0, Origin: 3}, 1000)
	if got := segRanges(&h); !slices.Equal(got, [][2]int64{{0, 99}}) || h.LogEnd != 100 || len(h.Segments[0].Batches) != 2 {
		t.Errorf("an empty append changed the log: %v", got)
	}
	// No room for one more record (5 bytes left, 10 a record): roll.
	h = NewLog(0)
	h.Append(Batch{Base: 0, Count: 100, Bytes: 1000, Origin: 1}, 1005)
	h.Append(Batch{Base: 100, Count: 10, Bytes: 100, Origin: 2}, 1005)
	if got := segRanges(&h); !slices.Equal(got, [][2]int64{{0, 99}, {100, 109}}) {
		t.Errorf("5 bytes of room: %v", got)
	}
	// One more record than fits in an empty segment stays whole.
	m := NewLog(0)
	m.Append(Batch{Base: 0, Count: 200, Bytes: 2000, Epoch: 0, Origin: 1}, 1000)
	if got := segRanges(&m); !slices.Equal(got, [][2]int64{{0, 199}}) {
		t.Errorf("an oversized first batch: %v", got)
	}
	// Continuing pieces of the same batch merge.
	m = NewLog(0)
	b := Batch{Base: 0, Count: 30, Bytes: 300, Epoch: 0, Origin: 1, TsMs: 1}
	m.Append(b.Slice(0, 10), 1000)
	m.Append(b.Slice(10, 30), 1000)
	if bs := m.Segments[0].Batches; len(bs) != 1 || bs[0].Count != 30 || bs[0].Bytes != 300 {
		t.Errorf("pieces of one batch did not merge: %v", bs)
	}
	m.Append(Batch{Base: 30, Count: 5, Bytes: 50, Epoch: 0, Origin: 2}, 1000)
	if bs := m.Segments[0].Batches; len(bs) != 2 {
		t.Errorf("another batch merged: %v", bs)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("an append away from the log end did not panic")
		}
	}()
	m.Append(Batch{Base: 36, Count: 1, Bytes: 10, Origin: 3}, 1000)
}

// TestRoll: Roll closes a non-empty active segment only.
func TestRoll(t *testing.T) {
	l := threeSegments()
	l.Roll()
	if got := segRanges(&l); !slices.Equal(got, [][2]int64{{0, 99}, {100, 199}, {200, 249}, {250, 249}}) {
		t.Errorf("after Roll: %v", got)
	}
	l.Roll()
	if len(l.Segments) != 4 {
		t.Errorf("Roll of an empty active segment added one: %v", segRanges(&l))
	}
}

// TestBatchSlice: a piece keeps the records' sequences; bytes split per
// record, the last piece taking the rounding remainder.
func TestBatchSlice(t *testing.T) {
	b := Batch{Base: 10, Count: 3, Bytes: 10, Seq: 100, Origin: 5}
	p1, p2 := b.Slice(10, 12), b.Slice(12, 13)
	if p1.Count != 2 || p1.Bytes != 6 || p1.Seq != 100 || p2.Base != 12 || p2.Count != 1 || p2.Bytes != 4 || p2.Seq != 102 || p2.Last() != 12 {
		t.Errorf("pieces %v %v", p1, p2)
	}
	for _, bad := range [][2]int64{{9, 11}, {10, 14}, {11, 11}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("slice %v of %v did not panic", bad, b)
				}
			}()
			b.Slice(bad[0], bad[1])
		}()
	}
}

// TestRead: a read returns whole batches up to maxBytes, cut at from, and
// always at least one record; a read of exactly the bytes of a batch gets
// it whole, one byte less gets the records that fit.
func TestRead(t *testing.T) {
	l := threeSegments()
	for _, c := range []struct {
		from, max int64
		want      [][2]int64 // [base, count] of each batch
	}{
		{0, 1000, [][2]int64{{0, 100}}},
		{0, 999, [][2]int64{{0, 99}}},
		{0, 2000, [][2]int64{{0, 100}, {100, 100}}},
		{0, 1999, [][2]int64{{0, 100}}},
		{50, 1000, [][2]int64{{50, 50}}},
		{50, 1500, [][2]int64{{50, 50}, {100, 100}}},
		{199, 5, [][2]int64{{199, 1}}},
		{249, 10, [][2]int64{{249, 1}}},
		{250, 10, nil},
	} {
		var got [][2]int64
		for _, b := range l.Read(c.from, c.max) {
			got = append(got, [2]int64{b.Base, b.Count})
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Read(%d, %d) = %v, want %v", c.from, c.max, got, c.want)
		}
	}
	l.IncrementLocalLogStart(100)
	for _, bad := range []int64{99, 251} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Read(%d) outside [100, 250] did not panic", bad)
				}
			}()
			l.Read(bad, 100)
		}()
	}
}

// TestBatchAt finds the batch holding an offset, only within the local log.
func TestBatchAt(t *testing.T) {
	l := threeSegments()
	l.IncrementLocalLogStart(100)
	for _, c := range []struct {
		o    int64
		ok   bool
		base int64
	}{{99, false, 0}, {100, true, 100}, {199, true, 100}, {200, true, 200}, {249, true, 200}, {250, false, 0}} {
		b, ok := l.BatchAt(c.o)
		if ok != c.ok || (ok && b.Base != c.base) {
			t.Errorf("BatchAt(%d) = %v %v, want base %d %v", c.o, b, ok, c.base, c.ok)
		}
	}
}

// TestTruncateTo: truncation drops records at and above the offset, splits
// a batch, lowers HW, trims the epoch cache and rebuilds the producer state
// from the last snapshot; below the local log start it restarts the log.
func TestTruncateTo(t *testing.T) {
	l := threeSegments()
	gen := l.Gen
	l.TruncateTo(150)
	if l.LogEnd != 150 || l.HighWatermark != 150 || l.Gen == gen || !slices.Equal(segRanges(&l), [][2]int64{{0, 99}, {100, 149}}) {
		t.Errorf("truncate to 150: leo=%d hw=%d segments %v", l.LogEnd, l.HighWatermark, segRanges(&l))
	}
	if p, _ := l.Producer(pid); p.LastSeq != 149 || p.LastOffset != 149 {
		t.Errorf("producer after truncating to 150: %+v", p)
	}
	if l.Segments[1].Snapshot != nil || l.Segments[1].Bytes != 500 || l.Segments[1].MaxTsMs != 9 {
		t.Errorf("the cut segment: %+v", l.Segments[1])
	}
	l.TruncateTo(100)
	if !slices.Equal(l.Epochs, []EpochEntry{{0, 0}}) || l.LogEnd != 100 {
		t.Errorf("truncate to 100: epochs %v leo %d", l.Epochs, l.LogEnd)
	}
	if p, _ := l.Producer(pid); p.LastSeq != 99 {
		t.Errorf("producer after truncating to 100: %+v (from the snapshot of [0..99])", p)
	}
	// HW below the truncation point stays.
	l = threeSegments()
	l.HighWatermark = 120
	l.TruncateTo(150)
	if l.HighWatermark != 120 {
		t.Errorf("HW %d, want 120", l.HighWatermark)
	}
	// At the local log start: no records left, the epochs below stay.
	l = threeSegments()
	l.LogStart, l.LocalLogStart = 0, 100
	l.Segments = l.Segments[1:]
	l.TruncateTo(100)
	if l.LogEnd != 100 || l.LocalLogStart != 100 || !slices.Equal(l.Epochs, []EpochEntry{{0, 0}}) || !l.Empty() {
		t.Errorf("truncate to the local log start: leo=%d llso=%d epochs %v", l.LogEnd, l.LocalLogStart, l.Epochs)
	}
	// Below it: the log restarts there, the log start follows it down.
	l = threeSegments()
	l.LogStart, l.LocalLogStart = 50, 100
	l.Segments = l.Segments[1:]
	l.TruncateTo(80)
	if l.LogStart != 50 || l.LocalLogStart != 80 || l.LogEnd != 80 || l.HighWatermark != 80 || len(l.Epochs) != 0 {
		t.Errorf("truncate below the local log start: lso=%d llso=%d leo=%d epochs %v", l.LogStart, l.LocalLogStart, l.LogEnd, l.Epochs)
	}
	l = threeSegments()
	l.LogStart, l.LocalLogStart = 50, 100
	l.Segments = l.Segments[1:]
	l.TruncateTo(20)
	if l.LogStart != 20 || l.LocalLogStart != 20 {
		t.Errorf("truncate below the log start: lso=%d llso=%d, want 20 20", l.LogStart, l.LocalLogStart)
	}
}

// TestTruncateFullyAndStartAt restarts an empty log at start with the
// given log start (never above start).
func TestTruncateFullyAndStartAt(t *testing.T) {
	l := threeSegments()
	gen := l.Gen
	l.TruncateFullyAndStartAt(300, 100)
	if l.LogStart != 100 || l.LocalLogStart != 300 || l.HighWatermark != 300 || l.LogEnd != 300 || !l.Empty() ||
		len(l.Epochs) != 0 || len(l.Producers) != 0 || l.Gen == gen || !slices.Equal(segRanges(&l), [][2]int64{{300, 299}}) {
		t.Errorf("restarted log: %+v", l)
	}
	l.TruncateFullyAndStartAt(300, 400)
	if l.LogStart != 300 {
		t.Errorf("log start %d above start 300", l.LogStart)
	}
}

// TestIncrementLogStart: the log start rises to at most HW and never falls,
// drags the local log start with it, drops segments wholly below it and
// trims the epoch cache.
func TestIncrementLogStart(t *testing.T) {
	l := threeSegments()
	l.HighWatermark = 220
	if !l.IncrementLogStart(150) || l.LogStart != 150 || l.LocalLogStart != 150 || !slices.Equal(segRanges(&l), [][2]int64{{100, 199}, {200, 249}}) {
		t.Errorf("to 150: lso=%d llso=%d segments %v", l.LogStart, l.LocalLogStart, segRanges(&l))
	}
	if !slices.Equal(l.Epochs, []EpochEntry{{1, 150}}) {
		t.Errorf("epochs %v, want [{1 150}]", l.Epochs)
	}
	if l.IncrementLogStart(150) || l.IncrementLogStart(140) {
		t.Errorf("a move to or below the log start reported progress")
	}
	if !l.IncrementLogStart(300) || l.LogStart != 220 || l.LocalLogStart != 220 || !slices.Equal(segRanges(&l), [][2]int64{{200, 249}}) {
		t.Errorf("to 300 with HW 220: lso=%d llso=%d segments %v", l.LogStart, l.LocalLogStart, segRanges(&l))
	}
	// Below the local log start, only the log start moves.
	l = threeSegments()
	l.LocalLogStart = 100
	l.Segments = l.Segments[1:]
	l.IncrementLogStart(60)
	if l.LogStart != 60 || l.LocalLogStart != 100 || !slices.Equal(l.Epochs, []EpochEntry{{0, 60}, {1, 100}}) {
		t.Errorf("to 60: lso=%d llso=%d epochs %v", l.LogStart, l.LocalLogStart, l.Epochs)
	}
}

// TestIncrementLocalLogStart: the local log start never passes HW, never
// falls, and drops only segments wholly below it (never the active one).
func TestIncrementLocalLogStart(t *testing.T) {
	l := threeSegments()
	l.IncrementLocalLogStart(100)
	if l.LocalLogStart != 100 || !slices.Equal(segRanges(&l), [][2]int64{{100, 199}, {200, 249}}) {
		t.Errorf("to 100: llso=%d %v", l.LocalLogStart, segRanges(&l))
	}
	l.IncrementLocalLogStart(50)
	if l.LocalLogStart != 100 {
		t.Errorf("fell to %d", l.LocalLogStart)
	}
	l.IncrementLocalLogStart(199)
	if l.LocalLogStart != 199 || !slices.Equal(segRanges(&l), [][2]int64{{100, 199}, {200, 249}}) {
		t.Errorf("to 199: llso=%d %v (the segment holding 199 stays)", l.LocalLogStart, segRanges(&l))
	}
	l.IncrementLocalLogStart(250)
	if l.LocalLogStart != 250 || !slices.Equal(segRanges(&l), [][2]int64{{200, 249}}) {
		t.Errorf("to LEO: llso=%d %v (the active segment stays)", l.LocalLogStart, segRanges(&l))
	}
	l = threeSegments()
	l.HighWatermark = 150
	defer func() {
		if recover() == nil {
			t.Errorf("a local log start past HW did not panic")
		}
	}()
	l.IncrementLocalLogStart(151)
}

func TestDropSegmentsBelow(t *testing.T) {
	l := threeSegments()
	l.DropSegmentsBelow(100)
	if l.LocalLogStart != 0 || !slices.Equal(segRanges(&l), [][2]int64{{100, 199}, {200, 249}}) {
		t.Errorf("drop below 100: llso=%d %v", l.LocalLogStart, segRanges(&l))
	}
	l.DropSegmentsBelow(199)
	if len(l.Segments) != 2 {
		t.Errorf("dropped a segment holding 199: %v", segRanges(&l))
	}
	l.DropSegmentsBelow(1000)
	if !slices.Equal(segRanges(&l), [][2]int64{{200, 249}}) {
		t.Errorf("drop below 1000: %v, want the active segment kept", segRanges(&l))
	}
}

// TestEpochCache: the epoch of an offset, the latest epoch, assigning a new
// epoch (replacing one with no records), trimming from the start, and the
// checkpoint up to a segment's end.
func TestEpochCache(t *testing.T) {
	l := threeSegments()
	for o, want := range map[int64]int32{-1: -1, 0: 0, 99: 0, 100: 1, 249: 1} {
		if got := l.EpochAt(o); got != want {
			t.Errorf("EpochAt(%d) = %d, want %d", o, got, want)
		}
	}
	if l.LatestEpoch() != 1 || (&Log{}).LatestEpoch() != -1 {
		t.Errorf("latest epoch %d", l.LatestEpoch())
	}
	if got := l.EpochsUpTo(99); !slices.Equal(got, []EpochEntry{{0, 0}}) {
		t.Errorf("EpochsUpTo(99) = %v", got)
	}
	if got := l.EpochsUpTo(100); !slices.Equal(got, []EpochEntry{{0, 0}, {1, 100}}) {
		t.Errorf("EpochsUpTo(100) = %v", got)
	}
	l.AssignEpoch(1)
	l.AssignEpoch(0)
	if len(l.Epochs) != 2 {
		t.Errorf("an old epoch was assigned: %v", l.Epochs)
	}
	l.AssignEpoch(3)
	l.AssignEpoch(4) // epoch 3 began at LEO with no records: replaced
	if !slices.Equal(l.Epochs, []EpochEntry{{0, 0}, {1, 100}, {4, 250}}) {
		t.Errorf("after assigning 3 then 4 at LEO 250: %v", l.Epochs)
	}
	l.Append(Batch{Base: 250, Count: 5, Bytes: 50, Epoch: 4, Origin: 9}, 1000)
	l.AssignEpoch(5)
	if !slices.Equal(l.Epochs, []EpochEntry{{0, 0}, {1, 100}, {4, 250}, {5, 255}}) {
		t.Errorf("after appending in 4 and assigning 5: %v", l.Epochs)
	}
	l.truncateEpochsFromStart(100)
	if !slices.Equal(l.Epochs, []EpochEntry{{1, 100}, {4, 250}, {5, 255}}) {
		t.Errorf("trimmed to 100: %v", l.Epochs)
	}
	l.truncateEpochsFromStart(260)
	if !slices.Equal(l.Epochs, []EpochEntry{{5, 260}}) {
		t.Errorf("trimmed to 260: %v", l.Epochs)
	}
	empty := Log{}
	empty.truncateEpochsFromStart(10)
	if len(empty.Epochs) != 0 {
		t.Errorf("trimming an empty cache: %v", empty.Epochs)
	}
}

// TestProducerState: the producer table is sorted by id and keeps each
// producer's last sequence and offset; a snapshot is found by its
// segment's end.
func TestProducerState(t *testing.T) {
	var l Log
	for _, p := range []ProducerEntry{{5, 1, 1}, {2, 2, 2}, {9, 3, 3}, {5, 4, 4}, {7, 5, 5}} {
		l.setProducer(p)
	}
	if want := []ProducerEntry{{2, 2, 2}, {5, 4, 4}, {7, 5, 5}, {9, 3, 3}}; !slices.Equal(l.Producers, want) {
		t.Errorf("producers %v, want %v", l.Producers, want)
	}
	if p, ok := l.Producer(7); !ok || p.LastSeq != 5 {
		t.Errorf("producer 7: %v %v", p, ok)
	}
	if _, ok := l.Producer(3); ok {
		t.Errorf("unknown producer found")
	}
	m := threeSegments()
	if s, ok := m.SnapshotAt(199); !ok || !slices.Equal(s, snapshotAt(199)) {
		t.Errorf("snapshot at 199: %v %v", s, ok)
	}
	if _, ok := m.SnapshotAt(249); ok {
		t.Errorf("the active segment has a snapshot")
	}
	if _, ok := m.SnapshotAt(150); ok {
		t.Errorf("a snapshot at no segment's end")
	}
}
