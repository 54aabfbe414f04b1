package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"tierfetch/config"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// BrokerInput is what a broker plan (simrun plan --broker) is made from:
// the saved output of Kafka's tools for the whole cluster, the broker to
// replace, what the tools cannot tell and how to run.
type BrokerInput struct {
	// Broker is the cluster's id of the broker replaced by an empty one.
	Broker  int32
	LogDirs *LogDirsFile // required: every partition's local size
	Topics  *TopicsFile  // required: every partition's replicas and leader
	Configs *ConfigsFile // nil: Kafka's defaults
	Env     Env
	// SeedFrom..SeedTo are the seeds every run takes (both 0:
	// DefaultBrokerSeedFrom..DefaultBrokerSeedTo).
	SeedFrom, SeedTo uint64
	// Profiles to run; none: every profile, by name.
	Profiles []model.Profile
	Workers  int
	// SavePath is where the caller saves the scenario, for the commands the
	// plan prints ("" when it does not).
	SavePath string
	// Names spells the fields the plan's texts name (its caller's flags).
	Names config.Names
	// StepBudget is the simulated events the runs may spend together (0:
	// BrokerStepBudget a seed).
	StepBudget int64
}

// Defaults of a broker plan.
const (
	DefaultBrokerSeedFrom = 1
	DefaultBrokerSeedTo   = 1
	// kafkaSegmentBytes is Kafka's log.segment.bytes default (1 GiB), the
	// segment size of a topic whose configs are not given.
	kafkaSegmentBytes = 1 << 30
	// brokerPartitionsMax bounds the partitions of a broker plan.
	brokerPartitionsMax = 20_000
)

// brokerPart is one partition on the replaced broker, as the tools showed
// it.
type brokerPart struct {
	tp       TopicPartition
	replicas []int32 // the cluster's ids, the current leader first
	leader   int32   // -1: none
	local    int64   // the leader's local log size (kafka-log-dirs.sh)
	tiered   bool
	segBytes int64
	// leaderThrottled and followerThrottled are its topic's
	// throttled-replica lists as the scenario writes them: its own
	// replicas, by scenario id ("" none, "*" all).
	leaderThrottled, followerThrottled string
}

// brokerBuilder turns the tools' output into the broker-scale scenario.
type brokerBuilder struct {
	in     *BrokerInput
	parts  []brokerPart
	ids    []int32 // scenario broker index -> cluster id
	assume []string
	notes  []string
	cfg    scenarios.Config
	topics []string // with a replica on the broker, sorted
	// localBytes is what the broker holds now (its own replicas' sizes).
	localBytes int64
}

func (b *brokerBuilder) assumef(format string, args ...any) {
	b.assume = append(b.assume, b.in.Names.Sprintf(format, args...))
}

// index is the scenario's id of cluster broker id: the same id when every
// id is below brokersMax, else its rank.
func (b *brokerBuilder) index(id int32) int {
	i, _ := slices.BinarySearch(b.ids, id)
	return i
}

// buildBroker builds the broker-scale scenario of in: every partition with
// a replica on in.Broker, its leader's log from its local size, and the
// broker replaced by an empty one at 0.
func buildBroker(in *BrokerInput) (*brokerBuilder, *scenarios.Scenario, []byte, error) {
	b := &brokerBuilder{in: in, cfg: scenarios.DefaultConfig()}
	for _, step := range []func() error{b.partitions, b.brokerConfigs, b.environment} {
		if err := step(); err != nil {
			return nil, nil, nil, err
		}
	}
	sc, data, err := b.scenario()
	return b, sc, data, err
}

