package sim

import (
	"math"
	"math/big"
	"testing"
)

// TestSaturatingArithmetic compares AddSat, SubSat and MulSat with exact
// big-integer arithmetic clamped to int64, around every edge.
func TestSaturatingArithmetic(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 1000, -1000, 1 << 31, math.MaxInt64 / 1000, math.MaxInt64/1000 + 1,
		math.MinInt64 / 1000, math.MinInt64/1000 - 1, math.MaxInt64 / 2, math.MinInt64 / 2,
		math.MaxInt64 - 1, math.MaxInt64, math.MinInt64 + 1, math.MinInt64}
	clamp := func(x *big.Int) int64 {
		switch {
		case x.Cmp(big.NewInt(math.MaxInt64)) > 0:
			return math.MaxInt64
		case x.Cmp(big.NewInt(math.MinInt64)) < 0:
			return math.MinInt64
		}
		return x.Int64()
	}
	for _, a := range edges {
		for _, b := range edges {
			x, y := big.NewInt(a), big.NewInt(b)
			if got, want := AddSat(a, b), clamp(new(big.Int).Add(x, y)); got != want {
				t.Errorf("AddSat(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := SubSat(a, b), clamp(new(big.Int).Sub(x, y)); got != want {
				t.Errorf("SubSat(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := MulSat(a, b), clamp(new(big.Int).Mul(x, y)); got != want {
				t.Errorf("MulSat(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestTimeSaturates: a delay past the end of time is "never", not the past.
func TestTimeSaturates(t *testing.T) {
	if got := Ms(math.MaxInt64); got != MaxDuration {
		t.Errorf("Ms(MaxInt64) = %d, want MaxDuration", got)
	}
	if got := AtMs(math.MaxInt64 / 10); got != MaxTime {
		t.Errorf("AtMs(MaxInt64/10) = %d, want MaxTime", got)
	}
	now := AtMs(1_000_000)
	if got := now.Add(Ms(math.MaxInt64 / 1000)); got != MaxTime || got < now {
		t.Errorf("now + a huge delay = %d, want MaxTime", got)
	}
	if got := MaxTime.Sub(MinTime); got != MaxDuration {
		t.Errorf("MaxTime - MinTime = %d, want MaxDuration", got)
	}
	var s Scheduler[int]
	s.At(now, 1)
	s.Next()
	s.After(Ms(math.MaxInt64), 2) // must not panic "scheduled in the past"
	if at, _ := s.PeekTime(); at != MaxTime {
		t.Errorf("a saturated timer is due at %d, want MaxTime", at)
	}
}
