package model

import (
	"slices"
	"sort"
	"testing"
)

// The bug zoo is part of the product (simrun mutants): each mutant must do
// the one wrong thing its comment says, so that the hunt in scenarios/
// measures the invariants and not a mutant that does nothing.
func TestMutantsDoWhatTheySay(t *testing.T) {
	with := func(c *Cluster, m Mutant) *Cluster { c.Cfg.Mutants = c.Cfg.Mutants.With(m); return c }

	// hro-only-from-upload: the first copy run does not seed HRO.
	f := tieredFixture()
	f.hro = -1
	c := with(leaderOf(f, testConfig(), KIP), MutantHROOnlyFromUpload)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if hro := c.Brokers[0].HighestRemote; hro != -1 {
		t.Errorf("hro-only-from-upload: HRO %d after the first run, want still -1", hro)
	}
	c.remoteDone(uploads(c)[0], false)
	if hro := c.Brokers[0].HighestRemote; hro != 399 {
		t.Errorf("hro-only-from-upload: HRO %d after an upload, want 399", hro)
	}

	// retention-before-upload: local retention deletes what is not uploaded.
	cfg := testConfig()
	cfg.LocalRetentionBytes = 0
	c = with(leaderOf(tieredFixture(), cfg, KIP), MutantRetentionBeforeUpload)
	c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	// Every segment breaches and counts as uploaded, the active one too: it
	// is rolled and deleted like the others (Kafka keeps one, empty).
	if llso := c.Brokers[0].Log.LocalLogStart; llso != 450 {
		t.Errorf("retention-before-upload: llso %d, want 450 (past HRO 299)", llso)
	}

	// upload-above-hw: a segment whose successor starts above HW is uploaded.
	c = with(leaderOf(untiered(99), testConfig(), KIP), MutantUploadAboveHW)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
	if ups := uploads(c); len(ups) != 1 {
		t.Errorf("upload-above-hw: %v", ups)
	}

	// lso-after-remote-delete: LSO moves when the deletion finishes.
	cfg = testConfig()
	cfg.RetentionBytes = 3500
	c = with(expiring(cfg), MutantLSOAfterRemoteDelete)
	c.fire(TimerKey{Broker: 0, Kind: TimerRLMExpire})
	if lso := c.Brokers[0].Log.LogStart; lso != 0 {
		t.Errorf("lso-after-remote-delete: LSO %d before the deletion finished", lso)
	}
	for _, op := range remoteOps(c) {
		c.remoteDone(op, false)
	}
	if lso := c.Brokers[0].Log.LogStart; lso != 100 {
		t.Errorf("lso-after-remote-delete: LSO %d after, want 100", lso)
	}

	// llso-after-local-delete: segments go, the local log start stays.
	cfg = testConfig()
	cfg.LocalRetentionBytes = 0
	c = with(leaderOf(tieredFixture(), cfg, KIP), MutantLLSOAfterLocalDelete)
	c.fire(TimerKey{Broker: 0, Kind: TimerRetention})
	if l := c.Brokers[0].Log; l.LocalLogStart != 200 || l.Segments[0].Base != 300 {
		t.Errorf("llso-after-local-delete: llso %d, first segment %d", l.LocalLogStart, l.Segments[0].Base)
	}

	// stale-llso-after-aux and hw-not-reset: the aux build leaves the local
	// log start at the leader's log start, or the old HW.
	for _, m := range []Mutant{MutantStaleLLSOAfterAux, MutantHWNotReset} {
		c, out, _ := auxFollower(t, epochFixture(), KIP, 200, 0, 2)
		c.Cfg.Mutants = c.Cfg.Mutants.With(m)
		c.Brokers[1].Log.HighWatermark = 0
		c.deliver(Message{Kind: MsgEpochEndResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: 2, Epoch: 1, Offset: 200})
		c.Brokers[1].Log.HighWatermark = 17 // what the follower had before the restart
		c.remoteDone(snapshotRead(t, c, remoteOps(c)[0]), false)
		l := c.Brokers[1].Log
		switch m {
		case MutantStaleLLSOAfterAux:
			if l.LocalLogStart != 0 || l.LogEnd != 200 {
				t.Errorf("%s: llso %d leo %d", m, l.LocalLogStart, l.LogEnd)
			}
		case MutantHWNotReset:
			if l.HighWatermark != 17 || l.LocalLogStart != 200 {
				t.Errorf("%s: hw %d llso %d", m, l.HighWatermark, l.LocalLogStart)
			}
		}
	}

	// hro-without-epoch-end: the seeded HRO is not clamped to the epoch end.
	f = fixture{hw: 450, hro: -1, epoch: 1, remote: []segSpec{{0, 99, 0}, {100, 199, 0}},
		local: []segSpec{{100, 149, 0}, {150, 199, 1}, {200, 249, 1}}}
	for _, m := range []Mutants{0, Mutants(0).With(MutantHROWithoutEpochEnd)} {
		c := leaderOf(f, testConfig(), KIP)
		c.Cfg.Mutants = m
		c.fire(TimerKey{Broker: 0, Kind: TimerRLMCopy})
		want := int64(149) // epoch 0 ends at 150 here
		if m != 0 {
			want = 199
		}
		if hro := c.Brokers[0].HighestRemote; hro != want {
			t.Errorf("mutants %b: seeded HRO %d, want %d", m, hro, want)
		}
	}

	// epuo-below-lso: the follower takes EPUO below LSO instead of falling back.
	cl := tieredFixture().cluster(testConfig(), KIP, 3, []int{0}, true)
	cl.Cfg.Mutants = cl.Cfg.Mutants.With(MutantEPUOBelowLSO)
	if err := cl.addReplica(1); err != nil {
		t.Fatal(err)
	}
	b := cl.Brokers[1]
	b.fetch.query = query(ErrOffsetMovedToTieredStorage, 0, map[int64]int64{-2: 500, -6: 300})
	answered(cl, b)
	sent(cl)
	cl.decide(b)
	if n := len(eventsOf(cl, EvFallback)); b.fetch.aux.start != 300 || b.fetch.aux.logStart != 500 || n != 0 {
		t.Errorf("epuo-below-lso: aux build for [%d, %d), fallbacks %d", b.fetch.aux.logStart, b.fetch.aux.start, n)
	}

	// empty-again: a follower with no local records counts as empty.
	for _, m := range []Mutants{0, Mutants(0).With(MutantEmptyAgain)} {
		c, req := followerAwaiting(t, tieredFixture(), testConfig())
		c.Cfg.Mutants = m
		c.Brokers[1].Log.TruncateFullyAndStartAt(300, 0)
		c.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, Err: ErrOffsetMovedToTieredStorage})
		want := int64(300)
		if m != 0 {
			want = 0
		}
		if q := c.Brokers[1].fetch.query; q == nil || q.LogEnd != want {
			t.Errorf("mutants %b: the query sees LEO %v, want %d", m, q, want)
		}
	}
}

func TestMutantNames(t *testing.T) {
	names := MutantNames()
	if len(names) != int(NumMutants) || !sort.StringsAreSorted(names) {
		t.Errorf("names %v", names)
	}
	for m := Mutant(0); m < NumMutants; m++ {
		if got, ok := MutantByName(m.String()); !ok || got != m {
			t.Errorf("%s by name: %v %v", m, got, ok)
		}
		s := Mutants(0).With(m)
		for o := Mutant(0); o < NumMutants; o++ {
			if s.Has(o) != (o == m) {
				t.Errorf("set of %s has %s: %v", m, o, s.Has(o))
			}
		}
	}
	if _, ok := MutantByName("no-such-bug"); ok || slices.Contains(names, "") {
		t.Errorf("an unknown name was found")
	}
}
