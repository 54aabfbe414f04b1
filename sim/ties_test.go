package sim

import (
	"testing"

	"pgregory.net/rapid"
)

// TestNextTie: the events at the earliest time can be taken in any order;
// NextTie(0) is Next, later ones keep the rest in order.
func TestNextTie(t *testing.T) {
	var s Scheduler[int]
	for i, at := range []Time{5, 3, 3, 9, 3} {
		s.At(at, i)
	}
	if n := s.Ties(); n != 3 {
		t.Fatalf("Ties = %d, want 3", n)
	}
	c := s.Clone()
	if ev, _ := s.NextTie(2); ev != 4 || s.Now() != 3 {
		t.Fatalf("NextTie(2) = %d at %v, want 4 at 3", ev, s.Now())
	}
	got := drain(&s)
	if want := []int{1, 2, 0, 3}; !equal(got, want) {
		t.Fatalf("rest %v, want %v", got, want)
	}
	// The clone still holds all five, untouched.
	if c.Len() != 5 || c.Ties() != 3 {
		t.Fatalf("clone: %d pending, %d ties", c.Len(), c.Ties())
	}
	if ev, _ := c.NextTie(1); ev != 2 {
		t.Fatalf("clone NextTie(1) = %d, want 2", ev)
	}
	n := 0
	c.Each(func(at Time, ev *int) { n++ })
	if n != 4 {
		t.Fatalf("Each saw %d, want 4", n)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tieRef is the dumb reference for ties: every pending event in a list,
// scanned whole for each question.
type tieRef struct {
	at []Time
	id []int
}

func (r *tieRef) add(at Time, id int) { r.at, r.id = append(r.at, at), append(r.id, id) }

// earliest is the earliest pending time and the ids due then, in
// scheduling order (the list is kept in that order).
func (r *tieRef) earliest() (Time, []int) {
	var first Time
	var ids []int
	for k, at := range r.at {
		switch {
		case len(ids) == 0 || at < first:
			first, ids = at, []int{r.id[k]}
		case at == first:
			ids = append(ids, r.id[k])
		}
	}
	return first, ids
}

func (r *tieRef) remove(id int) bool {
	for k, x := range r.id {
		if x == id {
			r.at, r.id = append(r.at[:k:k], r.at[k+1:]...), append(r.id[:k:k], r.id[k+1:]...)
			return true
		}
	}
	return false
}

// TestTiesMatchReference drives the scheduler (and, now and then, a clone
// that takes its place) and the reference with the same random operations,
// many at the same instant, and compares Ties and every event NextTie pops.
func TestTiesMatchReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s Scheduler[int]
		ref := &tieRef{}
		timers := map[int]Timer{}
		next := 0
		for i := 0; i < rapid.IntRange(1, 300).Draw(t, "ops"); i++ {
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0, 1:
				at := s.Now() + Time(rapid.IntRange(0, 3).Draw(t, "delay"))
				timers[next] = s.At(at, next)
				ref.add(at, next)
				next++
			case 2:
				if next == 0 {
					continue
				}
				id := rapid.IntRange(0, next-1).Draw(t, "cancel")
				if got, want := s.Cancel(timers[id]), ref.remove(id); got != want {
					t.Fatalf("Cancel(%d) = %v, want %v", id, got, want)
				}
			case 3:
				at, ids := ref.earliest()
				if len(ids) == 0 {
					continue
				}
				k := rapid.IntRange(0, len(ids)-1).Draw(t, "tie")
				ev, ok := s.NextTie(k)
				if !ok || ev != ids[k] || s.Now() != at {
					t.Fatalf("NextTie(%d) = %d, %v at %v; want %d at %v (ties %v)", k, ev, ok, s.Now(), ids[k], at, ids)
				}
				ref.remove(ev)
			case 4:
				c := s.Clone()
				s = c
			}
			if !rapid.Bool().Draw(t, "ask") {
				continue // the count must also survive changes nobody asked about
			}
			_, ids := ref.earliest()
			if got := s.Ties(); got != len(ids) {
				t.Fatalf("Ties() = %d, want %d (%v)", got, len(ids), ids)
			}
		}
	})
}
