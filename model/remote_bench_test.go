package model

import (
	"fmt"
	"testing"
)

// BenchmarkRemoteRemove lists n remote segments and removes them all in
// the order retention deletes them (the oldest first) or with deletions
// completing out of order within a window of 64 in flight. One op is one
// removal: its cost must not grow with n (it grew linearly, and a run's
// deletions quadratically, when Remove copied the whole list).
func BenchmarkRemoteRemove(b *testing.B) {
	for _, order := range []string{"oldest-first", "window-64"} {
		for _, n := range []int{10_000, 40_000, 160_000} {
			b.Run(fmt.Sprintf("%s/segments=%d", order, n), func(b *testing.B) {
				b.ReportAllocs()
				for done := 0; done < b.N; {
					b.StopTimer()
					r := &Remote{}
					for i := range n {
						r.Start(RemoteSegment{Base: int64(i), End: int64(i), Bytes: 1})
					}
					ids := removalOrder(n, order == "window-64")
					b.StartTimer()
					for k := 0; k < n && done < b.N; k, done = k+1, done+1 {
						r.Remove(ids[k])
					}
				}
			})
		}
	}
}

// removalOrder is the ids 1..n, oldest first, or reversed in each run of
// 64 (the last started of a window finishing first).
func removalOrder(n int, window bool) []uint64 {
	ids := make([]uint64, n)
	for i := range ids {
		ids[i] = uint64(i + 1)
		if window {
			lo := i / 64 * 64
			hi := min(lo+64, n)
			ids[i] = uint64(lo + hi - i)
		}
	}
	return ids
}

// TestRemoteRemoveKeepsTheRest: removing segments in any order leaves the
// others listed in order, each found by its id.
func TestRemoteRemoveKeepsTheRest(t *testing.T) {
	r := &Remote{}
	for i := range 200 {
		r.Start(RemoteSegment{Base: int64(i), End: int64(i)})
	}
	gone := map[uint64]bool{}
	for _, id := range removalOrder(150, true) {
		r.Remove(id)
		gone[id] = true
		want := uint64(0)
		for _, s := range r.Segments {
			for want++; gone[want]; want++ {
			}
			if s.ID != want || r.Segments[r.Find(s.ID)].ID != s.ID {
				t.Fatalf("after removing %d: segment %d where %d was expected", id, s.ID, want)
			}
		}
		if len(r.Segments) != 200-len(gone) {
			t.Fatalf("%d listed after %d removals", len(r.Segments), len(gone))
		}
	}
}
