package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tierfetch/compare"
	"tierfetch/reports"
)

func readOutDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

func csvRows(t *testing.T, data []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// runsCSV reads a comparison's runs.csv in directory out: its rows (the
// header first) and the index of a named column (the test fails on a
// missing one).
func runsCSV(t *testing.T, out string) ([][]string, func(name string) int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := csvRows(t, data)
	return rows, func(name string) int {
		i := slices.Index(rows[0], name)
		if i < 0 {
			t.Fatalf("%s/runs.csv has no column %s: %v", out, name, rows[0])
		}
		return i
	}
}

// nDefaultProfiles is how many profiles a comparison runs without --profiles.
var nDefaultProfiles = len(strings.Split(compare.DefaultProfiles, ","))

// TestCompareWritesTheReport: a small comparison writes report.md, runs.csv
// with a row per seed and strategy, and every chart the report links.
func TestCompareWritesTheReport(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := simrun(t, "compare", "--scenario", "omts-local-deleted", "--seeds", "1..3", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "3 pairs, 3 in the statistics") || !strings.Contains(stdout, "profile kafka-4.3: 6 runs, 0 broke an invariant") {
		t.Errorf("stdout %q", stdout)
	}
	files := readOutDir(t, out)
	for _, name := range []string{"report.md", "runs.csv", reports.ChartCopy, reports.ChartCDF, reports.ChartPaired, reports.ChartTimeline} {
		if len(files[name]) == 0 {
			t.Errorf("%s missing or empty", name)
		}
	}
	if _, ok := files[reports.ChartSweep]; ok {
		t.Errorf("a sweep chart without --vary")
	}
	for name := range files {
		if strings.HasSuffix(name, ".tmp") {
			t.Errorf("temporary file %s left behind", name)
		}
	}
	rows := csvRows(t, files["runs.csv"])
	if len(rows) != 1+3*2*nDefaultProfiles || strings.Join(rows[0], ",") != strings.Join(reports.CompareCSVHeader(), ",") {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	md := string(files["report.md"])
	for _, want := range []string{"go run ./cmd/simrun compare --scenario omts-local-deleted --seeds 1..3 --out " + out,
		"## Excluded", "0 of 3 pairs excluded", "(" + reports.ChartCDF + ")", "(" + reports.ChartTimeline + ")", "omts-local-deleted` seed",
		"## KIP text vs Kafka 4.3", "| `omts-local-deleted` |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestCompareNumbersMatchRun: runs.csv says what 'simrun run --json' says.
func TestCompareNumbersMatchRun(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := simrun(t, "compare", "--scenario", "leader-knows-hro", "--seeds", "2..3", "--out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := csvRows(t, readOutDir(t, out)["runs.csv"])
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, row := range rows[1:] {
		code, stdout, _ := simrun(t, "run", "--scenario", "leader-knows-hro", "--seed", row[col["seed"]], "--strategy", row[col["strategy"]],
			"--profile", row[col["profile"]], "--json")
		if code != exitOK {
			t.Fatalf("run exit %d", code)
		}
		var res struct {
			Runs []struct {
				Digest    string
				Followers []struct {
					CaughtUpMs      int64 `json:"caught_up_ms"`
					BytesFromLeader int64 `json:"bytes_from_leader"`
				}
			}
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatal(err)
		}
		f := res.Runs[0].Followers[0]
		if row[col["catch_up_ms"]] != itoa(f.CaughtUpMs) || row[col["bytes_from_leader"]] != itoa(f.BytesFromLeader) ||
			!strings.HasPrefix(res.Runs[0].Digest, row[col["digest"]]) {
			t.Errorf("seed %s %s %s: csv says %s ms %s B digest %s, run says %d ms %d B digest %s", row[col["seed"]], row[col["strategy"]], row[col["profile"]],
				row[col["catch_up_ms"]], row[col["bytes_from_leader"]], row[col["digest"]], f.CaughtUpMs, f.BytesFromLeader, res.Runs[0].Digest)
		}
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestCompareReportsExclusions: a known finding's pairs stay out of the
// statistics and the report says why.
func TestCompareReportsExclusions(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := simrun(t, "compare", "--scenario", "finding-tiered-follower-after-disable", "--seeds", "1..2", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files := readOutDir(t, out)
	md := string(files["report.md"])
	for _, want := range []string{"2 of 2 pairs excluded", "last-tiered: no-committed-loss (tiered-follower-after-disable)", "**0 of 2 pairs**"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	rows := csvRows(t, files["runs.csv"])
	if len(rows) != 1+2*2*nDefaultProfiles || rows[1][5] != "no" {
		t.Errorf("rows %v", rows)
	}
}

// TestCompareIsDeterministic: the same command gives the same bytes, with
// any number of workers.
func TestCompareIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compares twice")
	}
	out := t.TempDir()
	args := []string{"compare", "--seeds", "1..2", "--vary", "replication_bytes_per_sec=1048576,104857600", "--out", out}
	if code, _, stderr := simrun(t, append(args, "--workers", "1")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	first := readOutDir(t, out)
	if code, _, stderr := simrun(t, append(args, "--workers", "4")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	second := readOutDir(t, out)
	if len(first) != len(second) || len(first) < 7 {
		t.Fatalf("files %d then %d", len(first), len(second))
	}
	for name, data := range first {
		if !bytes.Equal(data, second[name]) {
			t.Errorf("%s differs between two runs of the same command", name)
		}
	}
	rows := csvRows(t, first["runs.csv"])
	if want := 1 + nDefaultProfiles*len(compare.DefaultSet())*2*2*2; len(rows) != want {
		t.Errorf("%d rows, want %d (profiles x values x scenarios x seeds x strategies + header)", len(rows), want)
	}
	if !strings.Contains(string(first["report.md"]), "## Parameter sweep: `replication_bytes_per_sec`") {
		t.Errorf("no sweep section")
	}
}

// TestCompareBadInput: bad flags exit 2 with a message naming the flag, and
// write nothing.
func TestCompareBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "x"}, "--seeds"},
		{[]string{"--seeds", "5..1"}, "--seeds"},
		{[]string{"--scenario", "no-such-scenario"}, "--scenario"},
		{[]string{"--scenario", "omts-local-deleted", "--generated"}, "not both"},
		{[]string{"--vary", "nokey=1,2"}, "--vary"},
		{[]string{"--vary", "local_retention_bytes"}, "--vary"},
		{[]string{"--vary", "local_retention_bytes=abc"}, "--vary"},
		{[]string{"--vary", "local_retention_bytes=-7"}, "local_retention_bytes"},
		{[]string{"--vary", "segment_bytes=1,1"}, "twice"},
		{[]string{"--vary", "produce_scale=0"}, "produce_scale"},
		{[]string{"--vary", "follower_fetch_last_tiered_offset_enable=true"}, "--vary"},
		{[]string{"--workers", "0"}, "--workers"},
		{[]string{"--profile", "nope"}, "--profile"},
		{[]string{"--profiles", "kip,nope"}, "--profiles"},
		{[]string{"--profiles", ""}, "--profiles"},
		{[]string{"--profiles", "kip,kip"}, "--profiles"},
		{[]string{"--profile", "kip", "--profiles", "kip"}, "not both"},
		{[]string{"--profile", "kip,kafka-4.3"}, "--profile"},
		{[]string{"extra"}, "unexpected argument"},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "out")
		code, stdout, stderr := simrun(t, append([]string{"compare", "--seeds", "1..2", "--out", out}, c.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("compare %v: exit %d stderr %q stdout %q; want exit 2 naming %q", c.args, code, stderr, stdout, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("compare %v: wrote %s", c.args, out)
		}
	}
}

// TestCompareGenerated: --generated compares each seed's generated scenario.
func TestCompareGenerated(t *testing.T) {
	out := t.TempDir()
	if code, _, stderr := simrun(t, "compare", "--generated", "--seeds", "1..4", "--vary", "produce_scale=0.5,1", "--out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files := readOutDir(t, out)
	if len(csvRows(t, files["runs.csv"])) != 1+nDefaultProfiles*2*4*2 {
		t.Errorf("rows: want %d and a header", nDefaultProfiles*2*4*2)
	}
	if !strings.Contains(string(files["report.md"]), "generated from the seeds") {
		t.Errorf("report does not say the scenarios are generated")
	}
}

// TestRunTimelineAndChromeTrace: simrun run writes a timeline and a trace
// for any run; --all with them is bad input.
func TestRunTimelineAndChromeTrace(t *testing.T) {
	dir := t.TempDir()
	svg, trace := filepath.Join(dir, "t.svg"), filepath.Join(dir, "t.json")
	code, stdout, stderr := simrun(t, "run", "--scenario", "omts-local-deleted", "--timeline", svg, "--chrome-trace", trace)
	if code != exitOK || !strings.Contains(stdout, "omts-local-deleted") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil || !bytes.HasPrefix(data, []byte("<?xml")) || !bytes.Contains(data, []byte("last-tiered: whole run")) {
		t.Errorf("timeline: %v %.80q", err, data)
	}
	data, err = os.ReadFile(trace)
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
	}
	if err != nil || json.Unmarshal(data, &doc) != nil || len(doc.TraceEvents) < 100 {
		t.Errorf("chrome trace: %v, %d events", err, len(doc.TraceEvents))
	}
	for _, args := range [][]string{
		{"run", "--all", "--timeline", svg},
		{"run", "--all", "--chrome-trace", trace},
		{"run", "--scenario", "omts-local-deleted", "--timeline", filepath.Join(dir, "no-such-dir", "t.svg")},
		{"run", "--scenario", "omts-local-deleted", "--chrome-trace", dir},
	} {
		if code, _, stderr := simrun(t, args...); code != exitBadInput || stderr == "" {
			t.Errorf("simrun %v: exit %d stderr %q, want exit 2 and a message", args, code, stderr)
		}
	}
	// A file draws one profile's runs: a list of profiles panicked
	// ("more runs than strategies") after running the first.
	for _, flag := range []string{"--timeline", "--chrome-trace"} {
		args := []string{"run", "--scenario", "omts-local-deleted", "--profile", "kip,kafka-4.3", flag, filepath.Join(dir, "p")}
		if code, _, stderr := simrun(t, args...); code != exitBadInput || !strings.Contains(stderr, "--timeline and --chrome-trace need one profile (--profile P), not 2") {
			t.Errorf("simrun %v: exit %d stderr %q, want exit 2 naming the profiles", args, code, stderr)
		}
	}
}

func TestCompareHelpExitsZero(t *testing.T) {
	if code, stdout, _ := simrun(t, "compare", "--help"); code != exitOK || !strings.Contains(stdout, "--vary") {
		t.Errorf("exit %d, usage %q", code, stdout)
	}
}

// TestCompareProfiles: the main statistics stay on the first profile; the
// report compares the profiles, and names the runs that failed under
// kafka-4.3 (expected stalls) instead of hiding them; under kafka-trunk the
// same follower joins (KAFKA-20732).
func TestCompareProfiles(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := simrun(t, "compare", "--scenario", "hazard-restarted-leader-copy-disabled", "--seeds", "1..2", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "2 pairs, 2 in the statistics") || !strings.Contains(stdout, "profile kafka-4.3: 4 runs, 2 broke an invariant") ||
		!strings.Contains(stdout, "profile kafka-trunk: 4 runs, 0 broke an invariant") {
		t.Errorf("stdout %q", stdout)
	}
	files := readOutDir(t, out)
	md := string(files["report.md"])
	for _, want := range []string{"**2 of 2 pairs**", "## KIP text vs Kafka 4.3 vs Kafka trunk", "**never joined** (2 of 2); 2 failed",
		"| `kafka-4.3` | last-tiered | liveness (kafka43-epuo-unknown-stall) | 2 | `hazard-restarted-leader-copy-disabled`: 1..2 |",
		"FINDINGS.md"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	rows := csvRows(t, files["runs.csv"])
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var got []string
	for _, r := range rows[1:] {
		got = append(got, r[col["profile"]]+" "+r[col["strategy"]]+" "+r[col["kind"]])
	}
	want := "kip local-log-start |kip last-tiered |kip local-log-start |kip last-tiered |" +
		"kafka-4.3 local-log-start |kafka-4.3 last-tiered kafka43-epuo-unknown-stall|" +
		"kafka-4.3 local-log-start |kafka-4.3 last-tiered kafka43-epuo-unknown-stall|" +
		"kafka-trunk local-log-start |kafka-trunk last-tiered |kafka-trunk local-log-start |kafka-trunk last-tiered "
	if strings.Join(got, "|") != want {
		t.Errorf("rows (profile strategy kind):\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}

	// kafka-4.3 first: its stall now excludes pairs from the statistics.
	out2 := t.TempDir()
	if code, stdout, stderr = simrun(t, "compare", "--scenario", "hazard-restarted-leader-copy-disabled", "--seeds", "1..2",
		"--profiles", "kafka-4.3,kip", "--out", out2); code != exitOK || !strings.Contains(stdout, "2 pairs, 0 in the statistics") ||
		!strings.Contains(stdout, "profile kip: 4 runs, 0 broke") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	md = string(readOutDir(t, out2)["report.md"])
	if !strings.Contains(md, "--profiles kafka-4.3,kip --out") || !strings.Contains(md, "## KIP text vs Kafka 4.3") {
		t.Errorf("report.md with --profiles kafka-4.3,kip lacks the command or the section")
	}

	// One profile: no section, no other rows.
	out3 := t.TempDir()
	if code, _, stderr = simrun(t, "compare", "--scenario", "hazard-restarted-leader-copy-disabled", "--seeds", "1..2",
		"--profile", "kip", "--out", out3); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files = readOutDir(t, out3)
	if strings.Contains(string(files["report.md"]), "KIP text vs Kafka 4.3") || len(csvRows(t, files["runs.csv"])) != 1+2*2 {
		t.Errorf("--profile kip: a profile section or rows of another profile")
	}
}

// TestCompareDefaultRunsTheSweep: the default comparison also sweeps local
// retention on local-retention-sweep and reports it beside its statistics.
func TestCompareDefaultRunsTheSweep(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := simrun(t, "compare", "--seeds", "3..3", "--profiles", "kip", "--out", out)
	if code != exitOK || !strings.Contains(stdout, "sweep local_retention_bytes on local-retention-sweep: 6 pairs, 6 in the statistics") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	files := readOutDir(t, out)
	if len(files[reports.ChartSweep]) == 0 {
		t.Errorf("no sweep chart")
	}
	md := string(files["report.md"])
	alone := "go run ./cmd/simrun compare --scenario local-retention-sweep --seeds 3..3 --vary local_retention_bytes=" + compare.DefaultSweepValues +
		" --profiles kip --out " + compare.DefaultSweepOut
	for _, want := range []string{"## Parameter sweep: local_retention_bytes on local-retention-sweep", alone, "(" + reports.ChartSweep + ")",
		"**Where it pays off**", "| -2 (= retention) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	rows := csvRows(t, files["runs.csv"])
	swept := 0
	for _, r := range rows[1:] {
		if r[1] == "local_retention_bytes" {
			swept++
		}
	}
	if swept != 6*2 || len(rows) != 1+len(compare.DefaultSet())*2+6*2 {
		t.Errorf("%d rows, %d of the sweep", len(rows), swept)
	}
	// The sweep alone draws the same chart.
	dir := t.TempDir()
	if code, _, stderr := simrun(t, "compare", "--scenario", "local-retention-sweep", "--seeds", "3..3", "--vary",
		"local_retention_bytes="+compare.DefaultSweepValues, "--profiles", "kip", "--out", dir); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !bytes.Equal(readOutDir(t, dir)[reports.ChartSweep], files[reports.ChartSweep]) {
		t.Errorf("the sweep alone draws another chart")
	}
}
