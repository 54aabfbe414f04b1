package model

import (
	"testing"

	"tierfetch/sim"
)

// fidelityCluster is one leader, b0, holding [0, 3000) in three segments of
// 1000 records (the last active), all committed; remote holds segs.
func fidelityCluster(p Profile, cfg Config, hro int64, segs ...RemoteSegment) *Cluster {
	var lg Log
	lg.LogEnd, lg.HighWatermark = 3000, 3000
	for i := int64(0); i < 3; i++ {
		b := Batch{Base: i * 1000, Count: 1000, Bytes: 1000, Epoch: 0, Origin: uint64(i + 1), TsMs: 0}
		seg := Segment{Base: b.Base, End: b.Last(), Bytes: b.Bytes, Batches: []Batch{b}}
		if i < 2 {
			seg.Snapshot = []ProducerEntry{}
		}
		lg.Segments = append(lg.Segments, seg)
	}
	lg.Epochs = []EpochEntry{{Epoch: 0, StartOffset: 0}}
	return NewCluster(cfg, p, 2, []int{0}, false, Initial{Log: lg, HighestRemote: hro, RemoteSegments: segs})
}

func fidelityConfig() Config {
	return Config{SegmentBytes: 1000, RecordBytes: 1, ReplicaFetchMaxBytes: 1 << 20, RemoteStorageEnable: true,
		RLMTaskInterval: 30 * sim.Second, ReplicaLagTimeMax: 30 * sim.Second, RetentionCheckInterval: 10 * sim.Second,
		ReplicaFetchBackoff: sim.Second, ReplicaSocketTimeout: 30 * sim.Second, LocalRetentionBytes: -2, LocalRetentionMs: -2,
		RetentionBytes: -1, RetentionMs: -1}
}

func remoteSeg(base, end int64, st RemoteState) RemoteSegment {
	return RemoteSegment{Base: base, End: end, Bytes: end - base + 1, State: st, Epochs: []EpochEntry{{Epoch: 0, StartOffset: base}},
		Checkpt: []EpochEntry{{Epoch: 0, StartOffset: 0}}, Snapshot: []ProducerEntry{}}
}

// TestRemoteStatesAsKafkasMetadataCache pins what each remote segment state
// makes visible, as RemoteLogMetadataCache does
// (RemoteLogMetadataCache.java:76-92 @120e6887): every state is listed
// (findLogStartOffset), only a finished copy is readable (the aux-state
// build, reads), and a finished copy raises the highest offset of its epoch
// (findHighestRemoteOffset), which its deletion, started or finished, does
// not lower (RemoteLogLeaderEpochState.java:127-144 @06a2dac2).
func TestRemoteStatesAsKafkasMetadataCache(t *testing.T) {
	for _, tc := range []struct {
		st                       RemoteState
		listed, readable, copied bool
	}{
		{CopyStarted, true, false, false},
		{CopyFinished, true, true, true},
		{DeleteStarted, true, false, true},
	} {
		r := Remote{Segments: []RemoteSegment{remoteSeg(0, 999, tc.st)}}
		r.InitHighest()
		_, listed := r.FirstOffsetFor(0)
		_, readable := r.Lookup(0, 500)
		copied := r.HighestOffsetFor(0) == 999
		if listed != tc.listed || readable != tc.readable || copied != tc.copied {
			t.Errorf("%s: listed %v readable %v counted by HRO %v, want %v %v %v", tc.st, listed, readable, copied,
				tc.listed, tc.readable, tc.copied)
		}
		r.Remove(r.Segments[0].ID) // DELETE_SEGMENT_FINISHED
		if _, listed := r.FirstOffsetFor(0); listed || (r.HighestOffsetFor(0) == 999) != tc.copied {
			t.Errorf("%s deleted: listed %v, highest of epoch 0 %d, want unlisted and %d", tc.st, listed,
				r.HighestOffsetFor(0), map[bool]int64{true: 999, false: -1}[tc.copied])
		}
	}
}

// fire runs one timer of b0 at time at.
func fire(c *Cluster, at sim.Time, k TimerKind) {
	c.Now = at
	c.fire(TimerKey{Broker: 0, Kind: k})
	c.Advance()
}

