package explore

import (
	"runtime"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestMemoryEstimate: on searches that reach their memory budget (states
// shed and rebuilt), the heap the search holds, taken after a collection
// every few thousand states and at the liveness continuations, stays
// within the search's estimate (a tenth and 1 MiB of tolerance for what
// is sampled): simrun explore limits the runtime to a third more than
// the estimate may reach (RuntimeLimit, searchBudget), so --max-memory
// bounds the process only while this holds.
func TestMemoryEstimate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two searches to their memory budget, with collections to sample the heap")
	}
	lrs, ok := scenarios.Lookup("local-retention-sweep")
	if !ok {
		t.Fatal("no local-retention-sweep")
	}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		// Small states, wide levels: the nodes and the visited set weigh.
		{"tiny-join/every-fault-lost", Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Faults: FaultKinds,
			Lost: true, MaxStates: 60_000, MaxMemoryMiB: 80}},
		// Large states (about 23 KiB encoded), then the continuations.
		{"local-retention-sweep/from-60s", Config{Scenario: lrs, Strategy: harness.LastTiered, Faults: FaultKinds, Lost: true,
			FromMs: 60_000, MaxStates: 8_000, MaxMemoryMiB: 120, Liveness: true}},
	} {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := int64(ms.HeapAlloc)
		worst, samples := 0.0, 0
		memoryHook = func(x *explorer) {
			if x.part == PartLiveness && x.res.LivenessChecked%50 != 1 || x.part != PartLiveness && x.res.States%2_000 != 0 {
				return
			}
			runtime.GC()
			runtime.ReadMemStats(&ms)
			live, est := int64(ms.HeapAlloc)-base, x.mem.fixed+x.mem.clones
			samples++
			worst = max(worst, float64(live)/float64(est))
			if live > est+est/10+1<<20 {
				t.Errorf("%s: %d states (%s): the search holds %.1f MiB, its estimate is %.1f MiB", c.name, x.res.States,
					x.part, float64(live)/(1<<20), float64(est)/(1<<20))
			}
		}
		res, err := Run(c.cfg)
		memoryHook = nil
		if err != nil {
			t.Fatal(err)
		}
		if res.Rebuilt == 0 || samples < 4 {
			t.Errorf("%s: the budget was not reached (%d rebuilt, %d samples)", c.name, res.Rebuilt, samples)
		}
		t.Logf("%s: %d states, estimate peak %.1f MiB of %.1f, %d samples, heap / estimate at most %.2f", c.name, res.States,
			res.MemoryMiB, float64(searchBudget(c.cfg.MaxMemoryMiB))/(1<<20), samples, worst)
	}
}
