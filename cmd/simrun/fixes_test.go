package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tierfetch/model"
)

// TestFixesListsEveryFix: simrun fixes prints one line per validated fix,
// sorted, its name first, then the finding kinds it closes; --replaced
// prints the replaced ones with the fix that replaced each.
func TestFixesListsEveryFix(t *testing.T) {
	code, out, _ := simrun(t, "fixes")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != int(model.NumFixes) {
		t.Fatalf("exit %d, %d lines:\n%s", code, len(lines), out)
	}
	for i, line := range lines {
		fields := strings.Fields(line)
		f, ok := model.FixByName(fields[0])
		if !ok || fields[0] != model.FixNames()[i] || strings.Join(fields[1:], " ") != strings.Join(f.Kinds(), " ") {
			t.Errorf("line %d %q: want %s and its kinds %v", i, line, model.FixNames()[i], f.Kinds())
		}
	}
	code, out, _ = simrun(t, "fixes", "--replaced")
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitOK || len(lines) != len(model.ReplacedFixes()) {
		t.Fatalf("--replaced: exit %d\n%s", code, out)
	}
	for i, f := range model.ReplacedFixes() {
		by, _ := f.Replaced()
		if got, want := strings.Join(strings.Fields(lines[i]), " "), f.String()+" replaced by "+by.String(); got != want {
			t.Errorf("--replaced line %d: %q, want %q", i, got, want)
		}
	}
}

// TestRunWithFix: run --fix switches the fixes on (the finding's scenario
// passes), the result object names them, and an unknown fix is refused
// naming --fix (exit 2).
func TestRunWithFix(t *testing.T) {
	code, out, _ := simrun(t, "run", "--scenario", "finding-stale-local-log-start", "--fix", "stale-local-log-start", "--json")
	var res struct {
		Fixes []string `json:"fixes"`
		Runs  []struct {
			Outcome string `json:"outcome"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if code != exitOK || len(res.Fixes) != 1 || res.Fixes[0] != "stale-local-log-start" || res.Runs[1].Outcome != "ok" {
		t.Errorf("exit %d, %+v", code, res)
	}
	if code, _, errOut := simrun(t, "run", "--scenario", "tiering-off", "--fix", "nope"); code != exitBadInput ||
		!strings.Contains(errOut, `--fix: unknown fix "nope"`) {
		t.Errorf("--fix nope: exit %d, %s", code, errOut)
	}
}

// TestReplayRecordedFixes: a failure file that records fixes is rerun with
// them unless --fix says otherwise, and says so.
func TestReplayRecordedFixes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "min.json")
	code, text, errOut := simrun(t, "shrink", "finding-stale-local-log-start", "--profile", "kafka-4.3", "--strategy", "last-tiered",
		"--fix", "stale-local-log-start", "--shrink", "20", "--out", out)
	if code != exitOK {
		t.Fatalf("shrink: exit %d\n%s%s", code, text, errOut)
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), `"fixes": [`) {
		t.Fatalf("the shrunk file records no fixes:\n%s", data)
	}
	code, text, _ = simrun(t, "replay", out)
	if code != exitLiveness || !strings.Contains(text, "fix stale-local-log-start") || !strings.Contains(text, "as recorded") {
		t.Errorf("replay: exit %d\n%s", code, text)
	}
	code, text, _ = simrun(t, "replay", out, "--fix", "stale-local-log-start,aux-state-at-log-start")
	if code != exitOK || !strings.Contains(text, "except --fix stale-local-log-start,aux-state-at-log-start as given") {
		t.Errorf("replay --fix: exit %d\n%s", code, text)
	}
}

// shrunkFixes is each upstream report's shrunk scenario
// (docs/upstream/shrunk) with the fixes its "Fix, validated" section runs
// it with.
var shrunkFixes = map[string]string{
	"idle-fully-tiered-stall":             "idle-fully-tiered-stall",
	"aux-state-at-log-start":              "aux-state-at-log-start",
	"restarted-leader-copy-disabled":      "restarted-leader-copy-disabled",
	"stale-hro":                           "stale-hro",
	"stale-hro-restart":                   "stale-hro",
	"stale-local-log-start":               "stale-local-log-start,aux-state-at-log-start",
	"stale-log-start-copy-disabled":       "stale-log-start-copy-disabled,stale-log-start-unfinished-segment",
	"stale-log-start-tiering-off":         "stale-log-start-copy-disabled,follower-gap-after-disable",
	"stale-log-start-unfinished-segment":  "stale-log-start-unfinished-segment",
	"stale-log-start-segment-below-epoch": "stale-log-start-unfinished-segment",
	"follower-gap-after-disable":          "follower-gap-after-disable",
	"tiered-follower-after-disable":       "follower-gap-after-disable",
	"hro-after-truncation":                "hro-after-truncation",
}

// TestShrunkFindingsCleanWithTheirFixes: each report's shrunk scenario fails
// as it records without fixes, and passes with its fixes.
func TestShrunkFindingsCleanWithTheirFixes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "upstream", "shrunk", "*.json"))
	if len(files) != len(shrunkFixes) {
		t.Errorf("%d shrunk scenarios, %d in shrunkFixes", len(files), len(shrunkFixes))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		fix, ok := shrunkFixes[name]
		if !ok {
			t.Errorf("%s: no fixes named for it", f)
			continue
		}
		if code, out, _ := simrun(t, "run", "--scenario", f); !strings.Contains(out, "\nas recorded: ") || code == exitOK {
			t.Errorf("%s without fixes: exit %d, not as recorded:\n%s", name, code, lastLines(out))
		}
		if code, out, _ := simrun(t, "run", "--scenario", f, "--fix", fix); code != exitOK {
			t.Errorf("%s with --fix %s: exit %d\n%s", name, fix, code, lastLines(out))
		}
	}
}

func lastLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-3):], "\n")
}
