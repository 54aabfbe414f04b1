package scenarios

import (
	"testing"
	"time"
)

func TestExploreShrink(t *testing.T) {
	sc, _ := Lookup("finding-reenable-stale-hro")
	t0 := time.Now()
	r := Execute(sc, Options{Seed: 1, Strategy: LocalLogStart})
	t.Logf("named: %v %+v %v", time.Since(t0), r.Violation, r.Outcome)
	t0 = time.Now()
	found := 0
	for seed := uint64(1); seed <= 3000; seed++ {
		g := Generate(seed)
		t1 := time.Now()
		r := Execute(g, Options{Seed: seed, Strategy: LocalLogStart})
		if r.Violation != nil {
			t.Logf("seed %d: %s %s %s %v events=%d (%v)", seed, r.Outcome, r.Violation.Invariant, r.Violation.Kind, r.Violation.AtMs, len(g.Events), time.Since(t1))
			if r.Violation.Kind == "stale-hro" {
				found++
				if found > 5 {
					break
				}
			}
		}
	}
	t.Logf("loop: %v", time.Since(t0))
}
