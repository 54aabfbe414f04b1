package sim

// Scheduler is a single-threaded event queue over virtual time. Events are
// popped in (time, seq) order, where seq is the insertion counter, so events
// scheduled for the same instant come out in the order they were scheduled.
//
// The queue is an indexed binary heap over a slot table: a Timer names its
// slot, so Cancel removes the entry at once (no tombstones, no leak), and
// slots are reused through a free list, so a steady workload allocates
// nothing per event.
//
// Invariant: heap[i].pos == i for every live slot, and each parent orders
// before its children.
type Scheduler[E any] struct {
	now   Time
	seq   uint64
	heap  []int32 // slot indices, heap-ordered
	slots []slot[E]
	free  []int32
}

type slot[E any] struct {
	at  Time
	seq uint64
	gen uint32
	pos int32 // index in heap; -1 when free
	ev  E
}

// Timer names one scheduled event so it can be canceled. The zero Timer names
// nothing.
type Timer struct {
	slot int32
	gen  uint32 // 0 means "no timer"
}

// Pending reports whether t names a scheduled event (not yet fired or canceled).
func (s *Scheduler[E]) Pending(t Timer) bool {
	if t.gen == 0 || int(t.slot) >= len(s.slots) {
		return false
	}
	sl := &s.slots[t.slot]
	return sl.gen == t.gen && sl.pos >= 0
}

// Now returns the current virtual time: the time of the last popped event.
func (s *Scheduler[E]) Now() Time { return s.now }

// Len returns the number of pending events.
func (s *Scheduler[E]) Len() int { return len(s.heap) }

// At schedules ev at time at. Scheduling in the past is a programmer error.
func (s *Scheduler[E]) At(at Time, ev E) Timer {
	if at < s.now {
		panic("sim: event scheduled in the past")
	}
	var i int32
	if n := len(s.free); n > 0 {
		i = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		s.slots = append(s.slots, slot[E]{})
		i = int32(len(s.slots) - 1)
	}
	s.seq++
	sl := &s.slots[i]
	sl.at, sl.seq, sl.ev = at, s.seq, ev
	sl.gen++
	if sl.gen == 0 { // wrapped: 0 is reserved for "no timer"
		sl.gen = 1
	}
	sl.pos = int32(len(s.heap))
	s.heap = append(s.heap, i)
	s.up(int(sl.pos))
	return Timer{slot: i, gen: sl.gen}
}

// After schedules ev d after now.
func (s *Scheduler[E]) After(d Duration, ev E) Timer { return s.At(s.now.Add(d), ev) }

// Cancel removes the event t names and reports whether it was still pending.
func (s *Scheduler[E]) Cancel(t Timer) bool {
	if !s.Pending(t) {
		return false
	}
	pos := int(s.slots[t.slot].pos)
	last := len(s.heap) - 1
	if pos != last {
		s.swap(pos, last)
	}
	s.heap = s.heap[:last]
	s.release(t.slot)
	if pos != last {
		if !s.down(pos) {
			s.up(pos)
		}
	}
	return true
}

// Next pops the earliest event, advances Now to its time and returns it.
// ok is false when no event is pending.
func (s *Scheduler[E]) Next() (ev E, ok bool) {
	if len(s.heap) == 0 {
		return ev, false
	}
	i := s.heap[0]
	last := len(s.heap) - 1
	s.swap(0, last)
	s.heap = s.heap[:last]
	if last > 0 {
		s.down(0)
	}
	sl := &s.slots[i]
	s.now, ev = sl.at, sl.ev
	s.release(i)
	return ev, true
}

// PeekTime returns the time of the earliest pending event; ok is false when
// none is pending.
func (s *Scheduler[E]) PeekTime() (at Time, ok bool) {
	if len(s.heap) == 0 {
		return 0, false
	}
	return s.slots[s.heap[0]].at, true
}

func (s *Scheduler[E]) release(i int32) {
	var zero E
	sl := &s.slots[i]
	sl.ev, sl.pos = zero, -1
	s.free = append(s.free, i)
}

func (s *Scheduler[E]) less(a, b int) bool {
	x, y := &s.slots[s.heap[a]], &s.slots[s.heap[b]]
	if x.at != y.at {
		return x.at < y.at
	}
	return x.seq < y.seq
}

func (s *Scheduler[E]) swap(a, b int) {
	s.heap[a], s.heap[b] = s.heap[b], s.heap[a]
	s.slots[s.heap[a]].pos = int32(a)
	s.slots[s.heap[b]].pos = int32(b)
}

func (s *Scheduler[E]) up(j int) {
	for j > 0 {
		p := (j - 1) / 2
		if !s.less(j, p) {
			return
		}
		s.swap(j, p)
		j = p
	}
}

// down sifts element i down and reports whether it moved.
func (s *Scheduler[E]) down(i int) bool {
	i0, n := i, len(s.heap)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		j := l
		if r := l + 1; r < n && s.less(r, l) {
			j = r
		}
		if !s.less(j, i) {
			break
		}
		s.swap(i, j)
		i = j
	}
	return i > i0
}
