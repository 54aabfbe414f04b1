package scenarios

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"tierfetch/sim"
)

// Limits on scenario values, so that the simulator's sums of times and offsets stay far
// from int64 overflow and every produce loop has a bound.
const (
	brokersMax        = 64
	timeMsMax         = 1_000_000_000_000 // about 31.7 years of simulated time
	offsetMax         = 1 << 62
	produceRecordsMax = 1_000_000_000
	defaultHealMs     = 60_000
)

// Scenario is a validated scenario file with every default filled in.
//
// Invariant (after Parse): Events are sorted by AtMs, file order kept among equal
// times; every set_config Value is in canonical form (true, false, or a decimal
// integer) and a copy-finished remote segment has an empty State, so Parse(Marshal(s))
// equals s.
type Scenario struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Seed        uint64 `json:"seed"`
	Brokers     int    `json:"brokers"`
	// Replicas and Initial are the one partition's (nil in a broker-scale file:
	// each Partitions entry has its own).
	Replicas []int    `json:"replicas,omitempty"`
	Config   Config   `json:"config"`
	Initial  *Initial `json:"initial,omitempty"`
	// Partitions (broker scale, docs/reference/scenario-format.md): the partitions of a
	// many-partition file, compact (an entry with Count stands for Count
	// partitions sharing one Initial); nil in a one-partition file.
	// EachPartition expands them.
	Partitions []PartitionSpec `json:"partitions,omitempty"`
	Events     []Event         `json:"events"`
	DurationMs int64           `json:"duration_ms"`
	HealMs     int64           `json:"heal_ms"`
	// Explore (an extension of the format, written by simrun explore) fixes every
	// choice of the run: nil, the default, means they are drawn from the seed.
	Explore *Schedule `json:"explore,omitempty"`
	// Failure (an extension of the format, written with a saved failure)
	// records how the saved run failed: nil for a scenario that records none.
	Failure *Failure `json:"failure,omitempty"`
}

// Config is the partition's configuration (Kafka's names with '.' as '_') plus the
// simulated environment. DefaultConfig gives Kafka's defaults.
type Config struct {
	SegmentBytes                   int64    `json:"segment_bytes"`
	RecordBytes                    int64    `json:"record_bytes"`
	ReplicaFetchMaxBytes           int64    `json:"replica_fetch_max_bytes"`
	ReplicaFetchBackoffMs          int64    `json:"replica_fetch_backoff_ms"`
	ReplicaFetchWaitMaxMs          int64    `json:"replica_fetch_wait_max_ms"`
	ReplicaLagTimeMaxMs            int64    `json:"replica_lag_time_max_ms"`
	RemoteLogManagerTaskIntervalMs int64    `json:"remote_log_manager_task_interval_ms"`
	RemoteStorageEnable            bool     `json:"remote_storage_enable"`
	RemoteLogCopyDisable           bool     `json:"remote_log_copy_disable"`
	RemoteLogDeleteOnDisable       bool     `json:"remote_log_delete_on_disable"`
	LocalRetentionBytes            int64    `json:"local_retention_bytes"` // -2: use retention_bytes
	LocalRetentionMs               int64    `json:"local_retention_ms"`    // -2: use retention_ms
	RetentionBytes                 int64    `json:"retention_bytes"`       // -1: unlimited
	RetentionMs                    int64    `json:"retention_ms"`          // -1: unlimited
	UncleanLeaderElectionEnable    bool     `json:"unclean_leader_election_enable"`
	NetworkLatencyMs               [2]int64 `json:"network_latency_ms"` // [min, max], drawn uniformly
	RemoteUploadMs                 [2]int64 `json:"remote_upload_ms"`   // [min, max]
	RemoteFetchMs                  [2]int64 `json:"remote_fetch_ms"`    // [min, max]
	ReplicationBytesPerSec         int64    `json:"replication_bytes_per_sec"`
	// RemoteMetadataReadyMs is how long after a broker starts, is assigned the
	// partition, or sees tiering enabled again the remote log metadata for the
	// partition becomes ready (its metadata cache replays the metadata topic); a
	// follower that becomes leader stays ready.
	RemoteMetadataReadyMs int64 `json:"remote_metadata_ready_ms"`

	// Extensions of the format's first version (new optional fields).

	// ReplicaSocketTimeoutMs (replica.socket.timeout.ms, default 30000): a request whose
	// answer never comes (network partition, crashed peer) fails after this.
	ReplicaSocketTimeoutMs int64 `json:"replica_socket_timeout_ms"`
	// LogRetentionCheckIntervalMs (log.retention.check.interval.ms, default 300000).
	LogRetentionCheckIntervalMs int64 `json:"log_retention_check_interval_ms"`
	// RemoteErrorRate (default 0) is the probability, in [0, 1], that one remote upload
	// or fetch fails.
	RemoteErrorRate float64 `json:"remote_error_rate"`
	// FollowerFetchLastTieredOffsetEnable (follower.fetch.last.tiered.offset.enable):
	// nil, the default, means it is set by the strategy being run.
	FollowerFetchLastTieredOffsetEnable *bool `json:"follower_fetch_last_tiered_offset_enable,omitempty"`
	// RemoteMetadataLagMs (default 0) is how long after a broker publishes a remote
	// log segment event (COPY_SEGMENT_STARTED/FINISHED, DELETE_SEGMENT_STARTED/FINISHED)
	// every other broker's metadata cache applies it; the publisher's own cache has it
	// at once.
	RemoteMetadataLagMs int64 `json:"remote_metadata_lag_ms,omitempty"`
	// RemoteCopyLagMs (remote.copy.lag.ms, KIP-1241, Kafka trunk; default 0, no delay)
	// and RemoteCopyLagBytes (remote.copy.lag.bytes; absent: -1, the local retention)
	// hold segments back from upload; only the kafka-trunk profile reads them.
	RemoteCopyLagMs    int64  `json:"remote_copy_lag_ms,omitempty"`
	RemoteCopyLagBytes *int64 `json:"remote_copy_lag_bytes,omitempty"`
	// MinInsyncReplicas (min.insync.replicas; absent: 1, Kafka's default): below it
	// the leader refuses acks=all produce requests and holds its high watermark, and
	// replicas leaving the ISR become eligible leader replicas (KIP-966).
	MinInsyncReplicas *int64 `json:"min_insync_replicas,omitempty"`

	// Broker scale (docs/reference/scenario-format.md, "Broker scale"): broker configs, Kafka's names
	// and defaults, and the environment's shared resources (-1: unlimited).

	NumReplicaFetchers               int64 `json:"num_replica_fetchers"`
	ReplicaFetchResponseMaxBytes     int64 `json:"replica_fetch_response_max_bytes"`
	ReplicaFetchMinBytes             int64 `json:"replica_fetch_min_bytes"`
	LeaderReplicationThrottledRate   int64 `json:"leader_replication_throttled_rate"`   // bytes/s, -1: unlimited
	FollowerReplicationThrottledRate int64 `json:"follower_replication_throttled_rate"` // bytes/s, -1: unlimited
	// RemoteFetchConcurrency: remote storage reads in flight at once per
	// broker (-1: unlimited).
	RemoteFetchConcurrency int64 `json:"remote_fetch_concurrency"`
	// BrokerNetworkBytesPerSec: each broker's inbound and outbound network
	// (-1: unlimited).
	BrokerNetworkBytesPerSec int64 `json:"broker_network_bytes_per_sec"`
	// BrokerDiskBytesPerSec (an extension): each broker's disk reads (-1:
	// unlimited).
	BrokerDiskBytesPerSec int64 `json:"broker_disk_bytes_per_sec"`
	// LeaderReplicationThrottledReplicas and FollowerReplicationThrottledReplicas
	// (extensions; Kafka's topic configs leader.replication.throttled.replicas and
	// follower.replication.throttled.replicas): "*" or "P:B,P:B,..." (partition
	// P's replica on broker B), empty for none (the default). A throttled rate
	// limits only the replicas listed. At the top level they are every topic's
	// default; a partitions entry's config may override them.
	LeaderReplicationThrottledReplicas   string `json:"leader_replication_throttled_replicas,omitempty"`
	FollowerReplicationThrottledReplicas string `json:"follower_replication_throttled_replicas,omitempty"`
}

