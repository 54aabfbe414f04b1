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
		early, _, stopped := MeasureBrokerScaleUntilRestored(sc, opt, 5*sim.Second, 0)
		if whole.BrokerScale == nil || early.BrokerScale == nil {
			t.Fatalf("%s: no broker-scale metrics", st)
		}
		if *whole.BrokerScale != *early.BrokerScale {
			t.Errorf("%s: stopped when restored %+v, to the end %+v", st, *early.BrokerScale, *whole.BrokerScale)
		}
		if early.SimMs >= whole.SimMs || early.Outcome != OutcomeOK || stopped {
			t.Errorf("%s: stopped at %d ms (%s), the whole run %d ms", st, early.SimMs, early.Outcome, whole.SimMs)
		}
		// A fleet's fetches are its threads': counted, and the path the
		// replicas took is the strategy's.
		path := map[Strategy]string{LocalLogStart: "local-log-start", LastTiered: "earliest-pending-upload"}[st]
		if whole.Fetches == 0 || whole.Path != path || whole.AuxStateBuilds != 3 || whole.ListOffsets != 6 {
			t.Errorf("%s: %d fetches, path %s, %d builds, %d ListOffsets; want some, %s, 3, 6", st, whole.Fetches, whole.Path,
				whole.AuxStateBuilds, whole.ListOffsets, path)
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

// TestBrokerScaleMetricsFollowIsTheReplaced: a file that adds a replica
// and replaces a broker measures the replaced broker (its follower), not
// the first added replica; without a replace, the first added one.
func TestBrokerScaleMetricsFollowIsTheReplaced(t *testing.T) {
	file := func(events string) *scenarios.Scenario {
		sc, err := scenarios.Parse([]byte(`{"brokers": 3, "duration_ms": 2000, "heal_ms": 5000,
		  "partitions": [
		    {"topic": "t", "partition": 0, "replicas": [0], "initial": {"high_watermark": 10, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 0}]}},
		    {"topic": "t", "partition": 1, "replicas": [0, 2], "initial": {"high_watermark": 10, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 0}]}}],
		  "events": [` + events + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	add := `{"at_ms": 0, "type": "add_replica", "broker": 1, "topic": "t", "partition": 0}`
	m, _ := MeasureBrokerScale(file(add+`, {"at_ms": 0, "type": "replace_broker", "broker": 2}`), Options{Seed: 1, Strategy: LastTiered})
	if m.Follower != 2 || m.BrokerScale.Replicas != 2 {
		t.Errorf("replace b2 after adding b1: follower b%d, %d replicas; want b2, 2", m.Follower, m.BrokerScale.Replicas)
	}
	m, _ = MeasureBrokerScale(file(add), Options{Seed: 1, Strategy: LastTiered})
	if m.Follower != 1 || m.BrokerScale.Replicas != 1 {
		t.Errorf("only b1 added: follower b%d, %d replicas; want b1, 1", m.Follower, m.BrokerScale.Replicas)
	}
}

// TestDefaultMaxStepsGrowsWithPartitions: the default work budget is
// DefaultMaxSteps for one partition, and 10,000 steps more for each
// partition of a broker-scale file.
func TestDefaultMaxStepsGrowsWithPartitions(t *testing.T) {
	one, err := scenarios.Parse([]byte(`{"brokers": 2, "replicas": [0, 1], "duration_ms": 1000}`))
	if err != nil {
		t.Fatal(err)
	}
	many, err := scenarios.Parse([]byte(`{"brokers": 2, "duration_ms": 1000, "partitions": [{"topic": "t", "partition": 0, "count": 7, "replicas": [0, 1]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := DefaultMaxStepsFor(one); got != int64(DefaultMaxSteps) {
		t.Errorf("one partition: %d, want %d", got, DefaultMaxSteps)
	}
	if got, want := DefaultMaxStepsFor(many), int64(DefaultMaxSteps)+70_000; got != want {
		t.Errorf("7 partitions: %d, want %d", got, want)
	}
}

// TestMeasureUntilRestoredWithinSteps: a cap of steps stops a run that has
// not restored the broker by then, with outcome ok and stopped reported,
// and changes nothing of a run that restores it within the cap.
func TestMeasureUntilRestoredWithinSteps(t *testing.T) {
	sc, err := scenarios.Load("testdata/replace-six.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range Strategies {
		opt := Options{Seed: 1, Strategy: st}
		free, _, stopped := MeasureBrokerScaleUntilRestored(sc, opt, 5*sim.Second, 0)
		if stopped || free.BrokerScale == nil || !free.BrokerScale.RestoredKnown {
			t.Fatalf("%s: uncapped run stopped %v, metrics %+v", st, stopped, free.BrokerScale)
		}
		roomy, _, stopped := MeasureBrokerScaleUntilRestored(sc, opt, 5*sim.Second, free.Steps+1)
		if stopped || roomy.BrokerScale == nil || *roomy.BrokerScale != *free.BrokerScale || roomy.Steps != free.Steps {
			t.Errorf("%s: a cap above the run's %d steps changed it: stopped %v, %d steps, %+v", st, free.Steps, stopped, roomy.Steps, roomy.BrokerScale)
		}
		short, _, stopped := MeasureBrokerScaleUntilRestored(sc, opt, 5*sim.Second, 50)
		if !stopped || short.Steps != 50 || short.Outcome != OutcomeOK || short.BrokerScale == nil || short.BrokerScale.RestoredKnown {
			t.Errorf("%s: a cap of 50 steps: stopped %v, %d steps, %s, %+v; want stopped at 50, ok, not restored", st, stopped, short.Steps, short.Outcome, short.BrokerScale)
		}
	}
}
