package scenarios

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"tierfetch/sim"
)

// A one-partition file (no "partitions") describes the partition
// OnePartitionTopic-OnePartitionPartition, "topic-0": its events may name it
// or leave topic and partition out, and EachPartition yields it so.
const (
	OnePartitionTopic           = "topic"
	OnePartitionPartition int32 = 0
)

// Bounds of a broker-scale file, beyond those of a one-partition file.
const (
	// PartitionsMax bounds the partitions of a file, every entry's count
	// summed.
	PartitionsMax = 100_000
	// PartitionBrokersMax bounds partitions x brokers: the model keeps each
	// broker's view of each partition (about 700 bytes of a 64-broker
	// cluster, measured), so the bound keeps that part near 1.5 GiB.
	PartitionBrokersMax = 1 << 21
	// SegmentCopiesMax bounds the segment headers the partitions hold at
	// time 0, summed over entries: count x (remote segments + local segments
	// x replicas), an empty log counting one local segment. A header costs
	// about 150 bytes in a run: at most about 1.2 GiB.
	SegmentCopiesMax = 1 << 23
	// topicNameMax is Kafka's Topic.MAX_NAME_LENGTH.
	topicNameMax = 249
)

// PartitionSpec is one entry of a broker-scale file's "partitions": Count
// partitions Partition..Partition+Count-1 of Topic, each with the same
// initial log. The i-th of them (i from 0) has the replicas (r + i) mod
// brokers for each r of Replicas, in order; the first leads.
type PartitionSpec struct {
	Topic     string `json:"topic"`     // required: Kafka's legal names
	Partition int32  `json:"partition"` // the first partition id (>= 0)
	// Count (1..PartitionsMax) is the number of partitions; Parse writes 1
	// when the file leaves it out.
	Count    int64 `json:"count"`
	Replicas []int `json:"replicas"` // required: distinct broker ids
	// Initial is the leader's log at time 0 of each partition of the entry
	// (nil: an empty log), one value shared by all of them: read it, never
	// change it.
	Initial *Initial `json:"initial,omitempty"`
	// Config overrides topic-level keys of the top-level config for the
	// entry's partitions (nil: none).
	Config *TopicConfig `json:"config,omitempty"`
}

// TopicConfig holds the config keys a partitions entry may override: Kafka's
// topic-level configs (LogConfig.java:265-333 @1eb7644349cb) and
// record_bytes, the workload's record size. Every other key of Config is a
// broker config or the environment and is set once, at the top level. A nil
// field keeps the top-level value.
type TopicConfig struct {
	SegmentBytes                         *int64  `json:"segment_bytes,omitempty"`
	RecordBytes                          *int64  `json:"record_bytes,omitempty"`
	RemoteStorageEnable                  *bool   `json:"remote_storage_enable,omitempty"`
	RemoteLogCopyDisable                 *bool   `json:"remote_log_copy_disable,omitempty"`
	RemoteLogDeleteOnDisable             *bool   `json:"remote_log_delete_on_disable,omitempty"`
	LocalRetentionBytes                  *int64  `json:"local_retention_bytes,omitempty"`
	LocalRetentionMs                     *int64  `json:"local_retention_ms,omitempty"`
	RetentionBytes                       *int64  `json:"retention_bytes,omitempty"`
	RetentionMs                          *int64  `json:"retention_ms,omitempty"`
	UncleanLeaderElectionEnable          *bool   `json:"unclean_leader_election_enable,omitempty"`
	MinInsyncReplicas                    *int64  `json:"min_insync_replicas,omitempty"`
	RemoteCopyLagMs                      *int64  `json:"remote_copy_lag_ms,omitempty"`
	RemoteCopyLagBytes                   *int64  `json:"remote_copy_lag_bytes,omitempty"`
	LeaderReplicationThrottledReplicas   *string `json:"leader_replication_throttled_replicas,omitempty"`
	FollowerReplicationThrottledReplicas *string `json:"follower_replication_throttled_replicas,omitempty"`
}