// TestRetentionRollsTheActiveSegment: KAFKA-15047. A tiered partition's
// active segment that is non-empty, wholly below HW and breaches retention
// is rolled; it is not when any of the four fails.
func TestRetentionRollsTheActiveSegment(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tiered bool
		hw     int64
		ms     int64 // local.retention.ms
		roll   bool
	}{
		{"breach below HW", true, 3000, 1000, true},
		{"one record above HW", true, 2999, 1000, false},
		{"not breached", true, 3000, 60_000, false},
		{"tiering off", false, 3000, 1000, false},
	} {
		cfg := fidelityConfig()
		cfg.RemoteStorageEnable, cfg.LocalRetentionMs, cfg.RetentionMs = tc.tiered, tc.ms, -1
		c := fidelityCluster(KIP, cfg, 1999, remoteSeg(0, 999, CopyFinished), remoteSeg(1000, 1999, CopyFinished))
		if !tc.tiered {
			c = fidelityCluster(KIP, cfg, -1)
		}
		l := &c.Brokers[0].Log
		l.HighWatermark = tc.hw
		fire(c, sim.AtMs(10_000), TimerRetention)
		rolled := l.active().Base == 3000
		if rolled != tc.roll {
			t.Errorf("%s: rolled %v (segments %d, active [%d..%d]), want %v", tc.name, rolled, len(l.Segments),
				l.active().Base, l.active().End, tc.roll)
		}
	}
}

// TestIdleTieredPartitionEndsFullyTiered: after the roll the copy task
// uploads the old active segment and the next retention run deletes it:
// LLSO = HRO+1 = LEO, and the coverage goal counts it.
func TestIdleTieredPartitionEndsFullyTiered(t *testing.T) {
	cfg := fidelityConfig()
	cfg.LocalRetentionMs = 1000
	c := fidelityCluster(KIP, cfg, 1999, remoteSeg(0, 999, CopyFinished), remoteSeg(1000, 1999, CopyFinished))
	b := c.Brokers[0]
	fire(c, sim.AtMs(10_000), TimerRetention) // roll; [0, 2000) goes locally
	c.Now = sim.AtMs(11_000)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy}) // seeds HRO, uploads [2000, 2999]
	var up RemoteOp
	for _, e := range c.out.effects {
		if e.Kind == EffRemote && e.Remote.Kind == RemoteUpload {
			up = e.Remote
		}
	}
	c.out.effects = c.out.effects[:0]
	if up.ID == 0 {
		t.Fatal("the rolled segment was not uploaded")
	}
	c.remoteDone(up, false)
	c.Advance()
	c.Now = sim.AtMs(20_000)
	c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	if l := &b.Log; l.LocalLogStart != 3000 || l.LogEnd != 3000 || b.HighestRemote != 2999 || l.LogStart != 0 {
		t.Errorf("lso=%d llso=%d leo=%d hro=%d, want 0 3000 3000 2999", l.LogStart, l.LocalLogStart, l.LogEnd, b.HighestRemote)
	}
	if got := eventsOf(c, EvLocalRetention); len(got) != 1 || got[0].Log != (LogOffsets{0, 3000, 3000, 3000}) || b.Role != RoleLeader {
		t.Errorf("the last local retention (GoalIdleFullyTieredByRetention): %+v, want lso 0, llso = hw = leo = 3000 on the leader", got)
	}
}

// TestRetentionDeletesTheActiveSegmentWhenNotCopying: with copying off,
// retention.ms deletes every segment wholly below HW, the active one too,
// behind a new empty one (Kafka's deleteSegments rolls first): LSO = LEO.
func TestRetentionDeletesTheActiveSegmentWhenNotCopying(t *testing.T) {
	cfg := fidelityConfig()
	cfg.RemoteLogCopyDisable, cfg.RetentionMs = true, 1000
	c := fidelityCluster(Kafka43, cfg, -1)
	fire(c, sim.AtMs(10_000), TimerRetention)
	if l := &c.Brokers[0].Log; l.LogStart != 3000 || l.LocalLogStart != 3000 || len(l.Segments) != 1 || l.active().Bytes != 0 {
		t.Errorf("lso=%d llso=%d segments=%d, want 3000 3000 and one empty", l.LogStart, l.LocalLogStart, len(l.Segments))
	}
}

