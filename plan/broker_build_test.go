package plan

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"tierfetch/model"

	"tierfetch/scenarios"
)

// handPart is one partition of topic t as the tools show it: its leader,
// its replicas and kafka-log-dirs.sh's size of each broker's replica.
type handPart struct {
	leader   int32
	replicas []int32
	sizes    map[int32]int64
}

// handBrokerInput is a broker plan's input built by hand (no files, no
// simulation): topic t's partitions, in order, and the configs blocks.
func handBrokerInput(broker int32, parts []handPart, blocks ...*ConfigBlock) BrokerInput {
	tf := &TopicsFile{Name: "topics.txt", Topics: map[string]*TopicInfo{"t": {PartitionCount: len(parts), Partitions: map[int32]PartitionInfo{}}}}
	ld := &LogDirsFile{Name: "log-dirs.txt", Replicas: map[TopicPartition][]Replica{}}
	for i, p := range parts {
		tf.Topics["t"].Partitions[int32(i)] = PartitionInfo{Leader: p.leader, Replicas: p.replicas}
		tp := TopicPartition{Topic: "t", Partition: int32(i)}
		for _, id := range brokerSortedKeys(p.sizes) {
			ld.Replicas[tp] = append(ld.Replicas[tp], Replica{Broker: id, Size: p.sizes[id]})
		}
	}
	in := BrokerInput{Broker: broker, Topics: tf, LogDirs: ld, Env: DefaultEnv()}
	if len(blocks) > 0 {
		in.Configs = &ConfigsFile{Name: "configs.txt", Blocks: blocks}
	}
	return in
}

func configBlock(kind, entity string, kv ...string) *ConfigBlock {
	blk := &ConfigBlock{EntityType: kind, Entity: entity, Entries: map[string]ConfigEntry{}}
	for i := 0; i < len(kv); i += 2 {
		blk.Entries[kv[i]] = ConfigEntry{Line: 1 + i/2, Name: kv[i], Value: kv[i+1]}
	}
	return blk
}

