package plan

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestBrokerVariantsDoubleWhatFits: the knobs tried are twice and four
// times the fetcher threads up to 64, twice each fetch cap up to 2^31-1 and
// twice each throttle rate set (0 becomes 1, and no rate past half the
// largest); each variant sets the knob it names.
func TestBrokerVariantsDoubleWhatFits(t *testing.T) {
	for _, c := range []struct {
		change func(c *scenarios.Config)
		want   []string
	}{
		{func(c *scenarios.Config) {}, []string{"num.replica.fetchers=2", "num.replica.fetchers=4", "replica.fetch.max.bytes=2097152", "replica.fetch.response.max.bytes=20971520"}},
		{func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 16, 1<<30, 1<<30-1
			c.LeaderReplicationThrottledRate, c.FollowerReplicationThrottledRate = 0, 0
		}, []string{"num.replica.fetchers=32", "num.replica.fetchers=64", "replica.fetch.response.max.bytes=2147483646", "leader.replication.throttled.rate=1", "follower.replication.throttled.rate=1"}},
		{func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.LeaderReplicationThrottledRate, c.FollowerReplicationThrottledRate = 33, math.MaxInt64/2+1, math.MaxInt64/2
		}, []string{"replica.fetch.max.bytes=2097152", "replica.fetch.response.max.bytes=20971520", "follower.replication.throttled.rate=9223372036854775806"}},
		{func(c *scenarios.Config) {
			c.NumReplicaFetchers, c.ReplicaFetchMaxBytes, c.ReplicaFetchResponseMaxBytes = 32, 1<<30-1, 1<<30
			c.LeaderReplicationThrottledRate, c.FollowerReplicationThrottledRate = math.MaxInt64/2, math.MaxInt64/2+1
		}, []string{"num.replica.fetchers=64", "replica.fetch.max.bytes=2147483646", "leader.replication.throttled.rate=9223372036854775806"}},
	} {
		cfg := scenarios.DefaultConfig()
		c.change(&cfg)
		var names []string
		for _, v := range variants(cfg) {
			names = append(names, v.name)
			x := cfg
			v.apply(&x)
			k, want, _ := strings.Cut(v.name, "=")
			got := map[string]int64{"num.replica.fetchers": x.NumReplicaFetchers, "replica.fetch.max.bytes": x.ReplicaFetchMaxBytes,
				"replica.fetch.response.max.bytes": x.ReplicaFetchResponseMaxBytes, "leader.replication.throttled.rate": x.LeaderReplicationThrottledRate,
				"follower.replication.throttled.rate": x.FollowerReplicationThrottledRate}[k]
			if strings.TrimLeft(want, "0123456789") != "" || want != strconv.FormatInt(got, 10) {
				t.Errorf("%s sets %s to %d", v.name, k, got)
			}
		}
		if !reflect.DeepEqual(names, c.want) {
			t.Errorf("variants %q, want %q", names, c.want)
		}
	}
}

// TestBrokerPlanSeedsBounds: no seeds given is seed 1; up to 100 seeds
// are taken (the next error is the missing kafka-topics.sh output), 101 or
// a range backwards refused naming Seeds.
func TestBrokerPlanSeedsBounds(t *testing.T) {
	for _, c := range []struct {
		from, to uint64
		want     string
	}{
		{0, 0, "Topics:"},
		{1, 100, "Topics:"},
		{1, 101, "Seeds: want A..B with A <= B and at most 100 seeds for a broker plan, got 1..101"},
		{0, 150, "Seeds: want A..B with A <= B and at most 100 seeds for a broker plan, got 0..150"},
		{5, 0, "Seeds: want A..B with A <= B and at most 100 seeds for a broker plan, got 5..0"},
	} {
		_, _, _, err := MakeBroker(BrokerInput{SeedFrom: c.from, SeedTo: c.to, Env: DefaultEnv()})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("seeds %d..%d: %v, want %q", c.from, c.to, err, c.want)
		}
	}
}

