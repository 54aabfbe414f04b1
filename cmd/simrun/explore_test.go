package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
		{[]string{"--scenario", exploreFixture, "--depth", "-1"}, "--depth"},
		{[]string{"--scenario", exploreFixture, "--max-memory", "1"}, "--max-memory"},
		{[]string{"--scenario", exploreFixture, "--from-ms", "2300"}, "--from-ms: 2300 is at or past the end of tiny-join"},
		{[]string{"--scenario", exploreFixture, "--from-ms", "99999999"}, "--from-ms"},
		{[]string{"--scenario", exploreFixture, "--out", "/dev/null"}, "--out: /dev/null is not a regular file"},
		{[]string{"--scenario", exploreFixture, "--out", "/no/such/dir/cx.json"}, "--out: /no/such/dir/cx.json: directory /no/such/dir does not exist"},
		{[]string{"--scenario", exploreFixture, "--out", exploreFixture}, "--out " + exploreFixture + " is the same file as --scenario"},
		{[]string{"--scenario", exploreFixture, "--jsonl", exploreFixture}, "--jsonl " + exploreFixture + " is the same file as --scenario"},
		{[]string{"--scenario", exploreFixture, "--jsonl", "x.json", "--out", "x.json"}, "--jsonl x.json is the same file as --out"},
		{[]string{"--scenario", exploreFixture, "--jsonl", "/no/such/dir/x.jsonl"}, "--jsonl"},
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
// breaks the same invariant, and replayed alone (no flags: its failure
// record) fails as recorded; the bound and budget exit codes.
func TestExploreCounterexampleReplays(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	dir := t.TempDir()
	out := filepath.Join(dir, "cx.json")
	code, explored, stderr := simrun(t, "explore", "--scenario", exploreFixture, "--depth", "30", "--mutant", "hw-not-reset", "--out", out)
	if code != exitSafety || !strings.Contains(explored, "VIOLATION safety-violation offset-order at step 13") {
		t.Fatalf("explore: exit %d\n%s%s", code, explored, stderr)
	}
	code, stdout, stderr := simrun(t, "run", "--scenario", out, "--strategy", "last-tiered", "--mutant", "hw-not-reset")
	if code != exitSafety || !strings.Contains(stdout, "violation offset-order at 0.020s step 13") {
		t.Fatalf("replay: exit %d\n%s%s", code, stdout, stderr)
	}
	step := regexp.MustCompile(`VIOLATION safety-violation offset-order at step (\d+)`).FindStringSubmatch(explored)[1]
	// Alone: the file's failure record names the strategy, profile and
	// mutant, so 'simrun replay FILE' needs no flag, and says the run
	// failed as the search found.
	code, stdout, stderr = simrun(t, "replay", out)
	if code != exitSafety || !strings.Contains(stdout, out+" records a failure: last-tiered, profile kip, mutant hw-not-reset: "+
		"safety-violation offset-order at step "+step) || !strings.Contains(stdout, "as recorded: safety-violation offset-order at step "+step+" ") {
		t.Fatalf("replay with no flags: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(explored, "replay: simrun replay "+out+"\n") {
		t.Errorf("explore does not print the replay command:\n%s", explored)
	}
	code, stdout, _ = simrun(t, "explore", "--scenario", exploreFixture, "--depth", "8", "--out", out+"2")
	if code != exitOK || !strings.Contains(stdout, "exhausted to --depth 8, not to the scenario's end: every state of the first 8 steps (8 of the 187 steps of a seeded run: 4.3%)") {
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

// TestExploreSaysWhatItCovered: every output states the scenario's length
// (a seeded run's steps, the simulated time) and how much of it the
// search covered; "exhausted" is said of the whole scenario only when
// every path ended.
func TestExploreSaysWhatItCovered(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"--depth", "12"}, exitOK, []string{"a seeded run takes 187 steps; 2.300 s simulated",
			"exhausted to --depth 12, not to the scenario's end: every state of the first 12 steps (12 of the 187 steps of a seeded run: 6.4%) visited"}},
		{[]string{"--max-states", "500"}, exitBudget, []string{"a seeded run takes 187 steps; 2.300 s simulated",
			"NOT exhausted: --max-states 500 reached at depth 14: every state of the first 13 steps (13 of the 187 steps of a seeded run: 7.0%) visited; every path explored to"}},
		{[]string{"--from-ms", "2200", "--lost"}, exitOK, []string{"the search starts at step",
			"exhausted: every reachable state visited, to the end of the scenario"}},
	}
	for _, c := range cases {
		code, stdout, stderr := simrun(t, append([]string{"explore", "--scenario", exploreFixture, "--out", filepath.Join(dir, "cx.json")}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, code, c.code, stdout, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%v: no %q in\n%s", c.args, w, stdout)
			}
		}
		if strings.Contains(stdout, "exhausted: every reachable state") != (c.args[0] == "--from-ms") {
			t.Errorf("%v: exhausted said of the whole scenario wrongly:\n%s", c.args, stdout)
		}
	}
}

