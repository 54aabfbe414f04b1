package model

import (
	"slices"
	"strings"
	"testing"

	"tierfetch/sim"
)

// Replication between a leader and its followers: what a follower takes
// from a fetch response, when it counts as in sync, how the leader tracks
// caught-up followers and answers late, and what a produce appends.

// TestFollowerIsInSyncOnlyAfterFetchingInTheEpoch: a broker that becomes a
// follower is not in sync in any epoch until its leader answered one of its
// fetches (the checker compares its log with the committed one from then).
func TestFollowerIsInSyncOnlyAfterFetchingInTheEpoch(t *testing.T) {
	h := newHarness(t, tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1}, false))
	h.runFor(sim.Second)
	h.do(func(c *Cluster) {
		if err := c.electLeader(1); err != nil {
			t.Fatal(err)
		}
	})
	if got := h.c.Brokers[0].InSyncEpoch; got == h.c.Ctrl.LeaderEpoch || got >= 0 {
		t.Fatalf("b0 in sync in epoch %d right after becoming a follower in epoch %d", got, h.c.Ctrl.LeaderEpoch)
	}
	h.runFor(sim.Second)
	if got := h.c.Brokers[0].InSyncEpoch; got != 1 {
		t.Errorf("b0 in sync in epoch %d after fetching from b1, want 1", got)
	}
}

// TestStoppedFetcherCancelsItsTimer: a fetcher stopped while backing off
// cancels the backoff; one stopped while waiting for an answer cancels the
// request timeout; an idle one cancels nothing.
func TestStoppedFetcherCancelsItsTimer(t *testing.T) {
	cancels := func(c *Cluster, b int) []TimerKind {
		var out []TimerKind
		for _, e := range c.out.effects {
			if e.Kind == EffCancelTimer && e.Timer.Broker == b && (e.Timer.Kind == TimerFetchBackoff || e.Timer.Kind == TimerRequest) {
				out = append(out, e.Timer.Kind)
			}
		}
		return out
	}
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1}, false)
	sent(c)
	c.stopFetcher(c.Brokers[1]) // waiting for its first fetch's answer
	if got := cancels(c, 1); !slices.Equal(got, []TimerKind{TimerRequest}) {
		t.Errorf("stopped mid-request: cancelled %v", got)
	}
	sent(c)
	c.stopFetcher(c.Brokers[1])
	if got := cancels(c, 1); len(got) != 0 {
		t.Errorf("stopped while idle: cancelled %v", got)
	}
	c.sendFetch(c.Brokers[1])
	c.backoff(c.Brokers[1], RetryTimeout)
	if got := cancels(c, 1); !slices.Equal(got, []TimerKind{TimerRequest}) {
		t.Errorf("a backoff mid-request cancelled %v, want the request timeout", got)
	}
	sent(c)
	c.stopFetcher(c.Brokers[1])
	if got := cancels(c, 1); !slices.Equal(got, []TimerKind{TimerFetchBackoff}) {
		t.Errorf("stopped while backing off: cancelled %v", got)
	}
	sent(c)
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("a backoff from idle (no attempt to fail) did not panic")
			}
		}()
		c.backoff(c.Brokers[1], RetryTimeout)
	}()
}

