package harness_test

import (
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestRunEventsSetOnlyTheirKindsFields: on the events of real runs (every
// named scenario and some generated ones, both strategies, every profile),
// no event holds a value in a field outside its kind's set, so the digest,
// which encodes exactly those fields, misses nothing an event says; and
// every event prints a line.
//
// With -short: one scenario of every exogenous event and a few generated
// ones, under the KIP text's profile.
func TestRunEventsSetOnlyTheirKindsFields(t *testing.T) {
	list := scenarios.Named()
	seeds, profiles := uint64(40), model.Profiles
	if testing.Short() {
		every, err := scenarios.Parse([]byte(`{"brokers": 4, "replicas": [0, 1], "duration_ms": 60000,
		  "config": {"segment_bytes": 102400, "remote_storage_enable": true, "local_retention_bytes": 204800,
		    "remote_log_manager_task_interval_ms": 1000, "log_retention_check_interval_ms": 1000, "unclean_leader_election_enable": true},
		  "events": [
		    {"at_ms": 0, "type": "produce", "records": 2000, "over_ms": 5000},
		    {"at_ms": 6000, "type": "delete_records", "before_offset": 100},
		    {"at_ms": 7000, "type": "network_partition", "brokers": [1], "duration_ms": 2000},
		    {"at_ms": 8000, "type": "remote_outage", "duration_ms": 3000},
		    {"at_ms": 9000, "type": "consume", "from_offset": 150},
		    {"at_ms": 10000, "type": "add_replica", "broker": 2},
		    {"at_ms": 12000, "type": "crash", "broker": 0},
		    {"at_ms": 13000, "type": "elect_leader", "broker": 1},
		    {"at_ms": 14000, "type": "restart", "broker": 0},
		    {"at_ms": 15000, "type": "restart", "broker": 0},
		    {"at_ms": 16000, "type": "set_config", "key": "remote_storage_enable", "value": false}
		  ]}`))
		if err != nil {
			t.Fatal(err)
		}
		list, seeds, profiles = []*scenarios.Scenario{every}, 3, map[string]model.Profile{"kip": model.KIP}
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		list = append(list, gen.Generate(seed))
	}
	seen := make([]int, model.NumEventKinds)
	for _, p := range profiles {
		for _, sc := range list {
			for _, st := range harness.Strategies {
				check := model.ObserverFunc(func(_ sim.Time, e *model.Event) {
					seen[e.Kind]++
					if extra := e.FieldsOutsideKind(); len(extra) > 0 {
						t.Fatalf("%s %s %s: %s event sets %v outside its kind's fields: %s", sc.Name, st, p.Name(), e.Kind, extra, e.String())
					}
					_ = e.String()
				})
				harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: st, Profile: p, Observers: []model.Observer{check}})
			}
		}
	}
	for k, n := range seen {
		if n == 0 {
			t.Logf("no run emitted a %s event", model.EventKind(k))
		}
	}
}
