package fuzz

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// shrinkInput has 20 events of every kind; the synthetic predicate needs only
// a produce of at least 7 records and a crash of broker 2.
const shrinkInput = `{
  "name": "shrink-input",
  "seed": 42,
  "brokers": 5,
  "replicas": [0, 1],
  "config": {"segment_bytes": 102400, "remote_storage_enable": true, "remote_error_rate": 0.1,
             "remote_metadata_ready_ms": 20000, "log_retention_check_interval_ms": 5000},
  "initial": {
    "high_watermark": 300,
    "highest_remote_offset": 199,
    "remote_segments": [
      {"base_offset": 0, "end_offset": 99},
      {"base_offset": 100, "end_offset": 199}
    ],
    "local_segments": [
      {"base_offset": 100, "end_offset": 199},
      {"base_offset": 200, "end_offset": 299},
      {"base_offset": 300, "end_offset": 299}
    ]
  },
  "events": [
    {"at_ms": 0, "type": "add_replica", "broker": 3},
    {"at_ms": 1000, "type": "produce", "records": 3, "over_ms": 500},
    {"at_ms": 2000, "type": "add_replica", "broker": 4},
    {"at_ms": 3000, "type": "produce", "records": 5000, "over_ms": 10000},
    {"at_ms": 4000, "type": "crash", "broker": 1},
    {"at_ms": 5000, "type": "restart", "broker": 1},
    {"at_ms": 6000, "type": "set_config", "key": "remote_storage_enable", "value": false},
    {"at_ms": 7000, "type": "network_partition", "brokers": [4], "duration_ms": 3000},
    {"at_ms": 8000, "type": "crash", "broker": 2},
    {"at_ms": 9000, "type": "elect_leader", "broker": 1},
    {"at_ms": 10000, "type": "produce", "records": 20, "over_ms": 0},
    {"at_ms": 11000, "type": "remote_outage", "duration_ms": 5000},
    {"at_ms": 12000, "type": "delete_records", "before_offset": 50},
    {"at_ms": 13000, "type": "restart", "broker": 2},
    {"at_ms": 14000, "type": "consume", "from_offset": 0},
    {"at_ms": 15000, "type": "set_config", "key": "local_retention_bytes", "value": 0},
    {"at_ms": 16000, "type": "produce", "records": 6, "over_ms": 100},
    {"at_ms": 17000, "type": "crash", "broker": 3},
    {"at_ms": 18000, "type": "restart", "broker": 3},
    {"at_ms": 19000, "type": "produce", "records": 64, "over_ms": 2000}
  ],
  "duration_ms": 60000,
  "heal_ms": 30000
}`

// bigProduceAndCrash2 is the synthetic predicate: a produce of at least 7
// records and a crash of broker 2.
func bigProduceAndCrash2(sc *scenarios.Scenario) bool {
	produce := slices.ContainsFunc(sc.Events, func(e scenarios.Event) bool { return e.Type == scenarios.EventProduce && e.Records >= 7 })
	crash := slices.ContainsFunc(sc.Events, func(e scenarios.Event) bool {
		return e.Type == scenarios.EventCrash && *e.Broker == 2
	})
	return produce && crash
}

