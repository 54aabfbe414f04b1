package fuzz

import (
	"context"
	"sync"
)

// FoldSeeds runs run(seed) for every seed of shard within start..to (start
// at or above from, the sweep's first seed: a resumed sweep starts later) on
// workers goroutines and hands the results to fold, on the calling
// goroutine, in seed order, so what fold builds does not depend on the
// number of workers. Once ctx is done no new seed starts; seeds already
// started finish and are folded if every seed before them was. It returns
// the first seed not folded and whether every seed was.
//
// simrun sweep and BenchmarkSweep both run on it. run must be safe to call
// from several goroutines at once (each run of the simulator is).
func FoldSeeds[T any](ctx context.Context, shard Shard, from, start, to uint64, workers int,
	run func(seed uint64) T, fold func(seed uint64, result T)) (next uint64, complete bool) {
	type done struct {
		seed uint64
		res  T
	}
	seeds := make(chan uint64)
	results := make(chan done, workers)
	go func() {
		defer close(seeds)
		for seed, ok := shard.FirstAt(from, start, to); ok; seed, ok = shard.Next(seed, to) {
			select {
			case seeds <- seed:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				if ctx.Err() != nil {
					continue // sent as ctx ended: the feeder's select may pick either case
				}
				results <- done{seed, run(seed)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	pending := map[uint64]T{} // results that finished ahead of next
	next, more := shard.FirstAt(from, start, to)
	for d := range results {
		pending[d.seed] = d.res
		for more {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			fold(next, r)
			if n, ok := shard.Next(next, to); ok {
				next = n
			} else {
				next, more = to+1, false
			}
		}
	}
	return next, !more
}
