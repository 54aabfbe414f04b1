package invariants

import (
	"slices"
	"strings"
	"testing"

	"tierfetch/model"
)

// Edges of the checker's helpers and labels that the per-invariant tests
// reach only on one side: each test names the rule it holds at its boundary.

// TestRemoteHoldsItsBounds: a remote segment [base, end] holds o exactly
// when base <= o <= end and it is in one of the asked states.
func TestRemoteHoldsItsBounds(t *testing.T) {
	c := healthy() // remote [0,99], copy finished
	for _, tc := range []struct {
		o      int64
		states []model.RemoteState
		want   bool
	}{
		{-1, []model.RemoteState{model.CopyFinished}, false},
		{0, []model.RemoteState{model.CopyFinished}, true},
		{99, []model.RemoteState{model.CopyFinished}, true},
		{100, []model.RemoteState{model.CopyFinished}, false},
		{50, []model.RemoteState{model.DeleteStarted}, false},
		{50, []model.RemoteState{model.DeleteStarted, model.CopyFinished}, true},
	} {
		if got := remoteHolds(c, tc.o, tc.states...); got != tc.want {
			t.Errorf("remote [0,99] holds %d in %v: %v, want %v", tc.o, tc.states, got, tc.want)
		}
	}
}

// TestHistoryFromTheLastOffsetOfARemoteSegment: the committed history may
// start at the last offset of a remote segment (log start 99, local log from
// 100): the batch ending there is read from remote storage.
func TestHistoryFromTheLastOffsetOfARemoteSegment(t *testing.T) {
	c := healthy()
	l := &c.Brokers[0].Log
	l.Segments = l.Segments[1:] // local [100,300)
	l.LocalLogStart, l.LogStart = 100, 99
	if b, ok := new(Checker).remoteBatchAt(c, 99); !ok || b.Base != 50 || b.Last() != 99 {
		t.Errorf("remote batch at 99 (segment [0,99], batch [50,99]): %v %v", b, ok)
	}
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Errorf("history from 99, the last offset of remote [0,99]: %v", v)
	}
	if k.histStart != 99 || k.histEnd != 300 {
		t.Errorf("history [%d,%d), want [99,300)", k.histStart, k.histEnd)
	}
}

// TestPlainHoleAtOffsetZeroIsNotStaleHRO: a hole at offset 0 with no
// disable in the run is no known finding: no HRO was carried across a
// disable (stale-hro needs pos <= that HRO).
func TestPlainHoleAtOffsetZeroIsNotStaleHRO(t *testing.T) {
	runTeeth(t, []teethCase{
		{name: "every remote segment gone, HRO 99 kept", breakIt: func(c *model.Cluster) {
			c.Remote.Remove(c.Remote.Segments[0].ID)
		}, want: NoHole},
	})
	c := healthy()
	k := New(c)
	c.Remote.Remove(c.Remote.Segments[0].ID)
	if v := k.Check(c, c.Now); v == nil || v.Invariant != NoHole || v.Kind != "" || !strings.Contains(v.Message, "offset 0 ") {
		t.Errorf("a hole at 0, no disable, no unclean election: %v, want an unlabelled no-hole at offset 0", v)
	}
}

// TestOfflineWithCopyingDisabledDoesNotStartTheStaleClock: with copying
// disabled the stale clock runs from when staleness was seen, so a
// partition that was offline must not leave it running: back with nothing
// missing, long after, nothing is stale.
func TestOfflineWithCopyingDisabledDoesNotStartTheStaleClock(t *testing.T) {
	c := healthy()
	c.Cfg.RemoteLogCopyDisable = true
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Ctrl.ISR = []int{0}
	if err := crash(c, 0); err != nil {
		t.Fatal(err)
	}
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	if err := restart(c, 0); err != nil {
		t.Fatal(err)
	}
	c.Now = c.Now.Add(10 * c.Cfg.RLMTaskInterval)
	if v := k.Check(c, c.Now); v != nil {
		t.Errorf("back online with nothing missing, copying disabled: %v", v)
	}
}

