package reports

import (
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

func i64(v int64) *int64 { return &v }

// brokerFile parses a small broker-scale file: partitions entries and
// events as JSON fragments, config as extra keys.
func brokerFile(t *testing.T, config, partitions, events string) *scenarios.Scenario {
	t.Helper()
	init := `"initial": {"high_watermark": 2048, "highest_remote_offset": 1023,
     "remote_segments": [{"base_offset": 0, "end_offset": 1023, "epoch": 0}],
     "local_segments": [{"base_offset": 1024, "end_offset": 2047, "epoch": 0}]}`
	js := `{"name": "bs", "seed": 1, "brokers": 4, "config": {"segment_bytes": 1048576, "record_bytes": 1024` + config + `},
 "partitions": [` + strings.ReplaceAll(partitions, "INIT", init) + `],
 "events": [` + events + `], "duration_ms": 2000, "heal_ms": 60000}`
	sc, err := scenarios.Parse([]byte(js))
	if err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	return sc
}

func follower(broker int, caught *int64, bytes int64, path string, start int64, retries map[string]int) harness.FollowerJSON {
	n := 0
	for _, v := range retries {
		n += v
	}
	return harness.FollowerJSON{Broker: broker, CaughtUpMs: caught, BytesFromLeader: bytes,
		Bootstrap: harness.BootstrapJSON{Path: path, StartOffset: start, Retries: n, RetriesByReason: retries}}
}

// TestBrokerScaleSummary: the broker-scale run report a user reads, for a
// replace_broker file run by two strategies: the partitions named by
// entry, what moved and over how many threads, the limits, per strategy
// the partitions not ok, when the broker was back (or how many replicas
// never joined), the percentiles, the bytes by source, the three most
// blocked threads and the three slowest partitions (never first), and the
// ratio line.
func TestBrokerScaleSummary(t *testing.T) {
	sc := brokerFile(t, `, "num_replica_fetchers": 2, "broker_network_bytes_per_sec": 1048576`,
		`{"topic": "t", "partition": 0, "count": 3, "replicas": [0, 1], INIT}, {"topic": "u", "partition": 5, "count": 1, "replicas": [2, 1], INIT}`,
		`{"at_ms": 1500, "type": "replace_broker", "broker": 1}`)
	ms := sim.Millisecond
	res := harness.Result{Scenario: "bs", Seed: 7, Profile: "kafka", Runs: []harness.RunJSON{{
		Strategy: "local-log-start", Outcome: "ok", Steps: 120, SimMs: 62000, Digest: "d1",
		Violation: &harness.ViolationJSON{Invariant: "no-loss", AtMs: 1750, Step: 42, Message: "lost 3"},
		Partitions: []harness.PartitionJSON{
			{Topic: "t", Partition: 0, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 0},
				Followers: []harness.FollowerJSON{follower(1, i64(1200), 2048, "local-log-start", 0, nil)}},
			{Topic: "t", Partition: 1, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 0},
				Followers: []harness.FollowerJSON{follower(1, i64(15000), 3<<20, "last-tiered", 1024, map[string]int{"offset_moved": 1, "epoch": 2})}},
			{Topic: "t", Partition: 2, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 2},
				Followers: []harness.FollowerJSON{follower(1, i64(900), 100, "local-log-start", 5, nil)}},
			{Topic: "u", Partition: 5, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 2},
				Followers: []harness.FollowerJSON{follower(1, i64(9000), 512, "local-log-start", 7, nil)}},
		},
		BrokerScale: &harness.BrokerScaleJSON{RestoredMs: i64(15000), CaughtUpMsP50: i64(1200), CaughtUpMsP99: i64(15000),
			BytesFromLeaders: 4 << 20, BytesFromRemote: 512, FetcherBlockedMs: 2500},
	}, {
		Strategy: "last-tiered", Outcome: "ok", Steps: 90, SimMs: 1000, Digest: "d2",
		Skipped: []harness.SkippedJSON{{AtMs: 1500, Type: "crash", Reason: "already down"}},
		Partitions: []harness.PartitionJSON{
			{Topic: "t", Partition: 0, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 0},
				Followers: []harness.FollowerJSON{follower(1, i64(300), 10, "last-tiered", 1024, nil)}},
			{Topic: "t", Partition: 1, Outcome: "offline", Leader: nil,
				Followers: []harness.FollowerJSON{follower(1, nil, 0, "none", 0, nil)}},
			{Topic: "t", Partition: 2, Outcome: "stuck", Leader: &harness.LeaderJSON{Broker: 2},
				Followers: []harness.FollowerJSON{follower(1, nil, 0, "last-tiered", 1024, nil)}},
			{Topic: "u", Partition: 5, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 2},
				Followers: []harness.FollowerJSON{follower(1, i64(200), 20, "last-tiered", 1024, nil)}},
		},
		BrokerScale: &harness.BrokerScaleJSON{CaughtUpMsP50: i64(300), BytesFromLeaders: 30, BytesFromRemote: 2 << 30, FetcherBlockedMs: 0},
	}}}
	runs := []*harness.RunResult{{BrokerScale: &harness.BrokerScaleStats{
		Replaced: []int{1},
		Sources:  []harness.SourceBytes{{Broker: 0, Bytes: 3 << 20}, {Broker: 2, Bytes: 1 << 20}},
		Threads: []harness.ThreadBlocked{{Follower: 1, Leader: 0, Fetcher: 0, Blocked: 100 * ms},
			{Follower: 1, Leader: 0, Fetcher: 1, Blocked: 1500 * ms}, {Follower: 1, Leader: 2, Fetcher: 0, Blocked: 700 * ms},
			{Follower: 1, Leader: 2, Fetcher: 1, Blocked: 200 * ms}},
		PartBlocked: []sim.Duration{0, 1500 * ms, 0},
	}}, {BrokerScale: &harness.BrokerScaleStats{Replaced: []int{1}}}}
	var b strings.Builder
	BrokerScaleSummary(&b, res, runs, sc)
	want := `scenario bs  seed 7  profile kafka  4 partitions (t-0..2, u-5) on 4 brokers
  replace_broker b1 at 1500 ms: 4 replicas re-added, fetching from b0 2, b2 2 (num_replica_fetchers 2: 3 threads)
  limits: network 1.00 MiB/s a broker each way
  local-log-start  ok                 steps=120 sim=62.0s (2 s + 60 s healed) digest=d1
    violation no-loss at 1.750s step 42: lost 3
    b1 restored in 15.0 s; caught up p50 1200 ms, p99 15.0 s
    from leaders 4.00 MiB (b0 3.00 MiB, b2 1.00 MiB); from remote storage 512 B
    fetcher threads blocked in tiered bootstraps 2500 ms (b1<-b0#1 1500 ms, b1<-b2#0 700 ms, b1<-b2#1 200 ms, 1 more)
    slowest: t-1 b1 15.0 s: last-tiered from 1024, 3.00 MiB, 3 retries (epoch 2, offset_moved 1), its bootstraps blocked its thread 1500 ms
             u-5 b1 9000 ms: local-log-start from 7, 512 B, no retries
             t-0 b1 1200 ms: local-log-start from 0, 2.0 KiB, no retries, its bootstraps blocked its thread 0 ms
  last-tiered      ok                 steps=90 sim=1.0s (stopped early; of 2 s + 60 s healed) digest=d2
    partitions: 1 offline, 2 ok, 1 stuck
    b1 NOT restored: 2 of 4 re-added replicas never joined their ISR; caught up p50 300 ms, p99 never
    from leaders 30 B; from remote storage 2.00 GiB
    fetcher threads blocked in tiered bootstraps 0 ms
    slowest: t-1 b1 never: none from 0, 0 B, no retries
             t-2 b1 never: last-tiered from 1024, 0 B, no retries
             t-0 b1 300 ms: last-tiered from 1024, 10 B, no retries
    skipped crash at 1.500s: already down
  last-tiered / local-log-start: restored n/a, p99 n/a, from leaders 0.00x, blocked 0.00x
`
	if got := b.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

