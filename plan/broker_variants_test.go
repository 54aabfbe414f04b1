package plan

import (
	"math"
	"slices"
	"testing"

	"tierfetch/scenarios"
)

// TestVariantsAtTheirLimits: a broker plan tries twice and four times the
// fetcher threads while they stay at most 64, twice each fetch cap while it
// stays a Java int, and twice each replication throttle the broker sets (an
// unset one, -1, is not tried; 0 becomes 1), while it does not overflow;
// each variant sets the knob it names. (A doubled cap is even, so it never
// equals the largest Java int: its bound is the same with < as with <=.)
func TestVariantsAtTheirLimits(t *testing.T) {
	names := func(c scenarios.Config) []string {
		var out []string
		for _, v := range variants(c) {
			out = append(out, v.name)
		}
		return out
	}
	base := scenarios.DefaultConfig()
	base.NumReplicaFetchers, base.ReplicaFetchMaxBytes, base.ReplicaFetchResponseMaxBytes = 16, 1<<20, 10<<20
	base.LeaderReplicationThrottledRate, base.FollowerReplicationThrottledRate = -1, -1
	for _, c := range []struct {
		name string
		edit func(c *scenarios.Config)
		want []string
	}{
		{"fetchers 16, caps 1 MiB and 10 MiB, no throttle", func(*scenarios.Config) {},
			[]string{"num.replica.fetchers=32", "num.replica.fetchers=64", "replica.fetch.max.bytes=2097152",
				"replica.fetch.response.max.bytes=20971520"}},
		{"fetchers 17: four times is past 64", func(c *scenarios.Config) { c.NumReplicaFetchers = 17 },
			[]string{"num.replica.fetchers=34", "replica.fetch.max.bytes=2097152", "replica.fetch.response.max.bytes=20971520"}},
		{"fetchers 32: twice is 64", func(c *scenarios.Config) { c.NumReplicaFetchers = 32 },
			[]string{"num.replica.fetchers=64", "replica.fetch.max.bytes=2097152", "replica.fetch.response.max.bytes=20971520"}},
		{"fetchers 33 and caps past half a Java int", func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 33, math.MaxInt32/2+1, math.MaxInt32/2+1
		}, nil},
		{"caps at half a Java int, rounded down", func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 33, math.MaxInt32/2, math.MaxInt32/2
		}, []string{"replica.fetch.max.bytes=2147483646", "replica.fetch.response.max.bytes=2147483646"}},
		{"throttles 0 and half the largest", func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 33, math.MaxInt32, math.MaxInt32
			c.LeaderReplicationThrottledRate, c.FollowerReplicationThrottledRate = 0, math.MaxInt64/2
		}, []string{"leader.replication.throttled.rate=1", "follower.replication.throttled.rate=9223372036854775806"}},
		{"throttles half the largest and 0", func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 33, math.MaxInt32, math.MaxInt32
			c.LeaderReplicationThrottledRate, c.FollowerReplicationThrottledRate = math.MaxInt64/2, 0
		}, []string{"leader.replication.throttled.rate=9223372036854775806", "follower.replication.throttled.rate=1"}},
		{"throttles past half the largest", func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 33, math.MaxInt32, math.MaxInt32
			c.LeaderReplicationThrottledRate, c.FollowerReplicationThrottledRate = math.MaxInt64/2+1, 5
		}, []string{"follower.replication.throttled.rate=10"}},
	} {
		cfg := base
		c.edit(&cfg)
		if got := names(cfg); !slices.Equal(got, c.want) {
			t.Errorf("%s: variants %q, want %q", c.name, got, c.want)
		}
	}
	cfg := base
	cfg.LeaderReplicationThrottledRate, cfg.FollowerReplicationThrottledRate = 7, 0
	got := map[string]scenarios.Config{}
	for _, v := range variants(cfg) {
		c := cfg
		v.apply(&c)
		got[v.name] = c
	}
	if c := got["num.replica.fetchers=64"]; c.NumReplicaFetchers != 64 {
		t.Errorf("num.replica.fetchers=64 sets %d", c.NumReplicaFetchers)
	}
	if c := got["replica.fetch.max.bytes=2097152"]; c.ReplicaFetchMaxBytes != 2<<20 {
		t.Errorf("replica.fetch.max.bytes=2097152 sets %d", c.ReplicaFetchMaxBytes)
	}
	if c := got["replica.fetch.response.max.bytes=20971520"]; c.ReplicaFetchResponseMaxBytes != 20<<20 {
		t.Errorf("replica.fetch.response.max.bytes=20971520 sets %d", c.ReplicaFetchResponseMaxBytes)
	}
	if c := got["leader.replication.throttled.rate=14"]; c.LeaderReplicationThrottledRate != 14 {
		t.Errorf("leader.replication.throttled.rate=14 sets %d (variants %q)", c.LeaderReplicationThrottledRate, names(cfg))
	}
	if c := got["follower.replication.throttled.rate=1"]; c.FollowerReplicationThrottledRate != 1 {
		t.Errorf("follower.replication.throttled.rate=1 sets %d", c.FollowerReplicationThrottledRate)
	}
}
