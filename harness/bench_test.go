package harness_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// Benchmarks report speed; no test asserts it. docs/contributing/BENCHMARKS.md holds the
// figures and scripts/bench.sh regenerates them.

// BenchmarkRun runs a fixed set of generated scenarios with every invariant
// checked after every step and reports simulated events per wall second.
func BenchmarkRun(b *testing.B) {
	var list []*scenarios.Scenario
	for seed := uint64(1); seed <= 10; seed++ {
		list = append(list, gen.Generate(seed))
	}
	b.ReportAllocs()
	var steps int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, sc := range list {
			steps += harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered}).Steps
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(steps), "ns/event")
}

// gib is a gibibyte (GiB).
const gib = int64(1) << 30

// bigPartition describes a large partition as a fixture of full 1 GiB
// segments (Kafka's default segment.bytes, 1 KiB records): the oldest are in
// remote storage, the newest on the leader's disk, a few of the newest not
// uploaded yet.
type bigPartition struct {
	segments      int   // full segments in the log
	localSegments int   // the newest segments still on the leader's disk
	pending       int   // the newest segments not uploaded yet
	localRetain   int64 // local.retention.bytes (-2: same as retention.bytes)
	recordBytes   int64 // 0: 1 KiB
	replicas      []int // in sync at time 0; the first leads
	joiner        int   // the broker add_replica adds
	joinMs        int64
	produceBps    int64 // produce rate, bytes per second (0: none)
	durationMs    int64
	healMs        int64
}

// scenario builds the scenario, validated as a scenario file would be.
func (p bigPartition) scenario(name string) *scenarios.Scenario {
	sc := &scenarios.Scenario{Name: name, Seed: 1, Brokers: 3, Replicas: p.replicas, Config: scenarios.DefaultConfig(),
		DurationMs: p.durationMs, HealMs: p.healMs}
	c := &sc.Config
	c.RemoteStorageEnable = true
	c.LocalRetentionBytes = p.localRetain
	if p.recordBytes > 0 {
		c.RecordBytes = p.recordBytes
	}
	segRecords := c.SegmentBytes / c.RecordBytes
	in := &scenarios.Initial{HighestRemoteOffset: -1}
	for i := 0; i < p.segments; i++ {
		s := scenarios.SegmentSpec{BaseOffset: int64(i) * segRecords, EndOffset: int64(i+1)*segRecords - 1}
		if i < p.segments-p.pending {
			in.RemoteSegments = append(in.RemoteSegments, s)
			in.HighestRemoteOffset = s.EndOffset
		}
		if i >= p.segments-p.localSegments {
			in.LocalSegments = append(in.LocalSegments, s)
		}
	}
	leo := int64(p.segments) * segRecords
	in.LocalSegments = append(in.LocalSegments, scenarios.SegmentSpec{BaseOffset: leo, EndOffset: leo - 1})
	in.HighWatermark = leo
	sc.Initial = in
	if p.produceBps > 0 {
		sc.Events = append(sc.Events, scenarios.Event{Type: scenarios.EventProduce, Records: p.produceBps / c.RecordBytes * (p.durationMs / 1000), OverMs: p.durationMs})
	}
	joiner := p.joiner
	sc.Events = append(sc.Events, scenarios.Event{AtMs: p.joinMs, Type: scenarios.EventAddReplica, Broker: &joiner})
	if err := sc.Validate(); err != nil {
		panic(fmt.Sprintf("benchmark scenario %s is invalid: %v", name, err))
	}
	sc.Normalize()
	return sc
}

// realistic is the time-acceleration workload: 3 brokers, b0 and b1 in sync
// on a 1 TiB partition (1 GiB segments, 100 GiB kept locally, the last 4
// segments not uploaded yet), 10 MiB/s produced for an hour, b2 added
// after 10 minutes; Kafka's default fetch sizes (replica.fetch.max.bytes
// 1 MiB) and replication at 100 MiB/s.
func realistic() *scenarios.Scenario {
	return bigPartition{segments: 1024, localSegments: 100, pending: 4, localRetain: 100 * gib,
		replicas: []int{0, 1}, joiner: 2, joinMs: 10 * 60_000, produceBps: 10 << 20,
		durationMs: 3_600_000, healMs: 60_000}.scenario("bench-realistic-1tib")
}

