package model

import (
	"slices"
	"testing"

	"tierfetch/sim"
)

// The controller's exogenous inputs: reassignment, elections, crashes,
// restarts, deleteRecords, consumers. Each refusal says why, as Kafka
// refuses.

func TestAddReplica(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	if len(c.Brokers) != 3 {
		t.Fatalf("%d brokers, want 3", len(c.Brokers))
	}
	if b := c.Brokers[2]; b.Role != RoleNone || b.Leader != -1 || b.HighestRemote != -1 || !b.Up {
		t.Errorf("a broker without a replica: role %s leader %d hro %d up %v", b.Role, b.Leader, b.HighestRemote, b.Up)
	}
	if err := c.addReplica(1); err == nil {
		t.Errorf("b1 added twice")
	}
	if err := c.addReplica(2); err != nil {
		t.Fatal(err)
	}
	b := c.Brokers[2]
	if !c.Ctrl.IsReplica(2) || c.Ctrl.InISR(2) || b.Role != RoleFollower || b.Leader != 0 || !b.Log.Empty() || b.Log.LogEnd != 0 || b.HighestRemote != -1 ||
		!b.fetch.bootstrapping || b.fetch.path != PathFromZero {
		t.Errorf("added b2: %+v", b)
	}
	if out := sent(c); len(out) != 1 || out[0].Kind != MsgFetch || out[0].FetchOffset != 0 || out[0].To != 0 || out[0].LastFetchedEpoch != -1 {
		t.Errorf("a new replica's first request: %v, want fetch(0) to b0 with no epoch", out)
	}
	// A replica added to a crashed broker waits for its restart.
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	if err := c.crash(2); err != nil {
		t.Fatal(err)
	}
	if err := c.addReplica(2); err != nil || c.Brokers[2].Role != RoleNone {
		t.Errorf("added to a crashed broker: %v role %s", err, c.Brokers[2].Role)
	}
	if err := c.restart(2); err != nil || c.Brokers[2].Role != RoleFollower {
		t.Errorf("restarted: %v role %s", err, c.Brokers[2].Role)
	}
}

func TestElectLeader(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 4, []int{0, 1, 2}, false)
	if err := c.electLeader(3); err == nil {
		t.Errorf("elected a broker that is not a replica")
	}
	if err := c.electLeader(0); err == nil {
		t.Errorf("elected the leader again")
	}
	c.Ctrl.ISR = []int{0, 1}
	if err := c.electLeader(2); err == nil {
		t.Errorf("elected b2 outside the ISR with unclean elections off")
	}
	if err := c.crash(1); err != nil {
		t.Fatal(err)
	}
	c.Ctrl.ISR = []int{0, 1}
	if err := c.electLeader(1); err == nil {
		t.Errorf("elected a crashed broker")
	}
	if err := c.restart(1); err != nil {
		t.Fatal(err)
	}
	// Back after a crash, b1 registers with a new incarnation and the
	// controller takes it out of the ISR (handleBrokerUncleanShutdown,
	// ReplicationControlManager.java:1381-1387 @1eb76443): it must catch up
	// again.
	if c.Ctrl.InISR(1) {
		t.Errorf("b1 restarted after a crash and stayed in the ISR %v", c.Ctrl.ISR)
	}
	c.Ctrl.ISR = []int{0, 1}
	sent(c)
	if err := c.electLeader(1); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != 1 || c.Ctrl.LeaderEpoch != 1 || c.Ctrl.Unclean != 0 || c.Brokers[1].Role != RoleLeader ||
		c.Brokers[0].Role != RoleFollower || c.Brokers[0].Leader != 1 || c.Brokers[0].LeaderEpoch != 1 || c.Brokers[2].Leader != 1 {
		t.Errorf("after electing b1: %+v", c.Ctrl)
	}
	if got := c.Brokers[1].Log.Epochs; got[len(got)-1] != (EpochEntry{1, 450}) {
		t.Errorf("new leader's epochs %v, want epoch 1 from its LEO 450", got)
	}
	// Unclean: b2 is outside the ISR; the ISR becomes b2 alone.
	c.Cfg.UncleanLeaderElectionEnable = true
	c.Ctrl.ISR = []int{0, 1}
	if err := c.electLeader(2); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != 2 || !slices.Equal(c.Ctrl.ISR, []int{2}) || c.Ctrl.Unclean != 1 || c.Ctrl.LeaderEpoch != 2 {
		t.Errorf("after an unclean election: %+v", c.Ctrl)
	}
	if e := eventsOf(c, EvUncleanElection); len(e) != 1 || e[0].Broker != 2 {
		t.Errorf("unclean election events %v, want one of b2 (the ISR is it alone)", e)
	}
}