// partitions finds the broker's partitions in kafka-topics.sh's output and
// their leaders' local sizes in kafka-log-dirs.sh's.
func (b *brokerBuilder) partitions() error {
	in := b.in
	if in.Topics == nil {
		return inputErr("Topics", "simrun plan {Broker} needs kafka-topics.sh --describe output for every topic (the replicas and leaders)")
	}
	if in.LogDirs == nil {
		return inputErr("LogDirs", "simrun plan {Broker} needs kafka-log-dirs.sh --describe output for the cluster (each replica's size)")
	}
	// Every partition of every topic: a file cut at a line would leave the
	// broker's replicas after the cut out of the plan unsaid.
	if err := in.Topics.checkComplete(); err != nil {
		return err
	}
	ids := map[int32]bool{}
	for _, topic := range brokerSortedKeys(in.Topics.Topics) {
		t := in.Topics.Topics[topic]
		for _, p := range brokerSortedKeys(t.Partitions) {
			pi := t.Partitions[p]
			for _, r := range pi.Replicas {
				ids[r] = true
			}
			if !slices.Contains(pi.Replicas, in.Broker) {
				continue
			}
			if err := b.addPartition(topic, p, pi); err != nil {
				return err
			}
		}
	}
	if len(b.parts) == 0 {
		return inputErr("Broker", "broker %d holds no replica in %s (its brokers: %s)", in.Broker, in.Topics.Name, idList(brokerSortedKeys(ids)))
	}
	if len(b.parts) > brokerPartitionsMax {
		return inputErr("Broker", "broker %d holds %d partitions; a plan takes at most %d", in.Broker, len(b.parts), brokerPartitionsMax)
	}
	b.ids = brokerSortedKeys(ids)
	if len(b.ids) > brokersMax {
		return inputErr("Topics", "%s names %d brokers; a scenario holds at most %d", in.Topics.Name, len(b.ids), brokersMax)
	}
	if last := b.ids[len(b.ids)-1]; last < brokersMax {
		// The scenario's ids are the cluster's (the ones no replica names
		// hold nothing), so runs print b2 for broker 2.
		b.ids = b.ids[:0]
		for id := range last + 1 {
			b.ids = append(b.ids, id)
		}
	}
	return nil
}

// addPartition adds one partition of the broker: its replicas with the
// leader first, and the leader's local size.
func (b *brokerBuilder) addPartition(topic string, p int32, pi PartitionInfo) error {
	tp := TopicPartition{Topic: topic, Partition: p}
	bp := brokerPart{tp: tp, leader: pi.Leader, replicas: slices.Clone(pi.Replicas)}
	if i := slices.Index(bp.replicas, pi.Leader); i > 0 {
		bp.replicas = append([]int32{pi.Leader}, slices.Delete(bp.replicas, i, i+1)...)
	}
	sizes := b.in.LogDirs.Replicas[tp]
	if len(sizes) == 0 {
		return toolErr(b.in.LogDirs.Name, 0, "no replica of %s (broker %d holds it, by %s): want kafka-log-dirs.sh --describe for every broker", tp, b.in.Broker, b.in.Topics.Name)
	}
	best := int64(-1)
	for _, r := range sizes {
		if r.IsFuture {
			continue
		}
		if r.Broker == pi.Leader {
			best = r.Size
		}
		if r.Broker == b.in.Broker {
			b.localBytes += r.Size
		}
	}
	if best < 0 { // no leader, or the leader's replica is not listed
		for _, r := range sizes {
			if !r.IsFuture && r.Broker != b.in.Broker {
				best = max(best, r.Size)
			}
		}
		if best < 0 {
			return toolErr(b.in.LogDirs.Name, 0, "%s: no replica outside broker %d to copy from", tp, b.in.Broker)
		}
		b.assumef("%s has no leader in %s, or its leader's replica is not in %s: its largest other replica's size", tp, b.in.Topics.Name, b.in.LogDirs.Name)
	}
	bp.local = best
	if len(b.topics) == 0 || b.topics[len(b.topics)-1] != topic {
		b.topics = append(b.topics, topic)
	}
	b.parts = append(b.parts, bp)
	return nil
}

// brokerKeyNames maps the broker configs a broker plan reads onto the
// scenario config: brokerKeys and the fetcher threads' keys.
var brokerPlanKeys = append(slices.Clone(brokerKeys), []struct {
	key    string
	lo, hi int64
	dst    func(*scenarios.Config) *int64
}{
	{"num.replica.fetchers", 1, brokersMax, func(c *scenarios.Config) *int64 { return &c.NumReplicaFetchers }},
	{"replica.fetch.response.max.bytes", 1, math.MaxInt32, func(c *scenarios.Config) *int64 { return &c.ReplicaFetchResponseMaxBytes }},
	{"replica.fetch.min.bytes", 1, math.MaxInt32, func(c *scenarios.Config) *int64 { return &c.ReplicaFetchMinBytes }},
}...)

