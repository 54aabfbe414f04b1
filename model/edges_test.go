package model

import (
	"testing"

	"tierfetch/sim"
)

// Edges the decision and replication tests reach on one side only (each was
// a gremlins mutant that lived): the test names the rule it holds.

// eventsOf returns the events of kind k emitted since the outbox was drained.
func eventsOf(c *Cluster, k EventKind) []Event {
	var out []Event
	for _, e := range c.out.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// TestFetchedEventCountsWhatWasAppended: one fetched event per answer that
// appended records: from the first appended offset to the new LEO-1, with
// the bytes appended; none for an answer without records.
func TestFetchedEventCountsWhatWasAppended(t *testing.T) {
	c, req := followerAwaiting(t, tieredFixture(), testConfig()) // b1 holds [200,450)
	sent(c)
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, LeaderEpoch: c.Ctrl.LeaderEpoch, HighWatermark: 450})
	if got := eventsOf(c, EvFetched); len(got) != 0 {
		t.Errorf("an answer without records: fetched events %v, want none", got)
	}
	out := sent(c)
	if len(out) != 1 || out[0].Kind != MsgFetch {
		t.Fatalf("after an empty answer the follower sent %v", out)
	}
	rb := testConfig().RecordBytes
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: c.Ctrl.LeaderEpoch, HighWatermark: 450,
		Batches: []Batch{{Base: 450, Count: 10, Bytes: 10 * rb}, {Base: 460, Count: 5, Bytes: 5 * rb}}})
	got := eventsOf(c, EvFetched)
	if len(got) != 1 || got[0].Offset != 450 || got[0].Last != 464 || got[0].Bytes != 15*rb || got[0].Peer != 0 {
		t.Errorf("two batches [450,460) [460,465) appended: fetched events %+v, want one from 450 to 464 with %d bytes from b0", got, 15*rb)
	}
}

// TestBootstrapEndsWithTheFirstRecords: a bootstrapping follower is
// bootstrapped when an answer brings records, not when one brings none.
func TestBootstrapEndsWithTheFirstRecords(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0}, false)
	if err := c.addReplica(2); err != nil {
		t.Fatal(err)
	}
	b := c.Brokers[2]
	b.Log.TruncateFullyAndStartAt(450, 0) // positioned at the leader's LEO, nothing fetched yet
	var req uint64
	for _, m := range sent(c) {
		if m.Kind == MsgFetch && m.From == 2 {
			req = m.ReqID
		}
	}
	if !b.fetch.bootstrapping || req == 0 {
		t.Fatalf("b2 added: bootstrapping %v, fetch %d", b.fetch.bootstrapping, req)
	}
	c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 2, ReqID: req, LeaderEpoch: c.Ctrl.LeaderEpoch, HighWatermark: 450})
	if !b.fetch.bootstrapping || len(eventsOf(c, EvBootstrapped)) != 0 {
		t.Errorf("an answer without records ended the bootstrap: bootstrapping %v", b.fetch.bootstrapping)
	}
}

// TestRestartWithTieringOffLoadsTheLogOnlyWhenBelowTheLocalStart: a log
// loaded with remote storage disabled starts at its local log start offset;
// a log already starting there is loaded as it is, with no load event.
func TestRestartWithTieringOffLoadsTheLogOnlyWhenBelowTheLocalStart(t *testing.T) {
	for _, tc := range []struct {
		logStart int64
		events   int
	}{{199, 1}, {200, 0}} {
		cfg := testConfig()
		cfg.RemoteStorageEnable = false
		c := tieredFixture().cluster(cfg, KIP, 3, []int{0, 1}, false) // LLSO 200
		if err := c.crash(1); err != nil {
			t.Fatal(err)
		}
		b := c.Brokers[1]
		b.Log.LogStart = tc.logStart
		sent(c)
		if err := c.restart(1); err != nil {
			t.Fatal(err)
		}
		if got := eventsOf(c, EvLoadLog); len(got) != tc.events || b.Log.LogStart != 200 {
			t.Errorf("log start %d, local 200, tiering off: %d load events, log start %d after restart; want %d, 200",
				tc.logStart, len(got), b.Log.LogStart, tc.events)
		}
	}
}

