package sim

// Ring keeps the last values pushed into it, up to a fixed number, reusing
// its storage: a run keeps its last events in one for failure reports.
type Ring[T any] struct {
	buf  []T
	next int // index the next value goes to
	full bool
}

// NewRing returns a ring that keeps the last n values (n >= 1).
func NewRing[T any](n int) Ring[T] {
	if n < 1 {
		panic("sim: a ring must keep at least one value")
	}
	return Ring[T]{buf: make([]T, n)}
}

// Push adds v, dropping the oldest value when the ring is full.
func (r *Ring[T]) Push(v T) {
	r.buf[r.next] = v
	r.next++
	if r.next == len(r.buf) {
		r.next, r.full = 0, true
	}
}

// Len returns how many values the ring holds.
func (r *Ring[T]) Len() int {
	if r.full {
		return len(r.buf)
	}
	return r.next
}

// Each calls f with each value held, oldest first.
func (r *Ring[T]) Each(f func(*T)) {
	n := r.Len()
	for i := n; i > 0; i-- {
		f(&r.buf[(r.next-i+len(r.buf))%len(r.buf)])
	}
}

// Clone returns an independent copy of the ring.
func (r *Ring[T]) Clone() Ring[T] {
	return Ring[T]{buf: append([]T(nil), r.buf...), next: r.next, full: r.full}
}
