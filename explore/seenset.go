package explore

import "math/bits"

// hashMap maps a visited state's hash to a value (its stored sleep set): an
// open-addressing table probed linearly from the top bits of the hash
// times a Fibonacci constant (a shard's states share their hash modulo the
// shard count, so their low bits alone would crowd). A lookup is one cache
// line or two where a Go map's hashing, directory and group probes cost
// several (its
// lookups in the 710,000 states of omts-local-deleted at depth 40 were
// 4% of the search's CPU). Never iterated, so its order is no output's.
type hashMap struct {
	slots []hashSlot // a power of two long; a zero key is empty
	shift uint       // 64 - log2(len(slots))
	n     int        // keys held, the zero key's entry apart
	// hasZero and zero hold the entry of key 0, which marks an empty slot.
	hasZero bool
	zero    uint64
}

type hashSlot struct{ key, val uint64 }

// fibonacci is 2^64 over the golden ratio: its product with a key spreads
// the key's bits into the top ones, which index the table.
const fibonacci = 0x9E3779B97F4A7C15

// get returns the value of key h and whether h is in m.
func (m *hashMap) get(h uint64) (uint64, bool) {
	if h == 0 {
		return m.zero, m.hasZero
	}
	if len(m.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(m.slots) - 1)
	for i := h * fibonacci >> m.shift; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.key == h {
			return s.val, true
		}
		if s.key == 0 {
			return 0, false
		}
	}
}

// put sets the value of key h to v.
func (m *hashMap) put(h, v uint64) {
	if h == 0 {
		m.zero, m.hasZero = v, true
		return
	}
	if (m.n+1)*4 > len(m.slots)*3 { // at most three quarters full
		m.grow()
	}
	mask := uint64(len(m.slots) - 1)
	for i := h * fibonacci >> m.shift; ; i = (i + 1) & mask {
		s := &m.slots[i]
		if s.key == h {
			s.val = v
			return
		}
		if s.key == 0 {
			s.key, s.val = h, v
			m.n++
			return
		}
	}
}

// grow doubles the table (at least 1024 slots) and puts every entry back.
func (m *hashMap) grow() {
	old := m.slots
	m.slots = make([]hashSlot, max(1024, 2*len(old)))
	m.shift = uint(64 - bits.TrailingZeros(uint(len(m.slots))))
	m.n = 0
	for _, s := range old {
		if s.key != 0 {
			m.put(s.key, s.val)
		}
	}
}