// TestExploreKnownFindingsBesideOut: a known finding's scenario file goes
// in --out's directory, named after it and the kind, and replays.
func TestExploreKnownFindingsBesideOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cx.json")
	code, stdout, stderr := simrun(t, "explore", "--scenario", "finding-reenable-stale-hro", "--depth", "40", "--out", out)
	if code != exitOK || !strings.Contains(stdout, "known finding stale-hro") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	known := filepath.Join(dir, "cx-stale-hro.json")
	if _, err := os.Stat(known); err != nil {
		t.Fatalf("no %s: %v\n%s", known, err, stdout)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written with no unknown violation", out)
	}
	code, stdout, _ = simrun(t, "replay", known)
	if code != exitSafety || !strings.Contains(stdout, "as recorded: safety-violation") || !strings.Contains(stdout, "known finding stale-hro") {
		t.Errorf("replay: exit %d\n%s", code, stdout)
	}
}

// TestExploreOutLostAfterTheSearch: when --out cannot be written after a
// violation was found (the path became a directory meanwhile), the
// counterexample is printed instead, and the exit code is still the
// violation's.
func TestExploreOutLostAfterTheSearch(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cx.json")
	exploreRun = func(cfg explore.Config) (*explore.Result, error) {
		res, err := explore.Run(cfg)
		if mkErr := os.Mkdir(out, 0o755); mkErr != nil {
			t.Fatal(mkErr)
		}
		return res, err
	}
	defer func() { exploreRun = explore.Run }()
	code, stdout, stderr := simrun(t, "explore", "--scenario", exploreFixture, "--depth", "30", "--mutant", "hw-not-reset", "--out", out)
	if code != exitSafety || !strings.Contains(stdout, "VIOLATION safety-violation offset-order") ||
		!strings.Contains(stdout, "NOT SAVED") || !strings.Contains(stdout, `"explore": {`) || !strings.Contains(stderr, "--out") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	start := strings.Index(stdout, "{\n")
	end := strings.LastIndex(stdout, "}\n")
	printed := writeTemp(t, "printed.json", stdout[start:end+2])
	if code, replay, _ := simrun(t, "run", "--scenario", printed, "--strategy", "last-tiered", "--mutant", "hw-not-reset"); code != exitSafety ||
		!strings.Contains(replay, "violation offset-order") {
		t.Errorf("the printed counterexample does not replay: exit %d\n%s", code, replay)
	}
}

// TestMergeRefusesShardsOfAnotherScenarioContent: shards of two scenario
// files that share a name (the file was edited between shards) are not
// merged: the header's content digest tells them apart.
func TestMergeRefusesShardsOfAnotherScenarioContent(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(exploreFixture)
	if err != nil {
		t.Fatal(err)
	}
	edited := writeTemp(t, "tiny-join.json", strings.Replace(string(data), `"duration_ms": 300`, `"duration_ms": 301`, 1))
	var files []string
	for i, sc := range []string{exploreFixture, edited} {
		f := filepath.Join(dir, fmt.Sprintf("%d.jsonl", i))
		if code, stdout, stderr := simrun(t, "explore", "--scenario", sc, "--depth", "5", "--faults", "crash", "--no-liveness",
			"--shard", fmt.Sprintf("%d/2", i), "--jsonl", f, "--out", filepath.Join(dir, "cx.json")); code != exitOK {
			t.Fatalf("shard %d: exit %d\n%s%s", i, code, stdout, stderr)
		}
		files = append(files, f)
	}
	code, _, stderr := simrun(t, append([]string{"merge"}, files...)...)
	if code != exitBadInput || !strings.Contains(stderr, `scenario "tiny-join", but its content differs (content_digest`) {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