// brokerConfigs reads the broker's configs and each topic's from
// kafka-configs.sh's output: the replaced broker's block, else any
// broker's; a topic's tiering and segment size.
func (b *brokerBuilder) brokerConfigs() error {
	cf := b.in.Configs
	var blk *ConfigBlock
	if cf != nil {
		if blk = cf.Block("broker", strconv.Itoa(int(b.in.Broker))); blk == nil {
			for _, x := range cf.Blocks {
				if x.EntityType == "broker" && x.Entity != "" {
					blk = x
					b.assumef("broker %d's configs are not in %s: broker %s's (the replacement runs with its predecessor's configs)", b.in.Broker, cf.Name, x.Entity)
					break
				}
			}
		}
	}
	if blk == nil {
		b.assumef("broker configs not given: Kafka's defaults (num.replica.fetchers=1, replica.fetch.max.bytes=1048576, replica.fetch.response.max.bytes=10485760, ...); add kafka-configs.sh --describe --all --entity-type brokers --entity-name %d to {Configs}", b.in.Broker)
	} else {
		for _, k := range brokerPlanKeys {
			e, ok := blk.Entries[k.key]
			if !ok || e.Value == "null" {
				continue
			}
			v, err := strconv.ParseInt(e.Value, 10, 64)
			if err != nil || v < k.lo {
				return toolErr(cf.Name, e.Line, "%s: expected an integer >= %d, got %s", k.key, k.lo, quote(e.Value))
			}
			if err := brokerKeyRangeErr(cf.Name, e.Line, k.key, v, k.lo, k.hi, e.Value); err != nil {
				return err
			}
			*k.dst(&b.cfg) = v
		}
		if err := b.throttledRates(cf.Name, blk); err != nil {
			return err
		}
	}
	untiered := 0
	for i := range b.parts {
		p := &b.parts[i]
		p.segBytes, p.tiered = kafkaSegmentBytes, false
		var tb *ConfigBlock
		if cf != nil {
			tb = cf.Block("topic", p.tp.Topic)
		}
		if tb == nil {
			continue
		}
		if e, ok := tb.Entries["segment.bytes"]; ok && e.Value != "null" {
			v, err := strconv.ParseInt(e.Value, 10, 64)
			if err != nil || v < 1024 || v > math.MaxInt32 {
				return toolErr(cf.Name, e.Line, "segment.bytes of topic %s: expected an integer in 1024..%d, got %s", p.tp.Topic, math.MaxInt32, quote(e.Value))
			}
			p.segBytes = v
		}
		if e, ok := tb.Entries["remote.storage.enable"]; ok {
			p.tiered = e.Value == "true"
		}
		if err := b.throttledReplicas(cf.Name, tb, p); err != nil {
			return err
		}
	}
	var missing []string
	for _, t := range b.topics {
		if cf == nil || cf.Block("topic", t) == nil {
			missing = append(missing, t)
		}
	}
	for _, p := range b.parts {
		if !p.tiered {
			untiered++
		}
	}
	if len(missing) > 0 {
		b.assumef("no kafka-configs.sh output for topic(s) %s: Kafka's defaults (segment.bytes=1073741824, remote.storage.enable=false)", strings.Join(missing, ", "))
	}
	if untiered == len(b.parts) {
		b.notes = append(b.notes, "no partition of the broker is tiered (remote.storage.enable=true): the flag changes nothing")
	}
	return nil
}

// environment sets what the tools cannot tell, as plain plan does.
func (b *brokerBuilder) environment() error {
	env := &b.in.Env
	if err := env.validate(); err != nil {
		return err
	}
	if env.Given[FieldProduce] {
		return inputErr(FieldProduce, "not read with {Broker} in this build: the broker plan models the replacement without produce")
	}
	b.cfg.RecordBytes = DefaultRecordBytes
	if env.Given[FieldRecordBytes] {
		b.cfg.RecordBytes = env.RecordBytes
	} else {
		b.assumef("records of %d bytes ({RecordBytes}): the copy moves the same bytes whatever the record size", DefaultRecordBytes)
	}
	b.cfg.ReplicationBytesPerSec = env.ReplicationBytesPerSec
	b.cfg.NetworkLatencyMs, b.cfg.RemoteFetchMs, b.cfg.RemoteUploadMs = env.NetworkLatencyMs, env.RemoteFetchMs, env.RemoteUploadMs
	b.cfg.RemoteMetadataReadyMs = env.RemoteMetadataReadyMs
	if !env.Given[FieldReplication] {
		b.assumef("each leader sends %s/s of replication traffic ({ReplicationBytesPerSec})", formatBytes(env.ReplicationBytesPerSec))
	}
	b.assumef("no records produced during the replacement (the tools do not tell the rate)")
	b.assumef("on a tiered partition every inactive local segment is uploaded and the active one holds what is left of the leader's local size; remote storage holds one more segment below the local log (the tools do not tell its size: it changes the auxiliary state read, not the bytes copied)")
	return nil
}

