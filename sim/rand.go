package sim

import (
	"hash/fnv"
	"math/rand/v2"
)

// Stream is one seeded random stream. Each purpose (workload, faults,
// network, remote storage) draws from its own stream, so drawing more from
// one never shifts another.
type Stream struct {
	r *rand.Rand
}

// NewStream returns the stream named purpose for a run's seed: a PCG source
// seeded with (seed, FNV-1a of purpose).
func NewStream(seed uint64, purpose string) *Stream {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	return &Stream{r: rand.New(rand.NewPCG(seed, h.Sum64()))}
}

// Int64Range returns a uniform value in [lo, hi]; lo > hi is a programmer error.
func (s *Stream) Int64Range(lo, hi int64) int64 {
	if lo > hi {
		panic("sim: Int64Range lo > hi")
	}
	if lo == hi {
		return lo
	}
	return lo + s.r.Int64N(hi-lo+1)
}

// IntN returns a uniform value in [0, n).
func (s *Stream) IntN(n int) int { return s.r.IntN(n) }

// Float64 returns a uniform value in [0, 1).
func (s *Stream) Float64() float64 { return s.r.Float64() }

// Chance reports true with probability p.
func (s *Stream) Chance(p float64) bool {
	if p <= 0 {
		return false
	}
	return s.r.Float64() < p
}

// Uint64 returns a uniform 64-bit value.
func (s *Stream) Uint64() uint64 { return s.r.Uint64() }
