package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// clusterArgs are simrun plan's flags for the hand-written tool output of
// plan/testdata/cluster.
func clusterArgs() []string {
	dir := filepath.Join("..", "..", "plan", "testdata", "cluster")
	args := []string{"plan"}
	for _, tm := range []string{"earliest", "earliest-local", "latest-tiered", "earliest-pending-upload", "latest"} {
		args = append(args, "--offsets", tm+"="+filepath.Join(dir, tm+".txt"))
	}
	return append(args, "--configs", filepath.Join(dir, "configs.txt"), "--log-dirs", filepath.Join(dir, "log-dirs.txt"),
		"--topics", filepath.Join(dir, "topics.txt"), "--topic", "orders", "--partition", "2", "--seeds", "1..2")
}

// TestPlanCommand: the plan prints the comparison, hazards, recommendation
// and assumptions, and the saved scenario replays its runs with simrun run.
func TestPlanCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs three plans")
	}
	saved := filepath.Join(t.TempDir(), "plan.json")
	code, stdout, stderr := simrun(t, append(clusterArgs(), "--save", saved, "--produce-bytes-per-sec", "5MiB")...)
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	flat := strings.Join(strings.Fields(stdout), " ") // the text is wrapped
	for _, want := range []string{"plan for orders-2", "turn the flag on (verdict: on)", "flag on (KIP-1023)", "hazard disable-tiering-later",
		"recommendation:", "Recommendation: turn the flag on", "assumptions:", "saved to " + saved} {
		if !strings.Contains(flat, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	code, out, stderr := simrun(t, append(clusterArgs(), "--produce-bytes-per-sec", "5MiB", "--json")...)
	if code != exitOK {
		t.Fatalf("--json: exit %d, %s", code, stderr)
	}
	var plan struct {
		SchemaVersion int `json:"schema_version"`
		Profiles      []struct {
			Profile    string `json:"profile"`
			Strategies []struct {
				Strategy string `json:"strategy"`
				Runs     []struct {
					Seed       uint64 `json:"seed"`
					CaughtUpMs *int64 `json:"caught_up_ms"`
					Digest     string `json:"digest"`
				} `json:"runs"`
			} `json:"strategies"`
		} `json:"profiles"`
		Recommendation string   `json:"recommendation"`
		Assumptions    []string `json:"assumptions"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil || plan.SchemaVersion != 1 || len(plan.Profiles) == 0 || plan.Recommendation == "" {
		t.Fatalf("--json: %v, %+v", err, plan)
	}
	for _, p := range plan.Profiles {
		code, out, stderr := simrun(t, "run", "--scenario", saved, "--seed", "2", "--profile", p.Profile, "--json")
		if code != exitOK {
			t.Fatalf("run %s: exit %d, %s", p.Profile, code, stderr)
		}
		var res struct {
			Runs []struct {
				Strategy  string `json:"strategy"`
				Digest    string `json:"digest"`
				Followers []struct {
					CaughtUpMs *int64 `json:"caught_up_ms"`
				} `json:"followers"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for i, r := range res.Runs {
			want := p.Strategies[i].Runs[1]
			if r.Strategy != p.Strategies[i].Strategy || r.Digest != want.Digest || *r.Followers[0].CaughtUpMs != *want.CaughtUpMs {
				t.Errorf("%s %s seed 2: simrun run caught up %d (%s), the plan said %d (%s)", p.Profile, r.Strategy,
					*r.Followers[0].CaughtUpMs, r.Digest, *want.CaughtUpMs, want.Digest)
			}
		}
	}
}

// TestPlanBadInput: bad flags and bad tool output exit 2 with a message
// naming the flag, or the file, line and what was expected; nothing is saved.
func TestPlanBadInput(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plans on each bad input")
	}
	dir := t.TempDir()
	bad := writeTemp(t, "bad.txt", "orders:2:100\nAll configs for topic orders are:\n")
	good := filepath.Join("..", "..", "plan", "testdata", "cluster")
	saved := filepath.Join(dir, "never.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"plan"}, "--offsets earliest=FILE and --offsets latest=FILE are required"},
		{[]string{"plan", "--offsets", "earliest"}, "want TIME=FILE"},
		{[]string{"plan", "--offsets", "max-timestamp=x.txt"}, "TIME: want one of earliest (-2)"},
		{[]string{"plan", "--offsets", "earliest=" + filepath.Join(dir, "missing.txt")}, "missing.txt: no such file"},
		{[]string{"plan", "--offsets", "earliest=" + bad, "--offsets", "latest=" + bad}, "bad.txt:2: expected TOPIC:PARTITION:OFFSET"},
		{[]string{"plan", "--offsets", "-2=" + bad, "--offsets", "earliest=" + bad}, "earliest given twice"},
		{[]string{"plan", "--offsets", "earliest=" + filepath.Join(good, "earliest.txt")}, "--offsets: latest=FILE is required"},
		{[]string{"plan", "--offsets", "earliest=" + filepath.Join(good, "earliest.txt"), "--offsets", "latest=" + filepath.Join(good, "latest.txt")},
			"--partition: the offsets files hold orders-0, orders-1, orders-2"},
		{append(clusterArgs(), "--configs", filepath.Join(good, "topics.txt")), "topics.txt:1: expected a banner"},
		{append(clusterArgs(), "--log-dirs", filepath.Join(good, "configs.txt")), "configs.txt:1: expected \"Querying brokers"},
		{append(clusterArgs(), "--topics", filepath.Join(good, "latest.txt")), "latest.txt:1: expected a \"Topic: T ...\" line"},
		{append(clusterArgs(), "--seeds", "5..1"), "--seeds: want A..B"},
		{append(clusterArgs(), "--profile", "kafka-9"), "--profile: want one of"},
		{append(clusterArgs(), "--produce-bytes-per-sec", "fast"), "want a byte count"},
		{append(clusterArgs(), "--network-latency-ms", "9,1"), "want MIN,MAX"},
		{append(clusterArgs(), "--topic", "payments"), "--topic: no such partition in the offsets files (they hold orders-0, orders-1, orders-2)"},
		{append(clusterArgs(), "--save", filepath.Join(dir, "no", "such", "dir", "p.json")), "--save: directory " + filepath.Join(dir, "no", "such", "dir") + " does not exist"},
		{append(clusterArgs(), "extra"), "unexpected argument"},
	}
	for _, c := range cases {
		args := c.args
		code, stdout, stderr := simrun(t, args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 naming %q", args[1:], code, stderr, stdout, c.want)
		}
	}
	if _, err := os.Stat(saved); err == nil {
		t.Error("a failed plan saved a scenario")
	}
	if code, stdout, _ := simrun(t, "plan", "--help"); code != exitOK || !strings.Contains(stdout, "simrun plan --offsets") {
		t.Errorf("--help: exit %d, %q", code, stdout)
	}
}