// Apply returns c with tc's keys in place of c's.
func (tc *TopicConfig) Apply(c Config) Config {
	if tc == nil {
		return c
	}
	set := func(dst *int64, v *int64) {
		if v != nil {
			*dst = *v
		}
	}
	setBool := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.SegmentBytes, tc.SegmentBytes)
	set(&c.RecordBytes, tc.RecordBytes)
	setBool(&c.RemoteStorageEnable, tc.RemoteStorageEnable)
	setBool(&c.RemoteLogCopyDisable, tc.RemoteLogCopyDisable)
	setBool(&c.RemoteLogDeleteOnDisable, tc.RemoteLogDeleteOnDisable)
	set(&c.LocalRetentionBytes, tc.LocalRetentionBytes)
	set(&c.LocalRetentionMs, tc.LocalRetentionMs)
	set(&c.RetentionBytes, tc.RetentionBytes)
	set(&c.RetentionMs, tc.RetentionMs)
	setBool(&c.UncleanLeaderElectionEnable, tc.UncleanLeaderElectionEnable)
	if tc.MinInsyncReplicas != nil {
		c.MinInsyncReplicas = tc.MinInsyncReplicas
	}
	set(&c.RemoteCopyLagMs, tc.RemoteCopyLagMs)
	if tc.RemoteCopyLagBytes != nil {
		c.RemoteCopyLagBytes = tc.RemoteCopyLagBytes
	}
	if tc.LeaderReplicationThrottledReplicas != nil {
		c.LeaderReplicationThrottledReplicas = *tc.LeaderReplicationThrottledReplicas
	}
	if tc.FollowerReplicationThrottledReplicas != nil {
		c.FollowerReplicationThrottledReplicas = *tc.FollowerReplicationThrottledReplicas
	}
	return c
}

// TopicConfigKeys lists the keys a partitions entry's config may set, sorted.
func TopicConfigKeys() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range cachedJSONFields(topicConfigType) {
			if !yield(k) {
				return
			}
		}
	})
}

var (
	topicConfigType = reflect.TypeOf(TopicConfig{})
	configType      = reflect.TypeOf(Config{})
)

// BrokerScale reports whether s is a broker-scale (many-partition) file: it
// has partitions.
func (s *Scenario) BrokerScale() bool { return len(s.Partitions) > 0 }

// PartitionCount returns the number of partitions of s: 1 for a
// one-partition file, every entry's count summed otherwise.
func (s *Scenario) PartitionCount() int {
	if !s.BrokerScale() {
		return 1
	}
	n := int64(0)
	for _, p := range s.Partitions {
		n += p.Count
	}
	return int(n)
}

// Partition is one partition of a scenario, as EachPartition yields it.
type Partition struct {
	Topic     string
	Partition int32
	// Entry is the index of its entry in Scenario.Partitions, -1 in a
	// one-partition file.
	Entry int
	// Replicas is the partition's own slice; the first is the leader.
	Replicas []int
	// Initial is the leader's log at time 0 (nil: empty), shared with the
	// entry's other partitions: read it, never change it.
	Initial *Initial
	// Config is the top-level config with the entry's overrides.
	Config Config
}

// EachPartition yields every partition of a validated scenario in scenario
// order, numbered from 0: a one-partition file's one partition
// (OnePartitionTopic-OnePartitionPartition, with the file's replicas,
// initial and config), or each entry's partitions in turn. It allocates one
// replica slice a partition and nothing else: entries are never expanded.
func (s *Scenario) EachPartition() iter.Seq2[int, Partition] {
	return func(yield func(int, Partition) bool) {
		if !s.BrokerScale() {
			yield(0, Partition{Topic: OnePartitionTopic, Partition: OnePartitionPartition, Entry: -1,
				Replicas: slices.Clone(s.Replicas), Initial: s.Initial, Config: s.Config})
			return
		}
		id := 0
		for e, spec := range s.Partitions {
			cfg := spec.Config.Apply(s.Config)
			for i := range spec.Count {
				p := Partition{Topic: spec.Topic, Partition: spec.Partition + int32(i), Entry: e,
					Replicas: spec.replicasAt(i, s.Brokers), Initial: spec.Initial, Config: cfg}
				if !yield(id, p) {
					return
				}
				id++
			}
		}
	}
}

