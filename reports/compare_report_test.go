package reports

import (
	bytespkg "bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tierfetch/harness"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata from the current output")

// golden compares got with testdata/name byte for byte (or rewrites it
// under -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytespkg.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gl), len(wl)) {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Fatalf("%s differs from line %d:\n got: %s\nwant: %s\n(go test ./reports -run %s -update rewrites it)", path, i+1, g, w, t.Name())
		}
	}
}

// reportInput is a comparison built by hand, no simulation: scenarios a
// and b, seeds 1..4, at two values of local_retention_bytes, under kip and
// again under kafka-4.3 (two of a's last-tiered runs stall) and
// kafka-trunk (no failure). Under kip (and kafka-4.3) b's seed 4 breaks
// an invariant at both values; every other pair is compared. a's
// followers take the same path; b's last-tiered ones split evenly between
// two (the alphabetically first is named). Catch-up times go beyond 10 s, a's seed 1 has a
// crash (local-log-start's redundancy back after 10 s exactly), and retries by reason are either on both sides, on
// one, or on none.
func reportInput() *CompareInput {
	ok, bad := harness.OutcomeOK, harness.OutcomeSafety
	in := &CompareInput{Command: "simrun compare --scenarios a,b --seeds 1..4 --vary local_retention_bytes=1048576,-2 --fix epuo",
		Version: "v1.2.3 (abc123)", Scenarios: []string{"a", "b"}, Seeds: "1..4", Profile: "kip", Fix: "epuo",
		VaryKey: "local_retention_bytes", VaryValues: []string{"1048576", "-2"}}
	times := map[string][4][2]int64{ // local, last-tiered ms by seed
		"a": {{100, 50}, {200, 100}, {10000, 4000}, {400, 400}},
		"b": {{300, 600}, {150, 300}, {12345, 20000}, {100, 100}},
	}
	for vi, v := range in.VaryValues {
		for _, s := range in.Scenarios {
			for seed := uint64(1); seed <= 4; seed++ {
				ts := times[s][seed-1]
				p := pair(s, seed, ts[0], ts[1]*int64(1+vi), ok, ok)
				p.VaryValue, p.Profile = v, "kip"
				l, t := p.Local, p.Tiered
				l.Path = "local-log-start"
				t.Path = "earliest-pending-upload"
				l.BytesFromLeader, t.BytesFromLeader = 8000*int64(seed), 2000*int64(seed)
				l.LeaderEgressBytes, t.LeaderEgressBytes = 9000*int64(seed), 3000*int64(seed)
				l.EgressBytes, t.EgressBytes = 10000, 4000
				t.RemoteAuxBytes, t.AuxStateBuilds, t.ListOffsets = 512, 1, 2
				l.Fetches, t.Fetches = 40, 30
				l.RetriesByReason[1], l.Retries, l.StalledMs = int(seed), int(seed), 1000*int64(seed)
				t.RetriesByReason[0], t.RetriesByReason[1], t.Retries, t.StalledMs = 2, 1, 3, 3000
				l.LLSOAtJoin, t.LLSOAtJoin = 3000, 9000
				l.PriceRemoteBytes, t.PriceRemoteBytes, l.PriceLocalBytes, t.PriceLocalBytes = 0, 6000, 9000, 3000
				l.PriceExtraLatencyMs, t.PriceExtraLatencyMs = 0, 120
				l.ConsumeRemoteBytes = 700 // and none under last-tiered
				if s == "b" && (int(seed)+vi)%2 == 0 {
					t.Path = "aux-then-start"
				}
				if s == "a" && seed == 1 {
					l.RedundancyKnown, l.RedundancyMs = true, 10000
					t.RedundancyKnown, t.RedundancyMs = true, 1500
				}
				if s == "b" && seed == 4 {
					t.Outcome, t.Invariant, t.Kind = bad, "no-hole", "stale-hro"
				}
				in.Pairs = append(in.Pairs, p)
			}
		}
	}
	for _, prof := range []string{"kafka-4.3", "kafka-trunk"} {
		other := make([]ComparePair, len(in.Pairs))
		for i, p := range in.Pairs {
			l, t := *p.Local, *p.Tiered
			other[i] = ComparePair{Scenario: p.Scenario, VaryValue: p.VaryValue, Seed: p.Seed, Profile: prof, Local: &l, Tiered: &t}
			switch {
			case prof == "kafka-trunk":
				t.Outcome, t.Invariant, t.Kind = harness.OutcomeOK, "", ""
			case p.Scenario == "a" && p.Seed <= 2:
				t.Outcome, t.Invariant, t.Kind, t.CaughtUp, t.CatchUpMs = harness.OutcomeLiveness, "liveness", "kafka43-epuo-unknown-stall", false, 0
			}
		}
		in.Others = append(in.Others, ProfilePairs{Profile: prof, Pairs: other})
	}
	in.Timeline = &in.Pairs[5] // b seed 2 at 1048576: 150 ms against 300
	in.TimelineCommand = "simrun run --scenario b --seed 2 --vary local_retention_bytes=1048576 --timeline timeline.svg"
	return in
}