func parseForShrink(t *testing.T, text string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func marshalForShrink(t *testing.T, sc *scenarios.Scenario) []byte {
	t.Helper()
	data, err := sc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// checkRoundTrip checks that a shrunk scenario is data: its file form
// parses back to the same file.
func checkRoundTrip(t *testing.T, sc *scenarios.Scenario) {
	t.Helper()
	data := marshalForShrink(t, sc)
	if again := marshalForShrink(t, parseForShrink(t, string(data))); !bytes.Equal(again, data) {
		t.Errorf("shrunk scenario does not round-trip:\n%s\n%s", data, again)
	}
}

// countedForShrink wraps a predicate: it counts calls and fails the test on a
// candidate that does not validate.
func countedForShrink(t *testing.T, calls *int, pred func(*scenarios.Scenario) bool) func(*scenarios.Scenario) bool {
	return func(sc *scenarios.Scenario) bool {
		*calls++
		if err := sc.Validate(); err != nil {
			t.Errorf("stillFails called on an invalid candidate: %v", err)
		}
		return pred(sc)
	}
}

func TestShrinkSynthetic(t *testing.T) {
	sc := parseForShrink(t, shrinkInput)
	orig := marshalForShrink(t, sc)
	const maxRuns = 200
	calls := 0
	res := Shrink(sc, countedForShrink(t, &calls, bigProduceAndCrash2), maxRuns)
	t.Logf("%d runs: %v -> %v", res.Runs, res.Before, res.After)
	if !bytes.Equal(marshalForShrink(t, sc), orig) {
		t.Error("Shrink changed its input")
	}
	if res.Runs != calls || res.Runs > maxRuns {
		t.Errorf("Runs = %d, stillFails called %d times, budget %d", res.Runs, calls, maxRuns)
	}
	got := res.Scenario
	if !bigProduceAndCrash2(got) {
		t.Fatalf("result no longer fails:\n%s", marshalForShrink(t, got))
	}
	checkRoundTrip(t, got)
	wantConfig := scenarios.DefaultConfig()
	wantConfig.RemoteStorageEnable = true // a bool: left alone
	var kinds []string
	for _, e := range got.Events {
		kinds = append(kinds, e.Type)
	}
	if !slices.Equal(kinds, []string{scenarios.EventCrash, scenarios.EventProduce}) && !slices.Equal(kinds, []string{scenarios.EventProduce, scenarios.EventCrash}) {
		t.Errorf("events %v, want one crash and one produce", kinds)
	}
	for _, e := range got.Events {
		if e.Type == scenarios.EventProduce && (e.Records != 7 || e.OverMs != 0) {
			t.Errorf("produce records=%d over_ms=%d, want 7 and 0", e.Records, e.OverMs)
		}
		if e.AtMs != 0 {
			t.Errorf("%s at_ms=%d, want 0", e.Type, e.AtMs)
		}
	}
	switch {
	case got.Brokers != 3:
		t.Errorf("brokers = %d, want 3", got.Brokers)
	case !slices.Equal(got.Replicas, []int{0}):
		t.Errorf("replicas = %v, want [0]", got.Replicas)
	case got.Name != "shrink-input-min" || got.Seed != 42:
		t.Errorf("name %q seed %d, want shrink-input-min 42", got.Name, got.Seed)
	case got.Initial != nil:
		t.Errorf("initial fixture kept: %+v", got.Initial)
	case got.Config != wantConfig:
		t.Errorf("numeric config not back to the defaults: %+v", got.Config)
	case got.DurationMs != 1 || got.HealMs != 30000:
		t.Errorf("duration_ms %d heal_ms %d, want 1 and the original 30000 (heal is never shrunk)", got.DurationMs, got.HealMs)
	}
	if want := (Size{Events: 2, Faults: 1, Brokers: 3, Records: 7, DurationMs: 30001}); res.After != want {
		t.Errorf("After = %v, want %v", res.After, want)
	}
}

func TestShrinkBudget(t *testing.T) {
	sc := parseForShrink(t, shrinkInput)
	for _, maxRuns := range []int{0, 1, 5} {
		calls := 0
		res := Shrink(sc, countedForShrink(t, &calls, bigProduceAndCrash2), maxRuns)
		if calls > maxRuns || res.Runs != calls {
			t.Errorf("budget %d: stillFails called %d times, Runs %d", maxRuns, calls, res.Runs)
		}
		if !bigProduceAndCrash2(res.Scenario) {
			t.Errorf("budget %d: result does not fail", maxRuns)
		}
	}
}

func TestShrinkNothingSmallerFails(t *testing.T) {
	sc := parseForShrink(t, shrinkInput)
	res := Shrink(sc, func(*scenarios.Scenario) bool { return false }, 100)
	if got, want := marshalForShrink(t, res.Scenario), marshalForShrink(t, sc); !bytes.Equal(got, want) {
		t.Errorf("result differs from the input:\n%s", got)
	}
	if res.Scenario == sc || res.Before != res.After {
		t.Errorf("want a copy of the input of the same size, got %v -> %v", res.Before, res.After)
	}
}

func TestShrinkDeterministic(t *testing.T) {
	sc := parseForShrink(t, shrinkInput)
	a := marshalForShrink(t, Shrink(sc, bigProduceAndCrash2, 200).Scenario)
	b := marshalForShrink(t, Shrink(sc, bigProduceAndCrash2, 200).Scenario)
	if !bytes.Equal(a, b) {
		t.Errorf("two shrinks differ:\n%s\n%s", a, b)
	}
	named, _ := scenarios.Lookup("finding-reenable-stale-hro")
	opt := harness.Options{Seed: 1, Strategy: harness.LocalLogStart}
	pred := SameFailure(opt, harness.Execute(named, opt))
	a = marshalForShrink(t, Shrink(named, pred, 100).Scenario)
	b = marshalForShrink(t, Shrink(named, pred, 100).Scenario)
	if !bytes.Equal(a, b) {
		t.Errorf("two shrinks of %s differ:\n%s\n%s", named.Name, a, b)
	}
}

func TestSizeString(t *testing.T) {
	s := Size{Events: 14, Faults: 6, Brokers: 4, Records: 12034, Segments: 8, DurationMs: 265_200}
	if got, want := s.String(), "14 events (6 faults), 4 brokers, 12034 records, 8 segments, 265.2s"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	sc := parseForShrink(t, shrinkInput)
	want := Size{Events: 20, Faults: 12, Brokers: 5, Records: 300 + 3 + 5000 + 20 + 6 + 64, Segments: 5, DurationMs: 90_000}
	if got := SizeOf(sc); got != want {
		t.Errorf("SizeOf = %v, want %v", got, want)
	}
	// An initial log held only remotely counts its segments and no local records.
	tiered := &scenarios.Scenario{Brokers: 2, DurationMs: 10, Initial: &scenarios.Initial{
		RemoteSegments: []scenarios.SegmentSpec{{BaseOffset: 0, EndOffset: 9}, {BaseOffset: 10, EndOffset: 19}}}}
	if got, want := SizeOf(tiered), (Size{Brokers: 2, Segments: 2, DurationMs: 10}); got != want {
		t.Errorf("SizeOf(remote only) = %v, want %v", got, want)
	}
}

// checkShrunk runs the shrunk scenario again and checks it fails like want
// and is no larger than the original.
func checkShrunk(t *testing.T, res ShrinkResult, opt harness.Options, want *harness.RunResult) {
	t.Helper()
	t.Logf("%d runs: %v -> %v", res.Runs, res.Before, res.After)
	got := harness.Execute(res.Scenario, opt)
	if got.Outcome != want.Outcome || got.Violation == nil ||
		got.Violation.Invariant != want.Violation.Invariant || got.Violation.Kind != want.Violation.Kind {
		t.Fatalf("shrunk scenario: %s %+v, want %s %s (%s)\n%s", got.Outcome, got.Violation,
			want.Outcome, want.Violation.Invariant, want.Violation.Kind, marshalForShrink(t, res.Scenario))
	}
	checkRoundTrip(t, res.Scenario)
	b, a := res.Before, res.After
	if a.Events > b.Events || a.Faults > b.Faults || a.Brokers > b.Brokers || a.Records > b.Records ||
		a.Segments > b.Segments || a.DurationMs > b.DurationMs {
		t.Errorf("shrunk scenario is larger: %v -> %v", b, a)
	}
}

func TestShrinkNamedFinding(t *testing.T) {
	sc, ok := scenarios.Lookup("finding-reenable-stale-hro")
	if !ok {
		t.Fatal("no scenario finding-reenable-stale-hro")
	}
	opt := harness.Options{Seed: 1, Strategy: harness.LocalLogStart}
	want := harness.Execute(sc, opt)
	if want.Violation == nil || want.Violation.Invariant != "no-hole" {
		t.Fatalf("%s: %s %+v, want a no-hole violation", sc.Name, want.Outcome, want.Violation)
	}
	res := Shrink(sc, SameFailure(opt, want), 300)
	checkShrunk(t, res, opt, want)
	if res.Runs > 300 || res.After.Events > 3 || res.After.DurationMs >= res.Before.DurationMs {
		t.Errorf("runs %d, %v -> %v: want <= 300 runs, <= 3 events, a shorter run", res.Runs, res.Before, res.After)
	}
	t.Logf("shrunk:\n%s", marshalForShrink(t, res.Scenario))
}

// TestShrinkGenerated shrinks a real generated failure: seed 2's scenario
// (15 events, 5 brokers) under the hw-not-reset mutant, which the unmutated
// model passes.
func TestShrinkGenerated(t *testing.T) {
	const seed = 2
	sc := gen.Generate(seed)
	if r := harness.Execute(sc, harness.Options{Seed: seed, Strategy: harness.LocalLogStart}); r.Outcome != harness.OutcomeOK {
		t.Fatalf("unmutated seed %d: %s %+v, want ok", seed, r.Outcome, r.Violation)
	}
	opt := harness.Options{Seed: seed, Strategy: harness.LocalLogStart, Mutants: model.Mutants(0).With(model.MutantHWNotReset)}
	want := harness.Execute(sc, opt)
	if want.Outcome != harness.OutcomeSafety {
		t.Fatalf("seed %d with hw-not-reset: %s, want a safety violation to shrink", seed, want.Outcome)
	}
	res := Shrink(sc, SameFailure(opt, want), 400)
	checkShrunk(t, res, opt, want)
	if res.Runs > 400 || res.After.Events >= res.Before.Events || res.After.Brokers >= res.Before.Brokers {
		t.Errorf("runs %d, %v -> %v: want <= 400 runs, fewer events and brokers", res.Runs, res.Before, res.After)
	}
	t.Logf("%v -> %v in %d runs", res.Before, res.After, res.Runs)
}

// TestShrinkPassOrder: what the event pass keeps when several minimal
// scenarios fail: add_replica events are removed after all others, a crash
// goes together with its broker's restart, and duration_ms comes down to
// just past the last event.
func TestShrinkPassOrder(t *testing.T) {
	has := func(typ string, broker int) func(e scenarios.Event) bool {
		return func(e scenarios.Event) bool {
			return e.Type == typ && (broker < 0 || e.Broker != nil && *e.Broker == broker)
		}
	}
	cases := []struct {
		name   string
		events string
		fails  func(sc *scenarios.Scenario) bool
		want   []string // the event types left, in order
	}{
		{"add_replica last",
			`{"at_ms": 0, "type": "add_replica", "broker": 2}, {"at_ms": 10, "type": "crash", "broker": 1}`,
			func(sc *scenarios.Scenario) bool {
				return slices.ContainsFunc(sc.Events, has(scenarios.EventAddReplica, 2)) || slices.ContainsFunc(sc.Events, has(scenarios.EventCrash, 1))
			},
			[]string{scenarios.EventAddReplica}},
		{"a crash with its restart",
			`{"at_ms": 0, "type": "produce", "records": 1}, {"at_ms": 10, "type": "crash", "broker": 1}, {"at_ms": 15, "type": "produce", "records": 2},
			 {"at_ms": 20, "type": "restart", "broker": 1}`,
			func(sc *scenarios.Scenario) bool {
				// the produce between them is needed; a crash without its
				// restart, or a restart without its crash, hides the failure
				i := slices.IndexFunc(sc.Events, has(scenarios.EventCrash, 1))
				j := slices.IndexFunc(sc.Events, has(scenarios.EventRestart, 1))
				needed := slices.ContainsFunc(sc.Events, func(e scenarios.Event) bool { return e.Type == scenarios.EventProduce && e.Records >= 2 })
				return needed && (i < 0 && j < 0 || i >= 0 && j > i)
			},
			[]string{scenarios.EventProduce}},
		{"a crash no restart follows",
			`{"at_ms": 0, "type": "produce", "records": 1}, {"at_ms": 5, "type": "produce", "records": 2}, {"at_ms": 10, "type": "crash", "broker": 1}`,
			func(sc *scenarios.Scenario) bool {
				return slices.ContainsFunc(sc.Events, has(scenarios.EventProduce, -1))
			},
			[]string{scenarios.EventProduce}},
	}
	for _, c := range cases {
		sc := parseForShrink(t, `{"name": "order", "brokers": 3, "replicas": [0, 1], "duration_ms": 60000, "events": [`+c.events+`]}`)
		calls := 0
		res := Shrink(sc, countedForShrink(t, &calls, c.fails), 500)
		var got []string
		for _, e := range res.Scenario.Events {
			got = append(got, e.Type)
		}
		if !slices.Equal(got, c.want) || !c.fails(res.Scenario) {
			t.Errorf("%s: shrunk to %v, want %v", c.name, got, c.want)
		}
	}

	// A failure no event is needed for: every event goes, duration_ms to 1.
	sc0 := parseForShrink(t, `{"name": "any", "brokers": 2, "duration_ms": 60000, "events": [{"at_ms": 100, "type": "produce", "records": 1}]}`)
	if res := Shrink(sc0, func(*scenarios.Scenario) bool { return true }, 100); len(res.Scenario.Events) != 0 || res.Scenario.DurationMs != 1 {
		t.Errorf("a failure that needs nothing shrunk to events %+v, duration_ms %d", res.Scenario.Events, res.Scenario.DurationMs)
	}

	// duration_ms: just past an event the failure needs late.
	sc := parseForShrink(t, `{"name": "late", "brokers": 2, "duration_ms": 60000, "events": [
		{"at_ms": 100, "type": "produce", "records": 1}, {"at_ms": 40000, "type": "crash", "broker": 1}]}`)
	late := func(sc *scenarios.Scenario) bool {
		return slices.ContainsFunc(sc.Events, func(e scenarios.Event) bool { return e.Type == scenarios.EventCrash && e.AtMs >= 30000 })
	}
	res := Shrink(sc, late, 500)
	// at_ms is bisected to within a sixteenth of its value: 30000..32000
	if ev := res.Scenario.Events; len(ev) != 1 || ev[0].AtMs < 30000 || ev[0].AtMs > 32000 || res.Scenario.DurationMs != ev[0].AtMs+1 {
		t.Errorf("shrunk to events %+v, duration_ms %d: want the crash alone at 30000..32000 and duration_ms just past it", ev, res.Scenario.DurationMs)
	}
}

// TestShrinkRemovesLongRunsInChunks: a long scenario whose failure needs one
// event shrinks in far fewer runs than one a removed event.
func TestShrinkRemovesLongRunsInChunks(t *testing.T) {
	var ev []string
	for i := range 64 {
		if i == 40 {
			ev = append(ev, `{"at_ms": 400, "type": "crash", "broker": 1}`)
		}
		ev = append(ev, fmt.Sprintf(`{"at_ms": %d, "type": "produce", "records": 1}`, 10*i))
	}
	sc := parseForShrink(t, `{"name": "long", "brokers": 2, "duration_ms": 60000, "events": [`+strings.Join(ev, ", ")+`]}`)
	crash := func(sc *scenarios.Scenario) bool {
		return slices.ContainsFunc(sc.Events, func(e scenarios.Event) bool { return e.Type == scenarios.EventCrash })
	}
	res := Shrink(sc, crash, 1000)
	if len(res.Scenario.Events) != 1 || !crash(res.Scenario) {
		t.Fatalf("shrunk to %d events, want the crash alone", len(res.Scenario.Events))
	}
	if res.Runs >= 40 {
		t.Errorf("%d runs to drop 64 events: the chunks did not remove them together", res.Runs)
	}
	t.Logf("%d runs", res.Runs)
}

// TestShrinkClusterAndFixture: the broker count comes down one at a time to
// the fewest that still fail when the fewest the events allow do not, and a
// fixture the failure needs loses its remote segments and its closed local
// ones (the log start rising with them).
func TestShrinkClusterAndFixture(t *testing.T) {
	sc := parseForShrink(t, `{"name": "cluster", "brokers": 6, "replicas": [0, 1], "duration_ms": 60000,
		"config": {"remote_storage_enable": true},
		"initial": {"high_watermark": 300, "highest_remote_offset": 199,
			"remote_segments": [{"base_offset": 0, "end_offset": 99}, {"base_offset": 100, "end_offset": 199}],
			"local_segments": [{"base_offset": 100, "end_offset": 199}, {"base_offset": 200, "end_offset": 299}, {"base_offset": 300, "end_offset": 299}]},
		"events": [{"at_ms": 10, "type": "crash", "broker": 1}]}`)
	fails := func(sc *scenarios.Scenario) bool { return sc.Brokers >= 4 && sc.Initial != nil && len(sc.Events) == 1 }
	res := Shrink(sc, fails, 500)
	got := res.Scenario
	if got.Brokers != 4 {
		t.Errorf("brokers %d, want 4 (the fewest that fail)", got.Brokers)
	}
	if in := got.Initial; in == nil || len(in.RemoteSegments) != 0 || len(in.LocalSegments) != 1 || in.LogStartOffset != 300 {
		t.Errorf("fixture %+v: want only the active segment, the log starting at 300", got.Initial)
	}
}

// TestShrinkFixtureKeepsWhatTheFailureNeeds: dropping remote segments a
// fixture needs one of takes the closed local segments below the new log
// start with them, and dropping local segments under a remote one leaves the
// log start where the remote segments put it.
func TestShrinkFixtureKeepsWhatTheFailureNeeds(t *testing.T) {
	sc := parseForShrink(t, `{"name": "fixture", "brokers": 2, "replicas": [0, 1], "duration_ms": 60000,
		"config": {"remote_storage_enable": true},
		"initial": {"high_watermark": 400, "highest_remote_offset": 299,
			"remote_segments": [{"base_offset": 0, "end_offset": 99}, {"base_offset": 100, "end_offset": 199}, {"base_offset": 200, "end_offset": 299}],
			"local_segments": [{"base_offset": 100, "end_offset": 199}, {"base_offset": 200, "end_offset": 299},
				{"base_offset": 300, "end_offset": 399}, {"base_offset": 400, "end_offset": 399}]}}`)
	fails := func(sc *scenarios.Scenario) bool { return sc.Initial != nil && len(sc.Initial.RemoteSegments) > 0 }
	in := Shrink(sc, fails, 500).Scenario.Initial
	if in == nil || len(in.RemoteSegments) != 1 || in.RemoteSegments[0].BaseOffset != 200 || in.LogStartOffset != 200 ||
		len(in.LocalSegments) != 2 || in.LocalSegments[0].BaseOffset != 300 {
		t.Errorf("fixture %+v: want remote 200..299, local from 300, the log starting at 200", in)
	}
}
