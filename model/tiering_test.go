package model

import (
	"slices"
	"testing"

	"tierfetch/sim"
)

// The leader's tiering rules at their boundaries: which segment the RLM
// copy task uploads, what HRO becomes, what the expiration task and local
// retention may delete, and in which order the offsets move.

// uploads returns the uploads c started, and empties the outbox.
func uploads(c *Cluster) []RemoteOp {
	var out []RemoteOp
	for _, op := range remoteOps(c) {
		if op.Kind == RemoteUpload {
			out = append(out, op)
		}
	}
	return out
}

// untiered: local [0..99] [100..199] and an active [200..249], nothing
// remote, HRO unknown; b1 is an in-sync follower that has not fetched, so
// the fixture's HW stays until a fetch moves it.
func untiered(hw int64) fixture {
	return fixture{hw: hw, hro: -1, local: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 249, 0}}}
}

// TestUploadEligibility: the copy task uploads, in order, an inactive
// segment whose next segment starts at or below HW, never the active one;
// HRO becomes the segment's end when the upload finishes.
func TestUploadEligibility(t *testing.T) {
	for _, c := range []struct {
		hw   int64
		want []int64 // ends of the segments uploaded, in order
	}{{99, nil}, {100, []int64{99}}, {199, []int64{99}}, {200, []int64{99, 199}}, {250, []int64{99, 199}}} {
		cl := leaderOf(untiered(c.hw), testConfig(), KIP)
		var got []int64
		cl.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
		for ups := uploads(cl); len(ups) > 0; ups = uploads(cl) {
			if len(got) > 3 {
				t.Fatalf("HW %d: still uploading after %v", c.hw, got)
			}
			if len(ups) != 1 {
				t.Fatalf("HW %d: %d uploads at once", c.hw, len(ups))
			}
			seg := cl.Remote.Segments[cl.Remote.Find(ups[0].Segment)]
			if seg.State != CopyStarted || ups[0].Bytes != seg.Bytes || cl.Brokers[0].HighestRemote != int64(len(got))*100-1 {
				t.Errorf("HW %d: upload of %+v in state %d, HRO %d", c.hw, seg, seg.State, cl.Brokers[0].HighestRemote)
			}
			got = append(got, seg.End)
			cl.remoteDone(ups[0], false)
			if hro := cl.Brokers[0].HighestRemote; hro != seg.End {
				t.Errorf("HW %d: HRO %d after uploading [%d..%d]", c.hw, hro, seg.Base, seg.End)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("HW %d: uploaded segments ending at %v, want %v", c.hw, got, c.want)
		}
		for _, s := range cl.Remote.Segments {
			if s.State != CopyFinished || !slices.Equal(s.Snapshot, snapshotAt(s.End)) || !slices.Equal(s.Checkpt, []EpochEntry{{0, 0}}) ||
				len(s.Batches) != 1 || s.Batches[0].Base != s.Base || !slices.Equal(s.Epochs, []EpochEntry{{0, s.Base}}) {
				t.Errorf("HW %d: remote segment %+v", c.hw, s)
			}
		}
	}
}

// TestUploadStartsAfterTheRemoteData: a new leader's copy task starts after
// what remote storage holds (the copied offset seeded from the metadata),
// not at its local log start; one upload at a time.
func TestUploadStartsAfterTheRemoteData(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	if len(ups) != 1 || c.Remote.Segments[c.Remote.Find(ups[0].Segment)].Base != 300 {
		t.Fatalf("uploads %v, want [300..399]", ups)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if ups := uploads(c); len(ups) != 0 {
		t.Errorf("a second upload started while one is in flight: %v", ups)
	}
}

// TestUploadFailureAndLostLeadership: a failed upload leaves no metadata
// and no HRO and is retried on the next run; an upload that finishes after
// its leader lost leadership is abandoned.
func TestUploadFailureAndLostLeadership(t *testing.T) {
	c := leaderOf(untiered(250), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	c.remoteDone(ups[0], true)
	if len(c.Remote.Segments) != 0 || c.Brokers[0].HighestRemote != -1 {
		t.Fatalf("after a failed upload: remote %v, HRO %d", c.Remote.Segments, c.Brokers[0].HighestRemote)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	again := uploads(c)
	if len(again) != 1 || c.Remote.Segments[0].Base != 0 {
		t.Fatalf("the next run uploads %v, want [0..99] again", again)
	}
	if err := c.electLeader(1); err != nil {
		t.Fatal(err)
	}
	// Kafka checks no cancellation between the copy and its
	// COPY_SEGMENT_FINISHED (RemoteLogManager.java:1138-1151 @025293cb):
	// the upload is published. But the cancelled task's thread was
	// interrupted (RLMTaskWithFuture.cancel, future.cancel(true), 2230), so
	// waiting for the publish throws and the old leader's HRO is not raised
	// (1162) until its follower task reads it from the metadata.
	c.remoteDone(again[0], false)
	if s := c.Remote.Segments; len(s) != 1 || s[0].State != CopyFinished || c.Brokers[0].HighestRemote != -1 {
		t.Errorf("an upload finished after losing leadership left %v, HRO %d, want [0..99] finished and HRO -1", s, c.Brokers[0].HighestRemote)
	}
	if c.Brokers[0].Role == RoleFollower {
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMFollower})
		if c.Brokers[0].HighestRemote != 99 {
			t.Errorf("the old leader's follower task set HRO %d, want 99 from the metadata", c.Brokers[0].HighestRemote)
		}
	} else {
		t.Errorf("b0 is %v after b1's election, want a follower", c.Brokers[0].Role)
	}
	if ends := eventsOf(c, EvUploadEnd); len(ends) != 1 || ends[0].Cause != UploadDone || ends[0].Broker != 0 {
		t.Errorf("an upload finished after losing leadership: upload ends %+v, want one done on b0", ends)
	}
	checkEventFields(c)
	// A broker that crashed while it copied publishes nothing: the
	// segment's COPY_SEGMENT_STARTED metadata stays.
	c = leaderOf(untiered(250), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups = uploads(c)
	if err := c.crash(0); err != nil {
		t.Fatal(err)
	}
	c.remoteDone(ups[0], false)
	if s := c.Remote.Segments; len(s) != 1 || s[0].State != CopyStarted {
		t.Errorf("a copy its crashed broker never finished: remote %v, want it copy-started", s)
	}
	if ends := eventsOf(c, EvUploadEnd); len(ends) != 1 || ends[0].Cause != UploadAbandoned {
		t.Errorf("upload ends %+v, want one abandoned", ends)
	}
	// An outage fails what completes before it ends.
	c = leaderOf(untiered(250), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups = uploads(c)
	c.remoteOutage(int64(c.Now) + 1)
	c.Step(c.Now, &Input{Kind: EvRemoteDone, Op: ups[0]})
	if len(c.Remote.Segments) != 0 {
		t.Errorf("an upload completing during an outage succeeded: %v", c.Remote.Segments)
	}
	if done := eventsOf(c, EvRemoteDone); len(done) != 1 || !done[0].Failed || done[0].Op != ups[0].ID {
		t.Errorf("the upload's completion during an outage recorded as %+v, want failed", done)
	}
}

// TestCopyTaskSeedsHRO (KIP-1023): a leader that does not know HRO learns it
// on its copy task's first run with metadata ready, from the remote
// metadata, clamped to where its epoch ends; a run before the metadata is
// ready does nothing. With copying disabled there is no copy task
// (doHandleLeaderPartition, RemoteLogManager.java:2170-2186 @025293cb): the
// KIP text still has the leader's task seed it (the expiration task stands
// in), Kafka 4.3 does not, and neither uploads.
func TestCopyTaskSeedsHRO(t *testing.T) {
	f := tieredFixture()
	f.hro = -1
	cfg := testConfig()
	cfg.RemoteMetadataReady = 2 * sim.Second
	c := leaderOf(f, cfg, KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if hro := c.Brokers[0].HighestRemote; hro != -1 || len(uploads(c)) != 0 {
		t.Fatalf("before the metadata is ready: HRO %d", hro)
	}
	c.Now = c.Now.Add(2 * sim.Second)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if hro := c.Brokers[0].HighestRemote; hro != 299 {
		t.Fatalf("HRO %d after the first run with metadata ready, want 299", hro)
	}
	for _, p := range []Profile{KIP, Kafka43} {
		cfg := testConfig()
		cfg.RemoteLogCopyDisable = true
		c := leaderOf(f, cfg, p)
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
		want := int64(299)
		if p == Kafka43 {
			want = -1
		}
		if hro := c.Brokers[0].HighestRemote; hro != want || len(uploads(c)) != 0 {
			t.Errorf("%s, copy disabled: HRO %d, want %d, and no upload", p.Name(), hro, want)
		}
	}
	// HRO never falls: a seeded value below a known HRO is ignored.
	f.hro = 350
	c = leaderOf(f, testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if hro := c.Brokers[0].HighestRemote; hro != 350 {
		t.Errorf("HRO fell from 350 to %d", hro)
	}
}

// TestFindHighestRemoteOffset walks the epoch cache from the newest epoch:
// the first epoch remote storage holds gives min(its highest remote offset,
// the epoch's end - 1). A segment from another lineage that carries epoch 0
// past where this log's epoch 0 ends counts only up to that end.
func TestFindHighestRemoteOffset(t *testing.T) {
	l := Log{LogEnd: 400, Epochs: []EpochEntry{{0, 0}, {1, 100}, {2, 300}}}
	var r Remote
	finish := func(s RemoteSegment) {
		r.SetState(r.Start(s), CopyFinished)
	}
	if h := r.FindHighestRemoteOffset(&l, false); h != -1 {
		t.Errorf("nothing remote: %d", h)
	}
	finish(RemoteSegment{Base: 0, End: 149, Epochs: []EpochEntry{{0, 0}}})
	if h := r.FindHighestRemoteOffset(&l, false); h != 99 {
		t.Errorf("epoch 0 ends at 100 here: %d, want 99", h)
	}
	if h := r.FindHighestRemoteOffset(&l, true); h != 149 {
		t.Errorf("without the epoch end: %d, want 149", h)
	}
	finish(RemoteSegment{Base: 150, End: 249, Epochs: []EpochEntry{{1, 150}}})
	if h := r.FindHighestRemoteOffset(&l, false); h != 249 {
		t.Errorf("epoch 1 up to 249: %d", h)
	}
	finish(RemoteSegment{Base: 250, End: 350, Epochs: []EpochEntry{{1, 250}, {2, 300}}})
	if h := r.FindHighestRemoteOffset(&l, false); h != 350 {
		t.Errorf("latest epoch 2 up to 350 (LEO 400): %d", h)
	}
	// An unfinished segment does not count.
	r.Start(RemoteSegment{Base: 351, End: 380, Epochs: []EpochEntry{{2, 351}}})
	if h := r.FindHighestRemoteOffset(&l, false); h != 350 {
		t.Errorf("with an upload under way: %d, want 350", h)
	}
	if got := r.HighestOffsetFor(1); got != 299 {
		t.Errorf("highest offset of epoch 1: %d, want 299 (epoch 2 begins at 300)", got)
	}
	if s, ok := r.FirstOffsetFor(2); !ok || s != 250 {
		t.Errorf("first offset for epoch 2: %d %v, want 250", s, ok)
	}
	if _, ok := r.FirstOffsetFor(5); ok {
		t.Errorf("first offset for an epoch nothing holds")
	}
	if start, end, ok := r.Finished(); !ok || start != 0 || end != 350 {
		t.Errorf("finished range [%d, %d] %v, want [0, 350]", start, end, ok)
	}
}

// TestNewLeaderRaisesLagginglogStart (KAFKA-15351): a new leader's first
// copy-task run raises its log start offset to the first remote segment
// holding its earliest epoch, or to its local log start when remote
// storage holds none of its epochs.
func TestNewLeaderRaisesLaggingLogStart(t *testing.T) {
	f := tieredFixture()
	f.remote = f.remote[1:] // [100..199] [200..299]: [0,100) was deleted
	c := leaderOf(f, testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if lso := c.Brokers[0].Log.LogStart; lso != 100 {
		t.Errorf("LSO %d after the first copy run, want 100", lso)
	}
	f.remote = nil
	f.hro = -1
	c = leaderOf(f, testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if lso := c.Brokers[0].Log.LogStart; lso != 200 {
		t.Errorf("LSO %d with nothing remote, want the local log start 200", lso)
	}
}

// expiring: remote [0..99] [100..199] [200..299] (1000 bytes each, written
// at time 0), the leader holds [200..449]; 1500 bytes are local only.
func expiring(cfg Config) *Cluster {
	return leaderOf(tieredFixture(), cfg, KIP)
}

// expirationRun fires b0's expiration task and completes its remote
// deletions one by one as the run starts them, failing the one numbered
// fail (-1: none); it returns the bases of the segments the run began to
// delete, in order.
func expirationRun(c *Cluster, fail int) []int64 {
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	var bases []int64
	for n := 0; ; n++ {
		for _, e := range c.out.events {
			if e.Kind == EvRemoteExpire || e.Kind == EvRemoteDeleteRetry {
				bases = append(bases, e.Segment.Base)
			}
		}
		ops := remoteOps(c)
		if len(ops) == 0 {
			return bases
		}
		for _, op := range ops {
			c.remoteDone(op, n == fail)
		}
	}
}

func remoteBases(c *Cluster, st RemoteState) []int64 {
	var out []int64
	for _, s := range c.Remote.Segments {
		if s.State == st {
			out = append(out, s.Base)
		}
	}
	return out
}

// TestRemoteRetention: the expiration task deletes remote segments from the
// oldest while the partition's size less the segment still meets
// retention.bytes, or the segment is older than retention.ms, or it lies
// below the log start offset; it raises LSO before it deletes, then deletes
// them one at a time, and a failed deletion abandons the rest of the run
// (RemoteLogManager.java:1529-1550 and 1716-1723 @025293cb).
func TestRemoteRetention(t *testing.T) {
	for _, c := range []struct {
		name         string
		bytes, ms    int64
		now          sim.Time
		lso          int64
		wantDeleting []int64
	}{
		{"size at the limit", 3500, -1, 0, 0, []int64{0}}, // total 4500: 4500-1000 >= 3500, then 2500 < 3500
		{"size one under", 3501, -1, 0, 0, nil},
		{"size 0", 0, -1, 0, 0, []int64{0, 100, 200}},
		{"age at the limit", -1, 1000, sim.AtMs(1000), 0, nil},
		{"age past the limit", -1, 1000, sim.AtMs(1001), 0, []int64{0, 100, 200}},
		{"below the log start", -1, -1, 0, 150, []int64{0}},
	} {
		cfg := testConfig()
		cfg.RetentionBytes, cfg.RetentionMs = c.bytes, c.ms
		cl := expiring(cfg)
		cl.Brokers[0].Log.LogStart = c.lso
		cl.Now = c.now
		if got := expirationRun(cl, -1); !slices.Equal(got, c.wantDeleting) {
			t.Errorf("%s: deleting %v, want %v", c.name, got, c.wantDeleting)
			continue
		}
		wantLSO := c.lso
		if n := len(c.wantDeleting); n > 0 {
			wantLSO = max(wantLSO, c.wantDeleting[n-1]+100)
		}
		if lso := cl.Brokers[0].Log.LogStart; lso != wantLSO || len(cl.Remote.Segments) != 3-len(c.wantDeleting) {
			t.Errorf("%s: LSO %d, want %d; remote %v", c.name, lso, wantLSO, cl.Remote.Segments)
		}
		if len(c.wantDeleting) < 2 {
			continue
		}
		// The first deletion fails: the run ends there. Its segment stays
		// DELETE_SEGMENT_STARTED (no longer readable), the others are not
		// touched; the LSO was raised past all of them before deleting.
		cl = expiring(cfg)
		cl.Brokers[0].Log.LogStart = c.lso
		cl.Now = c.now
		if got := expirationRun(cl, 0); len(got) != 1 || got[0] != 0 {
			t.Errorf("%s: the first deletion failed, the run went on: %v", c.name, got)
		}
		if got := remoteBases(cl, CopyFinished); !slices.Equal(got, c.wantDeleting[1:]) || cl.Brokers[0].Log.LogStart != wantLSO {
			t.Errorf("%s: after the failed deletion: finished %v, LSO %d", c.name, got, cl.Brokers[0].Log.LogStart)
		}
		// The next run deletes the failed segment again, and the rest, now
		// below the log start offset.
		cl.Now = cl.Now.Add(30 * sim.Second)
		if got := expirationRun(cl, -1); !slices.Equal(got, c.wantDeleting) {
			t.Errorf("%s: the next run deletes %v, want %v", c.name, got, c.wantDeleting)
		}
	}
}

// TestBreachedSizeIgnoresLogStartDeletions: the expiration task's
// remainingBreachedSize shrinks only for segments it deletes by size or by
// time (isSegmentBreachedByRetentionSize and ...Time,
// RemoteLogManager.java:1279-1319 @025293cb), not for those below the log
// start offset (isSegmentBreachByLogStartOffset, 1321-1338, which the walk
// checks first, 1508). With 4500 bytes against retention.bytes 3500 and
// the log start at 150, [0..99] goes below the log start and [100..199]
// goes by size too: 1000 bytes more than retention asks (seed 3753's
// mechanism).
func TestBreachedSizeIgnoresLogStartDeletions(t *testing.T) {
	cfg := testConfig()
	cfg.RetentionBytes = 3500
	c := expiring(cfg)
	c.Brokers[0].Log.LogStart = 150
	if got := expirationRun(c, -1); !slices.Equal(got, []int64{0, 100}) {
		t.Errorf("deleting %v, want [0 100]: the log-start deletion leaves the 1000 bytes of excess", got)
	}
	if lso := c.Brokers[0].Log.LogStart; lso != 200 {
		t.Errorf("LSO %d, want 200", lso)
	}
}

// TestRemoteRetentionAbortsPastHW: when what a run would delete by
// retention takes the log start offset past HW, the whole run is abandoned:
// Kafka raises the log start offset before deleting, and
// maybeIncrementLogStartOffset throws OffsetOutOfRangeException above the
// high watermark (UnifiedLog.java:1338-1341 @004b2276), which ends
// cleanupExpiredRemoteLogSegments (RemoteLogManager.java:1529 @025293cb)
// before any deletion.
func TestRemoteRetentionAbortsPastHW(t *testing.T) {
	for hw, want := range map[int64][]int64{299: nil, 300: {0, 100, 200}} {
		cfg := testConfig()
		cfg.RetentionBytes = 0
		c := expiring(cfg)
		c.Brokers[0].Log.HighWatermark = hw
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
		aborts := eventsOf(c, EvExpirationAborted)
		c.Advance()
		c.Now = c.Now.Add(30 * sim.Second)
		if got := expirationRun(c, -1); !slices.Equal(got, want) || (len(aborts) == 1) != (want == nil) {
			t.Errorf("HW %d: deleting %v, want %v; aborted %v", hw, got, want, aborts)
		}
		if want == nil && c.Brokers[0].Log.LogStart != 0 {
			t.Errorf("HW %d: an abandoned run moved the log start offset to %d", hw, c.Brokers[0].Log.LogStart)
		}
	}
}

// retaining: the tiered fixture's leader with local retention configured.
func retaining(localBytes, localMs int64, hro, hw int64) *Cluster {
	cfg := testConfig()
	cfg.LocalRetentionBytes, cfg.LocalRetentionMs = localBytes, localMs
	f := tieredFixture()
	f.hro, f.hw = hro, hw
	return leaderOf(f, cfg, KIP)
}

// TestLocalRetentionEligibility: with copying on, a local segment goes when
// it breaches local retention, is uploaded (end <= HRO) and lies wholly
// below HW; the local log start moves, the log start does not. An active
// segment that qualifies too is rolled first and goes, leaving one empty
// segment (Kafka's deleteSegments; KAFKA-15047 for tiered topics).
func TestLocalRetentionEligibility(t *testing.T) {
	for _, c := range []struct {
		name       string
		bytes, ms  int64
		now        sim.Time
		hro, hw    int64
		wantLLSO   int64
		wantFirst  int64
		wantSegs   int
		wantCalled bool
	}{
		{"uploaded, below HW, breach", 0, -2, 0, 299, 450, 300, 300, 2, true},
		{"end one above HRO", 0, -2, 0, 298, 450, 200, 200, 3, false},
		{"HRO past every segment: the active one rolls and goes", 0, -2, 0, 449, 450, 450, 450, 1, true},
		{"end at HW", 0, -2, 0, 299, 299, 200, 200, 3, false},
		{"end one below HW", 0, -2, 0, 299, 300, 300, 300, 2, true},
		{"size at the limit", 1500, -2, 0, 449, 450, 300, 300, 2, true}, // 2500-1000 >= 1500
		{"size one under", 1501, -2, 0, 449, 450, 200, 200, 3, false},
		{"no breach", -1, -1, 0, 449, 450, 200, 200, 3, false},
		{"age at the limit", -1, 1000, sim.AtMs(1000), 449, 450, 200, 200, 3, false},
		{"age past the limit", -1, 1000, sim.AtMs(1001), 449, 450, 450, 450, 1, true},
	} {
		cl := retaining(c.bytes, c.ms, c.hro, c.hw)
		cl.Now = c.now
		cl.fire(TimerKey{Broker: 0, Kind: TimerRetention})
		checkEventFields(cl) // a roll for retention, a retention: their kinds' fields only
		l := &cl.Brokers[0].Log
		if l.LocalLogStart != c.wantLLSO || l.LogStart != 0 || l.Segments[0].Base != c.wantFirst || len(l.Segments) != c.wantSegs {
			t.Errorf("%s: lso=%d llso=%d first segment %d, %d segments; want lso=0 llso=%d first %d, %d segments",
				c.name, l.LogStart, l.LocalLogStart, l.Segments[0].Base, len(l.Segments), c.wantLLSO, c.wantFirst, c.wantSegs)
		}
	}
}

// TestLocalRetentionWithoutCopying: with copying disabled or tiering off,
// retention.* applies and does not wait for uploads, and it moves the log
// start offset, uploaded or not (Kafka's deleteSegments moves only the local
// log start while copying is on).
func TestLocalRetentionWithoutCopying(t *testing.T) {
	for _, c := range []struct {
		name          string
		tiered, copy  bool
		bytes         int64
		wantLSO, llso int64
	}{
		{"copy disabled, uploaded only", true, false, 1500, 300, 300},
		{"copy disabled, past HRO", true, false, 0, 450, 450},
		{"tiering off", false, true, 1500, 300, 300},
		{"copying: local retention -2 uses retention.bytes", true, true, 1500, 0, 300},
	} {
		cfg := testConfig()
		cfg.RemoteStorageEnable, cfg.RemoteLogCopyDisable = c.tiered, !c.copy
		cfg.RetentionBytes = c.bytes
		cl := leaderOf(tieredFixture(), cfg, KIP)
		cl.fire(TimerKey{Broker: 0, Kind: TimerRetention})
		if l := &cl.Brokers[0].Log; l.LogStart != c.wantLSO || l.LocalLogStart != c.llso {
			t.Errorf("%s: lso=%d llso=%d, want %d %d", c.name, l.LogStart, l.LocalLogStart, c.wantLSO, c.llso)
		}
	}
	// Local retention set explicitly overrides retention.* only while copying.
	cfg := testConfig()
	cfg.RemoteLogCopyDisable = true
	cfg.LocalRetentionBytes, cfg.RetentionBytes = 0, -1
	cl := leaderOf(tieredFixture(), cfg, KIP)
	cl.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	if l := &cl.Brokers[0].Log; l.LocalLogStart != 200 {
		t.Errorf("copy disabled: local.retention.bytes applied (llso %d)", l.LocalLogStart)
	}
}

// TestFollowerRetentionAndHRO: a follower's RLM task learns HRO from the
// remote metadata once its metadata is ready, and its own local retention
// then drops what is uploaded; a broker that is not a replica does
// nothing.
func TestFollowerRetentionAndHRO(t *testing.T) {
	cfg := testConfig()
	cfg.LocalRetentionBytes = 0
	cfg.RemoteMetadataReady = sim.Second
	c := tieredFixture().cluster(cfg, KIP, 3, []int{0, 1}, false)
	sent(c)
	f := c.Brokers[1]
	f.HighestRemote = -1
	c.fire(TimerKey{Broker: 1, Kind: TimerRLMFollower})
	if f.HighestRemote != -1 {
		t.Fatalf("follower HRO %d before its metadata is ready", f.HighestRemote)
	}
	c.Now = c.Now.Add(sim.Second)
	c.fire(TimerKey{Broker: 1, Kind: TimerRLMFollower})
	if f.HighestRemote != 299 {
		t.Fatalf("follower HRO %d, want 299", f.HighestRemote)
	}
	c.fire(TimerKey{Broker: 1, Kind: TimerRetention})
	if f.Log.LocalLogStart != 300 {
		t.Errorf("follower llso %d after retention, want 300", f.Log.LocalLogStart)
	}
	sent(c)
	c.fire(TimerKey{Broker: 2, Kind: TimerRetention})
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMFollower})
	if c.Brokers[0].HighestRemote != 299 || len(c.out.effects) != 0 {
		t.Errorf("timers of the wrong role acted: %v", c.out.effects)
	}
}

// TestTieringToggle: disabling remote storage needs delete-on-disable; it
// deletes the remote data, moves the leader's log start offset to its local
// log start and stops the RLM tasks. Enabling it starts them again.
func TestTieringToggle(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	if err := c.setConfig("remote_storage_enable", false, 0, -1); err == nil || !c.Tiered() {
		t.Fatalf("disabled without delete-on-disable: %v", err)
	}
	if err := c.setConfig("remote_log_delete_on_disable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	if err := c.setConfig("remote_storage_enable", false, 0, -1); err != nil {
		t.Fatal(err)
	}
	l := &c.Brokers[0].Log
	if c.Tiered() || len(c.Remote.Segments) != 0 || l.LogStart != 200 || l.LocalLogStart != 200 {
		t.Errorf("after disabling: tiered %v remote %v lso=%d llso=%d", c.Tiered(), c.Remote.Segments, l.LogStart, l.LocalLogStart)
	}
	cancelled := map[TimerKey]bool{}
	for _, e := range c.out.effects {
		if e.Kind == EffCancelTimer {
			cancelled[e.Timer] = true
		}
	}
	if !cancelled[TimerKey{Broker: 0, Kind: TimerRLMCopy}] || !cancelled[TimerKey{Broker: 0, Kind: TimerRLMExpire}] || !cancelled[TimerKey{Broker: 1, Kind: TimerRLMFollower}] {
		t.Errorf("RLM tasks not stopped: %v", c.out.effects)
	}
	sent(c)
	if err := c.setConfig("remote_storage_enable", false, 0, -1); err != nil || len(c.out.effects) != 0 {
		t.Errorf("disabling again is a no-op: %v %v", err, c.out.effects)
	}
	if err := c.setConfig("remote_storage_enable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	set := map[TimerKey]bool{}
	for _, e := range c.out.effects {
		if e.Kind == EffSetTimer {
			set[e.Timer] = true
		}
	}
	if !set[TimerKey{Broker: 0, Kind: TimerRLMCopy}] || !set[TimerKey{Broker: 0, Kind: TimerRLMExpire}] || !set[TimerKey{Broker: 1, Kind: TimerRLMFollower}] {
		t.Errorf("RLM tasks not started: %v", c.out.effects)
	}
	// With no leader nobody deletes the remote data.
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	c.Cfg.RemoteLogDeleteOnDisable = true
	c.Ctrl.Leader = -1
	if err := c.setConfig("remote_storage_enable", false, 0, -1); err != nil || len(c.Remote.Segments) != 3 {
		t.Errorf("disabled with no leader: %v, remote %d segments", err, len(c.Remote.Segments))
	}
}

// TestSetConfig: every dynamic key changes what it names; the broker flag
// applies to one broker or all; an unknown key is refused.
func TestSetConfig(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	for key, kind := range DynamicConfigs {
		if key == "remote_storage_enable" {
			continue
		}
		var err error
		if kind == ConfigBool {
			err = c.setConfig(key, true, 0, -1)
		} else {
			err = c.setConfig(key, false, 1234, -1)
		}
		if err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
	g := c.Cfg
	if !g.RemoteLogCopyDisable || !g.RemoteLogDeleteOnDisable || g.LocalRetentionBytes != 1234 || g.LocalRetentionMs != 1234 ||
		g.RetentionBytes != 1234 || g.RetentionMs != 1234 || g.RLMTaskInterval != sim.Ms(1234) ||
		g.RemoteCopyLagMs != 1234 || g.RemoteCopyLagBytes != 1234 {
		t.Errorf("config after setting every key: %+v", g)
	}
	for _, b := range c.Brokers {
		if !b.LastTieredEnable {
			t.Errorf("b%d flag not set for every broker", b.ID)
		}
	}
	for _, only := range []int{2, 0} {
		if err := c.setConfig("follower_fetch_last_tiered_offset_enable", false, 0, only); err != nil ||
			c.Brokers[only].LastTieredEnable || !c.Brokers[1].LastTieredEnable {
			t.Errorf("flag for b%d only: %v", only, err)
		}
	}
	if err := c.setConfig("segment_bytes", false, 1, -1); err == nil {
		t.Errorf("an unknown key was accepted")
	}
}

// TestDisableForgetsAllSegmentsValid: disabling tiering cancels the
// leader's expiration task, and what it knew goes with it: Kafka's
// RLMExpirationTask.cancel resets isAllSegmentsValid
// (RemoteLogManager.java:1240-1253 @025293cb), and enabling tiering again
// starts a task that checks the lineage afresh.
func TestDisableForgetsAllSegmentsValid(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.Cfg.RemoteLogDeleteOnDisable = true
	b := c.Brokers[0]
	b.lead.allSegmentsValid = true
	if err := c.setConfig("remote_storage_enable", false, 0, -1); err != nil {
		t.Fatal(err)
	}
	if b.lead.allSegmentsValid {
		t.Errorf("tiering disabled: the leader still takes every segment for valid")
	}
}
