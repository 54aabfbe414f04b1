package explore

import (
	"regexp"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// TestReportKeepsFindings: the report a shard file holds carries the
// search's violation and its known findings, each with what broke, where,
// and the scenario file that replays it (simrun run breaks the same
// invariant at the same step).
func TestReportKeepsFindings(t *testing.T) {
	stale, ok := scenarios.Lookup("finding-reenable-stale-hro")
	if !ok {
		t.Fatal("no finding-reenable-stale-hro")
	}
	for _, cfg := range []Config{
		{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: 30, Mutants: model.Mutants(0).With(model.MutantHWNotReset)},
		{Scenario: stale, Strategy: harness.LastTiered, Depth: 10, Liveness: true},
	} {
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReportOf(res)
		if err != nil {
			t.Fatal(err)
		}
		var found []*Counterexample
		var reported []*Finding
		if res.Violation != nil {
			found = append(found, res.Violation)
			reported = append(reported, r.Violation)
		}
		for i, k := range res.Known {
			found = append(found, k)
			if i < len(r.Known) {
				reported = append(reported, &r.Known[i])
			}
		}
		if len(found) == 0 || len(r.Known) != len(res.Known) || (r.Violation == nil) != (res.Violation == nil) {
			t.Fatalf("%s: the report holds %d known findings and violation %v; the search found %d and %v",
				cfg.Scenario.Name, len(r.Known), r.Violation != nil, len(res.Known), res.Violation != nil)
		}
		for i, cx := range found {
			f := reported[i]
			if f.Outcome != cx.Outcome || f.Invariant != cx.Failure.Invariant || f.Kind != cx.Failure.Kind || f.Step != cx.Steps ||
				f.Choices != cx.Choices || f.Message != cx.Failure.Message {
				t.Errorf("%s: reported %+v for %s %+v at step %d, %d choices", cfg.Scenario.Name, *f, cx.Outcome, *cx.Failure, cx.Steps, cx.Choices)
			}
			sc, err := scenarios.Parse(f.Scenario)
			if err != nil {
				t.Fatalf("%s: the reported scenario does not parse: %v", cfg.Scenario.Name, err)
			}
			checkReplays(t, cfg, &Counterexample{Scenario: sc, Outcome: f.Outcome, Failure: cx.Failure, Steps: f.Step})
		}
	}
}

// TestContentDigest: a shard file's content digest is 16 hex digits of
// the scenario's content and the search's settings: the same for the
// shards of one search (their shard aside) and for a scenario whose
// explore schedule alone differs (the search ignores it), different when
// the scenario's content or a setting differs.
func TestContentDigest(t *testing.T) {
	sc := fixture(t, "tiny-join")
	h := Header{Explore: HeaderVersion, Scenario: sc.Name, Strategy: "last-tiered", Profile: "kip", Depth: 5, Shard: "0/2"}
	digest := func(sc *scenarios.Scenario, h Header) string {
		t.Helper()
		d, err := ContentDigest(sc, h)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	base := digest(sc, h)
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(base) {
		t.Fatalf("digest %q: want 16 hex digits", base)
	}
	other := h
	other.Shard, other.ContentDigest = "1/2", base
	scheduled := *sc
	scheduled.Explore = &scenarios.Schedule{Choices: []int{1, 0, 2}}
	if d, e := digest(sc, other), digest(&scheduled, h); d != base || e != base {
		t.Errorf("another shard %s, an explore schedule %s; want %s for both", d, e, base)
	}
	seeded := *sc
	seeded.Seed++
	deeper := h
	deeper.Depth++
	if d, e := digest(&seeded, h), digest(sc, deeper); d == base || e == base || d == e {
		t.Errorf("another seed %s, another depth %s: want both unlike %s and each other", d, e, base)
	}
}

// TestShardFileVersions: a shard file whose header is of another format
// version says so (which version, which it wants, and to run the shard
// again); a first line that is no explore header at all (no version)
// says that instead; a file ParseShardFile wrote reads back, with CRLF
// line ends or without its last newline.
func TestShardFileVersions(t *testing.T) {
	h := Header{Explore: HeaderVersion, Scenario: "tiny-join", Strategy: "last-tiered", Profile: "kip", Shard: "0/1"}
	data, err := ShardFile(h, Report{States: 3, Stop: StopDepth})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, data, err string
	}{
		{"older", `{"tierfetch_explore":1,"scenario":"tiny-join"}` + "\n{}\n",
			"older: line 1: explore header version 1, want 2 (written by another simrun: run the shard again)"},
		{"newer", `{"tierfetch_explore":3}` + "\n{}\n", "newer: line 1: explore header version 3, want 2"},
		{"none", `{"scenario":"tiny-join"}` + "\n{}\n", "none: line 1: not an explore header"},
		{"crlf", strings.ReplaceAll(string(data), "\n", "\r\n"), ""},
		{"unterminated", strings.TrimSuffix(string(data), "\n"), ""},
	} {
		gh, gr, err := ParseShardFile(c.name, []byte(c.data))
		switch {
		case c.err == "" && (err != nil || gh.Scenario != h.Scenario || gr.States != 3 || gr.Stop != StopDepth):
			t.Errorf("%s: %v, header %+v, report %+v", c.name, err, gh, gr)
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
}
