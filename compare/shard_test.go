package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tierfetch/config"
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

// parseArgs makes the comparison of --name=value args, as simrun compare
// parses its flags (merge parses a shard header's this way), writing its
// report to out.
func parseArgs(out string, extra Config) func(args []string) (*Setup, error) {
	return func(args []string) (*Setup, error) {
		f := extra
		f.Seeds, f.Profiles, f.Workers, f.Out = "1..20", DefaultProfiles, 1, out
		if f.Fix == "" {
			f.Fix = oneFix
		}
		f.MaxSteps, f.MaxInput, f.Names = harness.DefaultMaxSteps, scenarios.DefaultMaxInputBytes, flagNames
		for _, a := range args {
			name, v, ok := strings.Cut(strings.TrimPrefix(a, "--"), "=")
			if !ok {
				v = "true" // a boolean flag
			}
			switch name {
			case "scenario":
				f.Scenario = v
			case "generated":
				f.Generated = v == "true"
			case "seeds":
				f.Seeds = v
			case "vary":
				f.Vary = v
			case "profiles":
				f.Profiles = v
			case "profile":
				f.Profile = v
			case "max-steps":
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					return nil, err
				}
				f.MaxSteps = n
			}
			given(&f, name, v)
		}
		return New(f)
	}
}

// oneFix is the --fix the tests of shards, merges and counts give, so that
// each pair is one run of each protocol: without --fix a comparison runs
// every pair again with --fix all (TestPairsBound counts that doubling).
var oneFix = model.FixNames()[0]

// mustSetup is parseArgs that fails the test on an error.
func mustSetup(t *testing.T, out string, extra Config, args ...string) *Setup {
	t.Helper()
	s, err := parseArgs(out, extra)(args)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return s
}

// reportFiles reads the report a comparison wrote into dir.
func reportFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range ReportFiles {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			files[name] = data
		}
	}
	if files["report.md"] == nil || files["runs.csv"] == nil {
		t.Fatalf("%s: no report.md or runs.csv (%d files)", dir, len(files))
	}
	return files
}

// smallArgs is a small comparison: one scenario, two varied values, two
// profiles, three seeds (12 jobs).
var smallArgs = []string{"--profiles=kip,kafka-4.3", "--scenario=leader-knows-hro", "--seeds=1..3", "--vary=local_retention_bytes=1048576,-2"}