// TestCrashElectsFromTheISR: a crashed leader's successor is the first live
// ISR member in assignment order; with none, the partition goes offline,
// unless unclean elections are on, then the first live replica leads. A
// crash loses HRO and the broker's timers; the log stays.
func TestCrashElectsFromTheISR(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 4, []int{0, 2, 1}, false)
	sent(c)
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	b0 := c.Brokers[0]
	if c.Ctrl.Leader != 2 || c.Ctrl.InISR(0) || b0.Up || b0.Role != RoleNone || b0.Leader != -1 || b0.HighestRemote != -1 || b0.Log.LogEnd != 450 || b0.Incarnation != 1 {
		t.Errorf("after b0 crashed: ctrl %+v, b0 up=%v role=%s hro=%d leo=%d", c.Ctrl, b0.Up, b0.Role, b0.HighestRemote, b0.Log.LogEnd)
	}
	if err := c.crash(0); err == nil {
		t.Errorf("crashed a crashed broker")
	}
	// Every timer of b0 is cancelled: each kind once, the parked fetches'
	// once per peer, and nothing that is not a timer.
	cancelled := map[TimerKey]int{}
	for _, e := range c.out.effects {
		if e.Kind == EffCancelTimer && e.Timer.Broker == 0 {
			cancelled[e.Timer]++
			if e.Timer.Kind >= NumTimerKinds {
				t.Errorf("cancelled timer %+v of no kind", e.Timer)
			}
		}
	}
	for k := TimerKind(0); k < NumTimerKinds; k++ {
		peers := 1
		if k == TimerParkedFetch {
			peers = len(c.Brokers)
		}
		for p := 0; p < peers; p++ {
			if cancelled[TimerKey{Broker: 0, Kind: k, Peer: p}] == 0 {
				t.Errorf("crash left b0's %s timer (peer %d)", k, p)
			}
		}
	}
	if cancelled[TimerKey{Broker: 0, Kind: TimerRLMCopy, Peer: 1}] != 0 {
		t.Errorf("cancelled an RLM timer by peer")
	}
	// b1 crashes and drops out of the ISR; then b2 crashes: offline.
	if err := c.crash(1); err != nil || !slices.Equal(c.Ctrl.ISR, []int{2}) {
		t.Fatalf("follower b1 crashed: %v, ISR %v", err, c.Ctrl.ISR)
	}
	if err := c.crash(2); err != nil {
		t.Fatal(err)
	}
	// With ELR (KIP-966) the fenced last member leaves the ISR for the ELR
	// (min.insync.replicas 1: the ISR is below it only when empty) and is
	// remembered as the last known leader (PartitionChangeBuilder.java:
	// 539-570, 496-507 @1eb76443).
	if c.Ctrl.Leader != -1 || len(c.Ctrl.ISR) != 0 || !slices.Equal(c.Ctrl.ELR, []int{2}) || c.Ctrl.LastKnownLeader != 2 || c.Leader() != nil {
		t.Errorf("last ISR member crashed: %+v, want offline, ISR [], ELR [2], last known leader b2", c.Ctrl)
	}
	if err := c.restart(1); err != nil || c.Ctrl.Leader != -1 {
		t.Errorf("an out-of-sync replica restarted into an offline partition: leader %d", c.Ctrl.Leader)
	}
	// b2 comes back after a crash: it leaves the ELR, and, ISR and ELR
	// empty, is elected as the last known leader (canElectLastKnownLeader,
	// 291-320), which is no unclean election: it held every committed record.
	if err := c.restart(2); err != nil || c.Ctrl.Leader != 2 || c.Brokers[2].Role != RoleLeader ||
		!slices.Equal(c.Ctrl.ISR, []int{2}) || len(c.Ctrl.ELR) != 0 || c.Ctrl.LastKnownLeader != -1 || c.Ctrl.Unclean != 0 {
		t.Errorf("the last ISR member restarted: %+v, want b2 leading, ISR [2], no unclean election", c.Ctrl)
	}
	if err := c.restart(2); err == nil {
		t.Errorf("restarted a live broker")
	}
	// Unclean elections on: the first live replica leads.
	c = tieredFixture().cluster(testConfig(), KIP, 4, []int{0, 2, 1}, false)
	c.Cfg.UncleanLeaderElectionEnable = true
	c.Ctrl.ISR = []int{0}
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != 2 || c.Ctrl.Unclean != 1 {
		t.Errorf("unclean: leader %d unclean %d, want b2 1", c.Ctrl.Leader, c.Ctrl.Unclean)
	}
	// A crashed follower leaves the ISR; a non-replica crash changes nothing.
	c = tieredFixture().cluster(testConfig(), KIP, 4, []int{0, 1}, false)
	if err := c.crash(1); err != nil || !slices.Equal(c.Ctrl.ISR, []int{0}) || c.Ctrl.Leader != 0 {
		t.Errorf("follower crash: %v %+v", err, c.Ctrl)
	}
	if err := c.crash(3); err != nil || !slices.Equal(c.Ctrl.ISR, []int{0}) {
		t.Errorf("non-replica crash: %v %+v", err, c.Ctrl)
	}
	if err := c.restart(3); err != nil || c.Brokers[3].Role != RoleNone {
		t.Errorf("non-replica restart: %v role %s", err, c.Brokers[3].Role)
	}
}

