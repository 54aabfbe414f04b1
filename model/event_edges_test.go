package model

import (
	"strings"
	"testing"

	"tierfetch/sim"
)

// The trace's wording at the edges where one kind prints two ways, and the
// constructors' "no broker, no peer" (each was a gremlins survivor).

// TestEventTextChoosesItsWording: each event kind that prints two ways
// prints the one its fields call for.
func TestEventTextChoosesItsWording(t *testing.T) {
	trunc := brokerEv(EvTruncate, 1)
	trunc.Offset, trunc.Cause = 400, TruncateLeaderEnd
	div := brokerEv(EvTruncate, 1)
	div.Offset, div.Cause, div.Epoch, div.End = 300, TruncateDivergence, 2, 350
	trivial := brokerEv(EvStartAt, 1)
	trivial.Offset, trivial.Cause, trivial.Path = 200, StartTrivial, PathLocalLogStart
	full := brokerEv(EvStartAt, 1)
	full.Offset, full.Cause, full.Path = 200, StartTruncate, PathTruncateToLogStart
	noLeader := ev(EvTieringDisabled)
	withLeader := brokerEv(EvTieringDisabled, 0)
	withLeader.LogStart = 50
	none := ev(EvRemoteState)
	none.Offset, none.Last = 0, -1
	one := ev(EvRemoteState)
	one.Offset, one.Last = 5, 5
	isr := brokerEv(EvISRShrink, 0)
	isr.Brokers, isr.Dropped = []int{0, 1, 2}, []int{3}
	for _, tc := range []struct {
		e    Event
		want string
	}{
		{trunc, "b1 truncates to leader end 400"},
		{div, "b1 truncates to 300 (leader: epoch 2 ends at 350)"},
		{trivial, "b1 starts at 200 ("},
		{full, "b1 truncates fully, starts at 200 ("},
		{noLeader, "tiering disabled with no leader: remote data left in place"},
		{withLeader, "tiering disabled: remote data deleted, b0 lso=50"},
		{none, "remote: none"},
		{one, "remote: [5..5]"},
		{isr, "b0 shrinks ISR to [0 1 2] (dropped [3])"},
	} {
		if got := tc.e.String(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want it to begin %q", tc.e.Kind, got, tc.want)
		}
	}
	if got := trivial.String(); !strings.HasSuffix(got, ", nothing to rebuild)") {
		t.Errorf("a trivial start: %q, want it to say nothing is rebuilt", got)
	}
}

// TestInputsBeginAStep: the last input kind (a remote operation done) is
// printed as a step's input, the first outcome kind indented under it.
func TestInputsBeginAStep(t *testing.T) {
	if !EvRemoteDone.IsInput() || EvSkipped.IsInput() {
		t.Errorf("remote-done input %v, skipped input %v", EvRemoteDone.IsInput(), EvSkipped.IsInput())
	}
	in, out := brokerEv(EvRemoteDone, 0), ev(EvSkipped)
	if got := string(in.AppendLine(nil, sim.AtMs(1))); !strings.HasPrefix(got, "t=0.001s ") || strings.HasPrefix(got, "t=0.001s  ") {
		t.Errorf("an input line: %q, want one space after the time", got)
	}
	if got := string(out.AppendLine(nil, sim.AtMs(1))); !strings.HasPrefix(got, "t=0.001s   s") {
		t.Errorf("an outcome line: %q, want three spaces after the time", got)
	}
}

// TestEventConstructorsHaveNoBrokerOrPeer: ev names no broker and no peer,
// brokerEv a broker and no peer; neither counts as a used field.
func TestEventConstructorsHaveNoBrokerOrPeer(t *testing.T) {
	e, b := ev(EvHeal), brokerEv(EvBackoff, 2)
	if e.Broker != -1 || e.Peer != -1 || b.Broker != 2 || b.Peer != -1 {
		t.Errorf("ev: broker %d peer %d; brokerEv(2): broker %d peer %d", e.Broker, e.Peer, b.Broker, b.Peer)
	}
	if f := e.FieldsOutsideKind(); len(f) != 0 {
		t.Errorf("heal with no broker and no peer uses fields %v outside its kind", f)
	}
	x := ev(EvHeal)
	x.Broker = 3
	if f := x.FieldsOutsideKind(); len(f) != 1 {
		t.Errorf("heal naming broker 3: fields outside its kind %v, want the broker", f)
	}
}

// TestMessageTextCountsRecords: a fetch answer prints the records it
// carries (from its first batch's base to its last batch's end) or, when it
// failed, only its error; any other message prints its error after its
// fields.
func TestMessageTextCountsRecords(t *testing.T) {
	two := Message{Kind: MsgFetchResp, From: 0, To: 1, HighWatermark: 470, LogStart: 7,
		Batches: []Batch{{Base: 450, Count: 10}, {Base: 460, Count: 5}}}
	for _, tc := range []struct {
		m    Message
		want string
	}{
		{two, "b0->b1 fetch-resp records=15 hw=470 lso=7"},
		{Message{Kind: MsgFetchResp, From: 0, To: 1, HighWatermark: 470}, "b0->b1 fetch-resp records=0 hw=470 lso=0"},
		{Message{Kind: MsgFetchResp, From: 0, To: 1, Err: ErrOffsetOutOfRange, Batches: two.Batches}, "b0->b1 fetch-resp OOR"},
		{Message{Kind: MsgListOffsetsResp, From: 0, To: 1, Timestamp: -1, Offset: 5, Err: ErrNotLeader}, "b0->b1 list-offsets-resp(-1) offset=5 epoch=0 NOT_LEADER"},
	} {
		if got := tc.m.String(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}
