package compare

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// TestDefaultSweepOnlyInTheDefaultComparison: the default sweep runs
// beside the default comparison only (under its first profile); a
// comparison of one scenario, of generated ones or with --vary runs none.
func TestDefaultSweepOnlyInTheDefaultComparison(t *testing.T) {
	for _, c := range []struct {
		name  string
		f     Config
		sweep int
	}{
		{"default", Config{}, 6 * 2},
		{"--vary", Config{Vary: "replica_fetch_max_bytes=1MiB,4MiB"}, 0},
		{"--scenario", Config{Scenario: "tiering-off"}, 0},
		{"--generated", Config{Generated: true}, 0},
	} {
		if _, sweep, _ := newSetup(t, c.f).Jobs(); sweep != c.sweep {
			t.Errorf("%s: %d pairs of the default sweep, want %d", c.name, sweep, c.sweep)
		}
	}
}

// TestFixedHalfRunsWithEveryFix: without --fix each pair runs twice, the
// second time with every fix: a finding's scenario fails in the first half
// and not in the second, whose pairs say they ran with every fix.
func TestFixedHalfRunsWithEveryFix(t *testing.T) {
	s := newSetup(t, Config{Scenario: "finding-reenable-stale-hro", Seeds: "1", Profiles: "kip"})
	jobs := s.jobs()
	if len(jobs) != 2 || jobs[0].fixed || !jobs[1].fixed {
		t.Fatalf("jobs %+v, want the pair without fixes, then with every fix", jobs)
	}
	failed := func(runs ...*harness.RunMetrics) bool {
		for _, r := range runs {
			if r.Outcome != harness.OutcomeOK {
				return true
			}
		}
		return false
	}
	plain, fixed := s.runPair(jobs[0]), s.runPair(jobs[1])
	if !failed(plain.Local, plain.Tiered) || plain.Fixes != model.Fixes(0).String() {
		t.Errorf("without fixes: fixes %q, outcomes %s, %s; want the finding", plain.Fixes, plain.Local.Outcome, plain.Tiered.Outcome)
	}
	if failed(fixed.Local, fixed.Tiered) || fixed.Fixes != model.AllFixes.String() {
		t.Errorf("with every fix: fixes %q, outcomes %s, %s; want %q and none failing", fixed.Fixes, fixed.Local.Outcome,
			fixed.Tiered.Outcome, model.AllFixes.String())
	}
}
