package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"tierfetch/cliutil"
	"tierfetch/outfile"
)

// Tests of the hostile cases of issue 25: inputs and environments a
// careless or hostile user gives, each of which must end with its
// documented exit code, within its work budget, without a panic, a hang or
// a lost or overwritten file.

// epochScenario is a two-broker scenario at the documented maximum
// initial.leader_epoch (2^31-1 less one per event and per broker) whose
// explore schedule crashes and restarts the leader again and again: every
// restart of the lone replica elects it, so the schedule asks for more
// elections than the maximum leaves room for.
func epochScenario() string {
	epoch := math.MaxInt32 - 1 - 2
	return fmt.Sprintf(`{"name": "max-epoch", "brokers": 2, "replicas": [0], "duration_ms": 300, "heal_ms": 2000,
  "config": {"replica_fetch_wait_max_ms": 50, "replica_lag_time_max_ms": 1000},
  "initial": {"leader_epoch": %d, "high_watermark": 10, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 0}]},
  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}],
  "explore": {"faults": [{"at_ms": 0, "type": "crash", "broker": 0}, {"at_ms": 0, "type": "restart", "broker": 0},
    {"at_ms": 0, "type": "elect_leader", "broker": 1}], "lost": false, "choices": [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 3, 3, 1, 2]}}`, epoch)
}