// replicasAt returns the replicas of the entry's i-th partition.
func (p *PartitionSpec) replicasAt(i int64, brokers int) []int {
	out := make([]int, len(p.Replicas))
	for k, r := range p.Replicas {
		out[k] = int((int64(r) + i) % int64(brokers))
	}
	return out
}

// brokerMask returns the brokers (bit b for broker b; brokers <= 64) that
// hold a replica of some partition of the entry.
func (p *PartitionSpec) brokerMask(brokers int) uint64 {
	var m uint64
	for i := range min(p.Count, int64(brokers)) { // the pattern repeats every brokers partitions
		for _, r := range p.replicasAt(i, brokers) {
			m |= 1 << r
		}
	}
	return m
}

// Decoding.

// rawPartition is a partitions entry as decoded, before its initial and config are.
type rawPartition struct {
	Topic     string          `json:"topic"`
	Partition int32           `json:"partition"`
	Count     int64           `json:"count"`
	Replicas  []int           `json:"replicas"`
	Initial   json.RawMessage `json:"initial"`
	Config    json.RawMessage `json:"config"`
}

// decodePartitions decodes the partitions array. The entries' initial logs
// share one room of MaxFixtureSegments segments (runs expanded), so that a
// small file cannot ask for more: an entry's count does not multiply it.
func decodePartitions(data json.RawMessage) ([]PartitionSpec, error) {
	els, err := arrayElements("partitions", data)
	if err != nil {
		return nil, err
	}
	if len(els) == 0 {
		return nil, fieldErr("partitions", "must not be empty (leave it out for a one-partition file)")
	}
	room := segmentRoom{left: MaxFixtureSegments, over: fmt.Sprintf(
		"the partitions' initial logs would hold more than %d segments together (remote and local, runs expanded; an entry's log counts once whatever its count)",
		MaxFixtureSegments)}
	out := make([]PartitionSpec, len(els))
	for i, el := range els {
		path := fmt.Sprintf("partitions[%d]", i)
		raw := rawPartition{Count: 1}
		present, err := decodeObject(path, el, &raw)
		if err != nil {
			return nil, err
		}
		for _, name := range []string{"topic", "replicas"} {
			if !slices.Contains(present, name) {
				return nil, fieldErr(path+"."+name, "required")
			}
		}
		p := PartitionSpec{Topic: raw.Topic, Partition: raw.Partition, Count: raw.Count, Replicas: raw.Replicas}
		if p.Initial, err = decodeInitialIn(raw.Initial, &room); err != nil {
			return nil, under(path, err)
		}
		if p.Config, err = decodeTopicConfig(path+".config", raw.Config); err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

// decodeTopicConfig decodes an entry's config; a broker-level key is refused
// naming where it belongs.
func decodeTopicConfig(path string, data json.RawMessage) (*TopicConfig, error) {
	if isAbsent(data) {
		return nil, nil
	}
	ms, err := objectMembers(path, data)
	if err != nil {
		return nil, err
	}
	topicKeys, allKeys := cachedJSONFields(topicConfigType), cachedJSONFields(configType)
	for _, m := range ms {
		_, topic := topicKeys[m.key]
		if _, known := allKeys[m.key]; known && !topic {
			return nil, fieldErr(joinPath(path, m.key), "a broker config, not a topic config: set it in the top-level config (an entry may set %s)",
				strings.Join(TopicConfigKeys(), ", "))
		}
	}
	tc := &TopicConfig{}
	if _, err := decodeObject(path, data, tc); err != nil {
		return nil, err
	}
	return tc, nil
}

// under puts path in front of the field of a *FieldError err (whose field is
// then inside path), or of its message otherwise.
func under(path string, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		return &FieldError{Field: path + "." + fe.Field, Msg: fe.Msg}
	}
	return fmt.Errorf("%s: %w", path, err)
}

// listsRemoteData reports whether some partitions entry that does not set
// remote_storage_enable itself starts with remote segments: a broker-scale
// file that leaves config.remote_storage_enable out is then read as tiered
// (its initial logs say remote storage holds data).
func (s *Scenario) listsRemoteData() bool {
	for i := range s.Partitions {
		p := &s.Partitions[i]
		if p.Initial != nil && len(p.Initial.RemoteSegments) > 0 && (p.Config == nil || p.Config.RemoteStorageEnable == nil) {
			return true
		}
	}
	return false
}

// Validation.

// validateBrokerScale checks what a broker-scale file adds: the top-level
// throttled-replica lists, and each partitions entry (its names, ranges,
// replicas, config and initial log), their overlaps and the file's totals.
func (s *Scenario) validateBrokerScale() error {
	if err := s.checkThrottledBrokers("config", s.Config); err != nil {
		return err
	}
	if s.Partitions == nil {
		return nil
	}
	if len(s.Partitions) == 0 {
		return fieldErr("partitions", "must not be empty (leave it out for a one-partition file)")
	}
	total, copies := int64(0), int64(0)
	for i := range s.Partitions {
		p := &s.Partitions[i]
		path := fmt.Sprintf("partitions[%d]", i)
		if err := s.validateEntry(path, p); err != nil {
			return err
		}
		total += p.Count
		if err := s.checkPartitionTotal(path, total); err != nil {
			return err
		}
		copies = min(copies+p.segmentCopies(), math.MaxInt64/2)
		if copies > SegmentCopiesMax {
			return fieldErr(path+".count", "the partitions would hold %d segments at time 0 with this entry (count x (remote + local x replicas), summed over entries), more than %d",
				copies, SegmentCopiesMax)
		}
	}
	return s.checkTopicRanges()
}

// validateEntry checks one partitions entry.
func (s *Scenario) validateEntry(path string, p *PartitionSpec) error {
	if err := checkTopicName(path+".topic", p.Topic); err != nil {
		return err
	}
	switch {
	case p.Partition < 0:
		return fieldErr(path+".partition", "must be >= 0, got %d", p.Partition)
	case p.Count < 1 || p.Count > PartitionsMax:
		return fieldErr(path+".count", "must be in 1..%d, got %d", PartitionsMax, p.Count)
	case int64(p.Partition)+p.Count-1 > math.MaxInt32:
		return fieldErr(path+".count", "partitions %d..%d of %s pass the largest partition id, %d",
			p.Partition, int64(p.Partition)+p.Count-1, p.Topic, math.MaxInt32)
	}
	if err := s.checkReplicaList(path+".replicas", p.Replicas); err != nil {
		return err
	}
	cfg := p.Config.Apply(s.Config)
	if err := cfg.validate(); err != nil {
		return under(path, err) // only an overridden key can be wrong: the top level is valid
	}
	if err := s.checkThrottledBrokers(path+".config", cfg); err != nil {
		return err
	}
	if p.Initial != nil {
		if err := p.Initial.validate(cfg.RemoteStorageEnable); err != nil {
			return under(path, err)
		}
	}
	return nil
}

// checkReplicaList checks a non-empty list of distinct valid broker ids.
func (s *Scenario) checkReplicaList(path string, ids []int) error {
	if len(ids) == 0 {
		return fieldErr(path, "must not be empty (the first replica is the leader)")
	}
	for i, id := range ids {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := s.checkBroker(p, id); err != nil {
			return err
		}
		if j := slices.Index(ids, id); j < i {
			return fieldErr(p, "duplicate broker %d (also [%d])", id, j)
		}
	}
	return nil
}

// checkPartitionTotal checks the partitions so far, total, against
// PartitionsMax and PartitionBrokersMax.
func (s *Scenario) checkPartitionTotal(path string, total int64) error {
	if total > PartitionsMax {
		return fieldErr(path+".count", "the file would hold %d partitions with this entry, more than %d", total, PartitionsMax)
	}
	if slots := total * int64(s.Brokers); slots > PartitionBrokersMax {
		return fieldErr(path+".count", "%d partitions x %d brokers = %d with this entry, more than %d (the model keeps each broker's view of each partition: fewer brokers or partitions)",
			total, s.Brokers, slots, PartitionBrokersMax)
	}
	return nil
}

// segmentCopies returns the segment headers the entry's partitions hold at
// time 0: its remote segments once, its local ones on every replica.
func (p *PartitionSpec) segmentCopies() int64 {
	remote, local := int64(0), int64(1) // an empty log: one empty active segment
	if in := p.Initial; in != nil {
		remote, local = int64(len(in.RemoteSegments)), int64(len(in.LocalSegments))
	}
	return p.Count * (remote + local*int64(len(p.Replicas)))
}

// checkTopicName checks a topic name as Kafka's Topic.validate does
// (Topic.java:35-60 @1eb7644349cb).
func checkTopicName(path, name string) error {
	switch {
	case name == "":
		return fieldErr(path, "must not be empty")
	case name == "." || name == "..":
		return fieldErr(path, "%q is not allowed", name)
	case len(name) > topicNameMax:
		return fieldErr(path, "at most %d characters, got %d", topicNameMax, len(name))
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c == '.' || c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return fieldErr(path, "%q: a topic name holds only ASCII letters, digits, '.', '_' and '-' (byte %d)", name, i)
		}
	}
	return nil
}