// TestRetriesCountedWhileBootstrapping: a restarted leader does not know
// HRO until its copy task's first run with metadata ready (5 s); a flag-on
// follower added at once retries after each backoff (1 s) until then: at
// about 0, 1, 2, 3 and 4 s, five retries, each epuo-unknown. At 5 s the
// copy task seeds HRO 299 and uploads [300..399] (done at 5.01 s), so the
// attempt at about 5.05 s builds the auxiliary state up to EPUO 400.
func TestRetriesCountedWhileBootstrapping(t *testing.T) {
	cfg := testConfig()
	cfg.RemoteMetadataReady = 5 * sim.Second
	f := tieredFixture()
	f.hro = -1
	h := newHarness(t, f.cluster(cfg, KIP, 2, []int{0}, true))
	h.do(func(c *Cluster) {
		if err := c.addReplica(1); err != nil {
			t.Fatal(err)
		}
	})
	h.runFor(10 * sim.Second)
	st := bootOf(h.events, 1)
	if last, _ := lastBackoff(h.events, 1); st.retries != 5 || st.byReason[RetryEPUOUnknown] != 5 || last != RetryEPUOUnknown {
		t.Errorf("retries %d by reason %v, last %s; want 5 epuo-unknown", st.retries, st.byReason, last)
	}
	if !st.joined || h.c.Brokers[1].fetch.path != PathEarliestPendingUpload || st.start != 400 {
		t.Errorf("after the retries: caught up %v path %s start %d, want EPUO 400", st.joined, h.c.Brokers[1].fetch.path, st.start)
	}
	// A backoff after the bootstrap is not a bootstrap retry.
	h.do(func(c *Cluster) { c.backoff(c.Brokers[1], RetryTimeout) })
	if last, _ := lastBackoff(h.events, 1); bootOf(h.events, 1).retries != 5 || last != RetryTimeout {
		t.Errorf("after the bootstrap: retries %d, last %s", bootOf(h.events, 1).retries, last)
	}
}

// TestFollowerAppendsFromItsLEO: the records of a response at or above the
// follower's LEO are appended, those below are skipped, a batch straddling
// LEO is cut; HW follows the leader's but never passes the follower's LEO.
func TestFollowerAppendsFromItsLEO(t *testing.T) {
	c, req := followerAwaiting(t, tieredFixture(), testConfig())
	b := c.Brokers[1]
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, LeaderEpoch: 0, HighWatermark: 500, LogStart: 0,
		Batches: []Batch{
			{Base: 440, Count: 10, Bytes: 100, Epoch: 0, Origin: 441}, // wholly below LEO 450
			{Base: 445, Count: 6, Bytes: 60, Epoch: 0, Origin: 441},   // last record at LEO
			{Base: 451, Count: 1, Bytes: 10, Epoch: 0, Origin: 900},   // one record
		}})
	if fetched := bootOf(c.out.events, 1).fetched; b.Log.LogEnd != 452 || b.Log.HighWatermark != 452 || fetched != 20 {
		t.Errorf("after the response: leo=%d hw=%d bytes=%d, want 452 452 20", b.Log.LogEnd, b.Log.HighWatermark, fetched)
	}
	before, _ := b.Log.BatchAt(449)
	if bt, ok := b.Log.BatchAt(450); !ok || bt.Base != 450 || bt.Count != 1 || bt.Origin != 441 || before.Origin != 401 {
		t.Errorf("offsets 449 and 450: %v %v; want the fixture's batch, then the piece of batch 441 at LEO", before, bt)
	}
}

// TestEmptyFollowerStartsInsideABatch: an empty follower at 150 answered
// with a batch [120..169] (the leader's log start lies inside the batch, as
// after deleteRecords) restarts its log at the batch instead of cutting it
// (Kafka's UnexpectedAppendOffsetException path).
func TestEmptyFollowerStartsInsideABatch(t *testing.T) {
	f := fixture{hw: 300, hro: -1, local: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 299, 0}}}
	c := f.cluster(testConfig(), KIP, 3, []int{0}, false)
	if err := c.addReplica(1); err != nil {
		t.Fatal(err)
	}
	b := c.Brokers[1]
	b.Log.TruncateFullyAndStartAt(150, 150)
	c.stopFetcher(b) // its first fetch, from 0, no longer awaited
	c.sendFetch(b)
	req := b.fetch.reqID
	sent(c)
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, HighWatermark: 300, LogStart: 120,
		Batches: []Batch{{Base: 120, Count: 50, Bytes: 500, Epoch: 0, ProducerID: pid, Seq: 120, Origin: 121}}})
	if l, st := b.Log, bootOf(c.out.events, 1); l.LogStart != 120 || l.LocalLogStart != 120 || l.LogEnd != 170 || st.start != 120 || !st.started {
		t.Errorf("lso=%d llso=%d leo=%d start=%d, want the batch's 120..170", l.LogStart, l.LocalLogStart, l.LogEnd, st.start)
	}
}

