package explore

// The memory a process running the search takes is bounded by
// --max-memory (Config.MaxMemoryMiB): the Go runtime is limited to it
// less what the process holds outside the runtime's own accounting (the
// binary: RuntimeLimit), and the search keeps its estimate of what it
// holds within searchShare of that limit; the rest is the collector's
// room for garbage (discarded copies, a step's scratch, a continuation's
// run) between two collections. The estimate, not the machine, decides
// what is kept and when the search stops, so the same search keeps and
// drops the same states everywhere; the limit only paces the collector.

// outsideRuntime is what the process holds outside the Go runtime's
// accounting (its binary and libraries): about 14 MiB of resident memory
// for a search of a few states.
const outsideRuntime = 16 << 20

// searchShare is the share of the runtime's limit the estimate may
// take, in quarters.
const searchShare = 3

// RuntimeLimit is the Go runtime's memory limit for a search whose budget
// is budgetMiB (--max-memory), in bytes.
func RuntimeLimit(budgetMiB int) int64 { return int64(budgetMiB)<<20 - outsideRuntime }

// searchBudget is what the search's estimate may reach, in bytes.
func searchBudget(budgetMiB int) int64 { return RuntimeLimit(budgetMiB) / 4 * searchShare }

// memory is the search's estimate of what it keeps, a function of the
// search alone (never of the machine): the visited set and the paths (a
// fixed cost a state), the liveness memo, the sleep sets, the nodes of the
// two levels (nodes), and the states kept whole in the levels (clones).
type memory struct {
	budget int64
	fixed  int64 // visited states, memo, sleep sets, the levels' nodes
	clones int64 // states kept whole
	// nodes is what the nodes of the level being expanded and of the
	// next one cost (nodeBytes each); levelNodes the first part.
	nodes, levelNodes int64
	peak              int64
	over              bool // the fixed part passed the budget
}

// Estimates, measured on tiny-join (with and without faults) and
// local-retention-sweep with heap profiles (TestMemoryEstimate checks
// them): a visited state costs its set entry and its path link (the
// struct and its picks); a memo entry its map slot; a stored sleep-set
// entry its word and the slice's growth. A node in a level costs its slot
// (the slice grows by a quarter), its index entry, its parts' broker
// words and its sleep set (nodeBytes). The visited states' and the
// nodes' figures are 1.9 times those the heap profiles gave (112 and
// 256 bytes): tiny-join with every fault and lost messages at 2048 MiB,
// sampled every 100,000 states (a collection, then the heap in use),
// held 0.76 of the estimate at 100,000 states, mostly states kept whole,
// and 1.01 at 1.3 million, mostly visited states and nodes; fitted, the
// states kept whole hold 0.7 of their estimate, the visited states and
// nodes 1.9 times theirs.
const (
	stateBytes     = 212
	memoBytes      = 48
	sleepWordBytes = 10
)

// nodeBytes is the estimate of n in a level, beside its state.
func nodeBytes(n *node) int64 {
	return 486 + 16*int64(len(n.parts.Brokers)) + 61*int64(len(n.sleep)) + 16*int64(len(n.only))
}

// cloneBytes estimates the heap a state kept whole holds, from the size
// of its encoding: a fixed part (the runner, scheduler, brokers, checker,
// and what the step after the copy reallocated: the scheduler's queue, a
// broker's timers) and a part that grows with the logs and pending
// events. Measured (heap profiles, TestMemoryEstimate): about 10.5 KiB a
// state of tiny-join with every fault (encodings of about 530 bytes) and
// 20 KiB one of local-retention-sweep at 60 s (about 23.5 KiB); batches
// are shared by copies.
func cloneBytes(size int) int64 { return 11<<10 + int64(size)/2 }

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