// Initial is the leader's log at time 0. LEO is the last local EndOffset + 1 and LLSO
// the first local BaseOffset.
//
// Invariant: 0 <= LogStartOffset <= LLSO <= HighWatermark <= LEO; remote segments are
// sorted, do not overlap, end below HighWatermark, and those that finished copying
// cover [LogStartOffset, LLSO-1]; a HighestRemoteOffset at or above LogStartOffset lies
// in a remote segment whose copy finished. Remote segments wholly below LogStartOffset
// and a HighestRemoteOffset below it (stale) are real states and are accepted.
type Initial struct {
	LeaderEpoch         int32         `json:"leader_epoch"`
	LogStartOffset      int64         `json:"log_start_offset"`
	HighWatermark       int64         `json:"high_watermark"`
	HighestRemoteOffset int64         `json:"highest_remote_offset"` // -1: unknown
	RemoteSegments      []SegmentSpec `json:"remote_segments"`
	LocalSegments       []SegmentSpec `json:"local_segments"` // the last is the active one
}

// SegmentSpec is one segment [BaseOffset, EndOffset] written in leader epoch Epoch. An
// empty (active) segment has EndOffset = BaseOffset - 1.
type SegmentSpec struct {
	BaseOffset int64 `json:"base_offset"`
	EndOffset  int64 `json:"end_offset"`
	Epoch      int32 `json:"epoch"`
	// State (remote segments only): the remote log metadata state, one of
	// RemoteSegmentStates; empty means copy-finished (Parse writes it so).
	State string `json:"state,omitempty"`
	// Count (the file's shorthand for a run of uniform segments): this entry
	// stands for Count consecutive segments of its size, epoch and state,
	// the first [BaseOffset, EndOffset]. Parse expands the run, so a parsed
	// scenario lists every segment and Count is 0 (absent) everywhere.
	Count int64 `json:"count,omitempty"`
}

// MaxFixtureSegments bounds the segments of a fixture, remote and local
// together, after runs ("count") are expanded: each segment costs a few
// hundred bytes of memory in a run, so a small file cannot ask for more
// than about a GiB.
const MaxFixtureSegments = 1 << 21

// Remote segment states a scenario file may give.
const (
	StateCopyFinished  = "copy-finished"  // the default: readable, counted by HRO
	StateCopyStarted   = "copy-started"   // upload under way or abandoned: listed only
	StateDeleteStarted = "delete-started" // being deleted: listed, counted by HRO, not readable
)

// RemoteSegmentStates lists the states a remote segment may have, in the order error
// messages name them.
var RemoteSegmentStates = []string{StateCopyFinished, StateCopyStarted, StateDeleteStarted}

// finished reports whether the segment is readable: its copy finished and its deletion
// did not start.
func (sg SegmentSpec) finished() bool { return sg.State == "" || sg.State == StateCopyFinished }

// copied reports whether the segment's copy finished at some point.
func (sg SegmentSpec) copied() bool { return sg.finished() || sg.State == StateDeleteStarted }

// Event is one exogenous event, applied at AtMs of simulated time. Which fields a type
// uses is listed beside each field; a field a type does not use must be absent.
type Event struct {
	AtMs int64  `json:"at_ms"`
	Type string `json:"type"` // one of the Event* constants
	// Broker: add_replica, elect_leader, crash, restart (required there); set_config
	// (optional: absent = every broker).
	Broker  *int   `json:"broker,omitempty"`
	Records int64  `json:"records,omitempty"` // produce (required, > 0)
	OverMs  int64  `json:"over_ms,omitempty"` // produce (optional, >= 0)
	Key     string `json:"key,omitempty"`     // set_config
	// Value: set_config: a JSON bool for boolean keys, a JSON integer for numeric keys.
	Value        json.RawMessage `json:"value,omitempty"`
	BeforeOffset int64           `json:"before_offset,omitempty"` // delete_records (>= 0)
	Brokers      []int           `json:"brokers,omitempty"`       // network_partition, rolling_restart (non-empty, distinct, valid ids)
	DurationMs   int64           `json:"duration_ms,omitempty"`   // network_partition, remote_outage (> 0)
	FromOffset   int64           `json:"from_offset,omitempty"`   // consume (>= 0)
	// Topic: reassign (required); produce, add_replica, delete_records,
	// consume, elect_leader (optional: absent = every partition; alone = every
	// partition of the topic).
	Topic string `json:"topic,omitempty"`
	// Partition: with Topic, the one partition a produce, add_replica,
	// delete_records, consume or elect_leader acts on (optional).
	Partition *int32 `json:"partition,omitempty"`
	// Partitions and Replicas: reassign (required): the partitions of Topic
	// and their new replicas (the first is the preferred leader).
	Partitions []int32 `json:"partitions,omitempty"`
	Replicas   []int   `json:"replicas,omitempty"`
	// DownMs and Wait: rolling_restart: how long each broker stays down
	// (required, > 0), and what the next broker waits for once it is back
	// ("isr", the default: every replica it holds back in its ISR).
	DownMs int64  `json:"down_ms,omitempty"`
	Wait   string `json:"wait,omitempty"`
}

// Event types.
const (
	EventAddReplica       = "add_replica"
	EventProduce          = "produce"
	EventElectLeader      = "elect_leader"
	EventCrash            = "crash"
	EventRestart          = "restart"
	EventSetConfig        = "set_config"
	EventDeleteRecords    = "delete_records"
	EventNetworkPartition = "network_partition"
	EventRemoteOutage     = "remote_outage"
	EventConsume          = "consume"
	EventReplaceBroker    = "replace_broker"
	EventReassign         = "reassign"
	// EventRollingRestart is an extension outside the shared format: the
	// brokers restarted one after another.
	EventRollingRestart = "rolling_restart"
)

// RollingWaitISR is rolling_restart's wait: the next broker stops once
// every replica the last one holds is back in its ISR.
const RollingWaitISR = "isr"

// eventTypes lists the event types in the order error messages name them.
var eventTypes = []string{
	EventAddReplica, EventProduce, EventElectLeader, EventCrash, EventRestart,
	EventSetConfig, EventDeleteRecords, EventNetworkPartition, EventRemoteOutage,
	EventConsume, EventReplaceBroker, EventReassign, EventRollingRestart,
}

// eventUses maps an event type to the optional fields it uses (at_ms and type aside).
var eventUses = map[string][]string{
	EventAddReplica:       {"broker", "topic", "partition"},
	EventProduce:          {"records", "over_ms", "topic", "partition"},
	EventElectLeader:      {"broker", "topic", "partition"},
	EventCrash:            {"broker"},
	EventRestart:          {"broker"},
	EventSetConfig:        {"broker", "key", "value"},
	EventDeleteRecords:    {"before_offset", "topic", "partition"},
	EventNetworkPartition: {"brokers", "duration_ms"},
	EventRemoteOutage:     {"duration_ms"},
	EventConsume:          {"from_offset", "topic", "partition"},
	EventReplaceBroker:    {"broker"},
	EventReassign:         {"topic", "partitions", "replicas"},
	EventRollingRestart:   {"brokers", "down_ms", "wait"},
}

// setConfigBoolKeys are the boolean keys a set_config event may change.
var setConfigBoolKeys = []string{
	"follower_fetch_last_tiered_offset_enable", "remote_log_copy_disable",
	"remote_log_delete_on_disable", "remote_storage_enable",
}

// setConfigIntChecks maps the integer keys a set_config event may change to the range
// check the same config field gets.
var setConfigIntChecks = map[string]func(int64) string{
	"local_retention_bytes":               checkLocalRetention,
	"local_retention_ms":                  checkLocalRetention,
	"retention_bytes":                     checkRetention,
	"retention_ms":                        checkRetention,
	"remote_log_manager_task_interval_ms": checkInterval,
	"remote_copy_lag_ms":                  checkRetention,
	"remote_copy_lag_bytes":               checkRetention,
}

// SetConfigBool reports whether key is a boolean set_config key.
func SetConfigBool(key string) bool { return slices.Contains(setConfigBoolKeys, key) }

// SetConfigInt reports whether key is an integer set_config key.
func SetConfigInt(key string) bool { _, ok := setConfigIntChecks[key]; return ok }

