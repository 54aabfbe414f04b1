package harness

import (
	"testing"

	"tierfetch/scenarios"
)

// TestForkOfOneOrManyPartitions: a fork of a one-partition run (Fork,
// ForkInto) keeps no digest but counts the events a clone does; a
// many-partition run's fork is its clone, digest and all.
func TestForkOfOneOrManyPartitions(t *testing.T) {
	fleet, err := scenarios.Parse([]byte(fleetFile))
	if err != nil {
		t.Fatal(err)
	}
	one, _ := scenarios.Lookup("leader-knows-hro")
	for _, c := range []struct {
		name string
		sc   *scenarios.Scenario
		lean bool
	}{{"one partition", one, true}, {"two partitions", fleet, false}} {
		x := Start(c.sc, Options{Seed: c.sc.Seed, Strategy: LastTiered, Chooser: &Script{}})
		for range 5 {
			x.Step()
		}
		clone := x.Clone(&Script{})
		forks := []*Run{x.Fork(&Script{}), x.ForkInto(nil, &Script{}), x.ForkInto(x.Fork(&Script{}), &Script{})}
		for clone.Done() == nil {
			clone.Step()
		}
		want := clone.Done()
		for i, f := range forks {
			if f.Forked() != c.lean {
				t.Errorf("%s: fork %d: Forked %v, want %v", c.name, i, f.Forked(), c.lean)
			}
			for f.Done() == nil {
				f.Step()
			}
			got := f.Done()
			if got.Events != want.Events || got.Steps != want.Steps || got.Outcome != want.Outcome {
				t.Errorf("%s: fork %d ended %s after %d steps, %d events; the clone %s, %d, %d", c.name, i,
					got.Outcome, got.Steps, got.Events, want.Outcome, want.Steps, want.Events)
			}
			if wantDigest := map[bool]string{true: "", false: want.Digest}[c.lean]; got.Digest != wantDigest {
				t.Errorf("%s: fork %d digest %q, want %q", c.name, i, got.Digest, wantDigest)
			}
		}
	}
}