// initial is partition p's leader log: one remote-only segment below the
// local log when tiered, the local size in full segments and an active
// segment with the rest.
func (b *brokerBuilder) initial(p *brokerPart) *scenarios.Initial {
	rb := b.cfg.RecordBytes
	seg := max(1, p.segBytes/rb) // records a segment
	records := p.local / rb
	if records == 0 {
		return nil
	}
	full, rest := records/seg, records%seg
	base := int64(0)
	in := &scenarios.Initial{HighestRemoteOffset: -1}
	if p.tiered {
		in.RemoteSegments = []scenarios.SegmentSpec{{BaseOffset: 0, EndOffset: seg - 1, Count: 1 + full}}
		base = seg
		in.HighestRemoteOffset = seg*(1+full) - 1
	}
	if full > 0 {
		in.LocalSegments = append(in.LocalSegments, scenarios.SegmentSpec{BaseOffset: base, EndOffset: base + seg - 1, Count: full})
	}
	active := base + full*seg
	in.LocalSegments = append(in.LocalSegments, scenarios.SegmentSpec{BaseOffset: active, EndOffset: active + rest - 1})
	in.HighWatermark = active + rest
	return in
}

// scenario writes the broker-scale scenario: one entry per partition, the
// broker replaced at 0, a horizon long enough for every leader to send
// what it must twice over.
func (b *brokerBuilder) scenario() (*scenarios.Scenario, []byte, error) {
	sc := &scenarios.Scenario{Name: fmt.Sprintf("replace-broker-%d", b.in.Broker), Seed: 1, Brokers: len(b.ids), Config: b.cfg,
		DurationMs: 60_000}
	sc.Description = b.in.Names.Sprintf("broker %d replaced by an empty one: its %d partitions, built by simrun plan {Broker} from the saved output of Kafka's tools",
		b.in.Broker, len(b.parts))
	if b.index(b.in.Broker) != int(b.in.Broker) {
		sc.Description += fmt.Sprintf(" (scenario broker b%d is cluster broker i's i-th id: %s)", b.index(b.in.Broker), idList(b.ids))
	}
	if err := b.checkSizes(); err != nil {
		return nil, nil, err
	}
	byLeader := map[int32]int64{}
	for i := range b.parts {
		p := &b.parts[i]
		var reps []int
		for _, r := range p.replicas {
			reps = append(reps, b.index(r))
		}
		entry := scenarios.PartitionSpec{Topic: p.tp.Topic, Partition: p.tp.Partition, Count: 1, Replicas: reps, Initial: b.initial(p)}
		seg, tiered := p.segBytes, p.tiered
		entry.Config = &scenarios.TopicConfig{SegmentBytes: &seg, RemoteStorageEnable: &tiered}
		if p.leaderThrottled != "" {
			entry.Config.LeaderReplicationThrottledReplicas = &p.leaderThrottled
		}
		if p.followerThrottled != "" {
			entry.Config.FollowerReplicationThrottledReplicas = &p.followerThrottled
		}
		sc.Partitions = append(sc.Partitions, entry)
		src := p.replicas[0]
		if src == b.in.Broker && len(p.replicas) > 1 {
			src = p.replicas[1]
		}
		byLeader[src] += p.local
	}
	worst := int64(0)
	for _, n := range byLeader {
		worst = max(worst, n)
	}
	copyMs := int64(horizonMaxMs) // worst * 1000 would overflow: far past the horizon anyway
	if worst <= math.MaxInt64/1000 {
		copyMs = worst * 1000 / max(1, b.cfg.ReplicationBytesPerSec)
	}
	sc.HealMs = min(horizonMaxMs, ((2*copyMs+120_000)/60_000+1)*60_000)
	broker := b.index(b.in.Broker)
	sc.Events = []scenarios.Event{{AtMs: 0, Type: scenarios.EventReplaceBroker, Broker: &broker}}
	data, err := sc.Marshal()
	if err != nil {
		return nil, nil, err
	}
	parsed, err := scenarios.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("the scenario built from the tools' output is not valid (a bug, please report it): %v", err)
	}
	return parsed, data, nil
}

// logBytesMax is the most bytes a scenario's log may hold (scenarios'
// limit, docs/reference/scenario-format.md "Ranges": 8 PiB).
const logBytesMax = 1 << 53