// TestHWWaitsForFollowersThatNeverFetched: an ISR member that has not
// fetched since the leader took over holds HW where it was.
func TestHWWaitsForFollowersThatNeverFetched(t *testing.T) {
	f := fixture{hw: 0, hro: -1, local: []segSpec{{0, 99, 0}, {100, 149, 0}}}
	c := f.cluster(testConfig(), KIP, 3, []int{0, 1}, false)
	c.produce(10, 0)
	if hw := c.Brokers[0].Log.HighWatermark; hw != 0 {
		t.Errorf("HW %d with b1 in the ISR never having fetched, want 0", hw)
	}
	c.deliver(fetchAt(c, 1, 1, -1))
	if hw := c.Brokers[0].Log.HighWatermark; hw != 1 {
		t.Errorf("HW %d after b1 fetched at 1", hw)
	}
}

// TestISRExpiryPeriod: the leader checks every replica.lag.time.max.ms / 2;
// a follower cut off at 10 s, last caught up then, while a record arrives,
// is dropped at the first check more than 30 s later: at 45 s, not before.
func TestISRExpiryPeriod(t *testing.T) {
	h := newHarness(t, tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1}, false))
	h.runUntil(sim.AtMs(10_000))
	h.cut = []int{1}
	h.produce(1)
	h.runUntil(sim.AtMs(44_999))
	if !h.c.Ctrl.InISR(1) {
		t.Fatalf("b1 dropped before 45 s\n%v", h)
	}
	h.runUntil(sim.AtMs(45_000))
	if h.c.Ctrl.InISR(1) {
		t.Fatalf("b1 still in the ISR at 45 s\n%v", h)
	}
	if got := countEvents(h.events, EvISRShrink, 0, func(e *Event) bool { return slices.Equal(e.Brokers, []int{0}) && slices.Equal(e.Dropped, []int{1}) }); got != 1 {
		t.Errorf("%d shrinks of the ISR to [0] dropping b1, want 1", got)
	}
}

// TestLastCaughtUp follows Kafka's rule: a fetch at the leader's LEO makes
// the follower caught up now; a fetch that reaches the LEO the leader had at
// the follower's previous fetch makes it caught up as of that fetch; one
// record short changes nothing, and so does reaching only the HW of then.
func TestLastCaughtUp(t *testing.T) {
	for _, c := range []struct {
		hw, second int64
		want       sim.Time
	}{{450, 460, sim.AtMs(2000)}, {450, 450, sim.AtMs(1000)}, {450, 449, 0}, {300, 445, 0}} {
		f := tieredFixture()
		f.hw = c.hw
		cl := f.cluster(testConfig(), KIP, 3, []int{0, 1}, false)
		sent(cl)
		cl.Now = sim.AtMs(1000)
		cl.deliver(fetchAt(cl, 1, 440, -1)) // leader LEO 450 at this fetch
		cl.produce(10, 0)                   // LEO 460
		cl.Now = sim.AtMs(2000)
		cl.deliver(fetchAt(cl, 1, c.second, -1))
		if got := cl.Brokers[0].lead.followers[1].lastCaughtUpAt; got != c.want {
			t.Errorf("HW %d, second fetch at %d: caught up at %v, want %v", c.hw, c.second, got, c.want)
		}
	}
}

// TestFetchWithoutWaiting: with replica.fetch.wait.max.ms = 0 a fetch at
// LEO is answered at once, empty.
func TestFetchWithoutWaiting(t *testing.T) {
	cfg := testConfig()
	cfg.ReplicaFetchWaitMax = 0
	c := leaderOf(tieredFixture(), cfg, KIP)
	if resp := answer(t, c, fetchAt(c, 1, 450, -1)); resp.Err != ErrNone || len(resp.Batches) != 0 || resp.HighWatermark != 450 {
		t.Errorf("fetch at LEO: %v", resp.String())
	}
}

