package scenarios

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// brokerScaleFile is the broker-scale format's original example with
// remote_storage_enable written out: the example leaves it out, and a
// broker-scale file whose initial logs list remote segments reads it as
// true then.
const brokerScaleFile = `{
  "name": "replace-b2",
  "seed": 1,
  "brokers": 6,
  "config": {"segment_bytes": 104857600, "record_bytes": 102400, "num_replica_fetchers": 1,
             "replica_fetch_response_max_bytes": 10485760, "replica_fetch_min_bytes": 1,
             "remote_fetch_concurrency": 10, "remote_storage_enable": true},
  "partitions": [
    {"topic": "orders", "partition": 0, "count": 2000, "replicas": [0, 1, 2],
     "initial": {"high_watermark": 102400, "highest_remote_offset": 92159,
                 "remote_segments": [{"base_offset": 0, "end_offset": 1023, "epoch": 0, "count": 90}],
                 "local_segments": [{"base_offset": 81920, "end_offset": 82943, "epoch": 0, "count": 20}]}}
  ],
  "events": [{"at_ms": 0, "type": "replace_broker", "broker": 2}],
  "duration_ms": 60000,
  "heal_ms": 7200000
}`

// bs is a small valid broker-scale file with the given partitions and
// events (JSON array bodies) and extra top-level members.
func bs(partitions, events, extra string) string {
	return `{"brokers": 4, "duration_ms": 10000` + extra + `, "partitions": [` + partitions + `], "events": [` + events + `]}`
}

// TestFormatsBrokerScaleExample: the format's original example, which
// leaves remote_storage_enable out, parses as tiered (its logs list remote
// segments), as it does with the key written; set to false the remote data
// is refused. It parses compactly: one entry of 2000 partitions, one
// initial log.
func TestFormatsBrokerScaleExample(t *testing.T) {
	verbatim := strings.Replace(brokerScaleFile, `, "remote_storage_enable": true`, "", 1)
	if v := mustParse(t, verbatim); !v.Config.RemoteStorageEnable {
		t.Errorf("the example without remote_storage_enable: read as untiered")
	}
	off := strings.Replace(brokerScaleFile, `"remote_storage_enable": true`, `"remote_storage_enable": false`, 1)
	if _, err := Parse([]byte(off)); err == nil || !strings.Contains(err.Error(),
		"partitions[0].initial.remote_segments: remote data while config.remote_storage_enable is false") {
		t.Errorf("the example with remote_storage_enable false: %v", err)
	}
	// No remote segments: the default, false, stays.
	if v := mustParse(t, bs(`{"topic": "t", "replicas": [0]}`, "", "")); v.Config.RemoteStorageEnable {
		t.Errorf("a file without remote data read as tiered")
	}
	s := mustParse(t, brokerScaleFile)
	if !s.BrokerScale() || s.Replicas != nil || s.Initial != nil || len(s.Partitions) != 1 || s.PartitionCount() != 2000 {
		t.Fatalf("parsed to replicas %v, initial %v, %d entries, %d partitions", s.Replicas, s.Initial, len(s.Partitions), s.PartitionCount())
	}
	p := s.Partitions[0]
	if p.Topic != "orders" || p.Partition != 0 || p.Count != 2000 || !slices.Equal(p.Replicas, []int{0, 1, 2}) {
		t.Errorf("entry %+v", p)
	}
	// One fixture of 90 + 20 segments, runs expanded once for the entry.
	if in := p.Initial; len(in.RemoteSegments) != 90 || len(in.LocalSegments) != 20 || in.LogStartOffset != 0 {
		t.Errorf("initial: %d remote, %d local segments, LSO %d", len(in.RemoteSegments), len(in.LocalSegments), in.LogStartOffset)
	}
	c := s.Config
	if c.NumReplicaFetchers != 1 || c.ReplicaFetchResponseMaxBytes != 10485760 || c.ReplicaFetchMinBytes != 1 ||
		c.RemoteFetchConcurrency != 10 || c.BrokerNetworkBytesPerSec != -1 || c.LeaderReplicationThrottledRate != -1 {
		t.Errorf("config %+v", c)
	}
	if e := s.Events[0]; e.Type != EventReplaceBroker || *e.Broker != 2 {
		t.Errorf("event %+v", e)
	}
}

