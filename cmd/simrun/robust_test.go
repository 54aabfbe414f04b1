package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"tierfetch/compare"
)

// TestWorkBudget: a scenario predicted to exceed the budget is refused before
// it runs, a run that reaches the budget stops with exit 4 and says how to
// raise it, and every command that runs simulations takes --max-steps.
func TestWorkBudget(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	huge := writeTemp(t, "huge.json", `{"brokers": 2, "duration_ms": 1000000000000,
	  "events": [{"at_ms": 0, "type": "produce", "records": 1000000000, "over_ms": 1000000000000}]}`)
	code, stdout, stderr := simrun(t, "run", "--scenario", huge)
	if code != exitBudget || stdout != "" || !strings.Contains(stderr, "predicted") || !strings.Contains(stderr, "--max-steps") {
		t.Errorf("predicted cost: exit %d, stdout %q, stderr %q; want exit 4 naming the prediction and --max-steps", code, stdout, stderr)
	}
	code, stdout, _ = simrun(t, "run", "--scenario", "omts-local-deleted", "--max-steps", "1000")
	if code != exitBudget || !strings.Contains(stdout, "budget-exceeded") || !strings.Contains(stdout, "WORK BUDGET") ||
		!strings.Contains(stdout, "--max-steps 2000") {
		t.Errorf("a run at its budget: exit %d, want 4 with the outcome and the command with a larger budget:\n%s", code, stdout)
	}
	code, stdout, _ = simrun(t, "run", "--scenario", "omts-local-deleted", "--max-steps", "1000", "--json")
	if code != exitBudget || !strings.Contains(stdout, `"outcome": "budget-exceeded"`) || !strings.Contains(stdout, `"invariant": "work-budget"`) {
		t.Errorf("--json at the budget: exit %d\n%s", code, stdout)
	}
	out := t.TempDir()
	code, stdout, _ = simrun(t, "sweep", "--seeds", "1..2", "--max-steps", "300", "--out", out, "--workers", "1")
	saved, _ := os.ReadFile(filepath.Join(out, "seed-1-local-log-start-work-budget.json"))
	if code != exitBudget || !strings.Contains(stdout, "work-budget") || !strings.Contains(stdout, "simrun replay "+out) ||
		!strings.Contains(string(saved), `"max_steps": 300`) {
		t.Errorf("sweep at its budget: exit %d, want 4 naming work-budget, the saved files recording --max-steps:\n%s", code, stdout)
	}
	code, stdout, _ = simrun(t, "compare", "--scenario", "omts-local-deleted", "--seeds", "1", "--profile", "kip", "--max-steps", "1000", "--out", t.TempDir())
	if code != exitBudget || !strings.Contains(stdout, "work budget") {
		t.Errorf("compare at its budget: exit %d, want 4:\n%s", code, stdout)
	}
	if code, _, stderr := simrun(t, "compare", "--scenario", huge, "--seeds", "1", "--out", t.TempDir()); code != exitBudget || !strings.Contains(stderr, "predicted") {
		t.Errorf("compare on a scenario predicted too costly: exit %d, stderr %q", code, stderr)
	}
	for _, bad := range []string{"0", "-5", "1e6", "5abc", "+5", "0x10", "99999999999999"} {
		for _, cmd := range [][]string{{"run", "--scenario", "tiering-off"}, {"sweep", "--seeds", "1"}, {"compare", "--seeds", "1"}, {"mutants", "--seeds", "1"}} {
			if code, _, stderr := simrun(t, append(cmd, "--max-steps", bad)...); code != exitBadInput || !strings.Contains(stderr, "max-steps") {
				t.Errorf("%v --max-steps %s: exit %d, stderr %q; want 2 naming the flag", cmd, bad, code, stderr)
			}
		}
	}
}

