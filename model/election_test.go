package model

import (
	"slices"
	"testing"
)

// electionCluster builds the tiered fixture on three replicas with
// min.insync.replicas minISR, b0 leading, its outbox drained.
func electionCluster(minISR int) *Cluster {
	cfg := testConfig()
	cfg.MinInsyncReplicas = minISR
	c := tieredFixture().cluster(cfg, KIP, 3, []int{0, 1, 2}, false)
	sent(c)
	return c
}

// dropLaggingFollower takes follower f out of the ISR as the leader's
// ISR-expiry check does once it has not caught up for
// replica.lag.time.max.ms.
func dropLaggingFollower(t *testing.T, c *Cluster, f int) {
	t.Helper()
	l := c.Leader()
	for id := range l.lead.followers {
		if id != f {
			l.lead.followers[id].lastCaughtUpAt = c.Now.Add(c.Cfg.ReplicaLagTimeMax)
		}
	}
	c.Now = c.Now.Add(c.Cfg.ReplicaLagTimeMax + 1)
	c.onISRExpire(l)
	if c.Ctrl.InISR(f) {
		t.Fatalf("b%d still in the ISR %v", f, c.Ctrl.ISR)
	}
}

// TestELRElectsCleanlyBelowMinISR: with min.insync.replicas 2, a follower
// that drops out of an ISR already at 2 enters the ELR
// (PartitionChangeBuilder.maybePopulateTargetElr,
// PartitionChangeBuilder.java:539-570 @1eb76443); while the ISR is below 2
// the leader refuses acks=all produce requests (Partition.scala:1384-1387)
// and its high watermark stands still (maybeIncrementLeaderHW, 1174-1178),
// so the ELR member holds every committed record, and when the leader dies
// it is elected cleanly (isValidNewLeader, PartitionChangeBuilder.java:
// 322-326; tryElection, 334-338: it becomes the ISR). With
// min.insync.replicas 1 the same follower is just out of sync, and the
// partition goes offline.
func TestELRElectsCleanlyBelowMinISR(t *testing.T) {
	c := electionCluster(2)
	if err := c.crash(2); err != nil || !slices.Equal(c.Ctrl.ISR, []int{0, 1}) || len(c.Ctrl.ELR) != 0 {
		t.Fatalf("b2 crashed: %v, %+v, want ISR [0 1] (at min.insync.replicas: no ELR)", err, c.Ctrl)
	}
	dropLaggingFollower(t, c, 1)
	if !slices.Equal(c.Ctrl.ISR, []int{0}) || !slices.Equal(c.Ctrl.ELR, []int{1}) || !c.UnderMinISR() {
		t.Fatalf("b1 dropped: %+v, want ISR [0], ELR [1], under min ISR", c.Ctrl)
	}
	hw := c.Brokers[0].Log.HighWatermark
	if c.produce(10, 0) {
		t.Errorf("produce accepted with the ISR below min.insync.replicas")
	}
	c.Brokers[0].Log.Append(Batch{Base: c.Brokers[0].Log.LogEnd, Count: 5, Bytes: 5 * c.Cfg.RecordBytes, Epoch: c.Brokers[0].LeaderEpoch}, c.Cfg.SegmentBytes)
	if c.maybeAdvanceHighWatermark(c.Brokers[0]) || c.Brokers[0].Log.HighWatermark != hw {
		t.Errorf("HW moved from %d to %d under min ISR", hw, c.Brokers[0].Log.HighWatermark)
	}
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != 1 || !slices.Equal(c.Ctrl.ISR, []int{1}) || !slices.Equal(c.Ctrl.ELR, []int{0}) || c.Ctrl.Unclean != 0 {
		t.Errorf("leader b0 died: %+v, want b1 elected cleanly from the ELR, ISR [1], ELR [0]", c.Ctrl)
	}

	c = electionCluster(1)
	if err := c.crash(2); err != nil {
		t.Fatal(err)
	}
	dropLaggingFollower(t, c, 1)
	if len(c.Ctrl.ELR) != 0 || c.UnderMinISR() || !c.produce(10, 0) {
		t.Errorf("min.insync.replicas 1, ISR [0]: %+v, want no ELR and produce accepted", c.Ctrl)
	}
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != -1 || !slices.Equal(c.Ctrl.ELR, []int{0}) {
		t.Errorf("min.insync.replicas 1, leader b0 died: %+v, want offline, ELR [0]", c.Ctrl)
	}
}

// TestELRMemberBackFromCrashCannotLead: a replica that comes back after a
// crash leaves the ELR (handleBrokerUncleanShutdown,
// ReplicationControlManager.java:1381-1387 @1eb76443), so it cannot lead
// while the last known leader is down: the partition stays offline; the
// last known leader leads when it is back, ELR and ISR being empty
// (canElectLastKnownLeader, PartitionChangeBuilder.java:291-320).
func TestELRMemberBackFromCrashCannotLead(t *testing.T) {
	c := electionCluster(2)
	for _, id := range []int{2, 1, 0} {
		if err := c.crash(id); err != nil {
			t.Fatal(err)
		}
	}
	if c.Ctrl.Leader != -1 || len(c.Ctrl.ISR) != 0 || !slices.Equal(c.Ctrl.ELR, []int{0, 1}) || c.Ctrl.LastKnownLeader != 0 {
		t.Fatalf("b2, b1, b0 crashed: %+v, want offline, ISR [], ELR [0 1], last known leader b0", c.Ctrl)
	}
	if err := c.restart(1); err != nil || c.Ctrl.Leader != -1 || !slices.Equal(c.Ctrl.ELR, []int{0}) {
		t.Errorf("b1 back after a crash: %v %+v, want offline, ELR [0]", err, c.Ctrl)
	}
	if err := c.restart(0); err != nil || c.Ctrl.Leader != 0 || !slices.Equal(c.Ctrl.ISR, []int{0}) || len(c.Ctrl.ELR) != 0 || c.Ctrl.Unclean != 0 {
		t.Errorf("b0 back after a crash: %v %+v, want b0 leading as the last known leader", err, c.Ctrl)
	}
	// Unclean elections on change nothing while an ELR member is alive: the
	// ISR and the ELR come first (electAnyLeader, 261-277).
	c = electionCluster(2)
	c.Cfg.UncleanLeaderElectionEnable = true
	if err := c.crash(1); err != nil {
		t.Fatal(err)
	}
	dropLaggingFollower(t, c, 2)
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != 2 || c.Ctrl.Unclean != 0 || !slices.Equal(c.Ctrl.ISR, []int{2}) {
		t.Errorf("unclean on, b2 in the ELR: %+v, want b2 elected cleanly from the ELR", c.Ctrl)
	}
}