// TestBrokerScaleRoundTrip: the text form keeps the file compact (no entry
// is expanded into its partitions) and Parse(Marshal(s)) is s.
func TestBrokerScaleRoundTrip(t *testing.T) {
	for _, in := range []string{
		brokerScaleFile,
		bs(`{"topic": "a", "replicas": [1], "config": {"retention_ms": -1, "leader_replication_throttled_replicas": "*"}},
		    {"topic": "a.b-c_d", "partition": 7, "count": 3, "replicas": [3, 0], "config": {},
		     "initial": {"local_segments": [{"base_offset": 0, "end_offset": 9}]}}`,
			`{"at_ms": 5, "type": "produce", "records": 10, "topic": "a", "partition": 0},
			 {"at_ms": 1, "type": "reassign", "topic": "a.b-c_d", "partitions": [9, 7], "replicas": [2, 1]},
			 {"at_ms": 1, "type": "add_replica", "broker": 2, "topic": "a"},
			 {"at_ms": 2, "type": "elect_leader", "broker": 0},
			 {"at_ms": 3, "type": "consume", "from_offset": 0, "topic": "a.b-c_d"},
			 {"at_ms": 4, "type": "delete_records", "before_offset": 3}`,
			`, "config": {"follower_replication_throttled_replicas": "7:0,8:3", "follower_replication_throttled_rate": 0}`),
	} {
		s := mustParse(t, in)
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		noEvents := *s
		noEvents.Events = nil
		if text, _ := noEvents.Marshal(); strings.Count(string(text), `"topic":`) != len(s.Partitions) {
			t.Errorf("Marshal wrote %d topics for %d entries: are they expanded?\n%s", strings.Count(string(text), `"topic":`), len(s.Partitions), text)
		}
		back := mustParse(t, string(out))
		if diff := cmp.Diff(s, back); diff != "" {
			t.Errorf("Parse(Marshal(s)) != s (-want +got):\n%s", diff)
		}
		if again, _ := back.Marshal(); string(again) != string(out) {
			t.Errorf("Marshal not stable:\n%s\n---\n%s", out, again)
		}
	}
}

// TestEachPartition: an entry of count N is N partitions with consecutive
// ids, the i-th with replicas (r + i) mod brokers, all sharing the entry's
// initial log, with the entry's config over the top-level one.
func TestEachPartition(t *testing.T) {
	s := mustParse(t, bs(`{"topic": "x", "partition": 5, "count": 6, "replicas": [2, 3, 0],
	    "config": {"retention_bytes": 77}, "initial": {"local_segments": [{"base_offset": 0, "end_offset": 9}]}},
	  {"topic": "y", "replicas": [1]}`, "", `, "config": {"retention_bytes": 5, "segment_bytes": 1000}`))
	type got struct {
		tp       string
		replicas []int
		entry    int
		retBytes int64
	}
	var all []got
	var initials []*Initial
	for id, p := range s.EachPartition() {
		if id != len(all) {
			t.Fatalf("id %d, want %d", id, len(all))
		}
		if p.Config.SegmentBytes != 1000 {
			t.Errorf("%s-%d: segment_bytes %d, want the top-level 1000", p.Topic, p.Partition, p.Config.SegmentBytes)
		}
		all = append(all, got{fmt.Sprintf("%s-%d", p.Topic, p.Partition), p.Replicas, p.Entry, p.Config.RetentionBytes})
		initials = append(initials, p.Initial)
	}
	// Brokers 4: partition x-(5+i) has (2+i)%4, (3+i)%4, (0+i)%4.
	want := []got{
		{"x-5", []int{2, 3, 0}, 0, 77}, {"x-6", []int{3, 0, 1}, 0, 77}, {"x-7", []int{0, 1, 2}, 0, 77},
		{"x-8", []int{1, 2, 3}, 0, 77}, {"x-9", []int{2, 3, 0}, 0, 77}, {"x-10", []int{3, 0, 1}, 0, 77},
		{"y-0", []int{1}, 1, 5},
	}
	if diff := cmp.Diff(want, all, cmp.AllowUnexported(got{})); diff != "" {
		t.Errorf("EachPartition (-want +got):\n%s", diff)
	}
	for i := range 6 {
		if initials[i] != s.Partitions[0].Initial {
			t.Errorf("partition %d: initial %p is not the entry's shared %p", i, initials[i], s.Partitions[0].Initial)
		}
	}
	if initials[6] != nil {
		t.Errorf("y-0: initial %v, want nil (an empty log)", initials[6])
	}
	// Each partition's replicas are its own: changing them changes nothing else.
	var first []int
	for _, p := range s.EachPartition() {
		first = p.Replicas
		first[0] = 99
		break // and stopping early is allowed
	}
	if s.Partitions[0].Replicas[0] != 2 {
		t.Errorf("a yielded replica list aliases the entry's")
	}
	if s.PartitionCount() != 7 {
		t.Errorf("PartitionCount %d, want 7", s.PartitionCount())
	}
}

