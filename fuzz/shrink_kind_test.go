package fuzz

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// shrinkKindRuns bounds each shrink of the kind tests: enough for the
// shrinker to drop events, brokers and fixture segments, where a failure
// could turn into another with the same invariant.
const shrinkKindRuns = 150

// findings returns the named scenarios that fail as a known finding under
// some strategy, with that strategy's run.
func findings(t *testing.T) (out []struct {
	sc  *scenarios.Scenario
	opt harness.Options
	run *harness.RunResult
}) {
	t.Helper()
	for _, sc := range scenarios.Named() {
		for _, st := range harness.Strategies {
			opt := harness.Options{Seed: sc.Seed, Strategy: st}
			r := harness.Execute(sc, opt)
			if r.Violation != nil && r.Violation.Kind != "" {
				out = append(out, struct {
					sc  *scenarios.Scenario
					opt harness.Options
					run *harness.RunResult
				}{sc, opt, r})
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no named scenario fails as a known finding")
	}
	return out
}

// TestSameFailureTellsKindsApart: a run of a known finding's scenario is
// the same failure as its own run and not the same as an unknown failure
// of the same invariant, nor as the same invariant under another finding's
// kind: a shrink keeping "the same failure" must keep the kind.
func TestSameFailureTellsKindsApart(t *testing.T) {
	for _, f := range findings(t) {
		name := f.sc.Name + "/" + string(f.opt.Strategy)
		if !SameFailure(f.opt, f.run)(f.sc) {
			t.Errorf("%s: not the same failure as its own run (%s %s)", name, f.run.Violation.Invariant, f.run.Violation.Kind)
		}
		for _, kind := range []string{"", f.run.Violation.Kind + "-other"} {
			want := *f.run
			v := *f.run.Violation
			v.Kind = kind
			want.Violation = &v
			if SameFailure(f.opt, &want)(f.sc) {
				t.Errorf("%s fails %s as the known finding %s, yet counts as the same failure as %s of kind %q",
					name, v.Invariant, f.run.Violation.Kind, v.Invariant, kind)
			}
		}
		other := *f.run
		v := *f.run.Violation
		v.Invariant += "-other"
		other.Violation = &v
		if SameFailure(f.opt, &other)(f.sc) {
			t.Errorf("%s counts as the same failure as another invariant's", name)
		}
	}
}

// checkShrunkKeeps checks that the shrunk scenario, run as its failure
// record asks, fails with want's outcome, invariant and kind, and that the
// record says so.
func checkShrunkKeeps(t *testing.T, name string, shrunk *scenarios.Scenario, want harness.RunSummary) {
	t.Helper()
	if shrunk.Failure == nil {
		t.Errorf("%s: the shrunk scenario records no failure", name)
		return
	}
	rec, err := harness.ReadRecord(shrunk.Failure)
	if err != nil {
		t.Errorf("%s: the shrunk scenario's record does not read: %v", name, err)
		return
	}
	got := harness.Execute(shrunk, harness.Options{Seed: shrunk.Seed, Strategy: rec.Strategy, Profile: rec.Profile, Mutants: rec.Mutants, MaxSteps: rec.MaxSteps})
	if got.Outcome != want.Outcome || got.Violation == nil || got.Violation.Invariant != want.Invariant || got.Violation.Kind != want.Kind {
		t.Errorf("%s: shrunk to a run that fails %s %+v, the original failed %s %s kind %q", name, got.Outcome, got.Violation,
			want.Outcome, want.Invariant, want.Kind)
	}
	if r := shrunk.Failure; r.Outcome != want.Outcome || r.Violation.Invariant != want.Invariant || r.Violation.Kind != want.Kind {
		t.Errorf("%s: the shrunk scenario records %s %s kind %q, the original failed %s %s kind %q", name, r.Outcome,
			r.Violation.Invariant, r.Violation.Kind, want.Outcome, want.Invariant, want.Kind)
	}
}

// TestShrinkKeepsTheKindOfEveryFinding: every known finding's named
// scenario, shrunk (ShrinkRun, as simrun shrink does), still fails as the
// same known finding with the same invariant.
func TestShrinkKeepsTheKindOfEveryFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: shrinks every known finding's scenario")
	}
	for _, f := range findings(t) {
		res := ShrinkRun(f.sc, f.opt, shrinkKindRuns)
		checkShrunkKeeps(t, f.sc.Name+"/"+string(f.opt.Strategy), res.Scenario, harness.Summarize(f.run))
	}
}

