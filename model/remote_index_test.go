package model

import (
	"math/rand/v2"
	"testing"
)

// The scans the index replaced, kept here as the reference.
func naiveHighestOffsetFor(r *Remote, epoch int32) int64 {
	h := int64(-1)
	for i := range r.Segments {
		if s := &r.Segments[i]; s.copied() {
			h = max(h, s.HighestOffsetFor(epoch))
		}
	}
	return h
}

func naiveFirstOffsetFor(r *Remote, epoch int32) (int64, bool) {
	for i := range r.Segments {
		if s := &r.Segments[i]; s.HighestOffsetFor(epoch) >= 0 {
			return s.Base, true
		}
	}
	return 0, false
}

func naiveLookup(r *Remote, epoch int32, o int64) (*RemoteSegment, bool) {
	for i := range r.Segments {
		s := &r.Segments[i]
		if s.State == CopyFinished && s.Base <= o && o <= s.End && s.EpochAt(o) == epoch {
			return s, true
		}
	}
	return nil, false
}

func naiveFinished(r *Remote) (start, end, bytes int64, ok bool) {
	for i := range r.Segments {
		s := &r.Segments[i]
		if s.State != CopyFinished {
			continue
		}
		bytes += s.Bytes
		if !ok {
			start, end, ok = s.Base, s.End, true
			continue
		}
		start, end = min(start, s.Base), max(end, s.End)
	}
	return start, end, bytes, ok
}

// TestRemoteIndexMatchesScans: on random segment lists (overlapping, in
// every state, several epochs a segment, changed between queries) the
// index answers every lookup as the scans over the whole list did.
func TestRemoteIndexMatchesScans(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	for round := 0; round < 300; round++ {
		var r Remote
		for n := rng.IntN(12); n > 0; n-- {
			base := rng.Int64N(100)
			end := base + rng.Int64N(30)
			var epochs []EpochEntry
			for o, ep := base, int32(rng.IntN(3)); o <= end && len(epochs) < 3; o += 1 + rng.Int64N(15) {
				epochs = append(epochs, EpochEntry{Epoch: ep, StartOffset: o})
				ep += int32(rng.IntN(3)) - 0 // may repeat an epoch
			}
			id := r.Start(RemoteSegment{Base: base, End: end, Bytes: end - base + 1, Epochs: epochs})
			if k := rng.IntN(3); k > 0 {
				r.SetState(id, []RemoteState{CopyFinished, DeleteStarted}[k-1])
			}
			if rng.IntN(5) == 0 && len(r.Segments) > 1 {
				r.Remove(r.Segments[rng.IntN(len(r.Segments))].ID)
			}
			for q := 0; q < 20; q++ {
				ep, o := int32(rng.IntN(6)), rng.Int64N(140)
				if got, want := r.HighestOffsetFor(ep), naiveHighestOffsetFor(&r, ep); got != want {
					t.Fatalf("round %d: HighestOffsetFor(%d) = %d, want %d (%+v)", round, ep, got, want, r.Segments)
				}
				gb, gok := r.FirstOffsetFor(ep)
				wb, wok := naiveFirstOffsetFor(&r, ep)
				if gb != wb || gok != wok {
					t.Fatalf("round %d: FirstOffsetFor(%d) = %d %v, want %d %v", round, ep, gb, gok, wb, wok)
				}
				gs, gok := r.Lookup(ep, o)
				ws, wok := naiveLookup(&r, ep, o)
				if gs != ws || gok != wok {
					t.Fatalf("round %d: Lookup(%d, %d) = %p, want %p", round, ep, o, gs, ws)
				}
				s, e, ok := r.Finished()
				ws2, we, wbytes, wok2 := naiveFinished(&r)
				if s != ws2 || e != we || ok != wok2 || r.Bytes() != wbytes {
					t.Fatalf("round %d: Finished %d %d %v bytes %d, want %d %d %v %d", round, s, e, ok, r.Bytes(), ws2, we, wok2, wbytes)
				}
			}
		}
	}
}
