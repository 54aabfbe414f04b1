package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tierfetch/explore"
	"tierfetch/harness"
)

var exploreFixture = filepath.Join(repoRoot, "explore", "testdata", "tiny-join.json")

// TestExploreBadInput: every bad flag exits 2 naming it, writes nothing to
// stdout and never panics.
func TestExploreBadInput(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	cases := []struct {
		args []string
		want string
	}{
		{[]string{}, "--scenario"},
		{[]string{"--scenario", "no-such-scenario"}, "no-such-scenario"},
		{[]string{"--scenario", exploreFixture, "--depth", "0"}, "--depth"},
		{[]string{"--scenario", exploreFixture, "--depth", "x"}, "depth"},
		{[]string{"--scenario", exploreFixture, "--max-states", "0"}, "--max-states"},
		{[]string{"--scenario", exploreFixture, "--faults", "crash,meteor"}, "--faults"},
		{[]string{"--scenario", exploreFixture, "--fault-ms", "0"}, "--fault-ms"},
		{[]string{"--scenario", exploreFixture, "--strategy", "both"}, "--strategy"},
		{[]string{"--scenario", exploreFixture, "--profile", "kafka-9"}, "--profile"},
		{[]string{"--scenario", exploreFixture, "--mutant", "nope"}, "--mutant"},
		{[]string{"--scenario", exploreFixture, "--shard", "3/3"}, "--shard"},
		{[]string{"--scenario", exploreFixture, "--shard", "1/2x"}, "--shard"},
		{[]string{"--scenario", exploreFixture, "--out", ""}, "--out"},
		{[]string{"--scenario", exploreFixture, "stray"}, "stray"},
	}
	for _, c := range cases {
		code, stdout, stderr := simrun(t, append([]string{"explore"}, c.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 naming %q", c.args, code, stderr, stdout, c.want)
		}
	}
}

// TestExploreCounterexampleReplays: a violation's file, run by simrun run,
// breaks the same invariant; the bound and budget exit codes.
func TestExploreCounterexampleReplays(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	dir := t.TempDir()
	out := filepath.Join(dir, "cx.json")
	code, stdout, stderr := simrun(t, "explore", "--scenario", exploreFixture, "--depth", "30", "--mutant", "hw-not-reset", "--out", out)
	if code != exitSafety || !strings.Contains(stdout, "VIOLATION safety-violation offset-order at step 12") {
		t.Fatalf("explore: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = simrun(t, "run", "--scenario", out, "--strategy", "last-tiered", "--mutant", "hw-not-reset")
	if code != exitSafety || !strings.Contains(stdout, "violation offset-order at 0.015s step 12") {
		t.Fatalf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = simrun(t, "explore", "--scenario", exploreFixture, "--depth", "8", "--out", out+"2")
	if code != exitOK || !strings.Contains(stdout, "exhausted: every state within depth 8 visited") {
		t.Fatalf("unmutated: exit %d\n%s", code, stdout)
	}
	if _, err := os.Stat(out + "2"); err == nil {
		t.Fatalf("a file was written with no violation")
	}
	code, stdout, _ = simrun(t, "explore", "--scenario", exploreFixture, "--depth", "30", "--max-states", "50")
	if code != exitBudget || !strings.Contains(stdout, "NOT exhausted") {
		t.Fatalf("budget: exit %d\n%s", code, stdout)
	}
}

// TestExploreShardsMerge: the shards' files merge into one report; a
// missing shard is bad input.
func TestExploreShardsMerge(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, k := range []string{"0/2", "1/2"} {
		f := filepath.Join(dir, strings.Replace(k, "/", "-", 1)+".jsonl")
		code, stdout, stderr := simrun(t, "explore", "--scenario", exploreFixture, "--depth", "5", "--faults", "crash,elect",
			"--no-liveness", "--shard", k, "--jsonl", f)
		if code != exitOK {
			t.Fatalf("shard %s: exit %d\n%s%s", k, code, stdout, stderr)
		}
		files = append(files, f)
	}
	code, stdout, stderr := simrun(t, append([]string{"merge"}, files...)...)
	if code != exitOK || !strings.Contains(stdout, "merged 2 shards") || !strings.Contains(stdout, "exhausted") {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	code, _, stderr = simrun(t, "merge", files[0])
	if code != exitBadInput || !strings.Contains(stderr, "shard 1/2 missing") {
		t.Fatalf("merge of one shard: exit %d, %s", code, stderr)
	}
}

// TestExploreNondeterminism: a search whose re-run path differs from what
// it saw exits 5 with a NONDETERMINISM message on stderr, and writes no
// counterexample.
func TestExploreNondeterminism(t *testing.T) {
	exploreRun = func(explore.Config) (*explore.Result, error) {
		return &explore.Result{States: 3}, &explore.NondeterminismError{Picks: []int{0, 1}, Explored: "safety-violation x at step 2",
			Rerun: "ok at step 9"}
	}
	defer func() { exploreRun = explore.Run }()
	out := filepath.Join(t.TempDir(), "cx.json")
	code, stdout, stderr := simrun(t, "explore", "--scenario", exploreFixture, "--out", out)
	if code != exitNondeterminism || !strings.Contains(stderr, "NONDETERMINISM: re-running the path [0 1]") || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a counterexample was written")
	}
}

// TestRunScheduleDivergence: simrun run of a counterexample reports that its
// schedule fits; once a pick is out of range (the file written for another
// model) it warns on stderr and says so in the result JSON.
func TestRunScheduleDivergence(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cx.json")
	if code, stdout, stderr := simrun(t, "explore", "--scenario", exploreFixture, "--depth", "30", "--mutant", "hw-not-reset",
		"--out", out); code != exitSafety {
		t.Fatalf("explore: exit %d\n%s%s", code, stdout, stderr)
	}
	schedules := func(file string) (string, []*harness.ScheduleJSON) {
		_, stdout, stderr := simrun(t, "run", "--scenario", file, "--strategy", "last-tiered", "--mutant", "hw-not-reset", "--json")
		var res harness.Result
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		var out []*harness.ScheduleJSON
		for _, r := range res.Runs {
			out = append(out, r.Schedule)
		}
		return stderr, out
	}
	stderr, got := schedules(out)
	if strings.Contains(stderr, "warning") || len(got) != 1 || got[0] == nil || !got[0].Fits || got[0].Clamped != 0 {
		t.Fatalf("faithful replay: %q %+v", stderr, got)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var file map[string]any
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	choices := file["explore"].(map[string]any)["choices"].([]any)
	choices[0] = 99
	data, _ = json.Marshal(file)
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stderr, got = schedules(bad)
	if !strings.Contains(stderr, "the explore schedule does not fit this run: 1 of") || got[0] == nil || got[0].Fits ||
		got[0].Clamped != 1 {
		t.Fatalf("clamped replay: %q %+v", stderr, got[0])
	}
}

// TestExploreOfACounterexampleWarns: exploring a file that has an explore
// schedule says on stderr that the schedule is ignored.
func TestExploreOfACounterexampleWarns(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cx.json")
	simrun(t, "explore", "--scenario", exploreFixture, "--depth", "30", "--mutant", "hw-not-reset", "--out", out)
	code, _, stderr := simrun(t, "explore", "--scenario", out, "--depth", "3", "--out", filepath.Join(dir, "again.json"))
	if code != exitOK || !strings.Contains(stderr, "already has an explore schedule (0 faults, 11 picks): explore ignores it") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
