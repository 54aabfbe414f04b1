package main

import (
	"encoding/json"
	"strings"
	"testing"

	"tierfetch/cliutil"
)

// TestHelpGoesToStdout: --help prints on standard output and exits 0, for
// the top level and every command.
func TestHelpGoesToStdout(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"run", "--help"}, {"replay", "-h"}, {"sweep", "--help"},
		{"merge", "--help"}, {"mutants", "--help"}, {"compare", "--help"}, {"plan", "--help"}, {"help", "gen"}} {
		code, stdout, stderr := simrun(t, args...)
		if code != exitOK || !strings.Contains(stdout, "Usage:") || stderr != "" {
			t.Errorf("simrun %v: exit %d, stdout %q, stderr %q; want the help on stdout, exit 0", args, code, stdout, stderr)
		}
	}
}

// TestFlagsAnywhere: GNU-style flags come before or after a positional
// argument, and --name=value works.
func TestFlagsAnywhere(t *testing.T) {
	file := writeTemp(t, "g.json", "")
	if code, _, stderr := simrun(t, "gen", "--seed=7", "--out", file); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	before, out1, _ := simrun(t, "replay", "--strategy", "last-tiered", file)
	after, out2, _ := simrun(t, "replay", file, "--strategy", "last-tiered")
	if before != after || out1 != out2 || !strings.Contains(out1, "last-tiered") || strings.Contains(out1, "local-log-start ") {
		t.Errorf("replay with the flag before (exit %d) and after (exit %d) the file differ or ran the wrong strategy", before, after)
	}
}

// TestSuggestions: a mistyped command or flag is bad input (exit 2) with a
// suggestion.
func TestSuggestions(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"rnu", "--all"}, "Did you mean this?\n\trun"},
		{[]string{"compaer"}, "compare"},
		{[]string{"run", "--strateg", "both"}, "did you mean --strategy?"},
		{[]string{"sweep", "--seed", "1..3"}, "did you mean --seeds?"},
		{[]string{"compare", "--profles", "kip"}, "did you mean --profiles?"},
		{[]string{"run", "-all"}, "did you mean --all?"},
	}
	for _, c := range cases {
		code, stdout, stderr := simrun(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("simrun %v: exit %d, stderr %q; want exit 2 suggesting %q", c.args, code, stderr, c.want)
		}
	}
}

// TestCompletionAndVersion: shell completions for bash, zsh and fish, and
// --version from the build info.
func TestCompletionAndVersion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, stdout, _ := simrun(t, "completion", sh)
		if code != exitOK || !strings.Contains(stdout, "simrun") {
			t.Errorf("completion %s: exit %d, %d bytes", sh, code, len(stdout))
		}
	}
	code, stdout, _ := simrun(t, "--version")
	if code != exitOK || stdout != "simrun "+cliutil.Version()+"\n" {
		t.Errorf("--version: exit %d, %q", code, stdout)
	}
}

// TestRunSaysWhatSimTimeIs: sim= says the scenario's window and healing.
func TestRunSaysWhatSimTimeIs(t *testing.T) {
	_, stdout, _ := simrun(t, "run", "--scenario", "leader-knows-hro", "--strategy", "last-tiered")
	if !strings.Contains(stdout, "sim=60.0s (30 s + 30 s healed)") {
		t.Errorf("summary does not split the simulated time:\n%s", stdout)
	}
}

// TestJSONTraceGoesToStderr: --json --trace keeps stdout one JSON document
// and prints the trace on stderr.
func TestJSONTraceGoesToStderr(t *testing.T) {
	code, stdout, stderr := simrun(t, "run", "--scenario", "leader-knows-hro", "--json", "--trace")
	var v map[string]any
	if code != exitOK || json.Unmarshal([]byte(stdout), &v) != nil || !strings.Contains(stderr, "t=0.000s") {
		t.Errorf("exit %d; stdout JSON ok: %v; stderr %d bytes", code, json.Unmarshal([]byte(stdout), &v) == nil, len(stderr))
	}
}

// TestUnknownHelpTopic: 'simrun help TOPIC' of an unknown topic fails as an
// unknown command does: exit 2 and the commands it may have meant.
func TestUnknownHelpTopic(t *testing.T) {
	code, stdout, stderr := simrun(t, "help", "rnu")
	if code != exitBadInput || stdout != "" || !strings.Contains(stderr, `unknown command "rnu"`) || !strings.Contains(stderr, "Did you mean this?\n\trun\n") {
		t.Errorf("help rnu: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, _ := simrun(t, "help", "nope"); code != exitBadInput {
		t.Errorf("help nope: exit %d, want %d", code, exitBadInput)
	}
}
