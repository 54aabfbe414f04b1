package explore

import (
	"testing"

	"tierfetch/harness"
)

// BenchmarkExplore measures distinct states a second on one core (every
// invariant checked at every state), stepping clones and re-executing, for
// the 2-broker tiny-join fixture (without faults to depth 24, with every
// fault kind and lost messages to depth 5) and the 3-broker tiny-three (to
// depth 16). No liveness continuations: those are whole runs.
func BenchmarkExplore(b *testing.B) {
	sc := fixture(b, "tiny-join")
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"tiny-join/depth-24", Config{Scenario: sc, Strategy: harness.LastTiered, Depth: 24}},
		{"tiny-join/all-faults-lost/depth-5", Config{Scenario: sc, Strategy: harness.LastTiered, Depth: 5, Faults: FaultKinds, Lost: true}},
		{"tiny-three/depth-16", Config{Scenario: fixture(b, "tiny-three"), Strategy: harness.LastTiered, Depth: 16}},
	} {
		for _, reexec := range []bool{false, true} {
			mode := "clone"
			if reexec {
				mode = "reexecute"
			}
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				cfg := c.cfg
				cfg.Reexecute = reexec
				var states int64
				for b.Loop() {
					res, err := Run(cfg)
					if err != nil || res.Violation != nil {
						b.Fatal(err, res.Violation)
					}
					states += res.States
				}
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
			})
		}
	}
}
