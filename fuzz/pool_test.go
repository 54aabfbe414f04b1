package fuzz

import (
	"context"
	"slices"
	"testing"
)

// TestFoldSeedsInSeedOrder: whatever the number of workers, fold sees every
// seed of the shard once, in seed order, with its own result.
func TestFoldSeedsInSeedOrder(t *testing.T) {
	for _, sh := range []Shard{WholeSweep, {K: 1, N: 3}} {
		var want []uint64
		for s, ok := sh.First(5, 40); ok; s, ok = sh.Next(s, 40) {
			want = append(want, s)
		}
		for _, workers := range []int{1, 2, 7} {
			var got []uint64
			next, complete := FoldSeeds(context.Background(), sh, 5, 5, 40, workers, func(seed uint64) uint64 { return seed * 10 },
				func(seed, r uint64) {
					if r != seed*10 {
						t.Fatalf("seed %d folded with result %d", seed, r)
					}
					got = append(got, seed)
				})
			if !slices.Equal(got, want) || !complete || next != 41 {
				t.Errorf("shard %s, %d workers: folded %v (complete %v, next %d), want %v", sh, workers, got, complete, next, want)
			}
		}
	}
}

// TestFoldSeedsStopsCleanly: once the context is done no new seed starts,
// what was folded is a prefix, and next names the first seed not folded.
func TestFoldSeedsStopsCleanly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got []uint64
	next, complete := FoldSeeds(ctx, WholeSweep, 1, 1, 1000, 2, func(seed uint64) uint64 { return seed },
		func(seed, _ uint64) {
			got = append(got, seed)
			if seed == 10 {
				cancel()
			}
		})
	if complete || len(got) < 10 || len(got) > 20 || next != got[len(got)-1]+1 {
		t.Fatalf("stopped after %d seeds (complete %v, next %d)", len(got), complete, next)
	}
	for i, s := range got {
		if s != uint64(i+1) {
			t.Fatalf("folded %v: not a prefix", got)
		}
	}
}
