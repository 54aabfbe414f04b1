package reports

import (
	"encoding/json"
	"fmt"
	"strings"

	"tierfetch/model"
	"tierfetch/sim"
)

// ChromeTrace turns runs into the Chrome trace-event format (a JSON object
// with "traceEvents", readable by Perfetto and chrome://tracing): one process
// per run (strategy), one thread (track) per broker. A follower's phases
// are complete events with an explicit begin and end in the run's event
// stream: a fetch or ListOffsets request (sent, answered or timed out), a
// backoff (begun, retried), an auxiliary-state build (begun, ended with its
// cause); a leader's uploads likewise. Elections, ISR changes, truncations,
// retention and the scenario's events are instant events; an async
// "bootstrap" span runs from add_replica to the ISR join, with the path and
// start offset the follower took; a counter per broker tracks its LSO,
// LLSO, HW and LEO. Timestamps are virtual microseconds.
//
// Feed a run's events to Run's ChromeRun (a model.Observer); call Finish
// after the run.
type ChromeTrace struct {
	events []chromeEvent
	pid    int
	cut    int // runs whose trace was cut at their share of MaxChromeEvents
}

// MaxChromeEvents bounds the events of a Chrome trace, shared equally by
// its runs: a run's events past its share are left out, and its trace
// ends there with a "trace cut" event. A run takes about one event a step
// (5 million at the default --max-steps), each a few hundred bytes while
// the trace is built: 2^18 keep a trace at about 35 MB and its building
// within the command's memory limit; a viewer struggles with more anyway.
const MaxChromeEvents = 1 << 18

// Cut is how many runs' traces were cut at their share of MaxChromeEvents.
func (t *ChromeTrace) Cut() int { return t.cut }

type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   int64          `json:"ts"`
	Dur  *int64         `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	ID   string         `json:"id,omitempty"`
	S    string         `json:"s,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// span is an open complete event on one broker's track.
type span struct {
	name  string
	cat   string
	start sim.Time
	req   uint64 // the request it waits for an answer to (0: none)
	args  map[string]any
}

// ChromeRun follows one run.
type ChromeRun struct {
	t       *ChromeTrace
	pid     int
	brokers int
	phase   []*span // a follower's current request, build or backoff
	upload  []*span // a leader's upload in flight
	boot    []bool  // bootstrap span open
	last    sim.Time
	started bool
	first   int  // the trace's length at the run's first event
	cut     bool // the run's share of MaxChromeEvents is spent
}

// NewChromeTrace returns an empty trace.
func NewChromeTrace() *ChromeTrace { return &ChromeTrace{} }

// Run starts the track group of one run, named name (the strategy).
func (t *ChromeTrace) Run(name string) *ChromeRun {
	t.pid++
	t.events = append(t.events,
		chromeEvent{Name: "process_name", Ph: "M", Pid: t.pid, Args: map[string]any{"name": name}},
		chromeEvent{Name: "process_sort_index", Ph: "M", Pid: t.pid, Args: map[string]any{"sort_index": t.pid}})
	return &ChromeRun{t: t, pid: t.pid}
}

// track makes sure broker id has a track.
func (r *ChromeRun) track(id int) bool {
	if id < 0 {
		return false
	}
	for r.brokers <= id {
		i := r.brokers
		r.t.events = append(r.t.events,
			chromeEvent{Name: "thread_name", Ph: "M", Pid: r.pid, Tid: i, Args: map[string]any{"name": fmt.Sprintf("b%d", i)}},
			chromeEvent{Name: "thread_sort_index", Ph: "M", Pid: r.pid, Tid: i, Args: map[string]any{"sort_index": i}})
		r.phase, r.upload, r.boot = append(r.phase, nil), append(r.upload, nil), append(r.boot, false)
		r.brokers++
	}
	return true
}

