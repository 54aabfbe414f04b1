package harness

import (
	"fmt"

	"tierfetch/scenarios"
)

// CheckRunnable returns why this build cannot run sc, nil if it can: the
// broker-scale format (docs/reference/scenario-format.md, "Broker scale") is parsed and validated
// before the model and the harness can run it (issue 21, built in steps).
// A knob the model does not read yet is refused when it is set to anything
// but the value today's run behaves as, so that no run silently ignores it.
// Commands call it before they run anything, and say which scenario (file)
// it refused: every refusal is bad input.
func CheckRunnable(sc *scenarios.Scenario) error {
	if err := checkStructure(sc); err != nil {
		return err
	}
	c, d := &sc.Config, scenarios.DefaultConfig()
	knobs := []struct {
		name    string
		v, want int64
	}{
		{"replica_fetch_response_max_bytes", c.ReplicaFetchResponseMaxBytes, d.ReplicaFetchResponseMaxBytes},
		{"replica_fetch_min_bytes", c.ReplicaFetchMinBytes, d.ReplicaFetchMinBytes},
		{"remote_fetch_concurrency", c.RemoteFetchConcurrency, d.RemoteFetchConcurrency},
		{"broker_network_bytes_per_sec", c.BrokerNetworkBytesPerSec, d.BrokerNetworkBytesPerSec},
		{"broker_disk_bytes_per_sec", c.BrokerDiskBytesPerSec, d.BrokerDiskBytesPerSec},
	}
	for _, k := range knobs {
		if k.v != k.want {
			return fmt.Errorf("config.%s: %d is not modelled yet in this build (only the default, %d, runs)", k.name, k.v, k.want)
		}
	}
	// A throttled rate limits only the replicas a list names (Kafka's
	// ReplicationQuotaManager.isThrottled), so a rate alone changes nothing.
	throttles := []struct {
		list, rate string
		on         bool
	}{
		{"leader_replication_throttled_replicas", "leader_replication_throttled_rate",
			c.LeaderReplicationThrottledReplicas != "" && c.LeaderReplicationThrottledRate != -1},
		{"follower_replication_throttled_replicas", "follower_replication_throttled_rate",
			c.FollowerReplicationThrottledReplicas != "" && c.FollowerReplicationThrottledRate != -1},
	}
	for _, t := range throttles {
		if t.on {
			return fmt.Errorf("config.%s with config.%s: replication throttling is not modelled yet in this build", t.list, t.rate)
		}
	}
	return nil
}

// checkStructure returns why this build cannot run sc at all: it has
// partitions, or an event the model does not have yet. A run of such a
// scenario is a programmer error (start panics with this).
func checkStructure(sc *scenarios.Scenario) error {
	if sc.BrokerScale() {
		return fmt.Errorf("broker-scale scenarios (partitions) are not runnable yet in this build: it parses and validates them only")
	}
	for i, e := range sc.Events {
		if e.Type == scenarios.EventReplaceBroker || e.Type == scenarios.EventReassign {
			return fmt.Errorf("events[%d]: %s is not runnable yet in this build: it parses and validates it only", i, e.Type)
		}
	}
	return nil
}
