package campaign

import (
	"math"
	"testing"
)

func TestParseShard(t *testing.T) {
	for _, s := range []string{"0/1", "3/4", "999/1000"} {
		sh, err := ParseShard(s)
		if err != nil || sh.String() != s {
			t.Errorf("ParseShard(%q) = %v, %v", s, sh, err)
		}
	}
	for _, s := range []string{"", "1", "4/4", "0/0", "-1/2", "a/b", "1/2/3", "0/1000001"} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q): no error", s)
		}
	}
}

// TestShardsPartitionTheSeeds: for any range and N, the shards' First/Next
// walks visit every seed exactly once, each in the shard Holds names, also
// at the top of the seed space.
func TestShardsPartitionTheSeeds(t *testing.T) {
	ranges := [][2]uint64{{1, 1}, {1, 40}, {41, 120}, {7, 9}, {math.MaxUint64 - 10, math.MaxUint64}, {0, 0}}
	for _, r := range ranges {
		for n := uint64(1); n <= 13; n++ {
			seen := map[uint64]int{}
			for k := uint64(0); k < n; k++ {
				sh := Shard{K: k, N: n}
				for seed, ok := sh.First(r[0], r[1]); ok; seed, ok = sh.Next(seed, r[1]) {
					if !sh.Holds(r[0], seed) || seed < r[0] || seed > r[1] {
						t.Fatalf("%v of %d..%d visits %d", sh, r[0], r[1], seed)
					}
					seen[seed]++
				}
			}
			if want := r[1] - r[0] + 1; uint64(len(seen)) != want {
				t.Fatalf("N=%d over %d..%d: %d seeds visited, want %d", n, r[0], r[1], len(seen), want)
			}
			for seed, c := range seen {
				if c != 1 {
					t.Fatalf("N=%d: seed %d visited %d times", n, seed, c)
				}
			}
		}
	}
}