// TestBrokerScenarioFromHandBuiltTools: broker 2 of a four-broker cluster
// (1000-byte records, 100 B/s of replication, 10-record segments): a
// partition led elsewhere (its leader put first, its log cut into remote
// and local segments), one it leads (copied from its other replica), one
// it alone holds, one with no leader (its largest other replica, said in
// the assumptions) and one whose leader's replica is empty (nothing to
// copy, no assumption). The broker holds its own replicas' bytes; the
// horizon is twice the largest leader's copy plus two minutes, rounded up
// to a minute.
func TestBrokerScenarioFromHandBuiltTools(t *testing.T) {
	in := handBrokerInput(2, []handPart{
		{3, []int32{1, 2, 3}, map[int32]int64{1: 24_000, 2: 23_000, 3: 25_000}},
		{2, []int32{2, 1}, map[int32]int64{1: 39_000, 2: 40_000}},
		{2, []int32{2}, map[int32]int64{2: 30_000}},
		{-1, []int32{2, 4}, map[int32]int64{2: 5_000, 4: 7_000}},
		{4, []int32{4, 2}, map[int32]int64{4: 0, 2: 3_000}},
	}, configBlock("topic", "t", "segment.bytes", "10000", "remote.storage.enable", "true"))
	in.Env.RecordBytes, in.Env.ReplicationBytesPerSec = 1000, 100
	in.Env.Given[FieldRecordBytes], in.Env.Given[FieldReplication] = true, true
	b, sc, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Brokers != 5 || sc.Description != "broker 2 replaced by an empty one: its 5 partitions, built by simrun plan Broker from the saved output of Kafka's tools" {
		t.Errorf("brokers %d, description %q: want 5 (ids 0..4) and no id map", sc.Brokers, sc.Description)
	}
	if b.localBytes != 23_000+40_000+30_000+5_000+3_000 {
		t.Errorf("the broker holds %d bytes, want its own replicas' 101000", b.localBytes)
	}
	wantReplicas := [][]int{{3, 1, 2}, {2, 1}, {2}, {2, 4}, {4, 2}}
	wantLocal := []int64{25, 40, 30, 7, 0} // records: the leader's size, else the largest other
	for i, p := range sc.Partitions {
		if !reflect.DeepEqual(p.Replicas, wantReplicas[i]) || localRecords(p.Initial) != wantLocal[i] {
			t.Errorf("t-%d: replicas %v, %d local records; want %v, %d", i, p.Replicas, localRecords(p.Initial), wantReplicas[i], wantLocal[i])
		}
	}
	// t-0: 25 records, 10 a segment: the one remote-only segment below the
	// local log, two full local segments (uploaded too) and 5 records active
	// (the parsed scenario lists each segment).
	want0 := &scenarios.Initial{HighWatermark: 35, HighestRemoteOffset: 29,
		RemoteSegments: []scenarios.SegmentSpec{{BaseOffset: 0, EndOffset: 9}, {BaseOffset: 10, EndOffset: 19}, {BaseOffset: 20, EndOffset: 29}},
		LocalSegments:  []scenarios.SegmentSpec{{BaseOffset: 10, EndOffset: 19}, {BaseOffset: 20, EndOffset: 29}, {BaseOffset: 30, EndOffset: 34}}}
	if got := sc.Partitions[0].Initial; !reflect.DeepEqual(got, want0) {
		t.Errorf("t-0's log %+v, want %+v", got, want0)
	}
	// From b1 40000 bytes (t-1), b2 30000 (t-2), b3 25000, b4 7000: 400 s
	// of copy at 100 B/s, (800+120)/60 rounded up to 16 minutes.
	if sc.HealMs != 960_000 {
		t.Errorf("horizon %d ms, want 960000", sc.HealMs)
	}
	wantAssume := []string{
		"t-3 has no leader in topics.txt, or its leader's replica is not in log-dirs.txt: its largest other replica's size",
		"broker configs not given: Kafka's defaults (num.replica.fetchers=1, replica.fetch.max.bytes=1048576, replica.fetch.response.max.bytes=10485760, ...); add kafka-configs.sh --describe --all --entity-type brokers --entity-name 2 to Configs",
		"no records produced during the replacement (the tools do not tell the rate)",
		"on a tiered partition every inactive local segment is uploaded and the active one holds what is left of the leader's local size; remote storage holds one more segment below the local log (the tools do not tell its size: it changes the auxiliary state read, not the bytes copied)",
	}
	if !reflect.DeepEqual(b.assume, wantAssume) || len(b.notes) != 0 {
		t.Errorf("assumptions\n%s\nnotes %q; want\n%s\nand no note", strings.Join(b.assume, "\n"), b.notes, strings.Join(wantAssume, "\n"))
	}
}

// TestBrokerPlanUntieredWithoutConfigs: with no kafka-configs.sh output
// the topic is untiered by Kafka's default, the plan says so and notes that
// the flag changes nothing.
func TestBrokerPlanUntieredWithoutConfigs(t *testing.T) {
	in := handBrokerInput(1, []handPart{{2, []int32{2, 1}, map[int32]int64{1: 5000, 2: 5000}}})
	b, _, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(b.assume, "no kafka-configs.sh output for topic(s) t: Kafka's defaults (segment.bytes=1073741824, remote.storage.enable=false)") ||
		!reflect.DeepEqual(b.notes, []string{"no partition of the broker is tiered (remote.storage.enable=true): the flag changes nothing"}) {
		t.Errorf("assumptions %q, notes %q", b.assume, b.notes)
	}
}