// BenchmarkTimeAcceleration runs the realistic workload under each protocol
// and reports simulated seconds per wall second (the acceleration), with
// every invariant checked after every step.
func BenchmarkTimeAcceleration(b *testing.B) {
	sc := realistic()
	for _, st := range harness.Strategies {
		b.Run("strategy="+string(st), func(b *testing.B) {
			b.ReportAllocs()
			var simMs, steps int64
			for i := 0; i < b.N; i++ {
				r := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st})
				if r.Outcome != harness.OutcomeOK || !r.Replicas[2].CaughtUp {
					b.Fatalf("%s: %s %v, b2 caught up %v", st, r.Outcome, r.Violation, r.Replicas[2].CaughtUp)
				}
				simMs += r.SimMs
				steps += r.Steps
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(simMs)/1000/sec, "sim-s/s")
			b.ReportMetric(float64(steps)/sec, "events/s")
			b.ReportMetric(float64(steps)/float64(b.N), "events/run")
		})
	}
}

// huge is the memory workload: a partition of the given number of 1 GiB
// segments, every segment but the last 4 in remote storage, the newest tenth
// still on the leader's disk (local retention keeps them). b1 is added at
// once; the run lasts until it has long caught up: a KIP-405 follower copies
// the tenth on disk (1 TiB of a 10 TiB partition), a KIP-1023 one the 4
// segments not uploaded, after rebuilding the auxiliary state.
func huge(segments int, recordBytes int64) *scenarios.Scenario {
	local := segments / 10
	return bigPartition{segments: segments, localSegments: local, pending: 4, localRetain: int64(local) * gib,
		recordBytes: recordBytes, replicas: []int{0}, joiner: 1, durationMs: 8 * 3_600_000, healMs: 60_000,
	}.scenario(fmt.Sprintf("bench-%dseg-%dB", segments, recordBytes))
}

// BenchmarkBootstrapMemory bootstraps a follower of a 1 TiB and a 10 TiB
// partition under each protocol, and of the 1 TiB one again with records a
// tenth the size (ten times as many records in the same segments), and
// reports the heap: its peak during the run (sampled every 4096 steps), what
// stays live with the run's cluster once it is over, and the segments and
// batches the cluster holds. Memory must grow with segments and batches,
// never with records or fetches.
func BenchmarkBootstrapMemory(b *testing.B) {
	for _, c := range []struct {
		name        string
		segments    int
		recordBytes int64
	}{{"1TiB", 1024, 1024}, {"1TiB-100B-records", 1024, 100}, {"10TiB", 10240, 1024}} {
		sc := huge(c.segments, c.recordBytes)
		for _, st := range harness.Strategies {
			b.Run(fmt.Sprintf("size=%s/strategy=%s", c.name, st), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					benchBootstrapMemory(b, sc, st)
				}
			})
		}
	}
}

func benchBootstrapMemory(b *testing.B, sc *scenarios.Scenario, st harness.Strategy) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak := base
	r, runPeak := runSampled(b, sc, st)
	peak = max(peak, runPeak)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	live := ms.HeapAlloc
	segs, batches := clusterSize(r.Cluster)
	runtime.KeepAlive(r)
	b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(live-base)/(1<<20), "live-MiB")
	b.ReportMetric(float64(segs), "segments")
	b.ReportMetric(float64(batches), "batches")
	b.ReportMetric(float64(r.Replicas[1].BytesFromLeader)/float64(gib), "GiB-copied")
	b.ReportMetric(float64(r.Steps), "events")
}

// clusterSize counts the segments and batches a cluster holds, local on
// every broker and remote.
func clusterSize(c *model.Cluster) (segments, batches int) {
	for _, br := range c.Brokers {
		for _, s := range br.Log.Segments {
			segments++
			batches += len(s.Batches)
		}
	}
	for _, s := range c.Remote.Segments {
		segments++
		batches += len(s.Batches)
	}
	return segments, batches
}