// BoolValue decodes the Value of a validated set_config event with a boolean key. It
// panics if Value is not a JSON bool: validation guarantees it is.
func (e Event) BoolValue() bool {
	b, ok := boolValue(e.Value)
	if !ok {
		panic(fmt.Sprintf("scenarios: set_config %s value %s is not a bool", e.Key, e.Value))
	}
	return b
}

// IntValue decodes the Value of a validated set_config event with an integer key. It
// panics if Value is not a JSON integer: validation guarantees it is.
func (e Event) IntValue() int64 {
	n, ok := intValue(e.Value)
	if !ok {
		panic(fmt.Sprintf("scenarios: set_config %s value %s is not an integer", e.Key, e.Value))
	}
	return n
}

func boolValue(v json.RawMessage) (bool, bool) {
	var p *bool
	if json.Unmarshal(v, &p) != nil || p == nil {
		return false, false
	}
	return *p, true
}

func intValue(v json.RawMessage) (int64, bool) {
	var p *int64
	if json.Unmarshal(v, &p) != nil || p == nil {
		return 0, false
	}
	return *p, true
}

// FieldError is what every validation error is: the path of the offending field (or
// the object whose fields are in a bad relation) and what is wrong with it.
type FieldError struct {
	Field string // e.g. "config.segment_bytes", "events[3].broker", "initial"
	Msg   string
}

// Error returns Field + ": " + Msg.
func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// DefaultConfig returns Kafka's defaults (and the environment's).
func DefaultConfig() Config {
	return Config{
		SegmentBytes:                   1 << 30,
		RecordBytes:                    1024,
		ReplicaFetchMaxBytes:           1 << 20,
		ReplicaFetchBackoffMs:          1000,
		ReplicaFetchWaitMaxMs:          500,
		ReplicaLagTimeMaxMs:            30_000,
		RemoteLogManagerTaskIntervalMs: 30_000,
		LocalRetentionBytes:            -2,
		LocalRetentionMs:               -2,
		RetentionBytes:                 -1,
		RetentionMs:                    604_800_000,
		NetworkLatencyMs:               [2]int64{1, 5},
		RemoteUploadMs:                 [2]int64{50, 500},
		RemoteFetchMs:                  [2]int64{20, 200},
		ReplicationBytesPerSec:         100 << 20,
		ReplicaSocketTimeoutMs:         30_000,
		LogRetentionCheckIntervalMs:    300_000,

		// Broker scale.
		NumReplicaFetchers:               1,
		ReplicaFetchResponseMaxBytes:     10 << 20,
		ReplicaFetchMinBytes:             1,
		LeaderReplicationThrottledRate:   -1,
		FollowerReplicationThrottledRate: -1,
		RemoteFetchConcurrency:           -1,
		BrokerNetworkBytesPerSec:         -1,
		BrokerDiskBytesPerSec:            -1,
	}
}

// Load reads and parses the scenario file at path. Errors are prefixed with the path.
// An empty name becomes the file's base name without ".json". A file larger than
// DefaultMaxInputBytes is an error (LoadMax).
func Load(path string) (*Scenario, error) { return LoadMax(path, DefaultMaxInputBytes) }

// LoadMax is Load with the input limit maxBytes: a longer file, or an endless one
// (/dev/zero), is an error once maxBytes+1 bytes are read.
func LoadMax(path string, maxBytes int64) (*Scenario, error) {
	data, err := ReadLimited(path, maxBytes)
	if err != nil {
		return nil, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), ".json")
	}
	return s, nil
}

