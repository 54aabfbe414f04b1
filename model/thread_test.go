package model

import (
	"slices"
	"testing"

	"tierfetch/sim"
)

// fleetHarness drives a Fleet as harness drives a Cluster: messages arrive
// after netLat, timers fire when due, remote operations finish after
// remLat (no bandwidth, no randomness).
type fleetHarness struct {
	t      *testing.T
	f      *Fleet
	queue  []hEvent
	seq    uint64
	netLat sim.Duration
	remLat sim.Duration
	events []timed
}

type timed struct {
	at sim.Time
	e  Event
}

// newTieredPairFleet is a fleet harness of n partitions t-0.. of the tiered
// fixture, each led by b0 with b1 following (one fetcher thread), the
// flag on, under the test config.
func newTieredPairFleet(t *testing.T, n int) *fleetHarness {
	cfg, fx := testConfig(), tieredFixture()
	var parts []PartitionInit
	for p := range int32(n) {
		parts = append(parts, PartitionInit{TP: TopicPartition{"t", p}, Cfg: cfg, Replicas: []int{0, 1}, Init: fx.initial(cfg.RecordBytes)})
	}
	return newFleetHarness(t, NewFleet(FleetConfig{}, KIP, 2, true, parts))
}

func newFleetHarness(t *testing.T, f *Fleet) *fleetHarness {
	h := &fleetHarness{t: t, f: f, netLat: sim.Millisecond, remLat: 100 * sim.Millisecond}
	h.drain()
	return h
}

func (h *fleetHarness) push(e hEvent) {
	h.seq++
	e.seq = h.seq | 1<<62
	if rank, ok := e.timer.TaskRank(h.f.nbrokers); ok && e.kind == hTimer && h.f.multi {
		e.seq = rank // first at its instant, as the harness orders it
	}
	i, _ := slices.BinarySearchFunc(h.queue, e, func(a, b hEvent) int {
		if a.at != b.at {
			return int(min(max(a.at-b.at, -1), 1))
		}
		return int(min(max(int64(a.seq)-int64(b.seq), -1), 1))
	})
	h.queue = slices.Insert(h.queue, i, e)
}

// pop takes the queue's first event and returns when it is due and the
// input it is.
func (h *fleetHarness) pop() (sim.Time, Input) {
	e := h.queue[0]
	h.queue = h.queue[1:]
	in := Input{Kind: EvDeliver, Msg: e.msg}
	switch e.kind {
	case hTimer:
		in = Input{Kind: EvTimer, Timer: e.timer}
	case hRemote:
		in = Input{Kind: EvRemoteDone, Op: e.op}
	}
	return e.at, in
}

func (h *fleetHarness) cancel(k TimerKey) {
	h.queue = slices.DeleteFunc(h.queue, func(e hEvent) bool { return e.kind == hTimer && e.timer == k })
}

func (h *fleetHarness) drain() {
	rd := h.f.Ready()
	for _, e := range rd.Effects {
		switch e.Kind {
		case EffSend:
			h.push(hEvent{at: h.f.Now.Add(h.netLat), kind: hDeliver, msg: e.Msg})
		case EffSetTimer:
			h.cancel(e.Timer)
			h.push(hEvent{at: h.f.Now.Add(e.After), kind: hTimer, timer: e.Timer})
		case EffCancelTimer:
			h.cancel(e.Timer)
		case EffRemote:
			h.push(hEvent{at: h.f.Now.Add(h.remLat), kind: hRemote, op: e.Remote})
		}
	}
	for _, e := range rd.Events {
		if extra := e.FieldsOutsideKind(); len(extra) > 0 {
			h.t.Errorf("t=%v: %s sets %v outside its kind", h.f.Now, e.Kind, extra)
		}
		h.events = append(h.events, timed{h.f.Now, e})
	}
	h.f.Advance()
}

// input steps the fleet on an exogenous input now.
func (h *fleetHarness) input(in Input) {
	h.f.Step(h.f.Now, &in)
	h.drain()
}