// TestRestartWithTieringOff: a log loaded with remote storage disabled
// starts at its local log start offset.
func TestRestartWithTieringOff(t *testing.T) {
	cfg := testConfig()
	cfg.RemoteMetadataReady = 2 * sim.Second
	c := tieredFixture().cluster(cfg, KIP, 3, []int{0, 1}, false)
	if err := c.crash(1); err != nil {
		t.Fatal(err)
	}
	c.Now = sim.AtMs(5000)
	c.Cfg.RemoteStorageEnable = false
	if err := c.restart(1); err != nil {
		t.Fatal(err)
	}
	if l := c.Brokers[1].Log; l.LogStart != 200 || l.LocalLogStart != 200 {
		t.Errorf("restarted with tiering off: lso=%d llso=%d, want 200 200", l.LogStart, l.LocalLogStart)
	}
	if got := c.Brokers[1].MetadataReadyAt; got != sim.AtMs(7000) {
		t.Errorf("restarted at 5 s: metadata ready at %v, want 7 s", got)
	}
}

// TestDeleteRecords raises the leader's log start offset, at most to HW.
func TestDeleteRecords(t *testing.T) {
	f := tieredFixture()
	f.hw = 400
	c := leaderOf(f, testConfig(), KIP)
	if err := c.deleteRecords(250); err != nil {
		t.Fatal(err)
	}
	if l := c.Brokers[0].Log; l.LogStart != 250 || l.LocalLogStart != 250 {
		t.Errorf("delete before 250: lso=%d llso=%d", l.LogStart, l.LocalLogStart)
	}
	if err := c.deleteRecords(250); err == nil {
		t.Errorf("deleting before the log start again succeeded")
	}
	if err := c.deleteRecords(1000); err != nil || c.Brokers[0].Log.LogStart != 400 {
		t.Errorf("delete before 1000: %v lso=%d, want HW 400", err, c.Brokers[0].Log.LogStart)
	}
	c.Ctrl.Leader = -1
	if err := c.deleteRecords(450); err == nil {
		t.Errorf("deleteRecords on an offline partition")
	}
}

// TestConsume: a consumer reading from o to HW on the leader reads
// [max(o, LSO), LLSO) from remote storage and the rest from the leader's
// disk.
func TestConsume(t *testing.T) {
	f := tieredFixture()
	f.logStart = 50
	c := leaderOf(f, testConfig(), KIP)
	for _, w := range []struct {
		from, at, local, remote int64
	}{{0, 50, 2500, 1500}, {150, 150, 2500, 500}, {200, 200, 2500, 0}, {300, 300, 1500, 0}, {450, 450, 0, 0}} {
		err := c.consume(w.from)
		got := eventsOf(c, EvConsumed)
		if err != nil || len(got) != 1 {
			t.Fatalf("consume from %d: %v, consumed events %v", w.from, err, got)
		}
		if st := got[0]; st.Offset != w.at || st.End != 450 || st.Bytes != w.local || st.RemoteBytes != w.remote || st.Broker != 0 {
			t.Errorf("consume from %d: %+v, want [%d,450) local %d remote %d", w.from, st, w.at, w.local, w.remote)
		}
		sent(c)
	}
	c.Ctrl.Leader = -1
	if err := c.consume(0); err == nil {
		t.Errorf("consumed from an offline partition")
	}
}