// Parse decodes a scenario file strictly (unknown fields, duplicate fields, wrong types
// and trailing data are errors; null is the same as absent), fills in the defaults and
// validates it. Validation errors are *FieldError.
func Parse(data []byte) (*Scenario, error) {
	// A UTF-8 byte order mark (a file saved by a Windows editor) is not
	// JSON, but says nothing: it is skipped, and columns count from after it.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	root, err := topValue(data)
	if err != nil {
		return nil, err
	}
	s, err := decodeScenario(root)
	if err != nil {
		return nil, withPosition(err, data)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	s.Normalize()
	return s, nil
}

// Normalize puts a validated scenario in the canonical form Parse returns.
func (s *Scenario) Normalize() {
	for i := range s.Events {
		e := &s.Events[i]
		if e.Type != EventSetConfig {
			continue
		}
		if SetConfigBool(e.Key) {
			e.Value = json.RawMessage(fmt.Sprint(e.BoolValue()))
		} else {
			e.Value = json.RawMessage(fmt.Sprint(e.IntValue()))
		}
	}
	slices.SortStableFunc(s.Events, func(a, b Event) int { return cmp.Compare(a.AtMs, b.AtMs) })
	normalizeStates(s.Initial)
	if f := s.Failure; f != nil {
		if len(f.Mutants) == 0 {
			f.Mutants = nil
		}
		if len(f.Fixes) == 0 {
			f.Fixes = nil
		}
	}
	for i := range s.Partitions {
		normalizeStates(s.Partitions[i].Initial)
	}
}

// normalizeStates writes copy-finished, the default remote segment state, as
// the empty state.
func normalizeStates(in *Initial) {
	if in == nil {
		return
	}
	for i := range in.RemoteSegments {
		if sg := &in.RemoteSegments[i]; sg.State == StateCopyFinished {
			sg.State = "" // the default
		}
	}
}

// Marshal returns the filled-in scenario as indented JSON (two spaces, containers
// without nested containers on one line, trailing newline). For a Scenario from Parse,
// Parse(Marshal(s)) equals s.
func (s *Scenario) Marshal() ([]byte, error) {
	out := *s
	if out.Events == nil {
		out.Events = []Event{}
	}
	out.Initial = withRemoteList(out.Initial)
	if out.Partitions != nil {
		out.Partitions = slices.Clone(out.Partitions)
		for i := range out.Partitions {
			out.Partitions[i].Initial = withRemoteList(out.Partitions[i].Initial)
		}
	}
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&out); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := writeIndented(&buf, bytes.TrimSpace(compact.Bytes()), ""); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// withRemoteList returns in, or a copy of it whose nil RemoteSegments is an
// empty list, which Marshal writes as [] (Parse gives an empty list).
func withRemoteList(in *Initial) *Initial {
	if in == nil || in.RemoteSegments != nil {
		return in
	}
	c := *in
	c.RemoteSegments = []SegmentSpec{}
	return &c
}

// writeIndented pretty-prints the compact JSON value v at the given indentation.
func writeIndented(buf *bytes.Buffer, v []byte, indent string) error {
	if len(v) == 0 || (v[0] != '{' && v[0] != '[') {
		buf.Write(v)
		return nil
	}
	keys, vals, err := splitContainer(v)
	if err != nil {
		return err
	}
	open, end := v[0], v[len(v)-1]
	inline := !slices.ContainsFunc(vals, func(x json.RawMessage) bool {
		return len(x) > 2 && (x[0] == '{' || x[0] == '[')
	})
	inner := indent + "  "
	buf.WriteByte(open)
	for i, val := range vals {
		switch {
		case !inline && i > 0:
			buf.WriteString(",\n" + inner)
		case !inline:
			buf.WriteString("\n" + inner)
		case i > 0:
			buf.WriteString(", ")
		}
		if keys != nil {
			k, _ := json.Marshal(keys[i])
			buf.Write(k)
			buf.WriteString(": ")
		}
		if err := writeIndented(buf, val, inner); err != nil {
			return err
		}
	}
	if !inline && len(vals) > 0 {
		buf.WriteString("\n" + indent)
	}
	buf.WriteByte(end)
	return nil
}

// splitContainer returns the keys (nil for an array) and values of a JSON object or array.
func splitContainer(v []byte) ([]string, []json.RawMessage, error) {
	if v[0] == '{' {
		ms, err := objectMembers("", v)
		keys := make([]string, len(ms))
		vals := make([]json.RawMessage, len(ms))
		for i, m := range ms {
			keys[i], vals[i] = m.key, m.value
		}
		return keys, vals, err
	}
	var vals []json.RawMessage
	err := json.Unmarshal(v, &vals)
	return nil, vals, err
}

// Validate checks a filled-in scenario: the checks Parse runs after decoding. The first
// error, in a fixed order, is returned as a *FieldError.
func (s *Scenario) Validate() error {
	if err := s.validateCluster(); err != nil {
		return err
	}
	if err := s.Config.validate(); err != nil {
		return err
	}
	if s.DurationMs <= 0 || s.DurationMs > timeMsMax {
		return fieldErr("duration_ms", "must be in 1..%d, got %d", int64(timeMsMax), s.DurationMs)
	}
	if s.HealMs < 0 || s.HealMs > timeMsMax {
		return fieldErr("heal_ms", "must be in 0..%d, got %d", int64(timeMsMax), s.HealMs)
	}
	if s.Initial != nil {
		if err := s.Initial.validate(s.Config.RemoteStorageEnable); err != nil {
			return err
		}
	}
	if err := s.validateBrokerScale(); err != nil {
		return err
	}
	ix := newPartitionIndex(s)
	if err := s.validateEvents(ix); err != nil {
		return err
	}
	if err := s.validateSchedule(ix); err != nil {
		return err
	}
	if err := s.validateFailure(); err != nil {
		return err
	}
	return s.validateLimits()
}

func (s *Scenario) validateCluster() error {
	if s.Brokers < 1 || s.Brokers > brokersMax {
		return fieldErr("brokers", "must be in 1..%d, got %d", brokersMax, s.Brokers)
	}
	if s.Partitions != nil {
		switch {
		case s.Replicas != nil:
			return fieldErr("replicas", "not allowed with partitions: top-level replicas and initial describe a one-partition file; each partitions entry has its own")
		case s.Initial != nil:
			return fieldErr("initial", "not allowed with partitions: top-level replicas and initial describe a one-partition file; each partitions entry has its own")
		}
		return nil
	}
	if len(s.Replicas) == 0 {
		return fieldErr("replicas", "must not be empty (the first replica is the leader)")
	}
	for i, id := range s.Replicas {
		path := fmt.Sprintf("replicas[%d]", i)
		if err := s.checkBroker(path, id); err != nil {
			return err
		}
		if j := slices.Index(s.Replicas, id); j < i {
			return fieldErr(path, "duplicate broker %d (also replicas[%d])", id, j)
		}
	}
	return nil
}

func (s *Scenario) checkBroker(path string, id int) error {
	if id < 0 || id >= s.Brokers {
		return fieldErr(path, "no such broker %d (brokers are 0..%d)", id, s.Brokers-1)
	}
	return nil
}

func checkPositive(v int64) string {
	if v <= 0 {
		return fmt.Sprintf("must be > 0, got %d", v)
	}
	return ""
}

// checkInterval is the range of a config duration that must be positive,
// checkDelay of one that may be 0, checkBytes of a byte size Kafka keeps in an
// int: sim.Ms of any of them, and their sums, stay far from int64 overflow.
var (
	checkInterval = checkRange(1, timeMsMax)
	checkDelay    = checkRange(0, timeMsMax)
	checkBytes    = checkRange(1, kafkaIntMax)
)

// copyLagBytes is remote.copy.lag.bytes, -1 when absent (Kafka's default).
func (c *Config) copyLagBytes() int64 {
	if c.RemoteCopyLagBytes == nil {
		return -1
	}
	return *c.RemoteCopyLagBytes
}

// minInsyncReplicas is min_insync_replicas, 1 when absent.
func (c *Config) minInsyncReplicas() int64 {
	if c.MinInsyncReplicas == nil {
		return 1
	}
	return *c.MinInsyncReplicas
}

// checkMinInsync: min.insync.replicas is an int config of at least 1.
func checkMinInsync(v int64) string {
	if v < 1 || v > math.MaxInt32 {
		return fmt.Sprintf("must be 1..%d, got %d", math.MaxInt32, v)
	}
	return ""
}

func checkRetention(v int64) string {
	if v < -1 {
		return fmt.Sprintf("must be -1 (unlimited) or >= 0, got %d", v)
	}
	return ""
}

func checkLocalRetention(v int64) string {
	if v < -2 {
		return fmt.Sprintf("must be -2 (same as retention), -1 (unlimited) or >= 0, got %d", v)
	}
	return ""
}

func (c *Config) validate() error {
	ints := []struct {
		name  string
		v     int64
		check func(int64) string
	}{
		{"segment_bytes", c.SegmentBytes, checkBytes},
		{"record_bytes", c.RecordBytes, checkBytes},
		{"replica_fetch_max_bytes", c.ReplicaFetchMaxBytes, checkBytes},
		{"replica_fetch_backoff_ms", c.ReplicaFetchBackoffMs, checkInterval},
		{"replica_fetch_wait_max_ms", c.ReplicaFetchWaitMaxMs, checkInterval},
		{"replica_lag_time_max_ms", c.ReplicaLagTimeMaxMs, checkInterval},
		{"remote_log_manager_task_interval_ms", c.RemoteLogManagerTaskIntervalMs, checkInterval},
		{"local_retention_bytes", c.LocalRetentionBytes, checkLocalRetention},
		{"local_retention_ms", c.LocalRetentionMs, checkLocalRetention},
		{"retention_bytes", c.RetentionBytes, checkRetention},
		{"retention_ms", c.RetentionMs, checkRetention},
		{"replication_bytes_per_sec", c.ReplicationBytesPerSec, checkPositive},
		{"remote_metadata_ready_ms", c.RemoteMetadataReadyMs, checkDelay},
		{"remote_metadata_lag_ms", c.RemoteMetadataLagMs, checkDelay},
		{"remote_copy_lag_ms", c.RemoteCopyLagMs, checkRetention},
		{"remote_copy_lag_bytes", c.copyLagBytes(), checkRetention},
		{"min_insync_replicas", c.minInsyncReplicas(), checkMinInsync},
		{"replica_socket_timeout_ms", c.ReplicaSocketTimeoutMs, checkInterval},
		{"log_retention_check_interval_ms", c.LogRetentionCheckIntervalMs, checkInterval},
		{"num_replica_fetchers", c.NumReplicaFetchers, checkRange(1, numReplicaFetchersMax)},
		{"replica_fetch_response_max_bytes", c.ReplicaFetchResponseMaxBytes, checkBytes},
		{"replica_fetch_min_bytes", c.ReplicaFetchMinBytes, checkBytes},
		{"leader_replication_throttled_rate", c.LeaderReplicationThrottledRate, checkLimit(0, math.MaxInt64)},
		{"follower_replication_throttled_rate", c.FollowerReplicationThrottledRate, checkLimit(0, math.MaxInt64)},
		{"remote_fetch_concurrency", c.RemoteFetchConcurrency, checkLimit(1, kafkaIntMax)},
		{"broker_network_bytes_per_sec", c.BrokerNetworkBytesPerSec, checkLimit(1, math.MaxInt64)},
		{"broker_disk_bytes_per_sec", c.BrokerDiskBytesPerSec, checkLimit(1, math.MaxInt64)},
	}
	for _, f := range ints {
		if msg := f.check(f.v); msg != "" {
			return fieldErr("config."+f.name, "%s", msg)
		}
	}
	ranges := []struct {
		name string
		r    [2]int64
	}{
		{"network_latency_ms", c.NetworkLatencyMs},
		{"remote_upload_ms", c.RemoteUploadMs},
		{"remote_fetch_ms", c.RemoteFetchMs},
	}
	for _, f := range ranges {
		if lo, hi := f.r[0], f.r[1]; lo < 0 || lo > hi || hi > timeMsMax {
			return fieldErr("config."+f.name, "must be [min, max] with 0 <= min <= max <= %d, got [%d, %d]",
				int64(timeMsMax), lo, hi)
		}
	}
	if r := c.RemoteErrorRate; !(r >= 0 && r <= 1) {
		return fieldErr("config.remote_error_rate", "must be in [0, 1], got %v", r)
	}
	return checkThrottledFormat(*c)
}

func (in *Initial) validate(remoteStorageEnable bool) error {
	if in.LeaderEpoch < 0 {
		return fieldErr("initial.leader_epoch", "must be >= 0, got %d", in.LeaderEpoch)
	}
	if len(in.LocalSegments) == 0 {
		return fieldErr("initial.local_segments", "must not be empty (the last segment is the active one)")
	}
	if err := checkSegmentFields("initial.local_segments", in.LocalSegments, in.LeaderEpoch); err != nil {
		return err
	}
	if err := checkSegmentFields("initial.remote_segments", in.RemoteSegments, in.LeaderEpoch); err != nil {
		return err
	}
	if err := checkChain("initial.local_segments", in.LocalSegments, true); err != nil {
		return err
	}
	if len(in.RemoteSegments) > 0 && !remoteStorageEnable {
		return fieldErr("initial.remote_segments", "remote data while config.remote_storage_enable is false")
	}
	if err := checkRemoteStates(in.RemoteSegments); err != nil {
		return err
	}
	if err := checkRemoteOrder(in.RemoteSegments); err != nil {
		return err
	}
	if err := in.checkEpochOrder(); err != nil {
		return err
	}
	if err := in.checkOffsets(); err != nil {
		return err
	}
	return in.checkRemote()
}

func checkSegmentFields(path string, segs []SegmentSpec, leaderEpoch int32) error {
	for i, sg := range segs {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case sg.State != "" && path == "initial.local_segments":
			return fieldErr(p+".state", "only remote segments have a state, got %q", sg.State)
		case sg.Count != 0:
			return fieldErr(p+".count", "a run of segments must be expanded before validation (Parse does), got count %d", sg.Count)
		case sg.BaseOffset < 0 || sg.BaseOffset > offsetMax:
			return fieldErr(p+".base_offset", "must be in 0..%d, got %d", int64(offsetMax), sg.BaseOffset)
		case sg.EndOffset < -1 || sg.EndOffset > offsetMax:
			return fieldErr(p+".end_offset", "must be in -1..%d, got %d", int64(offsetMax), sg.EndOffset)
		case sg.Epoch < 0:
			return fieldErr(p+".epoch", "must be >= 0, got %d", sg.Epoch)
		case sg.Epoch > leaderEpoch:
			return fieldErr(p+".epoch", "%d > leader_epoch %d", sg.Epoch, leaderEpoch)
		}
	}
	return nil
}

