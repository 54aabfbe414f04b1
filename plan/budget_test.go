package plan

import (
	"math"
	"strings"
	"testing"

	"tierfetch/model"
)

// TestBudgetExtrapolatesTheCopy: with a work budget too small for the
// flag-off copy, the runs stop early and the flag-off catch-up is
// extrapolated from the rate the replica gained on the leader; it lands
// within 1% of the full run's, and the flag-on runs, which join within the
// budget, are unchanged.
func TestBudgetExtrapolatesTheCopy(t *testing.T) {
	plan := func(budget int64) *Result {
		in := clusterFiles(t).input(t, 2)
		in.SeedTo, in.Profiles, in.StepBudget = 2, []model.Profile{model.KIP}, budget
		r, _ := mustPlan(t, in)
		return r
	}
	full, cut := plan(0), plan(150_000)
	fOff, cOff := full.Profiles[0].Strategies[0], cut.Profiles[0].Strategies[0]
	fOn, cOn := full.Profiles[0].Strategies[1], cut.Profiles[0].Strategies[1]
	if fOff.SimulatedMs != full.Scenario.DurationMs || fOn.SimulatedMs != full.Scenario.DurationMs ||
		cOff.SimulatedMs >= cut.Scenario.DurationMs || cOn.SimulatedMs >= cOff.SimulatedMs {
		t.Fatalf("simulated %d and %d of %d, then %d and %d of %d: want the second cut short, flag on shortest", fOff.SimulatedMs, fOn.SimulatedMs,
			full.Scenario.DurationMs, cOff.SimulatedMs, cOn.SimulatedMs, cut.Scenario.DurationMs)
	}
	if !anyContains(cut.Notes, "the work budget (150000 simulated events over all runs) does not cover") {
		t.Errorf("notes %q: want the budget named", cut.Notes)
	}
	if fOff.Extrapolated != 0 || cOff.Extrapolated != cOff.Seeds {
		t.Fatalf("extrapolated %d and %d runs", fOff.Extrapolated, cOff.Extrapolated)
	}
	for i, o := range cOff.Runs {
		want := *fOff.Runs[i].CaughtUpMs
		got := *o.ExtrapolatedMs
		if o.CaughtUpMs != nil || math.Abs(float64(got-want)) > 0.01*float64(want) {
			t.Errorf("seed %d: extrapolated %d ms, the full run joined at %d ms", o.Seed, got, want)
		}
	}
	for i := range fOn.Runs {
		if *fOn.Runs[i].CaughtUpMs != *cOn.Runs[i].CaughtUpMs || fOn.Runs[i].BytesAtJoin != cOn.Runs[i].BytesAtJoin {
			t.Errorf("flag on, seed %d: %+v and %+v", fOn.Runs[i].Seed, fOn.Runs[i], cOn.Runs[i])
		}
	}
	var text strings.Builder
	if err := cut.WriteText(&text); err != nil || !strings.Contains(text.String(), "(extrapolated)") {
		t.Errorf("text does not mark the extrapolation: %v\n%s", err, text.String())
	}
}
