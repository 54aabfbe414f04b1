package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tierfetch/scenarios"
)

func simrun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBadScenarioFiles: every bad file exits 2 with a message naming the
// field or relation, and never panics.
func TestBadScenarioFiles(t *testing.T) {
	cases := []struct{ file, want string }{
		{`{"brokers": 3, "duration_ms": 1000, "config": {"segment_bytes": -5}}`, "config.segment_bytes: must be > 0, got -5"},
		{`{"duration_ms": 1000}`, "brokers: required"},
		{`{"brokers": 3, "duration_ms": 1000, "config": {"segmnt_bytes": 1}}`, "config.segmnt_bytes: unknown field"},
		{`{"brokers": 3, "duration_ms": 1000, "events": [{"at_ms": 0, "type": "add_replica", "broker": 7}]}`, "events[0].broker"},
		{`{"brokers": 3, "duration_ms": 1000, "events": [{"at_ms": 5000, "type": "produce", "records": 1}]}`, "events[0].at_ms"},
		{`{"brokers": 2, "duration_ms": 1000, "config": {"remote_storage_enable": true}, "initial": {"log_start_offset": 10,
		   "local_segments": [{"base_offset": 5, "end_offset": 20, "epoch": 0}]}}`, "initial"},
		{`{"brokers": 2, "duration_ms": 1000, "initial": {"high_watermark": 50, "local_segments": [{"base_offset": 0, "end_offset": 20, "epoch": 0}]}}`, "initial"},
		{`{"brokers": 3, "duration_ms": "soon"}`, "duration_ms"},
		{`{"brokers": 3, "duration_ms": 1000} trailing`, "trailing"},
		{`not json`, "line 1"},
	}
	for _, c := range cases {
		path := writeTemp(t, "bad.json", c.file)
		code, stdout, stderr := simrun(t, "run", "--scenario", path)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%s: exit %d, stderr %q, stdout %q; want exit 2 naming %q", c.file, code, stderr, stdout, c.want)
		}
	}
}

func TestBadFlags(t *testing.T) {
	cases := [][]string{
		{},
		{"frobnicate"},
		{"run"},
		{"run", "--scenario", "no-such-scenario"},
		{"run", "--scenario", "omts-local-deleted", "--strategy", "fastest"},
		{"run", "--scenario", "omts-local-deleted", "--profile", "kafka-9"},
		{"run", "--scenario", "omts-local-deleted", "--seed", "-3"},
		{"run", "--scenario", "omts-local-deleted", "--all"},
		{"run", "--scenario", "omts-local-deleted", "extra"},
		{"scenarios", "extra"},
		{"gen", "--seed", "x"},
	}
	for _, args := range cases {
		code, _, stderr := simrun(t, args...)
		if code != exitBadInput || stderr == "" {
			t.Errorf("simrun %v: exit %d stderr %q, want exit 2 and a message", args, code, stderr)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}, {"scenarios", "--help"}, {"gen", "--help"}} {
		if code, _, _ := simrun(t, args...); code != exitOK {
			t.Errorf("simrun %v: exit %d, want 0", args, code)
		}
	}
}

func TestScenariosListsEveryNamedOne(t *testing.T) {
	code, stdout, _ := simrun(t, "scenarios")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := len(scenarios.Named()) + len(scenarios.NamedBrokerScale())
	if code != exitOK || len(lines) != want || len(scenarios.NamedBrokerScale()) == 0 {
		t.Fatalf("exit %d, %d lines for %d scenarios (%d broker-scale)", code, len(lines), want, len(scenarios.NamedBrokerScale()))
	}
	if !strings.HasPrefix(lines[0], scenarios.Named()[0].Name+" ") {
		t.Errorf("first line %q must start with the name", lines[0])
	}
}

