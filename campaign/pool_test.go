package campaign

import (
	"context"
	"slices"
	"testing"
)

// TestFoldInSeedOrder: whatever the number of workers, fold sees every
// seed of the shard once, in seed order, with its own result.
func TestFoldInSeedOrder(t *testing.T) {
	for _, sh := range []Shard{Whole, {K: 1, N: 3}} {
		var want []uint64
		for s, ok := sh.First(5, 40); ok; s, ok = sh.Next(s, 40) {
			want = append(want, s)
		}
		for _, workers := range []int{1, 2, 7} {
			var got []uint64
			next, complete := Fold(context.Background(), Jobs{From: 5, Start: 5, To: 40, Shard: sh}, workers, func(seed uint64) uint64 { return seed * 10 },
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

// TestFoldStopsCleanly: once the context is done no new seed starts,
// what was folded is a prefix, and next names the first seed not folded.
func TestFoldStopsCleanly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var got []uint64
	next, complete := Fold(ctx, Jobs{From: 1, Start: 1, To: 1000, Shard: Whole}, 2, func(seed uint64) uint64 { return seed },
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

// TestAllByIndex: All's results land at their index for any number of
// workers.
func TestAllByIndex(t *testing.T) {
	for _, workers := range []int{0, 1, 3} {
		got := All(7, workers, func(i int) int { return i * i })
		if !slices.Equal(got, []int{0, 1, 4, 9, 16, 25, 36}) {
			t.Errorf("%d workers: %v", workers, got)
		}
	}
	if got := All(0, 2, func(i int) int { return i }); len(got) != 0 {
		t.Errorf("no jobs: %v", got)
	}
}