// TestOnePartitionFileIsTopic0: a one-partition file is the partition
// topic-0, with the file's own replicas, initial log and config; its events
// may name it, and nothing else.
func TestOnePartitionFileIsTopic0(t *testing.T) {
	s := mustParse(t, withEvents(`{"type": "produce", "records": 5, "topic": "topic", "partition": 0}`,
		`{"type": "consume", "from_offset": 0, "topic": "topic"}`))
	n := 0
	for id, p := range s.EachPartition() {
		n++
		if id != 0 || p.Topic != OnePartitionTopic || p.Partition != 0 || p.Entry != -1 || p.Initial != s.Initial ||
			!slices.Equal(p.Replicas, s.Replicas) || p.Config != s.Config {
			t.Errorf("yielded %d %+v", id, p)
		}
	}
	if n != 1 || s.PartitionCount() != 1 || s.BrokerScale() {
		t.Errorf("%d partitions, PartitionCount %d, BrokerScale %v", n, s.PartitionCount(), s.BrokerScale())
	}
	for _, c := range []struct{ ev, want string }{
		{`{"type": "produce", "records": 5, "topic": "orders"}`, `events[0].topic: no topic "orders" in the scenario (a one-partition file's partition is topic-0)`},
		{`{"type": "produce", "records": 5, "topic": "topic", "partition": 1}`, "events[0].partition: no partition topic-1 in the scenario"},
		{`{"type": "produce", "records": 5, "partition": 0}`, "events[0].partition: needs topic"},
		{`{"type": "reassign", "topic": "topic", "partitions": [0, 1], "replicas": [1]}`, "events[0].partitions[1]: no partition topic-1"},
	} {
		if _, err := Parse([]byte(withEvents(c.ev))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.ev, err, c.want)
		}
	}
	mustParse(t, withEvents(`{"type": "reassign", "topic": "topic", "partitions": [0], "replicas": [2, 1]}`,
		`{"type": "replace_broker", "broker": 0}`))
}

// TestNamedScenariosStayOnePartition: every named scenario is a
// one-partition file, and its text round-trips as before.
func TestNamedScenariosStayOnePartition(t *testing.T) {
	for _, s := range Named() {
		if s.Partitions != nil || len(s.Replicas) == 0 {
			t.Errorf("%s: partitions %v, replicas %v", s.Name, s.Partitions, s.Replicas)
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), `"partitions"`) || strings.Contains(string(out), `"topic"`) {
			t.Errorf("%s: Marshal writes broker-scale fields:\n%s", s.Name, out)
		}
		if diff := cmp.Diff(s, mustParse(t, string(out))); diff != "" {
			t.Errorf("%s: round trip (-want +got):\n%s", s.Name, diff)
		}
	}
}

// TestEntryConfig: an entry overrides topic-level keys only; a broker key is
// refused naming where it goes; an overridden value is checked as the
// top-level one is, naming the entry.
func TestEntryConfig(t *testing.T) {
	s := mustParse(t, bs(`{"topic": "t", "replicas": [0], "config": {"segment_bytes": 4096, "record_bytes": 7,
	  "remote_storage_enable": true, "remote_log_copy_disable": true, "remote_log_delete_on_disable": true,
	  "local_retention_bytes": 1, "local_retention_ms": 2, "retention_bytes": 3, "retention_ms": 4,
	  "unclean_leader_election_enable": true, "leader_replication_throttled_replicas": "0:1",
	  "follower_replication_throttled_replicas": "*"},
	  "initial": {"remote_segments": [{"base_offset": 0, "end_offset": 9}], "local_segments": [{"base_offset": 10, "end_offset": 19}]}}`, "", ""))
	var cfg Config
	for _, p := range s.EachPartition() {
		cfg = p.Config
	}
	want := DefaultConfig()
	want.SegmentBytes, want.RecordBytes = 4096, 7
	want.RemoteStorageEnable, want.RemoteLogCopyDisable, want.RemoteLogDeleteOnDisable = true, true, true
	want.LocalRetentionBytes, want.LocalRetentionMs, want.RetentionBytes, want.RetentionMs = 1, 2, 3, 4
	want.UncleanLeaderElectionEnable = true
	want.LeaderReplicationThrottledReplicas, want.FollowerReplicationThrottledReplicas = "0:1", "*"
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Errorf("effective config (-want +got):\n%s", diff)
	}
	if s.Config != DefaultConfig() {
		t.Errorf("the top-level config changed: %+v", s.Config)
	}
	// Every key of Config is either a topic key or refused in an entry.
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range cachedJSONFields(configType) {
			yield(k)
		}
	}) {
		_, err := Parse([]byte(bs(`{"topic": "t", "replicas": [0], "config": {"`+k+`": 1}}`, "", "")))
		isTopic := slices.Contains(TopicConfigKeys(), k)
		broker := err != nil && strings.Contains(err.Error(), "partitions[0].config."+k+": a broker config, not a topic config")
		if isTopic == broker {
			t.Errorf("config key %s: topic key %v, error %v", k, isTopic, err)
		}
	}
	for _, c := range []struct{ cfg, want string }{
		{`"segmnt_bytes": 5`, "partitions[0].config.segmnt_bytes: unknown field"},
		{`"segment_bytes": 0`, "partitions[0].config.segment_bytes: must be > 0, got 0"},
		{`"retention_ms": -7`, "partitions[0].config.retention_ms: must be -1 (unlimited) or >= 0, got -7"},
		{`"remote_storage_enable": "yes"`, "partitions[0].config.remote_storage_enable: expected a bool"},
		{`"follower_replication_throttled_replicas": "0:9"`, "partitions[0].config.follower_replication_throttled_replicas: 0:9: no such broker 9 (brokers are 0..3)"},
		{`"leader_replication_throttled_replicas": "0:1, 1:2"`, `partitions[0].config.leader_replication_throttled_replicas: must be "*" or a list`},
	} {
		_, err := Parse([]byte(bs(`{"topic": "t", "replicas": [0], "config": {`+c.cfg+`}}`, "", "")))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.cfg, err, c.want)
		}
	}
}