// TestBrokerResultSourcesAndTiered: the plan's description of the broker
// before the runs: its partitions' sources (the leader, or the next replica
// when the broker leads; itself when it alone holds one), how many are
// tiered, its assumptions and notes kept, and empty lists, not null, when
// there are none.
func TestBrokerResultSourcesAndTiered(t *testing.T) {
	in := handBrokerInput(2, []handPart{
		{3, []int32{1, 2, 3}, map[int32]int64{1: 1000, 2: 1000, 3: 1000}},
		{2, []int32{2, 4}, map[int32]int64{2: 1000, 4: 1000}},
		{2, []int32{2}, map[int32]int64{2: 1000}},
	}, configBlock("topic", "t", "remote.storage.enable", "true"))
	b, sc, _, err := buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	r := b.result(sc, in)
	if !reflect.DeepEqual(r.Sources, []int32{2, 3, 4}) || r.Tiered != 3 || r.Partitions != 3 || !reflect.DeepEqual(r.Assumptions, b.assume) || r.Notes == nil || len(r.Notes) != 0 {
		t.Errorf("sources %v, %d of %d tiered, assumptions %q, notes %#v; want 2,3,4, 3 of 3, the builder's, []", r.Sources, r.Tiered, r.Partitions, r.Assumptions, r.Notes)
	}
	in = handBrokerInput(2, []handPart{{3, []int32{3, 2}, map[int32]int64{2: 1000, 3: 1000}}})
	b, sc, _, err = buildBroker(&in)
	if err != nil {
		t.Fatal(err)
	}
	b.assume = nil
	r = b.result(sc, in)
	if r.Tiered != 0 || len(r.Notes) != 1 || r.Assumptions == nil || len(r.Assumptions) != 0 {
		t.Errorf("%d tiered, notes %q, assumptions %#v; want 0, the untiered note, []", r.Tiered, r.Notes, r.Assumptions)
	}
}

// TestBrokerSideTakesTheLowerMedian: a side's figures are the lower median
// over the seeds, a restore that never came the largest; runs that broke an
// invariant are counted.
func TestBrokerSideTakesTheLowerMedian(t *testing.T) {
	run := func(restored int64, known bool, outcome string) *harness.RunMetrics {
		return &harness.RunMetrics{Outcome: outcome, BrokerScale: &harness.BrokerScaleMetrics{RestoredMs: restored, RestoredKnown: known, FetcherBlockedMs: restored / 10}}
	}
	s := brokerSide([]*harness.RunMetrics{run(300, true, harness.OutcomeOK), run(0, false, harness.OutcomeLiveness), run(100, true, harness.OutcomeOK)})
	if s.RestoredMs == nil || *s.RestoredMs != 300 || s.FetcherBlockedMs != 10 || s.Failed != 1 {
		t.Errorf("side %+v: want restored 300 (of 100, 300, never), blocked 10 (of 0, 10, 30), 1 failed", s)
	}
	s = brokerSide([]*harness.RunMetrics{run(300, true, harness.OutcomeOK), run(0, false, harness.OutcomeOK)})
	if s.RestoredMs == nil || *s.RestoredMs != 300 || s.Failed != 0 {
		t.Errorf("side %+v: want restored 300 (the lower of 300, never), none failed", s)
	}
}

// TestBestVariantShortensTheFlagOnTime: the best variant cuts the flag-on
// time most, ties to the first; none when none cuts it; a base time of 0
// or one never come gives no gain.
func TestBestVariantShortensTheFlagOnTime(t *testing.T) {
	row := func(on *int64) BrokerRow { return BrokerRow{On: BrokerSide{RestoredMs: on}} }
	for _, c := range []struct {
		rows []BrokerRow
		want int
	}{
		{[]BrokerRow{row(ms(1000)), row(ms(1000)), row(ms(1200)), row(nil)}, -1},
		{[]BrokerRow{row(ms(1000)), row(ms(900)), row(ms(800)), row(ms(800))}, 2},
		{[]BrokerRow{row(ms(0)), row(ms(0))}, -1},
	} {
		if got := bestVariant(c.rows); got != c.want {
			t.Errorf("bestVariant(%v) = %d, want %d", c.rows, got, c.want)
		}
	}
	for _, c := range []struct{ base, v *int64 }{{ms(0), ms(5)}, {nil, ms(5)}, {ms(5), nil}} {
		if _, ok := gain(c.base, c.v); ok {
			t.Errorf("gain(%v, %v) ok, want none", c.base, c.v)
		}
	}
	if f, ok := gain(ms(1000), ms(750)); !ok || f != 0.25 {
		t.Errorf("gain(1000, 750) = %v, %v; want 0.25", f, ok)
	}
}