// segmentsFixture is the per-segment scaling workload: a partition of n full
// 1 GiB segments, all but the newest 4 in remote storage, the newest 10 on
// the leader's disk, and an empty follower added at once. The follower's
// work is the same at every n (it copies the local tail, or rebuilds the
// auxiliary state and copies what is not uploaded), so what grows with n is
// only what each step costs per segment held: the checker's setup and
// updates, the RLM tasks, retention, and loading the file.
func segmentsFixture(n int) *scenarios.Scenario {
	return bigPartition{segments: n, localSegments: 10, pending: 4, localRetain: 10 * gib,
		replicas: []int{0}, joiner: 1, durationMs: 10 * 60_000, healMs: 60_000,
	}.scenario(fmt.Sprintf("bench-segments-%d", n))
}

// BenchmarkSegments loads the fixture from its scenario file (the explicit
// segment list) and runs it under each protocol, every invariant checked
// after every step, and reports the peak heap (sampled every 4096 steps and
// around loading). Its cost must grow linearly with the segments.
func BenchmarkSegments(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000, 1_000_000} {
		data, err := segmentsFixture(n).Marshal()
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range harness.Strategies {
			b.Run(fmt.Sprintf("segments=%d/strategy=%s", n, st), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					benchSegments(b, data, st)
				}
			})
		}
	}
}

func benchSegments(b *testing.B, data []byte, st harness.Strategy) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak := base
	sc, err := scenarios.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	r, runPeak := runSampled(b, sc, st)
	peak = max(peak, runPeak)
	b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(r.Steps), "events")
	b.ReportMetric(float64(len(data))/(1<<20), "file-MiB")
}

// steady is a partition in a steady state: 3 replicas in sync, 1 MiB/s
// produced for the given hours, 128 MiB segments, 1 GiB kept in all and
// 256 MiB locally: what the brokers and remote storage hold stops growing
// after about 20 minutes.
func steady(hours int64) *scenarios.Scenario {
	sc := &scenarios.Scenario{Name: fmt.Sprintf("bench-steady-%dh", hours), Seed: 1, Brokers: 3, Replicas: []int{0, 1, 2},
		Config: scenarios.DefaultConfig(), DurationMs: hours * 3_600_000, HealMs: 60_000}
	c := &sc.Config
	c.RemoteStorageEnable = true
	c.SegmentBytes = 128 << 20
	c.RetentionBytes = gib
	c.LocalRetentionBytes = 256 << 20
	sc.Events = []scenarios.Event{{Type: scenarios.EventProduce, Records: (1 << 20) / c.RecordBytes * (sc.DurationMs / 1000), OverMs: sc.DurationMs}}
	if err := sc.Validate(); err != nil {
		panic(err)
	}
	sc.Normalize()
	return sc
}

// BenchmarkSteadyMemory runs the steady partition for 1 and for 16
// simulated hours and reports the peak heap (HeapAlloc sampled every 4096
// steps, garbage included: it moves with the collector's pacing) and the
// peak live heap (after a forced collection every 8192 steps): memory must
// follow what is retained, not the simulated time, so the two runs' peaks
// should be about the same.
func BenchmarkSteadyMemory(b *testing.B) {
	for _, hours := range []int64{1, 16} {
		sc := steady(hours)
		b.Run(fmt.Sprintf("hours=%d", hours), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				base := ms.HeapAlloc
				peak, peakLive := base, base
				var n int64
				sample := model.ObserverFunc(func(sim.Time, *model.Event) {
					if n++; n%4096 == 0 {
						if n%8192 == 0 {
							runtime.GC()
							runtime.ReadMemStats(&ms)
							peakLive = max(peakLive, ms.HeapAlloc)
							return
						}
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapAlloc)
					}
				})
				r := harness.Execute(sc, harness.Options{Seed: 1, Strategy: harness.LastTiered, MaxSteps: harness.MaxStepsLimit,
					Observers: []model.Observer{sample}})
				if r.Outcome != harness.OutcomeOK {
					b.Fatalf("%s: %s %v", sc.Name, r.Outcome, r.Violation)
				}
				b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
				b.ReportMetric(float64(peakLive-base)/(1<<20), "peak-live-MiB")
				b.ReportMetric(float64(r.Steps), "events")
			}
		})
	}
}

