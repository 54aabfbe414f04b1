package model

import (
	"slices"
	"strings"
	"testing"
)

// TestFixNames: every fix has a distinct name that FixByName finds, the
// validated ones are AllFixes and FixNames, each closes at least one kind,
// and each replaced one names the fix that replaced it.
func TestFixNames(t *testing.T) {
	seen := map[string]bool{}
	for f := Fix(0); f < numAllFixes; f++ {
		name := f.String()
		if name == "" || seen[name] || strings.ContainsAny(name, " ,") {
			t.Errorf("fix %d: name %q empty, repeated or not a --fix word", f, name)
		}
		seen[name] = true
		if g, ok := FixByName(name); !ok || g != f {
			t.Errorf("FixByName(%q) = %v, %v", name, g, ok)
		}
		by, replaced := f.Replaced()
		switch {
		case replaced != (f >= NumFixes):
			t.Errorf("%s: replaced %v, want %v", name, replaced, f >= NumFixes)
		case replaced && (by >= NumFixes || len(f.Kinds()) != 0):
			t.Errorf("%s: replaced by %v and closes %v: want a validated fix and no kind", name, by, f.Kinds())
		case !replaced && len(f.Kinds()) == 0:
			t.Errorf("%s closes no finding kind", name)
		}
		if AllFixes.Has(f) == replaced {
			t.Errorf("AllFixes has %s: %v, want %v", name, AllFixes.Has(f), !replaced)
		}
	}
	if n := len(FixNames()); n != int(NumFixes) || !slices.IsSorted(FixNames()) {
		t.Errorf("FixNames %v: want the %d validated fixes, sorted", FixNames(), NumFixes)
	}
	if _, ok := FixByName("all"); ok {
		t.Error(`"all" is --fix's word for AllFixes, not a fix`)
	}
	if AllFixes.String() != "all" || Fixes(0).With(FixStaleHRO).With(FixAuxStateAtLogStart).String() != "aux-state-at-log-start,stale-hro" {
		t.Errorf("String: %q and %q", AllFixes.String(), Fixes(0).With(FixStaleHRO).With(FixAuxStateAtLogStart).String())
	}
}

// TestFixStaleHROLowersTheMetadata: with FixStaleHRO the deletion of an
// epoch's segments lowers its highest offset (the DELETE_SEGMENT_STARTED
// handler recomputes it from the segments a read may still find, and drops
// the epoch's entry when none is left), and the disable resets every
// replica's in-memory HRO: after restarts and a re-enable the new copy task
// seeds nothing and uploads from the log start. Without the fix the same
// steps seed 299 (TestHighestOffsetSurvivesDeletion).
func TestFixStaleHROLowersTheMetadata(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP) // remote [0..99] [100..199] [200..299], epoch 0
	c.setFixes(Fixes(0).With(FixStaleHRO))
	c.Remote.SetState(c.Remote.Segments[2].ID, DeleteStarted)
	if h := c.Remote.HighestOffsetFor(0); h != 199 {
		t.Fatalf("epoch 0's highest after [200..299]'s deletion started: %d, want 199 ([100..199] is left)", h)
	}
	b0 := c.Brokers[0]
	disableWithDelete(t, c)
	if h := c.Remote.HighestOffsetFor(0); h != -1 || len(c.Remote.highest) != 0 {
		t.Fatalf("after the disable: epoch 0's highest %d, entries %v, want none", h, c.Remote.highest)
	}
	if b0.HighestRemote != -1 {
		t.Fatalf("after the disable: b0's HRO %d, want -1", b0.HighestRemote)
	}
	if err := c.setConfig("remote_storage_enable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if b0.HighestRemote != -1 || b0.lead.copiedOffset != -1 {
		t.Errorf("re-enabled: HRO %d copied offset %d, want -1: nothing is in remote storage", b0.HighestRemote, b0.lead.copiedOffset)
	}
	if ups := uploads(c); len(ups) != 1 || c.Remote.Segments[c.Remote.Find(ups[0].Segment)].Base != 200 {
		t.Errorf("the new copy task uploads %v, want [200..299], the first local segment at or above the log start", ups)
	}
}

// TestFixStaleHROFixtureDeletion: a fixture's segment listed
// DELETE_SEGMENT_STARTED had its event folded already, so with FixStaleHRO
// it does not count in its epoch's highest offset.
func TestFixStaleHROFixtureDeletion(t *testing.T) {
	f := tieredFixture()
	c := leaderOf(f, testConfig(), KIP)
	c.Remote.Segments[2].State = DeleteStarted
	c.Remote.InitHighest()
	if h := c.Remote.HighestOffsetFor(0); h != 299 {
		t.Fatalf("without the fix: %d, want 299", h)
	}
	c.setFixes(Fixes(0).With(FixStaleHRO))
	if h := c.Remote.HighestOffsetFor(0); h != 199 {
		t.Errorf("with the fix: %d, want 199", h)
	}
}

// TestFixIdleEPUOAtTheLogEnd: Kafka 4.3's -6 answer for an EPUO at the log
// end is -1; with FixIdleFullyTieredStall it is the log end. Beyond the log
// end it stays -1.
func TestFixIdleEPUOAtTheLogEnd(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), Kafka43)
	l := c.Leader()
	l.HighestRemote = l.Log.LogEnd - 1
	if got := Kafka43.EarliestPendingUploadOffset(c, l); got != -1 {
		t.Fatalf("without the fix: %d, want -1", got)
	}
	c.setFixes(Fixes(0).With(FixIdleFullyTieredStall))
	if got := Kafka43.EarliestPendingUploadOffset(c, l); got != l.Log.LogEnd {
		t.Errorf("with the fix: %d, want the log end %d", got, l.Log.LogEnd)
	}
	l.HighestRemote = l.Log.LogEnd
	if got := Kafka43.EarliestPendingUploadOffset(c, l); got != -1 {
		t.Errorf("EPUO beyond the log end: %d, want -1", got)
	}
}

