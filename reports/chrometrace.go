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
// per run (strategy), one thread (track) per broker, complete events for a
// follower's fetches, ListOffsets, auxiliary-state builds and backoffs and
// for a leader's uploads, instant events for elections, ISR changes,
// crashes, restarts and the scenario's other events, an async "bootstrap"
// span from add_replica to ISR join, and a counter of each broker's offsets.
// Timestamps are virtual microseconds.
//
// Feed it with the hooks of Run: Sink as the run's TraceSink (every trace
// line), Observe as its Observe hook; call Finish after the run.
type ChromeTrace struct {
	events []chromeEvent
	pid    int
}

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
	args  map[string]any
}

// ChromeRun follows one run.
type ChromeRun struct {
	t        *ChromeTrace
	pid      int
	lines    []string
	brokers  int
	fetches  []int
	lists    []int
	roles    []model.Role
	up       []bool
	offsets  [][4]int64
	phase    []*span // a follower's current request, build or backoff
	upload   []*span // a leader's upload in flight
	boot     []bool  // bootstrap span open
	last     sim.Time
	started  bool
	backoffs map[int]string
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

// Sink is a TraceSink: it keeps the lines of the current step.
func (r *ChromeRun) Sink(line string) { r.lines = append(r.lines, line) }

func (r *ChromeRun) init(c *model.Cluster) {
	n := len(c.Brokers)
	r.brokers, r.started = n, true
	r.fetches, r.lists = make([]int, n), make([]int, n)
	r.roles, r.up, r.offsets = make([]model.Role, n), make([]bool, n), make([][4]int64, n)
	r.phase, r.upload, r.boot = make([]*span, n), make([]*span, n), make([]bool, n)
	for i := range n {
		r.t.events = append(r.t.events,
			chromeEvent{Name: "thread_name", Ph: "M", Pid: r.pid, Tid: i, Args: map[string]any{"name": fmt.Sprintf("b%d", i)}},
			chromeEvent{Name: "thread_sort_index", Ph: "M", Pid: r.pid, Tid: i, Args: map[string]any{"sort_index": i}})
		r.offsets[i] = [4]int64{-1, -1, -1, -1}
	}
}

// Observe is an Options.Observe hook: it turns the step's trace lines and
// the state after it into events.
func (r *ChromeRun) Observe(now sim.Time, _ string, c *model.Cluster) {
	if !r.started {
		r.init(c)
	}
	r.last = now
	r.backoffs = map[int]string{}
	auxAfter := map[int]bool{}
	for _, raw := range r.lines {
		r.line(now, stripTime(raw), auxAfter)
	}
	r.lines = r.lines[:0]
	for _, b := range c.Brokers {
		r.state(now, b, auxAfter[b.ID])
	}
}

// stripTime drops a trace line's time and indent.
func stripTime(line string) string {
	if strings.HasPrefix(line, "t=") {
		if i := strings.IndexByte(line, ' '); i >= 0 {
			line = line[i+1:]
		}
	}
	return strings.TrimLeft(line, " ")
}

// broker reads the broker id at the start of s ("b12 ..."), -1 if none.
func broker(s string) int {
	var id int
	if _, err := fmt.Sscanf(s, "b%d", &id); err != nil {
		return -1
	}
	return id
}

func (r *ChromeRun) valid(id int) bool { return id >= 0 && id < r.brokers }

// line handles one trace line of the step.
func (r *ChromeRun) line(now sim.Time, s string, auxAfter map[int]bool) {
	word, rest, _ := strings.Cut(s, " ")
	switch word {
	case "add_replica", "crash", "restart", "elect_leader":
		if id := broker(rest); r.valid(id) {
			r.instant(now, id, word, "scenario", nil)
			if word == "add_replica" {
				r.t.events = append(r.t.events, chromeEvent{Name: "bootstrap", Cat: "bootstrap", Ph: "b", Ts: int64(now), Pid: r.pid, Tid: id, ID: fmt.Sprint(id)})
				r.boot[id] = true
			}
		}
		return
	case "produce":
		if !strings.HasPrefix(rest, "chunk") {
			r.global(now, s)
		}
		return
	case "set_config", "delete_records", "network_partition", "remote_outage", "consume", "heal:":
		r.global(now, s)
		return
	case "deliver":
		r.deliver(now, rest, auxAfter)
		return
	}
	id := broker(word)
	if !r.valid(id) {
		if strings.HasPrefix(s, "tiering disabled") || strings.HasPrefix(s, "partition offline") || strings.HasPrefix(s, "unclean election") {
			r.global(now, s)
		}
		return
	}
	switch {
	case strings.HasPrefix(rest, "backs off"):
		r.backoffs[id] = strings.Trim(strings.TrimPrefix(rest, "backs off "), "()")
	case strings.HasPrefix(rest, "becomes leader"):
		r.instant(now, id, "becomes leader", "election", map[string]any{"detail": rest})
	case strings.HasPrefix(rest, "joins ISR"):
		r.instant(now, id, "joins ISR", "isr", map[string]any{"detail": rest})
		if r.boot[id] {
			r.t.events = append(r.t.events, chromeEvent{Name: "bootstrap", Cat: "bootstrap", Ph: "e", Ts: int64(now), Pid: r.pid, Tid: id, ID: fmt.Sprint(id)})
			r.boot[id] = false
		}
	case strings.HasPrefix(rest, "shrinks ISR"):
		r.instant(now, id, "shrinks ISR", "isr", map[string]any{"detail": rest})
	case strings.HasPrefix(rest, "built aux state"):
		r.close(now, id, r.phase, map[string]any{"result": rest})
		r.instant(now, id, "aux state built", "bootstrap", map[string]any{"detail": rest})
	case strings.HasPrefix(rest, "uploads segment"):
		r.close(now, id, r.upload, nil)
		r.upload[id] = &span{name: "upload", cat: "tiering", start: now, args: map[string]any{"segment": strings.TrimPrefix(rest, "uploads segment ")}}
	case strings.HasPrefix(rest, "uploaded"), strings.HasPrefix(rest, "upload of remote segment"):
		r.close(now, id, r.upload, map[string]any{"result": rest})
	case strings.HasPrefix(rest, "truncates"), strings.HasPrefix(rest, "starts at"), strings.HasPrefix(rest, "EPUO below"),
		strings.HasPrefix(rest, "local retention"), strings.HasPrefix(rest, "expires remote"), strings.HasPrefix(rest, "raises log start"),
		strings.HasPrefix(rest, "no remote segment"), strings.HasPrefix(rest, "remote segment"), strings.HasPrefix(rest, "highest remote offset"):
		r.instant(now, id, rest, "log", nil)
	}
}

// deliver handles a message arriving: answers end the follower's request.
func (r *ChromeRun) deliver(now sim.Time, rest string, auxAfter map[int]bool) {
	var from, to int
	var kind string
	if _, err := fmt.Sscanf(rest, "b%d->b%d %s", &from, &to, &kind); err != nil || !r.valid(to) {
		return
	}
	for _, w := range [][2]string{{"fetch-resp", "fetch"}, {"list-offsets-resp", "list-offsets"}, {"epoch-end-resp", "aux-state build"}} {
		prefix, name := w[0], w[1]
		if !strings.HasPrefix(kind, prefix) || r.phase[to] == nil || r.phase[to].name != name {
			continue
		}
		if name != "aux-state build" {
			r.close(now, to, r.phase, map[string]any{"response": rest})
		}
		// Whatever the follower does next shows in its state; if it neither
		// fetches, asks nor backs off, it builds its auxiliary state.
		auxAfter[to] = true
	}
}

// state compares a broker with the previous step: new requests, role
// changes, crashes, offsets.
func (r *ChromeRun) state(now sim.Time, b *model.Broker, auxAfter bool) {
	id := b.ID
	if b.Role != r.roles[id] || b.Up != r.up[id] {
		if b.Role != model.RoleFollower || !b.Up {
			r.close(now, id, r.phase, nil)
		}
		if b.Role != model.RoleLeader || !b.Up {
			r.close(now, id, r.upload, nil)
		}
		r.roles[id], r.up[id] = b.Role, b.Up
	}
	st := &b.Stats
	switch {
	case st.Fetches != r.fetches[id]:
		r.open(now, id, "fetch", "fetch", map[string]any{"offset": b.Log.LogEnd})
	case st.ListOffsets != r.lists[id]:
		r.open(now, id, "list-offsets", "bootstrap", nil)
	case r.backoffs[id] != "":
		r.open(now, id, "backoff", "bootstrap", map[string]any{"reason": r.backoffs[id]})
	case auxAfter && b.Role == model.RoleFollower && r.phase[id] == nil:
		// Answered, and neither fetching, asking nor backing off: the
		// follower is building its auxiliary state (epoch end, remote read).
		r.open(now, id, "aux-state build", "bootstrap", nil)
	}
	r.fetches[id], r.lists[id] = st.Fetches, st.ListOffsets
	off := [4]int64{b.Log.LogStart, b.Log.LocalLogStart, b.Log.HighWatermark, b.Log.LogEnd}
	if off != r.offsets[id] {
		r.offsets[id] = off
		r.t.events = append(r.t.events, chromeEvent{Name: fmt.Sprintf("b%d offsets", id), Ph: "C", Ts: int64(now), Pid: r.pid, Tid: id,
			Args: map[string]any{"lso": off[0], "llso": off[1], "hw": off[2], "leo": off[3]}})
	}
}

func (r *ChromeRun) open(now sim.Time, id int, name, cat string, args map[string]any) {
	r.close(now, id, r.phase, nil)
	r.phase[id] = &span{name: name, cat: cat, start: now, args: args}
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
	end = max(end, r.last)
	for id := range r.brokers {
		r.close(end, id, r.phase, nil)
		r.close(end, id, r.upload, nil)
		if r.boot[id] {
			r.t.events = append(r.t.events, chromeEvent{Name: "bootstrap", Cat: "bootstrap", Ph: "e", Ts: int64(end), Pid: r.pid, Tid: id, ID: fmt.Sprint(id),
				Args: map[string]any{"result": "never joined the ISR"}})
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