// TestCopyDisabledRetentionMovesTheLogStart: with copying disabled, local
// deletion moves the log start offset (UnifiedLog.deleteSegments calls
// maybeIncrementLogStartOffset unless remoteLogEnabledAndRemoteCopyEnabled)
// even for segments already uploaded; with copying on only the local log
// start offset moves.
func TestCopyDisabledRetentionMovesTheLogStart(t *testing.T) {
	for _, tc := range []struct {
		copyDisabled bool
		lso, llso    int64
	}{
		{false, 0, 2000}, // 3000 B against 1000: [0, 2000) goes, as Kafka's size predicate
		{true, 2000, 2000},
	} {
		cfg := fidelityConfig()
		cfg.RemoteLogCopyDisable, cfg.RetentionBytes, cfg.LocalRetentionBytes = tc.copyDisabled, 1000, 1000
		c := fidelityCluster(Kafka43, cfg, 1999, remoteSeg(0, 999, CopyFinished), remoteSeg(1000, 1999, CopyFinished))
		fire(c, sim.AtMs(10_000), TimerRetention)
		if l := &c.Brokers[0].Log; l.LogStart != tc.lso || l.LocalLogStart != tc.llso {
			t.Errorf("copy disabled %v: lso=%d llso=%d, want %d %d", tc.copyDisabled, l.LogStart, l.LocalLogStart, tc.lso, tc.llso)
		}
	}
}

// TestExpirationTaskSeedsHRO: KAFKA-20732. Only kafka-trunk's expiration
// task seeds an unknown HRO from the metadata, and only while it is unknown.
// Under the KIP text the leader's RLM task seeds it whatever copying does:
// with copying disabled, and no copy task, the expiration task stands in.
func TestExpirationTaskSeedsHRO(t *testing.T) {
	for _, tc := range []struct {
		p       Profile
		hro     int64
		wantHRO int64
	}{
		{KafkaTrunk, -1, 1999},
		{KafkaTrunk, 999, 999}, // known: left alone (the copy task raises it)
		{Kafka43, -1, -1},
		{KIP, -1, 1999},
	} {
		cfg := fidelityConfig()
		cfg.RemoteLogCopyDisable = true
		c := fidelityCluster(tc.p, cfg, tc.hro, remoteSeg(0, 999, CopyFinished), remoteSeg(1000, 1999, CopyFinished))
		fire(c, 0, TimerRLMExpire)
		if got := c.Brokers[0].HighestRemote; got != tc.wantHRO {
			t.Errorf("%s, hro %d: expiration task left hro %d, want %d", tc.p.Name(), tc.hro, got, tc.wantHRO)
		}
	}
}

// TestFailedDeletionStaysDeleteStarted: a failed remote deletion leaves the
// segment delete-started (not readable) and the next expiration run deletes
// it again, as Kafka retries dangling DELETE_SEGMENT_STARTED segments.
func TestFailedDeletionStaysDeleteStarted(t *testing.T) {
	cfg := fidelityConfig()
	c := fidelityCluster(KIP, cfg, 1999, remoteSeg(0, 999, DeleteStarted), remoteSeg(1000, 1999, CopyFinished))
	c.Brokers[0].Log.LogStart = 1000
	deletes := func() (ops []RemoteOp) {
		for _, e := range c.out.effects {
			if e.Kind == EffRemote && e.Remote.Kind == RemoteDelete {
				ops = append(ops, e.Remote)
			}
		}
		return ops
	}
	c.Now = 0
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	ops := deletes()
	if len(ops) != 1 {
		t.Fatalf("first run started %d deletions, want 1", len(ops))
	}
	c.out.effects = c.out.effects[:0]
	c.remoteDone(ops[0], true)
	if s := c.Remote.Segments[0]; s.State != DeleteStarted {
		t.Fatalf("after a failed delete: %s", s.State)
	}
	c.Now = sim.AtMs(30_000)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	if n := len(deletes()); n != 1 {
		t.Fatalf("next run started %d deletions, want 1 (the retry)", n)
	}
}