// checkChain checks that segs are non-empty (except an active last one when
// activeLast) and contiguous: each base_offset is the previous end_offset + 1.
func checkChain(path string, segs []SegmentSpec, activeLast bool) error {
	for i, sg := range segs {
		p := fmt.Sprintf("%s[%d]", path, i)
		active := activeLast && i == len(segs)-1
		if sg.EndOffset < sg.BaseOffset && !(active && sg.EndOffset == sg.BaseOffset-1) {
			if active {
				return fieldErr(p, "end_offset %d < base_offset %d - 1", sg.EndOffset, sg.BaseOffset)
			}
			return fieldErr(p, "empty segment [%d, %d]: only the last local (active) segment may be empty",
				sg.BaseOffset, sg.EndOffset)
		}
		if i == 0 {
			continue
		}
		prev := segs[i-1]
		if err := checkAfter(p, prev, sg); err != nil {
			return err
		}
		if sg.BaseOffset > prev.EndOffset+1 {
			return fieldErr(p, "gap after the previous segment [%d, %d]: base_offset %d != %d",
				prev.BaseOffset, prev.EndOffset, sg.BaseOffset, prev.EndOffset+1)
		}
	}
	return nil
}

// checkAfter checks that sg, at path p, starts after prev: sorted by
// base_offset and not overlapping it.
func checkAfter(p string, prev, sg SegmentSpec) error {
	switch {
	case sg.BaseOffset < prev.BaseOffset:
		return fieldErr(p, "not sorted: base_offset %d < previous base_offset %d", sg.BaseOffset, prev.BaseOffset)
	case sg.BaseOffset <= prev.EndOffset:
		return fieldErr(p, "overlaps the previous segment [%d, %d]: base_offset %d <= %d",
			prev.BaseOffset, prev.EndOffset, sg.BaseOffset, prev.EndOffset)
	}
	return nil
}

// checkRemoteStates checks each remote segment's state name.
func checkRemoteStates(segs []SegmentSpec) error {
	for i, sg := range segs {
		if sg.State != "" && !slices.Contains(RemoteSegmentStates, sg.State) {
			return fieldErr(fmt.Sprintf("initial.remote_segments[%d].state", i), "must be one of %s, got %q",
				strings.Join(RemoteSegmentStates, ", "), sg.State)
		}
	}
	return nil
}

// checkRemoteOrder checks that remote segments are non-empty, sorted and do not
// overlap. Gaps between them are checked against the offsets by checkRemote: below the
// log start offset they are segments already deleted.
func checkRemoteOrder(segs []SegmentSpec) error {
	for i, sg := range segs {
		p := fmt.Sprintf("initial.remote_segments[%d]", i)
		if sg.EndOffset < sg.BaseOffset {
			return fieldErr(p, "empty segment [%d, %d]: only the last local (active) segment may be empty",
				sg.BaseOffset, sg.EndOffset)
		}
		if i == 0 {
			continue
		}
		if err := checkAfter(p, segs[i-1], sg); err != nil {
			return err
		}
	}
	return nil
}

// checkEpochOrder checks that segment epochs, remote and local together, never
// decrease along offsets.
func (in *Initial) checkEpochOrder() error {
	type named struct {
		name string
		SegmentSpec
	}
	all := make([]named, 0, len(in.RemoteSegments)+len(in.LocalSegments))
	for i, sg := range in.RemoteSegments {
		all = append(all, named{fmt.Sprintf("remote_segments[%d]", i), sg})
	}
	for i, sg := range in.LocalSegments {
		all = append(all, named{fmt.Sprintf("local_segments[%d]", i), sg})
	}
	slices.SortStableFunc(all, func(a, b named) int { return cmp.Compare(a.BaseOffset, b.BaseOffset) })
	for i := 1; i < len(all); i++ {
		if prev, cur := all[i-1], all[i]; cur.Epoch < prev.Epoch {
			return fieldErr("initial", "segment epochs decrease along offsets: %s [%d, %d] has epoch %d after %s [%d, %d] with epoch %d",
				cur.name, cur.BaseOffset, cur.EndOffset, cur.Epoch, prev.name, prev.BaseOffset, prev.EndOffset, prev.Epoch)
		}
	}
	return nil
}

// checkOffsets checks 0 <= LSO <= LLSO <= HW <= LEO.
func (in *Initial) checkOffsets() error {
	llso := in.LocalSegments[0].BaseOffset
	leo := in.LocalSegments[len(in.LocalSegments)-1].EndOffset + 1
	switch {
	case in.LogStartOffset < 0:
		return fieldErr("initial.log_start_offset", "must be >= 0, got %d", in.LogStartOffset)
	case llso < in.LogStartOffset:
		return fieldErr("initial", "local log start offset %d < log start offset %d", llso, in.LogStartOffset)
	case in.HighWatermark > leo:
		return fieldErr("initial", "high watermark %d > log end offset %d", in.HighWatermark, leo)
	case in.HighWatermark < llso:
		return fieldErr("initial", "high watermark %d < local log start offset %d", in.HighWatermark, llso)
	}
	return nil
}

// checkRemote checks the remote segments against the offsets: none at or above HW;
// the offsets [LSO, LLSO) in segments whose copy finished (else no replica can serve
// them: a hole); and highest_remote_offset. A segment wholly below LSO is one the
// expiration task has not deleted yet; an HRO below LSO is stale (it only rises, and
// retention or deleteRecords moved LSO past it); an HRO inside a segment, not at its
// end, lags the metadata (the RLM tasks update it, not the metadata).
func (in *Initial) checkRemote() error {
	lso, hw := in.LogStartOffset, in.HighWatermark
	for i, sg := range in.RemoteSegments {
		if sg.EndOffset >= hw {
			return fieldErr("initial", "remote above high watermark: remote_segments[%d] ends at %d >= high watermark %d (only committed data is tiered)",
				i, sg.EndOffset, hw)
		}
	}
	if llso := in.LocalSegments[0].BaseOffset; llso > lso {
		if from := in.finishedFrom(lso, llso); from < llso {
			to := llso - 1
			if i := slices.IndexFunc(in.RemoteSegments, func(sg SegmentSpec) bool { return sg.finished() && sg.BaseOffset > from }); i >= 0 {
				to = min(to, in.RemoteSegments[i].BaseOffset-1)
			}
			return fieldErr("initial", "hole between remote and local: offsets [%d, %d] of [log start %d, local log start %d) are in no copy-finished remote segment",
				from, to, lso, llso)
		}
	}
	hro := in.HighestRemoteOffset
	switch {
	case hro < -1:
		return fieldErr("initial.highest_remote_offset", "must be -1 (unknown) or an offset >= 0, got %d", hro)
	case hro >= hw:
		return fieldErr("initial.highest_remote_offset", "%d >= high watermark %d (only committed data is tiered)", hro, hw)
	case hro >= lso && !slices.ContainsFunc(in.RemoteSegments, func(sg SegmentSpec) bool {
		return sg.copied() && sg.BaseOffset <= hro && hro <= sg.EndOffset
	}):
		return fieldErr("initial.highest_remote_offset", "%d >= log start offset %d but in no remote segment whose copy finished (an HRO is stale only below the log start offset)",
			hro, lso)
	}
	return nil
}