// runUntil runs every event due at or before t.
func (h *fleetHarness) runUntil(t sim.Time) {
	for n := 0; len(h.queue) > 0 && h.queue[0].at <= t; n++ {
		if n > maxHarnessSteps {
			h.t.Fatalf("more than %d steps", maxHarnessSteps)
		}
		at, in := h.pop()
		h.f.Step(at, &in)
		h.drain()
	}
}

// first returns the first event of kind k of partition p (ok false: none).
func (h *fleetHarness) first(k EventKind, p PartID) (timed, bool) {
	for _, x := range h.events {
		if x.e.Kind == k && x.e.Part == p {
			return x, true
		}
	}
	return timed{}, false
}

// javaFetcherID is Kafka's thread rule written out for one-letter topics:
// abs(31 * topic.hashCode() + partition) % n, where a one-character
// String's hashCode is its character.
func javaFetcherID(topic byte, partition, n int) int {
	v := 31*int(topic) + partition
	if v < 0 {
		v = -v
	}
	return v % n
}

// auxWaitFleet: two tiered partitions t-0 and t-1 led by b0, each given an
// empty replica on b1 at once (one input for both), with n fetcher threads.
func auxWaitFleet(t *testing.T, n int) *fleetHarness {
	cfg := testConfig()
	fx := tieredFixture()
	var parts []PartitionInit
	for p := int32(0); p < 2; p++ {
		parts = append(parts, PartitionInit{TP: TopicPartition{"t", p}, Cfg: cfg, Replicas: []int{0}, Init: fx.initial(cfg.RecordBytes)})
	}
	h := newFleetHarness(t, NewFleet(FleetConfig{NumReplicaFetchers: n}, KIP, 2, true, parts))
	h.input(Input{Kind: EvAddReplica, Broker: 1, Part: -1})
	h.runUntil(sim.Time(10 * sim.Second))
	return h
}

// TestFetcherThreadSerializesAuxReads: with one fetcher thread, the second
// partition's bootstrap starts only once the first one's auxiliary-state
// read is done (it waits in the thread's held answer), and the thread
// reports the wait; with two threads, which Kafka's rule gives t-0 and t-1,
// both start together and nothing waits.
func TestFetcherThreadSerializesAuxReads(t *testing.T) {
	for p := int32(0); p < 2; p++ {
		for _, n := range []int{1, 2} {
			if got, want := FetcherID("t", p, n), javaFetcherID('t', int(p), n); got != want {
				t.Fatalf("FetcherID(t, %d, %d) = %d, Kafka's rule gives %d", p, n, got, want)
			}
		}
	}
	if javaFetcherID('t', 0, 2) == javaFetcherID('t', 1, 2) {
		t.Fatal("t-0 and t-1 share a thread of two: the test needs them apart")
	}

	h := auxWaitFleet(t, 1)
	end0, ok0 := h.first(EvAuxBuildEnd, 0)
	start1, ok1 := h.first(EvAuxBuildStart, 1)
	if !ok0 || !ok1 || end0.e.Cause != AuxBuilt {
		t.Fatalf("one thread: t-0's build ended %v (%v), t-1's started %v", ok0, end0.e.Cause, ok1)
	}
	if start1.at < end0.at {
		t.Fatalf("one thread: t-1's aux build started at %v, before t-0's ended at %v", start1.at, end0.at)
	}
	blocked, okb := h.first(EvThreadBlocked, 0)
	unblocked, oku := h.first(EvThreadUnblocked, 0)
	if !okb || !oku || blocked.e.Count != 1 || unblocked.at < end0.at {
		t.Fatalf("one thread: blocked %v (%d waiting), unblocked %v at %v; t-0's build ended at %v",
			okb, blocked.e.Count, oku, unblocked.at, end0.at)
	}
	for _, p := range []PartID{0, 1} {
		if _, ok := h.first(EvISRJoin, p); !ok {
			t.Fatalf("one thread: t-%d's replica never joined the ISR", p)
		}
	}

	h = auxWaitFleet(t, 2)
	s0, ok0 := h.first(EvAuxBuildStart, 0)
	s1, ok1 := h.first(EvAuxBuildStart, 1)
	if !ok0 || !ok1 || s0.at != s1.at {
		t.Fatalf("two threads: aux builds started at %v (%v) and %v (%v), want together", s0.at, ok0, s1.at, ok1)
	}
	if _, ok := h.first(EvThreadBlocked, 0); ok {
		t.Fatal("two threads: a thread of one partition reports others waiting")
	}
}

