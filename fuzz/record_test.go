package fuzz

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestSavedFailuresRecordHowTheyFailed: a sweep's saved files (a seed's
// scenario and its shrunk case) record the run's strategy, profile and
// violation, and running a file as it records fails exactly so (the same
// outcome, invariant, kind and step); --max-shrunk bounds the shrinks; the
// manifest lists every file written.
func TestSavedFailuresRecordHowTheyFailed(t *testing.T) {
	if testing.Short() {
		t.Skip("sweeps 16 seeds and shrinks one")
	}
	out := t.TempDir()
	cfg, err := NewSweepConfig(SweepArgs{Seeds: "8..23", Strategy: "both", Profile: "kafka-4.3", Shard: "0/1", Out: out, Workers: 2,
		Shrink: 60, MaxSaved: DefaultMaxSaved, MaxShrunk: 1, MaxSteps: harness.DefaultMaxSteps})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSweeper(cfg)
	if err := s.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	s.Run(context.Background())
	s.CloseOut()
	if len(s.Totals.FirstFindings) < 2 || len(s.Shrunk()) != 1 {
		t.Fatalf("%d known kinds saved, %d shrunk; want at least 2 kinds (seeds 8 and 23 under kafka-4.3) and 1 shrunk (--max-shrunk 1)",
			len(s.Totals.FirstFindings), len(s.Shrunk()))
	}
	files, _ := filepath.Glob(filepath.Join(out, "seed-*.json"))
	if len(files) != len(s.Totals.FirstFindings)+1 {
		t.Errorf("files %v: want one per known kind and one shrunk case", files)
	}
	manifest, _ := os.ReadFile(filepath.Join(out, "simrun-manifest.txt"))
	for _, f := range files {
		if !slices.Contains(strings.Split(string(manifest), "\n"), filepath.Base(f)) {
			t.Errorf("the manifest does not list %s:\n%s", f, manifest)
		}
		sc, err := scenarios.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Failure == nil {
			t.Fatalf("%s records no failure", f)
		}
		r, err := harness.ReadRecord(sc.Failure)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: r.Strategy, Profile: r.Profile, Mutants: r.Mutants,
			MaxSteps: r.MaxSteps})
		want := sc.Failure
		if got.Outcome != want.Outcome || got.Violation == nil || got.Violation.Invariant != want.Violation.Invariant ||
			got.Violation.Kind != want.Violation.Kind || got.Violation.Step != want.Violation.Step || got.Violation.AtMs != want.Violation.AtMs {
			t.Errorf("%s: run as recorded gives %s %+v; the file records %s %+v", f, got.Outcome, got.Violation, want.Outcome, want.Violation)
		}
		if r.Profile.Name() != "kafka-4.3" || !strings.Contains(f, string(r.Strategy)) {
			t.Errorf("%s records strategy %s, profile %s", f, r.Strategy, r.Profile.Name())
		}
	}
}

// TestReadRecordNamesTheMember: names this simrun does not know are
// refused naming the member.
func TestReadRecordNamesTheMember(t *testing.T) {
	good := scenarios.Failure{Strategy: "last-tiered", Profile: "kip", Outcome: harness.OutcomeSafety,
		Violation: scenarios.FailureViolation{Invariant: "no-hole"}}
	if _, err := harness.ReadRecord(&good); err != nil {
		t.Fatal(err)
	}
	for want, mutate := range map[string]func(*scenarios.Failure){
		"failure.strategy":   func(f *scenarios.Failure) { f.Strategy = "both" },
		"failure.profile":    func(f *scenarios.Failure) { f.Profile = "kafka-9" },
		"failure.mutants[0]": func(f *scenarios.Failure) { f.Mutants = []string{"nope"} },
		"failure.fixes[0]":   func(f *scenarios.Failure) { f.Fixes = []string{"nope"} },
		"failure.outcome":    func(f *scenarios.Failure) { f.Outcome = "ok" },
		"failure.max_steps":  func(f *scenarios.Failure) { f.MaxSteps = harness.MaxStepsLimit + 1 },
	} {
		f := good
		mutate(&f)
		if _, err := harness.ReadRecord(&f); err == nil || !strings.HasPrefix(err.Error(), want+":") {
			t.Errorf("%s: error %v", want, err)
		}
	}
}
