package reports

import (
	"encoding/json"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
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
