package plan

import (
	"math"
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

// termsBuilder is a builder where every term of the horizons and of the
// step estimate counts: two in-sync followers polling at 250 ms, retention
// checked every 500 ms, replicas lagging out after 1 s, tiering on with a
// 20 s task interval, 1 MiB/s produced and 1 MiB/s of copy, 10 MiB not yet
// uploaded, 1000 MiB local, and a log start above the highest uploaded
// offset (a flag-on replica waits for a segment to roll and upload).
func termsBuilder() *builder {
	b := &builder{in: &Input{Env: DefaultEnv(), StepBudget: 1 << 40}, horizonMs: 3_600_000, copyRate: 1 << 20}
	b.in.Env.ProduceBytesPerSec = 1 << 20
	c := scenarios.DefaultConfig()
	c.RemoteMetadataReadyMs, c.RemoteLogManagerTaskIntervalMs, c.ReplicaFetchBackoffMs = 100_000, 20_000, 1_000
	c.SegmentBytes, c.RemoteUploadMs = 100<<20, [2]int64{1_000, 5_000}
	c.ReplicaFetchWaitMaxMs, c.LogRetentionCheckIntervalMs, c.ReplicaLagTimeMaxMs = 250, 500, 1_000
	c.RemoteStorageEnable, c.ReplicaFetchMaxBytes = true, 1<<20
	b.cfg = c
	b.st = State{InSync: []int32{0, 1}, RemoteStorageEnable: true, LogStartOffset: 100, LocalLogStartOffset: 500, HighestRemoteOffset: 99,
		PendingUploadBytes: 10 << 20, LocalBytes: 1000 << 20}
	return b
}

// TestHorizonAndEstimateTerms: the least horizon, a flag-on replica's
// need and the step estimate, each term by hand (what a plan's budget note
// reports and how it splits the budget).
func TestHorizonAndEstimateTerms(t *testing.T) {
	b := termsBuilder()
	// Waits: metadata 100 s, two task intervals 40 s, ten backoffs 10 s,
	// and a minute.
	if got := b.floorHorizonMs(); got != 210_000 {
		t.Errorf("floor %d ms, want 210000", got)
	}
	// The waits, 10 MiB at 1 MiB/s with a tenth more (11 s), and a segment
	// of 100 MiB at 1 MiB/s produced (100 s) plus a task interval (20 s)
	// and the longest upload (5 s).
	if got := b.minHorizonMs(); got != 346_000 {
		t.Errorf("flag-on need %d ms, want 346000", got)
	}
	// Steady state per second: 6 events x 2 followers x 2 (a 250 ms wait
	// polls twice as often as 500 ms) = 24, retention 2, ISR checks 2, RLM
	// tasks 0.1, produce 10 + 17 x 2 = 44: 72.1. Copy: 2 events a fetch of
	// 1 MiB; fetched at 2 MiB/s (copy and produce) up to what there is.
	// Flag on, 100 s: 7210 + 2 x min(200, 10 + 100) = 7430. Flag off, 200 s:
	// 14420 + 2 x min(400, 1000 + 200) = 15220. Three runs of each.
	if got := b.estimateSteps(100_000, 200_000, 3); math.Abs(got-67_950) > 1e-6 {
		t.Errorf("estimate %v, want 67950", got)
	}
	// No copy rate, nothing produced, nothing to wait for: the waits alone
	// (and never under two minutes).
	b = termsBuilder()
	b.copyRate, b.in.Env.ProduceBytesPerSec = 0, 0
	if got := b.minHorizonMs(); got != 210_000 {
		t.Errorf("no copy, no produce: flag-on need %d ms, want the waits' 210000", got)
	}
	b = termsBuilder()
	b.st.HighestRemoteOffset = 100 // at the log start: nothing to wait for
	if got := b.minHorizonMs(); got != 221_000 {
		t.Errorf("tiered at the log start: flag-on need %d ms, want 221000 (no segment to wait for)", got)
	}
}
