package harness

import (
	"testing"

	"tierfetch/scenarios"
)

// TestResultJSONOfARefusedFirstEventAndQuietFollowers: the result object
// names a refused scenario event by its index, the first (0) too; a
// follower that never retried lists no retries by reason.
func TestResultJSONOfARefusedFirstEventAndQuietFollowers(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "replicas": [0, 1], "duration_ms": 500, "heal_ms": 500,
	  "events": [{"at_ms": 0, "type": "restart", "broker": 1}, {"at_ms": 100, "type": "add_replica", "broker": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	j := Execute(sc, Options{Seed: 1, Strategy: LastTiered}).JSON()
	if len(j.Skipped) != 1 || j.Skipped[0].Event == nil || *j.Skipped[0].Event != 0 || j.Skipped[0].Fault != nil {
		t.Errorf("skipped %+v, want the restart of b1, event 0", j.Skipped)
	}
	if len(j.Followers) == 0 {
		t.Fatal("no followers")
	}
	for _, f := range j.Followers {
		if f.Bootstrap.Retries == 0 && f.Bootstrap.RetriesByReason != nil {
			t.Errorf("b%d never retried, yet retries by reason %v", f.Broker, f.Bootstrap.RetriesByReason)
		}
	}
}

// TestBrokerLogsZeroValueHasNoLeader: BrokerLogs before any broker
// reported (its zero value too) knows no leader's log.
func TestBrokerLogsZeroValueHasNoLeader(t *testing.T) {
	for _, b := range []BrokerLogs{{}, NewBrokerLogs()} {
		if l, ok := b.LeaderLog(); ok {
			t.Errorf("%+v: leader log %+v", b, l)
		}
	}
}