// TestBrokerScaleErrors: each mistake is refused with the path of the field
// (or of the object whose fields are in a bad relation).
func TestBrokerScaleErrors(t *testing.T) {
	one := `{"topic": "t", "replicas": [0]}`
	for _, c := range []struct{ name, in, want string }{
		{"replicas with partitions", `{"brokers": 2, "duration_ms": 1, "replicas": [0], "partitions": [` + one + `]}`,
			"replicas: not allowed with partitions: top-level replicas and initial describe a one-partition file"},
		{"initial with partitions", `{"brokers": 2, "duration_ms": 1, "initial": {"local_segments": [{"base_offset": 0, "end_offset": -1}]}, "partitions": [` + one + `]}`,
			"initial: not allowed with partitions: top-level replicas and initial"},
		{"empty partitions", `{"brokers": 2, "duration_ms": 1, "partitions": []}`, "partitions: must not be empty"},
		{"not an array", `{"brokers": 2, "duration_ms": 1, "partitions": {}}`, "partitions: expected an array, got object"},
		{"no topic", bs(`{"replicas": [0]}`, "", ""), "partitions[0].topic: required"},
		{"no replicas", bs(`{"topic": "t"}`, "", ""), "partitions[0].replicas: required"},
		{"unknown field", bs(one+`, {"topic": "u", "replicas": [0], "leader": 0}`, "", ""), "partitions[1].leader: unknown field"},
		{"empty topic", bs(`{"topic": "", "replicas": [0]}`, "", ""), "partitions[0].topic: must not be empty"},
		{"dot topic", bs(`{"topic": "..", "replicas": [0]}`, "", ""), `partitions[0].topic: ".." is not allowed`},
		{"bad char", bs(`{"topic": "or ders", "replicas": [0]}`, "", ""), `partitions[0].topic: "or ders": a topic name holds only ASCII letters`},
		{"non-ASCII", bs(`{"topic": "ördérs", "replicas": [0]}`, "", ""), "partitions[0].topic:"},
		{"long topic", bs(`{"topic": "`+strings.Repeat("t", 250)+`", "replicas": [0]}`, "", ""), "partitions[0].topic: at most 249 characters, got 250"},
		{"negative partition", bs(`{"topic": "t", "partition": -1, "replicas": [0]}`, "", ""), "partitions[0].partition: must be >= 0, got -1"},
		{"count 0", bs(`{"topic": "t", "count": 0, "replicas": [0]}`, "", ""), "partitions[0].count: must be in 1..100000, got 0"},
		{"count huge", bs(`{"topic": "t", "count": 100001, "replicas": [0]}`, "", ""), "partitions[0].count: must be in 1..100000, got 100001"},
		{"ids past int32", bs(`{"topic": "t", "partition": 2147483600, "count": 100, "replicas": [0]}`, "", ""),
			"partitions[0].count: partitions 2147483600..2147483699 of t pass the largest partition id, 2147483647"},
		{"empty replicas", bs(`{"topic": "t", "replicas": []}`, "", ""), "partitions[0].replicas: must not be empty"},
		{"no such broker", bs(one+`, {"topic": "u", "replicas": [0, 7]}`, "", ""), "partitions[1].replicas[1]: no such broker 7 (brokers are 0..3)"},
		{"duplicate replica", bs(`{"topic": "t", "replicas": [1, 1]}`, "", ""), "partitions[0].replicas[1]: duplicate broker 1"},
		{"overlap", bs(`{"topic": "t", "partition": 3, "count": 4, "replicas": [0]}, {"topic": "u", "replicas": [0]},
		    {"topic": "t", "partition": 6, "replicas": [1]}`, "", ""), "partitions[2]: t partitions 6..6 overlap partitions[0] (t 3..6)"},
		{"same partition", bs(one+`, `+one, "", ""), "partitions[1]: t partitions 0..0 overlap partitions[0] (t 0..0)"},
		{"collision", bs(`{"topic": "a.b", "replicas": [0]}, {"topic": "a_b", "replicas": [0]}`, "", ""),
			`partitions[1].topic: "a_b" collides with "a.b" (partitions[0]): Kafka refuses topics whose names differ only in '.' and '_'`},
		{"entry initial", bs(one+`, {"topic": "u", "replicas": [0], "initial": {"high_watermark": 50, "local_segments": [{"base_offset": 0, "end_offset": 20}]}}`, "", ""),
			"partitions[1].initial: high watermark 50 > log end offset 21"},
		{"entry initial segment", bs(`{"topic": "u", "replicas": [0], "initial": {"local_segments": [{"base_offset": 0, "end_offset": 20, "epoch": 3}]}}`, "", ""),
			"partitions[0].initial.local_segments[0].epoch: 3 > leader_epoch 0"},
		{"entry initial decode", bs(`{"topic": "u", "replicas": [0], "initial": {"local_segments": [{"base_offset": 0}]}}`, "", ""),
			"partitions[0].initial.local_segments[0].end_offset: required"},
		{"too many partitions", bs(`{"topic": "t", "count": 60000, "replicas": [0]}, {"topic": "u", "count": 40001, "replicas": [0]}`, "", ""),
			"partitions[1].count: the file would hold 100001 partitions with this entry, more than 100000"},
		{"partitions x brokers", `{"brokers": 64, "duration_ms": 1, "partitions": [{"topic": "t", "count": 32769, "replicas": [0]}]}`,
			"partitions[0].count: 32769 partitions x 64 brokers = 2097216 with this entry, more than 2097152"},
		{"segment copies", bs(`{"topic": "t", "count": 100000, "replicas": [0, 1, 2, 3], "initial": {"local_segments": [
		    {"base_offset": 0, "end_offset": 0, "count": 20}, {"base_offset": 20, "end_offset": 19}]}}`, "", ""),
			"partitions[0].count: the partitions would hold 8400000 segments at time 0 with this entry"},
		{"shared decode room", bs(`{"topic": "t", "replicas": [0], "initial": {"local_segments": [{"base_offset": 0, "end_offset": 0, "count": 2000000}]}},
		    {"topic": "u", "replicas": [0], "initial": {"local_segments": [{"base_offset": 0, "end_offset": 0, "count": 200000}]}}`, "", ""),
			"partitions[1].initial.local_segments[0].count: the partitions' initial logs would hold more than 2097152 segments together"},
	} {
		_, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v\nwant %q", c.name, err, c.want)
		}
		var fe *FieldError
		if err != nil && !asFieldError(err, &fe) {
			t.Errorf("%s: %T is not a *FieldError", c.name, err)
		}
	}
	// Both limits hold exactly at their bounds.
	mustParse(t, `{"brokers": 64, "duration_ms": 1, "partitions": [{"topic": "t", "count": 32768, "replicas": [0]}]}`)
	mustParse(t, bs(`{"topic": "t", "count": 100000, "replicas": [0]}`, "", ""))
}

