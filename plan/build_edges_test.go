package plan

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestTopicConfigLimits: retention.ms and retention.bytes take -1
// (unlimited) and refuse -2; the local ones take -2 (as the total) and
// refuse -3; segment.bytes takes Kafka's largest int and refuses one more.
func TestTopicConfigLimits(t *testing.T) {
	for _, c := range []struct {
		key, value string
		refused    string // "": taken
	}{
		{"retention.ms", "-1", ""},
		{"retention.ms", "-2", "retention.ms: expected an integer >= -1, got"},
		{"retention.bytes", "-1", ""},
		{"retention.bytes", "-2", "retention.bytes: expected an integer >= -1, got"},
		{"local.retention.ms", "-2", ""},
		{"local.retention.ms", "-3", "local.retention.ms: expected an integer >= -2, got"},
		{"local.retention.bytes", "-2", ""},
		{"local.retention.bytes", "-3", "local.retention.bytes: expected an integer >= -2, got"},
		{"segment.bytes", strconv.Itoa(math.MaxInt32), ""},
		{"segment.bytes", strconv.Itoa(math.MaxInt32 + 1), "segment.bytes: expected at most 2147483647 (Kafka's int), got 2147483648"},
	} {
		b := &builder{in: &Input{}, f: &Facts{Configs: map[string]ConfigEntry{c.key: {Line: 3, Name: c.key, Value: c.value}}}}
		err := b.topicConfigs()
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s=%s: %v, want taken", c.key, c.value, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s=%s: %v, want refused: %q", c.key, c.value, err, c.refused)
		}
	}
}

// TestOldBrokerWithoutTheFlag: a broker block that lists more than 20
// configs (an --all listing) and not follower.fetch.last.tiered.offset.enable
// is from a release before the flag, and the plan says so; a short block
// (only the configs set) says nothing of it.
func TestOldBrokerWithoutTheFlag(t *testing.T) {
	for _, n := range []int{20, 21} {
		entries := map[string]ConfigEntry{}
		for i := range n {
			k := fmt.Sprintf("some.config.%d", i)
			entries[k] = ConfigEntry{Line: i + 1, Name: k, Value: "1"}
		}
		b := &builder{in: &Input{Configs: &ConfigsFile{Name: "configs.txt"}}, f: &Facts{Broker: entries, BrokerID: "1", BrokerFrom: "configs.txt:9"}}
		if err := b.brokerConfigs(); err != nil {
			t.Fatal(err)
		}
		noted := strings.Contains(strings.Join(b.notes, "\n"), "broker 1 does not list follower.fetch.last.tiered.offset.enable (configs.txt:9): it predates Kafka 4.3.0")
		if noted != (n > 20) {
			t.Errorf("%d configs listed: notes %q", n, b.notes)
		}
	}
}

// TestLargestReplicaTiesToTheFirst: with the leader unknown, the record
// size comes from the largest replica, the first listed among equals.
func TestLargestReplicaTiesToTheFirst(t *testing.T) {
	b := &builder{f: &Facts{Leader: -1, LocalSizes: []Replica{{Broker: 3, Size: 10}, {Broker: 1, Size: 50}, {Broker: 2, Size: 50}}}}
	if r, guessed := b.leaderReplica(); r.Broker != 1 || !guessed {
		t.Errorf("leader unknown: broker %d (guessed %v), want broker 1, the first of the largest", r.Broker, guessed)
	}
}
