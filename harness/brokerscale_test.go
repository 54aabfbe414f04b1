package harness

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// The "Done when" tests of broker scale, end to end: scenario files
// run by Execute, read from their event streams and results.

// partitionsOf returns entries for partitions 0..n-1 of topic t, each its
// own entry led by b0 alone with the given initial log (a counted entry
// would rotate its replicas over the brokers).
func partitionsOf(n int, initial string) string {
	var b strings.Builder
	for p := range n {
		if p > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"topic": "t", "partition": %d, "replicas": [0], "initial": %s}`, p, initial)
	}
	return b.String()
}

// runWith runs a broker-scale file under kip with the flag on and keeps its
// events.
func runWith(t *testing.T, file string) (*RunResult, []timedEvent) {
	t.Helper()
	sc, err := scenarios.Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckRunnable(sc); err != nil {
		t.Fatal(err)
	}
	var evs []timedEvent
	obs := model.ObserverFunc(func(now sim.Time, e *model.Event) { evs = append(evs, timedEvent{now, *e}) })
	res := Execute(sc, Options{Seed: 1, Strategy: LastTiered, Profile: model.KIP, Observers: []model.Observer{obs}})
	return res, evs
}

// firstOf returns the time of partition p's first event of kind k.
func firstOf(evs []timedEvent, k model.EventKind, p model.PartID) (sim.Time, bool) {
	for _, x := range evs {
		if x.e.Kind == k && x.e.Part == p {
			return x.at, true
		}
	}
	return 0, false
}

// kafkaFetcherID is Kafka's AbstractFetcherManager.getFetcherId written
// out for the one-letter topic "t": abs(31 * "t".hashCode() + partition) %
// n, where a one-character String's hashCode is its character, 't' = 116.
func kafkaFetcherID(partition, n int) int {
	v := 31*int('t') + partition
	if v < 0 {
		v = -v
	}
	return v % n
}

// TestFetcherThreadSerializesAuxReads: two tiered partitions led by b0 get
// an empty replica on b1 at once. With one fetcher thread both are on it:
// t-1's auxiliary-state build starts only after t-0's ended, and the
// thread's blocked time is at least t-0's bootstrap. With two threads,
// which Kafka's rule gives t-0 and t-1, both builds start within the same
// millisecond and no thread blocks another partition.
func TestFetcherThreadSerializesAuxReads(t *testing.T) {
	for p := range 2 {
		for _, n := range []int{1, 2} {
			if got, want := model.FetcherID("t", int32(p), n), kafkaFetcherID(p, n); got != want {
				t.Fatalf("FetcherID(t, %d, %d) = %d, Kafka's rule gives %d", p, n, got, want)
			}
		}
	}
	if kafkaFetcherID(0, 1) != kafkaFetcherID(1, 1) || kafkaFetcherID(0, 2) == kafkaFetcherID(1, 2) {
		t.Fatal("the test needs t-0 and t-1 on one thread of one, apart on two")
	}
	// remote [0..1999], local [1000..3999], HRO 1999: LLSO 1000, EPUO 2000.
	initial := `{"high_watermark": 4000, "highest_remote_offset": 1999,
		"remote_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0, "count": 2}],
		"local_segments": [{"base_offset": 1000, "end_offset": 1999, "epoch": 0, "count": 3}]}`
	file := func(fetchers int) string {
		return `{"brokers": 2, "duration_ms": 20000, "heal_ms": 20000,
		  "config": {"remote_storage_enable": true, "network_latency_ms": [1, 1], "remote_fetch_ms": [100, 100],
		             "num_replica_fetchers": ` + fmt.Sprint(fetchers) + `},
		  "partitions": [` + partitionsOf(2, initial) + `],
		  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}]}`
	}

	res, evs := runWith(t, file(1))
	start0, ok0 := firstOf(evs, model.EvAuxBuildStart, 0)
	end0, ok1 := firstOf(evs, model.EvAuxBuildEnd, 0)
	start1, ok2 := firstOf(evs, model.EvAuxBuildStart, 1)
	if !ok0 || !ok1 || !ok2 || res.Outcome != OutcomeOK {
		t.Fatalf("one thread: %s; builds t-0 %v..%v, t-1 %v", res.Outcome, ok0, ok1, ok2)
	}
	t.Logf("one thread: t-0 built %v..%v, t-1 from %v; blocked %d ms", start0, end0, start1, res.JSON().BrokerScale.FetcherBlockedMs)
	if start1 < end0 {
		t.Fatalf("one thread: t-1's build started at %v, before t-0's ended at %v", start1, end0)
	}
	j := res.JSON()
	if j.BrokerScale == nil || sim.Ms(j.BrokerScale.FetcherBlockedMs) < end0.Sub(start0) {
		t.Fatalf("one thread: broker_scale %+v, want fetcher_blocked_ms >= t-0's build, %v", j.BrokerScale, end0.Sub(start0))
	}

	res, evs = runWith(t, file(2))
	start0, ok0 = firstOf(evs, model.EvAuxBuildStart, 0)
	start1, ok1 = firstOf(evs, model.EvAuxBuildStart, 1)
	if !ok0 || !ok1 || res.Outcome != OutcomeOK {
		t.Fatalf("two threads: %s; builds started %v %v", res.Outcome, ok0, ok1)
	}
	if d := start1.Sub(start0); d < 0 || d >= sim.Millisecond {
		t.Fatalf("two threads: builds started at %v and %v, want within a millisecond", start0, start1)
	}
	if j := res.JSON(); j.BrokerScale.FetcherBlockedMs != 0 {
		t.Fatalf("two threads: fetcher_blocked_ms %d, want 0", j.BrokerScale.FetcherBlockedMs)
	}
}

// TestResponseCapRotates: 20 lagging partitions, 1 MiB per partition and
// 10 MiB per response: b1's first three fetch answers carry records of
// t-0..t-9, t-10..t-19, t-0..t-9, 1024 records of 1 KiB each.
func TestResponseCapRotates(t *testing.T) {
	initial := `{"high_watermark": 4096, "local_segments": [{"base_offset": 0, "end_offset": 4095, "epoch": 0}]}`
	res, evs := runWith(t, `{"brokers": 2, "duration_ms": 20000, "heal_ms": 20000,
	  "config": {"record_bytes": 1024, "segment_bytes": 1073741824, "replica_fetch_max_bytes": 1048576,
	             "replica_fetch_response_max_bytes": 10485760},
	  "partitions": [`+partitionsOf(20, initial)+`],
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}]}`)
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %v", res.Outcome, res.Violation)
	}
	var got [][]int
	for _, x := range evs {
		m := &x.e.Msg
		if x.e.Kind != model.EvDeliver || m.Kind != model.MsgFetchResp || m.To != 1 || m.Part != -1 || len(got) == 3 {
			continue
		}
		var parts []int
		for _, p := range m.Parts {
			var recs int64
			for _, b := range p.Batches {
				recs += b.Count
			}
			if recs == 0 {
				continue
			}
			if recs != 1024 {
				t.Fatalf("t-%d: %d records in one answer, want 1024 (1 MiB of 1 KiB records)", p.Part, recs)
			}
			parts = append(parts, int(p.Part))
		}
		got = append(got, parts)
	}
	span := func(a, b int) []int {
		var s []int
		for p := a; p <= b; p++ {
			s = append(s, p)
		}
		return s
	}
	want := [][]int{span(0, 9), span(10, 19), span(0, 9)}
	if len(got) != 3 || !slices.Equal(got[0], want[0]) || !slices.Equal(got[1], want[1]) || !slices.Equal(got[2], want[2]) {
		t.Fatalf("answers carried records of %v, want %v", got, want)
	}
	// Every added replica caught up; what they copied is 20 x 4 MiB.
	j := res.JSON()
	if len(j.Partitions) != 20 || j.BrokerScale.BytesFromLeaders != 20*4096*1024 || j.BrokerScale.CaughtUpMsP99 == nil {
		t.Fatalf("%d partitions, broker_scale %+v", len(j.Partitions), j.BrokerScale)
	}
}

// TestBrokerScaleResult: a broker-scale run's result object has the documented
// fields: partitions with topic, partition, outcome, leader and followers,
// and broker_scale with its six fields (restored_ms null without a
// replace_broker or reassign); the run's own leader is null and its
// followers empty.
func TestBrokerScaleResult(t *testing.T) {
	res, _ := runWith(t, `{"brokers": 3, "duration_ms": 5000, "heal_ms": 20000,
	  "partitions": [{"topic": "orders", "partition": 4, "count": 3, "replicas": [0, 1],
	                  "initial": {"high_watermark": 100, "local_segments": [{"base_offset": 0, "end_offset": 99, "epoch": 0}]}}],
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 2, "topic": "orders", "partition": 4},
	             {"at_ms": 4000, "type": "elect_leader", "broker": 0}]}`)
	// The election of every partition is refused where b0 leads (orders-4)
	// or holds no replica (orders-5: [1, 2]), each refusal naming its
	// partition; orders-6 ([2, 0]) elects it.
	var reasons []string
	for _, sk := range res.Skipped {
		reasons = append(reasons, sk.Reason)
	}
	if want := []string{"orders-4: b0 is already the leader", "orders-5: b0 is not a replica"}; !slices.Equal(reasons, want) {
		t.Errorf("skipped %q, want %q", reasons, want)
	}
	data, err := json.Marshal(res.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var run map[string]json.RawMessage
	if err := json.Unmarshal(data, &run); err != nil {
		t.Fatal(err)
	}
	if string(run["leader"]) != "null" || string(run["followers"]) != "[]" {
		t.Errorf("run leader %s, followers %s; want null and []", run["leader"], run["followers"])
	}
	var parts []map[string]json.RawMessage
	if err := json.Unmarshal(run["partitions"], &parts); err != nil || len(parts) != 3 {
		t.Fatalf("partitions %s: %v", run["partitions"], err)
	}
	for i, p := range parts {
		for _, k := range []string{"topic", "partition", "outcome", "leader", "followers"} {
			if _, ok := p[k]; !ok {
				t.Errorf("partitions[%d] lacks %q: %v", i, k, p)
			}
		}
		if string(p["topic"]) != `"orders"` || string(p["partition"]) != fmt.Sprint(4+i) || string(p["outcome"]) != `"ok"` {
			t.Errorf("partitions[%d] = %s %s %s", i, p["topic"], p["partition"], p["outcome"])
		}
	}
	// Only orders-4 was given a replica on b2 (orders-4's replicas are
	// [0, 1]: the first of the entry).
	var f4, f5 []FollowerJSON
	_ = json.Unmarshal(parts[0]["followers"], &f4)
	_ = json.Unmarshal(parts[1]["followers"], &f5)
	if len(f4) != 1 || f4[0].Broker != 2 || f4[0].CaughtUpMs == nil || len(f5) != 0 {
		t.Errorf("followers of orders-4 %+v, orders-5 %+v", f4, f5)
	}
	var bs map[string]json.RawMessage
	if err := json.Unmarshal(run["broker_scale"], &bs); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"restored_ms", "caught_up_ms_p50", "caught_up_ms_p99", "bytes_from_leaders", "bytes_from_remote", "fetcher_blocked_ms"} {
		if _, ok := bs[k]; !ok {
			t.Errorf("broker_scale lacks %q: %s", k, run["broker_scale"])
		}
	}
	if string(bs["restored_ms"]) != "null" || string(bs["caught_up_ms_p50"]) != fmt.Sprint(*f4[0].CaughtUpMs) {
		t.Errorf("broker_scale %s: want restored_ms null, p50 orders-4's %d", run["broker_scale"], *f4[0].CaughtUpMs)
	}
}

// TestReplaceBroker: replace_broker b1 of two tiered partitions it follows
// re-adds both replicas empty; both bootstrap and rejoin their ISR, and
// restored_ms is the later of their catch-up times (both counted from the
// replace). A one-partition file takes the event too.
func TestReplaceBroker(t *testing.T) {
	initial := `{"high_watermark": 4000, "highest_remote_offset": 1999,
		"remote_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0, "count": 2}],
		"local_segments": [{"base_offset": 1000, "end_offset": 1999, "epoch": 0, "count": 3}]}`
	entries := strings.ReplaceAll(partitionsOf(2, initial), `"replicas": [0]`, `"replicas": [0, 1]`)
	res, evs := runWith(t, `{"brokers": 2, "duration_ms": 20000, "heal_ms": 20000,
	  "config": {"remote_storage_enable": true, "network_latency_ms": [1, 1], "remote_fetch_ms": [100, 100]},
	  "partitions": [`+entries+`],
	  "events": [{"at_ms": 1000, "type": "replace_broker", "broker": 1}]}`)
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, res.Violation)
	}
	j := res.JSON()
	var last int64
	for _, p := range j.Partitions {
		if len(p.Followers) != 1 || p.Followers[0].Broker != 1 || p.Followers[0].CaughtUpMs == nil ||
			p.Followers[0].Bootstrap.AuxStateBuilds != 1 {
			t.Fatalf("t-%d followers %+v, want b1 re-added, bootstrapped and caught up", p.Partition, p.Followers)
		}
		last = max(last, *p.Followers[0].CaughtUpMs)
	}
	if b := j.BrokerScale; b.RestoredMs == nil || *b.RestoredMs != last || *b.CaughtUpMsP99 != last {
		t.Fatalf("broker_scale %+v, want restored_ms = p99 = %d", j.BrokerScale, last)
	}
	if n := len(slices.DeleteFunc(slices.Clone(evs), func(x timedEvent) bool { return x.e.Kind != model.EvReplaceBroker })); n != 1 {
		t.Fatalf("%d replace-broker events, want one for the fleet", n)
	}

	one, _ := runWith(t, `{"brokers": 2, "replicas": [0, 1], "duration_ms": 5000, "heal_ms": 20000,
	  "initial": {"high_watermark": 100, "local_segments": [{"base_offset": 0, "end_offset": 99, "epoch": 0}]},
	  "events": [{"at_ms": 1000, "type": "replace_broker", "broker": 1}]}`)
	if f := one.JSON().Followers; one.Outcome != OutcomeOK || len(f) != 1 || f[0].CaughtUpMs == nil || f[0].BytesFromLeader == 0 {
		t.Fatalf("one partition: %s, followers %+v", one.Outcome, f)
	}
}
