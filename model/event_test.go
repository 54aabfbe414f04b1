package model

import (
	"bytes"
	"testing"

	"tierfetch/sim"
)

// sampleEvent returns an event of kind k with every field of its kind's
// entry holding a value.
func sampleEvent(k EventKind) Event {
	e := Event{Kind: k, Broker: -1, Peer: -1}
	for _, f := range kinds[k].fields {
		sampleField(&e, f)
	}
	return e
}

// sampleField sets field f of e to a value other than its zero.
func sampleField(e *Event, f field) {
	switch f {
	case fBroker:
		e.Broker = 1
	case fPeer:
		e.Peer = 2
	case fEpoch:
		e.Epoch = 3
	case fOffset:
		e.Offset = 40
	case fLast:
		e.Last = 45
	case fEnd:
		e.End = 50
	case fLogStart:
		e.LogStart = 30
	case fCount:
		e.Count = 6
	case fBytes:
		e.Bytes = 7
	case fRemoteBytes:
		e.RemoteBytes = 17
	case fMs:
		e.Ms = 8
	case fHRO:
		e.HRO = 9
	case fPrevHRO:
		e.PrevHRO = 4
	case fValue:
		e.Value = 11
	case fOp:
		e.Op = 12
	case fLog:
		e.Log = LogOffsets{1, 2, 3, 4}
	case fRole:
		e.Role = RoleLeader
	case fUp:
		e.Up = true
	case fOn:
		e.On = true
	case fBool:
		e.Bool = true
	case fFailed:
		e.Failed = true
	case fPath:
		e.Path = PathLocalLogStart
	case fRetry:
		e.Retry = RetryTimeout
	case fCause:
		e.Cause = AuxNoSegment
	case fTimer:
		e.Timer = TimerRetention
	case fSegment:
		e.Segment = SegmentRef{ID: 5, Base: 0, End: 99, Bytes: 100}
	case fRemote:
		e.Remote = RemoteReadAux
	case fBatch:
		e.Batch = Batch{Base: 10, Count: 2, Bytes: 20, Epoch: 1, ProducerID: 2, Seq: 3, Origin: 4, TsMs: 5}
	case fMsg, fMsgHead:
		e.Msg = Message{Kind: MsgFetchResp, From: 1, To: 2, ReqID: 3, Batches: []Batch{{Base: 1, Count: 1, Origin: 9}}}
	case fBrokers:
		e.Brokers = []int{0, 1}
	case fDropped:
		e.Dropped = []int{2}
	case fKey:
		e.Key = "k"
	case fText:
		e.Text = "x"
	}
}

// TestEveryKindPrintsAndEncodes: every kind has a name, a trace line and an
// encoding that starts with its time and kind.
func TestEveryKindPrintsAndEncodes(t *testing.T) {
	seen := map[string]EventKind{}
	for k := EventKind(0); k < NumEventKinds; k++ {
		name := k.String()
		if prev, ok := seen[name]; ok || name == "" {
			t.Errorf("kind %d named %q like kind %d", k, name, prev)
		}
		seen[name] = k
		e := sampleEvent(k)
		if line := e.AppendLine(nil, sim.AtMs(1250)); !bytes.HasPrefix(line, []byte("t=1.250s ")) || len(line) <= len("t=1.250s ") {
			t.Errorf("%s: line %q", k, line)
		}
		enc := e.AppendBinary(nil, 7)
		if len(enc) < 2 || enc[0] != 14 || enc[1] != byte(k) { // zigzag varint of 7 is 14
			t.Errorf("%s: encoding %x does not start with the time and the kind", k, enc)
		}
	}
}

