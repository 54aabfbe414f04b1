package model

import (
	"slices"
	"testing"

	"tierfetch/sim"
)

// Bootstrap tests: an empty replica is assigned to a tiered partition and
// the test follows it to its ISR join, checking where each protocol starts
// it and what it copies. Expected values follow from the fixture and the
// rules in docs/design/protocol.md, never from a previous run.

// bootstrap adds broker 1 as an empty replica of the fixture's leader b0
// and runs until it joins the ISR (or d passes).
func bootstrap(t *testing.T, f fixture, cfg Config, p Profile, lastTiered bool, d sim.Duration) *harness {
	t.Helper()
	h := newHarness(t, f.cluster(cfg, p, 2, []int{0}, lastTiered))
	h.runFor(sim.Second) // the leader's RLM tasks run once: HRO is seeded
	h.do(func(c *Cluster) {
		if err := c.addReplica(1); err != nil {
			t.Fatal(err)
		}
	})
	end := h.c.Now.Add(d)
	for !h.c.Ctrl.InISR(1) && h.c.Now < end && h.step() {
	}
	return h
}

// TestBootstrapStartsWhereEachProtocolSays: on the tiered fixture (remote
// [0,299], local [200,449], HRO 299) the leader's first copy task uploads
// [300..399] (the next segment starts at 400 <= HW 450), so HRO = 399.
// KIP-405 rebuilds the auxiliary state up to the leader's local log start
// (200) and copies [200,450); KIP-1023 rebuilds it up to EPUO = HRO+1 = 400
// and copies [400,450).
func TestBootstrapStartsWhereEachProtocolSays(t *testing.T) {
	cfg := testConfig()
	for _, c := range []struct {
		lastTiered bool
		start      int64
		path       Path
	}{{false, 200, PathLocalLogStart}, {true, 400, PathEarliestPendingUpload}} {
		h := bootstrap(t, tieredFixture(), cfg, KIP, c.lastTiered, time30s)
		b := h.c.Brokers[1]
		st := bootOf(h.events, 1)
		if !st.joined || !h.c.Ctrl.InISR(1) {
			t.Fatalf("flag=%v: b1 never joined the ISR\n%v", c.lastTiered, h)
		}
		if b.fetch.path != c.path || st.start != c.start || st.builds != 1 || st.retries != 0 {
			t.Errorf("flag=%v: path=%s start=%d aux=%d retries=%d, want %s start=%d aux=1 retries=0",
				c.lastTiered, b.fetch.path, st.start, st.builds, st.retries, c.path, c.start)
		}
		if want := (450 - c.start) * cfg.RecordBytes; st.fetched != want {
			t.Errorf("flag=%v: copied %d bytes from the leader, want %d ([%d,450))", c.lastTiered, st.fetched, want, c.start)
		}
		if l := b.Log; l.LogStart != 0 || l.LocalLogStart != c.start || l.LogEnd != 450 || l.HighWatermark != 450 {
			t.Errorf("flag=%v: b1 lso=%d llso=%d hw=%d leo=%d, want 0 %d 450 450", c.lastTiered, l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd, c.start)
		}
		if o, ok := firstDifference(&b.Log, &h.c.Brokers[0].Log, 450); ok {
			t.Errorf("flag=%v: b1 differs from the leader at %d", c.lastTiered, o)
		}
		// The producer state continues the leader's: the snapshot uploaded
		// with the segment ending at start-1, then the copied records.
		if p, ok := b.Log.Producer(pid); !ok || p.LastSeq != 449 || p.LastOffset != 449 {
			t.Errorf("flag=%v: producer state %v, want seq 449 at 449", c.lastTiered, b.Log.Producers)
		}
		if !slices.Equal(b.Log.Epochs, []EpochEntry{{0, 0}}) {
			t.Errorf("flag=%v: epochs %v, want [{0 0}]", c.lastTiered, b.Log.Epochs)
		}
		if want := int64(1024 + 16*(1+1)); st.auxBytes != want {
			t.Errorf("flag=%v: read %d bytes of aux state, want %d (one epoch entry, one producer)", c.lastTiered, st.auxBytes, want)
		}
		if st.listOffsets != 2 || h.sent[1][MsgListOffsets] != 2 {
			t.Errorf("flag=%v: %d ListOffsets (%d sent), want 2 (-4 and -2, or -2 and -6)", c.lastTiered, st.listOffsets, h.sent[1][MsgListOffsets])
		}
		if h.sent[1][MsgFetch] < 2 {
			t.Errorf("flag=%v: %d fetches sent", c.lastTiered, h.sent[1][MsgFetch])
		}
	}
}

const time30s = 30 * sim.Second

// TestBootstrapFullyTiered: everything committed is uploaded and the active
// segment is empty, so EPUO = HRO+1 = LEO = 200. Under KIP the flag-on
// follower rebuilds the auxiliary state up to 200 and copies nothing.
// Kafka 4.3's leader answers -6 at or beyond LEO with -1, and LLSO (100) is
// not LSO (0): the follower retries (epuo-unknown) for as long as no record
// arrives.
func TestBootstrapFullyTiered(t *testing.T) {
	f := fixture{hw: 200, hro: 199, remote: []segSpec{{0, 99, 0}, {100, 199, 0}},
		local: []segSpec{{100, 199, 0}, {200, 199, 0}}}
	h := bootstrap(t, f, testConfig(), KIP, true, time30s)
	st := bootOf(h.events, 1)
	if !st.joined || st.start != 200 || st.fetched != 0 || h.c.Brokers[1].fetch.path != PathEarliestPendingUpload || st.builds != 1 {
		t.Errorf("kip: %+v", st)
	}
	h = bootstrap(t, f, testConfig(), Kafka43, true, time30s)
	st = bootOf(h.events, 1)
	if st.joined || st.retries < 25 || st.byReason[RetryEPUOUnknown] != st.retries {
		t.Errorf("kafka-4.3: caught up %v, retries %v", st.joined, st.byReason)
	}
	// With the flag off both copy the leader's local log [100, 200).
	for _, p := range []Profile{KIP, Kafka43} {
		h = bootstrap(t, f, testConfig(), p, false, time30s)
		if st := bootOf(h.events, 1); !st.joined || st.start != 100 || st.fetched != 1000 {
			t.Errorf("%s flag off: %+v", p.Name(), st)
		}
	}
}
