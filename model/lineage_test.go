package model

import (
	"slices"
	"testing"

	"tierfetch/sim"
)

// TestExpirationFollowsTheLeaderLineage: the expiration task judges only
// the remote segments within the leader's epoch lineage by retention, and
// deletes those of an ended lineage without moving the log start offset.
// Kafka (storage/.../remote/storage/RemoteLogManager.java @025293cb,
// RLMExpirationTask.cleanupExpiredRemoteLogSegments):
//   - 1475-1526: the walk lists the remote segments epoch by epoch of the
//     leader's cache (listRemoteLogSegments(tp, epoch)); a segment that is
//     not wholly below the log start offset is judged by retention.ms and
//     retention.bytes only if isRemoteSegmentWithinLeaderEpochs holds, and
//     one outside the lineage is skipped (canProcess stays true); only a
//     retention breach moves the log start offset (1528-1529);
//   - buildRetentionSizeData: retention.bytes counts the finished segments
//     within the lineage only, once the estimate over all of them breaches;
//   - 1555-1592: segments whose epochs all precede the leader's earliest
//     epoch are deleted as unreferenced ("needed for unclean leader
//     election scenarios"), "No need to update the log-start-offset".
//
// The empty replica elected uncleanly (its cache {1: 0}) over remote
// segments of epoch 0 is seed 6050's case: before, its log start jumped
// past the old segments once they passed retention.ms.
func TestExpirationFollowsTheLeaderLineage(t *testing.T) {
	// ended: the leader holds only its own epoch 1 from offset 0; remote
	// storage holds [0..99] [100..199] of the ended lineage's epoch 0.
	ended := fixture{hw: 350, hro: -1, epoch: 1,
		remote: []segSpec{{0, 99, 0}, {100, 199, 0}},
		local:  []segSpec{{0, 299, 1}, {300, 349, 1}}}
	// forked: the leader followed epoch 0 to offset 149 and leads epoch 2
	// from 150; the old leader uploaded [100..199] of epoch 0, past the fork.
	forked := fixture{hw: 350, hro: 149, epoch: 2,
		remote: []segSpec{{0, 99, 0}, {100, 199, 0}},
		local:  []segSpec{{0, 99, 0}, {100, 149, 0}, {150, 299, 2}, {300, 349, 2}}}
	for _, c := range []struct {
		name         string
		f            fixture
		bytes, ms    int64
		now          sim.Time
		wantDeleting []int64
		wantLSO      int64
	}{
		// Unreferenced: deleted at once, past retention or not; LSO stays.
		{"ended lineage within retention", ended, -1, 100_000, sim.AtMs(60_000), []int64{0, 100}, 0},
		{"ended lineage past retention.ms", ended, -1, 100_000, sim.AtMs(120_000), []int64{0, 100}, 0},
		// [0..99] is within the lineage and expires; [100..199] ends past
		// the leader's epoch 0 (next epoch at 150): skipped, kept.
		{"fork past retention.ms", forked, -1, 1000, sim.AtMs(1001), []int64{0}, 100},
		{"fork past retention.bytes", forked, 0, -1, 0, []int64{0}, 100},
		// Local-only [150..349] is 2000 bytes; remote within the lineage
		// 1000: 3000 against 2001 leaves 999 over, less than [0..99]. (The
		// ended lineage's 1000 bytes would make it 1999 and delete it.)
		{"fork retention.bytes counts the lineage", forked, 2001, -1, 0, nil, 0},
	} {
		cfg := testConfig()
		cfg.RetentionBytes, cfg.RetentionMs = c.bytes, c.ms
		cl := leaderOf(c.f, cfg, KIP)
		if c.f.epoch == 1 {
			for _, b := range cl.Brokers {
				b.Log.Epochs = []EpochEntry{{Epoch: 1, StartOffset: 0}}
			}
		}
		cl.Now = c.now
		if got := expirationRun(cl, -1); !slices.Equal(got, c.wantDeleting) {
			t.Errorf("%s: deleting %v, want %v", c.name, got, c.wantDeleting)
		}
		if lso := cl.Brokers[0].Log.LogStart; lso != c.wantLSO {
			t.Errorf("%s: LSO %d, want %d", c.name, lso, c.wantLSO)
		}
	}
}

