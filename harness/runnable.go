package harness

import (
	"fmt"

	"tierfetch/scenarios"
)

// CheckRunnable returns why this build cannot run sc, nil if it can: the
// broker-scale format (docs/reference/scenario-format.md, "Broker scale") is parsed and validated
// before the model and the harness can run it (issue 21, built in steps).
// A knob the model does not read in this kind of file is refused when it
// is set to anything but the value the run behaves as, so that no run
// silently ignores it: the fetcher threads' keys and the replication
// throttles are read only in broker-scale files, whose followers fetch
// through fetcher threads. The shared resources (resources.go) run in any
// file; explore's search refuses them (LimitedResource).
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
		scale   bool // modelled in broker-scale files only (fetcher threads)
	}{
		{"replica_fetch_response_max_bytes", c.ReplicaFetchResponseMaxBytes, d.ReplicaFetchResponseMaxBytes, true},
		{"replica_fetch_min_bytes", c.ReplicaFetchMinBytes, d.ReplicaFetchMinBytes, true},
		{"remote_fetch_concurrency", c.RemoteFetchConcurrency, d.RemoteFetchConcurrency, false},
		{"broker_network_bytes_per_sec", c.BrokerNetworkBytesPerSec, d.BrokerNetworkBytesPerSec, false},
		{"broker_disk_bytes_per_sec", c.BrokerDiskBytesPerSec, d.BrokerDiskBytesPerSec, false},
	}
	for _, k := range knobs {
		switch {
		case k.v == k.want || k.scale && sc.BrokerScale() || !k.scale:
		default:
			return fmt.Errorf("config.%s: %d is modelled only in broker-scale files (partitions) in this build, whose followers fetch through fetcher threads (only the default, %d, runs here)", k.name, k.v, k.want)
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
		if t.on && !sc.BrokerScale() {
			return fmt.Errorf("config.%s with config.%s: replication throttling is modelled only in broker-scale files (partitions) in this build, whose followers fetch through fetcher threads", t.list, t.rate)
		}
	}
	return nil
}

// checkStructure returns why this build cannot run sc at all: a
// broker-scale file with an explore schedule. A run of such a scenario is a programmer error (start panics
// with this).
func checkStructure(sc *scenarios.Scenario) error {
	if sc.BrokerScale() && sc.Explore != nil {
		return fmt.Errorf("explore: a broker-scale file (partitions) with an explore schedule is not runnable in this build")
	}
	return nil
}
