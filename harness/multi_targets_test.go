package harness

import (
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestTopicEventReachesItsTopicOnly: a produce that names a topic and no
// partition appends to every partition of that topic and to none of
// another's.
func TestTopicEventReachesItsTopicOnly(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 2, "duration_ms": 400, "heal_ms": 400,
  "partitions": [{"topic": "a", "count": 2, "replicas": [0, 1]}, {"topic": "b", "count": 2, "replicas": [0, 1]}],
  "events": [{"at_ms": 0, "type": "produce", "topic": "a", "records": 10, "over_ms": 100}]}`))
	if err != nil {
		t.Fatal(err)
	}
	appends := map[model.PartID]int{}
	obs := model.ObserverFunc(func(_ sim.Time, e *model.Event) {
		if e.Kind == model.EvAppend {
			appends[e.Part]++
		}
	})
	res := Execute(sc, Options{Seed: 1, Strategy: LastTiered, Profile: model.KIP, Observers: []model.Observer{obs}})
	if res.Outcome != OutcomeOK {
		t.Fatalf("%s: %v", res.Outcome, res.Violation)
	}
	// Partitions 0 and 1 are a's, 2 and 3 b's (file order).
	if appends[0] == 0 || appends[1] == 0 || appends[2] != 0 || appends[3] != 0 {
		t.Errorf("appends by partition %v: want a-0 and a-1 only", appends)
	}
}

// TestCheckTracePartition: a trace can be limited to a partition the
// scenario holds, named topic-partition; a name without a topic or a
// number, a partition it does not hold, and a one-partition scenario are
// refused, each saying why.
func TestCheckTracePartition(t *testing.T) {
	sc, err := scenarios.Parse([]byte(fleetFile))
	if err != nil {
		t.Fatal(err)
	}
	one, err := scenarios.Parse([]byte(`{"brokers": 2, "duration_ms": 400, "heal_ms": 400}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sc   *scenarios.Scenario
		name string
		want string // "": taken
	}{
		{sc, "t-1", ""},
		{sc, "t-2", `"t-2": no such partition in the scenario (its partitions run from t-0 to t-1)`},
		{sc, "-1", `"-1": want topic-partition, such as orders-3`},
		{sc, "t1", `"t1": want topic-partition`},
		{sc, "t-x", `"t-x": the partition after the last '-' must be a number`},
		{one, "topic-0", "the scenario holds one partition"},
	} {
		err := CheckTracePartition(c.sc, c.name)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.name, err, c.want)
		}
	}
}