// TestRunJSONMatchesFormat checks the result object field for field.
func TestRunJSONMatchesFormat(t *testing.T) {
	code, stdout, stderr := simrun(t, "run", "--scenario", "omts-local-deleted", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema_version", "seed", "scenario", "profile", "runs"} {
		if _, ok := res[k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}
	runs := res["runs"].([]any)
	if len(runs) != 2 || runs[0].(map[string]any)["strategy"] != "local-log-start" || runs[1].(map[string]any)["strategy"] != "last-tiered" {
		t.Fatalf("runs %v: want local-log-start then last-tiered", runs)
	}
	r := runs[1].(map[string]any)
	for _, k := range []string{"strategy", "outcome", "violation", "digest", "steps", "sim_ms", "leader", "followers"} {
		if _, ok := r[k]; !ok {
			t.Errorf("run lacks %q", k)
		}
	}
	f := r["followers"].([]any)[0].(map[string]any)
	for _, k := range []string{"broker", "log_start_offset", "local_log_start_offset", "high_watermark", "log_end_offset", "caught_up_ms", "bytes_from_leader", "bootstrap"} {
		if _, ok := f[k]; !ok {
			t.Errorf("follower lacks %q", k)
		}
	}
	b := f["bootstrap"].(map[string]any)
	if b["path"] != "earliest-pending-upload" || b["start_offset"].(float64) != 9000 {
		t.Errorf("bootstrap %v, want earliest-pending-upload from 9000", b)
	}
}

func TestExitCodes(t *testing.T) {
	// A follower added at the very end with no healing period cannot catch up.
	liveness := writeTemp(t, "late.json", `{"brokers": 2, "duration_ms": 1000, "heal_ms": 0,
	  "initial": {"local_segments": [{"base_offset": 0, "end_offset": 99999, "epoch": 0}]},
	  "config": {"replication_bytes_per_sec": 1048576},
	  "events": [{"at_ms": 1000, "type": "add_replica", "broker": 1}]}`)
	if code, stdout, _ := simrun(t, "run", "--scenario", liveness, "--strategy", "last-tiered"); code != exitLiveness ||
		!strings.Contains(stdout, "VIOLATION liveness") || !strings.Contains(stdout, "reproduce: simrun run --scenario "+liveness) {
		t.Errorf("exit %d, want 3 with a report naming the reproduce command:\n%s", code, stdout)
	}
	if code, stdout, _ := simrun(t, "run", "--scenario", "finding-reenable-stale-hro"); code != exitSafety ||
		!strings.Contains(stdout, "VIOLATION no-hole") || !strings.Contains(stdout, "-before +after") {
		t.Errorf("exit %d, want 1 with a failure report and a state diff:\n%s", code, stdout)
	}
	if code, _, _ := simrun(t, "run", "--scenario", "omts-local-deleted"); code != exitOK {
		t.Errorf("exit %d, want 0", code)
	}
}

func TestGenWritesAReplayableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.json")
	if code, _, stderr := simrun(t, "gen", "--seed", "42", "--out", path); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	sc, err := scenarios.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Seed != 42 {
		t.Errorf("seed %d, want 42", sc.Seed)
	}
}

// TestSweepDoesNotDependOnWorkers: the same seeds give the same summary with
// one worker or two, and --check-determinism finds nothing.
func TestSweepDoesNotDependOnWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: sweeps with 1 and 4 workers")
	}
	out1 := filepath.Join(t.TempDir(), "w1")
	out2 := filepath.Join(t.TempDir(), "w2")
	code1, s1, e1 := simrun(t, "sweep", "--seeds", "1..24", "--workers", "1", "--out", out1, "--shrink", "0")
	code2, s2, e2 := simrun(t, "sweep", "--seeds", "1..24", "--workers", "2", "--out", out2, "--shrink", "0")
	if code1 != exitOK || code2 != exitOK {
		t.Fatalf("exit %d (%s) and %d (%s)", code1, e1, code2, e2)
	}
	if strings.ReplaceAll(s1, out1, "OUT") != strings.ReplaceAll(s2, out2, "OUT") {
		t.Errorf("summaries differ between 1 and 2 workers:\n%s\n---\n%s", s1, s2)
	}
	if !strings.Contains(s1, "24 seeds, 48 runs") {
		t.Errorf("summary does not count 24 seeds and 48 runs:\n%s", s1)
	}
	code, s, _ := simrun(t, "sweep", "--seeds", "1..6", "--check-determinism", "--out", t.TempDir(), "--shrink", "0")
	if code != exitOK || strings.Contains(s, "NONDETERMINISM") {
		t.Errorf("--check-determinism: exit %d\n%s", code, s)
	}
}

func TestSweepBadInput(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	for _, args := range [][]string{
		{"sweep", "--seeds", "9..3"},
		{"sweep", "--seeds", "x"},
		{"sweep", "--workers", "0"},
		{"sweep", "--mutant", "nope"},
		{"sweep", "--profile", "kafka-9"},
		{"mutants", "--seeds", "5..1"},
		{"run", "--scenario", "omts-local-deleted", "--mutant", "nope"},
	} {
		if code, _, stderr := simrun(t, args...); code != exitBadInput || stderr == "" {
			t.Errorf("simrun %v: exit %d stderr %q, want 2 with a message", args, code, stderr)
		}
	}
}
