package model

import "testing"

// The harness counts most coverage goals from the events a path emits
// (harness/observe.go); each path emits the event it is counted by, and the
// path next to it does not. The goals no event shows yet are counted here,
// where their path is taken.
func TestCoverageGoalsCountTheirPath(t *testing.T) {
	goal := func(c *Cluster, g Goal) int64 { return c.Coverage[g] }
	n := func(c *Cluster, k EventKind, ok func(e *Event) bool) int { return countEvents(c.out.events, k, -1, ok) }

	// Unclean election: only when the elected replica is outside the ISR.
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	if err := c.electLeader(1); err != nil || n(c, EvUncleanElection, nil) != 0 {
		t.Errorf("clean election emitted as unclean: %v", err)
	}
	c.Cfg.UncleanLeaderElectionEnable = true
	c.Ctrl.ISR = []int{1}
	if err := c.electLeader(2); err != nil || n(c, EvUncleanElection, nil) != 1 {
		t.Errorf("unclean election: %v, emitted %d", err, n(c, EvUncleanElection, nil))
	}

	// Consume: remote bytes only for a read that reaches below the local
	// log start.
	remote := func(e *Event) bool { return e.RemoteBytes > 0 }
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	if err := c.consume(200); err != nil || n(c, EvConsumed, remote) != 0 {
		t.Errorf("a local read read remote bytes")
	}
	if err := c.consume(199); err != nil || n(c, EvConsumed, remote) != 1 {
		t.Errorf("a read from 199 (LLSO 200) read no remote bytes")
	}

	// Remote retention: a deletion by size, not one below the log start.
	cfg := testConfig()
	c = leaderOf(tieredFixture(), cfg, KIP)
	c.Brokers[0].Log.LogStart = 100
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	if len(remoteBases(c, DeleteStarted)) != 1 || goal(c, GoalRemoteRetention) != 0 {
		t.Errorf("a segment below the log start counted as retention")
	}
	cfg.RetentionBytes = 0
	c = leaderOf(tieredFixture(), cfg, KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	if goal(c, GoalRemoteRetention) != 3 {
		t.Errorf("three deletions by size counted %d", goal(c, GoalRemoteRetention))
	}

	// An aux build that finds start-1 in the previous epoch targets it.
	for _, w := range []struct {
		end  int64
		want int32
	}{{200, 1}, {199, 2}} {
		c, out, _ := auxFollower(t, epochFixture(), KIP, 200, 0, 2)
		c.deliver(Message{Kind: MsgEpochEndResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: 2, Epoch: 1, Offset: w.end})
		if a := c.Brokers[1].fetch.aux; a.target != w.want || a.epoch != 2 {
			t.Errorf("epoch 1 ends at %d: the build targets epoch %d (start's %d), want %d", w.end, a.target, a.epoch, w.want)
		}
	}

	// Failed uploads and aux reads.
	failedUpload := func(e *Event) bool { return e.Cause == UploadFailed }
	c = leaderOf(untiered(250), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	c.remoteDone(ups[0], false)
	if n(c, EvUploadEnd, failedUpload) != 0 {
		t.Errorf("a successful upload ended as failed")
	}
	c.remoteDone(uploads(c)[0], true)
	if n(c, EvUploadEnd, failedUpload) != 1 {
		t.Errorf("a failed upload did not end as failed")
	}
	for _, failed := range []bool{false, true} {
		c, _, reads := auxFollower(t, epochFixture(), KIP, 100, 0, 0)
		c.remoteDone(reads[0], failed)
		got := n(c, EvAuxBuildEnd, func(e *Event) bool { return e.Cause == AuxRemoteError })
		if want := map[bool]int{false: 0, true: 1}[failed]; got != want {
			t.Errorf("aux read failed=%v: %d builds ended by a remote error", failed, got)
		}
	}
	// A follower above the leader's end truncates to it (KIP-405: leader
	// LEO 100 below its own), whether or not it holds records: its LEO 300
	// is not 0 although its log is empty (GoalEmptyFollowerAboveLeaderEnd).
	for _, empty := range []bool{true, false} {
		c, req := followerAwaiting(t, tieredFixture(), testConfig())
		b := c.Brokers[1]
		if empty {
			b.Log.TruncateFullyAndStartAt(300, 0)
		}
		sent(c)
		c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, Err: ErrOffsetOutOfRange})
		ask := sent(c)
		if len(ask) != 1 || ask[0].Kind != MsgListOffsets || ask[0].Timestamp != ListLatest {
			t.Fatalf("empty=%v: after OOR the follower sent %v, want ListOffsets(-1)", empty, ask)
		}
		c.deliver(Message{Kind: MsgListOffsetsResp, From: 0, To: 1, ReqID: ask[0].ReqID, Timestamp: ListLatest, Offset: 100})
		truncs := eventsOf(c, EvTruncate)
		if b.Log.LogEnd != 100 || len(truncs) != 1 || truncs[0].Cause != TruncateLeaderEnd || truncs[0].Offset != 100 {
			t.Errorf("empty=%v: truncated to %d (want 100), truncate events %+v", empty, b.Log.LogEnd, truncs)
		}
	}
	for g := Goal(0); g < NumGoals; g++ {
		if g.String() == "" {
			t.Errorf("goal %d has no name", g)
		}
	}
}
