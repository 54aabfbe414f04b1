package model

import (
	"math/rand/v2"
	"reflect"
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

// TestRemoteIndexFollowsChanges: the index kept up to date change by
// change (remote_index.go's inserted, stateSet, removing, removed) equals
// the one a rebuild from the list makes, after every change of random
// sequences (uploads after the rest and anywhere, copies finished,
// deletions started, removals at either end and in the middle,
// overlapping copies), on the Remote and on a copy taken on the way and
// changed apart; and the journal names the segments each change touched.
func TestRemoteIndexFollowsChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 0))
	var incremental int
	for round := range 400 {
		var r Remote
		next := int64(0)
		var copies []*Remote
		for op := range 60 {
			before := r.Version
			var touched []RemoteChange
			switch k := rng.IntN(10); {
			case k < 4 || len(r.Segments) == 0: // an upload, after the rest (mostly) or overlapping
				base := next
				if rng.IntN(8) == 0 {
					base = max(0, next-rng.Int64N(20))
				}
				end := base + rng.Int64N(10)
				next = end + 1
				ep := int32(next / 25)
				id := r.Start(RemoteSegment{Base: base, End: end, Bytes: end - base + 1, Epochs: []EpochEntry{{Epoch: ep, StartOffset: base}}})
				touched = append(touched, RemoteChange(id<<1))
			case k < 7:
				s := &r.Segments[rng.IntN(len(r.Segments))]
				id := s.ID
				switch s.State {
				case CopyStarted:
					r.SetState(id, CopyFinished)
				case CopyFinished:
					r.SetState(id, DeleteStarted)
				default:
					continue
				}
			default: // a removal: mostly the oldest, sometimes the newest or one between
				i := 0
				switch rng.IntN(4) {
				case 0:
					i = len(r.Segments) - 1
				case 1:
					i = rng.IntN(len(r.Segments))
				}
				id := r.Segments[i].ID
				r.Remove(id)
				touched = append(touched, RemoteChange(id<<1|1))
			}
			changes, ok := r.Changes(before)
			if !ok || uint64(len(changes)) != r.Version-before {
				t.Fatalf("round %d op %d: Changes(%d) = %v %v at version %d", round, op, before, changes, ok, r.Version)
			}
			if len(touched) == 1 && changes[len(changes)-1] != touched[0] {
				t.Fatalf("round %d op %d: last change %v, want %v", round, op, changes[len(changes)-1], touched[0])
			}
			if r.idx.current(&r) {
				incremental++
			}
			for ci, x := range append([]*Remote{&r}, copies...) {
				got := *x.index(true)
				fresh := Remote{Segments: x.Segments, Version: x.Version}
				want := *fresh.index(true)
				got.ver, want.ver = 0, 0
				if !reflect.DeepEqual(normIndex(got), normIndex(want)) {
					t.Fatalf("round %d op %d (copy %d, 0: the Remote): index %+v, rebuilt %+v\n%+v", round, op, ci, got, want, x.Segments)
				}
			}
			if rng.IntN(10) == 0 {
				copies = append(copies, r.clone())
				c := &Cluster{Remote: r, out: &outbox{}}
				copies = append(copies, &c.Clone().Remote)
			}
			if len(copies) > 0 && rng.IntN(3) == 0 { // a copy changes apart
				x := copies[rng.IntN(len(copies))]
				if len(x.Segments) > 0 {
					x.Remove(x.Segments[0].ID)
				}
			}
		}
	}
	if incremental == 0 {
		t.Fatal("the index was never kept up to date by a change")
	}
}

// normIndex makes nil and empty slices alike.
func normIndex(x remoteIndex) remoteIndex {
	if len(x.maxEnd) == 0 {
		x.maxEnd = nil
	}
	if len(x.epochs) == 0 {
		x.epochs = nil
	}
	return x
}
