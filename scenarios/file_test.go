package scenarios

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exampleFile is the format's original example, fast-partial-upload with
// every config key, verbatim.
const exampleFile = `{
  "name": "fast-partial-upload",
  "description": "Leader tiered [0,149] and still holds [10,199]; an empty follower joins.",
  "seed": 1,
  "brokers": 3,
  "replicas": [0],
  "config": {
    "segment_bytes": 1073741824,
    "record_bytes": 1024,
    "replica_fetch_max_bytes": 1048576,
    "replica_fetch_backoff_ms": 1000,
    "replica_fetch_wait_max_ms": 500,
    "replica_lag_time_max_ms": 30000,
    "remote_log_manager_task_interval_ms": 30000,
    "remote_storage_enable": true,
    "remote_log_copy_disable": false,
    "remote_log_delete_on_disable": false,
    "local_retention_bytes": -2,
    "local_retention_ms": -2,
    "retention_bytes": -1,
    "retention_ms": 604800000,
    "unclean_leader_election_enable": false,
    "network_latency_ms": [1, 5],
    "remote_upload_ms": [50, 500],
    "remote_fetch_ms": [20, 200],
    "replication_bytes_per_sec": 104857600,
    "remote_metadata_ready_ms": 0
  },
  "initial": {
    "leader_epoch": 0,
    "log_start_offset": 0,
    "high_watermark": 199,
    "highest_remote_offset": 149,
    "remote_segments": [{"base_offset": 0, "end_offset": 149, "epoch": 0}],
    "local_segments": [
      {"base_offset": 10, "end_offset": 149, "epoch": 0},
      {"base_offset": 150, "end_offset": 199, "epoch": 0}
    ]
  },
  "events": [
    {"at_ms": 0, "type": "add_replica", "broker": 1}
  ],
  "duration_ms": 120000,
  "heal_ms": 60000
}
`

func intp(v int) *int { return &v }

func boolp(v bool) *bool { return &v }

func mustParse(t *testing.T, data string) *Scenario {
	t.Helper()
	s, err := Parse([]byte(data))
	if err != nil {
		t.Fatalf("Parse: %v\ninput:\n%s", err, data)
	}
	return s
}

func TestParseExample(t *testing.T) {
	got := mustParse(t, exampleFile)
	cfg := DefaultConfig()
	cfg.RemoteStorageEnable = true
	want := &Scenario{
		Name:        "fast-partial-upload",
		Description: "Leader tiered [0,149] and still holds [10,199]; an empty follower joins.",
		Seed:        1,
		Brokers:     3,
		Replicas:    []int{0},
		Config:      cfg,
		Initial: &Initial{
			LeaderEpoch:         0,
			LogStartOffset:      0,
			HighWatermark:       199,
			HighestRemoteOffset: 149,
			RemoteSegments:      []SegmentSpec{{BaseOffset: 0, EndOffset: 149, Epoch: 0}},
			LocalSegments: []SegmentSpec{
				{BaseOffset: 10, EndOffset: 149, Epoch: 0},
				{BaseOffset: 150, EndOffset: 199, Epoch: 0},
			},
		},
		Events:     []Event{{AtMs: 0, Type: EventAddReplica, Broker: intp(1)}},
		DurationMs: 120000,
		HealMs:     60000,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse(example) mismatch (-want +got):\n%s", diff)
	}
}

// TestDefaultConfigIsKafkas pins every default against the literal values Kafka uses
// (and docs/reference/scenario-format.md lists), so that a typo in DefaultConfig cannot pass unnoticed.
func TestDefaultConfigIsKafkas(t *testing.T) {
	want := Config{
		SegmentBytes: 1073741824, RecordBytes: 1024, ReplicaFetchMaxBytes: 1048576,
		ReplicaFetchBackoffMs: 1000, ReplicaFetchWaitMaxMs: 500, ReplicaLagTimeMaxMs: 30000,
		RemoteLogManagerTaskIntervalMs: 30000, LocalRetentionBytes: -2, LocalRetentionMs: -2,
		RetentionBytes: -1, RetentionMs: 604800000, NetworkLatencyMs: [2]int64{1, 5},
		RemoteUploadMs: [2]int64{50, 500}, RemoteFetchMs: [2]int64{20, 200},
		ReplicationBytesPerSec: 104857600, RemoteMetadataReadyMs: 0,
		ReplicaSocketTimeoutMs: 30000, LogRetentionCheckIntervalMs: 300000,
		// Broker scale: num.replica.fetchers 1, replica.fetch.response.max.bytes
		// 10 MiB, replica.fetch.min.bytes 1 (ReplicationConfigs.java:62-90
		// @1eb7644349cb); the throttled rates, remote concurrency, network and
		// disk unlimited.
		NumReplicaFetchers: 1, ReplicaFetchResponseMaxBytes: 10485760, ReplicaFetchMinBytes: 1,
		LeaderReplicationThrottledRate: -1, FollowerReplicationThrottledRate: -1,
		RemoteFetchConcurrency: -1, BrokerNetworkBytesPerSec: -1, BrokerDiskBytesPerSec: -1,
	}
	if diff := cmp.Diff(want, DefaultConfig()); diff != "" {
		t.Errorf("DefaultConfig mismatch (-want +got):\n%s", diff)
	}
}

