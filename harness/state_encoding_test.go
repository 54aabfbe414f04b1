package harness

import (
	"bytes"
	"encoding/binary"
	"testing"

	"tierfetch/model"
	"tierfetch/sim"
)

// The state a search compares runs by (Run.Hash) holds what can still
// happen: the pending events whatever order they were scheduled in, the
// network partitions that have not ended.

// TestPendingEventsAreStateInAnyOrder: the same timers scheduled in
// another order are the same state; one timer fewer is another.
func TestPendingEventsAreStateInAnyOrder(t *testing.T) {
	timer := func(b int, k model.TimerKind) event {
		return event{kind: evTimer, timer: model.TimerKey{Broker: b, Kind: k, Peer: -1}}
	}
	a, b, c := timer(0, 1), timer(1, 2), timer(2, 0)
	pending := func(evs ...struct {
		ms int64
		ev event
	}) []byte {
		r := &runner{s: &scratch{}}
		for _, x := range evs {
			r.sched.At(sim.AtMs(x.ms), x.ev)
		}
		return r.appendPending(nil, 0)
	}
	type at = struct {
		ms int64
		ev event
	}
	one := pending(at{5, a}, at{5, b}, at{3, c}, at{7, a})
	other := pending(at{7, a}, at{3, c}, at{5, b}, at{5, a})
	fewer := pending(at{5, a}, at{3, c}, at{7, a})
	if !bytes.Equal(one, other) {
		t.Errorf("the same pending timers in another order encode differently:\n%x\n%x", one, other)
	}
	if bytes.Equal(one, fewer) {
		t.Errorf("one pending timer fewer encodes the same")
	}
}

// TestEndedPartitionIsNoState: a network partition is state until it ends
// (the heal ends every partition at its instant).
func TestEndedPartitionIsNoState(t *testing.T) {
	r := &runner{cuts: []partition{{brokers: []int{1}, until: sim.AtMs(10)}}}
	none := (&runner{}).appendCuts(nil, 0)
	for _, c := range []struct {
		ms    int64
		state bool
	}{{5, true}, {10, false}, {11, false}} {
		if got := !bytes.Equal(r.appendCuts(nil, sim.AtMs(c.ms)), none); got != c.state {
			t.Errorf("at %d ms a partition until 10 ms is state: %v, want %v", c.ms, got, c.state)
		}
	}
}

// TestPartitionCutsUntilItEnds: a network partition of b1 separates it
// from b0, not b2 from b0, and only until it ends: a message delivered
// at its end goes through.
func TestPartitionCutsUntilItEnds(t *testing.T) {
	r := &runner{cuts: []partition{{brokers: []int{1, 2}, until: sim.AtMs(10)}}}
	for _, c := range []struct {
		ms   int64
		a, b int
		cut  bool
	}{{5, 0, 1, true}, {5, 1, 0, true}, {5, 1, 2, false}, {10, 0, 1, false}} {
		r.sched.At(sim.AtMs(c.ms), event{})
		r.sched.Next()
		if got := r.cut(c.a, c.b); got != c.cut {
			t.Errorf("at %d ms, b%d to b%d: cut %v, want %v", c.ms, c.a, c.b, got, c.cut)
		}
	}
}

// TestDeliveredAnswersNamedByTheirRecords: two fetch answers alike but for
// where their records end are different inputs (Run.Input's ID); the same
// answer sent again is the same input.
func TestDeliveredAnswersNamedByTheirRecords(t *testing.T) {
	id := func(batches ...model.Batch) uint64 {
		r := &runner{s: &scratch{}}
		h := r.msgs.put(model.Message{Kind: model.MsgFetchResp, From: 0, To: 1, ReqID: 3, Batches: batches})
		return r.inputID(&event{kind: evDeliver, msg: h})
	}
	to14 := id(model.Batch{Base: 0, Count: 8}, model.Batch{Base: 8, Count: 2}, model.Batch{Base: 10, Count: 4})
	to18 := id(model.Batch{Base: 0, Count: 8}, model.Batch{Base: 8, Count: 4}, model.Batch{Base: 12, Count: 6})
	again := id(model.Batch{Base: 0, Count: 8}, model.Batch{Base: 8, Count: 2}, model.Batch{Base: 10, Count: 4})
	if to14 == to18 || to14 != again {
		t.Errorf("answers with records to 14, to 18 and to 14 again: ids %x %x %x", to14, to18, again)
	}
}

// TestSortPendingOrdersByBytes: the pending events' encodings come out in
// the order of their bytes whichever sort runs (insertion for a few, the
// library's for more), the times decided inline and ties by the rest.
func TestSortPendingOrdersByBytes(t *testing.T) {
	for _, n := range []int{0, 1, 2, 15, insertionSortMax, insertionSortMax + 1, 200} {
		var buf []byte
		var pend []pendRef
		x := uint64(n)*0x9E3779B97F4A7C15 + 1
		for i := range n {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			at := x % 4 // many ties
			start := len(buf)
			buf = binary.BigEndian.AppendUint64(buf, at)
			buf = append(buf, byte(x>>8%3), byte(i%2)) // ties of the whole encoding too
			buf = buf[:len(buf)-int(x>>16%2)]          // and one a prefix of another
			pend = append(pend, pendRef{at: at, start: start, end: len(buf)})
		}
		sortPending(pend, buf)
		for i := 1; i < len(pend); i++ {
			if a, b := buf[pend[i-1].start:pend[i-1].end], buf[pend[i].start:pend[i].end]; bytes.Compare(a, b) > 0 {
				t.Fatalf("%d events: %x sorted before %x", n, a, b)
			}
		}
	}
}
