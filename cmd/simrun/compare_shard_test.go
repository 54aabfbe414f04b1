package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardedCompareMergesToTheWholeComparison runs a comparison whole in
// one directory, and as 3 shards merged (files given out of order) in
// another, with the same relative --out, and compares the summaries and
// every file of --out byte for byte.
func TestShardedCompareMergesToTheWholeComparison(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		files []string // --out must hold at least these
	}{
		{"scenario", []string{"--scenario", "leader-knows-hro", "--seeds", "1..6"},
			[]string{"report.md", "runs.csv", "timeline.svg"}},
		{"vary", []string{"--scenario", "local-retention-sweep", "--seeds", "1..3", "--vary", "local_retention_bytes=1048576,10485760"},
			[]string{"report.md", "runs.csv", "sweep.svg", "timeline.svg"}},
		// A broker-scale file shards the same way: a sweep of a fleet's
		// seeds and knob values split across machines.
		{"broker", []string{"--scenario", "", "--seeds", "1..2", "--profiles", "kip", "--vary", "num_replica_fetchers=1,2"},
			[]string{"report.md", "runs.csv", "sweep.svg"}},
	}
	broker, err := filepath.Abs(replaceSixPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.args[1] == "" {
			c.args[1] = broker
		}
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			code, wholeOut, stderr := simrun(t, append([]string{"compare", "--out", "out", "--workers", "2"}, c.args...)...)
			if code != exitOK {
				t.Fatalf("whole compare: exit %d: %s", code, stderr)
			}
			wholeFiles := readDir(t, "out")
			for _, name := range c.files {
				if _, err := os.Stat(filepath.Join("out", name)); err != nil {
					t.Errorf("whole compare wrote no %s", name)
				}
			}

			t.Chdir(t.TempDir())
			const shards = 3
			var files []string
			for k := range shards {
				file := fmt.Sprintf("shard-%d.jsonl", k)
				files = append(files, file)
				code, _, stderr := simrun(t, append([]string{"compare", "--shard", fmt.Sprintf("%d/%d", k, shards), "--jsonl", file,
					"--workers", "1", "--out", "ignored"}, c.args...)...)
				if code != exitOK {
					t.Fatalf("shard %d: exit %d: %s", k, code, stderr)
				}
				if data, err := os.ReadFile(file); err != nil || strings.Count(string(data), "\n") < 2 {
					t.Fatalf("shard %d wrote no pairs (%v):\n%s", k, err, data)
				}
			}
			if _, err := os.Stat("ignored"); err == nil {
				t.Errorf("a shard wrote its --out directory; only merge should")
			}
			code, mergeOut, stderr := simrun(t, "merge", "--out", "out", files[2], files[0], files[1])
			if code != exitOK {
				t.Fatalf("merge: exit %d: %s", code, stderr)
			}
			if mergeOut != wholeOut {
				t.Errorf("merged summary differs from the whole comparison's:\n--- whole\n%s\n--- merged\n%s", wholeOut, mergeOut)
			}
			mergeFiles := readDir(t, "out")
			if len(mergeFiles) != len(wholeFiles) {
				t.Fatalf("merge wrote %d files, the whole comparison %d", len(mergeFiles)/2, len(wholeFiles)/2)
			}
			for i := 0; i < len(wholeFiles); i += 2 {
				if mergeFiles[i] != wholeFiles[i] || mergeFiles[i+1] != wholeFiles[i+1] {
					t.Errorf("merged %s differs from the whole comparison's %s", mergeFiles[i], wholeFiles[i])
				}
			}
		})
	}
}

// TestCompareMergeRejectsBadShardSets: a missing, duplicate, incomplete or
// foreign shard, and a sweep shard among a comparison's, exit 2 with a
// message naming the problem, and write no report.
func TestCompareMergeRejectsBadShardSets(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	dir := t.TempDir()
	shard := func(name, seeds, k string) string {
		path := filepath.Join(dir, name)
		code, _, stderr := simrun(t, "compare", "--scenario", "leader-knows-hro", "--seeds", seeds, "--profile", "kip",
			"--shard", k, "--jsonl", path)
		if code != exitOK {
			t.Fatalf("compare --shard %s: exit %d: %s", k, code, stderr)
		}
		return path
	}
	s0, s1, s2 := shard("s0.jsonl", "1..3", "0/3"), shard("s1.jsonl", "1..3", "1/3"), shard("s2.jsonl", "1..3", "2/3")
	other := shard("other.jsonl", "1..4", "2/3")
	sweep := filepath.Join(dir, "sweep.jsonl")
	if code, _, stderr := simrun(t, "sweep", "--seeds", "1..3", "--shard", "0/1", "--jsonl", sweep,
		"--out", filepath.Join(dir, "sweep-out"), "--shrink", "0"); code == exitBadInput {
		t.Fatalf("sweep shard: exit 2: %s", stderr)
	}
	data, err := os.ReadFile(s1)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	cut := filepath.Join(dir, "s1-cut.jsonl")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "out")
	cases := []struct {
		name  string
		args  []string
		other bool // a message from the sweep merge: only the exit code is checked
		want  string
	}{
		{"missing", []string{s0, s2}, false, "missing shard 1/3"},
		{"duplicate", []string{s0, s1, s1, s2}, false, "is in both"},
		{"incomplete", []string{s0, cut, s2}, false, "are in no file (first: [4]): shard 1/3 is absent or incomplete"},
		{"other comparison", []string{s0, s1, other}, false, "not shards of the same comparison"},
		{"sweep among compare", []string{s0, s1, s2, sweep}, false, "not a compare shard file"},
		{"compare among sweep", []string{sweep, s0}, true, ""},
		{"shrink", []string{"--shrink", "5", s0, s1, s2}, false, "--shrink"},
	}
	broker, err := filepath.Abs(replaceSixPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.args[1] == "" {
			c.args[1] = broker
		}
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := simrun(t, append([]string{"merge", "--out", out}, c.args...)...)
			if code != exitBadInput || !strings.Contains(stderr, c.want) {
				t.Errorf("merge %v: exit %d, want 2 with %q in: %s", c.args, code, c.want, stderr)
			}
			if _, err := os.Stat(filepath.Join(out, "report.md")); err == nil {
				t.Errorf("merge %v wrote a report", c.args)
			}
		})
	}
	if code, _, stderr := simrun(t, "merge", "--out", out, s2, s1, s0); code != exitOK {
		t.Errorf("merge of every shard: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"--shard", "1/3"},
		{"--resume-from", "3"},
		{"--shard", "3/3", "--jsonl", filepath.Join(dir, "x.jsonl")},
	} {
		code, _, stderr := simrun(t, append([]string{"compare", "--scenario", "leader-knows-hro", "--seeds", "1..2"}, args...)...)
		if code != exitBadInput || !strings.Contains(stderr, args[0]) {
			t.Errorf("compare %v: exit %d, want 2 naming %s: %s", args, code, args[0], stderr)
		}
	}
}
