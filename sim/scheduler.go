package sim

// Scheduler is a single-threaded event queue over virtual time. Events are
// popped in (time, seq) order, where seq is the insertion counter, so events
// scheduled for the same instant come out in the order they were scheduled.
// An event scheduled with a key (AtKey) instead comes out before every
// event At scheduled for its instant, and among keyed events by key: its
// place among its instant's events does not depend on when it was
// scheduled.
//
// The queue is an indexed binary heap over a slot table: a Timer names its
// slot, so Cancel removes the entry at once (no tombstones, no leak), and
// slots are reused through a free list, so a steady workload allocates
// nothing per event. Heap entries carry their (time, seq) key beside the
// slot index, so sifting compares within the heap array and moves 24 bytes
// however large E is; sifts move a hole instead of swapping.
//
// Invariant: slots[heap[i].slot].pos == i for every live slot, and each
// parent orders before its children; when tiesN > 0, exactly tiesN pending
// events are at tiesAt, the earliest pending time.
type Scheduler[E any] struct {
	now   Time
	seq   uint64
	heap  []entry // heap-ordered by (at, seq)
	slots []slot[E]
	free  []int32
	// tiesAt and tiesN cache Ties (0: not known, counted when asked). Each
	// change at the earliest time keeps the count, so a run that asks for
	// it before every step counts each instant's events once, not once a
	// step (200,000 events at one instant were quadratic).
	tiesAt Time
	tiesN  int
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
	s.seq++
	return s.insert(at, s.seq|unkeyed, ev)
}

// unkeyed marks the seq of an event At scheduled: it orders after every
// keyed one at the same time.
const unkeyed = 1 << 63

// AtKey schedules ev at time at with key (below 1<<63): it comes out
// before the events At scheduled for that instant and after those of
// smaller key.
func (s *Scheduler[E]) AtKey(at Time, key uint64, ev E) Timer {
	if at < s.now {
		panic("sim: event scheduled in the past")
	}
	if key >= unkeyed {
		panic("sim: a key of 1<<63 or more")
	}
	return s.insert(at, key, ev)
}

// insert puts ev in a free slot and its entry (at, seq) in the heap.
func (s *Scheduler[E]) insert(at Time, seq uint64, ev E) Timer {
	var i int32
	if n := len(s.free); n > 0 {
		i = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		s.slots = append(s.slots, slot[E]{})
		i = int32(len(s.slots) - 1)
	}
	sl := &s.slots[i]
	sl.ev = ev
	sl.gen++
	if sl.gen == 0 { // wrapped: 0 is reserved for "no timer"
		sl.gen = 1
	}
	s.heap = append(s.heap, entry{})
	s.up(len(s.heap)-1, entry{at: at, seq: seq, slot: i})
	switch {
	case len(s.heap) == 1 || s.tiesN > 0 && at < s.tiesAt:
		s.tiesAt, s.tiesN = at, 1 // the only event at the new earliest time
	case s.tiesN > 0 && at == s.tiesAt:
		s.tiesN++
	}
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
	s.untie(s.heap[pos].at)
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
	s.untie(top.at)
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

// untie keeps the tie count as an event at time at leaves the queue.
func (s *Scheduler[E]) untie(at Time) {
	if s.tiesN > 0 && at == s.tiesAt {
		s.tiesN-- // at 0 the next earliest time is counted when asked
	}
}

// Ties returns how many pending events share the earliest pending time: the
// events an explorer may take in any order (NextTie). It counts them once
// per instant, then keeps the count as events come and go.
func (s *Scheduler[E]) Ties() int {
	if len(s.heap) == 0 {
		return 0
	}
	if s.tiesN == 0 {
		s.tiesAt, s.tiesN = s.heap[0].at, s.countAt(0, s.heap[0].at)
	}
	return s.tiesN
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
// Next(); i outside [0, Ties()) is a programmer error. It costs O(i log i)
// plus a pop: the ties form the top of the heap, ordered by seq, so the
// i-th is found by walking that subtree in seq order.
func (s *Scheduler[E]) NextTie(i int) (ev E, ok bool) {
	if i < 0 || i >= s.Ties() {
		panic("sim: NextTie outside the ties")
	}
	if i == 0 {
		return s.Next()
	}
	at := s.heap[0].at
	pick := s.heap[s.tieRank(i)]
	ev = s.slots[pick.slot].ev
	s.Cancel(Timer{slot: pick.slot, gen: s.slots[pick.slot].gen})
	s.now = at
	return ev, true
}

// tieRank returns the heap index of the tie of rank i (0: the root) by seq:
// a frontier of heap indices, smallest seq first, whose least is taken and
// replaced by its children at the same time, i times.
func (s *Scheduler[E]) tieRank(i int) int {
	at := s.heap[0].at
	less := func(a, b int) bool { return s.heap[a].seq < s.heap[b].seq }
	front := []int{0}
	for ; ; i-- {
		top := front[0]
		if i == 0 {
			return top
		}
		front[0] = front[len(front)-1]
		front = front[:len(front)-1]
		siftDown(front, 0, less)
		for _, c := range [2]int{2*top + 1, 2*top + 2} {
			if c < len(s.heap) && s.heap[c].at == at {
				front = append(front, c)
				siftUp(front, len(front)-1, less)
			}
		}
	}
}

// siftUp and siftDown keep h a binary min-heap under less.
func siftUp(h []int, j int, less func(a, b int) bool) {
	for j > 0 {
		p := (j - 1) / 2
		if !less(h[j], h[p]) {
			return
		}
		h[j], h[p] = h[p], h[j]
		j = p
	}
}

func siftDown(h []int, j int, less func(a, b int) bool) {
	for {
		m, l, r := j, 2*j+1, 2*j+2
		if l < len(h) && less(h[l], h[m]) {
			m = l
		}
		if r < len(h) && less(h[r], h[m]) {
			m = r
		}
		if m == j {
			return
		}
		h[j], h[m] = h[m], h[j]
		j = m
	}
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
		slots: append([]slot[E](nil), s.slots...), free: append([]int32(nil), s.free...), tiesAt: s.tiesAt, tiesN: s.tiesN}
}

// CloneInto is Clone in the arrays of dst, a queue nothing uses any more
// (a search drops many): it allocates only when they are too small.
func (s *Scheduler[E]) CloneInto(dst *Scheduler[E]) Scheduler[E] {
	return Scheduler[E]{now: s.now, seq: s.seq, heap: append(dst.heap[:0], s.heap...),
		slots: append(dst.slots[:0], s.slots...), free: append(dst.free[:0], s.free...), tiesAt: s.tiesAt, tiesN: s.tiesN}
}