// TestConsumedEventHasNoPeer: a consume is the client's, not a broker's.
func TestConsumedEventHasNoPeer(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	if err := c.consume(0); err != nil {
		t.Fatal(err)
	}
	got := eventsOf(c, EvConsumed)
	if len(got) != 1 || got[0].Peer != -1 || got[0].Broker != 0 || got[0].Offset != 0 || got[0].End != 450 {
		t.Errorf("consume from 0 on b0: %+v, want one event on b0, peer -1, [0, 450)", got)
	}
}

// TestAuxBuildWithoutTheSegmentNamesStartMinusOne: a build that finds no
// remote segment holding start-1 ends saying so, at start-1, and backs off.
func TestAuxBuildWithoutTheSegmentNamesStartMinusOne(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0}, true) // remote [0,299]
	if err := c.addReplica(1); err != nil {
		t.Fatal(err)
	}
	sent(c)
	answered(c, c.Brokers[1])
	c.startAuxBuild(c.Brokers[1], Decision{Kind: DecideBuildAux, Offset: 400, Epoch: 0, LogStart: 0, Path: PathEarliestPendingUpload})
	got := eventsOf(c, EvAuxBuildEnd)
	if len(got) != 1 || got[0].Cause != AuxNoSegment || got[0].Offset != 399 || c.Brokers[1].fetch.phase != phaseBackoff {
		t.Errorf("build up to 400, nothing remote holds 399: %+v, phase %d; want one no-segment end at 399, a backoff", got, c.Brokers[1].fetch.phase)
	}
}

// TestKafka43ProbesTheLeadersEndAfterTheBuild: under Kafka 4.3 a built
// auxiliary state is followed by ListOffsets(-1) (TierStateMachine's lag
// probe), counted like every ListOffsets the follower sends; the KIP text
// fetches at once.
func TestKafka43ProbesTheLeadersEndAfterTheBuild(t *testing.T) {
	for _, p := range []Profile{Kafka43, KIP} {
		c := tieredFixture().cluster(testConfig(), p, 3, []int{0}, true) // remote [0,299]
		if err := c.addReplica(1); err != nil {
			t.Fatal(err)
		}
		sent(c)
		b := c.Brokers[1]
		answered(c, b)
		c.startAuxBuild(b, Decision{Kind: DecideBuildAux, Offset: 300, Epoch: 0, LogStart: 0, Path: PathEarliestPendingUpload})
		reads := remoteOps(c)
		if len(reads) != 1 {
			t.Fatalf("%s: build up to 300: remote ops %v", p.Name(), reads)
		}
		sent(c)
		c.remoteDone(snapshotRead(t, c, reads[0]), false)
		asked := bootOf(c.out.events, 1).listOffsets
		out := sent(c)
		probe := p == Kafka43
		wantCount := 0
		if probe {
			wantCount++
		}
		switch {
		case len(out) != 1:
			t.Errorf("%s: after the build sent %v", p.Name(), out)
		case probe && (out[0].Kind != MsgListOffsets || out[0].Timestamp != ListLatest):
			t.Errorf("%s: after the build sent %v, want ListOffsets(-1)", p.Name(), out[0].String())
		case !probe && out[0].Kind != MsgFetch:
			t.Errorf("%s: after the build sent %v, want a fetch", p.Name(), out[0].String())
		case asked != wantCount:
			t.Errorf("%s: ListOffsets sent %d, want %d", p.Name(), asked, wantCount)
		}
	}
}

