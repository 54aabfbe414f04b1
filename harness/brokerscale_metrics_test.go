package harness

import (
	"testing"

	"tierfetch/scenarios"
	"tierfetch/sim"
)

// replaceSixFile is six tiered partitions on six brokers, broker 2 replaced
// empty at 0 (it holds orders-0, -1 and -2), healed for 10 minutes.
const replaceSixFile = `{"name": "replace-six", "seed": 1, "brokers": 6,
 "config": {"segment_bytes": 1048576, "record_bytes": 1024},
 "partitions": [{"topic": "orders", "partition": 0, "count": 6, "replicas": [0, 1, 2],
   "initial": {"high_watermark": 4096, "highest_remote_offset": 3071,
     "remote_segments": [{"base_offset": 0, "end_offset": 1023, "epoch": 0, "count": 3}],
     "local_segments": [{"base_offset": 1024, "end_offset": 2047, "epoch": 0, "count": 3}]}}],
 "events": [{"at_ms": 0, "type": "replace_broker", "broker": 2}],
 "duration_ms": 10000, "heal_ms": 600000}`

// TestMeasureUntilRestoredIsTheWholeRun: stopping a run once the replaced
// broker is restored (plus a tail) gives the statistics of the run to the
// scenario's end, in less simulated time; the file's metrics are the
// broker's as a whole: the follower is the replaced broker, the catch-up
// its restored time, the bytes all its replicas' (3 re-added, each copying
// [LLSO, LEO) = 3072 records of 1 KiB flag off, [EPUO, LEO) = 1024 flag on).
func TestMeasureUntilRestoredIsTheWholeRun(t *testing.T) {
	sc, err := scenarios.Parse([]byte(replaceSixFile))
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