// Event implements model.Observer.
func (r *ChromeRun) Event(now sim.Time, e *model.Event) {
	r.last = now
	if !r.started {
		r.started, r.first = true, len(r.t.events)
	}
	if r.cut {
		return
	}
	if share := MaxChromeEvents / r.t.pid; len(r.t.events)-r.first >= share {
		r.cut = true
		r.t.cut++
		r.closeAll(now, "trace cut")
		r.global(now, fmt.Sprintf("trace cut: the run's first %d trace events only", share))
		return
	}
	r.track(e.Broker)
	switch e.Kind {
	case model.EvRunStart, model.EvDeliver, model.EvTimer, model.EvRemoteDone, model.EvProduceChunk:
		r.input(now, e)
	case model.EvAddReplica, model.EvCrash, model.EvRestart, model.EvElectLeader:
		name := map[model.EventKind]string{model.EvAddReplica: "add_replica", model.EvCrash: "crash", model.EvRestart: "restart",
			model.EvElectLeader: "elect_leader"}[e.Kind]
		r.instant(now, e.Broker, name, "scenario", nil)
		if e.Kind == model.EvAddReplica {
			r.t.events = append(r.t.events, chromeEvent{Name: "bootstrap", Cat: "bootstrap", Ph: "b", Ts: int64(now), Pid: r.pid, Tid: e.Broker, ID: fmt.Sprint(e.Broker)})
			r.boot[e.Broker] = true
		}
	case model.EvProduce, model.EvSetConfig, model.EvDeleteRecords, model.EvNetworkPartition, model.EvPartitionEnd,
		model.EvRemoteOutage, model.EvConsume, model.EvHeal, model.EvTieringDisabled, model.EvOffline, model.EvUncleanElection, model.EvSkipped:
		r.global(now, e.String())
	case model.EvSend:
		r.send(now, e)
	default:
		r.outcome(now, e)
	}
}

// input handles the inputs that end a follower's request or backoff.
func (r *ChromeRun) input(now sim.Time, e *model.Event) {
	switch e.Kind {
	case model.EvDeliver:
		m := &e.Msg
		if p := r.phase[e.Broker]; p != nil && p.req != 0 && p.req == m.ReqID &&
			(m.Kind == model.MsgFetchResp || m.Kind == model.MsgListOffsetsResp) {
			r.close(now, e.Broker, r.phase, map[string]any{"response": m.String()})
		}
	case model.EvTimer:
		switch e.Timer {
		case model.TimerRequest:
			if p := r.phase[e.Broker]; p != nil && p.req != 0 {
				r.close(now, e.Broker, r.phase, map[string]any{"response": "timed out"})
			}
		case model.TimerFetchBackoff:
			if p := r.phase[e.Broker]; p != nil && p.name == "backoff" {
				r.close(now, e.Broker, r.phase, nil)
			}
		}
	}
}

// send opens a follower's fetch or ListOffsets request span.
func (r *ChromeRun) send(now sim.Time, e *model.Event) {
	m := &e.Msg
	switch m.Kind {
	case model.MsgFetch:
		r.open(now, e.Broker, &span{name: "fetch", cat: "fetch", req: m.ReqID, args: map[string]any{"offset": m.FetchOffset}})
	case model.MsgListOffsets:
		r.open(now, e.Broker, &span{name: "list-offsets", cat: "bootstrap", req: m.ReqID, args: map[string]any{"timestamp": m.Timestamp}})
	}
}

// outcome handles what a step did.
func (r *ChromeRun) outcome(now sim.Time, e *model.Event) {
	id := e.Broker
	switch e.Kind {
	case model.EvBackoff:
		r.open(now, id, &span{name: "backoff", cat: "bootstrap", args: map[string]any{"reason": e.Retry.String()}})
	case model.EvAuxBuildStart:
		r.open(now, id, &span{name: "aux-state build", cat: "bootstrap", args: map[string]any{"start": e.Offset, "path": e.Path.String()}})
	case model.EvAuxBuildEnd:
		if p := r.phase[id]; p != nil && p.name == "aux-state build" {
			r.close(now, id, r.phase, map[string]any{"result": e.Cause.String()})
		}
		if e.Cause == model.AuxBuilt {
			r.instant(now, id, "aux state built", "bootstrap", map[string]any{"detail": e.String()})
		}
	case model.EvBootstrapped:
		r.instant(now, id, "bootstrapped", "bootstrap", map[string]any{"path": e.Path.String(), "start": e.Offset})
	case model.EvBecomeLeader:
		r.close(now, id, r.phase, nil)
		r.instant(now, id, "becomes leader", "election", map[string]any{"detail": e.String()})
	case model.EvBecomeFollower:
		r.close(now, id, r.upload, nil)
	case model.EvISRJoin:
		r.instant(now, id, "joins ISR", "isr", map[string]any{"detail": e.String()})
		if r.boot[id] {
			r.t.events = append(r.t.events, chromeEvent{Name: "bootstrap", Cat: "bootstrap", Ph: "e", Ts: int64(now), Pid: r.pid, Tid: id, ID: fmt.Sprint(id)})
			r.boot[id] = false
		}
	case model.EvISRShrink:
		r.instant(now, id, "shrinks ISR", "isr", map[string]any{"detail": e.String()})
	case model.EvUploadStart:
		r.close(now, id, r.upload, nil)
		r.upload[id] = &span{name: "upload", cat: "tiering", start: now, args: map[string]any{"segment": fmt.Sprintf("[%d..%d]", e.Segment.Base, e.Segment.End)}}
	case model.EvUploadEnd:
		r.close(now, id, r.upload, map[string]any{"result": e.Cause.String()})
	case model.EvTruncate, model.EvStartAt, model.EvFallback, model.EvLocalRetention, model.EvRemoteExpire,
		model.EvLogStartFromRemote, model.EvHighestRemote, model.EvHighestRemoteRun, model.EvRollForRetention, model.EvLoadLog, model.EvDeleteRecordsDone:
		if r.track(id) {
			r.instant(now, id, e.String(), "log", nil)
		}
	case model.EvBrokerState:
		r.state(now, e)
	}
}