func asFieldError(err error, fe **FieldError) bool {
	e, ok := err.(*FieldError)
	*fe = e
	return ok
}

// TestBrokerScaleEvents: events name partitions of the scenario, and the
// new events hold what they need.
func TestBrokerScaleEvents(t *testing.T) {
	parts := `{"topic": "t", "partition": 2, "count": 3, "replicas": [0]}, {"topic": "u", "replicas": [1]}`
	for _, c := range []struct{ name, ev, want string }{
		{"unknown topic", `{"type": "produce", "records": 1, "topic": "v"}`, `events[0].topic: no topic "v" in the scenario (topics: t, u)`},
		{"unknown partition", `{"type": "delete_records", "before_offset": 1, "topic": "t", "partition": 5}`,
			"events[0].partition: no partition t-5 in the scenario"},
		{"partition alone", `{"type": "consume", "from_offset": 1, "partition": 2}`, "events[0].partition: needs topic"},
		{"empty topic", `{"type": "elect_leader", "broker": 0, "topic": ""}`, "events[0].topic: must not be empty (leave it out for every partition)"},
		{"topic on crash", `{"type": "crash", "broker": 0, "topic": "t"}`, "events[0].topic: not used by crash"},
		{"partition on set_config", `{"type": "set_config", "key": "retention_ms", "value": 1, "partition": 0}`, "events[0].partition: not used by set_config"},
		{"replace without broker", `{"type": "replace_broker"}`, "events[0].broker: required by replace_broker"},
		{"replace bad broker", `{"type": "replace_broker", "broker": 4}`, "events[0].broker: no such broker 4"},
		{"replace with topic", `{"type": "replace_broker", "broker": 1, "topic": "t"}`, "events[0].topic: not used by replace_broker"},
		{"reassign no topic", `{"type": "reassign", "partitions": [2], "replicas": [1]}`, "events[0].topic: required by reassign"},
		{"reassign no partitions", `{"type": "reassign", "topic": "t", "replicas": [1]}`, "events[0].partitions: required by reassign"},
		{"reassign empty partitions", `{"type": "reassign", "topic": "t", "partitions": [], "replicas": [1]}`, "events[0].partitions: must not be empty"},
		{"reassign no replicas", `{"type": "reassign", "topic": "t", "partitions": [2]}`, "events[0].replicas: required by reassign"},
		{"reassign bad replica", `{"type": "reassign", "topic": "t", "partitions": [2], "replicas": [1, 9]}`, "events[0].replicas[1]: no such broker 9"},
		{"reassign duplicate replica", `{"type": "reassign", "topic": "t", "partitions": [2], "replicas": [1, 1]}`, "events[0].replicas[1]: duplicate broker 1"},
		{"reassign missing partition", `{"type": "reassign", "topic": "t", "partitions": [2, 1], "replicas": [1]}`, "events[0].partitions[1]: no partition t-1"},
		{"reassign duplicate partition", `{"type": "reassign", "topic": "t", "partitions": [3, 4, 3], "replicas": [1]}`, "events[0].partitions[2]: duplicate partition 3"},
		{"reassign partition field", `{"type": "reassign", "topic": "t", "partition": 2, "partitions": [2], "replicas": [1]}`, "events[0].partition: not used by reassign"},
	} {
		_, err := Parse([]byte(bs(parts, c.ev, "")))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v\nwant %q", c.name, err, c.want)
		}
	}
	fault := strings.Replace(bs(parts, "", ""), `"events": []`,
		`"events": [], "explore": {"faults": [{"type": "elect_leader", "broker": 0, "topic": "w"}], "choices": []}`, 1)
	if _, err := Parse([]byte(fault)); err == nil || !strings.Contains(err.Error(), `explore.faults[0].topic: no topic "w"`) {
		t.Errorf("explore fault naming no partition: %v", err)
	}
	mustParse(t, bs(parts, `{"type": "reassign", "topic": "t", "partitions": [4, 2], "replicas": [3, 2, 1]},
	  {"type": "replace_broker", "broker": 3}, {"type": "produce", "records": 1, "topic": "u", "partition": 0},
	  {"type": "elect_leader", "broker": 1, "topic": "t"}, {"type": "consume", "from_offset": 0}`, ""))
}