// topicRange is the partitions first..last of topic that entry describes.
type topicRange struct {
	topic       string
	first, last int32
	entry       int
}

// checkTopicRanges checks that no two entries describe the same partition
// and that no two topics differ only in '.' against '_', which Kafka refuses
// (Topic.hasCollision; ReplicationControlManager.java:843-863 @1eb7644349cb).
func (s *Scenario) checkTopicRanges() error {
	unified := map[string]int{} // topic with '.' as '_' -> first entry naming it
	for i, p := range s.Partitions {
		u := strings.ReplaceAll(p.Topic, ".", "_")
		if j, ok := unified[u]; ok && s.Partitions[j].Topic != p.Topic {
			return fieldErr(fmt.Sprintf("partitions[%d].topic", i), "%q collides with %q (partitions[%d]): Kafka refuses topics whose names differ only in '.' and '_'",
				p.Topic, s.Partitions[j].Topic, j)
		} else if !ok {
			unified[u] = i
		}
	}
	rs := newPartitionIndex(s).ranges
	for k := 1; k < len(rs); k++ {
		a, b := rs[k-1], rs[k]
		if a.topic != b.topic || a.last < b.first {
			continue
		}
		if a.entry > b.entry {
			a, b = b, a
		}
		return fieldErr(fmt.Sprintf("partitions[%d]", b.entry), "%s partitions %d..%d overlap partitions[%d] (%s %d..%d)",
			b.topic, b.first, b.last, a.entry, a.topic, a.first, a.last)
	}
	return nil
}

