package scenarios

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParse checks that Parse never panics, that every error it returns after decoding
// is a *FieldError with a field path, and that whatever it accepts round-trips:
// Parse(Marshal(s)) equals s and Marshal is stable.
func FuzzParse(f *testing.F) {
	seeds := []string{
		exampleFile,
		richFile,
		recordedFile,
		`{"brokers": 1, "duration_ms": 1}`,
		`{"brokers": 3, "duration_ms": 1000, "events": [{"type": "set_config", "key": "retention_ms", "value": -1}]}`,
		`{"brokers": 3, "duration_ms": 1000, "events": [{"type": "network_partition", "brokers": [0, 2], "duration_ms": 9}]}`,
		`{"brokers": 2, "duration_ms": 9, "initial": {"local_segments": [{"base_offset": 0, "end_offset": -1}]}}`,
		`{"brokers": 3, "duration_ms": 1000, "config": {"segmnt_bytes": 5}}`,
		`{"brokers": "3", "duration_ms": 1000}`,
		`{"brokers": 3, "duration_ms": 1000} garbage`,
		`{"brokers": 3, "duration_ms": 1000, "config": {"network_latency_ms": [5, 1]}}`,
		withInitial(`{"log_start_offset": 20, "local_segments": [{"base_offset": 10, "end_offset": 29}]}`),
		withInitial(`{"remote_segments": [{"base_offset": 0, "end_offset": 8}], "local_segments": [{"base_offset": 10, "end_offset": 29}]}`),
		withEvents(`{"type": "add_replica", "broker": 2}`, `{"at_ms": 5, "type": "add_replica", "broker": 2}`),
		`[]`, `null`, ``, `{`, `{"":[]}`, `{"brokers": 1e400, "duration_ms": 1}`,
		// Broker scale.
		brokerScaleFile,
		bs(`{"topic": "t", "partition": 2, "count": 3, "replicas": [0, 1], "config": {"retention_ms": 5, "follower_replication_throttled_replicas": "2:1"}},
		    {"topic": "u", "replicas": [1], "initial": {"local_segments": [{"base_offset": 0, "end_offset": 9}]}}`,
			`{"type": "reassign", "topic": "t", "partitions": [4, 2], "replicas": [3, 2]}, {"type": "replace_broker", "broker": 3},
			 {"type": "add_replica", "broker": 2, "topic": "u", "partition": 0}, {"type": "produce", "records": 4, "topic": "t"}`,
			`, "config": {"num_replica_fetchers": 3, "broker_network_bytes_per_sec": 1000, "leader_replication_throttled_rate": 0}`),
		bs(`{"topic": "a.b", "replicas": [0]}, {"topic": "a_b", "replicas": [0]}`, "", ""),
		bs(`{"topic": "t", "replicas": [0], "config": {"num_replica_fetchers": 2}}`, "", ""),
		withEvents(`{"type": "consume", "from_offset": 1, "topic": "topic", "partition": 0}`),
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, bad := range badFiles {
		f.Add([]byte(bad.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			var fe *FieldError
			if errors.As(err, &fe) && fe.Field == "" {
				t.Fatalf("FieldError without a field: %v", err)
			}
			return
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed scenario: %v", err)
		}
		s2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Marshal(s)): %v\nmarshalled:\n%s", err, out)
		}
		if diff := cmp.Diff(s, s2); diff != "" {
			t.Fatalf("Parse(Marshal(s)) != s (-want +got):\n%s\nmarshalled:\n%s", diff, out)
		}
		out2, err := s2.Marshal()
		if err != nil || string(out2) != string(out) {
			t.Fatalf("Marshal not stable (err %v):\n%s\n---\n%s", err, out, out2)
		}
	})
}