// TestISRShrink: the leader drops followers that have not caught up for
// longer than replica.lag.time.max.ms, and keeps one that fetched its LEO.
func TestISRShrink(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	sent(c)
	c.Now = c.Now.Add(20 * sim.Second)
	c.deliver(fetchAt(c, 1, 450, -1)) // caught up at 20 s
	c.Now = c.Now.Add(10 * sim.Second)
	c.fire(TimerKey{Broker: 0, Kind: TimerISRExpire})
	if !slices.Equal(c.Ctrl.ISR, []int{0, 1, 2}) {
		t.Errorf("ISR %v at exactly the lag limit, want all", c.Ctrl.ISR)
	}
	c.Now = c.Now.Add(1)
	c.fire(TimerKey{Broker: 0, Kind: TimerISRExpire})
	if !slices.Equal(c.Ctrl.ISR, []int{0, 1}) {
		t.Errorf("ISR %v past the lag limit, want b2 dropped", c.Ctrl.ISR)
	}
	// Dropping a lagging member lets HW rise to what the rest hold: b2
	// fetched up to 420 only, b1 to 450.
	c = tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	sent(c)
	c.Brokers[0].Log.HighWatermark = 400
	c.deliver(fetchAt(c, 1, 450, -1))
	c.deliver(fetchAt(c, 2, 420, -1))
	if hw := c.Brokers[0].Log.HighWatermark; hw != 420 {
		t.Fatalf("HW %d, want 420", hw)
	}
	c.Now = c.Now.Add(31 * sim.Second)
	c.deliver(fetchAt(c, 1, 450, -1))
	c.fire(TimerKey{Broker: 0, Kind: TimerISRExpire})
	if !slices.Equal(c.Ctrl.ISR, []int{0, 1}) || c.Brokers[0].Log.HighWatermark != 450 {
		t.Errorf("after dropping b2: ISR %v HW %d, want [0 1] and 450", c.Ctrl.ISR, c.Brokers[0].Log.HighWatermark)
	}
	// A follower fetching behind the LEO counts as caught up at its
	// previous fetch if it reached the LEO that fetch saw.
	c.produce(10, 0) // LEO 460
	c.deliver(fetchAt(c, 1, 455, -1))
	c.Now = c.Now.Add(sim.Second)
	c.deliver(fetchAt(c, 1, 460, -1))
	if v := c.Brokers[0].lead.followers[1]; v.lastCaughtUpAt != c.Now {
		t.Errorf("b1 caught up at %v, want now %v", v.lastCaughtUpAt, c.Now)
	}
}

// TestLeaderChangeMidBootstrap: an election while a replica bootstraps
// restarts its bootstrap against the new leader at once.
func TestLeaderChangeMidBootstrap(t *testing.T) {
	h := newHarness(t, tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1}, true))
	h.runFor(sim.Second)
	h.do(func(c *Cluster) {
		if err := c.addReplica(2); err != nil {
			t.Fatal(err)
		}
	})
	h.runFor(2 * sim.Millisecond)
	h.do(func(c *Cluster) {
		if err := c.electLeader(1); err != nil {
			t.Fatal(err)
		}
	})
	if n := countEvents(h.events, EvBecomeFollower, 2, func(e *Event) bool { return e.Peer == 1 }); n != 1 || !h.c.Brokers[2].fetch.bootstrapping {
		t.Errorf("b2 followed b1 %d times, bootstrapping %v; want once, mid-bootstrap", n, h.c.Brokers[2].fetch.bootstrapping)
	}
	h.runFor(10 * sim.Second)
	b := h.c.Brokers[2]
	if retries := bootOf(h.events, 2).retries; !h.c.Ctrl.InISR(2) || retries != 0 || b.Leader != 1 || b.Log.LogEnd != 450 {
		t.Errorf("after the election b2: in ISR %v retries %d leader b%d leo %d\n%v", h.c.Ctrl.InISR(2), retries, b.Leader, b.Log.LogEnd, h)
	}
}

// TestCrashSkipsALiveReplicaOutsideTheISR: the successor of a crashed
// leader is an ISR member even when a live replica outside the ISR comes
// first in assignment order (a clean election; unclean elections off).
// Added after the fourth fresh batch, which TestCrashElectsFromTheISR
// caught only through another test's setup.
func TestCrashSkipsALiveReplicaOutsideTheISR(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	c.Ctrl.ISR = []int{0, 2} // b1 fell behind
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Leader != 2 || c.Ctrl.Unclean != 0 {
		t.Errorf("b0 crashed, ISR [0 2], b1 live but out of sync: leader b%d (unclean %d), want b2 (clean)", c.Ctrl.Leader, c.Ctrl.Unclean)
	}
}
