package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tierfetch/scenarios"
)

// Limits that keep a built scenario within what scenario files accept and
// the simulator runs quickly.
const (
	offsetLimit = 1 << 62
	// localSegmentsMax and remoteOnlySegmentsMax bound the segments the
	// scenario lists on the leader's disk and only in remote storage: beyond
	// them neighbouring segments are merged, which changes only how finely
	// retention moves the log start offsets. (The invariant checker looks
	// remote batches up linearly when a run starts, so remote-only segments
	// cost their square.)
	localSegmentsMax      = 16384
	remoteOnlySegmentsMax = 2048
	// produceRecordsMax is a produce event's limit in scenario files;
	// produceEventsMax bounds the produce events a plan writes.
	produceRecordsMax = 1_000_000_000
	produceEventsMax  = 1000
	// horizonMaxMs bounds the simulated time: 30 days.
	horizonMaxMs = 30 * 86_400_000
)

// State is the partition as the plan models it, with the numbers the tools
// gave and the ones it derived.
type State struct {
	LogStartOffset      int64 `json:"log_start_offset"`
	LocalLogStartOffset int64 `json:"local_log_start_offset"`
	HighWatermark       int64 `json:"high_watermark"`
	// HighestRemoteOffset is the leader's highest uploaded offset as it
	// would answer ListOffsets -5 (-1: unknown); RemoteEndOffset the highest
	// offset remote storage holds in the model (-1: none).
	HighestRemoteOffset int64 `json:"highest_remote_offset"`
	RemoteEndOffset     int64 `json:"remote_end_offset"`
	// EarliestPendingUploadOffset is what kafka-get-offsets.sh --time -6
	// printed: null when it was not given or printed nothing.
	EarliestPendingUploadOffset *int64  `json:"earliest_pending_upload_offset"`
	RecordBytes                 int64   `json:"record_bytes"`
	SegmentBytes                int64   `json:"segment_bytes"`
	LogBytes                    int64   `json:"log_bytes"`
	LocalBytes                  int64   `json:"local_bytes"`
	RemoteOnlyBytes             int64   `json:"remote_only_bytes"`
	PendingUploadBytes          int64   `json:"pending_upload_bytes"`
	RemoteStorageEnable         bool    `json:"remote_storage_enable"`
	RemoteLogCopyDisable        bool    `json:"remote_log_copy_disable"`
	Compacted                   bool    `json:"compacted"`
	Leader                      int32   `json:"leader"` // the cluster's broker id, -1 unknown
	InSync                      []int32 `json:"in_sync"`
	// Brokers maps the scenario's broker ids (the index) to the cluster's;
	// the last is the new, empty replica (-1).
	Brokers []int32 `json:"brokers"`
}

// builder turns facts into a scenario, collecting what it assumed and what
// it noticed.
type builder struct {
	in     *Input
	f      *Facts
	assume []string
	notes  []string
	st     State
	cfg    scenarios.Config
	// the leader's broker configs the scenario uses
	fetchMaxBytes int64
	segRecords    int64
	horizonMs     int64
	copyRate      float64 // bytes a second a follower gains on the leader
	// neverCatchesUp: produce leaves a follower less than 5% of what it
	// can copy (copyRate): no replica catches up, flag on or off.
	neverCatchesUp bool
	// recordFrom says where the record size came from, as errors name it:
	// the flag the user gave, the file it was computed from, or a default.
	recordFrom   string
	reasons      []string // what the horizon covers
	unsupported6 bool     // the broker does not answer -6
	// metadataAssumed: remote metadata readiness was assumed from the state
	metadataAssumed bool
}

func (b *builder) assumef(format string, args ...any) {
	b.assume = append(b.assume, b.in.Names.Sprintf(format, args...))
}
func (b *builder) notef(format string, args ...any) {
	b.notes = append(b.notes, fmt.Sprintf(format, args...))
}

// build runs every step from facts to a validated scenario.
func (b *builder) build() (*scenarios.Scenario, []byte, error) {
	b.cfg = scenarios.DefaultConfig()
	b.st.Leader = -1
	steps := []func() error{b.logOffsets, b.topicConfigs, b.brokerConfigs, b.recordBytes, b.tiering, b.topology, b.retention, b.environment}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	return b.scenario()
}

func offsetFile(o Offset) string {
	if o.From == "" {
		return "the offsets"
	}
	return o.From
}

