package reports

import (
	"encoding/json"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestRunRecorderFollowsEachRun: the recorder of 'simrun run' draws what
// was asked for, each strategy's run in its own track group or plot, and
// leaves a run's observers alone when asked for nothing.
func TestRunRecorderFollowsEachRun(t *testing.T) {
	sc, ok := scenarios.Lookup("election-mid-bootstrap")
	if !ok {
		t.Fatal("no scenario election-mid-bootstrap")
	}
	run := func(timeline, chrome bool) (*RunRecorder, harness.Options) {
		rec := NewRunRecorder(harness.Strategies, timeline, chrome)
		opt := harness.Options{Seed: 1}
		rec.Hook(&opt)
		_, runs := harness.RunAllWith(sc, opt, harness.Strategies)
		rec.Finish(runs, "the title")
		return rec, opt
	}
	if _, opt := run(false, false); len(opt.Observers) != 0 {
		t.Errorf("nothing asked for, %d observers hooked", len(opt.Observers))
	}
	rec, _ := run(false, true)
	data, err := rec.ChromeJSON()
	if err != nil {
		t.Fatal(err)
	}
	var f traceFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	spans := map[int]int{}
	for _, e := range f.TraceEvents {
		if e.Ph == "X" {
			spans[e.Pid]++
		}
	}
	if len(spans) != len(harness.Strategies) || spans[1] == 0 || spans[2] == 0 {
		t.Errorf("spans per run %v, want some in each of the %d runs", spans, len(harness.Strategies))
	}
	rec, _ = run(true, false)
	svg, err := rec.Timeline()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range harness.Strategies {
		if !strings.Contains(string(svg), string(st)) {
			t.Errorf("timeline lacks the %s run", st)
		}
	}
	if !strings.Contains(string(svg), ">the title<") {
		t.Error("timeline lacks its title")
	}
}

// TestChromeTraceIsBounded: a run's Chrome trace stops at its share of
// MaxChromeEvents with a "trace cut" event, its open bootstrap closed
// there; it grew with every step (a run to the default budget built 5 GB
// of trace, 77 s, where the run took 0.5 GB and 6 s).
func TestChromeTraceIsBounded(t *testing.T) {
	tr := NewChromeTrace()
	runs := []*ChromeRun{tr.Run("local-log-start"), tr.Run("last-tiered")}
	for _, r := range runs {
		r.Event(0, &model.Event{Kind: model.EvAddReplica, Broker: 1})
		for i := range MaxChromeEvents {
			r.Event(sim.Time(i), &model.Event{Kind: model.EvProduce, Broker: -1, Count: 1})
		}
		r.Finish(sim.Time(MaxChromeEvents))
	}
	if tr.Cut() != 2 {
		t.Errorf("%d runs cut, want 2", tr.Cut())
	}
	if n := len(tr.events); n > MaxChromeEvents+64 {
		t.Errorf("%d events, want about MaxChromeEvents (%d)", n, MaxChromeEvents)
	}
	cuts, closed := 0, 0
	for _, e := range tr.events {
		if strings.HasPrefix(e.Name, "trace cut") {
			cuts++
		}
		if e.Name == "bootstrap" && e.Ph == "e" && e.Args["result"] == "trace cut" {
			closed++
		}
	}
	if cuts != 2 || closed != 2 {
		t.Errorf("%d trace cut events and %d bootstraps closed by the cut, want 2 and 2", cuts, closed)
	}
	if _, err := tr.JSON(); err != nil {
		t.Fatal(err)
	}
}
