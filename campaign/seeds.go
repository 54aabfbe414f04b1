package campaign

import (
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// ParseSeed reads a seed strictly: decimal digits only, 0..2^64-1 (no sign,
// space, exponent, fraction, base prefix or underscore).
func ParseSeed(s string) (uint64, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, fmt.Errorf("want a seed in 0..18446744073709551615 (decimal digits), got %q", s)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want a seed in 0..18446744073709551615 (decimal digits), got %q", s)
	}
	return n, nil
}

// ParseSeeds reads a seed range "A..B" (inclusive) or one seed "N",
// strictly (ParseSeed).
func ParseSeeds(s string) (from, to uint64, err error) {
	a, b, isRange := strings.Cut(s, "..")
	from, err1 := ParseSeed(a)
	to = from
	var err2 error
	if isRange {
		to, err2 = ParseSeed(b)
	}
	if err1 != nil || err2 != nil || to < from {
		return 0, 0, fmt.Errorf("want A..B with A <= B (or one seed), got %q", s)
	}
	return from, to, nil
}

// SeedRange yields the seeds from..to in order, to included, without
// wrapping when to is the largest uint64 (an empty range when to < from).
func SeedRange(from, to uint64) iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		if to < from {
			return
		}
		for seed := from; yield(seed) && seed != to; seed++ {
		}
	}
}

// SeedFlag is a strictly parsed seed flag (a pflag.Value): N, and whether
// it was given.
type SeedFlag struct {
	N     uint64
	Given bool
}

func (f *SeedFlag) String() string { return strconv.FormatUint(f.N, 10) }

// Type names the flag's value in help.
func (f *SeedFlag) Type() string { return "seed" }

// Set parses s (ParseSeed).
func (f *SeedFlag) Set(s string) error {
	n, err := ParseSeed(s)
	if err != nil {
		return err
	}
	f.N, f.Given = n, true
	return nil
}
