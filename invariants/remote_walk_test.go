package invariants

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"tierfetch/model"
)

// TestRemoteChecksFollowChanges: a checker that looks only at the remote
// segments changed since its last look (checkSegments) gives, after every
// change of random sequences (uploads after the rest and overlapping,
// some past the HW, copies finished, deletions started, removals
// anywhere, several changes between two checks, the leader's HW moved),
// the same verdict as one
// that walks the whole list every time, and keeps the same record (the
// checked segments, the uploaded and unfinished offsets, its state
// encoding); on and after violations too.
func TestRemoteChecksFollowChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	violations, incremental := 0, 0
	for round := range 300 {
		c := healthy()
		inc, full := New(c), New(c)
		full.fullRemoteWalks = true
		next := int64(100)
		for step := range 80 {
			for n := 1 + rng.IntN(3); n > 0; n-- {
				r := &c.Remote
				switch k := rng.IntN(10); {
				case k < 4 || len(r.Segments) == 0:
					base := next
					if rng.IntN(6) == 0 {
						base = max(0, next-rng.Int64N(150))
					}
					end := base + rng.Int64N(40)
					if next = end + 1; next > 280 {
						next = 100 // below the HW again: most steps pass
					}
					r.Start(model.RemoteSegment{Base: base, End: end, Bytes: end - base + 1,
						Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: base}}})
				case k < 7:
					s := &r.Segments[rng.IntN(len(r.Segments))]
					switch {
					case s.ID == 1:
					case s.State == model.CopyStarted:
						r.SetState(s.ID, model.CopyFinished)
					case s.State == model.CopyFinished:
						r.SetState(s.ID, model.DeleteStarted)
					}
				case k < 9:
					i := 0
					if rng.IntN(3) == 0 {
						i = rng.IntN(len(r.Segments))
					}
					if id := r.Segments[i].ID; id != 1 { // [0, 99] stays: no hole
						r.Remove(id)
					}
				default:
					c.Brokers[0].Log.HighWatermark = 250 + rng.Int64N(51)
				}
			}
			if _, ok := c.Remote.Changes(inc.remoteVer); ok && inc.remoteWalked {
				incremental++
			}
			vi, vf := inc.Check(c, c.Now), full.Check(c, c.Now)
			if (vi == nil) != (vf == nil) || vi != nil && (vi.Invariant != vf.Invariant || vi.Message != vf.Message) {
				t.Fatalf("round %d step %d: incremental %v, full walk %v", round, step, vi, vf)
			}
			if vi != nil {
				violations++
			}
			si, sf := inc.AppendState(nil, c, c.Now), full.AppendState(nil, c, c.Now)
			if !bytes.Equal(si, sf) || !reflect.DeepEqual(inc.checkedSeg, full.checkedSeg) ||
				!reflect.DeepEqual(inc.uploaded, full.uploaded) || !reflect.DeepEqual(inc.f.unfinished, full.f.unfinished) {
				t.Fatalf("round %d step %d: records differ: checked %v / %v, uploaded %v / %v, unfinished %v / %v", round, step,
					inc.checkedSeg, full.checkedSeg, inc.uploaded, full.uploaded, inc.f.unfinished, full.f.unfinished)
			}
		}
	}
	if violations == 0 || incremental == 0 {
		t.Fatalf("%d violations, %d incremental looks: the sequences do not exercise both", violations, incremental)
	}
	t.Logf("%d violations, %d incremental looks", violations, incremental)
}