// TestBrokerPlanIDs: ids below 64 are the scenario's own (b2 for broker
// 2), so a cluster whose largest id is 64 keeps its ranks; 64 brokers fit
// a scenario, 65 do not.
func TestBrokerPlanIDs(t *testing.T) {
	in := handBrokerInput(64, []handPart{{2, []int32{2, 64}, map[int32]int64{2: 1000, 64: 1000}}})
	_, sc, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Brokers != 2 || !strings.HasSuffix(sc.Description, " (scenario broker b1 is cluster broker i's i-th id: 2,64)") {
		t.Errorf("brokers %d, description %q: want 2, b1 being 64", sc.Brokers, sc.Description)
	}
	for _, n := range []int{64, 65} {
		parts := []handPart{{100, []int32{100, 101}, map[int32]int64{100: 1000, 101: 1000}}}
		for id := int32(102); id < 100+int32(n); id++ {
			parts = append(parts, handPart{id, []int32{id}, nil})
		}
		in := handBrokerInput(100, parts)
		_, sc, _, err := buildBroker(&in)
		if n == 64 && (err != nil || sc.Brokers != 64) {
			t.Errorf("64 brokers: %v, want a scenario of 64", err)
		}
		if n == 65 && (err == nil || !strings.Contains(err.Error(), "topics.txt names 65 brokers; a scenario holds at most 64")) {
			t.Errorf("65 brokers: %v, want refused", err)
		}
	}
}

// TestBrokerPlanPartitionsMax: a broker of 20000 partitions is planned, one
// of 20001 refused.
func TestBrokerPlanPartitionsMax(t *testing.T) {
	for _, n := range []int{brokerPartitionsMax, brokerPartitionsMax + 1} {
		parts := make([]handPart, n)
		for i := range parts {
			parts[i] = handPart{1, []int32{1}, map[int32]int64{1: 1000}}
		}
		in := handBrokerInput(1, parts)
		err := (&brokerBuilder{in: &in}).partitions()
		if n == brokerPartitionsMax && err != nil {
			t.Errorf("%d partitions: %v", n, err)
		}
		if n > brokerPartitionsMax && (err == nil || !strings.Contains(err.Error(), "holds 20001 partitions; a plan takes at most 20000")) {
			t.Errorf("%d partitions: %v, want refused", n, err)
		}
	}
}

// TestBrokerPlanConfigBounds: segment.bytes in 1024..2^31-1 and a
// throttle rate >= 0 are taken, one past either end refused with the key
// named; a set rate is noted.
func TestBrokerPlanConfigBounds(t *testing.T) {
	for _, c := range []struct {
		blk  *ConfigBlock
		want string // "": taken
	}{
		{configBlock("topic", "t", "segment.bytes", "1024"), ""},
		{configBlock("topic", "t", "segment.bytes", "1023"), "segment.bytes of topic t: expected an integer in 1024..2147483647, got"},
		{configBlock("topic", "t", "segment.bytes", strconv.Itoa(1<<31-1)), ""},
		{configBlock("topic", "t", "segment.bytes", strconv.Itoa(1<<31)), "segment.bytes of topic t: expected an integer in 1024..2147483647, got"},
		{configBlock("broker", "1", "leader.replication.throttled.rate", "0"), ""},
		{configBlock("broker", "1", "leader.replication.throttled.rate", "-1"), "leader.replication.throttled.rate: expected an integer >= 0, got"},
	} {
		in := handBrokerInput(1, []handPart{{2, []int32{2, 1}, map[int32]int64{1: 5000, 2: 5000}}}, c.blk)
		b, _, _, err := buildBroker(&in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v, want taken", c.blk.Entries, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: %v, want an error saying %q", c.blk.Entries, err, c.want)
		case c.want == "" && c.blk.EntityType == "broker" && !slices.Contains(b.notes, "leader.replication.throttled.rate=0 is set on broker 1: the plan throttles, on every broker, the replicas its topics' throttled-replica lists name"):
			t.Errorf("rate 0: notes %q", b.notes)
		}
	}
}

