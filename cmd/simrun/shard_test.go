package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// asSimrun, set in the environment, makes the test binary run as simrun
// itself, so tests can start real simrun processes without building one.
const asSimrun = "TIERFETCH_TEST_AS_SIMRUN"

func TestMain(m *testing.M) {
	if os.Getenv(asSimrun) == "1" {
		os.Exit(process(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// simrunCmd returns a simrun process (this test binary) working in dir.
func simrunCmd(t *testing.T, dir string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asSimrun+"=1")
	return cmd
}

// exitCode is the process's exit code, failing the test if it did not run.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// TestShardedSweepMergesToTheWholeSweep splits a sweep into 4 shards run as
// separate processes, merges their files and compares the merge's output,
// exit code and saved scenario files with one sweep over every seed, byte
// for byte. The second case has unknown failures (a mutant), so saving,
// shrinking and the failure list are compared too.
func TestShardedSweepMergesToTheWholeSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: sweeps in shards and whole")
	}
	cases := []struct {
		name     string
		args     []string
		wantCode int
		notText  string // not in the summary: the case has the failures it is for
	}{
		{"findings", []string{"--seeds", "41..120"}, exitOK, "known findings (by kind): 0 kinds"},
		{"mutant", []string{"--seeds", "1..40", "--mutant", "retention-before-upload", "--shrink", "20"}, exitSafety, "unknown failures: 0\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			whole := simrunCmd(t, dir, append([]string{"sweep", "--out", "out", "--workers", "2"}, c.args...)...)
			var wholeOut bytes.Buffer
			whole.Stdout = &wholeOut
			wholeCode := exitCode(t, whole.Run())
			if wholeCode != c.wantCode || strings.Contains(wholeOut.String(), c.notText) || !strings.Contains(wholeOut.String(), "shrunk cases") {
				t.Fatalf("whole sweep: exit %d, want %d, and a summary with shrunk cases and without %q:\n%s", wholeCode, c.wantCode, c.notText, wholeOut.String())
			}
			wholeFiles := readDir(t, filepath.Join(dir, "out"))
			if err := os.RemoveAll(filepath.Join(dir, "out")); err != nil {
				t.Fatal(err)
			}

			const shards = 4
			var procs []*exec.Cmd
			var files []string
			for k := 0; k < shards; k++ {
				file := fmt.Sprintf("shard-%d.jsonl", k)
				files = append(files, file)
				args := append([]string{"sweep", "--shard", fmt.Sprintf("%d/%d", k, shards), "--jsonl", file,
					"--out", fmt.Sprintf("out-%d", k), "--workers", "1"}, c.args...)
				args = append(args, "--shrink", "0") // the merge shrinks; the last --shrink wins
				p := simrunCmd(t, dir, args...)
				if err := p.Start(); err != nil {
					t.Fatal(err)
				}
				procs = append(procs, p)
			}
			for k, p := range procs {
				if code := exitCode(t, p.Wait()); code == exitBadInput {
					t.Fatalf("shard %d: exit %d", k, code)
				}
			}

			merge := simrunCmd(t, dir, append([]string{"merge", "--out", "out", "--shrink", shrinkOf(c.args)}, files...)...)
			var mergeOut, mergeErr bytes.Buffer
			merge.Stdout, merge.Stderr = &mergeOut, &mergeErr
			mergeCode := exitCode(t, merge.Run())
			if mergeCode != wholeCode {
				t.Errorf("merge exit %d, whole sweep %d (stderr %s)", mergeCode, wholeCode, mergeErr.String())
			}
			if mergeOut.String() != wholeOut.String() {
				t.Errorf("merged summary differs from the whole sweep's:\n--- whole\n%s\n--- merged\n%s", wholeOut.String(), mergeOut.String())
			}
			mergeFiles := readDir(t, filepath.Join(dir, "out"))
			if fmt.Sprint(mergeFiles) != fmt.Sprint(wholeFiles) {
				t.Errorf("merge saved %d files, the whole sweep %d, or their contents differ", len(mergeFiles), len(wholeFiles))
			}
			if !strings.Contains(wholeOut.String(), "sweep seeds "+seedsOf(c.args)+",") {
				t.Errorf("summary does not open with the seed range:\n%s", wholeOut.String())
			}
		})
	}
}

func shrinkOf(args []string) string {
	for i, a := range args {
		if a == "--shrink" {
			return args[i+1]
		}
	}
	return "200"
}

func seedsOf(args []string) string {
	for i, a := range args {
		if a == "--seeds" {
			return args[i+1]
		}
	}
	return ""
}

// readDir returns every file of dir, name then content, sorted by name.
func readDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e.Name(), string(data))
	}
	return out
}

