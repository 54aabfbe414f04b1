package invariants

import (
	"testing"

	"tierfetch/model"
	"tierfetch/sim"
)

// healthy builds a tiered partition: remote [0,99], leader and follower b1
// holding [50,299] locally, HW 300, HRO 99.
func healthy() *model.Cluster {
	batches := []model.Batch{
		{Base: 0, Count: 50, Bytes: 50, Epoch: 0, Origin: 1},
		{Base: 50, Count: 50, Bytes: 50, Epoch: 0, Origin: 2},
		{Base: 100, Count: 100, Bytes: 100, Epoch: 1, Origin: 3},
		{Base: 200, Count: 100, Bytes: 100, Epoch: 1, Origin: 4},
	}
	lg := model.Log{LogStart: 0, LocalLogStart: 50, HighWatermark: 300, LogEnd: 300,
		Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 100}},
		Segments: []model.Segment{
			{Base: 50, End: 99, Bytes: 50, Batches: batches[1:2], Snapshot: []model.ProducerEntry{}},
			{Base: 100, End: 199, Bytes: 100, Batches: batches[2:3], Snapshot: []model.ProducerEntry{}},
			{Base: 200, End: 299, Bytes: 100, Batches: batches[3:4]},
		}}
	init := model.Initial{Log: lg, LeaderEpoch: 1, HighestRemote: 99, RemoteSegments: []model.RemoteSegment{
		{Base: 0, End: 99, Bytes: 100, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}}, Batches: batches[:2],
			Checkpt: lg.Epochs[:1], Snapshot: []model.ProducerEntry{}},
	}}
	cfg := model.Config{SegmentBytes: 100, RecordBytes: 1, ReplicaFetchMaxBytes: 1000, RemoteStorageEnable: true,
		RLMTaskInterval: sim.Second, ReplicaLagTimeMax: 30 * sim.Second, RetentionCheckInterval: sim.Second,
		ReplicaFetchBackoff: sim.Second, ReplicaSocketTimeout: 30 * sim.Second, LocalRetentionBytes: -2, LocalRetentionMs: -2,
		RetentionBytes: -1, RetentionMs: -1}
	return model.NewCluster(cfg, model.KIP, 3, []int{0, 1}, false, init)
}

func TestHealthyClusterPasses(t *testing.T) {
	c := healthy()
	if v := New(c).Check(c, c.Now); v != nil {
		t.Fatalf("healthy cluster: %v", v)
	}
}

// TestInvariantsHaveTeeth breaks one relation at a time and expects the
// invariant that guards it.
func TestInvariantsHaveTeeth(t *testing.T) {
	cases := []struct {
		want    string
		breakIt func(c *model.Cluster)
	}{
		{OffsetOrder, func(c *model.Cluster) { c.Brokers[1].Log.HighWatermark = 400 }},
		{OffsetOrder, func(c *model.Cluster) { c.Brokers[1].Log.LocalLogStart = 40 }}, // below its first segment
		{ISRMembership, func(c *model.Cluster) { c.Ctrl.ISR = []int{1} }},
		{ISRMembership, func(c *model.Cluster) { c.Ctrl.ISR = []int{0, 1, 2} }},
		{NoHole, func(c *model.Cluster) {
			l := &c.Brokers[0].Log
			l.LogStart = 0
			c.Remote.Segments[0].State = model.DeleteStarted
			c.Remote.Version++
		}},
		{HighestRemote, func(c *model.Cluster) { c.Brokers[0].HighestRemote = 250 }},
		{ReplicaAgreement, func(c *model.Cluster) {
			// New records below both HWs that differ: the leader's is committed.
			c.Brokers[0].Log.Append(model.Batch{Base: 300, Count: 10, Bytes: 10, Epoch: 1, Origin: 5}, 1000)
			c.Brokers[1].Log.Append(model.Batch{Base: 300, Count: 10, Bytes: 10, Epoch: 1, Origin: 77}, 1000)
			c.Brokers[0].Log.HighWatermark = 310
			c.Brokers[1].Log.HighWatermark = 310
		}},
		{EpochLineage, func(c *model.Cluster) {
			c.Brokers[1].Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 150}}
		}},
		{RemoteCommitted, func(c *model.Cluster) {
			c.Remote.Start(model.RemoteSegment{Base: 200, End: 299, Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 200}}})
			c.Brokers[0].Log.HighWatermark = 250
			c.Brokers[1].Log.HighWatermark = 250
		}},
	}
	for _, tc := range cases {
		c := healthy()
		k := New(c)
		if v := k.Check(c, c.Now); v != nil {
			t.Fatalf("before breaking %s: %v", tc.want, v)
		}
		tc.breakIt(c)
		v := k.Check(c, c.Now)
		if v == nil || v.Invariant != tc.want {
			t.Errorf("broke %s, got %v", tc.want, v)
		}
	}
}

// TestCommittedLossOnElection: a new leader that lacks committed records.
func TestCommittedLossOnElection(t *testing.T) {
	c := healthy()
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Brokers[1].Log.TruncateTo(250) // b1 loses committed [250,300) behind the model's back
	c.Brokers[1].Log.HighWatermark = 250
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	if v := k.Check(c, c.Now); v == nil || v.Invariant != NoCommittedLoss {
		t.Fatalf("got %v, want %s", v, NoCommittedLoss)
	}
}

func TestLivenessNeedsEveryReplicaInISR(t *testing.T) {
	c := healthy()
	if v := New(c).CheckLiveness(c); v != nil {
		t.Fatalf("all in ISR: %v", v)
	}
	c.Ctrl.ISR = []int{0}
	if v := New(c).CheckLiveness(c); v == nil || v.Invariant != Liveness {
		t.Fatalf("b1 out of ISR: got %v", v)
	}
}
