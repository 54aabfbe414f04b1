package plan

import (
	"errors"
	"strings"
	"testing"
	"tierfetch/model"

	"tierfetch/config"
)

// gatherInput is a plan's input of offsets files for a-0, a-1 and b-0
// (earliest 0, latest 100), topic and partition as chosen.
func gatherInput(topic string, partition int32) *Input {
	answers := map[TopicPartition]OffsetAnswer{}
	for i, tp := range []TopicPartition{{"a", 0}, {"a", 1}, {"b", 0}} {
		answers[tp] = OffsetAnswer{Line: i + 1, Offset: 100}
	}
	early := map[TopicPartition]OffsetAnswer{}
	for tp, a := range answers {
		early[tp] = OffsetAnswer{Line: a.Line, Offset: 0}
	}
	return &Input{Topic: topic, Partition: partition, Offsets: []*OffsetsFile{
		{Name: "earliest.txt", Time: TimeEarliest, Answers: early},
		{Name: "latest.txt", Time: TimeLatest, Answers: answers},
	}}
}

// TestGatherChoosesThePartition: a topic and a partition choose one; a
// topic alone chooses its only partition; partition 0 is a choice, not
// "any"; what chooses several or none is refused naming the field to set.
func TestGatherChoosesThePartition(t *testing.T) {
	for _, c := range []struct {
		topic     string
		partition int32
		want      string // the partition chosen, or the field refused and its text
	}{
		{"a", 1, "a-1"},
		{"b", -1, "b-0"},
		{"a", 0, "a-0"},
		{"", -1, "Topic: the offsets files hold a-0, a-1, b-0: choose one with Topic and Partition"},
		{"", 0, "Topic: the offsets files hold a-0, b-0: choose one with Topic and Partition"},
		{"", 1, "a-1"},
		{"a", -1, "Partition: the offsets files hold a-0, a-1: choose one with Topic and Partition"},
		{"a", 5, "Partition: no such partition in the offsets files (they hold a-0, a-1, b-0)"},
		{"c", 0, "Topic: no such partition in the offsets files (they hold a-0, a-1, b-0)"},
	} {
		f, err := gather(gatherInput(c.topic, c.partition))
		var got string
		var ce *config.Error
		switch {
		case err == nil:
			got = f.TP.String()
		case errors.As(err, &ce):
			got = ce.Field + ": " + strings.TrimPrefix(err.Error(), ce.Field+": ")
		default:
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("topic %q partition %d: %q, want %q", c.topic, c.partition, got, c.want)
		}
	}
	// Files of one topic: no topic given, several partitions is the
	// partition to choose.
	in := gatherInput("", -1)
	for _, of := range in.Offsets {
		delete(of.Answers, TopicPartition{"b", 0})
	}
	var ce *config.Error
	if _, err := gather(in); !errors.As(err, &ce) || ce.Field != "Partition" {
		t.Errorf("one topic, two partitions, no choice: %v, want the partition to choose", err)
	}
}