// capFleet: parts untiered partitions led by b0, each 4096 records of
// 1 KiB, given an empty replica on b1 at once; 1 MiB per partition and
// respMax per response.
func capFleet(t *testing.T, parts int, respMax, recordBytes int64) *fleetHarness {
	cfg := testConfig()
	cfg.RemoteStorageEnable, cfg.RecordBytes, cfg.SegmentBytes = false, recordBytes, 1<<40
	cfg.ReplicaFetchMaxBytes = 1 << 20
	fx := fixture{hw: 4096, local: []segSpec{{0, 4095, 0}}}
	var ps []PartitionInit
	for p := int32(0); p < int32(parts); p++ {
		ps = append(ps, PartitionInit{TP: TopicPartition{"t", p}, Cfg: cfg, Replicas: []int{0}, Init: fx.initial(recordBytes)})
	}
	h := newFleetHarness(t, NewFleet(FleetConfig{ReplicaFetchResponseMaxBytes: respMax}, KIP, 2, false, ps))
	h.input(Input{Kind: EvAddReplica, Broker: 1, Part: -1})
	h.runUntil(sim.Time(10 * sim.Second))
	return h
}

// responses returns, for b1's first n fetch answers, the partitions with
// records and their record counts, in answer order.
func (h *fleetHarness) responses(n int) [][][2]int64 {
	var out [][][2]int64
	for _, x := range h.events {
		m := &x.e.Msg
		if x.e.Kind != EvDeliver || m.Kind != MsgFetchResp || m.To != 1 || m.Part != -1 {
			continue
		}
		var got [][2]int64
		for _, p := range m.Parts {
			var recs int64
			for _, b := range p.Batches {
				recs += b.Count
			}
			if recs > 0 {
				got = append(got, [2]int64{int64(p.Part), recs})
			}
		}
		if out = append(out, got); len(out) == n {
			break
		}
	}
	return out
}

// want lists partitions from..to each with recs records.
func want(from, to int, recs int64) [][2]int64 {
	var w [][2]int64
	for p := from; p <= to; p++ {
		w = append(w, [2]int64{int64(p), recs})
	}
	return w
}