// TestBrokerScaleSummaryOneRun: a file of more than three entries is named
// by topic with its count, in the file's order; without replace_broker
// the replicas were added; without stats the broker is "the broker"; all
// partitions ok says nothing of them; one strategy has no ratio line, and
// a result without runs only its header.
func TestBrokerScaleSummaryOneRun(t *testing.T) {
	sc := brokerFile(t, "",
		`{"topic": "orders", "partition": 0, "count": 3, "replicas": [0, 1], INIT}, {"topic": "audit", "partition": 0, "count": 1, "replicas": [0, 1], INIT},
 {"topic": "orders", "partition": 10, "count": 2, "replicas": [0, 1], INIT}, {"topic": "metrics", "partition": 1, "count": 1, "replicas": [0, 1], INIT}`,
		`{"at_ms": 0, "type": "reassign", "topic": "orders", "partitions": [0], "replicas": [2, 1]}`)
	res := harness.Result{Scenario: "bs2", Seed: 1, Profile: "p", Runs: []harness.RunJSON{{
		Strategy: "last-tiered", Outcome: "ok", Steps: 5, SimMs: 62000, Digest: "d",
		Partitions: []harness.PartitionJSON{{Topic: "orders", Partition: 0, Outcome: "ok", Leader: &harness.LeaderJSON{Broker: 1},
			Followers: []harness.FollowerJSON{follower(2, i64(10000), 1024, "last-tiered", 1024, nil)}}},
		BrokerScale: &harness.BrokerScaleJSON{RestoredMs: i64(9999), CaughtUpMsP50: i64(9999), CaughtUpMsP99: i64(10000), BytesFromLeaders: 1024},
	}}}
	var b strings.Builder
	BrokerScaleSummary(&b, res, nil, sc)
	want := `scenario bs2  seed 1  profile p  7 partitions (orders 5, audit 1, metrics 1) on 4 brokers
  1 replicas added, fetching from b1 1 (num_replica_fetchers 1: 1 threads)
  last-tiered      ok                 steps=5 sim=62.0s (2 s + 60 s healed) digest=d
    the broker restored in 9999 ms; caught up p50 9999 ms, p99 10.0 s
    from leaders 1.0 KiB; from remote storage 0 B
    fetcher threads blocked in tiered bootstraps 0 ms
    slowest: orders-0 b2 10.0 s: last-tiered from 1024, 1.0 KiB, no retries
`
	if got := b.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	res.Runs = nil
	b.Reset()
	BrokerScaleSummary(&b, res, nil, sc)
	if got, want := b.String(), "scenario bs2  seed 1  profile p  7 partitions (orders 5, audit 1, metrics 1) on 4 brokers\n"; got != want {
		t.Errorf("no runs: %q, want %q", got, want)
	}
}

