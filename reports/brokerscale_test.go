package reports

import (
	"fmt"
	"testing"

	"tierfetch/scenarios"
)

// TestLimitsLineNamesWhatIsLimited: the broker-scale summary names every
// shared resource the file limits and every throttle that applies (a rate
// with a list of replicas, at the top or in a partitions entry), and says
// nothing when all are unlimited or a rate has no list (Kafka throttles
// only listed replicas).
func TestLimitsLineNamesWhatIsLimited(t *testing.T) {
	file := func(config, entry string) *scenarios.Scenario {
		t.Helper()
		js := fmt.Sprintf(`{"name": "l", "seed": 1, "brokers": 3, "config": {"segment_bytes": 1048576, "record_bytes": 1024%s},
 "partitions": [{"topic": "t", "partition": 0, "count": 2, "replicas": [0, 1]%s,
   "initial": {"high_watermark": 2048, "highest_remote_offset": 1023,
     "remote_segments": [{"base_offset": 0, "end_offset": 1023, "epoch": 0}],
     "local_segments": [{"base_offset": 1024, "end_offset": 2047, "epoch": 0}]}}],
 "events": [{"at_ms": 0, "type": "replace_broker", "broker": 1}], "duration_ms": 1000, "heal_ms": 60000}`, config, entry)
		sc, err := scenarios.Parse([]byte(js))
		if err != nil {
			t.Fatalf("%v\n%s", err, js)
		}
		return sc
	}
	for _, c := range []struct{ config, entry, want string }{
		{"", "", ""},
		{`, "follower_replication_throttled_rate": 1048576`, "", ""},
		{`, "broker_network_bytes_per_sec": 10485760, "broker_disk_bytes_per_sec": 1073741824, "remote_fetch_concurrency": 2`, "",
			"network 10.00 MiB/s a broker each way, disk 1.00 GiB/s a broker, remote reads 2 at once a broker"},
		{`, "follower_replication_throttled_rate": 1048576, "follower_replication_throttled_replicas": "*"`, "",
			"follower throttle 1.00 MiB/s on the listed replicas"},
		{`, "leader_replication_throttled_rate": 2048`, `, "config": {"leader_replication_throttled_replicas": "0:0"}`,
			"leader throttle 2.0 KiB/s on the listed replicas"},
		// A rate of 0 is a limit (nothing moves), not unlimited.
		{`, "follower_replication_throttled_rate": 0, "follower_replication_throttled_replicas": "*", "leader_replication_throttled_rate": 0`,
			`, "config": {"leader_replication_throttled_replicas": "0:0"}`,
			"follower throttle 0 B/s on the listed replicas, leader throttle 0 B/s on the listed replicas"},
	} {
		if got := limitsLine(file(c.config, c.entry)); got != c.want {
			t.Errorf("config%s entry%s: limits %q, want %q", c.config, c.entry, got, c.want)
		}
	}
}