// TestResponseCapRotates: 20 lagging partitions, 1 MiB per partition and
// 10 MiB per response give 10 partitions per response, and the partitions
// that got records go to the end of the thread's order, so the next
// response carries the other 10.
func TestResponseCapRotates(t *testing.T) {
	const mib = 1 << 20
	cases := []struct {
		name          string
		respMax, recB int64
		want          [][][2]int64
	}{
		// 10 MiB / 1 MiB: 10 partitions of 1024 records of 1 KiB.
		{"10MiB", 10 * mib, 1024, [][][2]int64{want(0, 9, 1024), want(10, 19, 1024), want(0, 9, 1024)}},
		// 10.5 MiB: the 11th partition gets the 512 KiB left.
		{"10.5MiB", 10*mib + mib/2, 1024, [][][2]int64{append(want(0, 9, 1024), [2]int64{10, 512}),
			append(append(want(11, 19, 1024), [2]int64{0, 1024}), [2]int64{1, 512})}},
		// 512 KiB: one partition per response, min(1 MiB, 512 KiB) each, in turn.
		{"512KiB", mib / 2, 1024, [][][2]int64{want(0, 0, 512), want(1, 1, 512), want(2, 2, 512)}},
		// Records of 2 MiB, responses of 1 MiB: one whole record of the
		// first partition (min-one-message), then the next partition.
		{"oversized", mib, 2 * mib, [][][2]int64{want(0, 0, 1), want(1, 1, 1), want(2, 2, 1)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := capFleet(t, 20, tc.respMax, tc.recB)
			got := h.responses(len(tc.want))
			for i := range tc.want {
				if i >= len(got) || !slices.Equal(got[i], tc.want[i]) {
					t.Fatalf("answers with records %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// TestDelayedFetchWakesOnProduce: a thread's fetch of caught-up partitions
// waits on the leader (below replica.fetch.min.bytes) and a produce to any
// of its partitions answers it at once; with no produce it is answered
// after replica.fetch.wait.max.ms.
func TestDelayedFetchWakesOnProduce(t *testing.T) {
	cfg, h := testConfig(), newTieredPairFleet(t, 2)
	h.runUntil(sim.Time(3 * sim.Second)) // idle long polls
	answers := func(from sim.Time) []sim.Time {
		var at []sim.Time
		for _, x := range h.events {
			if x.at >= from && x.e.Kind == EvSend && x.e.Msg.Kind == MsgFetchResp && x.e.Msg.Part == -1 {
				at = append(at, x.at)
			}
		}
		return at
	}
	idle := answers(sim.Time(sim.Second))
	if len(idle) < 2 || idle[1].Sub(idle[0]) < cfg.ReplicaFetchWaitMax {
		t.Fatalf("idle answers at %v, want one per replica.fetch.wait.max.ms (%v) at most", idle, cfg.ReplicaFetchWaitMax)
	}
	now := h.f.Now
	h.input(Input{Kind: EvProduce, Part: 1, Count: 5, Records: 5})
	got := answers(now)
	if len(got) != 1 || got[0] != now {
		t.Fatalf("answers %v after a produce to t-1 at %v, want one at once", got, now)
	}
	var resp *Message
	for i := range h.events {
		if x := &h.events[i]; x.at == now && x.e.Kind == EvSend && x.e.Msg.Kind == MsgFetchResp {
			resp = &x.e.Msg
		}
	}
	// The fetch session answers only the partitions with news: t-0 has
	// none (FetchSession.scala:138-173 @1eb7644349cb).
	if len(resp.Parts) != 1 || resp.Parts[0].Part != 1 || len(resp.Parts[0].Batches) != 1 {
		t.Fatalf("the answer %s holds %+v, want t-1's new records only", resp, resp.Parts)
	}
}

// TestFetcherThreadOrder: a thread's order is its partitions as they joined;
// a partition that got records goes to the end, and so does one that left
// and joined again (PartitionStates.updateAndMoveToEnd).
func TestFetcherThreadOrder(t *testing.T) {
	h := newTieredPairFleet(t, 3)
	th := h.f.threadOf(1, 0, 0)
	if th == nil || !slices.Equal(h.f.orderOf(th), []PartID{0, 1, 2}) {
		t.Fatalf("thread b1<-b0#0 %v, want order [0 1 2]", th)
	}
	h.runUntil(sim.Time(sim.Second))
	h.input(Input{Kind: EvProduce, Part: 0, Count: 5, Records: 5})
	h.runUntil(h.f.Now.Add(10 * sim.Millisecond))
	if !slices.Equal(h.f.orderOf(th), []PartID{1, 2, 0}) {
		t.Fatalf("after records of t-0: order %v, want [1 2 0]", h.f.orderOf(th))
	}
	c := h.f.Parts[1]
	b := c.Brokers[1]
	c.stopFetcher(b)
	if slices.Contains(h.f.orderOf(th), 1) {
		t.Fatalf("t-1 left but the order is %v", h.f.orderOf(th))
	}
	c.sendFetch(b)
	if !slices.Equal(h.f.orderOf(th), []PartID{2, 0, 1}) {
		t.Fatalf("after t-1 joined again: order %v, want [2 0 1]", h.f.orderOf(th))
	}
}