// TestLateFetchAnswers: a fetch answered after the log moved (it waited at
// the old LEO) gets what a fresh fetch at that offset would get.
func TestLateFetchAnswers(t *testing.T) {
	for _, tiered := range []bool{true, false} {
		cfg := testConfig()
		cfg.RemoteStorageEnable = tiered
		f := tieredFixture()
		f.logStart = 100
		below := ErrOffsetOutOfRange
		if tiered {
			below = ErrOffsetMovedToTieredStorage
		}
		for _, w := range []struct {
			o       int64
			err     ErrCode
			records bool
		}{{99, ErrOffsetOutOfRange, false}, {100, below, false}, {199, below, false}, {200, ErrNone, true},
			{449, ErrNone, true}, {450, ErrNone, false}, {451, ErrOffsetOutOfRange, false}} {
			c := leaderOf(f, cfg, KIP)
			c.answerFetch(c.Brokers[0], fetchAt(c, 1, w.o, -1))
			out := sent(c)
			if len(out) != 1 || out[0].Err != w.err || (len(out[0].Batches) > 0) != w.records {
				t.Errorf("tiered=%v late answer at %d: %v, want %s records=%v", tiered, w.o, out, w.err, w.records)
			}
		}
	}
}

// TestProduce: a produce appends one batch of records x record bytes in
// the leader's epoch, continuing the chosen producer's sequence, with an
// origin no other batch has (the fixture's go up to 401); nothing happens
// without a leader or records.
func TestProduce(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	l := &c.Brokers[0].Log
	if c.produce(0, 0) || l.LogEnd != 450 {
		t.Errorf("produce of 0 records appended: leo %d", l.LogEnd)
	}
	c.produce(5, 0)
	c.produce(3, 1)
	c.produce(2, 4) // the producers are taken modulo their number: producer 1 again
	if l.LogEnd != 460 {
		t.Fatalf("leo %d after 10 records", l.LogEnd)
	}
	b, _ := l.BatchAt(450)
	if b.Count != 5 || b.Bytes != 50 || b.Epoch != 0 || b.ProducerID != 1 || b.Seq != 0 || b.Origin <= 401 {
		t.Errorf("first batch %v", b)
	}
	b2, _ := l.BatchAt(458)
	if b2.ProducerID != 2 || b2.Seq != 3 || b2.Origin <= b.Origin {
		t.Errorf("third batch %v: producer 2 continues at sequence 3", b2)
	}
	if p, ok := l.Producer(2); !ok || p.LastSeq != 4 || p.LastOffset != 459 {
		t.Errorf("producer 2: %+v", p)
	}
	c.Ctrl.Leader = -1
	if c.produce(5, 0) {
		t.Errorf("produced with no leader")
	}
}

// TestTieredFollowerBecomesLeader: a follower that bootstrapped from EPUO
// keeps that path when it is elected (GoalTieredFollowerBecameLeader), one
// that copied the leader's local log keeps its own.
func TestTieredFollowerBecomesLeader(t *testing.T) {
	for _, lastTiered := range []bool{false, true} {
		h := bootstrap(t, tieredFixture(), testConfig(), KIP, lastTiered, time30s)
		h.do(func(c *Cluster) {
			if err := c.electLeader(1); err != nil {
				t.Fatal(err)
			}
		})
		want := map[bool]Path{false: PathLocalLogStart, true: PathEarliestPendingUpload}[lastTiered]
		if b := h.c.Brokers[1]; b.Role != RoleLeader || b.BootstrapPath() != want {
			t.Errorf("flag=%v: b1 %s with bootstrap path %s, want leader, %s", lastTiered, b.Role, b.BootstrapPath(), want)
		}
	}
}

