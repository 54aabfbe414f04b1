package harness

import (
	"fmt"
	"strings"
	"testing"

	"tierfetch/scenarios"
)

// TestExecuteRefusesBrokerScale: a run of what this build cannot run (a
// reassign) is a programmer error (commands
// call CheckRunnable first), reported as such, not as an index out of range
// deep in a run; a file of many partitions runs.
func TestExecuteRefusesBrokerScale(t *testing.T) {
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
		if err := CheckRunnable(sc); err == nil || !strings.Contains(err.Error(), "not runnable yet in this build") {
			t.Errorf("CheckRunnable: %v", err)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "CheckRunnable refuses it") {
					t.Errorf("Execute: recovered %v, want a panic naming CheckRunnable", r)
				}
			}()
			Execute(sc, Options{Seed: 1, Strategy: LastTiered})
		}()
	}
}