// partitionIndex finds a scenario's partitions by topic and id.
type partitionIndex struct {
	one    bool         // a one-partition file
	ranges []topicRange // sorted by topic, then first, then entry
}

func newPartitionIndex(s *Scenario) *partitionIndex {
	if !s.BrokerScale() {
		return &partitionIndex{one: true, ranges: []topicRange{{OnePartitionTopic, OnePartitionPartition, OnePartitionPartition, -1}}}
	}
	rs := make([]topicRange, len(s.Partitions))
	for i, p := range s.Partitions {
		rs[i] = topicRange{p.Topic, p.Partition, int32(min(int64(p.Partition)+p.Count-1, math.MaxInt32)), i}
	}
	slices.SortFunc(rs, func(a, b topicRange) int {
		return cmp.Or(strings.Compare(a.topic, b.topic), cmp.Compare(a.first, b.first), cmp.Compare(a.entry, b.entry))
	})
	return &partitionIndex{ranges: rs}
}

// topic returns the ranges of topic.
func (ix *partitionIndex) topic(name string) []topicRange {
	i, _ := slices.BinarySearchFunc(ix.ranges, name, func(r topicRange, t string) int { return strings.Compare(r.topic, t) })
	j := i
	for j < len(ix.ranges) && ix.ranges[j].topic == name {
		j++
	}
	return ix.ranges[i:j]
}

// find returns the range holding topic-partition.
func (ix *partitionIndex) find(topic string, partition int32) (topicRange, bool) {
	for _, r := range ix.topic(topic) {
		if r.first <= partition && partition <= r.last {
			return r, true
		}
	}
	return topicRange{}, false
}

// describe names the scenario's topics for an error message.
func (ix *partitionIndex) describe() string {
	if ix.one {
		return fmt.Sprintf("a one-partition file's partition is %s-%d", OnePartitionTopic, OnePartitionPartition)
	}
	var names []string
	for _, r := range ix.ranges {
		if len(names) == 0 || names[len(names)-1] != r.topic {
			names = append(names, r.topic)
		}
	}
	if len(names) > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	return "topics: " + strings.Join(names, ", ")
}