// TestLeaderLocalEventsHaveNoPeer: an append and an ISR shrink are the
// leader's own acts, not an exchange with a peer.
func TestLeaderLocalEventsHaveNoPeer(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	sent(c)
	if !c.produce(5, 0) {
		t.Fatal("produce refused")
	}
	app := eventsOf(c, EvAppend)
	if len(app) != 1 || app[0].Peer != -1 || app[0].Broker != 0 || app[0].Offset != 455 {
		t.Errorf("5 records produced on b0 at 450: append events %+v, want one on b0 with no peer, LEO 455", app)
	}
	sent(c)
	c.Now = c.Now.Add(31 * sim.Second) // no follower fetched: both past the lag limit
	c.fire(TimerKey{Broker: 0, Kind: TimerISRExpire})
	shr := eventsOf(c, EvISRShrink)
	if len(shr) != 1 || shr[0].Peer != -1 || shr[0].Broker != 0 {
		t.Errorf("ISR shrink on b0: %+v, want one event on b0 with no peer", shr)
	}
}

// producerLog: producer 7 wrote [90,100) before the local log (it is only in
// snapshots), producer 5 writes [100,350): seq = offset-100. Segments
// [100,199] and [200,299] rolled with their snapshots, [300,349] active.
func producerLog() *Log {
	s0 := []ProducerEntry{{ProducerID: 5, LastSeq: 99, LastOffset: 199}, {ProducerID: 7, LastSeq: 9, LastOffset: 99}}
	s1 := []ProducerEntry{{ProducerID: 5, LastSeq: 199, LastOffset: 299}, {ProducerID: 7, LastSeq: 9, LastOffset: 99}}
	return &Log{LogStart: 100, LocalLogStart: 100, HighWatermark: 350, LogEnd: 350,
		Epochs: []EpochEntry{{Epoch: 0, StartOffset: 100}},
		Segments: []Segment{
			{Base: 100, End: 199, Bytes: 100, Batches: []Batch{{Base: 100, Count: 100, Bytes: 100, ProducerID: 5, Seq: 0}}, Snapshot: s0},
			{Base: 200, End: 299, Bytes: 100, Batches: []Batch{{Base: 200, Count: 100, Bytes: 100, ProducerID: 5, Seq: 100}}, Snapshot: s1},
			{Base: 300, End: 349, Bytes: 50, Batches: []Batch{{Base: 300, Count: 50, Bytes: 50, ProducerID: 5, Seq: 200}}},
		},
		Producers: []ProducerEntry{{ProducerID: 5, LastSeq: 249, LastOffset: 349}, {ProducerID: 7, LastSeq: 9, LastOffset: 99}}}
}

// TestTruncationReloadsProducersFromTheLatestSnapshot: after a truncation
// the producer state is the latest snapshot of a rolled segment below it,
// then the batches after that segment replayed (Kafka reloads from the
// snapshot and the log): producer 7, known only from snapshots, survives.
// A rolled segment without a snapshot is passed over for the one before.
func TestTruncationReloadsProducersFromTheLatestSnapshot(t *testing.T) {
	want := []ProducerEntry{{ProducerID: 5, LastSeq: 149, LastOffset: 249}, {ProducerID: 7, LastSeq: 9, LastOffset: 99}}
	l := producerLog()
	l.TruncateTo(250) // [200,299] becomes active: the snapshot of [100,199]
	if !slicesEqual(l.Producers, want) {
		t.Errorf("truncated to 250: producers %v, want %v", l.Producers, want)
	}
	l = producerLog()
	l.Segments[1].Snapshot = nil
	l.TruncateTo(320) // the segment before the active one has no snapshot
	want = []ProducerEntry{{ProducerID: 5, LastSeq: 219, LastOffset: 319}, {ProducerID: 7, LastSeq: 9, LastOffset: 99}}
	if !slicesEqual(l.Producers, want) {
		t.Errorf("truncated to 320, [200,299] without a snapshot: producers %v, want %v", l.Producers, want)
	}
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
