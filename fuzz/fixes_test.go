package fuzz

import (
	"fmt"
	"strings"
	"testing"

	"tierfetch/campaign"
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// TestParseFixes: --fix takes names, comma-separated, or all; an unknown
// name is refused naming the flag and 'simrun fixes'.
func TestParseFixes(t *testing.T) {
	for in, want := range map[string]model.Fixes{"": 0, "all": model.AllFixes,
		"stale-hro, aux-state-at-log-start": model.Fixes(0).With(model.FixStaleHRO).With(model.FixAuxStateAtLogStart),
		"stale-hro-reset-only":              model.Fixes(0).With(model.FixStaleHROResetOnly)} {
		if got, err := harness.ParseFixes(in); err != nil || got != want {
			t.Errorf("ParseFixes(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := harness.ParseFixes("stale-hro,nope"); err == nil || !strings.HasPrefix(err.Error(), "Fix: unknown fix \"nope\"") ||
		!strings.Contains(err.Error(), "simrun fixes") {
		t.Errorf("ParseFixes(nope): %v", err)
	}
	// all in a list was "unknown fix \"all\" (known: all, ...)".
	for _, in := range []string{"all,all", "stale-hro,all"} {
		if _, err := harness.ParseFixes(in); err == nil || err.Error() != fmt.Sprintf("Fix: all stands alone (every fix), got %q", in) {
			t.Errorf("ParseFixes(%q): %v", in, err)
		}
	}
}

// TestRecordKeepsFixes: a failure record of a run with fixes names them,
// and reading it back gives the same fixes (as --fix takes them too).
func TestRecordKeepsFixes(t *testing.T) {
	fixes := model.Fixes(0).With(model.FixStaleLocalLogStart)
	sc, _ := scenarios.Lookup("finding-stale-local-log-start")
	opt := harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, Profile: model.Kafka43, Fixes: fixes}
	f := harness.Record(opt, harness.Summarize(harness.Execute(sc, opt)))
	if f == nil || strings.Join(f.Fixes, ",") != "stale-local-log-start" || f.Violation.Kind != "kafka43-aux-state-stall" {
		t.Fatalf("record %+v: want the fix named and the stall it leads to under kafka-4.3", f)
	}
	r, err := harness.ReadRecord(f)
	if err != nil || r.Fixes != fixes || r.Fix != "stale-local-log-start" {
		t.Errorf("read back: %+v, %v", r, err)
	}
}

// TestSweepHeaderFix: a sweep with fixes names them in its shard header,
// whose content digest then differs; without, the header is as before (no
// member, the same digest).
func TestSweepHeaderFix(t *testing.T) {
	h := NewSweepHeader(1, 10, campaign.Whole, harness.Strategies, "kip", "", false)
	plain := h.Digest()
	line, _ := SweepHeaderLine(h)
	if strings.Contains(string(line), `"fix"`) {
		t.Errorf("a header without fixes has a fix member: %s", line)
	}
	h.Fix = "stale-hro"
	if h.Digest() == plain {
		t.Error("the fix does not enter the content digest")
	}
}

// TestFixHROAfterTruncation keeps the hro-after-truncation report's seed
// 9647 (kafka-trunk, flag on): an unclean election truncates b0 below the
// HRO it uploaded, and once b0 leads again local retention trusts that HRO
// and deletes records never uploaded (no-hole, kind hro-after-truncation).
// Lowering the HRO at the truncation (UnifiedLog.truncateTo) ends it.
func TestFixHROAfterTruncation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a generated scenario of a few seconds")
	}
	sc := gen.Generate(9647)
	opt := harness.Options{Seed: 9647, Strategy: harness.LastTiered, Profile: model.KafkaTrunk}
	if r := harness.Execute(sc, opt); r.Violation == nil || r.Violation.Invariant != "no-hole" || r.Violation.Kind != "hro-after-truncation" {
		t.Fatalf("without the fix: %s %+v, want no-hole (hro-after-truncation)", r.Outcome, r.Violation)
	}
	opt.Fixes = model.Fixes(0).With(model.FixHROAfterTruncation)
	if r := harness.Execute(sc, opt); r.Outcome != harness.OutcomeOK {
		t.Errorf("with the fix: %s %+v, want ok", r.Outcome, r.Violation)
	}
}

// TestFixStaleLogStartSegmentBelowEpoch keeps seed 8261 (every profile,
// both strategies), which replaced stale-log-start-unfinished-segment's
// first proposal: b0 keeps its own, uncommitted records of epoch 1 below
// the log start offset the leader gave it (LeaderEpochFileCache answers an
// epoch older than its earliest with its earliest start), leads, and
// uploads the segment whole: its start offset 1104 holds epoch 1, epoch 2
// begins in it at 1888. b2, elected with its lagging log start 1104, finds
// it first under its earliest epoch 2; skipping unfinished segments still
// takes 1104, where no read under epoch 2 finds anything. Taking where
// epoch 2 begins in the segment raises the log start offset to 1888.
func TestFixStaleLogStartSegmentBelowEpoch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a generated scenario of a few seconds")
	}
	sc := gen.Generate(8261)
	for _, p := range []model.Profile{model.KIP, model.KafkaTrunk} {
		opt := harness.Options{Seed: 8261, Strategy: harness.LocalLogStart, Profile: p,
			Fixes: model.Fixes(0).With(model.FixUnfinishedSegmentSkipOnly)}
		if r := harness.Execute(sc, opt); r.Violation == nil || r.Violation.Invariant != "stale-log-start" ||
			!strings.Contains(r.Violation.Message, "log start offset 1104") {
			t.Errorf("%s skip-only: %s %+v, want stale-log-start at 1104", p.Name(), r.Outcome, r.Violation)
		}
		opt.Fixes = model.Fixes(0).With(model.FixStaleLogStartUnfinishedSegment)
		if r := harness.Execute(sc, opt); r.Outcome != harness.OutcomeOK {
			t.Errorf("%s with the fix: %s %+v, want ok", p.Name(), r.Outcome, r.Violation)
		}
	}
}
