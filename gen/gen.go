package gen

import (
	"fmt"

	"tierfetch/scenarios"
	"tierfetch/sim"
)

// Generate turns a seed into a random, valid scenario: cluster size, log and
// segment sizes, retention, produce bursts and a random subset of fault
// kinds, so some seeds stress one thing hard and others mix everything.
// Faults stay within what Kafka claims to survive (clean elections only);
// the fault phase is followed by a healed phase for the liveness check.
func Generate(seed uint64) *scenarios.Scenario {
	g := &generator{r: sim.NewStream(seed, "scenario")}
	sc := &scenarios.Scenario{Name: fmt.Sprintf("gen-%d", seed), Seed: seed, Config: scenarios.DefaultConfig()}
	sc.Description = "generated from seed " + fmt.Sprint(seed)
	sc.Brokers = 3 + g.r.IntN(3)
	sc.Replicas = []int{0}
	for i := 1; i < sc.Brokers && len(sc.Replicas) < 1+g.r.IntN(3); i++ {
		sc.Replicas = append(sc.Replicas, i)
	}
	g.config(sc)
	if g.r.Chance(0.7) {
		sc.Initial = g.initial(sc)
	}
	sc.DurationMs = 60_000 + g.r.Int64Range(0, 240_000)
	sc.HealMs = 180_000
	g.events(sc)
	quiet(sc)
	emptied(sc)
	if err := sc.Validate(); err != nil {
		panic(fmt.Sprintf("generated scenario %d is invalid: %v", seed, err))
	}
	sc.Normalize()
	return sc
}

type generator struct {
	r      *sim.Stream
	faults []scenarios.FaultKind
}

func (g *generator) config(sc *scenarios.Scenario) {
	c := &sc.Config
	c.RecordBytes = 1024
	c.SegmentBytes = c.RecordBytes * g.r.Int64Range(50, 2000)
	c.ReplicaFetchMaxBytes = c.RecordBytes * g.r.Int64Range(16, 1024)
	c.RemoteStorageEnable = g.r.Chance(0.85)
	c.RemoteLogDeleteOnDisable = g.r.Chance(0.5)
	c.RemoteLogManagerTaskIntervalMs = g.r.Int64Range(1_000, 30_000)
	c.LogRetentionCheckIntervalMs = g.r.Int64Range(1_000, 30_000)
	c.RemoteMetadataReadyMs = []int64{0, 0, 1_000, 20_000}[g.r.IntN(4)]
	c.ReplicationBytesPerSec = []int64{1 << 20, 10 << 20, 100 << 20}[g.r.IntN(3)]
	c.RemoteUploadMs = [2]int64{10, g.r.Int64Range(10, 5_000)}
	c.RemoteFetchMs = [2]int64{5, g.r.Int64Range(5, 3_000)}
	if g.r.Chance(0.6) {
		c.LocalRetentionBytes = c.SegmentBytes * g.r.Int64Range(1, 5)
	}
	if g.r.Chance(0.3) {
		c.RetentionBytes = c.SegmentBytes * g.r.Int64Range(5, 20)
	}
	if g.r.Chance(0.2) {
		c.RetentionMs = g.r.Int64Range(30_000, 300_000)
	}
	if g.r.Chance(0.2) {
		c.RemoteErrorRate = 0.1
	}
	c.UncleanLeaderElectionEnable = g.r.Chance(0.15)
}

// initial builds a fixture: remote segments from the log start, local
// segments overlapping or following them, an active segment.
func (g *generator) initial(sc *scenarios.Scenario) *scenarios.Initial {
	segRecords := sc.Config.SegmentBytes / sc.Config.RecordBytes
	in := &scenarios.Initial{LeaderEpoch: int32(g.r.IntN(3)), HighestRemoteOffset: -1}
	nSegs := 1 + g.r.IntN(8)
	tiered := 0
	if sc.Config.RemoteStorageEnable {
		tiered = g.r.IntN(nSegs)
	}
	local := tiered
	if tiered > 0 {
		local = g.r.IntN(tiered + 1) // local segments start at or below the tiered end
	}
	epoch := int32(0)
	for i := 0; i < nSegs; i++ {
		if epoch < in.LeaderEpoch && g.r.Chance(0.3) {
			epoch++
		}
		s := scenarios.SegmentSpec{BaseOffset: int64(i) * segRecords, EndOffset: int64(i+1)*segRecords - 1, Epoch: epoch}
		if i < tiered {
			in.RemoteSegments = append(in.RemoteSegments, s)
		}
		if i >= local {
			in.LocalSegments = append(in.LocalSegments, s)
		}
	}
	leo := int64(nSegs) * segRecords
	in.LocalSegments = append(in.LocalSegments, scenarios.SegmentSpec{BaseOffset: leo, EndOffset: leo - 1, Epoch: epoch})
	in.HighWatermark = leo
	if tiered > 0 && g.r.Chance(0.7) {
		in.HighestRemoteOffset = in.RemoteSegments[tiered-1].EndOffset
	}
	if len(in.RemoteSegments) == 0 && in.LocalSegments[0].BaseOffset > 0 {
		in.LogStartOffset = in.LocalSegments[0].BaseOffset
	}
	return in
}
