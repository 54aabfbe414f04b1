package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestShrinkThenReplayAsRecorded: 'simrun shrink' of a scenario that fails
// only under a Kafka profile and one strategy writes the smallest case
// recording that run; 'simrun replay FILE' with no flags reruns exactly
// that run to the recorded violation (run as 'simrun run' would with the
// flags), and says so; a flag given overrides the record, and a run that
// no longer fails is named as not as recorded.
func TestShrinkThenReplayAsRecorded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "stall.json")
	code, stdout, stderr := simrun(t, "shrink", "idle-fully-tiered", "--profile", "kafka-4.3", "--shrink", "30", "--out", file)
	if code != exitOK {
		t.Fatalf("shrink: exit %d: %s", code, stderr)
	}
	line := regexp.MustCompile(`(?m)^  idle-fully-tiered last-tiered liveness: (\d+) events? .* -> (\d+) events? .* \((\d+) runs?\)\n    replay: simrun replay (.*)$`)
	m := line.FindStringSubmatch(stdout)
	if m == nil || m[4] != file {
		t.Fatalf("shrink output is not the sweep's shrunk-case lines:\n%s", stdout)
	}
	// What 'run' gives with the recorded run's flags is what the file records.
	_, want, _ := simrun(t, "run", "--scenario", file, "--strategy", "last-tiered", "--profile", "kafka-4.3", "--json")
	var res struct {
		Runs []struct {
			Outcome   string
			Violation struct {
				Invariant, Kind string
				Step            int64
			}
		}
	}
	if err := json.Unmarshal([]byte(want), &res); err != nil || len(res.Runs) != 1 {
		t.Fatalf("run --json: %v\n%s", err, want)
	}
	data, _ := os.ReadFile(file)
	var rec struct{ Failure map[string]any }
	json.Unmarshal(data, &rec)
	v, _ := rec.Failure["violation"].(map[string]any)
	if rec.Failure["strategy"] != "last-tiered" || rec.Failure["profile"] != "kafka-4.3" || rec.Failure["outcome"] != res.Runs[0].Outcome ||
		v["kind"] != res.Runs[0].Violation.Kind || v["step"] != float64(res.Runs[0].Violation.Step) {
		t.Errorf("the file's record %v is not the run's %+v", rec.Failure, res.Runs[0])
	}

	code, stdout, _ = simrun(t, "replay", file)
	verdict := fmt.Sprintf("as recorded: liveness-violation liveness (known finding %s) at step %d (t=%.3fs)\n", v["kind"],
		int64(v["step"].(float64)), v["at_ms"].(float64)/1000)
	if code != exitLiveness || !strings.Contains(stdout, file+" records a failure: last-tiered, profile kafka-4.3: liveness-violation") ||
		!strings.Contains(stdout, "profile kafka-4.3\n  last-tiered ") || strings.Contains(stdout, "  local-log-start ") ||
		!strings.HasSuffix(stdout, verdict) {
		t.Errorf("replay with no flags: exit %d, want %d, the recorded run only and %q:\n%s", code, exitLiveness, verdict, tail(stdout))
	}
	code, stdout, _ = simrun(t, "replay", file, "--profile", "kip")
	if code != exitOK || !strings.Contains(stdout, "except --profile kip as given") || !strings.Contains(stdout, "NOT AS RECORDED: the last-tiered run passed") {
		t.Errorf("replay --profile kip: exit %d:\n%s", code, tail(stdout))
	}
	if code, stdout, _ := simrun(t, "shrink", "omts-local-deleted"); code != exitOK || !strings.HasPrefix(stdout, "nothing to shrink: ") {
		t.Errorf("shrink of a passing scenario: exit %d: %s", code, stdout)
	}
}

func tail(s string) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-6):], "\n")
}

// TestSweepOutClearsTheEarlierRun: a second sweep into the same --out
// removes the files the first wrote (its manifest lists them), leaves a
// file it did not write, and says so on stderr.
func TestSweepOutClearsTheEarlierRun(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	names := func() []string {
		entries, _ := os.ReadDir(out)
		var list []string
		for _, e := range entries {
			list = append(list, e.Name())
		}
		return list
	}
	sweep := func(seed string) string {
		code, _, stderr := simrun(t, "sweep", "--seeds", seed, "--profile", "kafka-4.3", "--shrink", "0", "--workers", "1", "--out", out)
		if code != exitOK {
			t.Fatalf("sweep %s: exit %d: %s", seed, code, stderr)
		}
		return stderr
	}
	sweep("8")
	first := names()
	stderr := sweep("23")
	second := names()
	want := []string{"notes.txt", "seed-23-last-tiered-kafka43-aux-state-stall.json", "simrun-manifest.txt"}
	if !slices.Contains(first, "seed-8-last-tiered-kafka43-epuo-unknown-stall.json") || !slices.Equal(second, want) {
		t.Errorf("--out after seed 8: %v; after seed 23: %v, want %v", first, second, want)
	}
	if !strings.Contains(stderr, "1 file of an earlier run removed first; 1 other entry, not written by simrun, left alone") {
		t.Errorf("the second sweep does not say what it cleared: %q", stderr)
	}
}

// TestShrinkGuideExample: docs/guide/sweep.md's example of 'simrun shrink'
// is what the command prints (the output block up to its '$ simrun replay').
func TestShrinkGuideExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide", "sweep.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(data))
	i := slices.IndexFunc(blocks, func(b docBlock) bool {
		return b.lang == "sh" && len(b.body) > 0 && b.body[0] == "simrun shrink idle-fully-tiered --profile kafka-4.3"
	})
	if i < 0 || i+1 >= len(blocks) {
		t.Fatal("docs/guide/sweep.md: no shrink example (a sh block opening with 'simrun shrink idle-fully-tiered --profile kafka-4.3', then its output)")
	}
	block, _, ok := strings.Cut(strings.Join(blocks[i+1].body, "\n")+"\n", "$ simrun replay")
	if !ok {
		t.Fatal("docs/guide/sweep.md: the shrink example's output has no '$ simrun replay' line")
	}
	t.Chdir(t.TempDir())
	_, stdout, _ := simrun(t, "shrink", "idle-fully-tiered", "--profile", "kafka-4.3")
	if stdout != block {
		t.Errorf("docs/guide/sweep.md's shrink example is not the output; paste this:\n%s", stdout)
	}
}