// TestGatherTakesTheLeadersBrokerConfigs: the leader's broker block holds
// the broker configs (broker 0 is a leader like any other); without it, the
// first other broker's, never the cluster defaults' (entity ""); the topics
// file's topic-line configs stand in for a configs file's topic block only
// when there is none.
func TestGatherTakesTheLeadersBrokerConfigs(t *testing.T) {
	topics := func(leader int32) *TopicsFile {
		return &TopicsFile{Name: "topics.txt", Topics: map[string]*TopicInfo{"a": {Line: 1, Configs: map[string]string{"retention.ms": "5"},
			Partitions: map[int32]PartitionInfo{1: {Line: 2, Leader: leader, Replicas: []int32{leader}, ISR: []int32{leader}}}}}}
	}
	configs := func(brokers ...string) *ConfigsFile {
		cf := &ConfigsFile{Name: "configs.txt", Blocks: []*ConfigBlock{{Line: 1, EntityType: "topic", Entity: "a", Entries: map[string]ConfigEntry{"segment.bytes": {Line: 2, Name: "segment.bytes", Value: "1024"}}}}}
		for i, id := range brokers {
			cf.Blocks = append(cf.Blocks, &ConfigBlock{Line: 10 * (i + 1), EntityType: "broker", Entity: id, Entries: map[string]ConfigEntry{}})
		}
		return cf
	}
	for _, c := range []struct {
		name   string
		leader int32
		cf     *ConfigsFile
		tf     bool
		want   string // BrokerID, BrokerFrom
	}{
		{"the leader's", 0, configs("", "3", "0"), true, "0 configs.txt:30"},
		{"another broker's", 2, configs("", "3", "0"), true, "3 configs.txt:20"},
		{"leader unknown", 2, configs("", "3", "0"), false, "3 configs.txt:20"},
		{"only defaults", 2, configs(""), true, " "},
	} {
		in := gatherInput("a", 1)
		in.Configs = c.cf
		if c.tf {
			in.Topics = topics(c.leader)
		}
		f, err := gather(in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := f.BrokerID + " " + f.BrokerFrom; got != c.want || f.Configs["segment.bytes"].Value != "1024" || f.Configs["retention.ms"].Value != "" {
			t.Errorf("%s: broker %q, topic configs %v: want broker %q and the configs file's topic block only", c.name, got, f.Configs, c.want)
		}
	}
	in := gatherInput("a", 1)
	in.Topics = topics(2)
	f, err := gather(in)
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Configs["retention.ms"]; e.Value != "5" || e.Source != "DYNAMIC_TOPIC_CONFIG" || e.Line != 1 {
		t.Errorf("no configs file: the topic line's configs %v, want retention.ms=5 from the topic line", f.Configs)
	}
	if o := offsetOf(in.Offsets[0], TopicPartition{"c", 0}); o != (Offset{Value: -1}) {
		t.Errorf("a partition the file does not hold: %+v, want no offset (-1), unknown, from no line", o)
	}
}

// TestPlanSeedsAndNewBroker: no seeds given is the default range, a range
// from seed 0 is taken as given; the new replica is the scenario's last
// broker; more than 10,000 seeds are refused before any tool output is
// read, 10,000 are not.
func TestPlanSeedsAndNewBroker(t *testing.T) {
	values := map[Time]int64{TimeEarliest: 1000, TimeEarliestLocal: 1000, TimeLatestTiered: -1, TimeLatest: 6000}
	for _, c := range []struct{ from, to, wantFrom, wantTo uint64 }{{0, 0, DefaultSeedFrom, DefaultSeedTo}, {0, 1, 0, 1}} {
		in := smallInput(t, values, map[string]string{"remote.storage.enable": "false"})
		in.SeedFrom, in.SeedTo, in.Profiles = c.from, c.to, []model.Profile{model.KIP}
		r, _, _, err := Make(in)
		if err != nil {
			t.Fatal(err)
		}
		if s := r.Scenario; s.SeedFrom != c.wantFrom || s.SeedTo != c.wantTo || s.NewBroker != s.Brokers-1 || s.Runs != 2*int(c.wantTo-c.wantFrom+1) {
			t.Errorf("seeds %d..%d: plan ran %d..%d (%d runs), new broker b%d of %d", c.from, c.to, s.SeedFrom, s.SeedTo, s.Runs, s.NewBroker, s.Brokers)
		}
	}
	for _, c := range []struct {
		from, to uint64
		refused  bool
	}{{1, 10_000, false}, {1, 10_001, true}, {5_000, 5_001, false}} {
		_, _, _, err := Make(Input{SeedFrom: c.from, SeedTo: c.to, Env: DefaultEnv()}) // no offsets: refused after the seeds
		var ie *InputError
		if !errors.As(err, &ie) || (ie.Field == "Seeds") != c.refused {
			t.Errorf("seeds %d..%d: %v, want the seeds refused %v", c.from, c.to, err, c.refused)
		}
	}
}
