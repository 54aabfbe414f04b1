package explore

import (
	"fmt"
	"slices"
	"testing"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestBudgetedSearchesAgree: a search whose memory budget drops states
// (kept as paths, rebuilt when expanded: MaxMemoryMiB) and one that
// re-runs every path from the start (Reexecute) find what the same search
// keeping every state finds: the same states, transitions, skipped steps,
// depth, frontier, stop and findings (their counterexamples replay), and
// simrun explore prints the same text for them (with the liveness
// continuations: the memo is bounded by the budget too, so its hits and
// the continuations' steps may differ). What they cost differs: the runs,
// the steps run, the states rebuilt, the steps taken on a state itself and
// the states restored after a wrong guess, the memory estimate's peak;
// those are a function of the search, the same on every machine, and
// pinned here, with the memory budget that drops states (rebuilt > 0) and
// the re-execution (every state rebuilt). The configurations: faults at a
// depth bound, a violation found, a --from-ms root (states rebuilt from
// the prefix's end), a shard, liveness continuations.
func TestBudgetedSearchesAgree(t *testing.T) {
	tiny := fixture(t, "tiny-join")
	all := Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 3, Faults: FaultKinds}
	hw := Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 30, Mutants: model.Mutants(0).With(model.MutantHWNotReset)}
	from := Config{Scenario: tiny, Strategy: harness.LastTiered, FromMs: 5, Depth: 3, Faults: FaultKinds}
	from4 := from
	from4.Depth = 4
	// tiny-join shortened to 10 ms and a heal of 10 ms: a liveness
	// violation (b1 never joins), and steps guessed a state's last wrongly.
	shortened := *tiny
	shortened.DurationMs, shortened.HealMs = 10, 10
	shortened.Events = slices.Clone(tiny.Events)
	shortened.Events[1].OverMs = 10
	short := Config{Scenario: &shortened, Strategy: harness.LastTiered, Depth: 14}
	shard := all
	shard.Shard = campaign.Shard{K: 1, N: 2}
	live := Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 3, Faults: []string{"crash", "elect"}, Liveness: true}
	// Each variant: its memory budget (0: the default, every state kept),
	// re-executed or not, and its pin: runs, steps run, rebuilt, in place,
	// restored, memory estimate (MiB), memo hits, continuation steps.
	type variant struct {
		maxMemoryMiB int
		reexecute    bool
		pin          string
	}
	for _, c := range []struct {
		name     string
		cfg      Config
		variants []variant
	}{
		{"every-fault/depth-3", all, []variant{{0, false, "1 1144 0 83 0 3.3193 0 0"}, {17, false, "10 1162 242 83 0 0.7500 0 0"},
			{0, true, "1228 3377 361 0 0 0.2517 0 0"}}},
		{"hw-not-reset/depth-30", hw, []variant{{0, false, "2 620 0 234 0 1.0512 0 0"}, {17, false, "4 640 30 234 0 0.7500 0 0"},
			{0, true, "888 6830 362 0 0 0.1274 0 0"}}},
		{"shortened/depth-14", short, []variant{{0, false, "2 610 0 228 21 0.7440 0 0"}, {0, true, "882 6757 317 0 0 0.1103 0 0"}}},
		{"from-5ms/every-fault/depth-4", from4, []variant{{0, false, "1 2150 0 188 0 8.9332 0 0"}, {17, false, "97 2438 841 188 0 0.7500 0 0"}}},
		{"from-5ms/every-fault/depth-3", from, []variant{{0, false, "1 419 0 37 0 1.7971 0 0"}, {0, true, "447 5309 188 0 0 0.1289 0 0"}}},
		{"every-fault/depth-3/shard-1-of-2", shard, []variant{{0, false, "1 456 0 33 0 1.7039 0 0"}, {17, false, "1 456 88 33 0 0.7500 0 0"},
			{0, true, "490 1353 184 0 0 0.1254 0 0"}}},
		{"crash-elect/depth-3/liveness", live, []variant{{0, false, "1 357 0 45 0 0.8793 54 3121"}, {17, false, "13 393 12 45 0 0.7499 54 3121"},
			{0, true, "474 1259 116 0 0 0.0937 54 3121"}}},
	} {
		var want string
		for i, v := range c.variants {
			cfg := c.cfg
			cfg.MaxMemoryMiB, cfg.Reexecute = v.maxMemoryMiB, v.reexecute
			how := fmt.Sprintf("max-memory %d, re-executed %v", v.maxMemoryMiB, v.reexecute)
			res := budgetRun(t, c.name, cfg)
			if i == 0 {
				want = agreed(res)
			} else if got := agreed(res); got != want {
				t.Errorf("%s, %s:\n%s\nwith every state kept:\n%s", c.name, how, got, want)
			}
			if got := costs(res); got != v.pin {
				t.Errorf("%s, %s: runs, steps run, rebuilt, in place, restored, memory, memo hits, continuation steps %q, want %q",
					c.name, how, got, v.pin)
			}
		}
	}
}

// budgetRun runs cfg and replays the counterexamples it found.
func budgetRun(t *testing.T, name string, cfg Config) *Result {
	t.Helper()
	res, err := Run(cfg)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.Violation != nil {
		checkReplays(t, cfg, res.Violation)
	}
	for _, k := range res.Known {
		checkReplays(t, cfg, k)
	}
	return res
}

// agreed is what a search's budget and re-execution do not change: its
// report but for what they cost, and the text simrun explore prints.
func agreed(res *Result) string {
	r, _ := ReportOf(res)
	r.Rebuilt, r.MemoryMiB = 0, 0
	if res.LivenessChecked > 0 {
		r.MemoHits, r.ContSteps = 0, 0 // the memo is bounded by the budget too
	}
	h := Header{Scenario: "tiny-join", Strategy: "last-tiered", Profile: "kip", Shard: "0/1", MaxStates: DefaultMaxStates,
		Liveness: res.LivenessChecked > 0}
	text := Text(h, r, 0, nil)
	v := r.Violation
	r.Violation = nil
	return fmt.Sprintf("%+v\nviolation %+v\n%s", r, v, text)
}

// costs is what a search's budget and re-execution change.
func costs(r *Result) string {
	return fmt.Sprintf("%d %d %d %d %d %.4f %d %d", r.Runs, r.StepsRun, r.Rebuilt, r.InPlace, r.Restored, r.MemoryMiB, r.MemoHits,
		r.ContinuationSteps)
}