// TestSeedsAreStrict: seeds are decimal digits and nothing else, on every
// command, and a range ending at the largest seed does not wrap.
func TestSeedsAreStrict(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	for _, bad := range []string{"5abc", "1e3", "1.5", "0x10", "0b1", "1_000", "-1", "+1", " 5", "5 ", "", "18446744073709551616"} {
		for _, args := range [][]string{
			{"run", "--scenario", "tiering-off", "--seed", bad},
			{"gen", "--seed", bad},
			{"sweep", "--seeds", bad},
			{"sweep", "--seeds", "1.." + bad},
			{"compare", "--seeds", bad},
			{"mutants", "--seeds", bad},
		} {
			if code, _, stderr := simrun(t, args...); code != exitBadInput || stderr == "" {
				t.Errorf("simrun %q: exit %d, stderr %q; want 2 with a message", args, code, stderr)
			}
		}
	}
	code, stdout, _ := simrun(t, "run", "--scenario", "tiering-off", "--seed", "18446744073709551615", "--strategy", "last-tiered")
	if code != exitOK || !strings.Contains(stdout, "seed 18446744073709551615") {
		t.Errorf("the largest seed: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr := simrun(t, "compare", "--scenario", "tiering-off", "--seeds", "18446744073709551614..18446744073709551615",
		"--profile", "kip", "--workers", "1", "--out", t.TempDir())
	if code != exitOK || !strings.Contains(stdout, "compare: 2 pairs") {
		t.Errorf("compare up to the largest seed: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	code, stdout, _ = simrun(t, "sweep", "--seeds", "18446744073709551614..18446744073709551615", "--workers", "1", "--shrink", "0", "--out", t.TempDir())
	if code != exitOK || !strings.Contains(stdout, ": 2 seeds, 4 runs") {
		t.Errorf("sweep up to the largest seed: exit %d\n%s", code, stdout)
	}
}

// TestOutputFilesAreNeverReplaced: an output path that is a symbolic link is
// written through (the link stays), a device or a fifo is written into, never
// replaced by a regular file, and a directory is refused.
func TestOutputFilesAreNeverReplaced(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("target.json", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := simrun(t, "gen", "--seed", "3", "--out", link); code != exitOK {
		t.Fatalf("gen --out symlink: exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced: %v %v", fi.Mode(), err)
	}
	if data, _ := os.ReadFile(target); !strings.Contains(string(data), `"seed": 3`) {
		t.Errorf("the link's target was not written: %q", data)
	}
	if code, _, stderr := simrun(t, "gen", "--seed", "3", "--out", os.DevNull); code != exitOK {
		t.Errorf("gen --out %s: exit %d: %s", os.DevNull, code, stderr)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is no longer a character device: %v %v", os.DevNull, fi.Mode(), err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		data, _ := os.ReadFile(fifo)
		got <- data
	}()
	if code, _, stderr := simrun(t, "gen", "--seed", "3", "--out", fifo); code != exitOK {
		t.Errorf("gen --out fifo: exit %d: %s", code, stderr)
	}
	if data := <-got; !strings.Contains(string(data), `"seed": 3`) {
		t.Errorf("the fifo's reader got %q", data)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the fifo was replaced: %v %v", fi.Mode(), err)
	}
	if code, _, stderr := simrun(t, "gen", "--seed", "3", "--out", dir); code != exitBadInput || !strings.Contains(stderr, "is a directory") {
		t.Errorf("gen --out DIR: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		if code, _, stderr := simrun(t, "gen", "--seed", "3", "--out", "/dev/full"); code != exitBadInput || !strings.Contains(stderr, "no space") {
			t.Errorf("gen --out /dev/full: exit %d, stderr %q", code, stderr)
		}
		if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Fatalf("/dev/full is no longer a character device")
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestLostOutputFails: a command whose standard output cannot be written, or
// whose failure files cannot be saved, says so and exits non-zero.
func TestLostOutputFails(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs every command into a full device")
	}
	for _, args := range [][]string{{"scenarios"}, {"gen", "--seed", "1"}, {"run", "--scenario", "tiering-off"},
		{"run", "--scenario", "tiering-off", "--json"}, {"sweep", "--seeds", "1", "--out", t.TempDir()}} {
		var errb bytes.Buffer
		if code := run(args, failingWriter{}, &errb); code == exitOK || !strings.Contains(errb.String(), "writing standard output") {
			t.Errorf("simrun %v > a full disk: exit %d, stderr %q", args, code, errb.String())
		}
	}
	out := t.TempDir()
	args := []string{"sweep", "--seeds", "1..40", "--mutant", "retention-before-upload", "--shrink", "0", "--workers", "1", "--out", out}
	if code, _, stderr := simrun(t, args...); code != exitSafety {
		t.Fatalf("the mutant sweep: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.json"))
	if len(files) == 0 {
		t.Fatal("the mutant sweep saved no failure")
	}
	for _, f := range files { // a directory where each file goes: it cannot be written
		os.Remove(f)
		os.Mkdir(f, 0o755)
	}
	code, stdout, stderr := simrun(t, args...)
	if code != exitBadInput || !strings.Contains(stderr, "could not be saved") || !strings.Contains(stdout, "unknown failures") {
		t.Errorf("unsaveable failure files: exit %d, stderr %q", code, stderr)
	}
}

// TestMergeIsStrict: shard files are decoded as strictly as scenario files,
// every error names the file, the line and the field, and names taken from a
// file never become paths outside --out.
func TestMergeIsStrict(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.jsonl")
	if code, _, stderr := simrun(t, "sweep", "--seeds", "1..2", "--jsonl", good, "--out", filepath.Join(dir, "o"), "--workers", "1"); code != exitOK {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	header, seed1 := lines[0], lines[1]
	cases := []struct {
		name, file, want string
	}{
		{"null header", "null\n", ":1: "},
		{"empty object header", "{}\n", "tierfetch_sweep"},
		{"duplicate header key", strings.Replace(header, `"profile":"kip"`, `"profile":"kip","profile":"kafka-4.3"`, 1), "profile: duplicate field"},
		{"miscased key", strings.Replace(header, `"profile"`, `"Profile"`, 1), "Profile: unknown field"},
		{"unknown mutant", strings.Replace(header, `"mutant":""`, `"mutant":"../x"`, 1), "mutant"},
		{"duplicate seed-line key", header + strings.Replace(seed1, `"seed":1`, `"seed":1,"seed":1`, 1), ":2: seed: duplicate field"},
		{"negative coverage", header + regexpReplace(seed1, `"coverage":\[\d+`, `"coverage":[-1`), ":2: seed 1 runs[0]: coverage[0]: negative"},
		{"empty digest", header + regexpReplace(seed1, `"digest":"[0-9a-f]+"`, `"digest":""`), ":2: seed 1 runs[0]: digest"},
		{"unknown kind", header + strings.Replace(seed1, `"outcome":"ok"`, `"outcome":"safety-violation","invariant":"no-hole","kind":"../../escaped","message":"x","step":3`, 1), "kind: unknown kind"},
		{"escaping invariant", header + strings.Replace(seed1, `"outcome":"ok"`, `"outcome":"safety-violation","invariant":"../../escaped","message":"x","step":3`, 1), "invariant: unknown invariant"},
		{"ok with an invariant", header + strings.Replace(seed1, `"outcome":"ok"`, `"outcome":"ok","invariant":"no-hole"`, 1), "outcome ok with a violation"},
		{"null seed line", header + "null\n", ":2: "},
		{"trailing data", header + strings.TrimSuffix(seed1, "\n") + " {}\n", ":2: "},
		{"huge range", strings.Replace(header, `"to":2`, `"to":1000000000000000000`, 1) + seed1, "999999999999999999 of the sweep's seeds"},
	}
	for _, c := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".jsonl")
		if err := os.WriteFile(path, []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "out", "a", "b")
		code, stdout, stderr := simrun(t, "merge", "--shrink", "0", "--out", out, path)
		if code != exitBadInput || (!strings.Contains(stderr, path) && c.name != "huge range") || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 2 naming %s and %q", c.name, code, stdout, stderr, path, c.want)
		}
		if strings.Contains(stderr, "<nil>") {
			t.Errorf("%s: the message says <nil>: %s", c.name, stderr)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*escaped*")); len(matches) > 0 {
		t.Errorf("a name from a shard file escaped --out: %v", matches)
	}
}

func regexpReplace(s, pattern, repl string) string {
	return regexp.MustCompile(pattern).ReplaceAllString(s, repl)
}

// TestHostileNumbers: int64 max (and min) in every integer field of a
// scenario file gives exit 2 naming the field, or, where the range allows it,
// a run that ends (never a panic or a hang); a produce or a duration that
// would take unbounded work is refused with exit 4.
func TestHostileNumbers(t *testing.T) {
	const max64, min64 = "9223372036854775807", "-9223372036854775808"
	base := func(config, initial, events, top string) string {
		return `{"brokers": 3, "replicas": [0, 2], "duration_ms": 60000` + top + `,
		  "config": {"remote_storage_enable": true` + config + `},
		  "initial": {"high_watermark": 100, "local_segments": [{"base_offset": 0, "end_offset": 99, "epoch": 0}]` + initial + `},
		  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1},
		    {"at_ms": 0, "type": "produce", "records": 1000, "over_ms": 10000}` + events + `]}`
	}
	var files []string
	for name := range configKeysForTest() {
		for _, v := range []string{max64, min64} {
			files = append(files, base(`, "`+name+`": `+v, "", "", ""))
		}
	}
	for _, top := range []string{`, "heal_ms": ` + max64, `, "seed": 18446744073709551615`, `, "seed": 18446744073709551616`, `, "brokers": ` + max64} {
		files = append(files, base("", "", "", top))
	}
	for _, in := range []string{`, "leader_epoch": 2147483647`, `, "leader_epoch": ` + max64, `, "highest_remote_offset": ` + max64, `, "log_start_offset": ` + min64} {
		files = append(files, base("", in, "", ""))
	}
	for _, ev := range []string{
		`, {"at_ms": 1000, "type": "set_config", "key": "remote_log_manager_task_interval_ms", "value": ` + max64 + `}`,
		`, {"at_ms": 1000, "type": "set_config", "key": "retention_ms", "value": ` + max64 + `}`,
		`, {"at_ms": 1000, "type": "set_config", "key": "local_retention_bytes", "value": ` + min64 + `}`,
		`, {"at_ms": 1000, "type": "network_partition", "brokers": [1], "duration_ms": ` + max64 + `}`,
		`, {"at_ms": 1000, "type": "remote_outage", "duration_ms": 1000000000000}`,
		`, {"at_ms": 1000, "type": "delete_records", "before_offset": ` + max64 + `}`,
		`, {"at_ms": 1000, "type": "consume", "from_offset": 4611686018427387904}`,
		`, {"at_ms": 1000, "type": "produce", "records": 1000000000, "over_ms": 1000000000000}`,
		`, {"at_ms": ` + max64 + `, "type": "crash", "broker": 0}`,
	} {
		files = append(files, base("", "", ev, ""))
	}
	files = append(files, base("", "", "", `, "heal_ms": 1000000000000`))
	for i, file := range files {
		path := writeTemp(t, fmt.Sprintf("h%d.json", i), file)
		code, _, stderr := simrun(t, "run", "--scenario", path, "--max-steps", "300000")
		switch code {
		case exitOK, exitSafety, exitLiveness, exitBudget, exitBadInput:
		default:
			t.Errorf("%s: exit %d", file, code)
		}
		if (code == exitBadInput || code == exitBudget) && !strings.Contains(stderr, path) && !strings.Contains(stderr, "predicted") {
			t.Errorf("%s: exit %d without naming the file: %s", file, code, stderr)
		}
	}
}

// configKeysForTest is the integer config fields of a scenario file.
func configKeysForTest() map[string]bool {
	keys := map[string]bool{}
	for k, v := range compare.ConfigKeys() {
		if _, ok := v.(float64); ok {
			keys[k] = true
		}
	}
	return keys
}

// TestPlanInputsAreBounded: simrun plan reads its tool outputs up to the
// input limit, and bounds and checks its seeds like the other commands.
func TestPlanInputsAreBounded(t *testing.T) {
	code, _, stderr := simrun(t, "plan", "--offsets", "earliest=/dev/zero", "--offsets", "latest=/dev/zero", "--max-input-bytes", "1000000")
	if code != exitBadInput || !strings.Contains(stderr, "--max-input-bytes") {
		t.Errorf("plan on /dev/zero: exit %d, stderr %q", code, stderr)
	}
	for _, seeds := range []string{"0..18446744073709551615", "1..20000", "5abc"} {
		code, _, stderr := simrun(t, "plan", "--offsets", "earliest=x", "--offsets", "latest=y", "--seeds", seeds)
		if code != exitBadInput || !strings.Contains(stderr, "--seeds") {
			t.Errorf("plan --seeds %s: exit %d, stderr %q", seeds, code, stderr)
		}
	}
}
