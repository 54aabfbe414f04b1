package harness

import (
	"testing"

	"tierfetch/scenarios"
)

// TestBrokerScaleStallIsRetriesTimesBackoff: a broker-scale run of
// leader-hro-unknown's partition (a restarted leader that does not know its
// HRO for 30 s) has its added replica retry on an unknown EPUO, and its
// metrics count the stall as the retries times the backoff.
func TestBrokerScaleStallIsRetriesTimesBackoff(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "duration_ms": 60000, "heal_ms": 30000,
	  "config": {"segment_bytes": 3072000, "record_bytes": 1024, "remote_storage_enable": true, "remote_metadata_ready_ms": 20000},
	  "partitions": [{"topic": "t", "partition": 0, "replicas": [0],
	    "initial": {"leader_epoch": 1, "high_watermark": 10000, "highest_remote_offset": -1,
	      "remote_segments": [{"base_offset": 0, "end_offset": 2999, "epoch": 0}, {"base_offset": 3000, "end_offset": 5999, "epoch": 1},
	        {"base_offset": 6000, "end_offset": 8999, "epoch": 1}],
	      "local_segments": [{"base_offset": 3000, "end_offset": 5999, "epoch": 1}, {"base_offset": 6000, "end_offset": 8999, "epoch": 1},
	        {"base_offset": 9000, "end_offset": 9999, "epoch": 1}]}}],
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, res := MeasureBrokerScale(sc, Options{Seed: 1, Strategy: LastTiered})
	if res.Outcome != OutcomeOK || m.Retries < 2 || m.BackoffMs < 2 || m.StalledMs != int64(m.Retries)*m.BackoffMs {
		t.Errorf("outcome %s: %d retries of %d ms, stalled %d ms", res.Outcome, m.Retries, m.BackoffMs, m.StalledMs)
	}
}