// state closes a broker's spans when it stops being a follower or a
// leader, and updates its offsets counter.
func (r *ChromeRun) state(now sim.Time, e *model.Event) {
	id := e.Broker
	if e.Role != model.RoleFollower || !e.Up {
		r.close(now, id, r.phase, nil)
	}
	if e.Role != model.RoleLeader || !e.Up {
		r.close(now, id, r.upload, nil)
	}
	r.t.events = append(r.t.events, chromeEvent{Name: fmt.Sprintf("b%d offsets", id), Ph: "C", Ts: int64(now), Pid: r.pid, Tid: id,
		Args: map[string]any{"lso": e.Log.LogStart, "llso": e.Log.LocalLogStart, "hw": e.Log.HighWatermark, "leo": e.Log.LogEnd}})
}

// open starts span s on broker id's phase track, ending the one before.
func (r *ChromeRun) open(now sim.Time, id int, s *span) {
	r.close(now, id, r.phase, nil)
	s.start = now
	r.phase[id] = s
}

// close ends broker id's open span in slots, adding args.
func (r *ChromeRun) close(now sim.Time, id int, slots []*span, args map[string]any) {
	s := slots[id]
	if s == nil {
		return
	}
	slots[id] = nil
	if len(args) > 0 {
		if s.args == nil {
			s.args = map[string]any{}
		}
		for k, v := range args {
			s.args[k] = v
		}
	}
	dur := int64(now - s.start)
	r.t.events = append(r.t.events, chromeEvent{Name: s.name, Cat: s.cat, Ph: "X", Ts: int64(s.start), Dur: &dur, Pid: r.pid, Tid: id, Args: s.args})
}

func (r *ChromeRun) instant(now sim.Time, id int, name, cat string, args map[string]any) {
	r.t.events = append(r.t.events, chromeEvent{Name: name, Cat: cat, Ph: "i", S: "t", Ts: int64(now), Pid: r.pid, Tid: id, Args: args})
}

func (r *ChromeRun) global(now sim.Time, s string) {
	r.t.events = append(r.t.events, chromeEvent{Name: s, Cat: "scenario", Ph: "i", S: "p", Ts: int64(now), Pid: r.pid, Tid: 0})
}

// Finish closes every open span at the end of the run.
func (r *ChromeRun) Finish(end sim.Time) {
	r.closeAll(max(end, r.last), "never joined the ISR")
}

// closeAll closes every open span at end; an open bootstrap ends with
// result.
func (r *ChromeRun) closeAll(end sim.Time, result string) {
	for id := range r.brokers {
		r.close(end, id, r.phase, nil)
		r.close(end, id, r.upload, nil)
		if r.boot[id] {
			r.t.events = append(r.t.events, chromeEvent{Name: "bootstrap", Cat: "bootstrap", Ph: "e", Ts: int64(end), Pid: r.pid, Tid: id, ID: fmt.Sprint(id),
				Args: map[string]any{"result": result}})
			r.boot[id] = false
		}
	}
}

// JSON returns the trace as {"traceEvents": [...], "displayTimeUnit": "ms"},
// one event a line.
func (t *ChromeTrace) JSON() ([]byte, error) {
	var b strings.Builder
	b.WriteString("{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n")
	for i, e := range t.events {
		data, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		b.Write(data)
		if i+1 < len(t.events) {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]}\n")
	return []byte(b.String()), nil
}
