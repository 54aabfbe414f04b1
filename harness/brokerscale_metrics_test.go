package harness

import (
	"testing"

	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestMeasureUntilRestoredIsTheWholeRun: stopping a run once the replaced
// broker is restored (plus a tail) gives the statistics of the run to the
// scenario's end, in less simulated time; the file's metrics are the
// broker's as a whole: the follower is the replaced broker, the catch-up
// its restored time, the bytes all its replicas' (3 re-added, each copying
// [LLSO, LEO) = 3072 records of 1 KiB flag off, [EPUO, LEO) = 1024 flag on).
func TestMeasureUntilRestoredIsTheWholeRun(t *testing.T) {
	sc, err := scenarios.Load("testdata/replace-six.json") // six tiered partitions on six brokers, b2 replaced at 0
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range Strategies {
		opt := Options{Seed: 1, Strategy: st}
		whole, _ := MeasureBrokerScale(sc, opt)
		early, _ := MeasureBrokerScaleUntilRestored(sc, opt, 5*sim.Second)
		if whole.BrokerScale == nil || early.BrokerScale == nil {
			t.Fatalf("%s: no broker-scale metrics", st)
		}
		if *whole.BrokerScale != *early.BrokerScale {
			t.Errorf("%s: stopped when restored %+v, to the end %+v", st, *early.BrokerScale, *whole.BrokerScale)
		}
		if early.SimMs >= whole.SimMs || early.Outcome != OutcomeOK {
			t.Errorf("%s: stopped at %d ms (%s), the whole run %d ms", st, early.SimMs, early.Outcome, whole.SimMs)
		}
		records := map[Strategy]int64{LocalLogStart: 3072, LastTiered: 1024}[st]
		b := whole.BrokerScale
		if whole.Follower != 2 || !whole.CaughtUp || whole.CatchUpMs != b.RestoredMs || whole.BytesFromLeader != 3*records*1024 ||
			b.Replicas != 3 || b.BytesFromLeaders != whole.BytesFromLeader {
			t.Errorf("%s: follower %d, caught up %v in %d ms (restored %d), %d bytes, %d replicas; want b2, restored, 3 x %d records of 1 KiB",
				st, whole.Follower, whole.CaughtUp, whole.CatchUpMs, b.RestoredMs, whole.BytesFromLeader, b.Replicas, records)
		}
	}
}
