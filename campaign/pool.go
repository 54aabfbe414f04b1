package campaign

import (
	"context"
	"sync"
)

// Fold runs run(job) for every one of jobs on workers goroutines and hands
// the results to fold, on the calling goroutine, in job order, so what fold
// builds does not depend on the number of workers. Once ctx is done no new
// job starts; jobs already started finish and are folded if every job
// before them was. It returns the first job not folded and whether every
// job was (then next is past the last job).
//
// Every command that runs many independent runs runs them on it: sweep,
// compare, plan. run must be safe to call from several goroutines at once
// (each run of the simulator is).
func Fold[T any](ctx context.Context, jobs Jobs, workers int, run func(job uint64) T, fold func(job uint64, result T)) (next uint64, complete bool) {
	type done struct {
		job uint64
		res T
	}
	workers = max(1, workers)
	todo := make(chan uint64)
	results := make(chan done, workers)
	go func() {
		defer close(todo)
		for j, ok := jobs.First(); ok; j, ok = jobs.Next(j) {
			select {
			case todo <- j:
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
			for j := range todo {
				if ctx.Err() != nil {
					continue // sent as ctx ended: the feeder's select may pick either case
				}
				results <- done{j, run(j)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	pending := map[uint64]T{} // results that finished ahead of next
	next, more := jobs.First()
	for d := range results {
		pending[d.job] = d.res
		for more {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			fold(next, r)
			if n, ok := jobs.Next(next); ok {
				next = n
			} else {
				next, more = jobs.To+1, false
			}
		}
	}
	return next, !more
}

// All runs run(i) for i in 0..n-1 on workers goroutines and returns the
// results by index: the same slice for any number of workers.
func All[T any](n, workers int, run func(i int) T) []T {
	out := make([]T, n)
	if n == 0 {
		return out
	}
	Fold(context.Background(), JobsOf(n, Whole, 0), workers, func(j uint64) T { return run(int(j)) },
		func(j uint64, r T) { out[j] = r })
	return out
}