// TestPartitionRanges: up to three entries are named each with its range,
// more by topic with its count, in the file's order.
func TestPartitionRanges(t *testing.T) {
	e := func(topic string, p int32, n int64) scenarios.PartitionSpec {
		return scenarios.PartitionSpec{Topic: topic, Partition: p, Count: n}
	}
	for _, c := range []struct {
		entries []scenarios.PartitionSpec
		want    string
	}{
		{[]scenarios.PartitionSpec{e("t", 0, 1)}, "t-0"},
		{[]scenarios.PartitionSpec{e("t", 4, 3), e("u", 0, 1), e("t", 9, 2)}, "t-4..6, u-0, t-9..10"},
		{[]scenarios.PartitionSpec{e("t", 4, 3), e("u", 0, 1), e("t", 9, 2), e("a", 0, 5)}, "t 5, u 1, a 5"},
	} {
		if got := partitionRanges(&scenarios.Scenario{Partitions: c.entries}); got != c.want {
			t.Errorf("%+v: %q, want %q", c.entries, got, c.want)
		}
	}
}

// TestMovedLine: without a leader at the end nothing is named as a
// source (the partition is offline), only the replicas added.
func TestMovedLine(t *testing.T) {
	r := &harness.RunJSON{Partitions: []harness.PartitionJSON{{Topic: "t", Followers: []harness.FollowerJSON{{Broker: 1}, {Broker: 2}}}}}
	if got, want := movedLine(r, &scenarios.Scenario{}), "2 replicas added"; got != want {
		t.Errorf("moved %q, want %q", got, want)
	}
}