// runSampled runs sc under st with the heap sampled every 4096 events; b1
// must catch up. It returns the result and the highest heap seen, the end
// of the run included.
func runSampled(b *testing.B, sc *scenarios.Scenario, st harness.Strategy) (*harness.RunResult, uint64) {
	var ms runtime.MemStats
	var peak uint64
	var n int64
	sample := model.ObserverFunc(func(sim.Time, *model.Event) {
		if n++; n%4096 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	})
	r := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{sample}})
	if r.Outcome != harness.OutcomeOK || !r.Replicas[1].CaughtUp {
		b.Fatalf("%s %s: %s %v, b1 caught up %v", sc.Name, st, r.Outcome, r.Violation, r.Replicas[1].CaughtUp)
	}
	runtime.ReadMemStats(&ms)
	return r, max(peak, ms.HeapAlloc)
}

// brokerReplace is issue 21's broker-scale workload at n partitions: 6
// brokers, one compact entry of n partitions of topic "bench", 3 replicas
// each (so b2 holds n/2 of them), 100 MiB segments of 100 KiB records; each
// partition holds 100 segments (10 GiB: 40 TiB at 4,000), segments 0..98 in
// remote storage and the newest 10 (90..99, 1 GiB, the last active and not
// uploaded) on the leader's disk; b2 is replaced by an empty broker at 0.
// The run lasts long enough for the flag-off copy of the local tail to end
// at the default 100 MiB/s per link (n/6 partitions a link, 10 s each):
// 2 s a partition plus 2 minutes.
func brokerReplace(n int) *scenarios.Scenario {
	const segRecords = (100 << 20) / (100 << 10)
	file := fmt.Sprintf(`{
  "name": "bench-broker-replace-%d", "seed": 1, "brokers": 6,
  "config": {"segment_bytes": %d, "record_bytes": %d, "remote_storage_enable": true},
  "partitions": [{"topic": "bench", "count": %d, "replicas": [0, 1, 2], "initial": {
    "high_watermark": %d, "highest_remote_offset": %d,
    "remote_segments": [{"base_offset": 0, "end_offset": %d, "epoch": 0, "count": 99}],
    "local_segments": [{"base_offset": %d, "end_offset": %d, "epoch": 0, "count": 10}]}}],
  "events": [{"at_ms": 0, "type": "replace_broker", "broker": 2}],
  "duration_ms": %d, "heal_ms": 60000
}`, n, 100<<20, 100<<10, n, 100*segRecords, 99*segRecords-1, segRecords-1, 90*segRecords, 91*segRecords-1, int64(n)*2000+120_000)
	sc, err := scenarios.Parse([]byte(file))
	if err != nil {
		panic(fmt.Sprintf("benchmark scenario of %d partitions: %v", n, err))
	}
	if err := harness.CheckRunnable(sc); err != nil {
		panic(fmt.Sprintf("benchmark scenario of %d partitions: %v", n, err))
	}
	return sc
}

// BenchmarkBrokerScale runs issue 21's broker replacement at 1,000 to
// 10,000 partitions under each strategy, every invariant of every
// partition checked after every step, and reports the time per partition,
// the peak heap (sampled every 4096 events) and when the broker was back.
// Its goals: 4,000 partitions in under 60 s and 2 GiB, and 10,000 in at
// most 12 times the time of 1,000; the sizes under 1,000 show how the cost
// grows where the large ones take too long to run, and 20,000 (about 2 GiB
// and 80 s flag off) how it grows past 10,000, where a step's data no
// longer stays in the last-level cache. user-cpu-s is the process's user
// CPU time over a run (garbage collection included), the mean over the
// runs, the figure to read on a shared machine. Run it beside BenchmarkRun
// (scripts/bench.sh) so the two are measured under the same load.
func BenchmarkBrokerScale(b *testing.B) {
	for _, n := range []int{125, 250, 500, 1_000, 2_000, 4_000, 10_000, 20_000} {
		for _, st := range harness.Strategies {
			b.Run(fmt.Sprintf("partitions=%d/strategy=%s", n, st), func(b *testing.B) {
				// Built here, so that a process running one size (-bench
				// with its name) builds only that size's scenario.
				sc := brokerReplace(n)
				// Every run of the partition count is the same run (seed 1):
				// the times and the CPU are the means over b.N, the peak heap
				// the highest, the counts those of any one.
				var sum brokerScalePoint
				for i := 0; i < b.N; i++ {
					pt := benchBrokerScale(b, sc, st)
					sum.wall += pt.wall
					sum.cpu += pt.cpu
					sum.peakMiB = max(sum.peakMiB, pt.peakMiB)
					sum.steps, sum.events, sum.restoredS = pt.steps, pt.events, pt.restoredS
				}
				runs := float64(b.N)
				b.ReportMetric(sum.wall.Seconds()*1e9/runs/float64(n), "ns/partition")
				b.ReportMetric(sum.cpu.Seconds()/runs, "user-cpu-s")
				b.ReportMetric(sum.peakMiB, "peak-heap-MiB")
				b.ReportMetric(float64(sum.steps), "steps")
				b.ReportMetric(float64(sum.events), "events")
				b.ReportMetric(sum.restoredS, "restored-sim-s")
			})
		}
	}
}