// checkTarget checks the partitions an event names: topic and partition (or
// a reassign's partitions) must be partitions of the scenario.
func (s *Scenario) checkTarget(ix *partitionIndex, path string, e Event) error {
	if e.Type == EventReassign && e.Topic == "" {
		return fieldErr(path+".topic", "required by reassign")
	}
	if e.Partition != nil && e.Topic == "" {
		return fieldErr(path+".partition", "needs topic (partition %d of which topic?)", *e.Partition)
	}
	if e.Topic == "" {
		return nil
	}
	if len(ix.topic(e.Topic)) == 0 {
		return fieldErr(path+".topic", "no topic %q in the scenario (%s)", e.Topic, ix.describe())
	}
	ids := e.Partitions
	field := path + ".partitions"
	if e.Partition != nil {
		ids, field = []int32{*e.Partition}, path+".partition"
	}
	for k, id := range ids {
		p := field
		if e.Partition == nil {
			p = fmt.Sprintf("%s[%d]", field, k)
		}
		if _, ok := ix.find(e.Topic, id); !ok {
			return fieldErr(p, "no partition %s-%d in the scenario (%s)", e.Topic, id, ix.describe())
		}
		if j := slices.Index(ids, id); j < k {
			return fieldErr(p, "duplicate partition %d (also partitions[%d])", id, j)
		}
	}
	return nil
}

// checkReassign checks what a reassign event holds beyond its target.
func (s *Scenario) checkReassign(path string, e Event) error {
	if e.Partitions == nil {
		return fieldErr(path+".partitions", "required by reassign")
	}
	if len(e.Partitions) == 0 {
		return fieldErr(path+".partitions", "must not be empty")
	}
	if e.Replicas == nil {
		return fieldErr(path+".replicas", "required by reassign")
	}
	return s.checkReplicaList(path+".replicas", e.Replicas)
}

// addScope is who an add_replica event adds broker to: every partition
// (topic ""), every partition of topic (all), or topic-partition.
type addScope struct {
	broker    int
	topic     string
	partition int32
	all       bool
}

// addedReplicas remembers the add_replica events of a broker-scale file, so
// that a broker is added to a partition at most once.
type addedReplicas struct {
	anywhere map[int]int      // broker -> first event adding it anywhere
	every    map[int]int      // broker -> the event adding it to every partition
	topic    map[addScope]int // {broker, topic, all}: the event adding it to the topic
	inTopic  map[addScope]int // {broker, topic, all}: the first event adding it to some partition of the topic
	one      map[addScope]int // {broker, topic, partition}
	masks    []uint64         // per entry: the brokers holding a replica of one of its partitions
}

// checkAddReplica checks an add_replica event of a broker-scale file: the
// broker is not a replica of a partition it targets, and no earlier event
// added it to one of them.
func (s *Scenario) checkAddReplica(ix *partitionIndex, seen *addedReplicas, path string, i int, e Event) error {
	b := *e.Broker
	if seen.anywhere == nil {
		*seen = addedReplicas{anywhere: map[int]int{}, every: map[int]int{}, topic: map[addScope]int{},
			inTopic: map[addScope]int{}, one: map[addScope]int{}, masks: make([]uint64, len(s.Partitions))}
		for k := range s.Partitions {
			seen.masks[k] = s.Partitions[k].brokerMask(s.Brokers)
		}
	}
	topicKey := addScope{broker: b, topic: e.Topic, all: true}
	var earlier []int // events whose targets overlap this one's
	switch {
	case e.Topic == "":
		earlier = lookups(seen.anywhere, b)
	case e.Partition == nil:
		earlier = append(lookups(seen.every, b), lookups(seen.inTopic, topicKey)...)
	default:
		earlier = append(append(lookups(seen.every, b), lookups(seen.topic, topicKey)...),
			lookups(seen.one, addScope{broker: b, topic: e.Topic, partition: *e.Partition})...)
	}
	if len(earlier) > 0 {
		return fieldErr(path+".broker", "broker %d already added to some of these partitions by events[%d]", b, slices.Min(earlier))
	}
	if err := s.checkNotReplica(ix, seen.masks, path, e); err != nil {
		return err
	}
	setFirst(seen.anywhere, b, i)
	switch {
	case e.Topic == "":
		seen.every[b] = i
	case e.Partition == nil:
		seen.topic[topicKey] = i
		setFirst(seen.inTopic, topicKey, i)
	default:
		seen.one[addScope{broker: b, topic: e.Topic, partition: *e.Partition}] = i
		setFirst(seen.inTopic, topicKey, i)
	}
	return nil
}