// TestCompareReportGolden: report.md of a hand-built comparison with every
// section, byte for byte.
func TestCompareReportGolden(t *testing.T) {
	in := reportInput()
	var buf bytespkg.Buffer
	CompareReport(&buf, in, Analyze(in), []string{ChartCopy, ChartCDF, ChartPaired, ChartSweep, ChartTimeline})
	golden(t, "report-full.md.golden", buf.Bytes())
}

// bareInput is a comparison where nothing could be compared: under one
// profile, no version, no vary, no fix, two pairs both passed but neither
// follower joined the ISR, beside a sweep (with a sentence on its
// scenario) of which one pair broke an invariant.
func bareInput() *CompareInput {
	ok := harness.OutcomeOK
	in := &CompareInput{Command: "simrun compare --scenarios a --seeds 1..2", Scenarios: []string{"a"}, Seeds: "1..2", Profile: "kip"}
	for seed := uint64(1); seed <= 2; seed++ {
		p := pair("a", seed, 0, 0, ok, ok)
		p.Local.CaughtUp, p.Tiered.CaughtUp = false, false
		in.Pairs = append(in.Pairs, p)
	}
	sw := sweepInput([]string{"1048576", "4194304"}, []float64{0.5, 0.8})
	sw.Command, sw.About = "simrun compare --scenario s --vary local_retention_bytes=1048576,4194304", "The sweep's scenario says little."
	sw.Pairs[3].Tiered.Outcome, sw.Pairs[3].Tiered.Invariant = harness.OutcomeLiveness, "catches-up"
	in.Sweep = sw
	return in
}

// TestCompareReportBareGolden: report.md with no pair compared, no crash,
// nothing excluded, a sweep beside it with an exclusion, and a timeline
// chart named but no pair picked for it, byte for byte.
func TestCompareReportBareGolden(t *testing.T) {
	in := bareInput()
	var buf bytespkg.Buffer
	CompareReport(&buf, in, Analyze(in), []string{ChartSweep, ChartTimeline})
	golden(t, "report-bare.md.golden", buf.Bytes())
}

// TestMeansDisagreeSentence: the headline's sentence on why the mean times
// and the geometric mean disagree, word for word. x and y each add as much
// to last-tiered's sum (the first is named), z takes that much off it, so
// the others together add nothing: "no difference", not "0 ms shorter".
// Sixteen pairs keep the means exact.
func TestMeansDisagreeSentence(t *testing.T) {
	ok := harness.OutcomeOK
	in := &CompareInput{Command: "x", Scenarios: []string{"x", "y", "z"}, Seeds: "1..6", Profile: "kip"}
	for _, s := range []string{"x", "y"} {
		in.Pairs = append(in.Pairs, pair(s, 1, 1000, 11000, ok, ok))
		for seed := uint64(2); seed <= 6; seed++ {
			in.Pairs = append(in.Pairs, pair(s, seed, 100, 50, ok, ok))
		}
	}
	for seed := uint64(1); seed <= 4; seed++ {
		in.Pairs = append(in.Pairs, pair("z", seed, 5000, 2562+int64(seed%2), ok, ok))
	}
	var buf bytespkg.Buffer
	CompareReport(&buf, in, Analyze(in), nil)
	want := "- **Why the means disagree**: the mean catch-up time is longer under last-tiered (2047 ms against 1438 ms) although the " +
		"geometric mean of the ratios is 0.74x, because a mean adds milliseconds: the 6 pairs of `x` alone make last-tiered's sum " +
		"9750 ms longer (the other 10 pairs together: no difference), while the geometric mean gives each pair's ratio the same weight.\n"
	if md := buf.String(); !strings.Contains(md, want) {
		i := max(strings.Index(md, "- **Why"), 0)
		t.Errorf("headline lacks\n%s\ngot\n%s", want, md[i:i+min(600, len(md)-i)])
	}
}