// TestBrokerScaleAddReplica: an add_replica's broker must not already be a
// replica of a partition it targets (the entry's rotation decides which),
// and no two events may add a broker to the same partition.
func TestBrokerScaleAddReplica(t *testing.T) {
	// Brokers 4. Entry t: partitions t-0..t-1 with replicas [0] then [1].
	// Entry u: u-0 with [2]. Entry w: w-0..w-5 with [1], [2], [3], [0], ...
	parts := `{"topic": "t", "count": 2, "replicas": [0]}, {"topic": "u", "replicas": [2]},
	  {"topic": "w", "count": 6, "replicas": [1]}`
	add := func(b int, target string) string {
		return fmt.Sprintf(`{"type": "add_replica", "broker": %d%s}`, b, target)
	}
	for _, c := range []struct {
		name string
		evs  []string
		want string // "" = valid
	}{
		{"every partition, broker 3 is on w-2", []string{add(3, "")}, "events[0].broker: broker 3 is already a replica of w-2 (partitions[2])"},
		{"topic t, broker 3 holds none", []string{add(3, `, "topic": "t"`), add(3, `, "topic": "u"`)}, ""},
		{"topic t, broker 1 holds t-1", []string{add(1, `, "topic": "t"`)}, "events[0].broker: broker 1 is already a replica of t-1 (partitions[0])"},
		{"one partition it holds", []string{add(2, `, "topic": "w", "partition": 1`)}, "broker 2 is already a replica of w-1 (partitions[2])"},
		{"one partition it does not hold", []string{add(2, `, "topic": "w", "partition": 2`), add(2, `, "topic": "w", "partition": 0`)}, ""},
		{"twice to one partition", []string{add(3, `, "topic": "t", "partition": 1`), add(3, `, "topic": "t", "partition": 1`)},
			"events[1].broker: broker 3 already added to some of these partitions by events[0]"},
		{"partition then its topic", []string{add(3, `, "topic": "t", "partition": 1`), add(3, `, "topic": "t"`)},
			"events[1].broker: broker 3 already added to some of these partitions by events[0]"},
		{"topic then its partition", []string{add(3, `, "topic": "t"`), add(3, `, "topic": "t", "partition": 0`)},
			"events[1].broker: broker 3 already added to some of these partitions by events[0]"},
		{"topic then every partition", []string{add(3, `, "topic": "u"`), add(3, "")}, "events[1].broker: broker 3 already added to some of these partitions by events[0]"},
		{"another broker, same partition", []string{add(3, `, "topic": "t", "partition": 1`), add(2, `, "topic": "t", "partition": 1`)}, ""},
	} {
		_, err := Parse([]byte(bs(parts, strings.Join(c.evs, ", "), "")))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v\nwant %q", c.name, err, c.want)
		}
	}
	// Twenty single-replica partitions on broker 0 (twenty entries: a count
	// would rotate them): broker 1 may join them all.
	var twenty []string
	for i := range 20 {
		twenty = append(twenty, fmt.Sprintf(`{"topic": "t", "partition": %d, "replicas": [0]}`, i))
	}
	mustParse(t, `{"brokers": 2, "duration_ms": 1, "partitions": [`+strings.Join(twenty, ", ")+`],
	  "events": [{"type": "add_replica", "broker": 1}]}`)
	// With count 2 the second partition is on broker 1 (rotation): refused.
	if _, err := Parse([]byte(`{"brokers": 2, "duration_ms": 1, "partitions": [{"topic": "t", "count": 2, "replicas": [0]}],
	  "events": [{"type": "add_replica", "broker": 1}]}`)); err == nil || !strings.Contains(err.Error(), "already a replica of t-1") {
		t.Errorf("rotated replica: %v", err)
	}
}

