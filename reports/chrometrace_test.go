package reports

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

type traceFile struct {
	TraceEvents []struct {
		Name string         `json:"name"`
		Ph   string         `json:"ph"`
		Ts   int64          `json:"ts"`
		Dur  *int64         `json:"dur"`
		Pid  int            `json:"pid"`
		Tid  int            `json:"tid"`
		ID   string         `json:"id"`
		Args map[string]any `json:"args"`
	} `json:"traceEvents"`
}

// chromeTrace runs sc under both strategies into one trace.
func chromeTrace(t *testing.T, sc *scenarios.Scenario) traceFile {
	t.Helper()
	tr := NewChromeTrace()
	for _, st := range harness.Strategies {
		run := tr.Run(string(st))
		res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{run}})
		run.Finish(res.End)
	}
	data, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var f traceFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	again := NewChromeTrace()
	for _, st := range harness.Strategies {
		run := again.Run(string(st))
		res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{run}})
		run.Finish(res.End)
	}
	if data2, _ := again.JSON(); string(data2) != string(data) {
		t.Errorf("%s: two traces of the same runs differ", sc.Name)
	}
	return f
}

// TestChromeTraceTracksAndEvents: one process per strategy, one named track
// per broker; fetches, ListOffsets and the aux-state build on the new
// follower's track; elections, ISR joins; complete events nest on a track.
func TestChromeTraceTracksAndEvents(t *testing.T) {
	sc, _ := scenarios.Lookup("election-mid-bootstrap")
	f := chromeTrace(t, sc)
	type key struct {
		pid, tid int
		ph, name string
	}
	count := map[key]int{}
	spans := map[[2]int][][2]int64{}
	for _, e := range f.TraceEvents {
		name := e.Name
		if e.Ph == "M" {
			name += "=" + fmt.Sprint(e.Args["name"])
		}
		count[key{e.Pid, e.Tid, e.Ph, name}]++
		if e.Ph == "X" {
			if e.Dur == nil || *e.Dur < 0 {
				t.Fatalf("complete event %s without a duration", e.Name)
			}
			spans[[2]int{e.Pid, e.Tid}] = append(spans[[2]int{e.Pid, e.Tid}], [2]int64{e.Ts, e.Ts + *e.Dur})
		}
	}
	for pid, name := range map[int]string{1: "local-log-start", 2: "last-tiered"} {
		if count[key{pid, 0, "M", "process_name=" + name}] != 1 {
			t.Errorf("no process %d named %s", pid, name)
		}
		for tid, b := range []string{"b0", "b1", "b2"} {
			if count[key{pid, tid, "M", "thread_name=" + b}] != 1 {
				t.Errorf("pid %d: no track named %s", pid, b)
			}
		}
		for _, k := range []key{{pid, 1, "X", "fetch"}, {pid, 1, "X", "list-offsets"}, {pid, 1, "X", "aux-state build"},
			{pid, 1, "i", "aux state built"}, {pid, 2, "i", "becomes leader"}, {pid, 1, "i", "joins ISR"}, {pid, 1, "b", "bootstrap"},
			{pid, 1, "e", "bootstrap"}, {pid, 1, "i", "add_replica"}} {
			if count[k] == 0 {
				t.Errorf("no %+v event", k)
			}
		}
	}
	for track, ss := range spans {
		sort.Slice(ss, func(i, j int) bool { return ss[i][0] < ss[j][0] || ss[i][0] == ss[j][0] && ss[i][1] > ss[j][1] })
		for i := 1; i < len(ss); i++ {
			if ss[i][0] < ss[i-1][1] && ss[i][1] > ss[i-1][1] {
				t.Errorf("track %v: spans %v and %v overlap without nesting", track, ss[i-1], ss[i])
			}
		}
	}
}

// TestChromeTraceUploads: a producing, tiered partition shows uploads on
// the leader's track.
func TestChromeTraceUploads(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 2, "replicas": [0], "duration_ms": 20000,
	  "config": {"segment_bytes": 102400, "record_bytes": 1024, "remote_storage_enable": true, "remote_log_manager_task_interval_ms": 1000},
	  "events": [{"at_ms": 0, "type": "produce", "records": 2000, "over_ms": 10000}, {"at_ms": 5000, "type": "add_replica", "broker": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	f := chromeTrace(t, sc)
	uploads := 0
	for _, e := range f.TraceEvents {
		if e.Ph == "X" && e.Name == "upload" && e.Tid == 0 {
			uploads++
			if seg, _ := e.Args["segment"].(string); !strings.HasPrefix(seg, "[") {
				t.Errorf("upload without its segment: %v", e.Args)
			}
		}
	}
	if uploads < 10 {
		t.Errorf("%d uploads on b0's track, want one per rolled segment", uploads)
	}
}

// TestChromeTraceBackoffs: KIP-1023's retries on an unknown EPUO are
// backoff spans with their reason.
func TestChromeTraceBackoffs(t *testing.T) {
	sc, _ := scenarios.Lookup("leader-hro-unknown")
	f := chromeTrace(t, sc)
	n := 0
	for _, e := range f.TraceEvents {
		if e.Pid == 2 && e.Tid == 1 && e.Ph == "X" && e.Name == "backoff" {
			n++
			if e.Args["reason"] != "epuo-unknown" || *e.Dur != 1_000_000 {
				t.Errorf("backoff %v lasting %d us", e.Args, *e.Dur)
			}
		}
	}
	if n != 30 {
		t.Errorf("%d backoffs on b1's last-tiered track, want 30", n)
	}
}
