package harness

import (
	"testing"

	"tierfetch/scenarios"
)

// TestHealReachesEveryPartition: in a many-partition run the heal restarts
// every crashed replica and a remote-storage outage takes every
// partition's remote storage down, not the first partition's alone. The
// heal's input once went to partition 0 only (the zero Part), so a broker
// crashed with no restart stayed down in every other partition and the
// run broke liveness; the outage was likewise partition 0's only.
func TestHealReachesEveryPartition(t *testing.T) {
	load := func(ev scenarios.Event) *scenarios.Scenario {
		sc, err := scenarios.Load("testdata/replace-six.json") // six tiered partitions on six brokers
		if err != nil {
			t.Fatal(err)
		}
		sc.Events, sc.DurationMs, sc.HealMs = []scenarios.Event{ev}, 5_000, 5_000
		return sc
	}
	b2 := 2
	for _, st := range Strategies {
		crash := load(scenarios.Event{AtMs: 0, Type: scenarios.EventCrash, Broker: &b2})
		if res := Execute(crash, Options{Seed: 1, Strategy: st}); res.Outcome != OutcomeOK {
			t.Errorf("%s: b2 crashed at 0 and healed at 5 s: %s (%s), want ok", st, res.Outcome, res.Violation.Message)
		}

		x := Start(load(scenarios.Event{AtMs: 0, Type: scenarios.EventRemoteOutage, DurationMs: 100_000}), Options{Seed: 1, Strategy: st})
		for x.Done() == nil && x.NowMs() < 1 {
			x.Step()
		}
		down := func() (n int) {
			for _, c := range x.r.f.Parts {
				if c.Remote.OutageUntilUs > x.NowMs()*1000 {
					n++
				}
			}
			return n
		}
		if n := down(); n != len(x.r.f.Parts) {
			t.Errorf("%s: at %d ms, remote storage down in %d of %d partitions, want all", st, x.NowMs(), n, len(x.r.f.Parts))
		}
		for x.Done() == nil {
			x.Step()
		}
		if n := down(); n != 0 || x.Done().Outcome != OutcomeOK {
			t.Errorf("%s: after the heal remote storage down in %d partitions, outcome %s, want 0 and ok", st, n, x.Done().Outcome)
		}
	}
}