// TestShrinkKeepsAFindingBesideAMutantsFailure: a known finding's scenario
// that also holds a later failure of the same invariant only a mutant
// causes (finding-reenable-stale-hro with its first local segment dropped,
// so [0, 1000) is only remote, and a retention_bytes cut at 5 s after the
// hole at 3 s: lso-after-remote-delete deletes [0, 1000) before it raises
// the log start), run under that mutant, fails as the finding; shrunk as
// simrun shrink does, it still fails as the finding, not as the mutant's
// unknown hole that dropping the tiering toggle leaves. And that hole alone,
// the cut without the toggle, shrinks to an unknown failure of its own.
func TestShrinkKeepsAFindingBesideAMutantsFailure(t *testing.T) {
	named, ok := scenarios.Lookup("finding-reenable-stale-hro")
	if !ok {
		t.Fatal("no named scenario finding-reenable-stale-hro")
	}
	sc := cloneScenario(named)
	sc.Initial.LocalSegments = sc.Initial.LocalSegments[1:]
	cut := scenarios.Event{AtMs: 5000, Type: scenarios.EventSetConfig, Key: "retention_bytes", Value: []byte("2560000")}
	sc.Events = append(sc.Events, cut)
	alone := cloneScenario(sc)
	alone.Events = []scenarios.Event{cut}
	for _, st := range harness.Strategies {
		opt := harness.Options{Seed: sc.Seed, Strategy: st, Mutants: model.Mutants(0).With(model.MutantLSOAfterRemoteDelete)}
		for _, c := range []struct {
			name string
			sc   *scenarios.Scenario
			kind string
		}{{"finding beside the mutant's hole", sc, "stale-hro"}, {"the mutant's hole alone", alone, ""}} {
			name := c.name + "/" + string(st)
			r := harness.Execute(c.sc, opt)
			if r.Violation == nil || r.Violation.Invariant != "no-hole" || r.Violation.Kind != c.kind {
				t.Fatalf("%s: %s %+v, want no-hole of kind %q (the fixture no longer holds what it is for)", name, r.Outcome, r.Violation, c.kind)
			}
			res := ShrinkRun(c.sc, opt, shrinkKindRuns)
			checkShrunkKeeps(t, name, res.Scenario, harness.Summarize(r))
		}
	}
}

// TestShrinkKeepsTheKindUnderEveryMutant: every known finding's scenario
// run under each mutant of the bug zoo fails one way or another (the
// finding, or the mutant's own unknown failure of the same invariant); its
// shrink keeps that failure's kind and invariant, so the mutant's failure
// never shrinks into the finding its scenario also holds.
func TestShrinkKeepsTheKindUnderEveryMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: shrinks every finding under every mutant")
	}
	kinds := map[string]int{}
	for _, f := range findings(t) {
		for m := model.Mutant(0); m < model.NumMutants; m++ {
			opt := f.opt
			opt.Mutants = model.Mutants(0).With(m)
			r := harness.Execute(f.sc, opt)
			if r.Violation == nil {
				continue
			}
			kinds[r.Violation.Kind]++
			res := ShrinkRun(f.sc, opt, shrinkKindRuns)
			checkShrunkKeeps(t, f.sc.Name+"/"+string(opt.Strategy)+"/"+m.String(), res.Scenario, harness.Summarize(r))
		}
	}
	t.Logf("failures shrunk, by kind: %v", kinds)
}
