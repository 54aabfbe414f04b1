package sim

import "testing"

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
	var got []int
	for {
		ev, ok := s.Next()
		if !ok {
			break
		}
		got = append(got, ev)
	}
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