// finishedFrom returns the first offset in [from, to) that no copy-finished remote
// segment holds, to if they hold all of it.
func (in *Initial) finishedFrom(from, to int64) int64 {
	for _, sg := range in.RemoteSegments {
		if from >= to {
			break
		}
		if sg.finished() && sg.BaseOffset <= from && from <= sg.EndOffset {
			from = sg.EndOffset + 1
		}
	}
	return min(from, to)
}

func (s *Scenario) validateEvents(ix *partitionIndex) error {
	addedBy := map[int]int{} // broker -> index of the add_replica event adding it
	var added addedReplicas  // the same in a broker-scale file
	for i, e := range s.Events {
		path := fmt.Sprintf("events[%d]", i)
		if err := s.validateEvent(path, e); err != nil {
			return err
		}
		if err := s.checkTarget(ix, path, e); err != nil {
			return err
		}
		if e.Type != EventAddReplica {
			continue
		}
		if s.BrokerScale() {
			if err := s.checkAddReplica(ix, &added, path, i, e); err != nil {
				return err
			}
			continue
		}
		id := *e.Broker
		if slices.Contains(s.Replicas, id) {
			return fieldErr(path+".broker", "broker %d is already in replicas", id)
		}
		if j, ok := addedBy[id]; ok {
			return fieldErr(path+".broker", "broker %d already added by events[%d]", id, j)
		}
		addedBy[id] = i
	}
	return nil
}

// setEventFields returns the names of e's optional fields that are set, in a fixed order.
func setEventFields(e Event) []string {
	set := []struct {
		name string
		on   bool
	}{
		{"broker", e.Broker != nil}, {"records", e.Records != 0}, {"over_ms", e.OverMs != 0},
		{"key", e.Key != ""}, {"value", len(e.Value) != 0}, {"before_offset", e.BeforeOffset != 0},
		{"brokers", e.Brokers != nil}, {"duration_ms", e.DurationMs != 0}, {"from_offset", e.FromOffset != 0},
		{"topic", e.Topic != ""}, {"partition", e.Partition != nil}, {"partitions", e.Partitions != nil},
		{"replicas", e.Replicas != nil}, {"down_ms", e.DownMs != 0}, {"wait", e.Wait != ""},
	}
	var names []string
	for _, f := range set {
		if f.on {
			names = append(names, f.name)
		}
	}
	return names
}

func (s *Scenario) validateEvent(path string, e Event) error {
	if e.AtMs < 0 || e.AtMs > s.DurationMs {
		return fieldErr(path+".at_ms", "must be in 0..duration_ms (%d), got %d", s.DurationMs, e.AtMs)
	}
	used, ok := eventUses[e.Type]
	if !ok {
		if e.Type == "" {
			return fieldErr(path+".type", "required (one of %s)", strings.Join(eventTypes, ", "))
		}
		return fieldErr(path+".type", "unknown event type %q (one of %s)", e.Type, strings.Join(eventTypes, ", "))
	}
	for _, f := range setEventFields(e) {
		if !slices.Contains(used, f) {
			return fieldErr(path+"."+f, "not used by %s", e.Type)
		}
	}
	switch e.Type {
	case EventAddReplica, EventElectLeader, EventCrash, EventRestart, EventReplaceBroker:
		if e.Broker == nil {
			return fieldErr(path+".broker", "required by %s", e.Type)
		}
		return s.checkBroker(path+".broker", *e.Broker)
	case EventProduce:
		return checkProduce(path, e)
	case EventSetConfig:
		return s.checkSetConfig(path, e)
	case EventDeleteRecords:
		return checkEventOffset(path+".before_offset", e.BeforeOffset)
	case EventNetworkPartition:
		if err := s.checkPartition(path, e); err != nil {
			return err
		}
		return checkEventDuration(path, e)
	case EventRemoteOutage:
		return checkEventDuration(path, e)
	case EventConsume:
		return checkEventOffset(path+".from_offset", e.FromOffset)
	case EventReassign:
		return s.checkReassign(path, e)
	case EventRollingRestart:
		return s.checkRollingRestart(path, e)
	}
	return nil
}

// checkRollingRestart checks a rolling_restart: its brokers, how long each
// is down, and what the next one waits for.
func (s *Scenario) checkRollingRestart(path string, e Event) error {
	if err := s.checkPartition(path, e); err != nil {
		return err
	}
	switch {
	case e.DownMs == 0:
		return fieldErr(path+".down_ms", "required by rolling_restart (> 0)")
	case e.DownMs < 0 || e.DownMs > timeMsMax:
		return fieldErr(path+".down_ms", "must be in 1..%d, got %d", int64(timeMsMax), e.DownMs)
	case e.Wait != "" && e.Wait != RollingWaitISR:
		return fieldErr(path+".wait", "must be %q (every replica of the restarted broker back in its ISR), got %q", RollingWaitISR, e.Wait)
	}
	return nil
}

func checkProduce(path string, e Event) error {
	switch {
	case e.Records == 0:
		return fieldErr(path+".records", "required by produce (> 0)")
	case e.Records < 0 || e.Records > produceRecordsMax:
		return fieldErr(path+".records", "must be in 1..%d, got %d", produceRecordsMax, e.Records)
	case e.OverMs < 0 || e.OverMs > timeMsMax:
		return fieldErr(path+".over_ms", "must be in 0..%d, got %d", int64(timeMsMax), e.OverMs)
	}
	return nil
}

func checkEventOffset(path string, offset int64) error {
	if offset < 0 || offset > offsetMax {
		return fieldErr(path, "must be in 0..%d, got %d", int64(offsetMax), offset)
	}
	return nil
}

func checkEventDuration(path string, e Event) error {
	switch {
	case e.DurationMs == 0:
		return fieldErr(path+".duration_ms", "required by %s (> 0)", e.Type)
	case e.DurationMs < 0 || e.DurationMs > timeMsMax:
		return fieldErr(path+".duration_ms", "must be in 1..%d, got %d", int64(timeMsMax), e.DurationMs)
	}
	return nil
}

func (s *Scenario) checkPartition(path string, e Event) error {
	if e.Brokers == nil {
		return fieldErr(path+".brokers", "required by %s", e.Type)
	}
	if len(e.Brokers) == 0 {
		return fieldErr(path+".brokers", "must not be empty")
	}
	for i, id := range e.Brokers {
		p := fmt.Sprintf("%s.brokers[%d]", path, i)
		if err := s.checkBroker(p, id); err != nil {
			return err
		}
		if j := slices.Index(e.Brokers, id); j < i {
			return fieldErr(p, "duplicate broker %d (also brokers[%d])", id, j)
		}
	}
	return nil
}

func (s *Scenario) checkSetConfig(path string, e Event) error {
	if e.Broker != nil {
		if err := s.checkBroker(path+".broker", *e.Broker); err != nil {
			return err
		}
	}
	if e.Key == "" {
		return fieldErr(path+".key", "required by set_config (one of %s)", validSetConfigKeys())
	}
	isBool := SetConfigBool(e.Key)
	check, isInt := setConfigIntChecks[e.Key]
	if !isBool && !isInt {
		return fieldErr(path+".key", "unknown set_config key %q (one of %s)", e.Key, validSetConfigKeys())
	}
	if len(e.Value) == 0 {
		return fieldErr(path+".value", "required by set_config")
	}
	if isBool {
		if _, ok := boolValue(e.Value); !ok {
			return fieldErr(path+".value", "%s takes a JSON bool, got %s", e.Key, shorten(e.Value))
		}
		return nil
	}
	n, ok := intValue(e.Value)
	if !ok {
		return fieldErr(path+".value", "%s takes a JSON integer, got %s", e.Key, shorten(e.Value))
	}
	if msg := check(n); msg != "" {
		return fieldErr(path+".value", "%s %s", e.Key, msg)
	}
	return nil
}

