package scenarios

import (
	"testing"
)

// BenchmarkRun runs a fixed set of generated scenarios with every invariant
// checked after every step and reports simulated events per wall second.
func BenchmarkRun(b *testing.B) {
	var list []*Scenario
	for seed := uint64(1); seed <= 10; seed++ {
		list = append(list, Generate(seed))
	}
	var steps int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, sc := range list {
			steps += Execute(sc, Options{Seed: sc.Seed, Strategy: LastTiered}).Steps
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
}