// TestFixDecisionPoints: the decisions each of the other fixes changes,
// with the fix and without.
func TestFixDecisionPoints(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), Kafka43)
	if c.AuxStateTrivial(300, 300) || c.ExpirationSeedsHighestRemote() {
		t.Fatal("kafka-4.3 without fixes: a build at the log start needs a segment, and the expiration task seeds nothing")
	}
	c.setFixes(Fixes(0).With(FixAuxStateAtLogStart).With(FixRestartedLeaderCopyDisabled))
	if !c.AuxStateTrivial(300, 300) || c.AuxStateTrivial(301, 300) || !c.ExpirationSeedsHighestRemote() {
		t.Error("with the fixes: a build at the log start needs nothing (one above it still does), and the expiration task seeds HRO")
	}
	// FixStaleLocalLogStart: a log start raised with tiering off moves the
	// local log start offset UnifiedLog keeps.
	for _, fix := range []bool{false, true} {
		c := leaderOf(tieredFixture(), testConfig(), KIP)
		if fix {
			c.setFixes(Fixes(0).With(FixStaleLocalLogStart))
		}
		c.Cfg.RemoteStorageEnable = false
		l := &c.Leader().Log
		c.incrementLogStart(l, 400)
		if want := map[bool]int64{false: 200, true: 400}[fix]; l.LocalLogStartOffset() != want {
			t.Errorf("fix %v: -4 would answer %d after raising the log start to 400 with tiering off, want %d", fix, l.LocalLogStartOffset(), want)
		}
	}
	// findLogStartOffset: Kafka takes the first segment listed, whatever
	// its state; the skip-only proposal the first finished one's start
	// offset; FixStaleLogStartUnfinishedSegment the first offset of the
	// epoch a read finds. Here [0..99] is being deleted and [100..199]
	// holds epoch 0 up to 149 and epoch 1 from 150 (a leader's records of
	// epoch 0 kept below its log start, uploaded whole).
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	r := &c.Remote
	r.SetState(r.Segments[0].ID, DeleteStarted)
	r.Segments[1].Epochs = []EpochEntry{{Epoch: 0, StartOffset: 100}, {Epoch: 1, StartOffset: 150}}
	r.Version++
	for _, tc := range []struct {
		fixes  Fixes
		epoch  int32
		want   int64
		reason string
	}{
		{0, 0, 0, "Kafka: the segment being deleted"},
		{Fixes(0).With(FixUnfinishedSegmentSkipOnly), 0, 100, "skip-only: the first finished segment"},
		{Fixes(0).With(FixStaleLogStartUnfinishedSegment), 0, 100, "fixed: epoch 0 begins at [100..199]'s start"},
		{0, 1, 100, "Kafka: [100..199]'s start offset, records of epoch 0"},
		{Fixes(0).With(FixUnfinishedSegmentSkipOnly), 1, 100, "skip-only: the same start offset"},
		{Fixes(0).With(FixStaleLogStartUnfinishedSegment), 1, 150, "fixed: where epoch 1 begins in it"},
	} {
		c.Cfg.Fixes = tc.fixes
		if got, ok := c.firstRemoteOffset(r, tc.epoch); !ok || got != tc.want {
			t.Errorf("epoch %d with %q: %d, %v; want %d (%s)", tc.epoch, tc.fixes, got, ok, tc.want, tc.reason)
		}
	}
	if _, ok := c.firstRemoteOffset(r, 2); ok {
		t.Error("epoch 2: no segment holds it, want none")
	}
	// FixHROAfterTruncation: a truncation below HRO lowers it.
	c = leaderOf(tieredFixture(), testConfig(), KIP)
	b := c.Leader()
	c.truncatedTo(b, 250)
	if b.HighestRemote != 299 {
		t.Fatalf("without the fix: HRO %d, want 299 (it only rises)", b.HighestRemote)
	}
	c.setFixes(Fixes(0).With(FixHROAfterTruncation))
	c.truncatedTo(b, 350)
	c.truncatedTo(b, 250)
	if b.HighestRemote != 249 {
		t.Errorf("with the fix: HRO %d after truncations to 350 and 250, want 249", b.HighestRemote)
	}
}

// TestFixFollowerGapRefusesTheDisable: a delete-on-disable is refused while
// a replica's local log starts above the leader's, and goes ahead when none
// does.
func TestFixFollowerGapRefusesTheDisable(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.setFixes(Fixes(0).With(FixFollowerGapAfterDisable))
	if err := c.setConfig("remote_log_delete_on_disable", true, 0, -1); err != nil {
		t.Fatal(err)
	}
	c.Brokers[1].Log.IncrementLocalLogStart(300)
	err := c.setConfig("remote_storage_enable", false, 0, -1)
	if err == nil || !strings.Contains(err.Error(), "b1's local log starts at 300") || !c.Tiered() {
		t.Fatalf("disable with b1's local log at 300 above b0's 200: %v, tiered %v; want refused", err, c.Tiered())
	}
	c.Leader().Log.IncrementLocalLogStart(300)
	if err := c.setConfig("remote_storage_enable", false, 0, -1); err != nil || c.Tiered() {
		t.Errorf("disable with both at 300: %v, tiered %v; want done", err, c.Tiered())
	}
}
