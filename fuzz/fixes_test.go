package fuzz

import (
	"strings"
	"testing"

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
		if got, err := ParseFixes(in); err != nil || got != want {
			t.Errorf("ParseFixes(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseFixes("stale-hro,nope"); err == nil || !strings.HasPrefix(err.Error(), "--fix: unknown fix \"nope\"") ||
		!strings.Contains(err.Error(), "simrun fixes") {
		t.Errorf("ParseFixes(nope): %v", err)
	}
}

// TestRecordKeepsFixes: a failure record of a run with fixes names them,
// and reading it back gives the same fixes (as --fix takes them too).
func TestRecordKeepsFixes(t *testing.T) {
	fixes := model.Fixes(0).With(model.FixStaleLocalLogStart)
	sc, _ := scenarios.Lookup("finding-stale-local-log-start")
	opt := harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, Profile: model.Kafka43, Fixes: fixes}
	f := Record(opt, Summarize(harness.Execute(sc, opt)))
	if f == nil || strings.Join(f.Fixes, ",") != "stale-local-log-start" || f.Violation.Kind != "kafka43-aux-state-stall" {
		t.Fatalf("record %+v: want the fix named and the stall it leads to under kafka-4.3", f)
	}
	r, err := ReadRecord(f)
	if err != nil || r.Fixes != fixes || r.Fix != "stale-local-log-start" {
		t.Errorf("read back: %+v, %v", r, err)
	}
}

// TestSweepHeaderFix: a sweep with fixes names them in its shard header,
// whose content digest then differs; without, the header is as before (no
// member, the same digest).
func TestSweepHeaderFix(t *testing.T) {
	h := NewSweepHeader(1, 10, WholeSweep, harness.Strategies, "kip", "", false)
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
	sc := Generate(9647)
	opt := harness.Options{Seed: 9647, Strategy: harness.LastTiered, Profile: model.KafkaTrunk}
	if r := harness.Execute(sc, opt); r.Violation == nil || r.Violation.Invariant != "no-hole" || r.Violation.Kind != "hro-after-truncation" {
		t.Fatalf("without the fix: %s %+v, want no-hole (hro-after-truncation)", r.Outcome, r.Violation)
	}
	opt.Fixes = model.Fixes(0).With(model.FixHROAfterTruncation)
	if r := harness.Execute(sc, opt); r.Outcome != harness.OutcomeOK {
		t.Errorf("with the fix: %s %+v, want ok", r.Outcome, r.Violation)
	}
}