func TestParseDefaults(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want *Scenario
	}{{
		name: "minimal",
		in:   `{"brokers": 2, "duration_ms": 5000}`,
		want: &Scenario{Seed: 1, Brokers: 2, Replicas: []int{0}, Config: DefaultConfig(),
			Events: []Event{}, DurationMs: 5000, HealMs: 60000},
	}, {
		name: "nulls are absent",
		in: `{"brokers": 2, "duration_ms": 5000, "seed": null, "replicas": null, "config": null,
			"initial": null, "events": null, "heal_ms": null}`,
		want: &Scenario{Seed: 1, Brokers: 2, Replicas: []int{0}, Config: DefaultConfig(),
			Events: []Event{}, DurationMs: 5000, HealMs: 60000},
	}, {
		name: "partial config keeps the other defaults",
		in:   `{"brokers": 1, "duration_ms": 10, "seed": 0, "heal_ms": 0, "config": {"record_bytes": 10, "follower_fetch_last_tiered_offset_enable": false}}`,
		want: &Scenario{Seed: 0, Brokers: 1, Replicas: []int{0}, Config: func() Config {
			c := DefaultConfig()
			c.RecordBytes = 10
			c.FollowerFetchLastTieredOffsetEnable = boolp(false)
			return c
		}(), Events: []Event{}, DurationMs: 10, HealMs: 0},
	}, {
		name: "initial offsets default from the segments",
		in: `{"brokers": 1, "duration_ms": 10, "config": {"remote_storage_enable": true}, "initial": {
			"remote_segments": [{"base_offset": 5, "end_offset": 19}],
			"local_segments": [{"base_offset": 10, "end_offset": 29}, {"base_offset": 30, "end_offset": 29}]}}`,
		want: &Scenario{Seed: 1, Brokers: 1, Replicas: []int{0}, Config: func() Config {
			c := DefaultConfig()
			c.RemoteStorageEnable = true
			return c
		}(), Initial: &Initial{
			LogStartOffset: 5, HighWatermark: 30, HighestRemoteOffset: -1,
			RemoteSegments: []SegmentSpec{{BaseOffset: 5, EndOffset: 19}},
			LocalSegments:  []SegmentSpec{{BaseOffset: 10, EndOffset: 29}, {BaseOffset: 30, EndOffset: 29}},
		}, Events: []Event{}, DurationMs: 10, HealMs: 60000},
	}, {
		name: "initial without remote: LSO is LLSO, remote_segments empty not nil",
		in:   `{"brokers": 1, "duration_ms": 10, "initial": {"leader_epoch": 3, "local_segments": [{"base_offset": 7, "end_offset": 6, "epoch": 3}]}}`,
		want: &Scenario{Seed: 1, Brokers: 1, Replicas: []int{0}, Config: DefaultConfig(), Initial: &Initial{
			LeaderEpoch: 3, LogStartOffset: 7, HighWatermark: 7, HighestRemoteOffset: -1,
			RemoteSegments: []SegmentSpec{},
			LocalSegments:  []SegmentSpec{{BaseOffset: 7, EndOffset: 6, Epoch: 3}},
		}, Events: []Event{}, DurationMs: 10, HealMs: 60000},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mustParse(t, tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// richFile uses every event type, every extension field and unsorted events.
const richFile = `{
  "name": "rich <&>",
  "description": "every event type \u2028 and some unicode: é",
  "seed": 18446744073709551615,
  "brokers": 4,
  "replicas": [2, 0],
  "config": {"remote_storage_enable": true, "remote_error_rate": 0.125,
             "replica_socket_timeout_ms": 100, "log_retention_check_interval_ms": 7,
             "follower_fetch_last_tiered_offset_enable": true, "network_latency_ms": [0, 0]},
  "initial": {"leader_epoch": 2, "log_start_offset": 3, "high_watermark": 40, "highest_remote_offset": 19,
              "remote_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 1}, {"base_offset": 10, "end_offset": 19, "epoch": 2}],
              "local_segments": [{"base_offset": 15, "end_offset": 39, "epoch": 2}, {"base_offset": 40, "end_offset": 45, "epoch": 2}]},
  "events": [
    {"at_ms": 900, "type": "consume", "from_offset": 3},
    {"at_ms": 10, "type": "add_replica", "broker": 1},
    {"at_ms": 10, "type": "produce", "records": 100, "over_ms": 50},
    {"at_ms": 20, "type": "elect_leader", "broker": 0},
    {"at_ms": 30, "type": "crash", "broker": 2},
    {"at_ms": 40, "type": "restart", "broker": 2},
    {"at_ms": 50, "type": "set_config", "key": "retention_ms", "value": -0},
    {"at_ms": 50, "type": "set_config", "key": "remote_storage_enable", "value": false, "broker": 3},
    {"at_ms": 60, "type": "delete_records", "before_offset": 12},
    {"at_ms": 70, "type": "network_partition", "brokers": [3, 1], "duration_ms": 100},
    {"at_ms": 80, "type": "remote_outage", "duration_ms": 5},
    {"at_ms": 0, "type": "consume"}
  ],
  "duration_ms": 1000,
  "heal_ms": 0
}`

func TestRoundTrip(t *testing.T) {
	for name, in := range map[string]string{"example": exampleFile, "rich": richFile,
		"minimal": `{"brokers": 1, "duration_ms": 1}`} {
		t.Run(name, func(t *testing.T) {
			s := mustParse(t, in)
			out, err := s.Marshal()
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if name == "rich" && !strings.Contains(string(out), `"name": "rich <&>"`) {
				t.Errorf("Marshal escaped the name:\n%s", out)
			}
			s2 := mustParse(t, string(out))
			if diff := cmp.Diff(s, s2); diff != "" {
				t.Errorf("Parse(Marshal(s)) != s (-want +got):\n%s\nmarshalled:\n%s", diff, out)
			}
			out2, err := s2.Marshal()
			if err != nil {
				t.Fatalf("Marshal: %v", err)
			}
			if string(out) != string(out2) {
				t.Errorf("Marshal not stable:\n%s\n---\n%s", out, out2)
			}
		})
	}
}

func TestParseNormalizes(t *testing.T) {
	s := mustParse(t, richFile)
	var got []string
	for _, e := range s.Events {
		got = append(got, e.Type)
	}
	// Stable: the two at_ms 10 and the two at_ms 50 events keep their file order.
	want := []string{"consume", "add_replica", "produce", "elect_leader", "crash", "restart",
		"set_config", "set_config", "delete_records", "network_partition", "remote_outage", "consume"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event order (-want +got):\n%s", diff)
	}
	if s.Events[0].FromOffset != 0 || s.Events[11].FromOffset != 3 || s.Events[6].Key != "retention_ms" {
		t.Errorf("events not stably sorted: %+v", s.Events)
	}
	if v := string(s.Events[6].Value); v != "0" {
		t.Errorf("retention_ms value = %s, want canonical 0", v)
	}
	if s.Events[6].IntValue() != 0 || s.Events[7].BoolValue() {
		t.Errorf("IntValue/BoolValue = %d/%v, want 0/false", s.Events[6].IntValue(), s.Events[7].BoolValue())
	}
}

func TestMarshalFormat(t *testing.T) {
	s := mustParse(t, `{"brokers": 2, "duration_ms": 100, "events": [{"at_ms": 5, "type": "crash", "broker": 1}],
		"config": {"remote_storage_enable": true},
		"initial": {"local_segments": [{"base_offset": 0, "end_offset": -1}]}}`)
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "name": "",
  "seed": 1,
  "brokers": 2,
  "replicas": [0],
  "config": {
    "segment_bytes": 1073741824,
    "record_bytes": 1024,
    "replica_fetch_max_bytes": 1048576,
    "replica_fetch_backoff_ms": 1000,
    "replica_fetch_wait_max_ms": 500,
    "replica_lag_time_max_ms": 30000,
    "remote_log_manager_task_interval_ms": 30000,
    "remote_storage_enable": true,
    "remote_log_copy_disable": false,
    "remote_log_delete_on_disable": false,
    "local_retention_bytes": -2,
    "local_retention_ms": -2,
    "retention_bytes": -1,
    "retention_ms": 604800000,
    "unclean_leader_election_enable": false,
    "network_latency_ms": [1, 5],
    "remote_upload_ms": [50, 500],
    "remote_fetch_ms": [20, 200],
    "replication_bytes_per_sec": 104857600,
    "remote_metadata_ready_ms": 0,
    "replica_socket_timeout_ms": 30000,
    "log_retention_check_interval_ms": 300000,
    "remote_error_rate": 0,
    "num_replica_fetchers": 1,
    "replica_fetch_response_max_bytes": 10485760,
    "replica_fetch_min_bytes": 1,
    "leader_replication_throttled_rate": -1,
    "follower_replication_throttled_rate": -1,
    "remote_fetch_concurrency": -1,
    "broker_network_bytes_per_sec": -1,
    "broker_disk_bytes_per_sec": -1
  },
  "initial": {
    "leader_epoch": 0,
    "log_start_offset": 0,
    "high_watermark": 0,
    "highest_remote_offset": -1,
    "remote_segments": [],
    "local_segments": [
      {"base_offset": 0, "end_offset": -1, "epoch": 0}
    ]
  },
  "events": [
    {"at_ms": 5, "type": "crash", "broker": 1}
  ],
  "duration_ms": 100,
  "heal_ms": 60000
}
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("Marshal output (-want +got):\n%s", diff)
	}
}

// base is a valid file; the bad cases below append fields to it.
func base(extra string) string { return `{"brokers": 3, "duration_ms": 1000` + extra + `}` }

func withInitial(in string) string {
	return base(`, "config": {"remote_storage_enable": true}, "initial": ` + in)
}

func withEvents(evs ...string) string {
	return base(`, "events": [` + strings.Join(evs, ", ") + `]`)
}

// badFiles are scenario files Parse must reject, with the exact error.
var badFiles = []struct {
	name, in, want string
}{
	// Decoding.
	{"syntax error", `{"brokers": 3,, "duration_ms": 1}`, "line 1, column 15: invalid JSON: invalid character ',' looking for beginning of object key string"},
	{"empty file", "  \n", "empty scenario file"},
	{"truncated", `{"brokers": 3`, "invalid JSON: unexpected end of input"},
	{"trailing garbage", base("") + "\n garbage", "line 2, column 2: trailing data after the scenario object"},
	{"second object", base("") + base(""), "line 1, column 36: trailing data after the scenario object"},
	{"not an object", `[1, 2]`, "a scenario must be a JSON object, got array"},
	{"unknown top-level field", base(`, "brokr": 1`), "brokr: unknown field at line 1, column 37 (did you mean \"brokers\"?)"},
	{"empty field name", `{"": []}`, `"": unknown field`},
	{"odd field name", base(`, "config": {"a.b\n": 1}`), `config."a.b\n": unknown field at line 1, column 48`},
	{"field names are case-sensitive", base(`, "Seed": 1`), "Seed: unknown field at line 1, column 37 (did you mean \"seed\"?)"},
	{"duplicate field", base(`, "brokers": 2`), "brokers: duplicate field at line 1, column 37"},
	{"unknown config field", base(`, "config": {"segmnt_bytes": 5}`), "config.segmnt_bytes: unknown field at line 1, column 48 (did you mean \"segment_bytes\"?)"},
	{"unknown event field", withEvents(`{"type": "consume"}`, `{"type": "consume"}`, `{"type": "crash", "brokr": 1}`), "events[2].brokr: unknown field at line 1, column 108 (did you mean \"broker\"?)"},
	{"unknown segment field", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": 1, "epch": 0}]}`), "initial.local_segments[0].epch: unknown field at line 1, column 147 (did you mean \"epoch\"?)"},
	{"wrong type top-level", `{"brokers": "3", "duration_ms": 1000}`, "brokers: expected an integer, got string"},
	{"wrong type nested", base(`, "config": {"remote_storage_enable": 1}`), "config.remote_storage_enable: expected a bool, got number"},
	{"fractional integer", base(`, "config": {"segment_bytes": 1.5}`), "config.segment_bytes: expected an integer, got number 1.5"},
	{"negative seed", base(`, "seed": -1`), "seed: expected a non-negative integer, got number -1"},
	{"int32 overflow", withInitial(`{"leader_epoch": 3000000000, "local_segments": []}`), "initial.leader_epoch: expected an integer, got number 3000000000, past its range (-2147483648 to 2147483647)"},
	{"range with one element", base(`, "config": {"network_latency_ms": [1]}`), "config.network_latency_ms: expected an array of 2 integers [min, max], got 1 elements"},
	{"range not an array", base(`, "config": {"remote_fetch_ms": 5}`), "config.remote_fetch_ms: expected an array of 2 integers [min, max], got number"},
	{"config not an object", base(`, "config": [1]`), "config: expected an object, got array"},
	{"events not an array", base(`, "events": {}`), "events: expected an array, got object"},
	{"event not an object", withEvents(`null`), "events[0]: expected an object, got null"},
	{"missing brokers", `{"duration_ms": 1000}`, "brokers: required"},
	{"null brokers", `{"brokers": null, "duration_ms": 1000}`, "brokers: required"},
	{"missing duration", `{"brokers": 3}`, "duration_ms: required"},
	{"missing local segments", withInitial(`{"leader_epoch": 0}`), "initial.local_segments: required (the last segment is the active one)"},
	{"segment without end", withInitial(`{"local_segments": [{"base_offset": 0}]}`), "initial.local_segments[0].end_offset: required"},
	{"field not used by type", withEvents(`{"type": "elect_leader", "broker": 0, "records": 0}`), "events[0].records: not used by elect_leader"},
	// Top level and config.
	{"zero brokers", `{"brokers": 0, "duration_ms": 1000}`, "brokers: must be in 1..64, got 0"},
	{"too many brokers", `{"brokers": 65, "duration_ms": 1000}`, "brokers: must be in 1..64, got 65"},
	{"empty replicas", base(`, "replicas": []`), "replicas: must not be empty (the first replica is the leader)"},
	{"bad replica", base(`, "replicas": [0, 3]`), "replicas[1]: no such broker 3 (brokers are 0..2)"},
	{"duplicate replica", base(`, "replicas": [1, 2, 1]`), "replicas[2]: duplicate broker 1 (also replicas[0])"},
	{"negative segment_bytes", base(`, "config": {"segment_bytes": -5}`), "config.segment_bytes: must be > 0, got -5"},
	{"zero backoff", base(`, "config": {"replica_fetch_backoff_ms": 0}`), "config.replica_fetch_backoff_ms: must be > 0, got 0"},
	{"zero socket timeout", base(`, "config": {"replica_socket_timeout_ms": 0}`), "config.replica_socket_timeout_ms: must be > 0, got 0"},
	{"bad retention", base(`, "config": {"retention_ms": -2}`), "config.retention_ms: must be -1 (unlimited) or >= 0, got -2"},
	{"bad local retention", base(`, "config": {"local_retention_bytes": -3}`), "config.local_retention_bytes: must be -2 (same as retention), -1 (unlimited) or >= 0, got -3"},
	{"negative metadata delay", base(`, "config": {"remote_metadata_ready_ms": -1}`), "config.remote_metadata_ready_ms: must be >= 0, got -1"},
	{"inverted latency range", base(`, "config": {"network_latency_ms": [5, 1]}`), "config.network_latency_ms: must be [min, max] with 0 <= min <= max <= 1000000000000, got [5, 1]"},
	{"negative upload range", base(`, "config": {"remote_upload_ms": [-1, 1]}`), "config.remote_upload_ms: must be [min, max] with 0 <= min <= max <= 1000000000000, got [-1, 1]"},
	{"error rate above 1", base(`, "config": {"remote_error_rate": 1.5}`), "config.remote_error_rate: must be in [0, 1], got 1.5"},
	{"zero duration", `{"brokers": 1, "duration_ms": 0}`, "duration_ms: must be in 1..1000000000000, got 0"},
	{"negative heal", base(`, "heal_ms": -1`), "heal_ms: must be in 0..1000000000000, got -1"},
	// Events.
	{"event beyond duration", withEvents(`{"at_ms": 1001, "type": "consume"}`), "events[0].at_ms: must be in 0..duration_ms (1000), got 1001"},
	{"negative event time", withEvents(`{"at_ms": -1, "type": "consume"}`), "events[0].at_ms: must be in 0..duration_ms (1000), got -1"},
	{"missing type", withEvents(`{"at_ms": 1}`), "events[0].type: required (one of add_replica, produce, elect_leader, crash, restart, set_config, delete_records, network_partition, remote_outage, consume, replace_broker, reassign, rolling_restart)"},
	{"unknown type", withEvents(`{"type": "explode"}`), `events[0].type: unknown event type "explode" (one of add_replica, produce, elect_leader, crash, restart, set_config, delete_records, network_partition, remote_outage, consume, replace_broker, reassign, rolling_restart)`},
	{"bad broker id", withEvents(`{"type": "consume"}`, `{"type": "consume"}`, `{"type": "consume"}`, `{"type": "crash", "broker": 7}`), "events[3].broker: no such broker 7 (brokers are 0..2)"},
	{"missing broker", withEvents(`{"type": "restart"}`), "events[0].broker: required by restart"},
	{"add existing replica", withEvents(`{"type": "add_replica", "broker": 0}`), "events[0].broker: broker 0 is already in replicas"},
	{"duplicate add_replica", withEvents(`{"type": "add_replica", "broker": 2}`, `{"at_ms": 5, "type": "add_replica", "broker": 2}`), "events[1].broker: broker 2 already added by events[0]"},
	{"produce without records", withEvents(`{"type": "produce"}`), "events[0].records: required by produce (> 0)"},
	{"produce negative records", withEvents(`{"type": "produce", "records": -4}`), "events[0].records: must be in 1..1000000000, got -4"},
	{"produce negative over_ms", withEvents(`{"type": "produce", "records": 4, "over_ms": -1}`), "events[0].over_ms: must be in 0..1000000000000, got -1"},
	{"negative delete offset", withEvents(`{"type": "delete_records", "before_offset": -1}`), "events[0].before_offset: must be in 0..4611686018427387904, got -1"},
	{"negative consume offset", withEvents(`{"type": "consume", "from_offset": -1}`), "events[0].from_offset: must be in 0..4611686018427387904, got -1"},
	{"partition without brokers", withEvents(`{"type": "network_partition", "duration_ms": 5}`), "events[0].brokers: required by network_partition"},
	{"partition of no brokers", withEvents(`{"type": "network_partition", "brokers": [], "duration_ms": 5}`), "events[0].brokers: must not be empty"},
	{"partition duplicate broker", withEvents(`{"type": "network_partition", "brokers": [1, 1], "duration_ms": 5}`), "events[0].brokers[1]: duplicate broker 1 (also brokers[0])"},
	{"partition bad broker", withEvents(`{"type": "network_partition", "brokers": [3], "duration_ms": 5}`), "events[0].brokers[0]: no such broker 3 (brokers are 0..2)"},
	{"partition without duration", withEvents(`{"type": "network_partition", "brokers": [1]}`), "events[0].duration_ms: required by network_partition (> 0)"},
	{"outage negative duration", withEvents(`{"type": "remote_outage", "duration_ms": -5}`), "events[0].duration_ms: must be in 1..1000000000000, got -5"},
	{"rolling restart without brokers", withEvents(`{"type": "rolling_restart", "down_ms": 5}`), "events[0].brokers: required by rolling_restart"},
	{"rolling restart duplicate broker", withEvents(`{"type": "rolling_restart", "brokers": [2, 2], "down_ms": 5}`), "events[0].brokers[1]: duplicate broker 2 (also brokers[0])"},
	{"rolling restart without down_ms", withEvents(`{"type": "rolling_restart", "brokers": [1]}`), "events[0].down_ms: required by rolling_restart (> 0)"},
	{"rolling restart bad wait", withEvents(`{"type": "rolling_restart", "brokers": [1], "down_ms": 5, "wait": "none"}`), `events[0].wait: must be "isr" (every replica of the restarted broker back in its ISR), got "none"`},
	{"rolling restart duration_ms", withEvents(`{"type": "rolling_restart", "brokers": [1], "down_ms": 5, "duration_ms": 5}`), "events[0].duration_ms: not used by rolling_restart"},
	{"unknown set_config key", withEvents(`{"type": "set_config", "key": "segment_bytes", "value": 5}`), `events[0].key: unknown set_config key "segment_bytes" (one of follower_fetch_last_tiered_offset_enable, local_retention_bytes, local_retention_ms, remote_copy_lag_bytes, remote_copy_lag_ms, remote_log_copy_disable, remote_log_delete_on_disable, remote_log_manager_task_interval_ms, remote_storage_enable, retention_bytes, retention_ms)`},
	{"set_config without value", withEvents(`{"type": "set_config", "key": "retention_ms"}`), "events[0].value: required by set_config"},
	{"set_config int for bool key", withEvents(`{"type": "set_config", "key": "remote_storage_enable", "value": 1}`), "events[0].value: remote_storage_enable takes a JSON bool, got 1"},
	{"set_config bool for int key", withEvents(`{"type": "set_config", "key": "retention_ms", "value": true}`), "events[0].value: retention_ms takes a JSON integer, got true"},
	{"set_config string for int key", withEvents(`{"type": "set_config", "key": "retention_ms", "value": "5"}`), `events[0].value: retention_ms takes a JSON integer, got "5"`},
	{"set_config float for int key", withEvents(`{"type": "set_config", "key": "retention_ms", "value": 1e3}`), "events[0].value: retention_ms takes a JSON integer, got 1e3"},
	{"set_config out of range", withEvents(`{"type": "set_config", "key": "remote_log_manager_task_interval_ms", "value": 0}`), "events[0].value: remote_log_manager_task_interval_ms must be > 0, got 0"},
	{"set_config bad broker", withEvents(`{"type": "set_config", "broker": -1, "key": "retention_ms", "value": 1}`), "events[0].broker: no such broker -1 (brokers are 0..2)"},
	// Initial fixtures.
	{"LLSO < LSO", withInitial(`{"log_start_offset": 20, "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: local log start offset 10 < log start offset 20"},
	{"HW > LEO", withInitial(`{"high_watermark": 31, "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial: high watermark 31 > log end offset 30"},
	{"HW < LLSO", withInitial(`{"high_watermark": 5, "remote_segments": [{"base_offset": 0, "end_offset": 4}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: high watermark 5 < local log start offset 10"},
	{"negative LSO", withInitial(`{"log_start_offset": -1, "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.log_start_offset: must be >= 0, got -1"},
	{"hole between remote and local", withInitial(`{"remote_segments": [{"base_offset": 0, "end_offset": 8}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: hole between remote and local: offsets [9, 9] of [log start 0, local log start 10) are in no copy-finished remote segment"},
	{"hole without remote", withInitial(`{"log_start_offset": 0, "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: hole between remote and local: offsets [0, 9] of [log start 0, local log start 10) are in no copy-finished remote segment"},
	{"remote starts after LSO", withInitial(`{"log_start_offset": 0, "remote_segments": [{"base_offset": 5, "end_offset": 15}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: hole between remote and local: offsets [0, 4] of [log start 0, local log start 10) are in no copy-finished remote segment"},
	{"remote above HW", withInitial(`{"high_watermark": 20, "remote_segments": [{"base_offset": 0, "end_offset": 20}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: remote above high watermark: remote_segments[0] ends at 20 >= high watermark 20 (only committed data is tiered)"},
	{"hole covered only by a segment being deleted", withInitial(`{"log_start_offset": 0, "remote_segments": [{"base_offset": 0, "end_offset": 9, "state": "delete-started"}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: hole between remote and local: offsets [0, 9] of [log start 0, local log start 10) are in no copy-finished remote segment"},
	{"hole covered only by an unfinished copy", withInitial(`{"log_start_offset": 0, "remote_segments": [{"base_offset": 0, "end_offset": 4}, {"base_offset": 5, "end_offset": 9, "state": "copy-started"}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: hole between remote and local: offsets [5, 9] of [log start 0, local log start 10) are in no copy-finished remote segment"},
	{"unknown remote state", withInitial(`{"remote_segments": [{"base_offset": 0, "end_offset": 9, "state": "deleted"}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial.remote_segments[0].state: must be one of copy-finished, copy-started, delete-started, got \"deleted\""},
	{"local segment with a state", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": 29, "state": "copy-finished"}]}`), "initial.local_segments[0].state: only remote segments have a state, got \"copy-finished\""},
	{"remote segments overlap across states", withInitial(`{"remote_segments": [{"base_offset": 0, "end_offset": 9}, {"base_offset": 5, "end_offset": 14, "state": "copy-started"}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial.remote_segments[1]: overlaps the previous segment [0, 9]: base_offset 5 <= 9"},
	{"unfinished copy above HW", withInitial(`{"high_watermark": 20, "remote_segments": [{"base_offset": 0, "end_offset": 9}, {"base_offset": 10, "end_offset": 24, "state": "copy-started"}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial: remote above high watermark: remote_segments[1] ends at 24 >= high watermark 20 (only committed data is tiered)"},
	{"remote without remote storage", base(`, "initial": {"remote_segments": [{"base_offset": 0, "end_offset": 9}], "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.remote_segments: remote data while config.remote_storage_enable is false"},
	{"overlapping local segments", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": 29}, {"base_offset": 20, "end_offset": 39}]}`), "initial.local_segments[1]: overlaps the previous segment [0, 29]: base_offset 20 <= 29"},
	{"gap between local segments", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": 29}, {"base_offset": 31, "end_offset": 39}]}`), "initial.local_segments[1]: gap after the previous segment [0, 29]: base_offset 31 != 30"},
	{"unsorted remote segments", withInitial(`{"remote_segments": [{"base_offset": 10, "end_offset": 19}, {"base_offset": 0, "end_offset": 9}], "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.remote_segments[1]: not sorted: base_offset 0 < previous base_offset 10"},
	{"gap between remote segments", withInitial(`{"remote_segments": [{"base_offset": 0, "end_offset": 9}, {"base_offset": 11, "end_offset": 19}], "local_segments": [{"base_offset": 15, "end_offset": 29}]}`), "initial: hole between remote and local: offsets [10, 10] of [log start 0, local log start 15) are in no copy-finished remote segment"},
	{"empty remote segment", withInitial(`{"remote_segments": [{"base_offset": 5, "end_offset": 4}], "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.remote_segments[0]: empty segment [5, 4]: only the last local (active) segment may be empty"},
	{"empty non-active local segment", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": -1}, {"base_offset": 0, "end_offset": 9}]}`), "initial.local_segments[0]: empty segment [0, -1]: only the last local (active) segment may be empty"},
	{"inverted active segment", withInitial(`{"local_segments": [{"base_offset": 5, "end_offset": 2}]}`), "initial.local_segments[0]: end_offset 2 < base_offset 5 - 1"},
	{"no local segments", withInitial(`{"local_segments": []}`), "initial.local_segments: must not be empty (the last segment is the active one)"},
	{"negative base offset", withInitial(`{"local_segments": [{"base_offset": -1, "end_offset": 9}]}`), "initial.local_segments[0].base_offset: must be in 0..4611686018427387904, got -1"},
	{"huge end offset", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": 9223372036854775807}]}`), "initial.local_segments[0].end_offset: must be in -1..4611686018427387904, got 9223372036854775807"},
	{"negative leader epoch", withInitial(`{"leader_epoch": -1, "local_segments": [{"base_offset": 0, "end_offset": 9}]}`), "initial.leader_epoch: must be >= 0, got -1"},
	{"segment epoch above leader epoch", withInitial(`{"leader_epoch": 1, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 2}]}`), "initial.local_segments[0].epoch: 2 > leader_epoch 1"},
	{"negative segment epoch", withInitial(`{"local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": -1}]}`), "initial.local_segments[0].epoch: must be >= 0, got -1"},
	{"decreasing local epochs", withInitial(`{"leader_epoch": 2, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 2}, {"base_offset": 10, "end_offset": 19, "epoch": 1}]}`), "initial: segment epochs decrease along offsets: local_segments[1] [10, 19] has epoch 1 after local_segments[0] [0, 9] with epoch 2"},
	{"local epoch below remote epoch", withInitial(`{"leader_epoch": 2, "remote_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 2}], "local_segments": [{"base_offset": 5, "end_offset": 19, "epoch": 1}]}`), "initial: segment epochs decrease along offsets: local_segments[0] [5, 19] has epoch 1 after remote_segments[0] [0, 9] with epoch 2"},
	{"HRO above every listed segment", withInitial(`{"highest_remote_offset": 15, "remote_segments": [{"base_offset": 0, "end_offset": 9}], "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.highest_remote_offset: 15 >= log start offset 0 but in no remote segment whose copy finished (an HRO is stale only below the log start offset)"},
	{"HRO without remote", withInitial(`{"highest_remote_offset": 0, "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.highest_remote_offset: 0 >= log start offset 0 but in no remote segment whose copy finished (an HRO is stale only below the log start offset)"},
	{"HRO in an unfinished copy", withInitial(`{"highest_remote_offset": 14, "remote_segments": [{"base_offset": 0, "end_offset": 9}, {"base_offset": 10, "end_offset": 19, "state": "copy-started"}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`), "initial.highest_remote_offset: 14 >= log start offset 0 but in no remote segment whose copy finished (an HRO is stale only below the log start offset)"},
	{"HRO at HW", withInitial(`{"high_watermark": 20, "highest_remote_offset": 20, "remote_segments": [{"base_offset": 0, "end_offset": 9}], "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.highest_remote_offset: 20 >= high watermark 20 (only committed data is tiered)"},
	{"HRO below -1", withInitial(`{"highest_remote_offset": -2, "local_segments": [{"base_offset": 0, "end_offset": 29}]}`), "initial.highest_remote_offset: must be -1 (unknown) or an offset >= 0, got -2"},
}

func TestParseErrors(t *testing.T) {
	for _, tt := range badFiles {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("Parse succeeded, want error %q; got %+v", tt.want, s)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse error\n got: %s\nwant: %s", err, tt.want)
			}
		})
	}
}

// TestParseErrorsAreFieldErrors checks that validation errors carry the field path.
func TestParseErrorsAreFieldErrors(t *testing.T) {
	_, err := Parse([]byte(base(`, "config": {"segment_bytes": -5}`)))
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FieldError", err, err)
	}
	if fe.Field != "config.segment_bytes" || fe.Msg != "must be > 0, got -5" {
		t.Errorf("FieldError = %+v", fe)
	}
}

// TestValidateGenerated checks Validate on scenarios built in Go, where zero-valued
// fields are absent ones.
func TestValidateGenerated(t *testing.T) {
	valid := func() *Scenario {
		return &Scenario{Brokers: 2, Replicas: []int{0}, Config: DefaultConfig(), DurationMs: 100}
	}
	tests := []struct {
		name   string
		mutate func(s *Scenario)
		want   string
	}{
		{"valid", func(*Scenario) {}, ""},
		{"records on crash", func(s *Scenario) {
			s.Events = []Event{{Type: EventCrash, Broker: intp(1), Records: 3}}
		}, "events[0].records: not used by crash"},
		{"value on produce", func(s *Scenario) {
			s.Events = []Event{{Type: EventProduce, Records: 3, Value: json.RawMessage("1")}}
		}, "events[0].value: not used by produce"},
		{"null set_config value", func(s *Scenario) {
			s.Events = []Event{{Type: EventSetConfig, Key: "retention_ms", Value: json.RawMessage("null")}}
		}, "events[0].value: retention_ms takes a JSON integer, got null"},
		{"zero config", func(s *Scenario) { s.Config = Config{} }, "config.segment_bytes: must be > 0, got 0"},
		{"NaN error rate", func(s *Scenario) { s.Config.RemoteErrorRate = nan() }, "config.remote_error_rate: must be in [0, 1], got NaN"},
		{"initial HW > LEO", func(s *Scenario) {
			s.Initial = &Initial{HighWatermark: 11, HighestRemoteOffset: -1,
				LocalSegments: []SegmentSpec{{BaseOffset: 0, EndOffset: 9}}}
		}, "initial: high watermark 11 > log end offset 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := valid()
			tt.mutate(s)
			err := s.Validate()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate() = %q, want %q", got, tt.want)
			}
		})
	}
}

func nan() float64 {
	var zero float64
	return zero / zero
}

// TestMarshalGenerated checks that a generated scenario with nil slices still
// round-trips: Marshal writes [] for them.
func TestMarshalGenerated(t *testing.T) {
	s := &Scenario{Brokers: 2, Replicas: []int{0}, Config: DefaultConfig(), DurationMs: 100,
		Initial: &Initial{HighWatermark: 10, HighestRemoteOffset: -1,
			LocalSegments: []SegmentSpec{{BaseOffset: 0, EndOffset: 9}}}}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got := mustParse(t, string(out))
	want := *s
	want.Events = []Event{}
	in := *s.Initial
	in.RemoteSegments = []SegmentSpec{}
	want.Initial = &in
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func TestSetConfigKeys(t *testing.T) {
	for _, k := range []string{"remote_storage_enable", "remote_log_copy_disable",
		"remote_log_delete_on_disable", "follower_fetch_last_tiered_offset_enable"} {
		if !SetConfigBool(k) || SetConfigInt(k) {
			t.Errorf("%s: SetConfigBool = %v, SetConfigInt = %v, want true, false", k, SetConfigBool(k), SetConfigInt(k))
		}
	}
	for _, k := range []string{"local_retention_bytes", "local_retention_ms", "retention_bytes",
		"retention_ms", "remote_log_manager_task_interval_ms"} {
		if SetConfigBool(k) || !SetConfigInt(k) {
			t.Errorf("%s: SetConfigBool = %v, SetConfigInt = %v, want false, true", k, SetConfigBool(k), SetConfigInt(k))
		}
	}
	for _, k := range []string{"", "segment_bytes", "Retention_ms"} {
		if SetConfigBool(k) || SetConfigInt(k) {
			t.Errorf("%q accepted as a set_config key", k)
		}
	}
}

func TestEventValuePanicsWhenInvalid(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("IntValue of a bool did not panic")
		}
	}()
	Event{Type: EventSetConfig, Key: "retention_ms", Value: json.RawMessage("true")}.IntValue()
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "my-case.json")
	if err := os.WriteFile(path, []byte(`{"brokers": 1, "duration_ms": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "my-case" {
		t.Errorf("Name = %q, want %q (the base name)", s.Name, "my-case")
	}
	named := filepath.Join(dir, "other.json")
	if err := os.WriteFile(named, []byte(exampleFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := Load(named); err != nil || s.Name != "fast-partial-upload" {
		t.Errorf("Load(example) = %v, %v; want the file's own name", s, err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"brokers": 0, "duration_ms": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(bad)
	if want := bad + ": brokers: must be in 1..64, got 0"; err == nil || err.Error() != want {
		t.Errorf("Load(bad) error = %v, want %q", err, want)
	}
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Errorf("Load error does not wrap a *FieldError")
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("Load(missing) error = %v, want one naming the file", err)
	}
}