// logOffsets reads the log start, local log start and high watermark and
// checks they are in an order a real log can be in.
func (b *builder) logOffsets() error {
	o := b.f.Offsets
	lso, hw := o[TimeEarliest], o[TimeLatest]
	b.st.LogStartOffset, b.st.HighWatermark = lso.Value, hw.Value
	if hw.Value > offsetLimit {
		return disagree(hw, "latest %d is beyond the simulator's offset limit %d", hw.Value, int64(offsetLimit))
	}
	if lso.Value > hw.Value {
		return disagree(lso, "earliest %d is above latest %d (%s): no log is in that state; save the offsets again, one right after the other", lso.Value, hw.Value, hw.From)
	}
	b.st.LocalLogStartOffset = lso.Value
	ll, ok := o[TimeEarliestLocal]
	switch {
	case !ok:
		b.assumef("earliest-local (-4) not given: the leader is assumed to hold the whole log on disk (local log start = log start %d)", lso.Value)
	case ll.Error != "" || !ll.Known:
		b.notef("earliest-local (-4) gave no offset (%s%s): the leader is assumed to hold the whole log on disk", offsetFile(ll), errSuffix(ll))
	case ll.Value < lso.Value || ll.Value > hw.Value:
		return disagree(ll, "earliest-local %d is outside [earliest %d, latest %d] (%s, %s): no log is in that state; save the offsets again, one right after the other",
			ll.Value, lso.Value, hw.Value, lso.From, hw.From)
	default:
		b.st.LocalLogStartOffset = ll.Value
	}
	return nil
}

func errSuffix(o Offset) string {
	if o.Error == "" {
		return ""
	}
	return ": " + o.Error
}

// disagree is offsets no real log can hold, reported at the offset's line.
func disagree(o Offset, format string, args ...any) error {
	file, line := o.From, 0
	if i := strings.LastIndexByte(o.From, ':'); i > 0 {
		if n, err := strconv.Atoi(o.From[i+1:]); err == nil {
			file, line = o.From[:i], n
		}
	}
	return toolErr(file, line, format, args...)
}

// topicKafkaDefaults are Kafka's defaults for the topic configs the plan reads.
var topicKafkaDefaults = map[string]string{
	"segment.bytes": "1073741824", "retention.ms": "604800000", "retention.bytes": "-1",
	"local.retention.ms": "-2", "local.retention.bytes": "-2", "remote.storage.enable": "false",
	"remote.log.copy.disable": "false", "remote.log.delete.on.disable": "false",
	"unclean.leader.election.enable": "false", "cleanup.policy": "delete",
}

// topicConfig returns the topic's effective value of key and whether it
// came from Kafka's defaults (the configs did not list it).
func (b *builder) topicConfig(key string) (ConfigEntry, bool) {
	if e, ok := b.f.Configs[key]; ok && e.Value != "null" {
		return e, false
	}
	return ConfigEntry{Name: key, Value: topicKafkaDefaults[key]}, true
}

func (b *builder) configsName() string {
	if b.in.Configs != nil {
		return b.in.Configs.Name
	}
	if b.in.Topics != nil {
		return b.in.Topics.Name
	}
	return "configs"
}

func (b *builder) intConfig(key string, lo int64) (int64, bool, error) {
	e, def := b.topicConfig(key)
	v, err := strconv.ParseInt(e.Value, 10, 64)
	if err != nil || v < lo {
		return 0, false, toolErr(b.configsName(), e.Line, "%s: expected an integer >= %d, got %s", key, lo, quote(e.Value))
	}
	return v, def, nil
}

func (b *builder) boolConfig(key string) (bool, bool, error) {
	e, def := b.topicConfig(key)
	v, err := strconv.ParseBool(e.Value)
	if err != nil {
		return false, false, toolErr(b.configsName(), e.Line, "%s: expected true or false, got %s", key, quote(e.Value))
	}
	return v, def, nil
}

