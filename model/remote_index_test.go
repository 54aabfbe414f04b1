package model

import (
	"math/rand/v2"
	"testing"
)

// refCache is a dumb reference for the remote log metadata cache: Kafka's
// RemoteLogLeaderEpochState written out with maps, one per epoch
// (RemoteLogLeaderEpochState.java:96-144 @06a2dac2), fed the same events as
// the Remote under test.
type refCache struct {
	segs       map[uint64]RemoteSegment
	offsetToID map[int32]map[int64]uint64
	unref      map[int32]map[uint64]bool
	highest    map[int32]int64
}

func newRefCache() *refCache {
	return &refCache{segs: map[uint64]RemoteSegment{}, offsetToID: map[int32]map[int64]uint64{},
		unref: map[int32]map[uint64]bool{}, highest: map[int32]int64{}}
}

func (c *refCache) epoch(e int32) (map[int64]uint64, map[uint64]bool) {
	if c.offsetToID[e] == nil {
		c.offsetToID[e], c.unref[e] = map[int64]uint64{}, map[uint64]bool{}
	}
	return c.offsetToID[e], c.unref[e]
}

func (c *refCache) copyStarted(s RemoteSegment) {
	c.segs[s.ID] = s
	for _, e := range s.Epochs {
		_, un := c.epoch(e.Epoch)
		un[s.ID] = true
	}
}

func (c *refCache) copyFinished(id uint64) {
	s := c.segs[id]
	for _, e := range s.Epochs {
		offs, un := c.epoch(e.Epoch)
		end := s.HighestOffsetFor(e.Epoch)
		for {
			last, ok := int64(-1), false
			for k := range offs {
				if k > last || !ok {
					last, ok = k, true
				}
			}
			if !ok || last < e.StartOffset || c.highest[e.Epoch] > end {
				break
			}
			un[offs[last]] = true
			delete(offs, last)
		}
		offs[e.StartOffset] = id
		delete(un, id)
		if h, ok := c.highest[e.Epoch]; !ok || end > h {
			c.highest[e.Epoch] = end
		}
	}
}

func (c *refCache) deleteStarted(id uint64) {
	s := c.segs[id]
	for _, e := range s.Epochs {
		offs, un := c.epoch(e.Epoch)
		if offs[e.StartOffset] == id {
			delete(offs, e.StartOffset)
		}
		un[id] = true
	}
}

func (c *refCache) deleteFinished(id uint64) {
	c.deleteStarted(id)
	for _, e := range c.segs[id].Epochs {
		delete(c.unref[e.Epoch], id)
	}
	delete(c.segs, id)
}

func (c *refCache) highestFor(e int32) int64 {
	if h, ok := c.highest[e]; ok {
		return h
	}
	return -1
}

// firstFor is the base of the first segment listed under e (its referenced
// and unreferenced segments, by start offset).
func (c *refCache) firstFor(e int32) (int64, bool) {
	first, ok := int64(0), false
	consider := func(id uint64) {
		if b := c.segs[id].Base; !ok || b < first {
			first, ok = b, true
		}
	}
	for _, id := range c.offsetToID[e] {
		consider(id)
	}
	for id := range c.unref[e] {
		consider(id)
	}
	return first, ok
}

// lookup is remoteLogSegmentMetadata: the floor entry, if o is within the
// epoch's range of it.
func (c *refCache) lookup(e int32, o int64) (uint64, bool) {
	floor, ok := int64(-1), false
	for k := range c.offsetToID[e] {
		if k <= o && k > floor {
			floor, ok = k, true
		}
	}
	if !ok {
		return 0, false
	}
	s := c.segs[c.offsetToID[e][floor]]
	if o > s.HighestOffsetFor(e) {
		return 0, false
	}
	return s.ID, true
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
// Remote answers every lookup as the reference cache fed the same events
// does: the highest offset of an epoch (kept when its segments go), the
// first segment listed under it, the floor-entry lookup with Kafka's
// duplicate handling, and the finished range and bytes (a scan).
func TestRemoteIndexMatchesScans(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 0))
	for round := 0; round < 300; round++ {
		var r Remote
		ref := newRefCache()
		for n := rng.IntN(12); n > 0; n-- {
			base := rng.Int64N(100)
			end := base + rng.Int64N(30)
			var epochs []EpochEntry
			for o, ep := base, int32(rng.IntN(3)); o <= end && len(epochs) < 3; o += 1 + rng.Int64N(15) {
				epochs = append(epochs, EpochEntry{Epoch: ep, StartOffset: o})
				ep += 1 + int32(rng.IntN(2)) // rising: a segment's epochs are a map in Kafka
			}
			id := r.Start(RemoteSegment{Base: base, End: end, Bytes: end - base + 1, Epochs: epochs})
			ref.copyStarted(r.Segments[r.Find(id)])
			if k := rng.IntN(3); k > 0 {
				r.SetState(id, CopyFinished)
				ref.copyFinished(id)
				if k == 2 {
					r.SetState(id, DeleteStarted)
					ref.deleteStarted(id)
				}
			}
			if rng.IntN(5) == 0 && len(r.Segments) > 1 {
				gone := r.Segments[rng.IntN(len(r.Segments))].ID
				r.Remove(gone)
				ref.deleteFinished(gone)
			}
			for q := 0; q < 20; q++ {
				ep, o := int32(rng.IntN(6)), rng.Int64N(140)
				if got, want := r.HighestOffsetFor(ep), ref.highestFor(ep); got != want {
					t.Fatalf("round %d: HighestOffsetFor(%d) = %d, want %d (%+v)", round, ep, got, want, r.Segments)
				}
				gb, gok := r.FirstOffsetFor(ep)
				wb, wok := ref.firstFor(ep)
				if gb != wb || gok != wok {
					t.Fatalf("round %d: FirstOffsetFor(%d) = %d %v, want %d %v (%+v)", round, ep, gb, gok, wb, wok, r.Segments)
				}
				gs, gok := r.Lookup(ep, o)
				wid, wok := ref.lookup(ep, o)
				if gok != wok || (gok && gs.ID != wid) {
					t.Fatalf("round %d: Lookup(%d, %d) = %v %v, want %d %v (%+v)", round, ep, o, gs, gok, wid, wok, r.Segments)
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
