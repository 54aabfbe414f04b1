package reports

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/sim"
)

// TestChromeSpansEndAtTheirAnswer: a follower's request span ends when the
// answer to that request arrives (fetch or ListOffsets), not at an answer
// to another request, or when the request times out; a backoff ends when
// its timer fires, and a backoff timer leaves a request open; a broker's
// state ends the span only when it is no longer a follower.
func TestChromeSpansEndAtTheirAnswer(t *testing.T) {
	tr := NewChromeTrace()
	r := tr.Run("s")
	ev := func(at sim.Time, e model.Event) {
		e.Broker = 1
		r.Event(at, &e)
	}
	fetch := func(id uint64) model.Message {
		return model.Message{Kind: model.MsgFetch, From: 1, To: 0, ReqID: id, FetchOffset: 10}
	}
	resp := func(kind model.MsgKind, id uint64) model.Message {
		return model.Message{Kind: kind, From: 0, To: 1, ReqID: id}
	}
	ev(0, model.Event{Kind: model.EvSend, Msg: fetch(5)})
	ev(3, model.Event{Kind: model.EvBrokerState, Role: model.RoleFollower, Up: true}) // still a follower: the fetch goes on
	ev(5, model.Event{Kind: model.EvDeliver, Msg: resp(model.MsgFetchResp, 4)})       // a late answer to an earlier fetch
	ev(20, model.Event{Kind: model.EvDeliver, Msg: resp(model.MsgFetchResp, 5)})
	ev(20, model.Event{Kind: model.EvSend, Msg: model.Message{Kind: model.MsgListOffsets, From: 1, ReqID: 6, Timestamp: -5}})
	ev(35, model.Event{Kind: model.EvDeliver, Msg: resp(model.MsgListOffsetsResp, 6)})
	ev(40, model.Event{Kind: model.EvSend, Msg: model.Message{Kind: model.MsgListOffsets, From: 1, ReqID: 7, Timestamp: -5}})
	ev(70, model.Event{Kind: model.EvTimer, Timer: model.TimerRequest})
	ev(70, model.Event{Kind: model.EvBackoff, Retry: 0})
	ev(75, model.Event{Kind: model.EvTimer, Timer: model.TimerRequest}) // no request: the backoff goes on
	ev(80, model.Event{Kind: model.EvTimer, Timer: model.TimerFetchBackoff})
	ev(90, model.Event{Kind: model.EvSend, Msg: fetch(8)})
	ev(95, model.Event{Kind: model.EvTimer, Timer: model.TimerFetchBackoff}) // a stray backoff timer: the fetch goes on
	ev(110, model.Event{Kind: model.EvDeliver, Msg: resp(model.MsgFetchResp, 8)})
	ev(120, model.Event{Kind: model.EvSend, Msg: fetch(9)})
	ev(130, model.Event{Kind: model.EvBrokerState, Role: model.RoleLeader, Up: true}) // a leader now: no fetch
	r.Finish(200)
	got := spans(t, tr, "response")
	want := []string{
		"fetch 0+20 " + ptr(resp(model.MsgFetchResp, 5)).String(),
		"list-offsets 20+15 " + ptr(resp(model.MsgListOffsetsResp, 6)).String(),
		"list-offsets 40+30 timed out",
		"backoff 70+10 <nil>",
		"fetch 90+20 " + ptr(resp(model.MsgFetchResp, 8)).String(),
		"fetch 120+10 <nil>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spans on b1:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func ptr[T any](v T) *T { return &v }

// spans lists the trace's complete events ("X") as "name start+duration
// arg", arg the value of the event's argument named so.
func spans(t *testing.T, tr *ChromeTrace, arg string) []string {
	t.Helper()
	data, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var f traceFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range f.TraceEvents {
		if e.Ph == "X" {
			got = append(got, fmt.Sprintf("%s %d+%d %v", e.Name, e.Ts, *e.Dur, e.Args[arg]))
		}
	}
	return got
}

// TestChromeUploadSpans: a leader's upload span ends when the upload does,
// with its result, or when the broker stops being the leader, not at a
// state update while it leads.
func TestChromeUploadSpans(t *testing.T) {
	tr := NewChromeTrace()
	r := tr.Run("s")
	ev := func(at sim.Time, e model.Event) {
		e.Broker = 0
		r.Event(at, &e)
	}
	ev(0, model.Event{Kind: model.EvUploadStart, Segment: model.SegmentRef{Base: 0, End: 99}})
	ev(5, model.Event{Kind: model.EvBrokerState, Role: model.RoleLeader, Up: true})
	ev(10, model.Event{Kind: model.EvUploadEnd})
	ev(20, model.Event{Kind: model.EvUploadStart, Segment: model.SegmentRef{Base: 100, End: 199}})
	ev(25, model.Event{Kind: model.EvBrokerState, Role: model.RoleFollower, Up: true})
	r.Finish(100)
	got := spans(t, tr, "segment")
	if want := "upload 0+10 [0..99]\nupload 20+5 [100..199]"; strings.Join(got, "\n") != want {
		t.Errorf("uploads on b0:\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