// TestWithinLineage: isRemoteSegmentWithinLeaderEpochs's cases, including
// Kafka's own overlapping example (its comment: cache {(5, 10), (7, 15),
// (9, 100)}; segment2 [14..150] {(5, 14), (7, 15), (9, 100)} stays valid
// once the cache is truncated to {(7, 51), (9, 100)}).
func TestWithinLineage(t *testing.T) {
	e := func(p ...int64) []EpochEntry {
		var out []EpochEntry
		for i := 0; i < len(p); i += 2 {
			out = append(out, EpochEntry{Epoch: int32(p[i]), StartOffset: p[i+1]})
		}
		return out
	}
	leader := e(5, 10, 7, 15, 9, 100)
	for _, c := range []struct {
		name   string
		seg    RemoteSegment
		leader []EpochEntry
		logEnd int64
		want   bool
	}{
		{"one epoch inside", RemoteSegment{Base: 10, End: 14, Epochs: e(5, 10)}, leader, 200, true},
		{"ends past the epoch", RemoteSegment{Base: 10, End: 15, Epochs: e(5, 10)}, leader, 200, false},
		{"spans epochs as the leader", RemoteSegment{Base: 10, End: 150, Epochs: e(5, 10, 7, 15, 9, 100)}, leader, 200, true},
		{"next epoch elsewhere", RemoteSegment{Base: 10, End: 150, Epochs: e(5, 10, 7, 16, 9, 100)}, leader, 200, false},
		{"epoch unknown to the leader", RemoteSegment{Base: 15, End: 60, Epochs: e(6, 15)}, leader, 200, false},
		{"last epoch above the leader's", RemoteSegment{Base: 150, End: 160, Epochs: e(10, 150)}, leader, 200, false},
		{"last epoch below the leader's", RemoteSegment{Base: 0, End: 9, Epochs: e(3, 0)}, leader, 200, false},
		{"reaches the log end", RemoteSegment{Base: 100, End: 200, Epochs: e(9, 100)}, leader, 200, false},
		{"starts before a later epoch", RemoteSegment{Base: 14, End: 20, Epochs: e(7, 14)}, leader, 200, false},
		{"overlap after truncation", RemoteSegment{Base: 14, End: 150, Epochs: e(5, 14, 7, 15, 9, 100)}, e(7, 51, 9, 100), 200, true},
		{"empty epoch filtered", RemoteSegment{Base: 10, End: 14, Epochs: e(4, 10, 5, 10)}, leader, 200, true},
	} {
		if got := withinLineage(&c.seg, c.logEnd, c.leader); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestUnreferencedCopyInFlight: the unreferenced deletion lists a copy of
// the ended lineage still in flight (COPY_SEGMENT_STARTED) and deletes it
// too (RemoteLogManager.java:1555-1592 @025293cb has no check for segments
// being copied); Kafka's metadata cache raises an epoch's highest offset
// only when a copy finishes, so the segment never counts for it.
func TestUnreferencedCopyInFlight(t *testing.T) {
	f := fixture{hw: 350, hro: -1, epoch: 1,
		remote: []segSpec{{0, 99, 0}, {100, 199, 0}},
		local:  []segSpec{{0, 299, 1}, {300, 349, 1}}}
	cl := leaderOf(f, testConfig(), KIP)
	for _, b := range cl.Brokers {
		b.Log.Epochs = []EpochEntry{{Epoch: 1, StartOffset: 0}}
	}
	cl.Remote.Start(RemoteSegment{Base: 200, End: 299, Bytes: 1000, Epochs: []EpochEntry{{Epoch: 0, StartOffset: 200}}})
	if got := expirationRun(cl, -1); !slices.Equal(got, []int64{0, 100, 200}) {
		t.Errorf("deleting %v, want [0 100 200]", got)
	}
	if h := cl.Remote.HighestOffsetFor(0); h != 199 {
		t.Errorf("highest offset of epoch 0 %d, want 199: the copy never finished", h)
	}
}