// topicConfigs maps the topic's configs onto the scenario config.
func (b *builder) topicConfigs() error {
	var defaulted []string
	ints := []struct {
		key string
		lo  int64
		dst *int64
	}{
		{"segment.bytes", 1, &b.cfg.SegmentBytes}, {"retention.ms", -1, &b.cfg.RetentionMs},
		{"retention.bytes", -1, &b.cfg.RetentionBytes}, {"local.retention.ms", -2, &b.cfg.LocalRetentionMs},
		{"local.retention.bytes", -2, &b.cfg.LocalRetentionBytes},
	}
	for _, c := range ints {
		v, def, err := b.intConfig(c.key, c.lo)
		if err != nil {
			return err
		}
		*c.dst = v
		if def {
			defaulted = append(defaulted, c.key+"="+topicKafkaDefaults[c.key])
		}
	}
	bools := []struct {
		key string
		dst *bool
	}{
		{"remote.storage.enable", &b.cfg.RemoteStorageEnable}, {"remote.log.copy.disable", &b.cfg.RemoteLogCopyDisable},
		{"remote.log.delete.on.disable", &b.cfg.RemoteLogDeleteOnDisable}, {"unclean.leader.election.enable", &b.cfg.UncleanLeaderElectionEnable},
	}
	for _, c := range bools {
		v, def, err := b.boolConfig(c.key)
		if err != nil {
			return err
		}
		*c.dst = v
		if def {
			defaulted = append(defaulted, c.key+"="+topicKafkaDefaults[c.key])
		}
	}
	if e, _ := b.topicConfig("segment.bytes"); b.cfg.SegmentBytes > math.MaxInt32 {
		return toolErr(b.configsName(), e.Line, "segment.bytes: expected at most %d (Kafka's int), got %d", math.MaxInt32, b.cfg.SegmentBytes)
	}
	policy, _ := b.topicConfig("cleanup.policy")
	if b.st.Compacted = strings.Contains(policy.Value, "compact"); b.st.Compacted {
		b.notef("cleanup.policy=%s: Kafka does not tier compacted topics and KIP-1023's path skips them; the simulator models no compaction, so read the plan as for the topic without it", policy.Value)
	}
	b.st.SegmentBytes = b.cfg.SegmentBytes
	switch {
	case !b.f.HasConfigs && b.f.Configs == nil:
		b.assumef("kafka-configs.sh output not given: the topic has Kafka's defaults (%s)", strings.Join(defaulted, ", "))
	case len(defaulted) > 0:
		b.assumef("configs not listed in %s (not kafka-configs.sh --all?) take Kafka's defaults: %s", b.f.ConfigsFrom, strings.Join(defaulted, ", "))
	}
	return nil
}

// brokerKeys maps the leader's broker configs onto the scenario config.
var brokerKeys = []struct {
	key    string
	lo, hi int64 // hi: the scenario format's bound (Kafka's int, or 10^12 ms)
	dst    func(*scenarios.Config) *int64
}{
	{"replica.fetch.max.bytes", 1, math.MaxInt32, func(c *scenarios.Config) *int64 { return &c.ReplicaFetchMaxBytes }},
	{"replica.fetch.backoff.ms", 1, maxConfigMs, func(c *scenarios.Config) *int64 { return &c.ReplicaFetchBackoffMs }},
	{"replica.fetch.wait.max.ms", 1, maxConfigMs, func(c *scenarios.Config) *int64 { return &c.ReplicaFetchWaitMaxMs }},
	{"replica.lag.time.max.ms", 1, maxConfigMs, func(c *scenarios.Config) *int64 { return &c.ReplicaLagTimeMaxMs }},
	{"remote.log.manager.task.interval.ms", 1, maxConfigMs, func(c *scenarios.Config) *int64 { return &c.RemoteLogManagerTaskIntervalMs }},
	{"replica.socket.timeout.ms", 1, maxConfigMs, func(c *scenarios.Config) *int64 { return &c.ReplicaSocketTimeoutMs }},
	{"log.retention.check.interval.ms", 1, maxConfigMs, func(c *scenarios.Config) *int64 { return &c.LogRetentionCheckIntervalMs }},
}

// maxConfigMs is the scenario format's bound on a config time (10^12 ms).
const maxConfigMs = 1_000_000_000_000

// brokerKeyRangeErr says a broker config is above what a scenario takes (nil
// when it is not): the tools' value is refused naming the file and line, not
// passed on to a scenario that refuses it as a bug of simrun.
func brokerKeyRangeErr(file string, line int, key string, v, lo, hi int64, raw string) error {
	if v <= hi {
		return nil
	}
	return toolErr(file, line, "%s: expected an integer in %d..%d (the most the simulator models), got %s", key, lo, hi, quote(raw))
}

