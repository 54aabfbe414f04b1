package reports

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// chromeOf runs sc once and returns its Chrome trace events and result.
func chromeOf(t *testing.T, sc *scenarios.Scenario, st harness.Strategy, p model.Profile) (traceFile, harness.RunJSON) {
	t.Helper()
	tr := NewChromeTrace()
	run := tr.Run(string(st))
	res := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: st, Profile: p, Observers: []model.Observer{run}})
	run.Finish(res.End)
	data, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var f traceFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return f, res.JSON()
}

// TestChromeTracePhasesMatchBootstrap: for every named scenario, strategy
// and profile, each added follower's phases in the Chrome trace (drawn from
// the event stream) match its bootstrap record in the result (kept by the
// model) exactly: the aux-state builds that succeeded, the backoffs before
// its first records by reason, the ListOffsets requests, the path and start
// offset it bootstrapped at, and the time from add_replica to ISR join.
func TestChromeTracePhasesMatchBootstrap(t *testing.T) {
	checked := 0
	for _, name := range model.ProfileNames() {
		p := model.Profiles[name]
		for _, sc := range scenarios.Named() {
			for _, st := range harness.Strategies {
				f, res := chromeOf(t, sc, st, p)
				for _, fol := range res.Followers {
					checked++
					name := fmt.Sprintf("%s %s %s b%d", sc.Name, st, p.Name(), fol.Broker)
					compareBootstrap(t, name, f, fol)
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("checked %d followers, want every added follower of the named scenarios", checked)
	}
}

func compareBootstrap(t *testing.T, name string, f traceFile, fol harness.FollowerJSON) {
	t.Helper()
	id := fol.Broker
	var builds, lists int
	var bootAt int64 = -1
	var path string
	var start float64
	var begin, end int64 = -1, -1
	backoffStarts := map[int64]string{}
	for _, e := range f.TraceEvents {
		if e.Tid != id {
			continue
		}
		switch {
		case e.Ph == "X" && e.Name == "aux-state build" && e.Args["result"] == "built":
			builds++
		case e.Ph == "X" && e.Name == "list-offsets":
			lists++
		case e.Ph == "X" && e.Name == "backoff":
			backoffStarts[e.Ts], _ = e.Args["reason"].(string)
		case e.Ph == "i" && e.Name == "bootstrapped" && bootAt < 0:
			bootAt = e.Ts
			path, _ = e.Args["path"].(string)
			start, _ = e.Args["start"].(float64)
		case e.Ph == "b" && e.Name == "bootstrap":
			begin = e.Ts
		case e.Ph == "e" && e.Name == "bootstrap" && e.Args["result"] == nil:
			end = e.Ts
		}
	}
	byReason := map[string]int{}
	retries := 0
	for ts, reason := range backoffStarts {
		if bootAt < 0 || ts < bootAt {
			retries++
			byReason[reason]++
		}
	}
	b := fol.Bootstrap
	if builds != b.AuxStateBuilds {
		t.Errorf("%s: %d aux-state builds in the trace, %d in the result", name, builds, b.AuxStateBuilds)
	}
	if lists != b.ListOffsets {
		t.Errorf("%s: %d ListOffsets spans in the trace, %d in the result", name, lists, b.ListOffsets)
	}
	want := b.RetriesByReason
	if want == nil {
		want = map[string]int{}
	}
	if retries != b.Retries || !maps.Equal(byReason, want) {
		t.Errorf("%s: backoffs before the first records %d %v in the trace, %d %v in the result", name, retries, byReason, b.Retries, want)
	}
	if bootAt >= 0 && (path != b.Path || int64(start) != b.StartOffset) {
		t.Errorf("%s: bootstrapped by %s at %v in the trace, %s at %d in the result", name, path, start, b.Path, b.StartOffset)
	}
	switch {
	case fol.CaughtUpMs == nil && end >= 0:
		t.Errorf("%s: the trace's bootstrap span ends in an ISR join the result does not have", name)
	case fol.CaughtUpMs != nil && (begin < 0 || end < 0 || (end-begin)/1000 != *fol.CaughtUpMs):
		t.Errorf("%s: bootstrap span [%d, %d] us, caught up in %d ms", name, begin, end, *fol.CaughtUpMs)
	}
}