func validSetConfigKeys() string {
	keys := append(slices.Clone(setConfigBoolKeys), slices.Collect(maps.Keys(setConfigIntChecks))...)
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}

func shorten(v []byte) string {
	const limit = 40
	if len(v) > limit {
		return string(v[:limit]) + "..."
	}
	return string(v)
}

// Decoding.

// rawScenario is the top level as decoded, before config, initial and events are.
type rawScenario struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Seed        uint64          `json:"seed"`
	Brokers     int             `json:"brokers"`
	Replicas    []int           `json:"replicas"`
	Config      json.RawMessage `json:"config"`
	Initial     json.RawMessage `json:"initial"`
	Partitions  json.RawMessage `json:"partitions"`
	Events      json.RawMessage `json:"events"` // split by arrayElements, without copies
	DurationMs  int64           `json:"duration_ms"`
	HealMs      int64           `json:"heal_ms"`
	Explore     json.RawMessage `json:"explore"`
	Failure     json.RawMessage `json:"failure"`
}

// rawInitial is initial as decoded, before its segments are.
type rawInitial struct {
	LeaderEpoch         int32           `json:"leader_epoch"`
	LogStartOffset      int64           `json:"log_start_offset"`
	HighWatermark       int64           `json:"high_watermark"`
	HighestRemoteOffset int64           `json:"highest_remote_offset"`
	RemoteSegments      json.RawMessage `json:"remote_segments"`
	LocalSegments       json.RawMessage `json:"local_segments"`
}

// topValue returns the single JSON value in data, rejecting syntax errors and trailing data.
// Valid data is returned as it is, trimmed, without a copy; the errors come from a
// slower second pass that names the position.
func topValue(data []byte) (json.RawMessage, error) {
	if json.Valid(data) {
		return trimSpace(data), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var root json.RawMessage
	if err := dec.Decode(&root); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: invalid JSON: %v", position(data, se.Offset-1), err)
		case err == io.EOF:
			return nil, errors.New("empty scenario file")
		case err == io.ErrUnexpectedEOF:
			return nil, errors.New("invalid JSON: unexpected end of input")
		}
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		for end < int64(len(data)) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
			end++
		}
		return nil, fmt.Errorf("%s: trailing data after the scenario object", position(data, end))
	}
	return root, nil
}

// position names byte offset off of data as "line L, column C" (both from 1).
func position(data []byte, off int64) string {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

func decodeScenario(root json.RawMessage) (*Scenario, error) {
	raw := rawScenario{Seed: 1, Replicas: []int{0}, HealMs: defaultHealMs}
	present, err := decodeObject("", root, &raw)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"brokers", "duration_ms"} {
		if !slices.Contains(present, name) {
			return nil, fieldErr(name, "required")
		}
	}
	s := &Scenario{
		Name: raw.Name, Description: raw.Description, Seed: raw.Seed, Brokers: raw.Brokers,
		Replicas: raw.Replicas, Config: DefaultConfig(), DurationMs: raw.DurationMs, HealMs: raw.HealMs,
	}
	var configKeys []string
	if !isAbsent(raw.Config) {
		if configKeys, err = decodeObject("config", raw.Config, &s.Config); err != nil {
			return nil, err
		}
	}
	if s.Initial, err = decodeInitial(raw.Initial); err != nil {
		return nil, err
	}
	if !isAbsent(raw.Partitions) {
		for _, name := range []string{"replicas", "initial"} {
			if slices.Contains(present, name) {
				return nil, fieldErr(name, "not allowed with partitions: top-level replicas and initial describe a one-partition file; each partitions entry has its own")
			}
		}
		s.Replicas = nil
		if s.Partitions, err = decodePartitions(raw.Partitions); err != nil {
			return nil, err
		}
		if !slices.Contains(configKeys, "remote_storage_enable") {
			s.Config.RemoteStorageEnable = s.listsRemoteData()
		}
	}
	events, err := arrayElements("events", raw.Events)
	if err != nil {
		return nil, err
	}
	s.Events = make([]Event, len(events))
	for i, data := range events {
		if s.Events[i], err = decodeEvent(fmt.Sprintf("events[%d]", i), data); err != nil {
			return nil, err
		}
	}
	if s.Explore, err = decodeSchedule(raw.Explore); err != nil {
		return nil, err
	}
	if s.Failure, err = decodeFailure(raw.Failure); err != nil {
		return nil, err
	}
	return s, nil
}

func decodeInitial(data json.RawMessage) (*Initial, error) {
	return decodeInitialIn(data, &segmentRoom{left: MaxFixtureSegments, over: fmt.Sprintf(
		"the fixture would hold more than %d segments (remote and local, runs expanded)", MaxFixtureSegments)})
}

// segmentRoom is how many more segments (runs expanded) the fixtures being
// decoded may hold, and what to say when one would hold more.
type segmentRoom struct {
	left int64
	over string
}

// decodeInitialIn decodes an initial log whose segments take room from room.
func decodeInitialIn(data json.RawMessage, room *segmentRoom) (*Initial, error) {
	if isAbsent(data) {
		return nil, nil
	}
	raw := rawInitial{HighestRemoteOffset: -1}
	present, err := decodeObject("initial", data, &raw)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(present, "local_segments") {
		return nil, fieldErr("initial.local_segments", "required (the last segment is the active one)")
	}
	in := &Initial{LeaderEpoch: raw.LeaderEpoch, LogStartOffset: raw.LogStartOffset,
		HighWatermark: raw.HighWatermark, HighestRemoteOffset: raw.HighestRemoteOffset}
	if in.RemoteSegments, err = decodeSegments("initial.remote_segments", raw.RemoteSegments, room); err != nil {
		return nil, err
	}
	if in.LocalSegments, err = decodeSegments("initial.local_segments", raw.LocalSegments, room); err != nil {
		return nil, err
	}
	first := slices.IndexFunc(in.RemoteSegments, func(sg SegmentSpec) bool { return sg.finished() })
	switch {
	case slices.Contains(present, "log_start_offset"):
	case first >= 0:
		in.LogStartOffset = in.RemoteSegments[first].BaseOffset
	case len(in.LocalSegments) > 0:
		in.LogStartOffset = in.LocalSegments[0].BaseOffset
	}
	if !slices.Contains(present, "high_watermark") && len(in.LocalSegments) > 0 {
		in.HighWatermark = in.LocalSegments[len(in.LocalSegments)-1].EndOffset + 1
	}
	return in, nil
}

func decodeSegments(path string, data json.RawMessage, room *segmentRoom) ([]SegmentSpec, error) {
	raws, err := arrayElements(path, data)
	if err != nil {
		return nil, err
	}
	segs := make([]SegmentSpec, 0, len(raws))
	for i, data := range raws {
		elem := func() string { return fmt.Sprintf("%s[%d]", path, i) } // only on an error
		var sg SegmentSpec
		present, err := decodeObject(path+"[]", data, &sg)
		if err != nil {
			// Decode again for the message with the element's index.
			_, err = decodeObject(elem(), data, &sg)
			return nil, err
		}
		for _, name := range []string{"base_offset", "end_offset"} {
			if !slices.Contains(present, name) {
				return nil, fieldErr(elem()+"."+name, "required")
			}
		}
		n := int64(1)
		if slices.Contains(present, "count") {
			if n, err = segmentRun(elem(), sg); err != nil {
				return nil, err
			}
			sg.Count = 0
		}
		if n > room.left {
			return nil, fieldErr(elem()+".count", "%s", room.over)
		}
		room.left -= n
		size := sg.EndOffset - sg.BaseOffset + 1
		for k := int64(0); k < n; k++ {
			segs = append(segs, sg)
			sg.BaseOffset += size
			sg.EndOffset += size
		}
	}
	return segs, nil
}

