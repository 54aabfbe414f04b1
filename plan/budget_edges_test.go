package plan

import (
	"strings"
	"testing"

	"tierfetch/scenarios"
)

// integralBuilder is a builder whose step estimate is a whole number: one
// in-sync follower long-polling at 500 ms (6 events a second), a retention
// check and an ISR check a second (2), no produce, no copy, no remote
// storage: 8 events a second a run, so that a budget can equal the
// estimate exactly and the edges of the budget's comparisons are tested.
func integralBuilder(budget int64, horizonMs int64) *builder {
	b := &builder{in: &Input{Env: DefaultEnv(), StepBudget: budget}, horizonMs: horizonMs}
	b.in.Env.ProduceBytesPerSec = 0
	b.cfg = scenarios.DefaultConfig()
	b.cfg.ReplicaFetchWaitMaxMs = 500
	b.cfg.LogRetentionCheckIntervalMs = 1000
	b.cfg.ReplicaLagTimeMaxMs = 2000
	b.cfg.RemoteStorageEnable = false
	b.st.InSync = []int32{0}
	return b
}

// TestBudgetThatJustCoversTheScenario: a budget equal to the estimate of
// every run simulating the whole scenario covers it (no note, the whole
// horizon for both strategies); one event less does not.
func TestBudgetThatJustCoversTheScenario(t *testing.T) {
	const horizon = 200_000 // 200 s: 1,600 events a run, 3,200 for a flag-on and a flag-off run
	b := integralBuilder(3_200, horizon)
	if e := b.estimateSteps(horizon, horizon, 1); e != 3_200 {
		t.Fatalf("the estimate is %v, want 3200 (the test's arithmetic)", e)
	}
	if on, off := b.runHorizons(1); on != horizon || off != horizon || len(b.notes) != 0 {
		t.Errorf("budget = estimate: horizons %d / %d ms, notes %q; want the whole %d ms and no note", on, off, b.notes, horizon)
	}
	// A budget equal to the estimate at the flag-on runs' least horizon (130
	// s of waits and a minute: 2,080 events for both runs) still gives the
	// flag-on runs their need, and says so.
	b = integralBuilder(2_080, horizon)
	if on, off := b.runHorizons(1); on != 130_000 || off != 130_000 || len(b.notes) != 1 ||
		!strings.Contains(b.notes[0], "flag-on runs simulate 130.0 s") {
		t.Errorf("budget = the flag-on runs' need: horizons %d / %d ms, notes %q; want 130000 each and the flag-on note", on, off, b.notes)
	}
	// The flag-off runs get the longest time the rest allows, to the
	// event: 2,360 events are 130 s flag on and 165 s flag off exactly.
	b = integralBuilder(2_360, horizon)
	if on, off := b.runHorizons(1); on != 130_000 || off != 165_000 {
		t.Errorf("budget of 130 s + 165 s: horizons %d / %d ms, want 130000 / 165000", on, off)
	}
	b = integralBuilder(3_199, horizon)
	if on, off := b.runHorizons(1); on == horizon && off == horizon || len(b.notes) != 1 {
		t.Errorf("budget one event short: horizons %d / %d ms, notes %q; want a shorter horizon and one note", on, off, b.notes)
	}
}

// TestStoppedRunsAreNotedOnlyWhenThereAreSome: the budget's note names how
// many runs it stopped, and there is no note when it stopped none.
func TestStoppedRunsAreNotedOnlyWhenThereAreSome(t *testing.T) {
	b := integralBuilder(1_000, 60_000)
	b.noteStopped([]RunOutcome{{}, {}}, 10, 20)
	if len(b.notes) != 0 {
		t.Errorf("no run stopped, notes %q; want none", b.notes)
	}
	b.noteStopped([]RunOutcome{{}, {stopped: true}, {}}, 10, 20)
	if len(b.notes) != 1 || !strings.Contains(b.notes[0], "stopped 1 of 3 runs") ||
		!strings.Contains(b.notes[0], "each run's share: 10 events flag on, 20 flag off") {
		t.Errorf("one run of three stopped, notes %q", b.notes)
	}
}

// TestRunHorizonsFitTheBudget: under a budget too small for a flag-on
// replica's copy, every run simulates the same time, the longest the budget
// covers (the bisection stops within a second of it); under one that covers the
// flag-on copy but not the flag-off one, flag-off runs get the longest the
// rest covers.
func TestRunHorizonsFitTheBudget(t *testing.T) {
	for _, budget := range []int64{10_500, 20_000} {
		b := &builder{in: &Input{StepBudget: budget, Env: DefaultEnv()}, cfg: scenarios.DefaultConfig(), horizonMs: 3_600_000, copyRate: 1 << 20,
			st: State{InSync: []int32{0, 1, 2}, PendingUploadBytes: 10 << 20, LocalBytes: 4 << 30}}
		b.in.Env.ProduceBytesPerSec = 0
		on, off := b.runHorizons(2)
		fits := func(on, off int64) bool { return b.estimateSteps(on, off, 2) <= float64(budget) }
		onMore := int64(0) // the flag-on runs' horizon grows with the flag-off's when the two are one
		if on == off {
			onMore = 2000
		}
		if !fits(on, off) || fits(on+onMore, off+2000) || len(b.notes) != 1 {
			t.Errorf("budget %d: horizons %d, %d (estimate %.0f, two seconds more %.0f), notes %q: want the longest that fits, noted",
				budget, on, off, b.estimateSteps(on, off, 2), b.estimateSteps(on+onMore, off+2000, 2), b.notes)
		}
		if budget == 10_500 && on != off || budget == 20_000 && on >= off {
			t.Errorf("budget %d: horizons %d, %d", budget, on, off)
		}
	}
}
