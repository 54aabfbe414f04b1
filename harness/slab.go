package harness

// slab keeps values that scheduled events refer to by a small handle, so
// that the scheduler's slots (free ones included), which a clone copies and
// the heap's pops move, hold 4 bytes instead of a whole message. Freed
// entries are zeroed (no stale batches kept alive) and reused through a
// free list, so a steady run allocates nothing for them.
//
// Handles never reach a state hash, a digest or an output: only the values
// they name do.
type slab[T any] struct {
	items []T
	free  []int32
}

// put stores v and returns its handle.
func (s *slab[T]) put(v T) int32 {
	if n := len(s.free); n > 0 {
		h := s.free[n-1]
		s.free = s.free[:n-1]
		s.items[h] = v
		return h
	}
	s.items = append(s.items, v)
	return int32(len(s.items) - 1)
}

// take returns the value h names and frees h.
func (s *slab[T]) take(h int32) T {
	var zero T
	v := s.items[h]
	s.items[h] = zero
	s.free = append(s.free, h)
	return v
}

// release frees h: the value it named is zeroed.
func (s *slab[T]) release(h int32) {
	var zero T
	s.items[h] = zero
	s.free = append(s.free, h)
}

// at returns the value h names, which stays stored; the pointer is valid
// until the next put.
func (s *slab[T]) at(h int32) *T { return &s.items[h] }

// clone returns an independent copy: the same handles name equal values.
func (s *slab[T]) clone() slab[T] {
	return slab[T]{items: append([]T(nil), s.items...), free: append([]int32(nil), s.free...)}
}

// cloneInto is clone in dst's arrays (a slab nothing uses any more).
func (s *slab[T]) cloneInto(dst *slab[T]) slab[T] {
	return slab[T]{items: append(dst.items[:0], s.items...), free: append(dst.free[:0], s.free...)}
}
