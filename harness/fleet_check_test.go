package harness

import (
	"strings"
	"testing"

	"tierfetch/scenarios"
)

// TestFleetChecksEveryTouchedPartition: a broken invariant in any
// partition the step touched fails the run at that step, naming the
// partition: the second of two touched ones as well as the first. The
// break is planted, a leader's HRO no upload ever reached.
func TestFleetChecksEveryTouchedPartition(t *testing.T) {
	sc, err := scenarios.Parse([]byte(fleetFile))
	if err != nil {
		t.Fatal(err)
	}
	for p, name := range []string{"t-0", "t-1"} {
		x := Start(sc, Options{Seed: 1, Strategy: LastTiered})
		x.r.f.Parts[p].Brokers[0].HighestRemote = 1 << 50
		x.Step() // the produce: both partitions append
		r := x.Done()
		if r == nil || r.Outcome != OutcomeSafety || r.Violation.Invariant != "highest-remote" || r.Violation.Step != 1 ||
			!strings.HasPrefix(r.Violation.Message, name+":") {
			t.Errorf("%s's HRO planted: after step 1, %+v", name, r)
		}
	}
}