// TestBrokerScaleConfigKeys: the new keys' defaults (Kafka's) and ranges.
func TestBrokerScaleConfigKeys(t *testing.T) {
	for _, c := range []struct{ cfg, want string }{
		{`"num_replica_fetchers": 0`, "config.num_replica_fetchers: must be > 0, got 0"},
		{`"num_replica_fetchers": 65`, "config.num_replica_fetchers: must be in 1..64, got 65"},
		{`"replica_fetch_response_max_bytes": 0`, "config.replica_fetch_response_max_bytes: must be > 0, got 0"},
		{`"replica_fetch_response_max_bytes": 2147483648`, "config.replica_fetch_response_max_bytes: must be in 1..2147483647"},
		{`"replica_fetch_min_bytes": 0`, "config.replica_fetch_min_bytes: must be > 0, got 0"},
		{`"leader_replication_throttled_rate": -2`, "config.leader_replication_throttled_rate: must be -1 (unlimited) or >= 0, got -2"},
		{`"follower_replication_throttled_rate": -5`, "config.follower_replication_throttled_rate: must be -1 (unlimited) or >= 0, got -5"},
		{`"remote_fetch_concurrency": 0`, "config.remote_fetch_concurrency: must be -1 (unlimited) or in 1..2147483647, got 0"},
		{`"broker_network_bytes_per_sec": 0`, "config.broker_network_bytes_per_sec: must be -1 (unlimited) or >= 1, got 0"},
		{`"broker_disk_bytes_per_sec": -3`, "config.broker_disk_bytes_per_sec: must be -1 (unlimited) or >= 1, got -3"},
		{`"leader_replication_throttled_replicas": "1:2,"`, `config.leader_replication_throttled_replicas: must be "*" or a list`},
		{`"leader_replication_throttled_replicas": "*,0:1"`, `config.leader_replication_throttled_replicas: must be "*" or a list`},
		{`"follower_replication_throttled_replicas": "0:-1"`, `config.follower_replication_throttled_replicas: must be "*" or a list`},
		{`"follower_replication_throttled_replicas": "3:4"`, "config.follower_replication_throttled_replicas: 3:4: no such broker 4 (brokers are 0..2)"},
	} {
		_, err := Parse([]byte(base(`, "config": {` + c.cfg + `}`)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v\nwant %q", c.cfg, err, c.want)
		}
	}
	// Kafka accepts a throttled rate of 0 (atLeast(0)), and so does the file.
	s := mustParse(t, base(`, "config": {"leader_replication_throttled_rate": 0, "num_replica_fetchers": 64,
	  "remote_fetch_concurrency": 1, "leader_replication_throttled_replicas": "0:0,0:2,7:1"}`))
	if s.Config.LeaderReplicationThrottledRate != 0 || s.Config.NumReplicaFetchers != 64 {
		t.Errorf("config %+v", s.Config)
	}
}

func TestParseThrottledReplicas(t *testing.T) {
	for _, c := range []struct {
		in   string
		want ThrottledReplicas
	}{
		{"", ThrottledReplicas{}},
		{"*", ThrottledReplicas{All: true}},
		{"0:1", ThrottledReplicas{Replicas: []PartitionBroker{{0, 1}}}},
		{"12:3,0:0,12:4", ThrottledReplicas{Replicas: []PartitionBroker{{12, 3}, {0, 0}, {12, 4}}}},
	} {
		got, err := ParseThrottledReplicas(c.in)
		if err != nil || !cmp.Equal(got, c.want) {
			t.Errorf("ParseThrottledReplicas(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{" ", "**", "0", "0:", ":1", "a:1", "0:1:2", "0:1,", ",0:1", "0:1,,2:3", " 0:1", "+1:2", "2147483648:0", "0:1;1:2"} {
		if _, err := ParseThrottledReplicas(bad); err == nil {
			t.Errorf("ParseThrottledReplicas(%q): no error", bad)
		}
	}
}

// TestBrokerScaleLogLimits: each partition's log is bounded like a
// one-partition file's, counting only the records produced to it.
func TestBrokerScaleLogLimits(t *testing.T) {
	parts := `{"topic": "t", "count": 2, "replicas": [0], "initial": {"local_segments": [{"base_offset": 0, "end_offset": 9}]}},
	  {"topic": "u", "replicas": [0], "config": {"record_bytes": 2147483647}}`
	// u holds 2^31-1-byte records: 4194304 of them reach 2^53 bytes.
	over := `{"type": "produce", "records": 4194305, "topic": "u"}`
	if _, err := Parse([]byte(bs(parts, over, ""))); err == nil || !strings.Contains(err.Error(),
		"partitions[1].config.record_bytes: 4194305 records of 2147483647 bytes (offsets 0..4194304, the fixture and every produce of a partition of partitions[1] (u 0..0))") {
		t.Errorf("u over 8 PiB: %v", err)
	}
	// The same records to t, whose records are 1 KiB, are fine; so is a
	// produce to t-1 that u never sees.
	mustParse(t, bs(parts, `{"type": "produce", "records": 4194305, "topic": "t"},
	  {"type": "produce", "records": 1000000000, "topic": "t", "partition": 1}`, ""))
	// Records to two partitions of t do not add up: only t-1's to t-1.
	mustParse(t, bs(parts, `{"type": "produce", "records": 4194304, "topic": "u", "partition": 0},
	  {"type": "produce", "records": 1000000000, "topic": "t", "partition": 0}`, ""))
	// The initial leader epoch of each entry leaves room for every election
	// (one per event and broker, two per replace_broker).
	epoch := func(e int64) string {
		return bs(fmt.Sprintf(`{"topic": "t", "replicas": [0], "initial": {"leader_epoch": %d, "local_segments": [{"base_offset": 0, "end_offset": 9}]}}`, e),
			`{"type": "replace_broker", "broker": 1}, {"type": "crash", "broker": 0}`, "")
	}
	room := int64(1<<31-1) - 2 - 1 - 4
	mustParse(t, epoch(room))
	if _, err := Parse([]byte(epoch(room + 1))); err == nil || !strings.Contains(err.Error(),
		"partitions[0].initial.leader_epoch: must be at most 2147483640 (2^31-1 less one election for each of the 2 events, 1 more for the replace_broker and rolling_restart events, and one for each of the 4 brokers)") {
		t.Errorf("epoch past the room: %v", err)
	}
}

// TestBrokerScaleParseIsCompact: parsing an entry of 80,000 partitions
// costs what parsing an entry of 1 does: the partitions are not expanded.
func TestBrokerScaleParseIsCompact(t *testing.T) {
	file := func(count int) []byte {
		return []byte(fmt.Sprintf(`{"brokers": 6, "duration_ms": 1, "config": {"remote_storage_enable": true},
		  "partitions": [{"topic": "orders", "count": %d, "replicas": [0, 1, 2],
		    "initial": {"remote_segments": [{"base_offset": 0, "end_offset": 1023, "count": 70}],
		                "local_segments": [{"base_offset": 71680, "end_offset": 72703, "count": 10}]}}]}`, count))
	}
	alloc := func(data []byte) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := Parse(data); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	one, many := alloc(file(1)), alloc(file(80_000))
	// Expanding would take at least 80,000 x 80 segments x 48 bytes = 307 MB.
	if many > 2*one+(1<<20) {
		t.Errorf("Parse allocates %d bytes for 1 partition and %d for 80,000", one, many)
	}
}
