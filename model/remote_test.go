package model

import (
	"slices"
	"testing"

	"tierfetch/sim"
)

// Remote metadata at its edges: the order segments are listed in, lookups
// at a segment's first and last offsets and at an epoch's first offset,
// and offsets of 0, which are answers, not "unknown".

func TestRemoteMetadataOrderAndLookup(t *testing.T) {
	var r Remote
	id3 := r.Start(RemoteSegment{Base: 200, End: 299, Epochs: []EpochEntry{{1, 200}}})
	id1 := r.Start(RemoteSegment{Base: 0, End: 99, Epochs: []EpochEntry{{0, 0}, {1, 30}}})
	id2 := r.Start(RemoteSegment{Base: 100, End: 199, Epochs: []EpochEntry{{1, 100}}})
	id2b := r.Start(RemoteSegment{Base: 100, End: 199, Epochs: []EpochEntry{{1, 100}}}) // a retried upload of the same range
	var got []uint64
	for _, s := range r.Segments {
		got = append(got, s.ID)
	}
	if !slices.Equal(got, []uint64{id1, id2, id2b, id3}) {
		t.Fatalf("segments listed %v, want by base offset, then id: %v", got, []uint64{id1, id2, id2b, id3})
	}
	for _, id := range []uint64{id1, id2, id3} {
		r.SetState(id, CopyFinished)
	}
	if r.SetState(99, CopyFinished) || r.Find(99) != -1 {
		t.Errorf("a segment that does not exist")
	}
	seg := &r.Segments[0]
	for o, want := range map[int64]int32{-1: -1, 0: 0, 29: 0, 30: 1, 99: 1} {
		if got := seg.EpochAt(o); got != want {
			t.Errorf("segment [0..99] EpochAt(%d) = %d, want %d", o, got, want)
		}
	}
	for _, c := range []struct {
		epoch int32
		o     int64
		want  uint64 // 0: none
	}{{0, 0, id1}, {0, 29, id1}, {1, 29, 0}, {1, 30, id1}, {1, 99, id1}, {1, 100, id2}, {1, 199, id2}, {1, 200, id3}, {1, 300, 0}} {
		s, ok := r.Lookup(c.epoch, c.o)
		if (c.want == 0) == ok || (ok && s.ID != c.want) {
			t.Errorf("Lookup(epoch %d, %d) = %v %v, want segment %d", c.epoch, c.o, s, ok, c.want)
		}
	}
	r.Remove(id2)
	if r.Find(id2) != -1 || len(r.Segments) != 3 {
		t.Errorf("after removing %d: %v", id2, r.Segments)
	}
	r.Remove(id2) // twice: nothing
	if len(r.Segments) != 3 {
		t.Errorf("removed twice")
	}
}

// TestOffsetZeroIsAnAnswer: a remote segment holding only offset 0 gives
// HRO 0 and EPUO 1, and its epoch's first remote offset is 0.
func TestOffsetZeroIsAnAnswer(t *testing.T) {
	var r Remote
	r.SetState(r.Start(RemoteSegment{Base: 0, End: 0, Epochs: []EpochEntry{{0, 0}}}), CopyFinished)
	l := Log{LogEnd: 10, Epochs: []EpochEntry{{0, 0}}}
	if h := r.FindHighestRemoteOffset(&l, false); h != 0 {
		t.Errorf("HRO %d, want 0", h)
	}
	if s, ok := r.FirstOffsetFor(0); !ok || s != 0 {
		t.Errorf("first offset of epoch 0: %d %v", s, ok)
	}
	f := fixture{hw: 10, hro: 0, remote: []segSpec{{0, 0, 0}}, local: []segSpec{{0, 0, 0}, {1, 9, 0}}}
	c := leaderOf(f, testConfig(), KIP)
	if got := KIP.EarliestPendingUploadOffset(c, c.Brokers[0]); got != 1 {
		t.Errorf("EPUO with HRO 0: %d, want 1", got)
	}
}

