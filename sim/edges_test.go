package sim

import (
	"fmt"
	"testing"
)

// Edges of sim's small API: the ranges of random draws, the units and
// printing of virtual time, the trace ring and sink, and the scheduler's
// answers about timers it does not hold.

// TestInt64RangeBounds: both ends are drawn and nothing outside them; a
// one-value range returns it without drawing; lo > hi panics.
func TestInt64RangeBounds(t *testing.T) {
	s := NewStream(3, "edges")
	seen := map[int64]int{}
	for i := 0; i < 2000; i++ {
		v := s.Int64Range(-2, 2)
		if v < -2 || v > 2 {
			t.Fatalf("Int64Range(-2, 2) = %d", v)
		}
		seen[v]++
	}
	if len(seen) != 5 {
		t.Errorf("Int64Range(-2, 2) drew %v, want all of -2..2", seen)
	}
	a, b := NewStream(3, "same"), NewStream(3, "same")
	if v := a.Int64Range(7, 7); v != 7 {
		t.Errorf("Int64Range(7, 7) = %d", v)
	}
	if a.Uint64() != b.Uint64() {
		t.Errorf("a one-value range drew from the stream")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Int64Range(2, 1) did not panic")
		}
	}()
	s.Int64Range(2, 1)
}

// TestChance: p <= 0 is never, p >= 1 always, and p in between about p of
// the time; IntN and Float64 stay in range.
func TestChance(t *testing.T) {
	s := NewStream(4, "chance")
	hits := 0
	for i := 0; i < 4000; i++ {
		if s.Chance(0) || s.Chance(-1) {
			t.Fatal("Chance(0) or Chance(-1) came true")
		}
		if !s.Chance(1) {
			t.Fatal("Chance(1) came false")
		}
		if s.Chance(0.25) {
			hits++
		}
		if n := s.IntN(3); n < 0 || n >= 3 {
			t.Fatalf("IntN(3) = %d", n)
		}
		if f := s.Float64(); f < 0 || f >= 1 {
			t.Fatalf("Float64() = %v", f)
		}
	}
	if hits < 800 || hits > 1200 {
		t.Errorf("Chance(0.25) came true %d times in 4000", hits)
	}
}

// TestTimeUnits: milliseconds in and out, rounding down, and sums.
func TestTimeUnits(t *testing.T) {
	if Ms(3) != 3000*Microsecond || AtMs(3) != Time(3000) || Second != 1_000_000 {
		t.Errorf("Ms(3)=%d AtMs(3)=%d Second=%d", Ms(3), AtMs(3), Second)
	}
	if got := Time(2999).Ms(); got != 2 {
		t.Errorf("Time(2999).Ms() = %d, want 2", got)
	}
	if got := Duration(4999).Ms(); got != 4 {
		t.Errorf("Duration(4999).Ms() = %d, want 4", got)
	}
	if got := AtMs(5).Add(Ms(2)); got != AtMs(7) {
		t.Errorf("5ms + 2ms = %v", got)
	}
	if got := AtMs(5).Sub(AtMs(7)); got != -Ms(2) {
		t.Errorf("5ms - 7ms = %d", got)
	}
}

// TestTimeString prints seconds with millisecond precision, negative times
// with their sign.
func TestTimeString(t *testing.T) {
	for _, c := range []struct {
		t    Time
		want string
	}{{0, "t=0.000s"}, {AtMs(1250), "t=1.250s"}, {Time(999), "t=0.000s"}, {AtMs(61_005), "t=61.005s"},
		{-AtMs(1250), "t=-1.250s"}, {-Time(1), "t=-0.000s"}} {
		if got := c.t.String(); got != c.want {
			t.Errorf("%d: %q, want %q", int64(c.t), got, c.want)
		}
	}
}

// TestSchedulerForeignTimers: the zero Timer and a timer naming a slot this
// scheduler never had are not pending and cannot be cancelled; PeekTime
// shows the earliest event without popping it.
func TestSchedulerForeignTimers(t *testing.T) {
	var s Scheduler[int]
	if _, ok := s.PeekTime(); ok {
		t.Errorf("PeekTime on an empty scheduler")
	}
	s.At(AtMs(5), 1)
	s.At(AtMs(3), 2)
	if at, ok := s.PeekTime(); !ok || at != AtMs(3) || s.Len() != 2 {
		t.Errorf("PeekTime = %v %v, len %d", at, ok, s.Len())
	}
	for _, tm := range []Timer{{}, {slot: 2, gen: 1}, {slot: 1, gen: 7}} {
		if s.Pending(tm) || s.Cancel(tm) {
			t.Errorf("timer %+v is pending here", tm)
		}
	}
	if s.Len() != 2 {
		t.Errorf("len %d after cancelling foreign timers", s.Len())
	}
}

// TestChanceZeroDrawsNothing: a zero or negative probability decides
// without drawing, so a disabled fault never shifts its stream.
func TestChanceZeroDrawsNothing(t *testing.T) {
	a, b := NewStream(5, "faults"), NewStream(5, "faults")
	a.Chance(0)
	a.Chance(-0.5)
	if a.Uint64() != b.Uint64() {
		t.Errorf("Chance(0) drew from the stream")
	}
}

// TestStaleTimerDoesNotNameTheSlotsNextEvent: once an event fired, its
// Timer no longer names anything, even after its slot holds a new event.
func TestStaleTimerDoesNotNameTheSlotsNextEvent(t *testing.T) {
	var s Scheduler[int]
	old := s.At(AtMs(1), 1)
	s.Next()
	fresh := s.At(AtMs(2), 2) // reuses the slot
	if s.Pending(old) || s.Cancel(old) {
		t.Fatalf("a fired timer names the slot's new event")
	}
	if !s.Pending(fresh) || s.Len() != 1 {
		t.Errorf("the new event was lost")
	}
	for i := 0; i < 5; i++ { // and again, with the slot reused many times
		prev := fresh
		s.Next()
		fresh = s.At(s.Now().Add(1), i)
		if s.Pending(prev) {
			t.Fatalf("reuse %d: a fired timer is pending", i)
		}
	}
}

// TestCancelSiftsUp: cancelling an event puts the last event in its place;
// when that one is earlier than its new parent it must move up. Events
// at 13 8 7 2 14 2 6 ms, cancel 13: the rest pop in time order.
func TestCancelSiftsUp(t *testing.T) {
	var s Scheduler[int]
	var timers []Timer
	for _, ms := range []int64{13, 8, 7, 2, 14, 2, 6} {
		timers = append(timers, s.At(AtMs(ms), int(ms)))
	}
	s.Cancel(timers[0])
	var got []int
	for ev, ok := s.Next(); ok; ev, ok = s.Next() {
		got = append(got, ev)
	}
	if fmt.Sprint(got) != "[2 2 6 7 8 14]" {
		t.Errorf("popped %v after cancelling 13", got)
	}
}
