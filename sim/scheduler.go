package sim

// Scheduler is a single-threaded event queue over virtual time. Events are
// popped in (time, seq) order, where seq is the insertion counter, so events
// scheduled for the same instant come out in the order they were scheduled.
//
// The queue is an indexed binary heap over a slot table: a Timer names its
// slot, so Cancel removes the entry at once (no tombstones, no leak), and
// slots are reused through a free list, so a steady workload allocates
// nothing per event. Heap entries carry their (time, seq) key beside the
// slot index, so sifting compares within the heap array and moves 24 bytes
// however large E is; sifts move a hole instead of swapping.
//
// Invariant: slots[heap[i].slot].pos == i for every live slot, and each
// parent orders before its children.
type Scheduler[E any] struct {
	now   Time
	seq   uint64
	heap  []entry // heap-ordered by (at, seq)
	slots []slot[E]
	free  []int32
}

// entry is one heap element: an event's key and the slot holding it.
type entry struct {
	at   Time
	seq  uint64
	slot int32
}

// before reports whether e orders before f: earlier time, then lower seq.
func (e *entry) before(f *entry) bool {
	return e.at < f.at || (e.at == f.at && e.seq < f.seq)
}

type slot[E any] struct {
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
	sl.ev = ev
	sl.gen++
	if sl.gen == 0 { // wrapped: 0 is reserved for "no timer"
		sl.gen = 1
	}
	s.heap = append(s.heap, entry{})
	s.up(len(s.heap)-1, entry{at: at, seq: s.seq, slot: i})
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
	e := s.heap[last]
	s.heap = s.heap[:last]
	s.release(t.slot)
	if pos != last && !s.down(pos, e) {
		s.up(pos, e)
	}
	return true
}

// Next pops the earliest event, advances Now to its time and returns it.
// ok is false when no event is pending.
func (s *Scheduler[E]) Next() (ev E, ok bool) {
	if len(s.heap) == 0 {
		return ev, false
	}
	top := s.heap[0]
	last := len(s.heap) - 1
	e := s.heap[last]
	s.heap = s.heap[:last]
	if last > 0 {
		s.down(0, e)
	}
	s.now, ev = top.at, s.slots[top.slot].ev
	s.release(top.slot)
	return ev, true
}

// PeekTime returns the time of the earliest pending event; ok is false when
// none is pending.
func (s *Scheduler[E]) PeekTime() (at Time, ok bool) {
	if len(s.heap) == 0 {
		return 0, false
	}
	return s.heap[0].at, true
}

func (s *Scheduler[E]) release(i int32) {
	var zero E
	sl := &s.slots[i]
	sl.ev, sl.pos = zero, -1
	s.free = append(s.free, i)
}

// place puts e at heap index j and records its position in its slot.
func (s *Scheduler[E]) place(j int, e entry) {
	s.heap[j] = e
	s.slots[e.slot].pos = int32(j)
}

// up moves the hole at j toward the root until e fits there, then puts e in
// it.
func (s *Scheduler[E]) up(j int, e entry) {
	h := s.heap
	for j > 0 {
		p := (j - 1) / 2
		if !e.before(&h[p]) {
			break
		}
		s.place(j, h[p])
		j = p
	}
	s.place(j, e)
}

// down moves the hole at i toward the leaves until e fits there, puts e in
// it and reports whether e moved below i.
func (s *Scheduler[E]) down(i int, e entry) bool {
	h := s.heap
	i0, n := i, len(h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		j := l
		if r := l + 1; r < n && h[r].before(&h[l]) {
			j = r
		}
		if !h[j].before(&e) {
			break
		}
		s.place(i, h[j])
		i = j
	}
	s.place(i, e)
	return i > i0
}

// Ties returns how many pending events share the earliest pending time: the
// events an explorer may take in any order (NextTie).
func (s *Scheduler[E]) Ties() int {
	if len(s.heap) == 0 {
		return 0
	}
	return s.countAt(0, s.heap[0].at)
}

// countAt counts the entries of the subtree at i whose time is at: a
// parent later than at has no child at it.
func (s *Scheduler[E]) countAt(i int, at Time) int {
	if i >= len(s.heap) || s.heap[i].at != at {
		return 0
	}
	return 1 + s.countAt(2*i+1, at) + s.countAt(2*i+2, at)
}

// NextTie pops the i-th (in scheduling order) of the Ties() events at the
// earliest pending time, advances Now to it and returns it. NextTie(0) is
// Next(); i outside [0, Ties()) is a programmer error.
func (s *Scheduler[E]) NextTie(i int) (ev E, ok bool) {
	if i == 0 {
		return s.Next()
	}
	at := s.heap[0].at
	var seqs []entry
	seqs = s.collectAt(0, at, seqs)
	if i < 0 || i >= len(seqs) {
		panic("sim: NextTie outside the ties")
	}
	// The i-th smallest seq: ties are few, so selection by repeated scans.
	for k := 0; k <= i; k++ {
		m := k
		for j := k + 1; j < len(seqs); j++ {
			if seqs[j].seq < seqs[m].seq {
				m = j
			}
		}
		seqs[k], seqs[m] = seqs[m], seqs[k]
	}
	pick := seqs[i]
	ev = s.slots[pick.slot].ev
	s.Cancel(Timer{slot: pick.slot, gen: s.slots[pick.slot].gen})
	s.now = at
	return ev, true
}

func (s *Scheduler[E]) collectAt(i int, at Time, dst []entry) []entry {
	if i >= len(s.heap) || s.heap[i].at != at {
		return dst
	}
	dst = append(dst, s.heap[i])
	dst = s.collectAt(2*i+1, at, dst)
	return s.collectAt(2*i+2, at, dst)
}

// Each calls f with every pending event and its time, in no particular
// order (callers that need one sort).
func (s *Scheduler[E]) Each(f func(at Time, ev *E)) {
	for _, e := range s.heap {
		f(e.at, &s.slots[e.slot].ev)
	}
}

// Clone returns an independent copy of the queue: the same pending events
// (copied as values), the same clock and the same insertion counter, so
// both copies go on exactly as the original would. Timers taken from s
// name the same events in the copy.
func (s *Scheduler[E]) Clone() Scheduler[E] {
	return Scheduler[E]{now: s.now, seq: s.seq, heap: append([]entry(nil), s.heap...),
		slots: append([]slot[E](nil), s.slots...), free: append([]int32(nil), s.free...)}
}
