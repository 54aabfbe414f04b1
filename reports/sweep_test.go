package reports

import (
	"os"
	"strings"
	"testing"

	"tierfetch/campaign"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestSweepSummaryPastTheCaps: with more unknown failures than --max-saved
// the summary's numbers stay true: every failure is counted, the first
// --max-saved are saved (and only those files exist), the rest are named
// as not saved, and an outcome seen only past the list still decides the
// exit code.
func TestSweepSummaryPastTheCaps(t *testing.T) {
	const failures, maxSaved = 25, 3
	out := t.TempDir()
	s := fuzz.NewSweeper(fuzz.SweepConfig{From: 1, To: failures + 1, Resume: 1, Shard: campaign.Whole, Strategies: harness.Strategies,
		Profile: model.KIP, Out: out, MaxSaved: maxSaved, MaxShrunk: 1, Shrink: 0, Fresh: true, Names: flagNames})
	if err := s.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	ok := harness.RunSummary{Strategy: harness.LastTiered, Outcome: harness.OutcomeOK}
	for seed := uint64(1); seed <= failures+1; seed++ {
		bad := harness.RunSummary{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeSafety, Invariant: "no-hole", Message: "hole"}
		if seed == failures+1 { // past every cap
			bad.Outcome, bad.Invariant = harness.OutcomeLiveness, "liveness"
		}
		s.Fold(fuzz.SeedResult{Seed: seed, Runs: []harness.RunSummary{bad, ok}}, "")
	}
	s.CloseOut()
	var b strings.Builder
	SweepReport(&b, s, "1..26")
	text := b.String()
	total := failures + 1
	for _, want := range []string{
		"unknown failures: 26\n",
		"  ... 16 more (the first 10 are listed)\n",
		"seed 3 local-log-start: no-hole: hole\n    replay: simrun replay " + out + "/seed-3-local-log-start-no-hole.json\n",
		"seed 4 local-log-start: no-hole: hole\n    not saved (--max-saved 3)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	words := strings.Join(strings.Fields(text), " ") // the saved paragraph is wrapped
	for _, want := range []string{
		"saved in " + out + ": the first 3 of the 26 unknown failures (--max-saved 3; 23 not saved)",
		"shrunk: none (--shrink 0)",
	} {
		if !strings.Contains(words, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != maxSaved+1 { // and the manifest
		t.Errorf("%d entries in --out, want the %d saved files and the manifest", len(entries), maxSaved)
	}
	if s.Worst() != harness.OutcomeSafety || !s.HasUnknown(harness.OutcomeLiveness) {
		t.Errorf("the liveness failure of seed %d, past the caps, is not counted", total)
	}
}

// TestSweepDetails: the shrunk cases are listed under their heading only
// when there are some; the determinism line only when it was checked, with
// the count of seeds that diverged when some did.
func TestSweepDetails(t *testing.T) {
	var buf strings.Builder
	SweepDetails(&buf, nil, false, 10, nil)
	if buf.Len() != 0 {
		t.Errorf("nothing shrunk or checked: %q", buf.String())
	}
	SweepDetails(&buf, []string{"  case a"}, true, 10, nil)
	SweepDetails(&buf, nil, true, 10, []string{"seed 3 diverged"})
	want := "\nshrunk cases (saved beside the originals as -min.json, each recording how it fails):\n  case a\n" +
		"determinism: 10 runs each run twice, state digests compared after every step: every pair identical\n" +
		"determinism: 10 runs each run twice, state digests compared after every step: 1 seeds diverged (below)\nseed 3 diverged\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestSweepSummaryAtTheCaps: exactly ListedFailures unknown failures are
// all listed, with no "more" line; a sweep without known findings saves
// no known kind and does not say it saved one.
func TestSweepSummaryAtTheCaps(t *testing.T) {
	out := t.TempDir()
	n := uint64(fuzz.ListedFailures)
	s := fuzz.NewSweeper(fuzz.SweepConfig{From: 1, To: n, Resume: 1, Shard: campaign.Whole, Strategies: harness.Strategies,
		Profile: model.KIP, Out: out, MaxSaved: 3, MaxShrunk: 1, Shrink: 0, Fresh: true, Names: flagNames})
	if err := s.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	ok := harness.RunSummary{Strategy: harness.LastTiered, Outcome: harness.OutcomeOK}
	for seed := uint64(1); seed <= n; seed++ {
		bad := harness.RunSummary{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeSafety, Invariant: "no-hole", Message: "hole"}
		s.Fold(fuzz.SeedResult{Seed: seed, Runs: []harness.RunSummary{bad, ok}}, "")
	}
	s.CloseOut()
	var b strings.Builder
	SweepSummary(&b, s, "1..10")
	text := b.String()
	if !strings.Contains(text, "seed 10 local-log-start: no-hole") {
		t.Errorf("the 10th failure is not listed:\n%s", text)
	}
	for _, bad := range []string{" more (the first ", "known kind"} {
		if strings.Contains(text, bad) {
			t.Errorf("summary says %q:\n%s", bad, text)
		}
	}
}

// TestSweepSummaryShrinkLine: with shrinking on, the summary counts every
// file saved, unknown failures and known findings together, and says how
// many were shrunk (none here: --max-shrunk 0).
func TestSweepSummaryShrinkLine(t *testing.T) {
	out := t.TempDir()
	s := fuzz.NewSweeper(fuzz.SweepConfig{From: 1, To: 2, Resume: 1, Shard: campaign.Whole, Strategies: harness.Strategies,
		Profile: model.KIP, Out: out, MaxSaved: 3, MaxShrunk: 0, Shrink: 5, Fresh: true, Names: flagNames})
	if err := s.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	ok := harness.RunSummary{Strategy: harness.LastTiered, Outcome: harness.OutcomeOK}
	unknown := harness.RunSummary{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeSafety, Invariant: "no-hole", Message: "hole"}
	known := unknown
	known.Kind = "stale-hro"
	s.Fold(fuzz.SeedResult{Seed: 1, Runs: []harness.RunSummary{unknown, ok}}, "")
	s.Fold(fuzz.SeedResult{Seed: 2, Runs: []harness.RunSummary{known, ok}}, "")
	s.CloseOut()
	var b strings.Builder
	SweepSummary(&b, s, "1..2")
	text := strings.Join(strings.Fields(b.String()), " ")
	if want := "shrunk: 0 of the 2 saved (--max-shrunk 0, at most 5 runs each: --shrink)"; !strings.Contains(text, want) {
		t.Errorf("summary lacks %q:\n%s", want, b.String())
	}
}
