package explore

import (
	"syscall"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// cpuSeconds is the process's CPU time so far (user and system): on a
// shared machine, states per CPU second measure the search, states per
// second the search and the other load.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

// BenchmarkExplore measures distinct states a second on one core (every
// invariant checked at every state), stepping clones (and, for tiny-join,
// re-executing), for the 2-broker tiny-join fixture (without faults to
// depth 24, with every fault kind and lost messages to depth 5), the
// 3-broker tiny-three (to depth 16) and omts-local-deleted to depth 40
// with and without the liveness continuations; the reduced searches
// beside the full ones (full: -full). The names of the first three are
// those of the benchmark before the search went to the scenario's end, so
// that scripts/bench-explore.sh runs both binaries side by side.
func BenchmarkExplore(b *testing.B) {
	sc := fixture(b, "tiny-join")
	omts, ok := scenarios.Lookup("omts-local-deleted")
	if !ok {
		b.Fatal("no omts-local-deleted")
	}
	cases := []struct {
		name  string
		cfg   Config
		modes []string
	}{
		{"tiny-join/depth-24", Config{Scenario: sc, Strategy: harness.LastTiered, Depth: 24}, []string{"clone", "reexecute", "full"}},
		{"tiny-join/all-faults-lost/depth-5", Config{Scenario: sc, Strategy: harness.LastTiered, Depth: 5, Faults: FaultKinds, Lost: true},
			[]string{"clone", "full"}},
		{"tiny-three/depth-16", Config{Scenario: fixture(b, "tiny-three"), Strategy: harness.LastTiered, Depth: 16}, []string{"clone"}},
		{"omts-local-deleted/depth-40", Config{Scenario: omts, Strategy: harness.LastTiered, Depth: 40}, []string{"clone"}},
		{"omts-local-deleted/depth-40/liveness", Config{Scenario: omts, Strategy: harness.LastTiered, Depth: 40, Liveness: true},
			[]string{"clone", "full"}},
	}
	for _, c := range cases {
		for _, mode := range c.modes {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				cfg := c.cfg
				cfg.Reexecute, cfg.NoReduction = mode == "reexecute", mode == "full"
				var states, transitions int64
				cpu0 := cpuSeconds()
				for b.Loop() {
					res, err := Run(cfg)
					if err != nil || res.Violation != nil {
						b.Fatal(err, res.Violation)
					}
					states += res.States
					transitions += res.Transitions
				}
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(states)/(cpuSeconds()-cpu0), "states/cpu-s")
				b.ReportMetric(float64(transitions)/float64(b.N), "transitions/op")
			})
		}
	}
}