// TestEncodingCoversEveryFieldOfAKind: changing any field of a kind's set
// changes the encoding, and so the digest; so does the time.
func TestEncodingCoversEveryFieldOfAKind(t *testing.T) {
	for k := EventKind(0); k < NumEventKinds; k++ {
		base := sampleEvent(k)
		want := base.AppendBinary(nil, 1)
		if later := base.AppendBinary(nil, 2); bytes.Equal(want, later) {
			t.Errorf("%s: the time does not change the encoding", k)
		}
		mutations := map[field]func(e *Event){
			fBroker: func(e *Event) { e.Broker++ }, fPeer: func(e *Event) { e.Peer++ }, fEpoch: func(e *Event) { e.Epoch++ },
			fOffset: func(e *Event) { e.Offset++ }, fLast: func(e *Event) { e.Last++ }, fEnd: func(e *Event) { e.End++ },
			fLogStart: func(e *Event) { e.LogStart++ }, fCount: func(e *Event) { e.Count++ },
			fBytes: func(e *Event) { e.Bytes++ }, fRemoteBytes: func(e *Event) { e.RemoteBytes++ }, fMs: func(e *Event) { e.Ms++ },
			fHRO: func(e *Event) { e.HRO++ }, fPrevHRO: func(e *Event) { e.PrevHRO++ }, fValue: func(e *Event) { e.Value++ },
			fOp:  func(e *Event) { e.Op++ },
			fLog: func(e *Event) { e.Log.HighWatermark++ }, fRole: func(e *Event) { e.Role = RoleFollower },
			fUp: func(e *Event) { e.Up = !e.Up }, fOn: func(e *Event) { e.On = !e.On }, fBool: func(e *Event) { e.Bool = !e.Bool },
			fFailed: func(e *Event) { e.Failed = !e.Failed }, fPath: func(e *Event) { e.Path++ }, fRetry: func(e *Event) { e.Retry-- },
			fCause: func(e *Event) { e.Cause++ }, fTimer: func(e *Event) { e.Timer-- }, fSegment: func(e *Event) { e.Segment.End++ },
			fRemote: func(e *Event) { e.Remote++ }, fBatch: func(e *Event) { e.Batch.Seq++ },
			fMsg:     func(e *Event) { e.Msg.Batches = []Batch{{Base: 1, Count: 1, Origin: 10}} },
			fMsgHead: func(e *Event) { e.Msg.HighWatermark++ },
			fBrokers: func(e *Event) { e.Brokers = []int{0, 2} }, fDropped: func(e *Event) { e.Dropped = []int{3} },
			fKey: func(e *Event) { e.Key = "j" }, fText: func(e *Event) { e.Text = "y" },
		}
		if len(mutations) != int(numFields) {
			t.Fatalf("%d mutations for %d fields", len(mutations), numFields)
		}
		for _, f := range kinds[k].fields {
			e := base
			mutations[f](&e)
			if got := e.AppendBinary(nil, 1); bytes.Equal(got, want) {
				t.Errorf("%s: changing %s leaves the encoding %x unchanged", k, fieldNames[f], want)
			}
		}
	}
}

// TestFieldsOutsideKind names a field an event of a kind sets but its
// kind's encoding leaves out.
func TestFieldsOutsideKind(t *testing.T) {
	e := sampleEvent(EvBackoff)
	if got := e.FieldsOutsideKind(); len(got) != 0 {
		t.Errorf("a sample backoff sets %v outside its kind", got)
	}
	e.Offset = 5
	if got := e.FieldsOutsideKind(); len(got) != 1 || got[0] != "Offset" {
		t.Errorf("a backoff with an offset: outside its kind %v, want [Offset]", got)
	}
	send := sampleEvent(EvSend)
	if got := send.FieldsOutsideKind(); len(got) != 0 {
		t.Errorf("a send with its message sets %v outside its kind", got)
	}
}

// TestSetWithin: an HRO event set its HRO at its step's time, a fold's
// (EvHighestRemoteRun) within the millisecond its Ms floors.
func TestSetWithin(t *testing.T) {
	at := sim.Time(120*sim.Second + 73*sim.Millisecond)
	for _, x := range []struct {
		e      Event
		lo, hi sim.Time
	}{
		{Event{Kind: EvHighestRemote, Ms: 5}, at, at},
		{Event{Kind: EvHighestRemoteRun, Ms: 0}, at - sim.Time(sim.Millisecond) + 1, at},
		{Event{Kind: EvHighestRemoteRun, Ms: 73}, sim.Time(120*sim.Second-sim.Millisecond) + 1, sim.Time(120 * sim.Second)},
	} {
		if lo, hi := x.e.SetWithin(at); lo != x.lo || hi != x.hi {
			t.Errorf("%s Ms %d at %v: [%v, %v], want [%v, %v]", x.e.Kind, x.e.Ms, at, lo, hi, x.lo, x.hi)
		}
	}
}