// TestBrokerConfigsTakeTheBrokersOwnBlock: the replaced broker's own
// kafka-configs.sh block decides, a key whose value is null keeps Kafka's
// default; without its block another broker's is taken and said so, never
// the cluster-wide default block (entity ""); with only that, the plan runs
// on Kafka's defaults and says so.
func TestBrokerConfigsTakeTheBrokersOwnBlock(t *testing.T) {
	part := []handPart{{2, []int32{2, 1}, map[int32]int64{1: 5000, 2: 5000}}}
	def := scenarios.DefaultConfig()
	for _, c := range []struct {
		blocks        []*ConfigBlock
		fetchers      int64
		assumeContain string
	}{
		{[]*ConfigBlock{
			configBlock("broker", "", "num.replica.fetchers", "8"),
			configBlock("broker", "3", "num.replica.fetchers", "4"),
			configBlock("broker", "1", "num.replica.fetchers", "2", "replica.fetch.max.bytes", "null"),
		}, 2, ""},
		{[]*ConfigBlock{
			configBlock("broker", "", "num.replica.fetchers", "8"),
			configBlock("broker", "3", "num.replica.fetchers", "4", "replica.fetch.max.bytes", "null"),
		}, 4, "broker 1's configs are not in configs.txt: broker 3's (the replacement runs with its predecessor's configs)"},
		{[]*ConfigBlock{configBlock("broker", "", "num.replica.fetchers", "8")},
			def.NumReplicaFetchers, "broker configs not given: Kafka's defaults"},
	} {
		in := handBrokerInput(1, part, c.blocks...)
		b, _, _, err := buildBroker(&in)
		if err != nil {
			t.Errorf("%d blocks: %v", len(c.blocks), err)
			continue
		}
		said := strings.Join(b.assume, "\n")
		if b.cfg.NumReplicaFetchers != c.fetchers || b.cfg.ReplicaFetchMaxBytes != def.ReplicaFetchMaxBytes ||
			c.assumeContain == "" && (strings.Contains(said, "configs are not in") || strings.Contains(said, "broker configs not given")) ||
			c.assumeContain != "" && !strings.Contains(said, c.assumeContain) {
			t.Errorf("%d blocks: fetchers %d, fetch max %d, assumptions\n%s\nwant fetchers %d, fetch max %d (null keeps the default), assumption %q",
				len(c.blocks), b.cfg.NumReplicaFetchers, b.cfg.ReplicaFetchMaxBytes, said, c.fetchers, def.ReplicaFetchMaxBytes, c.assumeContain)
		}
	}
}

// TestBrokerLeaderlessPartitionCopiesAnEmptyReplica: with no leader listed,
// a partition copies its largest other replica, even an empty one (size 0),
// rather than be refused.
func TestBrokerLeaderlessPartitionCopiesAnEmptyReplica(t *testing.T) {
	in := handBrokerInput(2, []handPart{{-1, []int32{2, 4}, map[int32]int64{2: 5_000, 4: 0}}})
	b, sc, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	if got := localRecords(sc.Partitions[0].Initial); got != 0 || !slices.Contains(b.assume, "t-0 has no leader in topics.txt, or its leader's replica is not in log-dirs.txt: its largest other replica's size") {
		t.Errorf("%d local records, assumptions %q: want 0, the largest other replica's size assumed", got, b.assume)
	}
}

// TestBrokerVariantsRunUnderKafka43: the knob variants run under
// kafka-4.3 when it is among the profiles, wherever it stands, else under
// the first; every profile gets its row, in order, and the variants' first
// row is the configured scenario under that profile.
func TestBrokerVariantsRunUnderKafka43(t *testing.T) {
	for _, c := range []struct {
		profiles []string
		want     string
	}{{[]string{"kip", "kafka-4.3"}, "kafka-4.3"}, {[]string{"kafka-4.3", "kip"}, "kafka-4.3"}, {[]string{"kafka-trunk", "kip"}, "kafka-trunk"}} {
		in := handBrokerInput(2, []handPart{{1, []int32{1, 2}, map[int32]int64{1: 4_000, 2: 4_000}}},
			configBlock("topic", "t", "segment.bytes", "2000", "remote.storage.enable", "true"))
		in.Env.RecordBytes, in.Env.Given[FieldRecordBytes] = 1000, true
		in.SeedFrom, in.SeedTo, in.Workers = 1, 1, 1
		for _, name := range c.profiles {
			in.Profiles = append(in.Profiles, model.Profiles[name])
		}
		r, _, _, err := MakeBroker(in)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, p := range r.Profiles {
			rows = append(rows, p.Name)
		}
		if r.VariantProfile != c.want || !reflect.DeepEqual(rows, c.profiles) {
			t.Errorf("profiles %v: variants under %q, rows %v; want %q", c.profiles, r.VariantProfile, rows, c.want)
		}
	}
}
