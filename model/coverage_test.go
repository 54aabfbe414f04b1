package model

import (
	"testing"

	"tierfetch/sim"
)

// Each coverage goal is counted where its path is taken, and not on the
// path next to it.
func TestCoverageGoalsCountTheirPath(t *testing.T) {
	goal := func(c *Cluster, g Goal) int64 { return c.Coverage[g] }

	// Unclean election: only when the elected replica is outside the ISR.
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	if err := c.ElectLeader(1); err != nil || goal(c, GoalUncleanElection) != 0 {
		t.Errorf("clean election counted as unclean: %v", err)
	}
	c.Cfg.UncleanLeaderElectionEnable = true
	c.Ctrl.ISR = []int{1}
	if err := c.ElectLeader(2); err != nil || goal(c, GoalUncleanElection) != 1 {
		t.Errorf("unclean election: %v, counted %d", err, goal(c, GoalUncleanElection))
	}

	// Consume: only a read that reaches below the local log start.
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	if _, err := c.Consume(200); err != nil || goal(c, GoalConsumeRemote) != 0 {
		t.Errorf("a local read counted as remote")
	}
	if _, err := c.Consume(199); err != nil || goal(c, GoalConsumeRemote) != 1 {
		t.Errorf("a read from 199 (LLSO 200) not counted")
	}

	// Remote retention: a deletion by size, not one below the log start.
	cfg := testConfig()
	c = leaderOf(tieredFixture(), cfg, KIP)
	c.Brokers[0].Log.LogStart = 100
	c.Fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	if len(remoteBases(c, DeleteStarted)) != 1 || goal(c, GoalRemoteRetention) != 0 {
		t.Errorf("a segment below the log start counted as retention")
	}
	cfg.RetentionBytes = 0
	c = leaderOf(tieredFixture(), cfg, KIP)
	c.Fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	if goal(c, GoalRemoteRetention) != 3 {
		t.Errorf("three deletions by size counted %d", goal(c, GoalRemoteRetention))
	}

	// A replica added mid-run: after time 0, to a leader holding records.
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	if err := c.AddReplica(2); err != nil || goal(c, GoalReplicaAddedMidRun) != 0 {
		t.Errorf("a replica added at time 0 counted as mid-run")
	}
	c = leaderOf(fixture{hw: 0, hro: -1, local: []segSpec{{0, -1, 0}}}, testConfig(), KIP)
	c.Now = sim.AtMs(5)
	if err := c.AddReplica(2); err != nil || goal(c, GoalReplicaAddedMidRun) != 0 {
		t.Errorf("a replica added to an empty log counted as mid-run")
	}
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	c.Now = sim.AtMs(5)
	if err := c.AddReplica(2); err != nil || goal(c, GoalReplicaAddedMidRun) != 1 {
		t.Errorf("a replica added at 5 ms not counted")
	}

	// Initial epochs above 0.
	if c := leaderOf(tieredFixture(), testConfig(), KIP); goal(c, GoalInitialEpochs) != 0 {
		t.Errorf("an epoch-0 fixture counted")
	}
	if c := leaderOf(epochFixture(), testConfig(), KIP); goal(c, GoalInitialEpochs) != 1 {
		t.Errorf("a fixture with epochs 1 and 2 not counted")
	}

	// An aux build that finds start-1 in the previous epoch.
	for _, w := range []struct {
		end  int64
		want int64
	}{{200, 1}, {199, 0}} {
		c, out, _ := auxFollower(t, epochFixture(), KIP, 200, 0, 2)
		c.Deliver(Message{Kind: MsgEpochEndResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: 2, Epoch: 1, Offset: w.end})
		if goal(c, GoalAuxEpochBeforeStart) != w.want {
			t.Errorf("epoch 1 ends at %d: aux-epoch-before-start counted %d, want %d", w.end, goal(c, GoalAuxEpochBeforeStart), w.want)
		}
	}

	// Failed uploads and aux reads.
	c = leaderOf(untiered(250), testConfig(), KIP)
	c.Fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	c.RemoteDone(ups[0], false)
	if goal(c, GoalUploadFailed) != 0 {
		t.Errorf("a successful upload counted as failed")
	}
	c.RemoteDone(uploads(c)[0], true)
	if goal(c, GoalUploadFailed) != 1 {
		t.Errorf("a failed upload not counted")
	}
	for _, failed := range []bool{false, true} {
		c, _, reads := auxFollower(t, epochFixture(), KIP, 100, 0, 0)
		c.RemoteDone(reads[0], failed)
		if want := map[bool]int64{false: 0, true: 1}[failed]; goal(c, GoalAuxReadFailed) != want {
			t.Errorf("aux read failed=%v: counted %d", failed, goal(c, GoalAuxReadFailed))
		}
	}
	// A follower above the leader's end truncates to it (KIP-405: leader
	// LEO 100 below its own); counted only when the follower holds no
	// records: its LEO 300 is not 0 although its log is empty.
	for _, empty := range []bool{true, false} {
		c, req := followerAwaiting(t, tieredFixture(), testConfig())
		b := c.Brokers[1]
		if empty {
			b.Log.TruncateFullyAndStartAt(300, 0)
		}
		sent(c)
		c.Deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, Err: ErrOffsetOutOfRange})
		ask := sent(c)
		if len(ask) != 1 || ask[0].Kind != MsgListOffsets || ask[0].Timestamp != ListLatest {
			t.Fatalf("empty=%v: after OOR the follower sent %v, want ListOffsets(-1)", empty, ask)
		}
		c.Deliver(Message{Kind: MsgListOffsetsResp, From: 0, To: 1, ReqID: ask[0].ReqID, Timestamp: ListLatest, Offset: 100})
		want := map[bool]int64{false: 0, true: 1}[empty]
		if b.Log.LogEnd != 100 || goal(c, GoalEmptyFollowerAboveLeaderEnd) != want {
			t.Errorf("empty=%v: truncated to %d (want 100), empty-follower-above-leader-end counted %d, want %d",
				empty, b.Log.LogEnd, goal(c, GoalEmptyFollowerAboveLeaderEnd), want)
		}
	}
	for g := Goal(0); g < NumGoals; g++ {
		if g.String() == "" {
			t.Errorf("goal %d has no name", g)
		}
	}
}
