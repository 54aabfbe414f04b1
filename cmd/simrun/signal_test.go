package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tierfetch/cliutil"
	"tierfetch/explore"
)

// interruptedRun starts simrun with args in dir, waits until it catches
// signals (it says so on standard error when signalReadyEnv is set), lets it
// work for delay, sends sig, and returns its exit code and standard output.
// Waiting for the line rather than a fixed time keeps the test right on a
// machine too busy to start the command within any fixed delay.
func interruptedRun(t *testing.T, dir string, sig syscall.Signal, delay time.Duration, args ...string) (int, string) {
	t.Helper()
	cmd := simrunCmd(t, dir, args...)
	cmd.Env = append(cmd.Environ(), signalReadyEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	var errb bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			if !said && sc.Text() == signalReadyLine {
				said = true
				close(ready)
				continue
			}
			errb.WriteString(sc.Text() + "\n")
		}
		if !said {
			close(ready)
		}
	}()
	select {
	case <-ready:
	case <-time.After(5 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("%v never said %q", args, signalReadyLine)
	}
	time.Sleep(delay)
	cmd.Process.Signal(sig)
	<-done
	code := exitCode(t, cmd.Wait())
	if errb.Len() > 0 {
		t.Logf("stderr: %s", errb.String())
	}
	return code, out.String()
}

// resumeArgs returns the arguments of the command after "resume with: simrun".
func resumeArgs(t *testing.T, stdout string) []string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^resume with: simrun (.*)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no resume command in:\n%s", stdout)
	}
	return strings.Fields(m[1])
}

// TestSweepInterruptedResumesToTheSameSummary: SIGTERM (and SIGINT) stop a
// sweep at a seed boundary with exit 143 (130); its JSON Lines file holds
// whole lines and a header that says where it stopped; the printed command
// resumes it, keeping the result-shaping flags; and merging both files gives
// the uninterrupted sweep's summary byte for byte.
func TestSweepInterruptedResumesToTheSameSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: sweeps, interrupts, resumes and merges, then sweeps whole")
	}
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, cliutil.ExitSIGTERM}, {syscall.SIGINT, cliutil.ExitSIGINT}} {
		dir := t.TempDir()
		args := []string{"sweep", "--seeds", "1..400", "--workers", "1", "--shrink", "0", "--profile", "kafka-4.3",
			"--max-steps", "4000000", "--out", "out", "--jsonl", "a.jsonl"}
		code, stdout := interruptedRun(t, dir, c.sig, 500*time.Millisecond, args...)
		if code != c.code {
			t.Fatalf("%v: exit %d, want %d:\n%s", c.sig, code, c.code, stdout)
		}
		data, err := os.ReadFile(filepath.Join(dir, "a.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasSuffix(data, []byte("\n")) || !bytes.Contains(data[:bytes.IndexByte(data, '\n')], []byte(`"stopped_at":`)) {
			t.Fatalf("the interrupted file must end in a whole line and its header must say where it stopped:\n%.400s", data)
		}
		resume := resumeArgs(t, stdout)
		if c.sig == syscall.SIGINT {
			continue // the same path as SIGTERM from here on
		}
		for _, flag := range []string{"--profile kafka-4.3", "--max-steps 4000000", "--shrink 0", "--jsonl a.from-"} {
			if !strings.Contains(strings.Join(resume, " "), flag) {
				t.Errorf("the resume command %q lacks %q", resume, flag)
			}
		}
		// Merged alone, the interrupted part is refused, naming the flag
		// that resumes it (campaign's merge names the field, simrun the flag).
		alone := simrunCmd(t, dir, "merge", "--out", "out", "--shrink", "0", "a.jsonl")
		var aloneErr bytes.Buffer
		alone.Stderr = &aloneErr
		if code := exitCode(t, alone.Run()); code != exitBadInput ||
			!regexp.MustCompile(`a\.jsonl stopped at seed (\d+) \(interrupted: resume it with --resume-from (\d+)\)`).MatchString(aloneErr.String()) {
			t.Errorf("merge of the interrupted part alone: exit %d, %q; want 2 naming --resume-from", code, aloneErr.String())
		}
		rcmd := simrunCmd(t, dir, resume...)
		var rout bytes.Buffer
		rcmd.Stdout = &rout
		if code := exitCode(t, rcmd.Run()); code != exitOK {
			t.Fatalf("resume: exit %d:\n%s", code, rout.String())
		}
		part := regexp.MustCompile(`a\.from-\d+\.jsonl`).FindString(strings.Join(resume, " "))
		mcmd := simrunCmd(t, dir, "merge", "--out", "out", "--shrink", "0", "a.jsonl", part)
		var merged bytes.Buffer
		mcmd.Stdout = &merged
		if code := exitCode(t, mcmd.Run()); code != exitOK {
			t.Fatalf("merge: exit %d:\n%s", code, merged.String())
		}
		whole := simrunCmd(t, dir, "sweep", "--seeds", "1..400", "--workers", "2", "--shrink", "0", "--profile", "kafka-4.3",
			"--max-steps", "4000000", "--out", "out")
		var wholeOut bytes.Buffer
		whole.Stdout = &wholeOut
		if code := exitCode(t, whole.Run()); code != exitOK {
			t.Fatalf("whole sweep: exit %d", code)
		}
		if merged.String() != wholeOut.String() {
			t.Errorf("%v: the merge of the interrupted and the resumed part differs from the whole sweep:\n%s\n---\n%s", c.sig, merged.String(), wholeOut.String())
		}
	}
}