// TestRequestTimeout: a request with no answer in time backs off
// (timeout). The request timeout is armed only while a request is awaited:
// backing off, idle, or reading remote storage (which has no socket
// timeout) it is not, and its firing then is a programmer error (the
// caller cancelled it).
func TestRequestTimeout(t *testing.T) {
	c, _ := followerAwaiting(t, tieredFixture(), testConfig())
	b := c.Brokers[1]
	c.fire(TimerKey{Broker: 1, Kind: TimerRequest})
	if last, _ := lastBackoff(c.out.events, 1); b.fetch.phase != phaseBackoff || last != RetryTimeout || b.fetch.armed != armedBackoff {
		t.Fatalf("a fetch timed out: phase %s, %s armed, events %v", b.fetch.phase, b.fetch.armed, c.out.events)
	}
	for _, phase := range []fetchPhase{phaseBackoff, phaseIdle, phaseAuxRead} {
		b.fetch.phase, b.fetch.armed = phase, armedNone
		if phase == phaseBackoff {
			b.fetch.armed = armedBackoff
		}
		func() {
			defer func() {
				if p, ok := recover().(string); !ok || !strings.Contains(p, "request timeout fired in phase "+phase.String()) {
					t.Errorf("a request timeout firing in phase %s: panic %v", phase, p)
				}
			}()
			c.fire(TimerKey{Broker: 1, Kind: TimerRequest})
		}()
	}
}

// TestDivergenceBelowTheFollowersCache: a follower whose cache begins at 0
// with epoch 1 is told the leader's epoch 0 ends at 50: its cache says its
// epoch 0 (older than all it has) ends at 0, so it truncates to 0.
func TestDivergenceBelowTheFollowersCache(t *testing.T) {
	f := fixture{hw: 0, hro: -1, epoch: 1, local: []segSpec{{0, 99, 1}, {100, 149, 1}}}
	c, req := followerAwaiting(t, f, testConfig())
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, LeaderEpoch: 1, Diverging: true, Epoch: 0, Offset: 50})
	if leo := c.Brokers[1].Log.LogEnd; leo != 0 {
		t.Errorf("truncated to %d, want 0", leo)
	}
}

// TestLateAnswerDuringBackoffIgnored: an answer to a request that timed out
// arrives while the follower backs off: it is dropped, and the follower
// retries when its backoff ends.
func TestLateAnswerDuringBackoffIgnored(t *testing.T) {
	c, req := followerAwaiting(t, tieredFixture(), testConfig())
	b := c.Brokers[1]
	c.fire(TimerKey{Broker: 1, Kind: TimerRequest})
	sent(c)
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, HighWatermark: 460,
		Batches: []Batch{{Base: 450, Count: 10, Bytes: 100, Epoch: 0, Origin: 900}}})
	if b.Log.LogEnd != 450 || b.fetch.phase != phaseBackoff || len(sent(c)) != 0 {
		t.Errorf("a late answer during the backoff was used: leo %d phase %d", b.Log.LogEnd, b.fetch.phase)
	}
	c.fire(TimerKey{Broker: 1, Kind: TimerFetchBackoff})
	if out := sent(c); len(out) != 1 || out[0].Kind != MsgFetch || out[0].FetchOffset != 450 {
		t.Errorf("after the backoff: %v", out)
	}
}

// TestISRKeepsFollowerAtLeaderLEO: Kafka's isCaughtUp holds for a follower
// whose last fetch offset is the leader's log end offset, however long ago
// it last caught up. A follower cut off at 10 s on an idle partition stays in
// the ISR long past replica.lag.time.max.ms; the first record after that
// leaves it behind, and the next check (every 15 s) drops it.
func TestISRKeepsFollowerAtLeaderLEO(t *testing.T) {
	h := newHarness(t, tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1}, false))
	h.runUntil(sim.AtMs(10_000))
	h.cut = []int{1}
	h.runUntil(sim.AtMs(100_000))
	if !h.c.Ctrl.InISR(1) {
		t.Fatalf("b1, at the leader's LEO, dropped from the ISR of an idle partition\n%v", h)
	}
	h.produce(1)
	h.runUntil(sim.AtMs(100_000 + testConfig().ReplicaLagTimeMax.Ms()/2 + 1))
	if h.c.Ctrl.InISR(1) {
		t.Fatalf("b1 still in the ISR one check after a record left it behind\n%v", h)
	}
}