// TestRestoredText: who was restored (the replaced brokers, the reassigned
// replicas, the broker when nothing says), and no broker replaced when
// neither happened.
func TestRestoredText(t *testing.T) {
	r := &harness.RunJSON{BrokerScale: &harness.BrokerScaleJSON{RestoredMs: i64(20)}}
	for _, c := range []struct {
		st   *harness.BrokerScaleStats
		want string
	}{
		{nil, "the broker restored in 20 ms"},
		{&harness.BrokerScaleStats{}, "the reassigned replicas restored in 20 ms"},
		{&harness.BrokerScaleStats{Replaced: []int{3, 1}}, "b3, b1 restored in 20 ms"},
	} {
		if got := restoredText(r, c.st); got != c.want {
			t.Errorf("stats %+v: %q, want %q", c.st, got, c.want)
		}
	}
	r.BrokerScale.RestoredMs = nil
	if got, want := restoredText(r, &harness.BrokerScaleStats{}), "no broker replaced"; got != want {
		t.Errorf("nothing replaced: %q, want %q", got, want)
	}
	if got, want := restoredText(r, nil), "the broker NOT restored: 0 of 0 re-added replicas never joined their ISR"; got != want {
		t.Errorf("no stats, never restored: %q, want %q", got, want)
	}
	r.Partitions = []harness.PartitionJSON{{Followers: []harness.FollowerJSON{{CaughtUpMs: i64(5)}, {}}}, {Followers: []harness.FollowerJSON{{CaughtUpMs: i64(7)}}}}
	if got, want := restoredText(r, &harness.BrokerScaleStats{Replaced: []int{2}}), "b2 NOT restored: 1 of 3 re-added replicas never joined their ISR"; got != want {
		t.Errorf("one of three never joined: %q, want %q", got, want)
	}
}

// TestBrokerRatio: v/u, 1.00x for two zeros and n/a for a zero u or a
// missing time; no line without both runs' stats.
func TestBrokerRatio(t *testing.T) {
	for _, c := range []struct {
		v, u float64
		want string
	}{{3, 4, "0.75x"}, {0, 0, "1.00x"}, {5, 0, "n/a"}, {0, 5, "0.00x"}} {
		if got := brokerRatio(c.v, c.u); got != c.want {
			t.Errorf("brokerRatio(%v, %v) = %q, want %q", c.v, c.u, got, c.want)
		}
	}
	a := &harness.RunJSON{Strategy: "a", BrokerScale: &harness.BrokerScaleJSON{RestoredMs: i64(200), CaughtUpMsP99: i64(100), BytesFromLeaders: 8, FetcherBlockedMs: 4}}
	b := &harness.RunJSON{Strategy: "b", BrokerScale: &harness.BrokerScaleJSON{RestoredMs: i64(100), CaughtUpMsP99: i64(300), BytesFromLeaders: 2, FetcherBlockedMs: 6}}
	if got, want := brokerRatioLine(a, b), "b / a: restored 0.50x, p99 3.00x, from leaders 0.25x, blocked 1.50x"; got != want {
		t.Errorf("ratio line %q, want %q", got, want)
	}
	if got := brokerRatioLine(a, &harness.RunJSON{}); got != "" {
		t.Errorf("ratio line without stats %q, want empty", got)
	}
	if got := brokerRatioLine(&harness.RunJSON{}, b); got != "" {
		t.Errorf("ratio line without stats %q, want empty", got)
	}
}
