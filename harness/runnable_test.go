package harness

import (
	"fmt"
	"testing"

	"tierfetch/scenarios"
)

// TestExecuteRunsBrokerScale: a file of many partitions runs, and so does a
// reassign, in a broker-scale file or a one-partition one (whose partition
// is topic-0): the partition ends on its target replicas.
func TestExecuteRunsBrokerScale(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "duration_ms": 1000, "partitions": [{"topic": "t", "count": 4, "replicas": [0, 1]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckRunnable(sc); err != nil {
		t.Fatalf("CheckRunnable of four partitions: %v", err)
	}
	if res := Execute(sc, Options{Seed: 1, Strategy: LastTiered}); res.Outcome != OutcomeOK || len(res.Partitions) != 4 {
		t.Fatalf("four partitions: %s, %d partition results", res.Outcome, len(res.Partitions))
	}
	for _, file := range []string{
		`{"brokers": 3, "duration_ms": 1000, "partitions": [{"topic": "t", "count": 4, "replicas": [0, 1]}],
		  "events": [{"at_ms": 1, "type": "reassign", "topic": "t", "partitions": [0], "replicas": [1, 2]}]}`,
		`{"brokers": 3, "duration_ms": 1000, "events": [{"at_ms": 1, "type": "reassign", "topic": "topic", "partitions": [0], "replicas": [1, 2]}]}`,
	} {
		sc, err := scenarios.Parse([]byte(file))
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckRunnable(sc); err != nil {
			t.Errorf("CheckRunnable: %v", err)
		}
		res := Execute(sc, Options{Seed: 1, Strategy: LastTiered})
		if c := res.Fleet.Parts[0]; res.Outcome != OutcomeOK || fmt.Sprint(c.Ctrl.Replicas) != "[1 2]" || c.Ctrl.Reassigning() {
			t.Errorf("%s: %s, replicas %v, reassigning %v; want ok on [1 2]", file, res.Outcome, c.Ctrl.Replicas, c.Ctrl.Reassigning())
		}
	}
}