// brokerConfigs reads the broker configs the configs file may hold after
// the topic's ("All configs for broker N are:"), else Kafka's defaults.
func (b *builder) brokerConfigs() error {
	if b.f.Broker == nil {
		b.assumef("broker configs not given: Kafka's defaults (replica.fetch.max.bytes=1048576, replica.fetch.backoff.ms=1000, remote.log.manager.task.interval.ms=30000, ...); append kafka-configs.sh --describe --all --entity-type brokers --entity-name LEADER to the configs file to use yours")
	}
	for _, k := range brokerKeys {
		e, ok := b.f.Broker[k.key]
		if !ok || e.Value == "null" {
			continue
		}
		v, err := strconv.ParseInt(e.Value, 10, 64)
		if err != nil || v < k.lo {
			return toolErr(b.in.Configs.Name, e.Line, "%s: expected an integer >= %d, got %s", k.key, k.lo, quote(e.Value))
		}
		if err := brokerKeyRangeErr(b.in.Configs.Name, e.Line, k.key, v, k.lo, k.hi, e.Value); err != nil {
			return err
		}
		*k.dst(&b.cfg) = v
	}
	if e, ok := b.f.Broker["follower.fetch.last.tiered.offset.enable"]; ok {
		b.notef("follower.fetch.last.tiered.offset.enable is %s on broker %s now (%s)", e.Value, b.f.BrokerID, b.f.BrokerFrom)
	} else if b.f.Broker != nil && len(b.f.Broker) > 20 {
		b.notef("broker %s does not list follower.fetch.last.tiered.offset.enable (%s): it predates Kafka 4.3.0, which added the flag", b.f.BrokerID, b.f.BrokerFrom)
	}
	b.fetchMaxBytes = b.cfg.ReplicaFetchMaxBytes
	return nil
}

// recordBytes takes the record size from Env.RecordBytes, or the leader's
// local log size (kafka-log-dirs.sh) over its local records, or the default.
func (b *builder) recordBytes() error {
	env := &b.in.Env
	b.st.RecordBytes = DefaultRecordBytes
	records := b.st.HighWatermark - b.st.LocalLogStartOffset
	b.recordFrom = b.in.Names.Sprintf("the default record size ({RecordBytes} not given)")
	switch {
	case env.Given[FieldRecordBytes]:
		b.st.RecordBytes = env.RecordBytes
		b.recordFrom = b.in.Names.Of(FieldRecordBytes)
	case len(b.f.LocalSizes) == 0:
		b.assumef("kafka-log-dirs.sh output not given: records of %d bytes ({RecordBytes})", DefaultRecordBytes)
	case records <= 0:
		b.assumef("the leader holds no records locally, so its log size tells no record size: %d bytes ({RecordBytes})", DefaultRecordBytes)
	default:
		r, guessed := b.leaderReplica()
		if r.Size == 0 {
			b.assumef("kafka-log-dirs.sh shows 0 bytes for the leader's %d local records: records of %d bytes ({RecordBytes})", records, DefaultRecordBytes)
			break
		}
		b.st.RecordBytes = max(1, int64(math.Round(float64(r.Size)/float64(records))))
		b.recordFrom = b.in.Names.Sprintf("{LogDirs} (%s: broker %d's local size, %d bytes, over its %d records)", b.f.LogDirsFrom, r.Broker, r.Size, records)
		what := "the leader's"
		switch {
		case guessed && b.f.Leader < 0:
			what = "the largest replica's (the leader is not known without kafka-topics.sh)"
		case guessed:
			what = fmt.Sprintf("the largest replica's (the leader, broker %d, is not in kafka-log-dirs.sh)", b.f.Leader)
		}
		b.notef("records of %d bytes: %s local log (broker %d, %s in %s) over its %d records [earliest-local, latest)",
			b.st.RecordBytes, what, r.Broker, formatBytes(r.Size), b.f.LogDirsFrom, records)
	}
	b.cfg.RecordBytes = b.st.RecordBytes
	return nil
}

// leaderReplica returns the leader's replica in kafka-log-dirs.sh, or the
// largest one (guessed) when the leader is unknown or not listed.
func (b *builder) leaderReplica() (Replica, bool) {
	for _, r := range b.f.LocalSizes {
		if r.Broker == b.f.Leader {
			return r, false
		}
	}
	best := b.f.LocalSizes[0]
	for _, r := range b.f.LocalSizes[1:] {
		if r.Size > best.Size {
			best = r
		}
	}
	return best, true
}