// TestSweepBesideWithoutExclusions: a sweep beside the comparison whose
// pairs all passed has no line of exclusions.
func TestSweepBesideWithoutExclusions(t *testing.T) {
	in := bareInput()
	in.Sweep = sweepInput([]string{"1048576", "4194304"}, []float64{0.5, 0.8})
	var buf bytespkg.Buffer
	CompareReport(&buf, in, Analyze(in), nil)
	if md := buf.String(); !strings.Contains(md, "4 of 4 pairs in the statistics") || strings.Contains(md, "Excluded from the sweep") {
		t.Errorf("sweep section:\n%s", md[strings.Index(md, "## Parameter sweep"):])
	}
}

// TestCompareSummary: the lines 'simrun compare' prints once the report is
// written, word for word: with ratios, further profiles, a sweep beside
// and runs stopped by the work budget; and with none of them.
func TestCompareSummary(t *testing.T) {
	in := reportInput()
	in.Sweep = sweepInput([]string{"1048576", "4194304"}, []float64{0.5, 0.8})
	var buf bytespkg.Buffer
	CompareSummary(&buf, Analyze(in), CompareSummaryInput{SweepKey: "local_retention_bytes", SweepScenario: "s", Jobs: "16 pairs",
		ReportPath: "report.md", BudgetRuns: 2, MaxSteps: 5000, Names: flagNames})
	want := "compare: 16 pairs, 14 in the statistics, 2 excluded; catch-up ratio last-tiered/local-log-start 1.33x (95% CI 0.89 to 1.94), win rate 29%\n" +
		"profile kafka-4.3: 32 runs, 6 broke an invariant (listed in the report, not in the statistics)\n" +
		"profile kafka-trunk: 32 runs, 0 broke an invariant (listed in the report, not in the statistics)\n" +
		"sweep local_retention_bytes on s: 4 pairs, 4 in the statistics\n" +
		"ran 16 pairs (progress counts these)\n" +
		"report: report.md\n" +
		"2 runs reached the work budget of 5000 steps (excluded, named in the report): raise --max-steps\n"
	if buf.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", buf.String(), want)
	}
	bare := bareInput()
	bare.Sweep = nil
	buf.Reset()
	CompareSummary(&buf, Analyze(bare), CompareSummaryInput{Jobs: "2 pairs", ReportPath: "r.md"})
	want = "compare: 2 pairs, 2 in the statistics, 0 excluded; no pair to compare catch-up times on\nran 2 pairs (progress counts these)\nreport: r.md\n"
	if buf.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// TestMeansDisagreeOneScenario: when one scenario holds every pair, the
// sentence names no "other pairs".
func TestMeansDisagreeOneScenario(t *testing.T) {
	ok := harness.OutcomeOK
	in := &CompareInput{Command: "x", Scenarios: []string{"x"}, Seeds: "1..6", Profile: "kip"}
	in.Pairs = append(in.Pairs, pair("x", 1, 1000, 11000, ok, ok))
	for seed := uint64(2); seed <= 6; seed++ {
		in.Pairs = append(in.Pairs, pair("x", seed, 100, 50, ok, ok))
	}
	got := meansDisagree(Analyze(in))
	want := "the 6 pairs of `x` alone make last-tiered's sum 9750 ms longer, while"
	if !strings.Contains(got, want) || strings.Contains(got, "other") {
		t.Errorf("got %q, want it to hold %q and no other pairs", got, want)
	}
}
