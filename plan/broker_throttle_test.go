package plan

import (
	"strconv"
	"strings"
	"testing"
)

// TestBrokerPlanReadsThrottles: the broker's throttled rates and its
// topics' throttled-replica lists, as kafka-configs.sh prints them, reach
// the scenario: the rate as the broker config, each partition's list with
// only its own pairs ("*" for all), and a rate at Kafka's default
// (Long.MAX_VALUE) is no throttle; the knob variants try twice the rate
// set. A list Kafka could not parse is refused
// naming the file and the key.
func TestBrokerPlanReadsThrottles(t *testing.T) {
	in := brokerInput(t)
	blk := in.Configs.Block("broker", "2")
	orders := in.Configs.Block("topic", "orders")
	if blk == nil || orders == nil {
		t.Fatal("testdata: no configs for broker 2 or topic orders")
	}
	blk.Entries["follower.replication.throttled.rate"] = ConfigEntry{Name: "follower.replication.throttled.rate", Value: "1048576"}
	blk.Entries["leader.replication.throttled.rate"] = ConfigEntry{Name: "leader.replication.throttled.rate", Value: "9223372036854775807"}
	orders.Entries["follower.replication.throttled.replicas"] = ConfigEntry{Name: "follower.replication.throttled.replicas", Value: "0:2,1:2,0:3"}
	orders.Entries["leader.replication.throttled.replicas"] = ConfigEntry{Name: "leader.replication.throttled.replicas", Value: "*"}
	b, sc, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Config.FollowerReplicationThrottledRate != 1048576 || sc.Config.LeaderReplicationThrottledRate != -1 {
		t.Errorf("rates: follower %d, leader %d; want 1048576 and -1 (unlimited)", sc.Config.FollowerReplicationThrottledRate, sc.Config.LeaderReplicationThrottledRate)
	}
	want := map[int32]string{0: "0:" + strconv.Itoa(b.index(2)) + ",0:" + strconv.Itoa(b.index(3)), 1: "1:" + strconv.Itoa(b.index(2))}
	seen := 0
	for _, p := range sc.Partitions {
		var f, l string
		if p.Config.FollowerReplicationThrottledReplicas != nil {
			f = *p.Config.FollowerReplicationThrottledReplicas
		}
		if p.Config.LeaderReplicationThrottledReplicas != nil {
			l = *p.Config.LeaderReplicationThrottledReplicas
		}
		if p.Topic != "orders" {
			if f != "" || l != "" {
				t.Errorf("%s-%d: lists %q %q, want none", p.Topic, p.Partition, l, f)
			}
			continue
		}
		seen++
		if f != want[p.Partition] || l != "*" {
			t.Errorf("orders-%d: follower list %q, leader list %q; want %q and *", p.Partition, f, l, want[p.Partition])
		}
	}
	if seen == 0 {
		t.Fatal("no orders partition on broker 2")
	}
	// The plan tries twice the follower rate, and no leader rate (none set).
	var names []string
	for _, v := range variants(sc.Config) {
		names = append(names, v.name)
	}
	if got := strings.Join(names, " "); !strings.Contains(got, "follower.replication.throttled.rate=2097152") || strings.Contains(got, "leader.replication") {
		t.Errorf("variants %s: want follower.replication.throttled.rate=2097152 and no leader rate", got)
	}

	in = brokerInput(t)
	in.Configs.Block("topic", "orders").Entries["leader.replication.throttled.replicas"] = ConfigEntry{Name: "leader.replication.throttled.replicas", Value: "0:x", Line: 7}
	if _, _, _, err := buildBroker(&in); err == nil || !strings.Contains(err.Error(), "configs.txt") || !strings.Contains(err.Error(), "leader.replication.throttled.replicas of topic orders") {
		t.Errorf("a bad list: %v", err)
	}
}