// checkSizes refuses, as bad input naming kafka-log-dirs.sh's file, replica
// sizes that make logs no scenario holds: one log past logBytesMax, or more
// segments (at segment.bytes) than a scenario's initial logs hold together
// or copy at time 0. Without it the scenario built from them failed to parse
// and the plan called that a bug of simrun.
func (b *brokerBuilder) checkSizes() error {
	var segs, copies int64
	largest := -1
	for i := range b.parts {
		p := &b.parts[i]
		in := b.initial(p)
		if largest < 0 || p.local > b.parts[largest].local {
			largest = i
		}
		if in == nil {
			segs, copies = segs+1, copies+int64(len(p.replicas))
			continue
		}
		if in.HighWatermark > logBytesMax/b.cfg.RecordBytes {
			return toolErr(b.in.LogDirs.Name, 0, "%s: its leader's replica of %d bytes makes a log of more than %d bytes (8 PiB), the most a scenario models",
				p.tp, p.local, int64(logBytesMax))
		}
		var local, remote int64
		for _, sg := range in.LocalSegments {
			local += max(sg.Count, 1)
		}
		for _, sg := range in.RemoteSegments {
			remote += max(sg.Count, 1)
		}
		segs += local + remote
		copies += remote + local*int64(len(p.replicas))
	}
	if segs > scenarios.MaxFixtureSegments || copies > scenarios.SegmentCopiesMax {
		lp := &b.parts[largest]
		return toolErr(b.in.LogDirs.Name, 0, "the leaders' replicas make %d segments of their topics' segment.bytes (%d segment copies with their replicas; the largest, %s, %d bytes), more than a scenario holds (%d segments, %d copies): the sizes, segment.bytes or the record size are out of the plan's reach",
			segs, copies, lp.tp, lp.local, scenarios.MaxFixtureSegments, scenarios.SegmentCopiesMax)
	}
	return nil
}

func idList(ids []int32) string {
	var s []string
	for _, id := range ids {
		s = append(s, strconv.Itoa(int(id)))
	}
	return strings.Join(s, ",")
}

// brokersMax is the brokers a scenario file holds (scenarios' limit).
const brokersMax = 64

func brokerSortedKeys[K interface{ ~string | ~int32 }, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// throttledRates reads the broker's replication throttle rates
// (leader.replication.throttled.rate, follower.replication.throttled.rate;
// Kafka's default, Long.MAX_VALUE, is no throttle). The scenario applies
// them on every broker, as the plan applies the broker's other configs.
func (b *brokerBuilder) throttledRates(file string, blk *ConfigBlock) error {
	for _, k := range []struct {
		key string
		dst *int64
	}{
		{"leader.replication.throttled.rate", &b.cfg.LeaderReplicationThrottledRate},
		{"follower.replication.throttled.rate", &b.cfg.FollowerReplicationThrottledRate},
	} {
		e, ok := blk.Entries[k.key]
		if !ok || e.Value == "null" || e.Value == strconv.FormatInt(math.MaxInt64, 10) {
			continue
		}
		v, err := strconv.ParseInt(e.Value, 10, 64)
		if err != nil || v < 0 {
			return toolErr(file, e.Line, "%s: expected an integer >= 0, got %s", k.key, quote(e.Value))
		}
		*k.dst = v
		b.notes = append(b.notes, fmt.Sprintf("%s=%d is set on broker %s: the plan throttles, on every broker, the replicas its topics' throttled-replica lists name", k.key, v, blk.Entity))
	}
	return nil
}

// throttledReplicas reads partition p's replicas its topic's
// leader.replication.throttled.replicas and
// follower.replication.throttled.replicas name ("partition:broker,..." or
// "*"; ConfigHandler.parseThrottledPartitions, ConfigHandler.scala:150-162
// @1eb7644349cb), written with the scenario's broker ids.
func (b *brokerBuilder) throttledReplicas(file string, tb *ConfigBlock, p *brokerPart) error {
	for _, k := range []struct {
		key string
		dst *string
	}{
		{"leader.replication.throttled.replicas", &p.leaderThrottled},
		{"follower.replication.throttled.replicas", &p.followerThrottled},
	} {
		e, ok := tb.Entries[k.key]
		if !ok || e.Value == "null" {
			continue
		}
		t, err := scenarios.ParseThrottledReplicas(e.Value)
		if err != nil {
			return toolErr(file, e.Line, "%s of topic %s: %v", k.key, tb.Entity, err)
		}
		if t.All {
			*k.dst = "*"
			continue
		}
		var pairs []string
		for _, r := range t.Replicas {
			if _, found := slices.BinarySearch(b.ids, int32(r.Broker)); found && r.Partition == p.tp.Partition {
				pairs = append(pairs, fmt.Sprintf("%d:%d", r.Partition, b.index(int32(r.Broker))))
			}
		}
		*k.dst = strings.Join(pairs, ",")
	}
	return nil
}