// brokerScalePoint is what one run of BenchmarkBrokerScale measured.
type brokerScalePoint struct {
	wall, cpu     time.Duration
	peakMiB       float64
	steps, events int64
	restoredS     float64
}

func benchBrokerScale(b *testing.B, sc *scenarios.Scenario, st harness.Strategy) brokerScalePoint {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	peak := base
	var events int64
	sample := model.ObserverFunc(func(sim.Time, *model.Event) {
		if events++; events%4096 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	})
	start, cpu := time.Now(), userCPU()
	r := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{sample}})
	took, cpuTook := time.Since(start), userCPU()-cpu
	bs := r.BrokerScale
	if r.Outcome != harness.OutcomeOK || bs == nil || !bs.RestoredKnown {
		b.Fatalf("%s %s: %s %v, restored %v", sc.Name, st, r.Outcome, r.Violation, bs != nil && bs.RestoredKnown)
	}
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	return brokerScalePoint{wall: took, cpu: cpuTook, peakMiB: float64(peak-base) / (1 << 20),
		steps: int64(r.Steps), events: events, restoredS: float64(bs.Restored.Ms()) / 1000}
}

// userCPU returns the user CPU time the process has used so far.
func userCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano())
}

// BenchmarkRemoteDeletions lists n remote segments and deletes records
// past all of them at 1 s, each remote deletion taking 1 ms: the whole run (every invariant checked after
// every step), whose n remote deletions each change the segment list. One
// op is one run; ns/deletion must stay flat as n doubles (it grew linearly,
// and the run quadratically, while the checker walked and the remote index
// was rebuilt over the whole list at every change: 12 s at 30,000).
func BenchmarkRemoteDeletions(b *testing.B) {
	for _, n := range []int{10_000, 20_000, 40_000} {
		// A remote operation takes 1 ms: the deletions, one after the
		// other, end within 2 ms each (the first expiration runs at 30 s).
		end := int64(n)*2 + 40_000
		p := bigPartition{segments: n, localSegments: 4, pending: 0, localRetain: 4 * gib, replicas: []int{0}, joiner: 1,
			joinMs: end - 1_000, durationMs: end, healMs: 1_000}
		sc := p.scenario(fmt.Sprintf("bench-deletions-%d", n))
		sc.Config.RemoteFetchMs = [2]int64{1, 1}
		sc.Events = append(sc.Events, scenarios.Event{AtMs: 1_000, Type: scenarios.EventDeleteRecords,
			BeforeOffset: int64(n) * (sc.Config.SegmentBytes / sc.Config.RecordBytes)})
		if err := sc.Validate(); err != nil {
			b.Fatal(err)
		}
		sc.Normalize()
		b.Run(fmt.Sprintf("segments=%d", n), func(b *testing.B) {
			var r *harness.RunResult
			cpu0 := cpuNanos()
			for b.Loop() {
				r = harness.Execute(sc, harness.Options{Strategy: harness.LastTiered})
			}
			if r.Outcome != harness.OutcomeOK || len(r.Cluster.Remote.Segments) != 0 {
				b.Fatalf("%s: %+v, %d remote segments left", r.Outcome, r.Violation, len(r.Cluster.Remote.Segments))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/deletion")
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N)/float64(n), "cpu-ns/deletion")
			b.ReportMetric(float64(r.Steps), "steps")
		})
	}
}

// cpuNanos is the process's CPU time so far (user and system): on a shared
// machine it measures the work, the wall clock the work and the other load.
func cpuNanos() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