// TestUploadedSegmentEpochs: a segment holding two epochs is uploaded with
// both, each from its first offset, and its checkpoint.
func TestUploadedSegmentEpochs(t *testing.T) {
	f := fixture{hw: 150, hro: -1, epoch: 1, local: []segSpec{{0, 49, 0}, {50, 99, 1}, {100, 149, 1}}}
	in := f.initial(10)
	// Merge the first two fixture segments into one of 100 records.
	in.Log.Segments[0].End, in.Log.Segments[0].Bytes = 99, 1000
	in.Log.Segments[0].Batches = append(in.Log.Segments[0].Batches, in.Log.Segments[1].Batches...)
	in.Log.Segments[0].Snapshot = snapshotAt(99)
	in.Log.Segments = append(in.Log.Segments[:1], in.Log.Segments[2:]...)
	c := NewCluster(testConfig(), KIP, 3, []int{0, 1}, false, in)
	sent(c)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	if len(ups) != 1 {
		t.Fatalf("uploads %v", ups)
	}
	s := c.Remote.Segments[c.Remote.Find(ups[0].Segment)]
	if !slices.Equal(s.Epochs, []EpochEntry{{0, 0}, {1, 50}}) || !slices.Equal(s.Checkpt, []EpochEntry{{0, 0}, {1, 50}}) {
		t.Errorf("uploaded [%d..%d] with epochs %v checkpoint %v", s.Base, s.End, s.Epochs, s.Checkpt)
	}
	if s.HighestOffsetFor(0) != 49 || s.HighestOffsetFor(1) != 99 || s.HighestOffsetFor(2) != -1 {
		t.Errorf("highest offsets by epoch: %d %d %d", s.HighestOffsetFor(0), s.HighestOffsetFor(1), s.HighestOffsetFor(2))
	}
}

// TestUploadFromAPartlyDeletedSegment: after deleteRecords moved the log
// start into the first segment, that segment is still uploaded first.
func TestUploadFromAPartlyDeletedSegment(t *testing.T) {
	c := leaderOf(untiered(250), testConfig(), KIP)
	if err := c.deleteRecords(99); err != nil {
		t.Fatal(err)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	ups := uploads(c)
	if len(ups) != 1 || c.Remote.Segments[0].Base != 0 || c.Remote.Segments[0].End != 99 {
		t.Errorf("first upload after deleting below 99: %v %v, want [0..99]", ups, c.Remote.Segments)
	}
}

// TestRetentionBoundaries: the edges of remote and local retention the
// main tables leave out.
func TestRetentionBoundaries(t *testing.T) {
	// Remote: a segment holding the log start is not below it.
	for lso, want := range map[int64][]int64{99: nil, 100: {0}} {
		c := expiring(testConfig())
		c.Brokers[0].Log.LogStart = lso
		if got := expirationRun(c, -1); !slices.Equal(got, want) {
			t.Errorf("LSO %d: deleting %v, want %v", lso, got, want)
		}
	}
	// retention.ms = 0: everything older than now goes.
	cfg := testConfig()
	cfg.RetentionMs = 0
	c := expiring(cfg)
	c.Now = sim.AtMs(1)
	if got := expirationRun(c, -1); len(got) != 3 {
		t.Errorf("retention.ms 0: deleting %v", got)
	}
	// Local: local.retention.ms -2 takes retention.ms; 0 deletes at once
	// (HRO 449: the active segment too, rolled first: KAFKA-15047).
	for _, w := range []struct {
		localMs, ms int64
		want        int64
	}{{-2, 1000, 450}, {-2, 5000, 200}, {0, -1, 450}} {
		cfg := testConfig()
		cfg.LocalRetentionMs, cfg.RetentionMs = w.localMs, w.ms
		f := tieredFixture()
		f.hro = 449
		c := leaderOf(f, cfg, KIP)
		c.Now = sim.AtMs(1001)
		c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
		if l := c.Brokers[0].Log; l.LocalLogStart != w.want || l.LogStart != 0 {
			t.Errorf("local.retention.ms %d retention.ms %d at 1001 ms: llso %d lso %d, want llso %d", w.localMs, w.ms, l.LocalLogStart, l.LogStart, w.want)
		}
	}
	// Nothing to delete leaves a log starting at 0 alone.
	c = leaderOf(untiered(250), testConfig(), KIP)
	c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	if l := c.Brokers[0].Log; l.LocalLogStart != 0 || l.LogStart != 0 {
		t.Errorf("no retention: lso %d llso %d", l.LogStart, l.LocalLogStart)
	}
	// A segment holding the log start is not below it: not uploaded, it
	// stays while copying.
	cfg = testConfig()
	cfg.LocalRetentionBytes = 0
	f := tieredFixture()
	f.hro = 200
	c = leaderOf(f, cfg, KIP)
	if err := c.deleteRecords(299); err != nil {
		t.Fatal(err)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	if l := c.Brokers[0].Log; l.LocalLogStart != 299 {
		t.Errorf("segment [200..299] holding the log start 299, not uploaded, was deleted: llso %d", l.LocalLogStart)
	}
}
