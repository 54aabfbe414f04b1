package sim

import (
	"container/heap"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// drain takes every event left in s, in the order Next gives them.
func drain[E any](s *Scheduler[E]) []E {
	var got []E
	for ev, ok := s.Next(); ok; ev, ok = s.Next() {
		got = append(got, ev)
	}
	return got
}

func TestSchedulerOrdersByTimeThenSeq(t *testing.T) {
	var s Scheduler[string]
	s.At(AtMs(5), "c")
	s.At(AtMs(1), "a")
	s.At(AtMs(5), "d")
	s.At(AtMs(1), "b")
	s.At(AtMs(3), "x")
	got := drain(&s)
	want := []string{"a", "b", "x", "c", "d"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if s.Now() != AtMs(5) {
		t.Fatalf("now = %v, want t=0.005s", s.Now())
	}
}

func TestSchedulerCancel(t *testing.T) {
	var s Scheduler[int]
	a := s.At(10, 1)
	b := s.At(20, 2)
	if !s.Cancel(a) || s.Cancel(a) {
		t.Fatal("cancel of a pending timer must succeed once")
	}
	if s.Len() != 1 {
		t.Fatalf("len = %d after cancel, want 1 (no tombstone)", s.Len())
	}
	ev, _ := s.Next()
	if ev != 2 || s.Pending(b) {
		t.Fatalf("popped %d, pending(b)=%v", ev, s.Pending(b))
	}
	// A reused slot must not answer to the old handle.
	c := s.At(30, 3)
	if s.Cancel(a) || s.Cancel(b) || !s.Pending(c) {
		t.Fatal("stale handles must not cancel a reused slot")
	}
}

func TestSchedulerPastIsProgrammerError(t *testing.T) {
	var s Scheduler[int]
	s.At(10, 1)
	s.Next()
	defer func() {
		if recover() == nil {
			t.Fatal("scheduling in the past must panic")
		}
	}()
	s.At(5, 2)
}

// refItem and refHeap are the dumb reference: container/heap with the same
// (time, seq) order and cancellation by a removed flag.
type refItem struct {
	at      Time
	seq     uint64
	id      int
	removed bool
}
type refHeap []*refItem

func (h refHeap) Len() int { return len(h) }
func (h refHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h refHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)   { *h = append(*h, x.(*refItem)) }
func (h *refHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// TestSchedulerMatchesReference drives the scheduler and a reference heap
// with the same random operations and compares every popped event.
func TestSchedulerMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s Scheduler[int]
		ref := &refHeap{}
		timers := map[int]Timer{}
		items := map[int]*refItem{}
		var seq uint64
		next := 0
		live := 0
		for i := 0; i < rapid.IntRange(1, 200).Draw(t, "ops"); i++ {
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				at := s.Now() + Time(rapid.Int64Range(0, 50).Draw(t, "delay"))
				seq++
				timers[next] = s.At(at, next)
				it := &refItem{at: at, seq: seq, id: next}
				items[next] = it
				heap.Push(ref, it)
				next++
				live++
			case 1:
				if next == 0 {
					continue
				}
				id := rapid.IntRange(0, next-1).Draw(t, "cancel")
				got := s.Cancel(timers[id])
				want := !items[id].removed && items[id].seq > 0
				if got != want {
					t.Fatalf("cancel(%d) = %v, want %v", id, got, want)
				}
				if want {
					items[id].removed = true
					live--
				}
			case 2:
				for ref.Len() > 0 && (*ref)[0].removed {
					heap.Pop(ref)
				}
				ev, ok := s.Next()
				if ok != (ref.Len() > 0) {
					t.Fatalf("Next ok=%v, reference has %d", ok, ref.Len())
				}
				if !ok {
					continue
				}
				it := heap.Pop(ref).(*refItem)
				it.removed, it.seq = true, 0
				live--
				if ev != it.id || s.Now() != it.at {
					t.Fatalf("popped %d at %v, reference %d at %v", ev, s.Now(), it.id, it.at)
				}
			}
			if s.Len() != live {
				t.Fatalf("len %d, want %d", s.Len(), live)
			}
		}
	})
}

func TestSchedulerSteadyStateAllocatesNothing(t *testing.T) {
	var s Scheduler[int]
	for i := 0; i < 100; i++ {
		s.At(Time(i), i)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		ev, _ := s.Next()
		s.After(100, ev)
	})
	if allocs != 0 {
		t.Fatalf("%.1f allocations per event, want 0", allocs)
	}
}

// TestAtKeyGoesFirstAtItsInstant: an event scheduled with a key comes out
// before every event At scheduled for its instant, whenever it was
// scheduled, and keyed events come out by key.
func TestAtKeyGoesFirstAtItsInstant(t *testing.T) {
	var s Scheduler[string]
	s.At(10, "a")
	s.At(5, "early")
	s.AtKey(10, 7, "k7")
	s.At(10, "b")
	s.AtKey(10, 3, "k3")
	s.AtKey(11, 0, "k0-later")
	got := drain(&s)
	want := []string{"early", "k3", "k7", "a", "b", "k0-later"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}