// TestPlanGuideExample: the example output in docs/guide/plan.md is what
// the command in the sh block before it prints, run from the repository
// root (the notes name the files by that path).
func TestPlanGuideExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the plan's 30 simulations")
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide", "plan.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(data))
	i := slices.IndexFunc(blocks, func(b docBlock) bool {
		return b.lang == "sh" && strings.Contains(strings.Join(b.body, "\n"), "simrun plan --offsets earliest=$D/earliest.txt")
	})
	if i < 0 || i+1 >= len(blocks) || blocks[i+1].lang != "" {
		t.Fatal("docs/guide/plan.md: no plan example (a sh block with 'simrun plan --offsets earliest=$D/earliest.txt', then its output in a plain fenced block)")
	}
	var args []string
	vars := map[string]string{}
	for _, l := range blocks[i].body {
		words, err := shellWords(l)
		if err != nil {
			t.Fatal(err)
		}
		if len(words) == 1 && assignment.MatchString(words[0]) {
			k, v, _ := strings.Cut(words[0], "=")
			vars[k] = v
		} else if a, ok := simrunArgs(words); ok {
			for _, w := range a {
				args = append(args, strings.ReplaceAll(w, "$D", vars["D"]))
			}
		}
	}
	planExampleIsCurrent(t, "docs/guide/plan.md's plan example", args, strings.Join(blocks[i+1].body, "\n")+"\n")
}

// planExampleIsCurrent runs simrun args from a scratch directory that
// shows the repository's plan/ as plan/ (the paths print as from the root,
// --save writes a scratch file) and fails unless it prints want, the
// output the example shows.
func planExampleIsCurrent(t *testing.T, example string, args []string, want string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "plan"), filepath.Join(dir, "plan")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, stdout, stderr := simrun(t, args...)
	if code != exitOK {
		t.Fatalf("simrun %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	if stdout != want {
		t.Errorf("%s is not the output of 'simrun %s'; paste this:\n%s", example, strings.Join(args, " "), stdout)
	}
}
