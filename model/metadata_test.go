package model

import (
	"testing"

	"tierfetch/sim"
)

// The remote-log-metadata lifecycle as Kafka's code keeps it. Citations:
// RemoteLogManager.java @025293cb, RemoteLogLeaderEpochState.java
// @06a2dac2, RemoteLogMetadataCache.java @120e6887, ConsumerTask.java
// @36006682, UnifiedLog.java @004b2276.

// disableWithDelete turns tiering off with remote.log.delete.on.disable.
func disableWithDelete(t *testing.T, c *Cluster) {
	t.Helper()
	for _, kv := range []struct {
		key string
		on  bool
	}{{"remote_log_delete_on_disable", true}, {"remote_storage_enable", false}} {
		if err := c.setConfig(kv.key, kv.on, 0, -1); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHighestOffsetSurvivesDeletion: deleting every remote segment (tiering
// disabled with delete-on-disable: deleteRemoteLogPartition publishes
// DELETE_SEGMENT_STARTED and DELETE_SEGMENT_FINISHED per segment,
// RemoteLogManager.java:578-600, no partition-delete marker) leaves each
// epoch's highest offset (RemoteLogLeaderEpochState.highestLogOffset, raised
// only on COPY_SEGMENT_FINISHED, 127-129, untouched by the DELETE_*
// handlers, 132-144). A broker restarted meanwhile replays the metadata
// topic from its start (ConsumerTask.java:239-245; the topic's retention is
// unlimited by default, TopicBasedRemoteLogMetadataManagerConfig.java:55)
// and finds the same offset: after tiering is enabled again, the new copy
// task seeds its copied offset and HRO from it (maybeUpdateCopiedOffset,
// RemoteLogManager.java:904-913) though no segment holds it.
func TestHighestOffsetSurvivesDeletion(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP) // remote [0..299], epoch 0
	disableWithDelete(t, c)
	if len(c.Remote.Segments) != 0 || c.Remote.HighestOffsetFor(0) != 299 {
		t.Fatalf("after the disable: remote %v, epoch 0's highest %d, want none listed and 299", c.Remote.Segments, c.Remote.HighestOffsetFor(0))
	}
	for _, id := range []int{1, 0} {
		if err := c.crash(id); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []int{0, 1} {
		if err := c.restart(id); err != nil {
			t.Fatal(err)
		}
	}
	b0 := c.Brokers[0]
	if b0.Role != RoleLeader || b0.HighestRemote != -1 {
		t.Fatalf("after restarting both: b0 %s HRO %d, want leader with HRO -1", b0.Role, b0.HighestRemote)
	}
	if err := c.setConfig("remote_storage_enable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if b0.HighestRemote != 299 || b0.lead.copiedOffset != 299 {
		t.Errorf("re-enabled after restarts: HRO %d copied offset %d, want 299 from the replayed metadata", b0.HighestRemote, b0.lead.copiedOffset)
	}
	if ups := uploads(c); len(ups) != 1 || c.Remote.Segments[c.Remote.Find(ups[0].Segment)].Base != 300 {
		t.Errorf("the new copy task uploads %v, want [300..399]: it skips what the stale offset covers", ups)
	}
}

// TestReadinessStaysWithLeadership: a follower whose metadata is ready keeps
// it when it becomes leader: onPartitionLeadershipChanges assigns the
// partition again and ConsumerTask.updateAssignments keeps the initialized
// entry (putIfAbsent, ConsumerTask.java:300). Its copy task runs at once.
func TestReadinessStaysWithLeadership(t *testing.T) {
	cfg := testConfig()
	cfg.RemoteMetadataReady = 5 * sim.Second
	c := leaderOf(tieredFixture(), cfg, KIP)
	c.Now = c.Now.Add(10 * sim.Second)
	if err := c.electLeader(1); err != nil {
		t.Fatal(err)
	}
	b1 := c.Brokers[1]
	if b1.MetadataReadyAt > c.Now {
		t.Fatalf("b1 became leader with its metadata ready at %v, now %v", b1.MetadataReadyAt, c.Now)
	}
	c.fire(TimerKey{Broker: 1, Kind: TimerRLMCopy})
	if len(eventsOf(c, EvRLMCopySkipped)) != 0 || b1.HighestRemote != 299 {
		t.Errorf("the new leader's first copy run: skipped %v, HRO %d, want it to run and seed 299", eventsOf(c, EvRLMCopySkipped), b1.HighestRemote)
	}
}

// TestMetadataLag: with remote_metadata_lag_ms, another broker's cache
// applies a COPY_SEGMENT_FINISHED that long after it was published; the
// publisher's own cache has it at once (its publish waits for its consumer:
// the .get() on the metadata futures, RemoteLogManager.java:1101 and 1151).
func TestMetadataLag(t *testing.T) {
	cfg := testConfig()
	cfg.RemoteMetadataLag = sim.Second
	c := leaderOf(untiered(250), cfg, KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	if len(ups) != 1 {
		t.Fatalf("uploads %v", ups)
	}
	c.remoteDone(ups[0], false)
	b0, b1 := c.Brokers[0], c.Brokers[1]
	if got := c.view(b0).FindHighestRemoteOffset(&b0.Log, false); got != 99 {
		t.Errorf("the publisher's cache: highest %d, want 99", got)
	}
	c.fire(TimerKey{Broker: 1, Kind: TimerRLMFollower})
	if b1.HighestRemote != -1 {
		t.Errorf("b1's follower task saw the copy at once: HRO %d", b1.HighestRemote)
	}
	c.Now = c.Now.Add(sim.Second - 1)
	if got := c.view(b1).FindHighestRemoteOffset(&b1.Log, false); got != -1 {
		t.Errorf("b1's cache 1 µs before the lag: highest %d, want -1", got)
	}
	c.Now = c.Now.Add(1)
	c.fire(TimerKey{Broker: 1, Kind: TimerRLMFollower})
	if b1.HighestRemote != 99 || b1.cache != nil {
		t.Errorf("after the lag: b1 HRO %d (want 99), its cache still lagging: %v", b1.HighestRemote, b1.cache != nil)
	}
}

// TestCopyDisableToggle: remote.log.copy.disable cancels the leader's copy
// task (ConfigHandler → stopLeaderCopyRLMTasks, RemoteLogManager.java:
// 502-516); an upload under way still finishes and publishes
// COPY_SEGMENT_FINISHED (no cancel check before 1151) but, its thread
// interrupted (future.cancel(true), 2230), does not raise HRO. Copying
// enabled again goes through onLeadershipChange: a fresh task
// (copiedOffsetOption empty, 870-875) scheduled with no delay (2183) seeds
// its copied offset from the metadata anew, so it finds the late upload
// instead of copying the segment again.
func TestCopyDisableToggle(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	if len(ups) != 1 {
		t.Fatalf("uploads %v", ups)
	}
	if err := c.setConfig("remote_log_copy_disable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	b0 := c.Brokers[0]
	if b0.lead.copyTask {
		t.Errorf("copying disabled: the copy task still exists")
	}
	c.remoteDone(ups[0], false)
	if i := c.Remote.Find(ups[0].Segment); i < 0 || c.Remote.Segments[i].State != CopyFinished || b0.HighestRemote != 299 {
		t.Fatalf("the cancelled upload: remote %v, HRO %d, want [300..399] finished and HRO still 299", c.Remote.Segments, b0.HighestRemote)
	}
	sent(c)
	if err := c.setConfig("remote_log_copy_disable", false, 0, -1); err != nil {
		t.Fatal(err)
	}
	fresh := false
	for _, e := range c.out.effects {
		if e.Kind == EffSetTimer && e.Timer == (TimerKey{Broker: 0, Kind: TimerRLMCopy}) && e.After == 0 {
			fresh = true
		}
	}
	if !fresh || !b0.lead.copyTask || b0.lead.copySeeded {
		t.Fatalf("copying enabled again: timer at once %v, task %v, seeded %v; want a fresh task due now", fresh, b0.lead.copyTask, b0.lead.copySeeded)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if b0.HighestRemote != 399 || len(uploads(c)) != 0 {
		t.Errorf("the fresh task: HRO %d, uploads %v; want 399 from the metadata and nothing to copy", b0.HighestRemote, uploads(c))
	}
}

// TestLocalLogStartStaysWhileUntiered: with remote storage disabled,
// UnifiedLog.maybeIncrementLogStartOffset raises the log start offset but
// not localLogStartOffset (UnifiedLog.java:1343-1346), which -4 answers
// (fetchOffsetByTimestamp, 1680-1688): after tiering is enabled again
// without a restart, -4 answers the old value; a restart loads the log and
// sets it from the first segment (232-234).
func TestLocalLogStartStaysWhileUntiered(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	disableWithDelete(t, c)
	if err := c.deleteRecords(300); err != nil {
		t.Fatal(err)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	l := &c.Brokers[0].Log
	if l.LogStart != 300 || l.LocalLogStart != 300 || l.LocalLogStartOffset() != 200 {
		t.Fatalf("tiering off, deleteRecords 300: lso %d, first local offset %d, UnifiedLog's llso %d; want 300, 300, 200",
			l.LogStart, l.LocalLogStart, l.LocalLogStartOffset())
	}
	if err := c.setConfig("remote_storage_enable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	ask := Message{Kind: MsgListOffsets, From: 1, To: 0, ReqID: 1, LeaderEpoch: c.Ctrl.LeaderEpoch, Timestamp: ListEarliestLocal}
	if resp := answer(t, c, ask); resp.Offset != 200 {
		t.Errorf("-4 after enabling tiering again: %d, want the stale 200", resp.Offset)
	}
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	if err := c.restart(0); err != nil {
		t.Fatal(err)
	}
	if got := c.Brokers[0].Log.LocalLogStartOffset(); got != 300 {
		t.Errorf("after a restart the log's local log start offset is %d, want 300", got)
	}
}

// TestCopyLagHoldsSegmentsBack: under kafka-trunk, KIP-1241's
// remote.copy.lag.ms holds a segment back until its newest record is that
// old (RLMCopyTask.isEligibleForUpload, RemoteLogManager.java:951-996), so
// EPUO, the HRO + 1, stays lower; kafka-4.3 has no such lag. Either lag at 0
// lets every segment go (959-961), and -1 resolves to the local retention,
// unlimited (-1) meaning 0 (LogConfig.remoteCopyLagMs and remoteCopyLagBytes
// @017deec6): remote.copy.lag.ms alone delays nothing while
// remote.copy.lag.bytes is -1 (the default since KAFKA-20633,
// apache/kafka#22394) and local retention bytes unlimited.
func TestCopyLagHoldsSegmentsBack(t *testing.T) {
	lagged := func(p Profile, lagBytes, localBytes int64) *Cluster {
		cfg := testConfig()
		cfg.RemoteCopyLagMs, cfg.RemoteCopyLagBytes, cfg.LocalRetentionBytes = 60_000, lagBytes, localBytes
		c := leaderOf(untiered(250), cfg, p)
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
		return c
	}
	for _, p := range []Profile{KafkaTrunk, Kafka43} {
		c := lagged(p, -1, 1<<40) // the bytes lag is the local retention, far off
		held := len(uploads(c)) == 0
		if held != (p == KafkaTrunk) {
			t.Errorf("%s, remote.copy.lag.ms 60000, records 0 ms old: held back %v", p.Name(), held)
		}
		if p != KafkaTrunk {
			continue
		}
		hro := c.Brokers[0].HighestRemote
		c.Now = c.Now.Add(60 * sim.Second)
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
		if len(uploads(c)) != 1 || hro != -1 {
			t.Errorf("%s: HRO %d while held; once the records are 60 s old the segment still waits", p.Name(), hro)
		}
		for _, tc := range []struct {
			name                 string
			lagBytes, localBytes int64
		}{{"remote.copy.lag.bytes 0", 0, 1 << 40}, {"remote.copy.lag.bytes -1, local retention unlimited", -1, -1}} {
			if c := lagged(p, tc.lagBytes, tc.localBytes); len(uploads(c)) != 1 {
				t.Errorf("%s, %s: the segment was held back", p.Name(), tc.name)
			}
		}
	}
}