// TestShardsMergeToTheWholeComparison: a comparison run whole, and the
// same run as three shards (one stopped before its third job and resumed
// from there, in a second part file), merge to the
// same report, byte for byte; each file holds only its shard's jobs, and
// the interrupted part's header says where it stopped.
func TestShardsMergeToTheWholeComparison(t *testing.T) {
	t.Chdir(t.TempDir()) // the report names its --out; both write "out"
	whole := mustSetup(t, "out", Config{}, smallArgs...)
	pairs, sweep, held := whole.Jobs()
	if pairs != 12 || sweep != 0 || held != 12 {
		t.Fatalf("jobs %d+%d, held %d, want 12+0 held 12", pairs, sweep, held)
	}
	if got, want := whole.JobsText(), "12 pairs = 3 scenario-seed pairs x 2 values x 2 profiles"; got != want {
		t.Errorf("JobsText %q, want %q", got, want)
	}
	calls := 0
	r := whole.Run(context.Background(), func(done, held int) {
		calls++
		if held != 12 || done > held {
			t.Errorf("progress(%d, %d)", done, held)
		}
	})
	if !r.Complete || r.StoppedAt != 12 || calls != 12 {
		t.Fatalf("whole run: complete %v stopped at %d, %d progress calls", r.Complete, r.StoppedAt, calls)
	}
	if _, err := whole.Report(r.Pairs, r.SweepPairs); err != nil {
		t.Fatal(err)
	}
	want := reportFiles(t, "out")
	if err := os.Rename("out", "whole"); err != nil {
		t.Fatal(err)
	}

	var files []string
	for k := range 3 {
		shard := strconv.Itoa(k) + "/3"
		jsonl := "shard-" + strconv.Itoa(k) + ".jsonl"
		s := mustSetup(t, "out", Config{Shard: shard, JSONL: jsonl}, smallArgs...)
		if _, _, held := s.Jobs(); held != 4 {
			t.Errorf("shard %s holds %d jobs, want 4", shard, held)
		}
		r := s.Run(context.Background(), func(int, int) {})
		if k == 1 {
			// As if interrupted before job 7: jobs 1 and 4 ran.
			r.Complete, r.StoppedAt = false, 7
		}
		if part, err := s.SavePart(r); err != nil || part != jsonl {
			t.Fatalf("SavePart: %q %v", part, err)
		}
		files = append(files, jsonl)
		lines := readLines(t, jsonl)
		for _, l := range lines[1:] {
			if job := int(l["job"].(float64)); job%3 != k {
				t.Errorf("%s holds job %d", jsonl, job)
			}
		}
		if k != 1 {
			if !r.Complete || len(lines) != 5 {
				t.Errorf("shard %s: complete %v, %d lines, want 5", shard, r.Complete, len(lines))
			}
			continue
		}
		// The interrupted shard: its jobs are 1, 4, 7 and 10; it holds
		// those before job 7.
		at := r.StoppedAt
		if len(lines) != 3 || lines[0]["stopped_at_job"] != float64(at) {
			t.Fatalf("interrupted shard: %d lines, header %v", len(lines), lines[0])
		}
		text := s.ResumeText("interrupt", r, jsonl)
		next := "shard-1.from-" + strconv.Itoa(at) + ".jsonl"
		for _, w := range []string{"before job " + strconv.Itoa(at) + " of 12", "--resume-from=" + strconv.Itoa(at), "--shard=1/3", "--jsonl=" + next,
			"simrun merge --out out shard-1.jsonl " + next} {
			if !strings.Contains(text, w) {
				t.Errorf("ResumeText lacks %q:\n%s", w, text)
			}
		}
		rest := mustSetup(t, "out", Config{Shard: shard, JSONL: next, ResumeFrom: r.StoppedAt}, smallArgs...)
		if _, _, held := rest.Jobs(); held != 4-at/3 {
			t.Errorf("resumed shard holds %d jobs, want %d", held, 4-at/3)
		}
		rr := rest.Run(context.Background(), func(int, int) {})
		if err := rest.WritePart(next, rr); err != nil {
			t.Fatal(err)
		}
		if lines := readLines(t, next); len(lines) != 5-at/3 || lines[0]["from_job"] != float64(at) {
			t.Errorf("resumed part: %d lines, header %v", len(lines), lines[0])
		}
		files = append(files, next)
	}
	m, mp, ms, err := Merge(files, scenarios.DefaultMaxInputBytes, parseArgs("out", Config{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(mp) != 12 || len(ms) != 0 {
		t.Fatalf("merged %d+%d pairs", len(mp), len(ms))
	}
	if _, err := m.Report(mp, ms); err != nil {
		t.Fatal(err)
	}
	got := reportFiles(t, "out")
	for name, data := range want {
		if !bytes.Equal(got[name], data) {
			t.Errorf("%s of the merged shards differs from the whole comparison's", name)
		}
	}
	if len(got) != len(want) {
		t.Errorf("merged report has %d files, the whole %d", len(got), len(want))
	}
}

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	return out
}

// shardSet writes the two shards of a small comparison (seeds 1..2, one
// profile, 2 jobs each) into dir and returns their lines, as text.
func shardSet(t *testing.T, dir string) [2][]string {
	t.Helper()
	var out [2][]string
	for k := range 2 {
		path := filepath.Join(dir, "ok-"+strconv.Itoa(k)+".jsonl")
		s := mustSetup(t, "out", Config{Shard: strconv.Itoa(k) + "/2", JSONL: path}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..4")
		if err := s.WritePart(path, s.Run(context.Background(), func(int, int) {})); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(path)
		out[k] = strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	return out
}

// edit returns line (a JSON object) with key set to value (raw JSON), or
// removed when value is "".
func edit(t *testing.T, line, key, value string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	if value == "" {
		delete(m, key)
	} else {
		m[key] = json.RawMessage(value)
	}
	data, _ := json.Marshal(m)
	return string(data)
}

// editRun returns a pair line with field key of its run (local or
// tiered) set to value.
func editRun(t *testing.T, line, run, key, value string) string {
	t.Helper()
	var m map[string]json.RawMessage
	json.Unmarshal([]byte(line), &m)
	return edit(t, line, run, edit(t, string(m[run]), key, value))
}

// TestMergeRefusesWhatIsNotOneComparison: merge refuses, naming the file,
// line and what is wrong, every set of files that is not each pair of one
// comparison exactly once as it ran: missing or doubled shards and jobs,
// shards of another comparison or of edited scenarios, headers that
// contradict their lines, and pair lines whose runs no simrun writes.
func TestMergeRefusesWhatIsNotOneComparison(t *testing.T) {
	dir := t.TempDir()
	ok := shardSet(t, dir)
	other := mustSetup(t, "out", Config{Shard: "1/2", JSONL: filepath.Join(dir, "other.jsonl")}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..6")
	if err := other.WritePart(filepath.Join(dir, "other.jsonl"), other.Run(context.Background(), func(int, int) {})); err != nil {
		t.Fatal(err)
	}
	head0, head1 := ok[0][0], ok[1][0]
	pair0 := ok[0][1] // job 0
	write := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		text := strings.Join(lines, "\n") + "\n"
		if len(lines) == 0 {
			text = ""
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	shard1 := write("s1.jsonl", ok[1]...)
	stopped := edit(t, head0, "stopped_at_job", "2")
	cases := []struct {
		name  string
		files []string
		want  string
	}{
		{"one shard of two", []string{write("a", ok[0]...)}, "1 of 2 shards given: missing shard 1/2"},
		{"a shard twice", []string{write("b", ok[0]...), write("b2", ok[0]...), shard1}, "job 0 is in both"},
		{"another comparison", []string{write("c", ok[0]...), filepath.Join(dir, "other.jsonl")}, "are not shards of the same comparison: flags"},
		{"another split", []string{write("d", append([]string{edit(t, head0, "shard", `"0/3"`)}, ok[0][1:]...)...), shard1}, "split in 3 and in 2"},
		{"edited scenarios", []string{write("e", append([]string{edit(t, head0, "content_digest", `"0123456789abcdef"`)}, ok[0][1:]...)...),
			write("e1", append([]string{edit(t, head1, "content_digest", `"0123456789abcdef"`)}, ok[1][1:]...)...)}, "a scenario file changed after the shards ran"},
		{"digests differ", []string{write("f", append([]string{edit(t, head0, "content_digest", `"0123456789abcdef"`)}, ok[0][1:]...)...), shard1}, "content_digest 0123456789abcdef vs"},
		{"no digest", []string{write("g", append([]string{edit(t, head0, "content_digest", "")}, ok[0][1:]...)...), shard1}, "absent (a shard of an older simrun)"},
		{"a job missing", []string{write("h", ok[0][:2]...), shard1}, "1 of the comparison's jobs 0..3 are in no file (first: [2]): shard 0/2 is absent or incomplete"},
		{"an interrupted shard", []string{write("i", stopped, pair0), shard1}, "1 of the comparison's jobs 0..3 are in no file (first: [2]): shard 0/2 is absent or incomplete; " + filepath.Join(dir, "i") + " stopped at job 2 (interrupted: resume it with ResumeFrom 2)"},
		{"another shard's job", []string{write("j", ok[0][0], edit(t, ok[1][1], "job", "1"), ok[0][2]), shard1}, "job 1 is not shard 0/2's"},
		{"a job of the wrong pair", []string{write("k", ok[0][0], edit(t, pair0, "seed", "3"), ok[0][2]), shard1}, "job 0 is leader-knows-hro seed 3 profile kip fix " + oneFix + ", this comparison's job 0 is leader-knows-hro seed 1 profile kip fix " + oneFix},
		{"a job past the end", []string{write("l", ok[0][0], pair0, edit(t, ok[0][2], "job", "4")), shard1}, "job 4 outside the comparison's jobs 0..3"},
		{"more lines than jobs", []string{write("m", ok[0][0], pair0, pair0, pair0, pair0, pair0), shard1}, "job 0 after job 0: jobs must rise"},
		{"other counts of jobs and sweep jobs", []string{write("m2", edit(t, edit(t, head0, "pairs", "3"), "sweep_pairs", "1"), pair0, pair0, pair0, pair0, pair0), shard1},
			"are not shards of the same comparison: pairs 3+1 vs 4+0"},
		{"a line before from_job", []string{write("n", edit(t, head0, "from_job", "2"), pair0), shard1}, "job 0 outside the jobs the header says the file holds (from_job 2, stopped_at_job none)"},
		{"a line at stopped_at_job", []string{write("o2", edit(t, head0, "stopped_at_job", "2"), pair0, ok[0][2]), shard1}, "job 2 outside the jobs the header says the file holds (from_job 0, stopped_at_job 2)"},
		{"one shard of seven", []string{write("o3", edit(t, head0, "shard", `"0/7"`))}, "1 of 7 shards given: missing shard 1/7, 2/7, 3/7, 4/7, 5/7"},
		{"a line past stopped_at_job", []string{write("o", edit(t, head0, "stopped_at_job", "1"), pair0, ok[0][2]), shard1}, "job 2 outside the jobs the header says the file holds (from_job 0, stopped_at_job 1)"},
		{"from_job past the jobs", []string{write("p", edit(t, head0, "from_job", "5")), shard1}, "from_job: 5 outside the jobs 0..4"},
		{"stopped before from_job", []string{write("q", edit(t, edit(t, head0, "from_job", "2"), "stopped_at_job", "1")), shard1}, "stopped_at_job: 1 outside the jobs 2..4"},
		{"negative pairs", []string{write("r", edit(t, head0, "pairs", "-1")), shard1}, "pairs -1, sweep_pairs 0: want 0..200000 in all"},
		{"too many pairs", []string{write("r2", edit(t, head0, "sweep_pairs", "200000")), shard1}, "want 0..200000 in all"},
		{"a bad shard", []string{write("s", edit(t, head0, "shard", `"2/2"`)), shard1}, ":1: shard:"},
		{"another format", []string{write("u", edit(t, head0, "tierfetch_compare", "2")), shard1}, "compare shard format 2, this simrun reads 1"},
		{"a sweep shard", []string{write("v", `{"tierfetch_sweep": 1}`), shard1}, ":1: not a compare shard file"},
		{"not JSON", []string{write("w", head0, "{"), shard1}, filepath.Join(dir, "w") + ":2:"},
		{"an empty file", []string{write("x"), shard1}, "empty: not a shard file"},
		{"a pair without its tiered run", []string{write("y", head0, edit(t, pair0, "tiered", "")), shard1}, "job 0: a pair wants both runs (local and tiered)"},
		{"an unknown outcome", []string{write("z1", head0, editRun(t, pair0, "local", "Outcome", `"fine"`)), shard1}, `local.Outcome: unknown outcome "fine"`},
		{"an unknown invariant", []string{write("z2", head0, editRun(t, pair0, "tiered", "Invariant", `"no-bugs"`)), shard1}, `tiered.Invariant: unknown invariant "no-bugs"`},
		{"an unknown kind", []string{write("z3", head0, editRun(t, pair0, "local", "Kind", `"feature"`)), shard1}, `local.Kind: unknown kind "feature"`},
		{"a bad digest", []string{write("z4", head0, editRun(t, pair0, "local", "Digest", `"xyz"`)), shard1}, `local.Digest: want 16 hex digits (a run's digest), got "xyz"`},
		{"a negative count", []string{write("z5", head0, editRun(t, pair0, "tiered", "Steps", "-1")), shard1}, "tiered: a negative count"},
		{"a missing file", []string{filepath.Join(dir, "none"), shard1}, "no such file"},
	}
	for _, c := range cases {
		_, _, _, err := Merge(c.files, scenarios.DefaultMaxInputBytes, parseArgs("out", Config{}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// At most five missing shards are named.
	if _, _, _, err := Merge([]string{write("o4", edit(t, head0, "shard", `"0/8"`))}, scenarios.DefaultMaxInputBytes, parseArgs("out", Config{})); err == nil ||
		!strings.HasSuffix(err.Error(), "1 of 8 shards given: missing shard 1/8, 2/8, 3/8, 4/8, 5/8") {
		t.Errorf("one shard of eight: %v", err)
	}
	// The input limit, by size and when a file grows past it while read.
	big := write("big", ok[0]...)
	if _, _, _, err := Merge([]string{big, shard1}, 100, parseArgs("out", Config{})); err == nil || !strings.Contains(err.Error(), "more than the input limit of 100") {
		t.Errorf("a file over the input limit: %v", err)
	}
	// Flags merge cannot make again, and a simrun that makes other jobs of them.
	if _, _, _, err := Merge([]string{write("ba", ok[0]...), shard1}, scenarios.DefaultMaxInputBytes, func([]string) (*Setup, error) {
		return nil, os.ErrInvalid
	}); err == nil || !strings.Contains(err.Error(), "merge: the shards' compare flags --profiles=kip --scenario=leader-knows-hro --seeds=1..4") {
		t.Errorf("unparsable flags: %v", err)
	}
	if _, _, _, err := Merge([]string{write("bb", edit(t, head0, "pairs", "5"), pair0), write("bc", append([]string{edit(t, head1, "pairs", "5")}, ok[1][1:]...)...)},
		scenarios.DefaultMaxInputBytes, parseArgs("out", Config{})); err == nil || !strings.Contains(err.Error(), "the shards ran 5+0 pairs, this simrun makes 4+0") {
		t.Errorf("other jobs of the same flags: %v", err)
	}
	// The good set merges, in either order.
	for _, files := range [][]string{{write("ok0", ok[0]...), shard1}, {shard1, write("ok0", ok[0]...)}} {
		_, pairs, _, err := Merge(files, scenarios.DefaultMaxInputBytes, parseArgs("out", Config{}))
		if err != nil || len(pairs) != 4 || pairs[3].Seed != 4 || pairs[0].Local == nil {
			t.Errorf("the good shards: %d pairs, %v", len(pairs), err)
		}
	}
}

// TestBadFlags: every bad compare flag is refused before anything runs,
// naming the flag and what was wrong.
func TestBadFlags(t *testing.T) {
	base := func(f Config) Config {
		if f.Seeds == "" {
			f.Seeds = "1..2"
		}
		if f.Profiles == "" {
			f.Profiles = "kip"
		}
		if f.Workers == 0 {
			f.Workers = 1
		}
		if f.Fix == "" {
			f.Fix = oneFix
		}
		if f.Out == "" {
			f.Out = "out"
		}
		f.MaxSteps, f.MaxInput = harness.DefaultMaxSteps, scenarios.DefaultMaxInputBytes
		return f
	}
	cases := []struct {
		f    Config
		want string
	}{
		{Config{ResumeFrom: -1, JSONL: "x"}, "ResumeFrom: want a job number >= 0, got -1"},
		{Config{ResumeFrom: 3}, "ResumeFrom: give JSONL FILE"},
		// Past the last job the part would hold nothing, under a header merge refuses.
		{Config{ResumeFrom: 9223372036854775807, JSONL: "x", Scenario: "tiering-off", Seeds: "1..3", Profiles: "kip"}, "ResumeFrom: want a job number in 0..3 (the comparison has 3 jobs), got 9223372036854775807"},
		{Config{ResumeFrom: 4, JSONL: "x", Scenario: "tiering-off", Seeds: "1..3", Profiles: "kip"}, "ResumeFrom: want a job number in 0..3"},
		{Config{Shard: "0/2"}, "Shard: give JSONL FILE"},
		{Config{Shard: "2/2", JSONL: "x"}, "Shard:"},
		{Config{Seeds: "x"}, "Seeds:"},
		{Config{Seeds: "1..1000001"}, "Seeds: at most 1000000 seeds"},
		{Config{Profiles: "kip,nope"}, `Profiles: want one of kafka-4.3, kafka-trunk, kip, got "nope"`},
		{Config{Profiles: "kip, kip"}, `Profiles: profile "kip" given twice`},
		{Config{Profile: "kip", Changed: map[string]bool{"Profile": true, "Profiles": true}}, "Profile: give Profile or Profiles, not both"},
		{Config{Profile: "kip,kafka-4.3", Changed: map[string]bool{"Profile": true}}, "Profile: want one profile"},
		{Config{Profile: "nope", Changed: map[string]bool{"Profile": true}}, `Profile: want one of kafka-4.3, kafka-trunk, kip, got "nope"`},
		{Config{Workers: 1025}, "Workers: want 1..1024, got 1025"},
		{Config{Workers: -1}, "Workers: want 1..1024, got -1"},
		{Config{Generated: true, Scenario: "tiering-off"}, "give Scenario or Generated, not both"},
		{Config{Scenario: "no-such-scenario"}, "Scenario:"},
		{Config{Scenario: "tiering-off", Vary: "nope=1"}, `Vary: unknown key "nope"`},
		// One number spelt twice ran every pair twice, the report calling the second "0.10 (0.1)".
		{Config{Scenario: "tiering-off", Vary: "remote_error_rate=0.1,0.10"}, `Vary remote_error_rate: value "0.10" given twice (as "0.1")`},
		{Config{Scenario: "tiering-off", Vary: "remote_error_rate=1,1.0"}, `Vary remote_error_rate: value "1.0" given twice (as "1")`},
		{Config{Scenario: "tiering-off", Vary: "local_retention_bytes=0,-0"}, `Vary local_retention_bytes: value "-0" given twice (as "0")`},
		{Config{Seeds: "1..70000", Profiles: "kip,kafka-4.3,kafka-trunk", Scenario: "tiering-off"}, "70000 seeds x 3 profiles, values and scenarios = 210000 pairs, at most 200000"},
	}
	for _, c := range cases {
		if _, err := New(base(c.f)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.f, err, c.want)
		}
	}
	if _, err := New(Config{Seeds: "1", Profiles: "kip", Workers: 1}); err == nil || !strings.Contains(err.Error(), "Out: want a directory") {
		t.Errorf("no --out: %v", err)
	}
	// --profile alone is the one-profile form; at the limits, flags pass.
	s, err := New(base(Config{Profile: "kafka-4.3", Profiles: DefaultProfiles, Changed: map[string]bool{"Profile": true}, Workers: 1024, Seeds: "1..66666", Scenario: "tiering-off"}))
	if err != nil || len(s.profiles) != 1 || s.profiles[0].Name() != "kafka-4.3" {
		t.Errorf("--profile kafka-4.3: %v", err)
	}
	// A million seeds pass --seeds and meet the bound on pairs.
	if _, err := New(base(Config{Seeds: "1..1000000", Scenario: "tiering-off"})); err == nil || !strings.Contains(err.Error(), "1000000 seeds x 1 profiles") {
		t.Errorf("a million seeds: %v", err)
	}
}

// TestCheckRefusesBadVariedScenarios: a varied value no scenario can take
// is bad input and a scenario predicted past the work budget is a budget
// error, both before anything runs.
func TestCheckRefusesBadVariedScenarios(t *testing.T) {
	s := mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1", "--vary=segment_bytes=0")
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "Vary segment_bytes=0 on scenario leader-knows-hro") {
		t.Errorf("segment_bytes=0: %v", err)
	}
	s = mustSetup(t, "out", Config{}, "--profiles=kip", "--generated", "--seeds=1..2", "--vary=segment_bytes=0")
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "segment_bytes") {
		t.Errorf("--generated, segment_bytes=0: %v", err)
	}
	s = mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=local-retention-sweep", "--seeds=1", "--max-steps=10")
	var be *harness.BudgetError
	if err := s.Check(); err == nil || !asBudget(err, &be) {
		t.Errorf("--max-steps 10: %v, want a budget error", err)
	}
	s = mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=local-retention-sweep", "--seeds=1", "--max-steps=10", "--vary=produce_scale=1")
	if err := s.Check(); err == nil || !asBudget(err, &be) {
		t.Errorf("--max-steps 10, varied: %v, want a budget error", err)
	}
	// A varied value past the budget, the scenario within it.
	sc, _ := scenarios.Lookup("leader-knows-hro")
	within, _ := harness.PredictSteps(sc)
	s = mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1", fmt.Sprintf("--max-steps=%d", within),
		"--vary=remote_log_manager_task_interval_ms=30000,1")
	if err := s.Check(); err == nil || !asBudget(err, &be) || be.MaxSteps != within {
		t.Errorf("remote_log_manager_task_interval_ms=1 at --max-steps %d: %v, want a budget error", within, err)
	}
	// The default comparison checks its sweep too.
	s = mustSetup(t, "out", Config{}, "--profiles=kip", "--seeds=1", "--max-steps=1000")
	if err := s.Check(); err == nil || !asBudget(err, &be) {
		t.Errorf("the default comparison at --max-steps 1000: %v, want a budget error", err)
	}
	s = mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..2", "--vary=produce_scale=2")
	if err := s.Check(); err != nil {
		t.Errorf("a good comparison: %v", err)
	}
}

func asBudget(err error, be **harness.BudgetError) bool {
	b, ok := err.(*harness.BudgetError)
	*be = b
	return ok
}

// TestBudgetRunsAreCounted: runs stopped by the work budget are counted,
// and a shard that wrote its pairs says to raise --max-steps.
func TestBudgetRunsAreCounted(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "p.jsonl")
	s := mustSetup(t, "out", Config{Shard: "0/1", JSONL: jsonl}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..2", "--max-steps=100")
	r := s.Run(context.Background(), func(int, int) {})
	if n := BudgetRuns(r.Pairs); n != 4 {
		t.Errorf("%d runs stopped by the budget, want 4 (2 pairs of 2 runs)", n)
	}
	text, n := s.ShardText(r)
	if n != 4 || !strings.Contains(text, "4 runs reached the work budget of 100 steps: raise --max-steps") ||
		!strings.Contains(text, "compare shard 0/1: 2 of 2 pairs = 2 scenario-seed pairs written to "+jsonl) {
		t.Errorf("ShardText: %d, %q", n, text)
	}
	s = mustSetup(t, "out", Config{Shard: "0/1", JSONL: jsonl}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..2")
	if text, n := s.ShardText(s.Run(context.Background(), func(int, int) {})); n != 0 || strings.Contains(text, "budget") {
		t.Errorf("within the budget: %d, %q", n, text)
	}
	if BudgetRuns([]reports.ComparePair{{Local: &harness.RunMetrics{Outcome: harness.OutcomeBudget}}}) != 1 {
		t.Error("a pair with one run: not counted")
	}
}

// TestContentDigestNamesWhatRan: the content digest is the same for the
// same comparison, and changes with a flag that fixes it or with the
// scenario file's content.
func TestContentDigestNamesWhatRan(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sc.json")
	sc, _ := scenarios.Lookup("leader-knows-hro")
	data, _ := sc.Marshal()
	os.WriteFile(file, data, 0o644)
	digest := func(args ...string) string { return mustSetup(t, "out", Config{}, args...).ContentDigest() }
	a := digest("--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if len(a) != 16 || a != digest("--profiles=kip", "--scenario="+file, "--seeds=1..2") {
		t.Fatalf("digest %q is not stable", a)
	}
	for what, d := range map[string]string{
		"other seeds":    digest("--profiles=kip", "--scenario="+file, "--seeds=1..3"),
		"another vary":   digest("--profiles=kip", "--scenario="+file, "--seeds=1..2", "--vary=produce_scale=2"),
		"the named one":  digest("--profiles=kip", "--scenario=tiering-off", "--seeds=1..2"),
		"generated":      digest("--profiles=kip", "--generated", "--seeds=1..2"),
		"the default":    digest("--profiles=kip", "--seeds=1..2"),
		"other profiles": digest("--profiles=kip,kafka-4.3", "--scenario="+file, "--seeds=1..2"),
	} {
		if d == a {
			t.Errorf("%s: the same digest", what)
		}
	}
	os.WriteFile(file, bytes.Replace(data, []byte(`"seed": 1`), []byte(`"seed": 2`), 1), 0o644)
	if digest("--profiles=kip", "--scenario="+file, "--seeds=1..2") == a {
		t.Error("the scenario file changed: the same digest")
	}
	// --generated covers the first 64 seeds' scenarios: seeds past them
	// change only the flags.
	g1, g2 := digest("--profiles=kip", "--generated", "--seeds=1..100"), digest("--profiles=kip", "--generated", "--seeds=1..101")
	if g1 == g2 {
		t.Error("--generated 1..100 and 1..101: the same digest")
	}
}

// TestCheckOutputs: --jsonl is claimed once (a second comparison on it is
// refused) and may not be the scenario file; --out is made, and its
// report files may not be inputs.
func TestCheckOutputs(t *testing.T) {
	dir := t.TempDir()
	sc, _ := scenarios.Lookup("leader-knows-hro")
	data, _ := sc.Marshal()
	file := filepath.Join(dir, "sc.json")
	os.WriteFile(file, data, 0o644)
	jsonl := filepath.Join(dir, "p.jsonl")
	first := mustSetup(t, "out", Config{Shard: "0/2", JSONL: jsonl}, "--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if err := first.CheckOutputs(); err != nil {
		t.Fatal(err)
	}
	second := mustSetup(t, "out", Config{Shard: "1/2", JSONL: jsonl}, "--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if err := second.CheckOutputs(); err == nil || !names(err, "JSONL") {
		t.Errorf("a claimed --jsonl: %v", err)
	}
	if _, err := first.SavePart(first.Run(context.Background(), func(int, int) {})); err != nil {
		t.Fatal(err)
	}
	third := mustSetup(t, "out", Config{Shard: "1/2", JSONL: jsonl}, "--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if err := third.CheckOutputs(); err == nil || !strings.Contains(err.Error(), "may hold an earlier comparison's pairs") {
		t.Errorf("a written --jsonl: %v", err)
	}
	same := mustSetup(t, "out", Config{Shard: "1/2", JSONL: file}, "--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if err := same.CheckOutputs(); err == nil || !names(err, "JSONL") || !strings.Contains(err.Error(), "as Scenario ") {
		t.Errorf("--jsonl is the scenario file: %v", err)
	}
	out := filepath.Join(dir, "report")
	s := mustSetup(t, out, Config{}, "--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if err := s.CheckOutputs(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(out); err != nil || !fi.IsDir() {
		t.Errorf("--out not made: %v", err)
	}
	if err := s.CheckOutputs(outfile.Named{Flag: "shard", Path: filepath.Join(out, "runs.csv")}); err == nil || !names(err, "Out") {
		t.Errorf("a report file that is an input: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "afile"), nil, 0o644)
	s = mustSetup(t, filepath.Join(dir, "afile"), Config{}, "--profiles=kip", "--scenario="+file, "--seeds=1..2")
	if err := s.CheckOutputs(); err == nil || !names(err, "Out") {
		t.Errorf("--out is a file: %v", err)
	}
	if s.ScenarioArg() != file || mustSetup(t, "o", Config{}, "--profiles=kip", "--scenario=tiering-off", "--seeds=1").scenarioInput().Path != "" {
		t.Error("the scenario input: a named scenario is no file")
	}
}

// TestInterruptedWithoutJSONLSavesInOut: a comparison whose context ends
// starts no job after that (one ended before it starts runs none; one
// ended after its first pair runs at most the two its workers took before
// they saw it); without --jsonl it saves the pairs it ran in --out as
// pairs.jsonl, or the first pairs-N.jsonl free when an earlier one is
// there; a complete one saves nothing.
func TestInterruptedWithoutJSONLSavesInOut(t *testing.T) {
	out := t.TempDir()
	s := mustSetup(t, out, Config{}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..40")
	ctx, cancel := context.WithCancel(context.Background())
	r := s.Run(ctx, func(done, _ int) {
		if done == 1 {
			cancel()
		}
	})
	if r.Complete || r.StoppedAt < 1 || r.StoppedAt > 3 {
		t.Errorf("cancelled after the first pair: complete %v, stopped at %d", r.Complete, r.StoppedAt)
	}
	calls := 0
	r = s.Run(ctx, func(int, int) { calls++ })
	if r.Complete || r.StoppedAt != 0 || calls != 0 {
		t.Fatalf("cancelled before: complete %v stopped at %d after %d pairs", r.Complete, r.StoppedAt, calls)
	}
	sh := mustSetup(t, out, Config{Shard: "1/3", JSONL: filepath.Join(out, "x.jsonl")}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..40")
	if r := sh.Run(ctx, func(int, int) {}); r.Complete || r.StoppedAt != 1 {
		t.Errorf("shard 1/3 cancelled before: complete %v stopped at %d, want 1", r.Complete, r.StoppedAt)
	}
	for _, want := range []string{"pairs.jsonl", "pairs-2.jsonl", "pairs-3.jsonl"} {
		part, err := s.SavePart(r)
		if err != nil || part != filepath.Join(out, want) {
			t.Errorf("SavePart: %q %v, want %s", part, err, want)
		}
		if lines := readLines(t, part); len(lines) != 1 || lines[0]["stopped_at_job"] != float64(0) {
			t.Errorf("%s: %v", want, lines)
		}
	}
	os.WriteFile(filepath.Join(out, "pairs-2.jsonl"), nil, 0o644)
	if part, _ := s.SavePart(r); part != filepath.Join(out, "pairs-2.jsonl") {
		t.Errorf("an empty pairs-2.jsonl is free: saved to %s", part)
	}
	full := s.Run(context.Background(), func(int, int) {})
	if part, err := s.SavePart(full); part != "" || err != nil || !full.Complete || full.StoppedAt != 40 {
		t.Errorf("a complete comparison (complete %v, %d) saved a part: %q %v", full.Complete, full.StoppedAt, part, err)
	}
	text := s.ResumeText("terminated", r, filepath.Join(out, "pairs.jsonl"))
	if !strings.Contains(text, "interrupted by terminated before job 0 of 40") || strings.Contains(text, "--shard") {
		t.Errorf("ResumeText: %s", text)
	}
}

// TestReportWritesTheDefaultSweep: the default comparison (every named
// scenario that adds a replica, nothing varied) runs the default sweep
// beside it and its report holds the sweep's chart; a later comparison
// without one removes the earlier sweep chart.
func TestReportWritesTheDefaultSweep(t *testing.T) {
	t.Chdir(t.TempDir())
	s := mustSetup(t, "out", Config{}, "--profiles=kip", "--seeds=1")
	if s.SweepKey() != DefaultSweepKey {
		t.Fatalf("SweepKey %q", s.SweepKey())
	}
	pairs, sweep, _ := s.Jobs()
	if pairs != len(DefaultSet()) || sweep != 6 {
		t.Fatalf("jobs %d+%d, want %d+6", pairs, sweep, len(DefaultSet()))
	}
	r := s.Run(context.Background(), func(int, int) {})
	var sum bytes.Buffer
	if _, err := s.ReportSummary(&sum, r.Pairs, r.SweepPairs); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("out", reports.ChartSweep)); err != nil {
		t.Errorf("no sweep chart: %v", err)
	}
	if !strings.Contains(sum.String(), filepath.Join("out", "report.md")) {
		t.Errorf("the summary does not name the report:\n%s", sum.String())
	}
	want := reportFiles(t, "out")
	// Its three shards, the sweep's jobs among them, merge to the same report.
	var files []string
	for k := range 3 {
		jsonl := "s" + strconv.Itoa(k) + ".jsonl"
		sh := mustSetup(t, "out", Config{Shard: strconv.Itoa(k) + "/3", JSONL: jsonl}, "--profiles=kip", "--seeds=1")
		if err := sh.WritePart(jsonl, sh.Run(context.Background(), func(int, int) {})); err != nil {
			t.Fatal(err)
		}
		files = append(files, jsonl)
	}
	os.RemoveAll("out")
	m, mp, ms, err := Merge(files, scenarios.DefaultMaxInputBytes, parseArgs("out", Config{}))
	if err != nil || len(ms) != 6 {
		t.Fatalf("merge: %d sweep pairs, %v", len(ms), err)
	}
	if _, err := m.Report(mp, ms); err != nil {
		t.Fatal(err)
	}
	for name, data := range reportFiles(t, "out") {
		if !bytes.Equal(data, want[name]) {
			t.Errorf("%s of the merged default comparison differs", name)
		}
	}
	one := mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1")
	if one.SweepKey() != "" {
		t.Errorf("a one-scenario comparison has a sweep %q", one.SweepKey())
	}
	r = one.Run(context.Background(), func(int, int) {})
	if _, err := one.Report(r.Pairs, r.SweepPairs); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join("out", reports.ChartSweep)); err == nil {
		t.Error("the earlier sweep chart is still there")
	}
}

// TestVaryRangesAndProduceScale: a range field takes MS or MIN..MAX, as
// the scenario file's [min, max]; produce_scale multiplies every produce
// event's records, rounded, at least one.
func TestVaryRangesAndProduceScale(t *testing.T) {
	key, values, err := parseVary("network_latency_ms=3, 1..5,0..0")
	if err != nil || key != "network_latency_ms" || strings.Join(values, " ") != "3 1..5 0..0" {
		t.Fatalf("parseVary: %q %v %v", key, values, err)
	}
	for _, bad := range []string{"network_latency_ms=5..1", "network_latency_ms=-1", "network_latency_ms=1..x", "network_latency_ms=2,2",
		"produce_scale=true", "produce_scale=1001", "produce_scale=[1]", "segment_bytes=\"x\"", "segment_bytes=1,1", "tiering=1"} {
		if _, _, err := parseVary(bad); err == nil {
			t.Errorf("parseVary(%q) accepted", bad)
		}
	}
	if _, _, err := parseVary("produce_scale=1000,0.001"); err != nil {
		t.Errorf("produce_scale at its limit 1000: %v", err)
	}
	many := make([]string, 101)
	for i := range many {
		many[i] = strconv.Itoa(i + 1)
	}
	if _, _, err := parseVary("segment_bytes=" + strings.Join(many, ",")); err == nil || !strings.Contains(err.Error(), "at most 100 values, got 101") {
		t.Errorf("101 values: %v", err)
	}
	if _, _, err := parseVary("segment_bytes=" + strings.Join(many[:100], ",")); err != nil {
		t.Errorf("100 values: %v", err)
	}
	sc, _ := scenarios.Lookup("election-mid-bootstrap")
	varied, err := applyVary(sc, "network_latency_ms", "1..5")
	if err != nil || varied.Config.NetworkLatencyMs != [2]int64{1, 5} {
		t.Errorf("network_latency_ms 1..5: %v %v", varied.Config.NetworkLatencyMs, err)
	}
	if varied, err = applyVary(sc, "network_latency_ms", "7"); err != nil || varied.Config.NetworkLatencyMs != [2]int64{7, 7} {
		t.Errorf("network_latency_ms 7: %v %v", varied.Config.NetworkLatencyMs, err)
	}
	for _, factor := range []string{"2.5", "0.0001"} {
		varied, err := applyVary(sc, ProduceScaleKey, factor)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := strconv.ParseFloat(factor, 64)
		n := 0
		for i, e := range sc.Events {
			if e.Type != scenarios.EventProduce {
				continue
			}
			n++
			if want := max(1, int64(math.Round(float64(e.Records)*f))); varied.Events[i].Records != want {
				t.Errorf("produce_scale %s: event %d has %d records, want %d of %d", factor, i, varied.Events[i].Records, want, e.Records)
			}
		}
		if n == 0 {
			t.Fatal("the scenario has no produce event")
		}
	}
	s := mustSetup(t, "out", Config{}, "--profiles=kip", "--scenario=election-mid-bootstrap", "--seeds=1", "--vary=network_latency_ms=1..5,9")
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if got := s.command(); got != "go run ./cmd/simrun compare --scenario election-mid-bootstrap --seeds 1..1 --vary network_latency_ms=1..5,9 --profiles kip --fix "+oneFix+" --out out" {
		t.Errorf("command: %q", got)
	}
	if got := mustSetup(t, "o", Config{}, "--generated", "--seeds=2..3").command(); got != "go run ./cmd/simrun compare --generated --seeds 2..3 --fix "+oneFix+" --out o" {
		t.Errorf("command: %q", got)
	}
}

// TestReportSummaryCountsEveryBudgetRun: the summary counts the runs the
// work budget stopped among the comparison's pairs and the default
// sweep's alike, and says to raise it.
func TestReportSummaryCountsEveryBudgetRun(t *testing.T) {
	t.Chdir(t.TempDir())
	s := mustSetup(t, "out", Config{}, "--profiles=kip", "--seeds=1", "--max-steps=100")
	r := s.Run(context.Background(), func(int, int) {})
	var sum bytes.Buffer
	n, err := s.ReportSummary(&sum, r.Pairs, r.SweepPairs)
	if want := 2 * (len(r.Pairs) + len(r.SweepPairs)); err != nil || n != want || len(r.SweepPairs) == 0 {
		t.Fatalf("%d budget runs (%v), want %d: every run of %d pairs and %d of the sweep", n, err, want, len(r.Pairs), len(r.SweepPairs))
	}
	if !strings.Contains(sum.String(), "--max-steps") {
		t.Errorf("the summary does not say how to raise the budget:\n%s", sum.String())
	}
}

// TestCheckOutputsRefusesAReportFileItCannotWrite: a report file in --out
// that is not a file the report can replace (a directory) is refused
// before anything runs.
func TestCheckOutputsRefusesAReportFileItCannotWrite(t *testing.T) {
	out := t.TempDir()
	s := mustSetup(t, out, Config{}, "--profiles=kip", "--scenario=tiering-off", "--seeds=1")
	if err := s.CheckOutputs(); err != nil {
		t.Fatalf("an empty --out: %v", err)
	}
	os.Mkdir(filepath.Join(out, "runs.csv"), 0o755)
	if err := s.CheckOutputs(); err == nil || !names(err, "Out") || !strings.Contains(err.Error(), "runs.csv") {
		t.Errorf("runs.csv is a directory: %v", err)
	}
}

// TestRunsCSVHoldsEveryProfilesRuns: runs.csv has both runs of every pair
// under every profile, each row with its own run's digest and profile.
func TestRunsCSVHoldsEveryProfilesRuns(t *testing.T) {
	t.Chdir(t.TempDir())
	s := mustSetup(t, "out", Config{}, "--profiles=kip,kafka-4.3,kafka-trunk", "--scenario=leader-knows-hro", "--seeds=1..2")
	r := s.Run(context.Background(), func(int, int) {})
	if _, err := s.Report(r.Pairs, r.SweepPairs); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join("out", "runs.csv"))
	rows := strings.Split(strings.TrimSpace(string(data)), "\n")
	head := strings.Split(rows[0], ",")
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	got := map[string]bool{}
	for _, row := range rows[1:] {
		f := strings.Split(row, ",")
		got[f[col["profile"]]+" "+f[col["seed"]]+" "+f[col["strategy"]]+" "+f[col["digest"]]] = true
	}
	if len(rows)-1 != 2*len(r.Pairs) || len(r.Pairs) != 6 {
		t.Fatalf("%d rows for %d pairs", len(rows)-1, len(r.Pairs))
	}
	for _, p := range r.Pairs {
		for _, run := range []struct {
			st string
			m  *harness.RunMetrics
		}{{"local-log-start", p.Local}, {"last-tiered", p.Tiered}} {
			key := fmt.Sprintf("%s %d %s %s", p.Profile, p.Seed, run.st, run.m.Digest[:12])
			if !got[key] {
				t.Errorf("runs.csv has no row %q", key)
			}
		}
	}
}

// TestReportLinksFindingsAtTheRoot: run at the repository root (where
// FINDINGS.md is) with a relative --out, the report links FINDINGS.md
// relative to itself; elsewhere, or with an absolute --out, it does not.
func TestReportLinksFindingsAtTheRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	report := func(out string) string {
		s := mustSetup(t, out, Config{}, "--profiles=kip,kafka-4.3", "--scenario=leader-knows-hro", "--seeds=1")
		r := s.Run(context.Background(), func(int, int) {})
		if _, err := s.Report(r.Pairs, r.SweepPairs); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(out, "report.md"))
		return string(data)
	}
	if strings.Contains(report("a"), "FINDINGS.md)") {
		t.Error("a link to FINDINGS.md where there is none")
	}
	os.WriteFile("FINDINGS.md", []byte("# findings\n"), 0o644)
	if got := report(filepath.Join("b", "c")); !strings.Contains(got, "(../../FINDINGS.md)") {
		t.Error("no link to ../../FINDINGS.md from the report two directories down")
	}
	if strings.Contains(report(filepath.Join(dir, "d")), "FINDINGS.md)") {
		t.Error("a link to FINDINGS.md from an absolute --out")
	}
}

// TestPairsBound: a comparison of exactly 200,000 pairs (seeds x profiles
// x values x scenarios) is allowed, one pair more is refused, whatever the
// first seed.
func TestPairsBound(t *testing.T) {
	for _, c := range []struct {
		seeds, vary, fix string
		ok               bool
	}{
		// Without --fix every pair runs twice (without fixes, and with --fix all).
		{"1..50000", "", "", true}, {"1..50001", "", "", false},
		{"1..100000", "", oneFix, true}, {"1..100001", "", oneFix, false}, {"5..100004", "", oneFix, true}, {"5..100005", "", oneFix, false},
		{"1..50000", "segment_bytes=1048576,2097152", oneFix, true}, {"1..50001", "segment_bytes=1048576,2097152", oneFix, false},
		// The default set's scenarios, 2 profiles: the most seeds within the bound, and one more.
		{fmt.Sprintf("1..%d", 200000/(2*len(DefaultSet()))), "default set", oneFix, true},
		{fmt.Sprintf("1..%d", 200000/(2*len(DefaultSet()))+1), "default set", oneFix, false},
	} {
		scenario := "tiering-off"
		if c.vary == "default set" {
			scenario, c.vary = "", ""
		}
		f := Config{Seeds: c.seeds, Profiles: "kip,kafka-4.3", Scenario: scenario, Vary: c.vary, Fix: c.fix, Workers: 1, Out: "o",
			MaxSteps: harness.DefaultMaxSteps, MaxInput: scenarios.DefaultMaxInputBytes}
		_, err := New(f)
		if (err == nil) != c.ok || err != nil && !strings.Contains(err.Error(), "at most 200000") {
			t.Errorf("--seeds %s --vary %q: %v, want allowed %v", c.seeds, c.vary, err, c.ok)
		}
	}
}

// TestDefaultSetIsTheScenariosThatAddAReplica: the default comparison runs
// exactly the named scenarios that add a replica, the known findings'
// aside.
func TestDefaultSetIsTheScenariosThatAddAReplica(t *testing.T) {
	in := map[string]bool{}
	for _, sc := range DefaultSet() {
		in[sc.Name] = true
	}
	for _, sc := range scenarios.Named() {
		adds := false
		for _, e := range sc.Events {
			adds = adds || e.Type == scenarios.EventAddReplica
		}
		if want := adds && !strings.HasPrefix(sc.Name, "finding-"); in[sc.Name] != want {
			t.Errorf("%s (adds a replica: %v): in the default set %v", sc.Name, adds, in[sc.Name])
		}
	}
}

// TestUnknownVaryKeyListsTheKeys: a --vary key far from every key lists
// the config fields, then partition_count and produce_scale once, at the end.
func TestUnknownVaryKeyListsTheKeys(t *testing.T) {
	_, _, err := parseVary("qqqqqqqqqqqqqqqqqqqq=1")
	if err == nil {
		t.Fatal("accepted")
	}
	msg := err.Error()
	keys := sortStrings(mapKeysAny(ConfigKeys()))
	if !strings.Contains(msg, "e.g. "+keys[0]+", ") || !strings.HasSuffix(msg, ", "+keys[len(keys)-1]+", partition_count, or produce_scale)") ||
		strings.Count(msg, "produce_scale") != 1 {
		t.Errorf("message %q", msg)
	}
}

// TestReportCharts: the report draws the comparison's charts when some
// pair compared, the sweep chart when a value is varied, and the timeline
// of the pair it names, titled with that pair's scenario, profile, seed
// and varied value, with the command that draws it alone (none for a
// varied value); with no pair compared (every run stopped by its budget)
// it has no chart.
func TestReportCharts(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	sc, _ := scenarios.Lookup("leader-knows-hro")
	data, _ := sc.Marshal()
	os.WriteFile("file.json", data, 0o644)
	timelineRe := regexp.MustCompile("## Timeline of one seed\n\n`([^`]+)` seed ([0-9]+)(?: at `([^`]+)` = ([^:]+))?:")
	for _, c := range []struct {
		name    string
		args    []string
		charts  []string // besides none
		command string   // with SEED for the picked seed
	}{
		{"varied", []string{"--profiles=kafka-4.3,kip", "--scenario=leader-knows-hro", "--seeds=1..2", "--vary=local_retention_bytes=1048576,-2"},
			[]string{reports.ChartCopy, reports.ChartCDF, reports.ChartPaired, reports.ChartSweep, reports.ChartTimeline}, ""},
		{"file", []string{"--profiles=kafka-4.3", "--scenario=file.json", "--seeds=1..2"},
			[]string{reports.ChartCopy, reports.ChartCDF, reports.ChartPaired, reports.ChartTimeline},
			"go run ./cmd/simrun run --scenario file.json --seed SEED --profile kafka-4.3 --timeline timeline.svg"},
		{"default", []string{"--profiles=kip", "--seeds=1"},
			[]string{reports.ChartCopy, reports.ChartCDF, reports.ChartPaired, reports.ChartSweep, reports.ChartTimeline},
			"go run ./cmd/simrun run --scenario SCENARIO --seed SEED --timeline timeline.svg"},
		{"generated", []string{"--profiles=kip", "--generated", "--seeds=1..6"},
			[]string{reports.ChartCopy, reports.ChartCDF, reports.ChartPaired, reports.ChartTimeline},
			"go run ./cmd/simrun gen --seed SEED --out gen-SEED.json\ngo run ./cmd/simrun run --scenario gen-SEED.json --seed SEED --timeline timeline.svg"},
		{"budget", []string{"--profiles=kip", "--scenario=leader-knows-hro", "--seeds=1..2", "--max-steps=100", "--vary=local_retention_bytes=1048576,-2"}, nil, ""},
		{"default budget", []string{"--profiles=kip", "--seeds=1", "--max-steps=100"}, nil, ""},
	} {
		out := c.name
		s := mustSetup(t, out, Config{}, c.args...)
		r := s.Run(context.Background(), func(int, int) {})
		if _, err := s.Report(r.Pairs, r.SweepPairs); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var charts []string
		for _, name := range ReportFiles {
			if _, err := os.Stat(filepath.Join(out, name)); err == nil && strings.HasSuffix(name, ".svg") {
				charts = append(charts, name)
			}
		}
		slices.Sort(charts)
		want := slices.Sorted(slices.Values(c.charts))
		if !slices.Equal(charts, want) {
			t.Errorf("%s: charts %v, want %v", c.name, charts, want)
		}
		if !slices.Contains(c.charts, reports.ChartTimeline) {
			continue
		}
		md, _ := os.ReadFile(filepath.Join(out, "report.md"))
		m := timelineRe.FindStringSubmatch(string(md))
		if m == nil {
			t.Errorf("%s: report.md names no timeline pair", c.name)
			continue
		}
		profile := strings.TrimPrefix(strings.Split(c.args[0], ",")[0], "--profiles=")
		also := ""
		if m[3] != "" {
			also = m[3] + "=" + m[4]
		}
		seed, _ := strconv.ParseUint(m[2], 10, 64)
		name := m[1]
		if name == "generated" {
			name = gen.Generate(seed).Name // the seed's scenario
		}
		title := reports.TimelineTitle(name, profile, seed, also)
		svg, _ := os.ReadFile(filepath.Join(out, reports.ChartTimeline))
		if !strings.Contains(string(svg), title) {
			t.Errorf("%s: the timeline is not titled %q", c.name, title)
		}
		cmd := strings.NewReplacer("SEED", m[2], "SCENARIO", m[1]).Replace(c.command)
		if cmd == "" && strings.Contains(string(md), "Draw it alone") || cmd != "" && !strings.Contains(string(md), "```sh\n"+cmd+"\n```") {
			t.Errorf("%s: the timeline's command is not %q", c.name, cmd)
		}
	}
}

// TestMergeInputLimitAtItsEdge: a shard file of exactly --max-input-bytes
// is read, one byte less is refused naming the limit; a stream (a fifo)
// past the limit is refused as it is read.
func TestMergeInputLimitAtItsEdge(t *testing.T) {
	dir := t.TempDir()
	ok := shardSet(t, dir)
	write := func(name string, lines []string) (string, int64) {
		path := filepath.Join(dir, name)
		text := strings.Join(lines, "\n") + "\n"
		os.WriteFile(path, []byte(text), 0o644)
		return path, int64(len(text))
	}
	s0, n0 := write("s0", ok[0])
	s1, n1 := write("s1", ok[1])
	limit := max(n0, n1)
	if _, _, _, err := Merge([]string{s0, s1}, limit, parseArgs("out", Config{})); err != nil {
		t.Errorf("files of at most the limit %d: %v", limit, err)
	}
	if _, _, _, err := Merge([]string{s0, s1}, limit-1, parseArgs("out", Config{})); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than the input limit of %d", limit-1)) {
		t.Errorf("a file one byte past the limit: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.Write([]byte(strings.Join(ok[0], "\n") + "\n"))
	}()
	// Whole lines, one byte more than the limit: read to the end, then refused.
	if _, _, _, err := Merge([]string{fifo, s1}, n0-1, parseArgs("out", Config{})); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d bytes, the input limit", n0-1)) {
		t.Errorf("a fifo past the limit: %v", err)
	}
}

// TestDefaultComparisonCountsItsSweep: the default comparison's progress
// counts its sweep's pairs after its own, up to every pair held; an
// interruption names the job of all of them; a shard of it counts the
// sweep's budget runs too.
func TestDefaultComparisonCountsItsSweep(t *testing.T) {
	t.Chdir(t.TempDir())
	s := mustSetup(t, "out", Config{}, "--profiles=kip", "--seeds=1", "--max-steps=100")
	pairs, sweep, held := s.Jobs()
	last := 0
	r := s.Run(context.Background(), func(done, h int) {
		if done != last+1 || h != held {
			t.Errorf("progress(%d, %d) after %d", done, h, last)
		}
		last = done
	})
	if last != pairs+sweep || !r.Complete {
		t.Errorf("progress ended at %d of %d+%d", last, pairs, sweep)
	}
	r.Complete, r.StoppedAt = false, pairs+2
	if text := s.ResumeText("interrupt", r, "p.jsonl"); !strings.Contains(text, fmt.Sprintf("before job %d of %d", pairs+2, pairs+sweep)) {
		t.Errorf("ResumeText: %s", text)
	}
	sh := mustSetup(t, "out", Config{Shard: "0/1", JSONL: "p.jsonl"}, "--profiles=kip", "--seeds=1", "--max-steps=100")
	if _, n := sh.ShardText(sh.Run(context.Background(), func(int, int) {})); n != 2*(pairs+sweep) {
		t.Errorf("ShardText counts %d budget runs, want %d", n, 2*(pairs+sweep))
	}
}

// flagNames spells a field as cmd/simrun's flag for it (its fieldFlag), so
// that these tests read the texts a user reads.
func flagNames(field string) string {
	flag, ok := map[string]string{"Scenario": "scenario", "Generated": "generated", "Seeds": "seeds", "Seed": "seed", "Vary": "vary",
		"Profiles": "profiles", "Profile": "profile", "MaxSteps": "max-steps", "Fix": "fix", "Out": "out", "Shard": "shard",
		"Workers": "workers", "ResumeFrom": "resume-from", "JSONL": "jsonl", "Timeline": "timeline"}[field]
	if !ok {
		return ""
	}
	return "--" + flag
}

// given records a flag as the command line gives it (cmd/simrun's
// compareGiven): the field in Changed, the flags that shape the
// comparison in Args.
func given(f *Config, name, value string) {
	if f.Changed == nil {
		f.Changed = map[string]bool{}
	}
	field := map[string]string{"scenario": "Scenario", "generated": "Generated", "seeds": "Seeds", "vary": "Vary",
		"profiles": "Profiles", "profile": "Profile", "max-steps": "MaxSteps", "fix": "Fix"}[name]
	f.Changed[field] = true
	f.Args = append(f.Args, "--"+name+"="+value)
}

// names reports whether err is a config.Error for field.
func names(err error, field string) bool {
	var e *config.Error
	return errors.As(err, &e) && e.Field == field
}