// checkNotReplica checks that an add_replica's broker is not already a
// replica of a partition the event targets.
func (s *Scenario) checkNotReplica(ix *partitionIndex, masks []uint64, path string, e Event) error {
	b := *e.Broker
	isReplica := func(r topicRange) (int32, bool) {
		p := &s.Partitions[r.entry]
		if e.Partition != nil {
			i := int64(*e.Partition - p.Partition)
			return *e.Partition, slices.Contains(p.replicasAt(i, s.Brokers), b)
		}
		if masks[r.entry]&(1<<b) == 0 {
			return 0, false
		}
		for i := range p.Count { // found within the first brokers partitions
			if slices.Contains(p.replicasAt(i, s.Brokers), b) {
				return p.Partition + int32(i), true
			}
		}
		return 0, false
	}
	var ranges []topicRange
	switch {
	case e.Partition != nil:
		r, _ := ix.find(e.Topic, *e.Partition)
		ranges = []topicRange{r}
	case e.Topic != "":
		ranges = ix.topic(e.Topic)
	default:
		ranges = ix.ranges
	}
	for _, r := range ranges {
		if id, ok := isReplica(r); ok {
			return fieldErr(path+".broker", "broker %d is already a replica of %s-%d (partitions[%d])", b, r.topic, id, r.entry)
		}
	}
	return nil
}

func lookups[K comparable](m map[K]int, k K) []int {
	if i, ok := m[k]; ok {
		return []int{i}
	}
	return nil
}

func setFirst[K comparable](m map[K]int, k K, i int) {
	if _, ok := m[k]; !ok {
		m[k] = i
	}
}

// Throttled-replica lists.

// ThrottledReplicas is a parsed leader_replication_throttled_replicas or
// follower_replication_throttled_replicas value.
type ThrottledReplicas struct {
	All      bool              // "*": every replica of the topic
	Replicas []PartitionBroker // as listed
}

// PartitionBroker names the replica of partition Partition on broker Broker.
type PartitionBroker struct {
	Partition int32
	Broker    int
}