// TestMergeRejectsBadShardSets: missing, overlapping and foreign shards, and
// damaged files, exit 2 with a message naming the problem.
func TestMergeRejectsBadShardSets(t *testing.T) {
	dir := t.TempDir()
	shard := func(name, seeds, k string) string {
		path := filepath.Join(dir, name)
		code, _, stderr := simrun(t, "sweep", "--seeds", seeds, "--shard", k, "--jsonl", path, "--out", filepath.Join(dir, "out"), "--shrink", "0")
		if code == exitBadInput {
			t.Fatalf("sweep --shard %s: exit 2: %s", k, stderr)
		}
		return path
	}
	a, b, c := shard("a.jsonl", "1..9", "0/3"), shard("b.jsonl", "1..9", "1/3"), shard("c.jsonl", "1..9", "2/3")
	other := shard("other.jsonl", "1..10", "2/3")
	data, err := os.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.jsonl")
	if err := os.WriteFile(cut, data[:len(data)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	notShard := writeTemp(t, "x.jsonl", `{"seed": 1}`+"\n")
	cases := []struct {
		files []string
		want  string
	}{
		{[]string{a, b}, "3 of the sweep's seeds 1..9 are in no file (first: [3 6 9]): shard 2/3 is absent or incomplete"},
		{[]string{a, b, c, b}, "seed 2 is in both"},
		{[]string{a, b, other}, "are not shards of the same sweep: seeds 1..9 vs 1..10"},
		{[]string{a, b, cut}, "cut.jsonl:4:"},
		{[]string{notShard}, "not a shard file header"},
		{[]string{filepath.Join(dir, "absent.jsonl")}, "no such file"},
		{nil, "want the shard files"},
	}
	for _, c := range cases {
		code, stdout, stderr := simrun(t, append([]string{"merge", "--out", filepath.Join(dir, "m")}, c.files...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("merge %v: exit %d, stderr %q, stdout %q; want exit 2 naming %q", c.files, code, stderr, stdout, c.want)
		}
	}
	if code, _, stderr := simrun(t, "merge", "--out", filepath.Join(dir, "m"), a, b, c); code != exitOK {
		t.Errorf("merge of every shard: exit %d: %s", code, stderr)
	}
	if code, _, _ := simrun(t, "merge", "--help"); code != exitOK {
		t.Errorf("merge --help: exit %d, want 0", code)
	}
	for _, bad := range []string{"3/3", "1", "a/b", "0/0", "-1/2"} {
		if code, _, stderr := simrun(t, "sweep", "--seeds", "1..2", "--shard", bad, "--out", filepath.Join(dir, "out")); code != exitBadInput || !strings.Contains(stderr, "--shard") {
			t.Errorf("sweep --shard %s: exit %d, stderr %q; want exit 2 naming --shard", bad, code, stderr)
		}
	}
}

// TestSweepJobManifestArgs keeps deploy/k8s/sweep-job.yaml in step with the
// CLI: its container's args are flags simrun sweep accepts, and the N of
// --shard is the Job's completions.
func TestSweepJobManifestArgs(t *testing.T) {
	data, err := os.ReadFile("../../deploy/k8s/sweep-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	var completions string
	inArgs := false
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(trimmed, "completions:"); ok {
			completions = strings.TrimSpace(strings.SplitN(v, "#", 2)[0])
		}
		switch {
		case trimmed == "args:":
			inArgs = true
		case inArgs && strings.HasPrefix(trimmed, "- "):
			arg := strings.TrimSpace(strings.SplitN(strings.TrimPrefix(trimmed, "- "), " #", 2)[0])
			args = append(args, strings.ReplaceAll(arg, "$(JOB_COMPLETION_INDEX)", "7"))
		case inArgs:
			inArgs = false
		}
	}
	if len(args) == 0 || args[0] != "sweep" {
		t.Fatalf("manifest args %q: want a sweep", args)
	}
	if !slices.Contains(args, "--shard=7/"+completions) {
		t.Errorf("manifest args %q: want --shard=$(JOB_COMPLETION_INDEX)/%s (completions)", args, completions)
	}
	// Run them, redirected to a temporary directory and to a range where
	// shard 7 has no seeds: every flag must parse.
	dir := t.TempDir()
	run := append(args[1:], "--seeds=1..3", "--out="+filepath.Join(dir, "out"), "--jsonl="+filepath.Join(dir, "s.jsonl"))
	if code, _, stderr := simrun(t, append([]string{"sweep"}, run...)...); code != exitOK {
		t.Errorf("simrun sweep %q: exit %d: %s", run, code, stderr)
	}
}