// TestCompareInterruptedResumesToTheSameReport: SIGTERM stops a comparison
// at a pair boundary with exit 143, saving the pairs done with a header that
// says where it stopped; the printed command resumes it, and merging both
// parts writes the report and runs.csv of the uninterrupted comparison, byte
// for byte.
func TestCompareInterruptedResumesToTheSameReport(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compares, interrupts, resumes and merges, then compares whole")
	}
	dir := t.TempDir()
	args := []string{"compare", "--generated", "--seeds", "1..160", "--profile", "kip", "--workers", "1", "--out", "out"}
	code, stdout := interruptedRun(t, dir, syscall.SIGTERM, 500*time.Millisecond, args...)
	if code != cliutil.ExitSIGTERM {
		t.Fatalf("exit %d, want 143:\n%s", code, stdout)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out", "pairs.jsonl"))
	if err != nil || !bytes.Contains(data[:bytes.IndexByte(data, '\n')], []byte(`"stopped_at_job":`)) {
		t.Fatalf("no part file with stopped_at_job (%v):\n%.300s", err, data)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "report.md")); err == nil {
		t.Fatal("an interrupted comparison wrote a report")
	}
	resume := resumeArgs(t, stdout)
	rcmd := simrunCmd(t, dir, resume...)
	var rout bytes.Buffer
	rcmd.Stdout = &rout
	if code := exitCode(t, rcmd.Run()); code != exitOK {
		t.Fatalf("resume %v: exit %d:\n%s", resume, code, rout.String())
	}
	part := regexp.MustCompile(`out/pairs\.from-\d+\.jsonl`).FindString(strings.Join(resume, " "))
	if code, _, stderr := simrun(t, "merge", "--out", filepath.Join(dir, "merged"), filepath.Join(dir, "out", "pairs.jsonl"), filepath.Join(dir, part)); code != exitOK {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	whole := simrunCmd(t, dir, append(args[:len(args)-1], "whole")...)
	if code := exitCode(t, whole.Run()); code != exitOK {
		t.Fatalf("whole comparison: exit %d", code)
	}
	for _, name := range []string{"runs.csv", "report.md"} {
		a, _ := os.ReadFile(filepath.Join(dir, "merged", name))
		b, _ := os.ReadFile(filepath.Join(dir, "whole", name))
		a = bytes.ReplaceAll(a, []byte("--out "+filepath.Join(dir, "merged")), []byte("--out whole"))
		if !bytes.Equal(a, b) {
			t.Errorf("%s of the merged parts differs from the whole comparison's", name)
		}
	}
}

// TestExploreStopsOnSignal: SIGINT (and SIGTERM) in the middle of a search
// stops it at the next state: the part searched is printed with what was
// cut short, the exit code is 130 (143), no file is written (--jsonl is
// all or nothing; no violation, so no --out) and no temporary file is
// left. The search stops itself: had it not within exploreStopGrace, the
// process would end without its figures (which the test refuses).
func TestExploreStopsOnSignal(t *testing.T) {
	fixture, err := filepath.Abs(exploreFixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, cliutil.ExitSIGINT}, {syscall.SIGTERM, cliutil.ExitSIGTERM}} {
		dir := t.TempDir()
		cmd := simrunCmd(t, dir, "explore", "--scenario", fixture, "--faults", strings.Join(explore.FaultKinds, ","), "--lost",
			"--max-states", "100000000", "--max-memory", "256", "--out", "cx.json", "--jsonl", "x.jsonl")
		var out bytes.Buffer
		cmd.Stdout = &out
		errPipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The search is under way once a progress line says so (depth 5:
		// thousands of states, the next level tens of thousands).
		running := make(chan struct{})
		var errb bytes.Buffer
		go func() {
			sc := bufio.NewScanner(errPipe)
			for sc.Scan() {
				errb.WriteString(sc.Text() + "\n")
				if strings.HasPrefix(sc.Text(), "explore: depth 5,") {
					close(running)
				}
			}
		}()
		select {
		case <-running:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("no progress line in 60 s")
		}
		sent := time.Now()
		cmd.Process.Signal(c.sig)
		code := waitDeadline(t, cmd, 30*time.Second)
		t.Logf("%v: ended %.2f s after the signal", c.sig, time.Since(sent).Seconds())
		stdout := out.String()
		if code != c.code || !strings.Contains(stdout, "stopped by "+cliutil.SignalName(c.sig)+" during the search at depth ") ||
			!strings.Contains(stdout, "NOT exhausted") || strings.Contains(errb.String(), "did not stop") {
			t.Fatalf("%v: exit %d, want %d and the part searched:\n%s%s", c.sig, code, c.code, stdout, errb.String())
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			t.Errorf("%v: %s written", c.sig, e.Name())
		}
	}
}