// ParseThrottledReplicas reads a throttled-replica list in Kafka's format
// (ThrottledReplicaListValidator, ConfigHandler.parseThrottledPartitions,
// ConfigHandler.scala:150-162 @1eb7644349cb): empty, "*", or
// "partition:broker" pairs separated by commas. Kafka's validator also lets
// through spaces and empty elements that its parser then fails on; they
// are refused here.
func ParseThrottledReplicas(v string) (ThrottledReplicas, error) {
	switch v {
	case "":
		return ThrottledReplicas{}, nil
	case "*":
		return ThrottledReplicas{All: true}, nil
	}
	var out ThrottledReplicas
	for _, el := range strings.Split(v, ",") {
		ps, bs, ok := strings.Cut(el, ":")
		p, perr := strconv.ParseInt(ps, 10, 32)
		b, berr := strconv.ParseInt(bs, 10, 32)
		if !ok || perr != nil || berr != nil || !digits(ps) || !digits(bs) {
			return ThrottledReplicas{}, fmt.Errorf(`must be "*" or a list "partition:broker,..." (no spaces; ids in 0..2^31-1), got %q (at %q)`, v, el)
		}
		out.Replicas = append(out.Replicas, PartitionBroker{Partition: int32(p), Broker: int(b)})
	}
	return out, nil
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// throttledLists returns cfg's two lists with their names.
func throttledLists(cfg Config) [2]struct{ name, value string } {
	return [2]struct{ name, value string }{
		{"leader_replication_throttled_replicas", cfg.LeaderReplicationThrottledReplicas},
		{"follower_replication_throttled_replicas", cfg.FollowerReplicationThrottledReplicas},
	}
}

// checkThrottledFormat checks the format of cfg's throttled-replica lists.
func checkThrottledFormat(cfg Config) error {
	for _, l := range throttledLists(cfg) {
		if _, err := ParseThrottledReplicas(l.value); err != nil {
			return fieldErr("config."+l.name, "%v", err)
		}
	}
	return nil
}

// checkThrottledBrokers checks that cfg's throttled-replica lists, whose
// format is valid, name brokers of the scenario.
func (s *Scenario) checkThrottledBrokers(path string, cfg Config) error {
	for _, l := range throttledLists(cfg) {
		t, _ := ParseThrottledReplicas(l.value)
		for _, r := range t.Replicas {
			if r.Broker >= s.Brokers {
				return fieldErr(path+"."+l.name, "%d:%d: no such broker %d (brokers are 0..%d)", r.Partition, r.Broker, r.Broker, s.Brokers-1)
			}
		}
	}
	return nil
}

// Limits of a broker-scale file's logs.

// checkPartitionLimits is validateLimits for each partitions entry: its
// initial leader epoch leaves room for every election, and the log of each
// of its partitions, with every record produced to it, stays within the
// offset and byte bounds of a one-partition file.
func (s *Scenario) checkPartitionLimits() error {
	replaces := s.replaceBrokers()
	prod := s.producedTo()
	for i := range s.Partitions {
		p := &s.Partitions[i]
		path := fmt.Sprintf("partitions[%d]", i)
		if p.Initial != nil {
			if err := s.checkEpochRoom(path+".initial.leader_epoch", p.Initial.LeaderEpoch, replaces); err != nil {
				return err
			}
		}
		cfg := p.Config.Apply(s.Config)
		whose := fmt.Sprintf(" of a partition of %s (%s %d..%d)", path, p.Topic, p.Partition, int64(p.Partition)+p.Count-1)
		if err := checkLogSpan(p.Initial, prod.most(p), cfg.RecordBytes, "events", path+".config.record_bytes", whose); err != nil {
			return err
		}
	}
	return nil
}

// produced holds the records the produce events append, by target.
type produced struct {
	all     int64            // produce events without a topic
	topic   map[string]int64 // with a topic only
	byTopic map[string][]partitionRecords
}

// partitionRecords is what the produce events naming one partition append.
type partitionRecords struct {
	partition int32
	records   int64
}

func (s *Scenario) producedTo() produced {
	pr := produced{topic: map[string]int64{}, byTopic: map[string][]partitionRecords{}}
	one := map[tpKey]int64{}
	var keys []tpKey
	for _, e := range s.Events {
		switch {
		case e.Type != EventProduce:
		case e.Topic == "":
			pr.all = sim.AddSat(pr.all, e.Records)
		case e.Partition == nil:
			pr.topic[e.Topic] = sim.AddSat(pr.topic[e.Topic], e.Records)
		default:
			k := tpKey{e.Topic, *e.Partition}
			if _, ok := one[k]; !ok {
				keys = append(keys, k)
			}
			one[k] = sim.AddSat(one[k], e.Records)
		}
	}
	for _, k := range keys {
		pr.byTopic[k.Topic] = append(pr.byTopic[k.Topic], partitionRecords{k.Partition, one[k]})
	}
	for _, rs := range pr.byTopic { // each sorted on its own: the order of topics is not used
		slices.SortFunc(rs, func(a, b partitionRecords) int { return cmp.Compare(a.partition, b.partition) })
	}
	return pr
}

// most returns the most records produced to one partition of entry p.
func (pr produced) most(p *PartitionSpec) int64 {
	last := int64(p.Partition) + p.Count - 1
	rs := pr.byTopic[p.Topic]
	i, _ := slices.BinarySearchFunc(rs, p.Partition, func(r partitionRecords, id int32) int { return cmp.Compare(r.partition, id) })
	extra := int64(0)
	for ; i < len(rs) && int64(rs[i].partition) <= last; i++ {
		extra = max(extra, rs[i].records)
	}
	return sim.AddSat(sim.AddSat(pr.all, pr.topic[p.Topic]), extra)
}

// tpKey names one partition.
type tpKey struct {
	Topic     string
	Partition int32
}
