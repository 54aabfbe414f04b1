package model

import (
	"testing"

	"pgregory.net/rapid"
)

// refLog is the dumb reference: one entry per record.
type refLog struct {
	start, end int64 // local records are [start, end)
	logStart   int64
	records    map[int64]refRecord
}

type refRecord struct {
	origin uint64
	epoch  int32
}

// TestLogMatchesReference drives a Log and a record-by-record reference with
// the same appends, reads, truncations and start-offset moves.
func TestLogMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		segBytes := rapid.Int64Range(1, 40).Draw(t, "segRecords") * 10
		l := NewLog(0)
		ref := refLog{records: map[int64]refRecord{}}
		var origin uint64
		epoch := int32(0)
		for i := 0; i < rapid.IntRange(1, 60).Draw(t, "ops"); i++ {
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0, 1: // append
				n := rapid.Int64Range(1, 30).Draw(t, "n")
				if rapid.Bool().Draw(t, "newEpoch") {
					epoch++
				}
				origin++
				b := Batch{Base: l.LogEnd, Count: n, Bytes: n * 10, Epoch: epoch, ProducerID: 1, Seq: l.LogEnd, Origin: origin}
				l.Append(b, segBytes)
				for o := b.Base; o <= b.Last(); o++ {
					ref.records[o] = refRecord{origin, epoch}
				}
				ref.end = l.LogEnd
				l.HighWatermark = l.LogEnd
			case 2: // truncate
				to := rapid.Int64Range(ref.start, ref.end).Draw(t, "to")
				l.TruncateTo(to)
				ref.end = to
				for o := range ref.records {
					if o >= to {
						delete(ref.records, o)
					}
				}
				if to < l.HighWatermark {
					t.Fatalf("HW %d above truncation point %d", l.HighWatermark, to)
				}
				l.HighWatermark = l.LogEnd
			case 3: // raise the log start offset
				to := rapid.Int64Range(ref.start, ref.end).Draw(t, "lso")
				l.IncrementLogStart(to)
				ref.logStart = max(ref.logStart, to)
				ref.start = max(ref.start, to)
			case 4: // read
				if ref.start == ref.end {
					continue
				}
				from := rapid.Int64Range(ref.start, ref.end-1).Draw(t, "from")
				maxBytes := rapid.Int64Range(1, 200).Draw(t, "maxBytes")
				got := l.Read(from, maxBytes)
				checkRead(t, got, from, maxBytes, ref)
			}
			checkAgainstRef(t, &l, ref)
		}
	})
}

func checkRead(t *rapid.T, got []Batch, from, maxBytes int64, ref refLog) {
	if len(got) == 0 || got[0].Base != from {
		t.Fatalf("read from %d gave %v", from, got)
	}
	var bytes int64
	next := from
	for i, b := range got {
		if b.Base != next {
			t.Fatalf("read from %d: batch %d starts at %d, want %d", from, i, b.Base, next)
		}
		for o := b.Base; o <= b.Last(); o++ {
			if r := ref.records[o]; r.origin != b.Origin || r.epoch != b.Epoch {
				t.Fatalf("offset %d: read %v, reference %+v", o, b, r)
			}
		}
		bytes += b.Bytes
		next = b.Last() + 1
	}
	if bytes > maxBytes && got[0].Count > 1 {
		t.Fatalf("read %d bytes with a limit of %d", bytes, maxBytes)
	}
}

func checkAgainstRef(t *rapid.T, l *Log, ref refLog) {
	if l.LogEnd != ref.end || l.LogStart != ref.logStart || l.LocalLogStart < ref.start {
		t.Fatalf("offsets lso=%d llso=%d leo=%d, reference lso=%d start=%d end=%d", l.LogStart, l.LocalLogStart, l.LogEnd, ref.logStart, ref.start, ref.end)
	}
	var bytes int64
	prevEnd := int64(-1)
	for i, s := range l.Segments {
		if i > 0 && s.Base != prevEnd+1 {
			t.Fatalf("segment %d starts at %d after %d", i, s.Base, prevEnd)
		}
		prevEnd = s.End
		bytes += s.Bytes
	}
	for o := l.LocalLogStart; o < l.LogEnd; o++ {
		b, ok := l.BatchAt(o)
		if r := ref.records[o]; !ok || b.Origin != r.origin || b.Epoch != r.epoch {
			t.Fatalf("offset %d: log %v (%v), reference %+v", o, b, ok, r)
		}
		if e := l.EpochAt(o); e != ref.records[o].epoch {
			t.Fatalf("offset %d: epoch cache says %d, record has %d (cache %v)", o, e, ref.records[o].epoch, l.Epochs)
		}
	}
}

// TestEndOffsetForFollowsKafka pins OffsetsForLeaderEpoch answers to Kafka's
// LeaderEpochFileCache.endOffsetFor.
func TestEndOffsetForFollowsKafka(t *testing.T) {
	l := Log{LogEnd: 100, Epochs: []EpochEntry{{Epoch: 2, StartOffset: 10}, {Epoch: 4, StartOffset: 40}, {Epoch: 5, StartOffset: 70}}}
	cases := []struct {
		epoch     int32
		wantEpoch int32
		wantEnd   int64
	}{
		{5, 5, 100},  // the latest epoch ends at the log end
		{4, 4, 70},   // a known epoch ends where the next begins
		{3, 2, 40},   // an unknown epoch between: the floor epoch, the next start
		{1, 1, 10},   // older than the cache: itself, the first start
		{6, -1, -1},  // newer than every entry: undefined
		{-1, -1, -1}, // undefined asks get undefined
	}
	for _, c := range cases {
		if e, end := l.EndOffsetFor(c.epoch); e != c.wantEpoch || end != c.wantEnd {
			t.Errorf("EndOffsetFor(%d) = (%d, %d), want (%d, %d)", c.epoch, e, end, c.wantEpoch, c.wantEnd)
		}
	}
}

func TestTruncatePastEndDropsConflictingEpoch(t *testing.T) {
	l := NewLog(0)
	l.Append(Batch{Base: 0, Count: 10, Bytes: 100, Epoch: 0, Origin: 1}, 1000)
	l.AssignEpoch(3) // led epoch 3 without appending
	l.TruncateTo(10)
	if l.LatestEpoch() != 0 {
		t.Fatalf("latest epoch %d after truncating at the log end, want 0: an epoch with no records must go", l.LatestEpoch())
	}
}
