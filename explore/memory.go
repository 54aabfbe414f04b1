package explore

// memory is the search's estimate of what it keeps, a function of the
// search alone (never of the machine), so that the same search keeps and
// drops the same states everywhere: the visited set and the paths (a
// fixed cost a state), the liveness memo, the sleep sets, and the states
// kept whole in the levels (cloneBytes each).
type memory struct {
	budget int64
	fixed  int64 // visited states, memo, sleep sets
	clones int64 // states kept whole
	peak   int64
	over   bool // the fixed part passed the budget
}

// Estimates, measured on the named scenarios with runtime.MemStats (see
// TestMemoryEstimate): a visited state costs its set entry, its path link
// and a share of the levels' bookkeeping; a memo entry its map slot.
const (
	stateBytes = 160
	memoBytes  = 48
)

// cloneBytes estimates the heap a copy of a state holds, from the size of
// its encoding: a fixed part (the runner, scheduler, brokers, checker) and
// a part that grows with the logs and pending events. Batches are shared
// by copies, so this is an upper bound.
func cloneBytes(size int) int64 { return 8<<10 + int64(size)/2 }

// keep reports whether a state of b bytes can be kept whole, and counts
// it if so.
func (m *memory) keep(b int64) bool {
	if m.fixed+m.clones+b > m.budget {
		return false
	}
	m.clones += b
	m.note()
	return true
}

// release forgets a kept state of b bytes.
func (m *memory) release(b int64) { m.clones -= b }

// note records the peak.
func (m *memory) note() { m.peak = max(m.peak, m.fixed+m.clones) }