// TestStaleLogStartMessageSaysHowLong: the message gives how long the log
// start offset has been stale, in seconds: the grace (metadata ready 0 +
// task interval 1 s + 1 s) and a microsecond is "2.0s".
func TestStaleLogStartMessageSaysHowLong(t *testing.T) {
	c := healthy()
	k := New(c)
	staleLeader(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Remote.Remove(c.Remote.Segments[0].ID)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Now = c.Now.Add(c.Cfg.RemoteMetadataReady + c.Cfg.RLMTaskInterval + 1_000_001)
	v := k.Check(c, c.Now)
	if v == nil || v.Invariant != StaleLogStart || !strings.Contains(v.Message, "for 2.0s") {
		t.Errorf("stale for 2 s and 1 us: %v, want a message saying \"for 2.0s\"", v)
	}
}

// TestUncleanElectionGapIsLabelled: after a real unclean election, a hole in
// what the new leader could not serve when elected is the known finding
// unclean-election; the same hole after a clean election is not.
func TestUncleanElectionGapIsLabelled(t *testing.T) {
	for _, unclean := range []bool{true, false} {
		c := healthy()
		k := New(c)
		if v := k.Check(c, c.Now); v != nil {
			t.Fatal(v)
		}
		// b1's local log starts at 200: [100,200) is neither local on it
		// nor remote (remote holds [0,99]).
		b1 := &c.Brokers[1].Log
		b1.IncrementLocalLogStart(200)
		if unclean {
			c.Cfg.UncleanLeaderElectionEnable = true
			c.Ctrl.ISR = []int{0}
		}
		if err := electLeader(c, 1); err != nil {
			t.Fatal(err)
		}
		v := k.Check(c, c.Now)
		want := ""
		if unclean {
			want = KindUncleanElection
		}
		if v == nil || v.Invariant != NoHole || v.Kind != want {
			t.Errorf("unclean=%v: b1 elected without [100,200): %v, want no-hole labelled %q", unclean, v, want)
		}
	}
}

// bootstrapped adds b2 to healthy()'s partition with
// follower.fetch.last.tiered.offset.enable lastTiered and delivers every
// message and completes every remote operation, timers aside, until it has
// joined the ISR. Either way its local log starts at 100: under KIP-405 it
// rebuilds the auxiliary state up to the leader's local log start 50 from
// the remote segment [0..99] and starts after it, under KIP-1023 at EPUO =
// HRO+1 = 100.
func bootstrapped(t *testing.T, lastTiered bool) *model.Cluster {
	t.Helper()
	c := healthy()
	if err := setBool(c, "follower_fetch_last_tiered_offset_enable", lastTiered, 2); err != nil {
		t.Fatal(err)
	}
	c.Advance()
	c.Step(c.Now, &model.Input{Kind: model.EvAddReplica, Broker: 2})
	queue := slices.Clone(c.Ready().Effects)
	c.Advance()
	for n := 0; len(queue) > 0 && !c.Ctrl.InISR(2) && n < 1000; n++ {
		var in model.Input
		switch e := queue[0]; e.Kind {
		case model.EffSend:
			in = model.Input{Kind: model.EvDeliver, Msg: e.Msg}
		case model.EffRemote:
			in = model.Input{Kind: model.EvRemoteDone, Op: e.Remote}
		}
		queue = queue[1:]
		if in.Kind == 0 {
			continue // a timer: the pump never lets one fire
		}
		c.Step(c.Now, &in)
		queue = append(queue, c.Ready().Effects...)
		c.Advance()
	}
	if !c.Ctrl.InISR(2) {
		t.Fatalf("flag=%v: b2 never joined the ISR", lastTiered)
	}
	return c
}

// TestGapAfterDisableLabelledThroughTheChecker drives the checker through a
// disable: tiering is switched off with delete-on-disable while b0 leads
// with its local log from 50; b2, whose local log started at 100, is then
// elected: [50,100) is gone everywhere, the known finding
// follower-gap-after-disable, or tiered-follower-after-disable when b2
// bootstrapped from EPUO.
func TestGapAfterDisableLabelledThroughTheChecker(t *testing.T) {
	for _, tc := range []struct {
		name       string
		leader     int
		lastTiered bool
		want       string
	}{
		{"b2, bootstrapped from the local log start", 2, false, KindFollowerGapAfterDisable},
		{"b2, bootstrapped from EPUO", 2, true, KindTieredFollowerAfterDisable},
	} {
		c := bootstrapped(t, tc.lastTiered) // b0 leads: remote [0,99], local [50,300)
		if b := c.Brokers[2]; b.Log.LocalLogStart != 100 {
			t.Fatalf("%s: b2 starts at %d", tc.name, b.Log.LocalLogStart)
		}
		k := New(c)
		if v := k.Check(c, c.Now); v != nil {
			t.Fatalf("%s: before: %v", tc.name, v)
		}
		c.Cfg.RemoteLogDeleteOnDisable = true
		if err := setBool(c, "remote_storage_enable", false, -1); err != nil {
			t.Fatal(err)
		}
		if v := k.Check(c, c.Now); v != nil {
			t.Fatalf("%s: after the disable, b0 leading: %v", tc.name, v)
		}
		if err := electLeader(c, tc.leader); err != nil {
			t.Fatal(err)
		}
		v := k.Check(c, c.Now)
		if v == nil || v.Kind != tc.want {
			t.Errorf("%s elected after the disable: %v, want a violation labelled %q", tc.name, v, tc.want)
		}
	}
}