// TestMaxLeaderEpochSkipsElections: run of an explore schedule that asks
// for more elections than a scenario at the documented maximum leader
// epoch leaves room for does not panic ("leader epoch would wrap"): the
// elections past the maximum are skipped, each with the model's reason and
// the schedule's fault it came from, and the run goes on.
func TestMaxLeaderEpochSkipsElections(t *testing.T) {
	path := writeTemp(t, "max-epoch.json", epochScenario())
	code, stdout, stderr := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered", "--json")
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstderr: %s\n%s", code, stderr, stdout)
	}
	var res struct {
		Runs []struct {
			Leader  struct{ Broker int }
			Skipped []struct {
				Event  *int   `json:"event"`
				Fault  *int   `json:"fault"`
				Type   string `json:"type"`
				Reason string `json:"reason"`
			} `json:"skipped"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	maxed := 0
	for _, sk := range res.Runs[0].Skipped {
		if strings.Contains(sk.Reason, fmt.Sprintf("the leader epoch is at its maximum (%d)", math.MaxInt32)) {
			maxed++
			if sk.Event != nil || sk.Fault == nil || (sk.Type != "crash" && sk.Type != "elect_leader") {
				t.Errorf("skipped %+v: want an injected crash or elect_leader named by its explore.faults index", sk)
			}
		}
	}
	if maxed == 0 {
		t.Errorf("no election was skipped at the maximum epoch: %+v", res.Runs[0].Skipped)
	}
	_, text, _ := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered")
	if !strings.Contains(text, "(explore.faults[0]): b0 leads and the leader epoch is at its maximum") {
		t.Errorf("the summary does not name the skipped fault:\n%s", text)
	}
}

// TestPlanNeverCatchesUp: docs/guide/plan.md's example with produce above what
// a new replica can copy answers with the verdict never-catches-up, exit 0
// (it panicked: index out of range in the run loop).
func TestPlanNeverCatchesUp(t *testing.T) {
	code, stdout, stderr := simrun(t, append(clusterArgs(), "--produce-bytes-per-sec", "150MiB", "--seeds", "1..1", "--profile", "kip")...)
	if code != exitOK || stderr != "" || !strings.Contains(stdout, "kip: a new replica never catches up (verdict: never-catches-up)") {
		t.Fatalf("exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
}

// deadlineRun runs simrun (this test binary) in dir with args and returns
// its exit code and standard error; a process still running after the
// deadline is killed and fails the test (the bugs here were hangs).
func deadlineRun(t *testing.T, dir string, deadline time.Duration, args ...string) (int, string) {
	t.Helper()
	cmd := simrunCmd(t, dir, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return waitDeadline(t, cmd, deadline), errb.String()
}

// waitDeadline waits for cmd, killing it and failing the test after
// deadline.
func waitDeadline(t *testing.T, cmd *exec.Cmd, deadline time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return exitCode(t, err)
	case <-time.After(deadline):
		cmd.Process.Kill()
		<-done
		t.Fatalf("simrun %v still running after %v: killed", cmd.Args[1:], deadline)
		return -1
	}
}

// TestOutputPipeWithoutReaderIsRefused: an output that is a named pipe
// nobody opens is refused before any work, once outfile.PipeWait has
// passed (exit 2 naming the flag), where opening it blocked forever.
func TestOutputPipeWithoutReaderIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "t.svg"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", "--scenario", "tiering-off", "--timeline", "t.svg"},
	} {
		code, stderr := deadlineRun(t, dir, 20*time.Second, args...)
		if code != exitBadInput || !strings.Contains(stderr, "t.svg is a named pipe with no reader") {
			t.Errorf("simrun %v: exit %d, stderr %q; want 2 naming the pipe", args, code, stderr)
		}
	}
}

// stalledReader opens the named pipe path for reading, shrinks its buffer
// to a page and never reads: a writer of more than a page blocks. It
// returns a function that waits until the writer has written (a byte is
// there to read).
func stalledReader(t *testing.T, path string) (written func()) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	const setPipeSize = 1031 // F_SETPIPE_SZ
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, r.Fd(), setPipeSize, 4096); errno != 0 {
		t.Fatal(errno)
	}
	return func() {
		for range 2000 { // up to 20 s
			var n int32
			if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, r.Fd(), syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno == 0 && n > 0 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatal("nothing was written to the pipe in 20 s")
	}
}

// TestSignalEndsABlockedWrite: SIGTERM or SIGINT ends a command blocked
// writing an output to a pipe nobody reads with 143 or 130 at once, under
// a command that catches signals to stop its work (compare: it swallowed
// them, 'timeout 10' ran 11 minutes) and one that does not (run), and
// leaves no temporary file.
func TestSignalEndsABlockedWrite(t *testing.T) {
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		args []string
		pipe string
	}{
		{syscall.SIGTERM, cliutil.ExitSIGTERM, []string{"compare", "--scenario", "omts-local-deleted", "--seeds", "1", "--profile", "kip", "--out", "out"}, "out/timeline.svg"},
		{syscall.SIGINT, cliutil.ExitSIGINT, []string{"run", "--scenario", "omts-local-deleted", "--timeline", "t.svg"}, "t.svg"},
	} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "out"), 0o755)
		written := stalledReader(t, filepath.Join(dir, c.pipe))
		cmd := simrunCmd(t, dir, c.args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		written()
		cmd.Process.Signal(c.sig)
		if code := waitDeadline(t, cmd, 10*time.Second); code != c.code {
			t.Errorf("simrun %v blocked writing, then %v: exit %d, want %d", c.args, c.sig, code, c.code)
		}
		// The user learns why nothing came: the command was past its
		// work (compare) or never catches signals (run).
		if want := "simrun: stopped by " + cliutil.SignalName(c.sig) + "\n"; !strings.HasSuffix(errb.String(), want) {
			t.Errorf("simrun %v stopped by %v: stderr %q, want it to end with %q", c.args, c.sig, errb.String(), want)
		}
		for _, d := range []string{dir, filepath.Join(dir, "out")} {
			entries, _ := os.ReadDir(d)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp-") {
					t.Errorf("temporary file %s left in %s", e.Name(), d)
				}
			}
		}
	}
}

// TestClosedStdoutFails: a command whose standard output is closed exits 2
// with a message on standard error (it exited 0 with the output lost); one
// sent to /dev/null is fine.
func TestClosedStdoutFails(t *testing.T) {
	for _, c := range []struct {
		redirect string
		code     int
	}{{">&-", exitBadInput}, {">/dev/null", exitOK}} {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("/bin/sh", "-c", `exec "$0" scenarios `+c.redirect, exe)
		cmd.Env = append(os.Environ(), asSimrun+"=1")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if code := waitDeadline(t, cmd, 20*time.Second); code != c.code || c.code != exitOK && !strings.Contains(errb.String(), "standard output is closed") {
			t.Errorf("simrun scenarios %s: exit %d, stderr %q; want %d", c.redirect, code, errb.String(), c.code)
		}
	}
}

// TestOutputIsNeverAnInput: an output that is one of the command's input
// files (by file identity: a second name counts) is refused before any work
// with exit 2 naming both flags, and the input is left as it was.
func TestOutputIsNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "sc.json")
	data, err := os.ReadFile(filepath.Join("..", "..", "explore", "testdata", "tiny-join.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sc, data, 0o644); err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(dir, "alias.json")
	if err := os.Link(sc, alias); err != nil {
		t.Fatal(err)
	}
	configs := filepath.Join(dir, "configs.txt")
	cfg, err := os.ReadFile(filepath.Join("..", "..", "plan", "testdata", "cluster", "configs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(configs, cfg, 0o644)
	var planArgs []string // absolute paths: the commands run in dir
	for _, a := range clusterArgs() {
		k, v, ok := strings.Cut(a, "=")
		switch {
		case a == "--configs":
		case strings.HasSuffix(a, "configs.txt"):
			a = configs
		case ok && strings.Contains(v, "testdata"):
			abs, _ := filepath.Abs(v)
			a = k + "=" + abs
		case strings.Contains(a, "testdata"):
			a, _ = filepath.Abs(a)
		}
		planArgs = append(planArgs, a)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--scenario", sc, "--timeline", alias}, "--timeline " + alias + " is the same file as --scenario " + sc},
		{[]string{"run", "--scenario", sc, "--chrome-trace", "./" + filepath.Base(sc)}, "--chrome-trace ./sc.json is the same file as --scenario"},
		{[]string{"run", "--scenario", sc, "--timeline", filepath.Join(dir, "t"), "--chrome-trace", filepath.Join(dir, "t")}, "is the same file as --timeline"},
		{[]string{"compare", "--scenario", sc, "--seeds", "1", "--profile", "kip", "--jsonl", alias}, "--jsonl " + alias + " is the same file as --scenario " + sc},
		{[]string{"compare", "--scenario", alias, "--seeds", "1", "--profile", "kip", "--out", dir}, ""},
		{append(planArgs, "--save", configs), "--save " + configs + " is the same file as --configs " + configs},
	} {
		cmd := simrunCmd(t, dir, c.args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		code := exitCode(t, cmd.Run())
		if c.want == "" { // an output directory holding the input under another name is fine
			if code != exitOK {
				t.Errorf("simrun %v: exit %d: %s", c.args, code, errb.String())
			}
			continue
		}
		if code != exitBadInput || !strings.Contains(errb.String(), c.want) {
			t.Errorf("simrun %v: exit %d, stderr %q; want 2 naming %q", c.args, code, errb.String(), c.want)
		}
	}
	if got, _ := os.ReadFile(sc); !bytes.Equal(got, data) {
		t.Error("the scenario file was changed")
	}
	if got, _ := os.ReadFile(configs); !bytes.Equal(got, cfg) {
		t.Error("the configs file was changed")
	}
}

// TestRewriteKeepsModeAndRefusesReadOnly: an output file replaced keeps its
// mode (0600 stayed private: it became 0644), and a read-only one is
// refused with exit 2 and left alone.
func TestRewriteKeepsModeAndRefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	private, readOnly := filepath.Join(dir, "private.json"), filepath.Join(dir, "ro.json")
	os.WriteFile(private, []byte("old"), 0o600)
	os.WriteFile(readOnly, []byte("old"), 0o444)
	if code, _, stderr := simrun(t, "gen", "--seed", "1", "--out", private); code != exitOK {
		t.Fatalf("gen --out private: exit %d: %s", code, stderr)
	}
	if fi, _ := os.Stat(private); fi.Mode().Perm() != 0o600 {
		t.Errorf("rewritten with mode %v, want 0600", fi.Mode().Perm())
	}
	for _, args := range [][]string{{"gen", "--seed", "1", "--out", readOnly}, {"run", "--scenario", "tiering-off", "--timeline", readOnly}} {
		code, _, stderr := simrun(t, args...)
		if code != exitBadInput || !strings.Contains(stderr, "is read-only (mode -r--r--r--): refusing to replace it") {
			t.Errorf("simrun %v: exit %d, stderr %q; want 2, refused", args, code, stderr)
		}
	}
	if got, _ := os.ReadFile(readOnly); string(got) != "old" {
		t.Errorf("the read-only file holds %q", got)
	}
}

// TestJSONLIsNeverTakenTwice: a sweep or a comparison refuses a --jsonl
// that holds data (it truncated an earlier sweep's seeds) saying how to go
// on, and one another process is writing (two sweeps on one file both
// exited 0 and one's seeds vanished); an empty file is taken.
func TestJSONLIsNeverTakenTwice(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	os.WriteFile(full, []byte("{\"format\": \"an earlier sweep\"}\n"), 0o644)
	for _, args := range [][]string{
		{"sweep", "--seeds", "1", "--workers", "1", "--out", dir, "--jsonl", full},
		{"compare", "--scenario", "tiering-off", "--seeds", "1", "--profile", "kip", "--jsonl", full},
	} {
		code, _, stderr := simrun(t, args...)
		if code != exitBadInput || !strings.Contains(stderr, "is not empty") || !strings.Contains(stderr, "resume with:") {
			t.Errorf("simrun %v: exit %d, stderr %q; want 2, refused, saying how to resume", args, code, stderr)
		}
	}
	if got, _ := os.ReadFile(full); !strings.Contains(string(got), "an earlier sweep") {
		t.Errorf("the earlier file was changed: %q", got)
	}
	busy := filepath.Join(dir, "busy.jsonl")
	held, err := outfile.Claim(busy) // what a running sweep holds
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := simrun(t, "sweep", "--seeds", "1", "--workers", "1", "--out", dir, "--jsonl", busy)
	if code != exitBadInput || !strings.Contains(stderr, "is being written by another simrun") {
		t.Errorf("a second sweep on a file being written: exit %d, stderr %q", code, stderr)
	}
	held.Close()
	if code, _, stderr := simrun(t, "sweep", "--seeds", "1", "--workers", "1", "--out", dir, "--jsonl", busy); code != exitOK {
		t.Errorf("a sweep on an empty, free file: exit %d: %s", code, stderr)
	}
}

// TestCompareOutIsAllOrNothing: a report that cannot be written whole (a
// file size limit, as on a filling disk) leaves the earlier report as it
// was, file for file; it left a mix of old and new files.
func TestCompareOutIsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if code, _, stderr := simrun(t, "compare", "--scenario", "omts-local-deleted", "--seeds", "1", "--profile", "kip", "--out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := map[string][]byte{}
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		before[e.Name()], _ = os.ReadFile(filepath.Join(out, e.Name()))
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// 100 blocks of 512 bytes: the new timeline chart (about 74 KB) is
	// too large; the other files are written first, in name order.
	cmd := exec.Command("/bin/sh", "-c", `ulimit -f 100; exec "$0" compare --scenario omts-local-deleted --seeds 2 --profile kip --out "$1"`, exe, out)
	cmd.Env = append(os.Environ(), asSimrun+"=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if code := exitCode(t, cmd.Run()); code != exitBadInput || !strings.Contains(errb.String(), "file too large") {
		t.Fatalf("under a file size limit: exit %d, stderr %q; want 2", code, errb.String())
	}
	entries, _ = os.ReadDir(out)
	if len(entries) != len(before) {
		t.Errorf("%d files in --out after the failed report, %d before", len(entries), len(before))
	}
	for _, e := range entries {
		if got, _ := os.ReadFile(filepath.Join(out, e.Name())); !bytes.Equal(got, before[e.Name()]) {
			t.Errorf("%s changed: the failed report replaced part of the earlier one", e.Name())
		}
	}
}

// TestMergeChecksContentDigest: merge refuses compare shards of a scenario
// file edited between them or after them (it joined them), and sweep
// shards whose content_digest is not what this simrun makes of their
// options: exit 2 naming content_digest.
func TestMergeChecksContentDigest(t *testing.T) {
	orig := tinyJoin(t)
	t.Chdir(t.TempDir())
	write := func(records string) {
		if err := os.WriteFile("sc.json", []byte(strings.Replace(orig, `"records": 10,`, `"records": `+records+`,`, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shard := func(k, file string) {
		if code, _, stderr := simrun(t, "compare", "--scenario", "sc.json", "--seeds", "1..4", "--profile", "kip", "--shard", k+"/2", "--jsonl", file); code != exitOK {
			t.Fatalf("shard %s: exit %d: %s", k, code, stderr)
		}
	}
	write("10")
	shard("0", "a.jsonl")
	shard("1", "b.jsonl")
	write("500")
	shard("1", "c.jsonl")
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{"a.jsonl", "c.jsonl"}, "a.jsonl and c.jsonl are not shards of the same comparison: content_digest"},
		{[]string{"a.jsonl", "b.jsonl"}, "a.jsonl: content_digest"}, // the file changed after both
	} {
		code, _, stderr := simrun(t, append([]string{"merge", "--out", "rep"}, c.files...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("merge %v: exit %d, stderr %q; want 2 naming %q", c.files, code, stderr, c.want)
		}
	}
	write("10")
	if code, _, stderr := simrun(t, "merge", "--out", "rep", "a.jsonl", "b.jsonl"); code != exitOK {
		t.Errorf("merge of the shards of the file as they ran it: exit %d: %s", code, stderr)
	}
	if code, _, stderr := simrun(t, "sweep", "--seeds", "1..2", "--workers", "1", "--shrink", "0", "--out", "out", "--jsonl", "s.jsonl"); code != exitOK {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	sweep, _ := os.ReadFile("s.jsonl")
	header, rest, _ := strings.Cut(string(sweep), "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(header), &h); err != nil || h["content_digest"] == nil {
		t.Fatalf("sweep header %s: %v, want a content_digest", header, err)
	}
	other := strings.Replace(header, h["content_digest"].(string), "0123456789abcdef", 1)
	os.WriteFile("t.jsonl", []byte(other+"\n"+rest), 0o644)
	if code, _, stderr := simrun(t, "merge", "--out", "out", "t.jsonl"); code != exitBadInput || !strings.Contains(stderr, "t.jsonl: content_digest 0123456789abcdef, but this simrun gives") {
		t.Errorf("merge of a sweep shard of another simrun: exit %d, stderr %q", code, stderr)
	}
}

// repoRoot is the repository, for tests that change directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

// tinyJoin is explore's tiny-join fixture, a small scenario file.
func tinyJoin(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "explore", "testdata", "tiny-join.json"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestScenarioFileMessages: a UTF-8 byte order mark is skipped (it gave
// "invalid character 'ï'"); null inside an integer array is refused naming
// the element (it became 0); a file in the working directory named like a
// built-in scenario is not read, and a warning says which was used and how
// to name the file (it was silently shadowed).
func TestScenarioFileMessages(t *testing.T) {
	orig := tinyJoin(t)
	t.Chdir(t.TempDir())
	os.WriteFile("bom.json", append([]byte("\ufeff"), orig...), 0o644)
	if code, stdout, stderr := simrun(t, "run", "--scenario", "bom.json", "--strategy", "last-tiered"); code != exitOK || !strings.Contains(stdout, "scenario tiny-join") {
		t.Errorf("a file with a byte order mark: exit %d, stderr %q", code, stderr)
	}
	for _, c := range []struct{ field, want string }{
		{`"replicas": [0, null]`, "replicas[1]: expected an integer, got null"},
		{`"config": {"network_latency_ms": [null, 5]}`, "config.network_latency_ms[0]: expected an integer, got null"},
		{`"events": [{"at_ms": 0, "type": "network_partition", "brokers": [null], "duration_ms": 10}]`, "events[0].brokers[0]: expected an integer, got null"},
		{`"explore": {"faults": [], "choices": [1, null]}`, "explore.choices[1]: expected an integer, got null"},
	} {
		os.WriteFile("null.json", []byte(`{"brokers": 3, "duration_ms": 1000, `+c.field+`}`), 0o644)
		if code, _, stderr := simrun(t, "run", "--scenario", "null.json"); code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %q", c.field, code, stderr, c.want)
		}
	}
	os.WriteFile("tiering-off", []byte(orig), 0o644)
	code, stdout, stderr := simrun(t, "run", "--scenario", "tiering-off", "--strategy", "last-tiered")
	if code != exitOK || !strings.Contains(stdout, "scenario tiering-off") ||
		!strings.Contains(stderr, "--scenario tiering-off is the built-in scenario tiering-off; the file tiering-off in the working directory is not read (write ./tiering-off for the file)") {
		t.Errorf("a file named like a built-in scenario: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, stdout, stderr := simrun(t, "run", "--scenario", "./tiering-off", "--strategy", "last-tiered"); code != exitOK || !strings.Contains(stdout, "scenario tiny-join") || stderr != "" {
		t.Errorf("./tiering-off: exit %d, stdout %q, stderr %q; want the file, no warning", code, stdout, stderr)
	}
}

// TestNamesAreEscaped: control and bidirectional formatting characters in
// a scenario's name or a path given on the command line reach standard
// output and standard error escaped, not raw; JSON output stays valid and
// holds the same name.
func TestNamesAreEscaped(t *testing.T) {
	var sc map[string]any
	json.Unmarshal([]byte(tinyJoin(t)), &sc)
	sc["name"] = "evil\u202eexe.pdf"
	data, _ := json.Marshal(sc)
	path := writeTemp(t, "bidi.json", string(data))
	code, stdout, _ := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered")
	if code != exitOK || strings.ContainsRune(stdout, '\u202e') || !strings.Contains(stdout, `scenario evil\u202eexe.pdf`) {
		t.Errorf("summary: exit %d:\n%s", code, stdout)
	}
	_, stdout, _ = simrun(t, "run", "--scenario", path, "--strategy", "last-tiered", "--json")
	var res struct{ Scenario string }
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Scenario != "evil\u202eexe.pdf" || strings.ContainsRune(stdout, '\u202e') {
		t.Errorf("--json: %v, scenario %q", err, res.Scenario)
	}
	_, _, stderr := simrun(t, "run", "--scenario", "no\x1b[2Jfile\u202e.json")
	if strings.ContainsAny(stderr, "\x1b\u202e") || !strings.Contains(stderr, `\x1b[2Jfile\u202e.json`) {
		t.Errorf("a path with an escape sequence: stderr %q", stderr)
	}
}

// TestVaryRangeField: --vary of a [min, max] field (network_latency_ms was
// listed but no value could work) takes a fixed time or MIN..MAX.
func TestVaryRangeField(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := simrun(t, "compare", "--scenario", "omts-local-deleted", "--seeds", "1", "--profile", "kip", "--out", out, "--vary", "network_latency_ms=1,5..20")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, row := range []string{"| 1 ms | 1 of 1 |", "| 5..20 | 1 of 1 |"} {
		if !strings.Contains(string(report), row) {
			t.Errorf("report lacks the row %q", row)
		}
	}
	for _, bad := range []string{"20..5", "-1", "[1,5]", "fast"} {
		if code, _, stderr := simrun(t, "compare", "--scenario", "omts-local-deleted", "--seeds", "1", "--out", out, "--vary", "network_latency_ms="+bad); code != exitBadInput ||
			!strings.Contains(stderr, "--vary network_latency_ms: want MS (a fixed time) or MIN..MAX") {
			t.Errorf("--vary network_latency_ms=%s: exit %d, stderr %q", bad, code, stderr)
		}
	}
}

// TestInputPipes: a scenario file that is a named pipe nobody writes is
// refused once scenarios.PipeWait has passed, and merge refuses a shard
// file that is not a regular file before reading any (it reads each file
// more than once: a pipe's second reading found it drained, "empty: not a
// shard file", or waited for a writer that was gone); both hung or
// misled before.
func TestInputPipes(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "p.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stderr := deadlineRun(t, dir, 20*time.Second, "run", "--scenario", "./p.json")
	if code != exitBadInput || !strings.Contains(stderr, "./p.json is a named pipe with no writer") {
		t.Errorf("run --scenario FIFO: exit %d, stderr %q; want 2 naming the pipe", code, stderr)
	}
	code, stderr = deadlineRun(t, dir, 20*time.Second, "merge", "p.json")
	if code != exitBadInput || !strings.Contains(stderr, "merge: p.json is not a regular file (a pipe): merge reads each shard file more than once") {
		t.Errorf("merge FIFO: exit %d, stderr %q; want 2 naming the pipe", code, stderr)
	}
	if code, _, stderr := simrun(t, "merge", dir); code != exitBadInput || !strings.Contains(stderr, "is a directory, want a shard file") {
		t.Errorf("merge DIR: exit %d, stderr %q", code, stderr)
	}
}

// TestSweepRefusedJSONLKeepsOut: a sweep whose --jsonl is refused (it
// holds data, or it is --out's manifest) exits 2 before --out is cleared,
// so the earlier run's files stay; it removed them first, and a --jsonl
// naming the manifest was written into it, interleaved.
func TestSweepRefusedJSONLKeepsOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	manifest := filepath.Join(out, "simrun-manifest.txt")
	saved := filepath.Join(out, "seed-1-last-tiered-no-hole.json")
	os.WriteFile(manifest, []byte("# the files simrun wrote in this directory; the next run into it removes them first\nseed-1-last-tiered-no-hole.json\n"), 0o644)
	os.WriteFile(saved, []byte("{}"), 0o644)
	full := filepath.Join(dir, "full.jsonl")
	os.WriteFile(full, []byte("{}\n"), 0o644)
	for _, c := range []struct{ jsonl, want string }{
		{full, "full.jsonl is not empty"},
		{manifest, "is the same file as --out's manifest"},
	} {
		code, _, stderr := simrun(t, "sweep", "--seeds", "1", "--out", out, "--jsonl", c.jsonl)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("--jsonl %s: exit %d, stderr %q; want 2 and %q", c.jsonl, code, stderr, c.want)
		}
		if _, err := os.Stat(saved); err != nil {
			t.Errorf("--jsonl %s: the earlier run's file is gone: %v", c.jsonl, err)
		}
		if data, _ := os.ReadFile(manifest); !strings.HasPrefix(string(data), "# the files") {
			t.Errorf("--jsonl %s: the manifest now reads %q", c.jsonl, data)
		}
	}
}

// TestOutputIsNeverTheInputShrinkMerge: shrink's --out and merge's --out of
// a search are checked against their inputs as every other output is:
// shrink FILE --out FILE replaced the failing scenario by its shrunk form,
// and merge S0 S1 --out S0 a shard file by the counterexample.
func TestOutputIsNeverTheInputShrinkMerge(t *testing.T) {
	dir := t.TempDir()
	sc := tinyJoinAt(t, filepath.Join(dir, "sc.json"))
	if code, _, stderr := simrun(t, "shrink", sc, "--out", sc); code != exitBadInput || !strings.Contains(stderr, "is the same file as the scenario file") {
		t.Errorf("shrink FILE --out FILE: exit %d, stderr %q", code, stderr)
	}
	var shards []string
	for k := range 2 {
		s := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", k))
		if code, _, stderr := simrun(t, "explore", "--scenario", "tiering-off", "--max-states", "50", "--shard", fmt.Sprintf("%d/2", k),
			"--jsonl", s, "--out", filepath.Join(dir, "c.json")); code != exitOK && code != exitBudget {
			t.Fatalf("explore shard %d: exit %d: %s", k, code, stderr)
		}
		shards = append(shards, s)
	}
	before, _ := os.ReadFile(shards[0])
	if code, _, stderr := simrun(t, "merge", shards[0], shards[1], "--out", shards[0]); code != exitBadInput || !strings.Contains(stderr, "is the same file as the shard file") {
		t.Errorf("merge S0 S1 --out S0: exit %d, stderr %q", code, stderr)
	}
	if after, _ := os.ReadFile(shards[0]); !bytes.Equal(before, after) {
		t.Errorf("the shard file changed")
	}
}

// TestExploreKnownFindingFileIsNeverTheInput: the files a search writes
// beside --out, one a known kind, are outputs checked like --out: exploring
// explore-counterexample-KIND.json with the default --out replaced that
// file with the search's own finding of the kind.
func TestExploreKnownFindingFileIsNeverTheInput(t *testing.T) {
	dir := t.TempDir()
	sc := tinyJoinAt(t, filepath.Join(dir, "explore-counterexample-stale-hro.json"))
	code, _, stderr := simrun(t, "explore", "--scenario", sc, "--max-states", "5", "--out", filepath.Join(dir, "explore-counterexample.json"))
	if code != exitBadInput || !strings.Contains(stderr, "--out's stale-hro file "+sc+" is the same file as --scenario") {
		t.Errorf("exit %d, stderr %q; want 2 naming the known finding's file", code, stderr)
	}
}

// tinyJoinAt writes explore's tiny-join scenario to path and returns path.
func tinyJoinAt(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile("../../explore/testdata/tiny-join.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
