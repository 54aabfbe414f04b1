package reports

import (
	bytespkg "bytes"
	"strings"
	"testing"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestProfilesDifferEitherWay: a profile whose median catch-up is
// DifferenceFactor (2) times the first profile's or more differs, and so
// does one whose median is half of it or less; closer medians do not.
func TestProfilesDifferEitherWay(t *testing.T) {
	for _, c := range []struct {
		factor float64
		differ bool
	}{{2, true}, {0.5, true}, {1.9, false}, {0.6, false}, {4, true}, {0.25, true}} {
		in := profilesInput()
		other := in.Others[0].Pairs
		for i, p := range in.Pairs { // kafka-4.3: a as kip, b's last-tiered scaled
			l, tr := *p.Local, *p.Tiered
			if p.Scenario == "b" {
				tr.CatchUpMs = int64(float64(tr.CatchUpMs) * c.factor)
			}
			other[i] = ComparePair{Scenario: p.Scenario, Seed: p.Seed, Profile: "kafka-4.3", Local: &l, Tiered: &tr}
		}
		var diffs []string
		for _, d := range Analyze(in).Profiles.Differences() {
			diffs = append(diffs, d.Group.Scenario+" "+string(harness.Strategies[d.Side]))
		}
		want := ""
		if c.differ {
			want = "b last-tiered"
		}
		if got := strings.Join(diffs, "|"); got != want {
			t.Errorf("kafka-4.3's b last-tiered at %vx kip's: differences %q, want %q", c.factor, got, want)
		}
	}
}

// TestSweepGoalsNoKafkaReaches: Kafka (4.3 and trunk) clamps EPUO to the
// log start, so a sweep under either never falls back below it: the
// coverage table says so instead of calling the goal a FINDING; under the
// KIP text it is a goal like any other.
func TestSweepGoalsNoKafkaReaches(t *testing.T) {
	strategies := []harness.Strategy{harness.LastTiered, harness.LocalLogStart}
	totals := fuzz.NewSweepTotals(strategies)
	totals.Seeds = fuzz.GoalSeeds
	for _, st := range strategies {
		for g := model.Goal(0); g < model.NumGoals; g++ {
			if g != model.GoalEPUOBelowLSOFallback {
				totals.Coverage[st][g] = 1
			}
		}
	}
	for _, profile := range []string{"kafka-4.3", "kafka-trunk", "kip"} {
		var b bytespkg.Buffer
		writeCoverage(&b, totals, profile)
		out := b.String()
		notPath := strings.Contains(out, "(not a path of "+profile+")")
		finding := strings.Contains(out, "FINDING: no run reached "+model.GoalEPUOBelowLSOFallback.String())
		if want := profile != "kip"; notPath != want || finding == want {
			t.Errorf("%s: 'not a path' %v, FINDING %v; want 'not a path' %v:\n%s", profile, notPath, finding, want, out)
		}
	}
}

// TestUnknownFailureReplaysItsStrategy: run --all lists an unknown failure
// with the strategies that showed it and a replay of exactly those: one
// strategy keeps --strategy, both drop it.
func TestUnknownFailureReplaysItsStrategy(t *testing.T) {
	run := func(name string, failing ...harness.Strategy) AllRun {
		res := allResult(name, "kip", 1000, 500)
		for i := range res.Runs {
			for _, st := range failing {
				if res.Runs[i].Strategy == string(st) {
					res.Runs[i].Outcome = harness.OutcomeSafety
					res.Runs[i].Violation = &harness.ViolationJSON{Invariant: "no-hole"}
				}
			}
		}
		replay := map[string]string{}
		for _, st := range harness.Strategies {
			replay[string(st)] = "simrun run --scenario " + name + " --strategy " + string(st)
		}
		return AllRun{Result: res, Replay: replay}
	}
	in := AllInput{Profiles: []AllProfile{{Profile: "kip", Runs: []AllRun{
		run("one", harness.LastTiered), run("two", harness.LocalLogStart, harness.LastTiered)}}}, Width: 200, Names: flagNames}
	var b bytespkg.Buffer
	AllSummary(&b, in)
	out := b.String()
	for _, want := range []string{
		"  " + harness.OutcomeSafety + "  one  last-tiered  all\n    simrun run --scenario one --strategy last-tiered\n",
		"  " + harness.OutcomeSafety + "  two  both  all\n    simrun run --scenario two\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("run --all lacks %q:\n%s", want, out)
		}
	}
}

// TestAllSummaryHeadlineRule: run --all's headline counts a row faster
// when flag on takes less than 1/1.1 of flag off's time, as fast within
// 10% either way, slower above 1.1 (those at 10x or more apart, and the
// worst ratio of all, wherever its row is); the table's copied column is
// in MiB (2^20 bytes).
func TestAllSummaryHeadlineRule(t *testing.T) {
	res := func(name string, localMs, tieredMs int64) AllRun {
		r := allResult(name, "kip", localMs, tieredMs)
		for i := range r.Runs {
			r.Runs[i].Followers[0].BytesFromLeader = 10 << 20
		}
		return AllRun{Result: r}
	}
	in := AllInput{Profiles: []AllProfile{{Profile: "kip", Runs: []AllRun{
		res("a-faster", 1000, 900),   // 0.90
		res("b-as-fast", 1000, 950),  // 0.95
		res("c-as-fast", 1000, 1090), // 1.09
		res("d-worst", 100, 2000),    // 20x, SLOW
		res("e-slower", 1000, 1500),  // 1.5, the last slower row
	}}}, Width: 200}
	var b strings.Builder
	AllSummary(&b, in)
	out := b.String()
	if want := "the new follower joins faster in 1, as fast in 2, slower in 2 (1 by 10x or more, up to 20.0x), never in 0\n"; !strings.Contains(out, want) {
		t.Errorf("lacks %q:\n%s", want, out)
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		rows[strings.Join(strings.Fields(l), " ")] = true
	}
	if want := "e-slower aux@EPUO 1000 ms 10.0 aux@EPUO 1500 ms 10.0 1.50x ok"; !rows[want] {
		t.Errorf("no row %q (10 MiB copied by each):\n%s", want, out)
	}
}
