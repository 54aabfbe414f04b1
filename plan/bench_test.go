package plan

import (
	"fmt"
	"runtime"
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// Benchmarks report speed; no test asserts it (docs/contributing/TESTING.md). The plan's
// goal is an answer in under 10 s on two cores for real partitions; the
// step budget (StepBudget) is what keeps it there.

// bigPlan is the input for a partition of segments segments of segBytes
// (1 KiB records): the newest local of them on the leader's disk, all but
// the newest pending uploaded, 3 replicas in sync, 1 MiB/s produced.
func bigPlan(segments, local, pending, segBytes int64) Input {
	rec := segBytes / 1024
	hw := segments * rec
	tp := TopicPartition{"big", 0}
	off := func(t Time, v int64) *OffsetsFile {
		return &OffsetsFile{Name: t.String() + ".txt", Time: t, Answers: map[TopicPartition]OffsetAnswer{tp: {Line: 1, Offset: v}}}
	}
	configs := &ConfigsFile{Name: "configs.txt", Blocks: []*ConfigBlock{{Line: 1, EntityType: "topic", Entity: "big", All: true,
		Entries: map[string]ConfigEntry{
			"remote.storage.enable": {Name: "remote.storage.enable", Value: "true"},
			"segment.bytes":         {Name: "segment.bytes", Value: fmt.Sprint(segBytes)},
			"local.retention.bytes": {Name: "local.retention.bytes", Value: fmt.Sprint(local * segBytes)},
		}}}}
	return Input{Partition: -1, Configs: configs, Env: DefaultEnv(), SeedFrom: DefaultSeedFrom, SeedTo: DefaultSeedTo, Workers: runtime.GOMAXPROCS(0),
		Offsets: []*OffsetsFile{off(TimeEarliest, 0), off(TimeEarliestLocal, (segments-local)*rec),
			off(TimeLatestTiered, (segments-pending)*rec-1), off(TimeLatest, hw)}}
}

// BenchmarkPlan makes whole plans (parse aside): every profile, both
// strategies, seeds 1..5, on GOMAXPROCS workers.
func BenchmarkPlan(b *testing.B) {
	const gib, mib = int64(1) << 30, int64(1) << 20
	cases := []struct {
		name                     string
		segments, local, pending int64
		segBytes                 int64
	}{
		{"10TiB-1GiB-segments-100GiB-local", 10240, 100, 4, gib},
		{"10TiB-1GiB-segments-1TiB-local", 10240, 1024, 4, gib},
		{"10TiB-10MiB-segments-1M-segments-100GiB-local", 1 << 20, 10240, 4, 10 * mib},
	}
	b.Run("reference-BenchmarkRun-workload", benchmarkReference)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var steps, simMs, durMs int64
			for i := 0; i < b.N; i++ {
				r, _, _, err := Make(bigPlan(c.segments, c.local, c.pending, c.segBytes))
				if err != nil {
					b.Fatal(err)
				}
				steps, simMs, durMs = r.Scenario.Steps, r.Profiles[0].Strategies[0].SimulatedMs, r.Scenario.DurationMs
			}
			b.ReportMetric(float64(steps), "events/plan")
			b.ReportMetric(float64(steps)/(b.Elapsed().Seconds()/float64(b.N)), "events/s")
			b.ReportMetric(float64(simMs)/float64(durMs), "flag-off-simulated/duration")
		})
	}
}

// benchmarkReference runs the workload of scenarios' BenchmarkRun (the
// scenarios generated from seeds 1..10, last-tiered, one goroutine), whose
// events a second docs/contributing/BENCHMARKS.md records on an idle machine: the ratio of a
// plan's events a second to it, measured in the same run, carries over.
func benchmarkReference(b *testing.B) {
	var list []*scenarios.Scenario
	for seed := uint64(1); seed <= 10; seed++ {
		list = append(list, gen.Generate(seed))
	}
	var steps int64
	for i := 0; i < b.N; i++ {
		for _, sc := range list {
			steps += harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered}).Steps
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
}
