package invariants

import (
	"testing"

	"tierfetch/model"
)

// TestBatchAtMatchesLog: batchAt finds what Log.BatchAt finds, at every
// offset around the log, from every starting position (stale ones and out
// of range included), on logs that rolled, were truncated and lost their
// oldest segments to retention.
func TestBatchAtMatchesLog(t *testing.T) {
	build := func() model.Log {
		l := model.NewLog(5)
		o := int64(5)
		for i := range 40 {
			n := int64(1 + i%4)
			l.Append(model.Batch{Base: o, Count: n, Bytes: 100 * n, Epoch: int32(i / 10), Origin: uint64(i + 1)}, 600)
			o += n
		}
		return l
	}
	logs := map[string]model.Log{}
	logs["rolled"] = build()
	l := build()
	l.Roll()
	logs["empty active"] = l
	l = build()
	l.TruncateTo(50)
	logs["truncated"] = l
	l = build()
	l.HighWatermark = l.LogEnd
	l.IncrementLocalLogStart(30)
	logs["retention"] = l
	l = build()
	l.TruncateFullyAndStartAt(200, 200)
	logs["empty"] = l
	for name, l := range logs {
		if name != "empty" && len(l.Segments) < 3 {
			t.Fatalf("%s: %d segments, want several", name, len(l.Segments))
		}
		var starts []logPos
		for si := range len(l.Segments) + 2 {
			for bi := range 12 {
				starts = append(starts, logPos{si, bi})
			}
		}
		for o := int64(0); o < l.LogEnd+3; o++ {
			want, wantOK := l.BatchAt(o)
			for _, p := range starts {
				q := p
				got, ok := batchAt(&l, o, &q)
				if ok != wantOK || got != want {
					t.Fatalf("%s: offset %d from %v: got %v %v, want %v %v", name, o, p, got, ok, want, wantOK)
				}
				if ok {
					if b := l.Segments[q.si].Batches[q.bi]; b != got {
						t.Fatalf("%s: offset %d: left at %v holding %v, found %v", name, o, q, b, got)
					}
				}
			}
		}
	}
}