// segmentRun checks the count of a run of segments and returns it: at least
// 1, a non-empty segment when more than 1, and the run's last offset within
// offsetMax.
func segmentRun(path string, sg SegmentSpec) (int64, error) {
	n := sg.Count
	switch {
	case n < 1 || n > MaxFixtureSegments:
		return 0, fieldErr(path+".count", "must be in 1..%d, got %d", MaxFixtureSegments, n)
	case n > 1 && sg.EndOffset < sg.BaseOffset:
		return 0, fieldErr(path+".count", "only a non-empty segment can repeat: [%d, %d] is empty, count %d", sg.BaseOffset, sg.EndOffset, n)
	case sg.BaseOffset < 0 || sg.BaseOffset > offsetMax || sg.EndOffset > offsetMax:
		return n, nil // reported by validation, naming the offset
	}
	size := sg.EndOffset - sg.BaseOffset + 1
	if last := sim.AddSat(sg.BaseOffset, sim.MulSat(size, n)) - 1; last > offsetMax {
		return 0, fieldErr(path+".count", "%d segments of %d offsets from %d would end at %d, past %d", n, size, sg.BaseOffset, last, int64(offsetMax))
	}
	return n, nil
}

// decodeEvent decodes one event and rejects fields, even zero ones, its type does not use.
func decodeEvent(path string, data json.RawMessage) (Event, error) {
	var e Event
	present, err := decodeObject(path, data, &e)
	if err != nil {
		return Event{}, err
	}
	used, ok := eventUses[e.Type]
	if !ok {
		return e, nil // Validate reports the type.
	}
	for _, name := range present {
		if name != "at_ms" && name != "type" && !slices.Contains(used, name) {
			return Event{}, fieldErr(path+"."+name, "not used by %s", e.Type)
		}
	}
	if slices.Contains(present, "topic") && e.Topic == "" {
		return Event{}, fieldErr(path+".topic", "must not be empty (leave it out for every partition)")
	}
	return e, nil
}

func isAbsent(data json.RawMessage) bool {
	return len(data) == 0 || string(data) == "null"
}

// member is one name/value pair of a JSON object, in file order.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers splits the JSON value data, which must be an object, into its members.
// data is valid JSON (a part of what topValue returned, or an encoder's output): the
// members are split without copies or a decoder.
func objectMembers(path string, data []byte) ([]member, error) {
	if len(data) > 0 && data[0] == '{' {
		return splitObject(data)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		if path == "" {
			return nil, fmt.Errorf("a scenario must be a JSON object, got %s", jsonKind(data))
		}
		return nil, fieldErr(path, "expected an object, got %s", jsonKind(data))
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		ms = append(ms, member{key, v})
	}
	return ms, nil
}

func jsonKind(data []byte) string {
	switch data[0] {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '{':
		return "object"
	}
	return "number"
}

// decodeObject decodes the JSON object data into the struct dst points to, one member at
// a time, so that errors name the member's path. Members keep dst's value when absent or
// null. It returns the names of the non-null members, in file order.
func decodeObject(path string, data json.RawMessage, dst any) ([]string, error) {
	ms, err := objectMembers(path, data)
	if err != nil {
		return nil, err
	}
	v := reflect.ValueOf(dst).Elem()
	fields := cachedJSONFields(v.Type())
	var seen, present []string
	for _, m := range ms {
		idx, ok := fields[m.key]
		if !ok {
			return nil, fieldErr(joinPath(path, m.key), "%s", unknownFieldMsg(m.key, fields))
		}
		if slices.Contains(seen, m.key) {
			return nil, fieldErr(joinPath(path, m.key), "duplicate field")
		}
		seen = append(seen, m.key)
		if isAbsent(m.value) {
			continue
		}
		present = append(present, m.key)
		if decodeFast(m.value, v.Field(idx)) {
			continue
		}
		if err := decodeField(joinPath(path, m.key), m.value, v.Field(idx)); err != nil {
			return nil, err
		}
	}
	return present, nil
}

// decodeFast decodes the commonest values without encoding/json: a plain decimal
// integer into an int field, a string without escapes into a string field. It
// reports whether it did; decodeField handles everything else, and every error.
func decodeFast(value json.RawMessage, fv reflect.Value) bool {
	switch fv.Kind() {
	case reflect.Int, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(string(value), 10, fv.Type().Bits())
		if err != nil || value[0] == '+' {
			return false
		}
		fv.SetInt(n)
		return true
	case reflect.String:
		if len(value) < 2 || value[0] != '"' || bytes.IndexByte(value, '\\') >= 0 {
			return false
		}
		fv.SetString(string(value[1 : len(value)-1]))
		return true
	}
	return false
}

// decodeField decodes value into the field fv. A fixed-size array must have exactly its
// length of elements.
func decodeField(path string, value json.RawMessage, fv reflect.Value) error {
	if fv.Type() == rawMessageType {
		fv.SetBytes(value) // split further by the caller, without a copy
		return nil
	}
	if err := nullElement(path, value, fv.Type()); err != nil {
		return err
	}
	if fv.Kind() != reflect.Array {
		if err := json.Unmarshal(value, fv.Addr().Interface()); err != nil {
			if elErr := elementErr(path, value, fv.Type()); elErr != nil {
				return elErr
			}
			return fieldErr(path, "expected %s, got %s%s", describeType(fv.Type()), gotValue(err, value), outOfRange(fv.Type(), err))
		}
		return nil
	}
	sl := reflect.New(reflect.SliceOf(fv.Type().Elem()))
	if err := json.Unmarshal(value, sl.Interface()); err != nil {
		return fieldErr(path, "expected %s, got %s%s", describeType(fv.Type()), gotValue(err, value), outOfRange(fv.Type().Elem(), err))
	}
	if n := sl.Elem().Len(); n != fv.Len() {
		return fieldErr(path, "expected %s, got %d elements", describeType(fv.Type()), n)
	}
	reflect.Copy(fv, sl.Elem())
	return nil
}

// elementErr names the first element of the JSON array value that does not
// decode as an element of the slice type t (a number that is not an integer or
// does not fit, a string, ...), as nullElement names a null one: the array
// itself is of the right type. It returns nil when value is not an array of
// scalars or every element decodes.
func elementErr(path string, value []byte, t reflect.Type) error {
	if t.Kind() != reflect.Slice || len(value) == 0 || value[0] != '[' {
		return nil
	}
	switch t.Elem().Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Struct, reflect.Slice, reflect.Map, reflect.Array:
		return nil
	}
	for i, el := range splitArray(value) {
		if err := json.Unmarshal(el, reflect.New(t.Elem()).Interface()); err != nil {
			return fieldErr(fmt.Sprintf("%s[%d]", path, i), "expected %s, got %s%s", describeType(t.Elem()), gotValue(err, el), outOfRange(t.Elem(), err))
		}
	}
	return nil
}

// outOfRange is ", past its range (...)" when err is an integer JSON number
// too large for the integer type t, else "": "expected an integer, got
// number 3000000000" alone reads as if 3000000000 were not one.
func outOfRange(t reflect.Type, err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return ""
	}
	n, ok := strings.CutPrefix(te.Value, "number ")
	if !ok || strings.ContainsAny(n, ".eE") {
		return ""
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int32:
		return ", past its range (-2147483648 to 2147483647)"
	case reflect.Int, reflect.Int64:
		return ", past its range (-9223372036854775808 to 9223372036854775807)"
	}
	return ""
}

func gotValue(err error, value []byte) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Value
	}
	return jsonKind(value)
}

func describeType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return describeType(t.Elem())
	case reflect.Bool:
		return "a bool"
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Array:
		return fmt.Sprintf("an array of %d integers [min, max]", t.Len())
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Int, reflect.Int32, reflect.Int64:
			return "an array of integers"
		}
		return "an array"
	}
	return "a " + t.Kind().String()
}

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// jsonFields maps the JSON names of t's fields to their indexes.
func jsonFields(t reflect.Type) map[string]int {
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			fields[name] = i
		}
	}
	return fields
}

// joinPath appends key to path; a key that is not a plain name is quoted.
func joinPath(path, key string) string {
	plain := key != "" && strings.IndexFunc(key, func(r rune) bool {
		return !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}) < 0
	if !plain {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
