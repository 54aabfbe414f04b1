package reports

import (
	"strings"
	"testing"

	"tierfetch/harness"
)

// allResult is a scenario's result with one follower per strategy that
// joined after localMs and tieredMs (-1: never).
func allResult(name, profile string, localMs, tieredMs int64) harness.Result {
	res := harness.Result{Scenario: name, Profile: profile}
	for _, s := range []struct {
		st harness.Strategy
		ms int64
	}{{harness.LocalLogStart, localMs}, {harness.LastTiered, tieredMs}} {
		f := harness.FollowerJSON{Broker: 1, BytesFromLeader: 1 << 20}
		f.Bootstrap.Path = "earliest-pending-upload"
		run := harness.RunJSON{Strategy: string(s.st), Outcome: harness.OutcomeOK, Followers: []harness.FollowerJSON{f}}
		if s.ms >= 0 {
			ms := s.ms
			run.Followers[0].CaughtUpMs = &ms
		} else {
			run.Outcome = harness.OutcomeLiveness
			run.Violation = &harness.ViolationJSON{Invariant: "liveness", Kind: "kafka43-aux-state-stall"}
		}
		res.Runs = append(res.Runs, run)
	}
	return res
}

func allInput(width int) AllInput {
	kip := AllProfile{Profile: "kip", Runs: []AllRun{
		{Result: allResult("a-faster", "kip", 1000, 500)},
		{Result: allResult("b-as-fast", "kip", 1000, 1090)},
		{Result: allResult("c-slower", "kip", 1000, 1200)},
		{Result: allResult("d-slow", "kip", 100, 1000)},
	}}
	k43 := AllProfile{Profile: "kafka-4.3", Runs: []AllRun{
		{Result: allResult("a-faster", "kafka-4.3", 1000, 520)},
		{Result: allResult("b-as-fast", "kafka-4.3", 1000, -1)},
		{Result: allResult("c-slower", "kafka-4.3", 1000, 1200)},
		{Result: allResult("d-slow", "kafka-4.3", 100, 200)},
	}}
	return AllInput{Profiles: []AllProfile{kip, k43}, Width: width}
}

// TestAllSummaryMarksAndDifferences: the outcome column marks a ratio of
// SlowRatio or more SLOW and a follower that never joined STALL; the
// headline counts faster, as fast (within 10%), slower and never; the
// differences list exactly the rows another profile changes.
func TestAllSummaryMarksAndDifferences(t *testing.T) {
	var b strings.Builder
	tally := AllSummary(&b, allInput(0))
	out := b.String()
	for _, want := range []string{
		"\n  kip        the new follower joins faster in 1, as fast in 1, slower in 2 (1 by 10x or more, up to 10.0x), never in 0\n",
		"\n  kafka-4.3  the new follower joins faster in 1, as fast in 0, slower in 2 (up to 2.00x), never in 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	rows := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		rows[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, want := range []string{
		"d-slow aux@EPUO 100 ms 1.0 aux@EPUO 1000 ms 1.0 10.0x ok SLOW", // the table
		"b-as-fast aux@EPUO 1000 ms 1.0 aux@EPUO 1090 ms 1.0 1.09x ok",
		"b-as-fast 1.09x ok never - known STALL", // the differences
		"d-slow 10.0x ok SLOW 200 ms 2.00x ok",
	} {
		if !rows[want] {
			t.Errorf("no row %q:\n%s", want, out)
		}
	}
	for _, same := range []string{"\na-faster  ", "\nc-slower  "} {
		if strings.Count(out, same) != 1 {
			t.Errorf("%q: want its table row only (kafka-4.3 tells the same story), got %d lines", same, strings.Count(out, same))
		}
	}
	if tally != (AllTally{Clean: 7, Known: 1}) {
		t.Errorf("tally %+v, want 7 clean, 1 known", tally)
	}
}

// TestAllSummaryWidth: prose is wrapped to the width given (a terminal's),
// so a wide terminal gets fewer, longer lines; tables and commands stay
// whole; the differences drop the first profile's columns when they do not
// fit.
func TestAllSummaryWidth(t *testing.T) {
	lines := map[int]int{}
	for _, width := range []int{50, 80, 120, 200} {
		var b strings.Builder
		AllSummary(&b, allInput(width))
		out := strings.Split(b.String(), "\n")
		whole := map[int]bool{} // table lines (from a group title on) and commands
		for i, l := range out {
			if strings.HasPrefix(strings.TrimSpace(l), "scenario ") || strings.HasPrefix(l, "  known finding") {
				for j := max(0, i-1); j < len(out) && out[j] != "" && !strings.HasPrefix(out[j], "Where"); j++ {
					whole[j] = true
				}
			}
			if strings.HasPrefix(l, "  simrun ") {
				whole[i] = true
			}
		}
		for i, l := range out {
			if !whole[i] && len(l) > width && width >= 80 {
				t.Errorf("width %d: a %d-column line: %q", width, len(l), l)
			}
		}
		lines[width] = len(out)
		if hasFirst := strings.Contains(b.String(), "scenario   ratio  outcome"); hasFirst != (width > 50) {
			t.Errorf("width %d: the differences show kip's columns: %v", width, hasFirst)
		}
	}
	if !(lines[80] > lines[120] && lines[120] > lines[200]) {
		t.Errorf("lines at widths 80, 120, 200: %v; want fewer as the width grows", lines)
	}
}

func TestWrap(t *testing.T) {
	if got := wrap("aa bb cc dd", "  ", 7); got != "  aa bb\n  cc dd" {
		t.Errorf("wrap: %q", got)
	}
	if got := wrap("a-very-long-word x", "", 4); got != "a-very-long-word\nx" {
		t.Errorf("wrap of a long word: %q", got)
	}
}
