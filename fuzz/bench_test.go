package fuzz

import (
	"context"
	"fmt"
	"testing"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
)

// BenchmarkSweep runs the seeds of a sweep (both protocols each) on 1 and 2
// workers of campaign.Fold, the pool simrun sweep runs on, folding the results
// in seed order into sweep totals as the CLI does (without its files), and
// reports seeds per second. The ratio of the two is the parallel speed-up.
func BenchmarkSweep(b *testing.B) {
	const seeds = 40
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				t := NewSweepTotals(harness.Strategies)
				run := func(seed uint64) SeedResult { return SweepSeed(seed, harness.Strategies, model.KIP) }
				_, complete := campaign.Fold(context.Background(), campaign.Jobs{From: 1, Start: 1, To: seeds, Shard: campaign.Whole}, workers, run,
					func(_ uint64, r SeedResult) { t.Add(r) })
				if !complete || t.Seeds != seeds {
					b.Fatalf("folded %d of %d seeds", t.Seeds, seeds)
				}
			}
			b.ReportMetric(float64(seeds*b.N)/b.Elapsed().Seconds(), "seeds/s")
		})
	}
}
