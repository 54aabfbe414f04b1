package harness

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestBrokerScaleStatsFold: the broker-scale statistics a run reports are
// what its events say, folded by hand here: the replaced brokers once each
// in event order, bytes by source broker ascending, each thread's blocked
// time (sorted by follower, leader, fetcher) and each partition's, a block
// still open at the end counted to the end without closing it for good, and
// the restore time from the first move to the last catch-up.
func TestBrokerScaleStatsFold(t *testing.T) {
	v := newBrokerScaleView(&scenarios.Scenario{Brokers: 3}, 3)
	at := func(ms int64) sim.Time { return sim.Time(ms * int64(sim.Millisecond)) }
	ev := func(k model.EventKind, broker, peer, fetcher int, part model.PartID) *model.Event {
		e := model.NewEvent(k, broker)
		e.Peer, e.Fetcher, e.Part = peer, int16(fetcher), part
		return &e
	}
	fetched := func(peer int, bytes int64) *model.Event {
		e := ev(model.EvFetched, 2, peer, 0, 0)
		e.Bytes = bytes
		return e
	}
	v.Event(at(1000), ev(model.EvReplaceBroker, 2, 0, 0, -1))
	v.Event(at(1500), ev(model.EvReplaceBroker, 2, 0, 0, -1)) // the same broker again
	v.Event(at(1600), ev(model.EvReplaceBroker, 1, 0, 0, -1))
	v.Event(at(1700), ev(model.EvReassignStart, 0, 0, 0, -1)) // a later move
	v.fromLeader(fetched(1, 10))
	v.fromLeader(fetched(0, 5))
	v.fromLeader(fetched(1, 7))
	v.Event(at(2000), ev(model.EvThreadBlocked, 2, 1, 1, 2))
	v.Event(at(2100), ev(model.EvThreadBlocked, 2, 1, 0, 0))
	v.Event(at(2150), ev(model.EvThreadBlocked, 2, 0, 0, -1))  // no partition: the thread only
	v.Event(at(2250), ev(model.EvThreadBlocked, 0, 2, 3, 3))   // a partition past the list: the thread only
	v.Event(at(2300), ev(model.EvThreadUnblocked, 2, 1, 1, 2)) // 300 ms of t-2
	v.Event(at(2600), ev(model.EvThreadUnblocked, 2, 1, 0, 0)) // 500 ms of t-0
	v.Event(at(2650), ev(model.EvThreadUnblocked, 2, 0, 0, -1))
	v.Event(at(2650), ev(model.EvThreadUnblocked, 0, 2, 3, 3))
	v.Event(at(2700), ev(model.EvThreadUnblocked, 9, 9, 9, 0)) // no such block: nothing
	v.Event(at(2800), ev(model.EvThreadBlocked, 2, 1, 1, 2))   // again, open at the end
	v.Event(at(2850), ev(model.EvThreadBlocked, 1, 0, 0, 1))   // open at the end

	views := []*runView{
		{replicas: []ReplicaStats{{}, {}, {Added: true, AddedAt: at(1000), CaughtUp: true, CaughtUpAt: at(4000), BytesFromLeader: 12, RemoteAuxBytes: 3}}},
		{replicas: []ReplicaStats{{Added: true, AddedAt: at(500), CaughtUp: true, CaughtUpAt: at(900), BytesFromLeader: 5}, {}, {}}},
		{replicas: []ReplicaStats{{}, {Added: true, AddedAt: at(1600), CaughtUp: true, CaughtUpAt: at(6000), BytesFromLeader: 5, RemoteAuxBytes: 4}, {}}},
	}
	want := &BrokerScaleStats{
		Restored: at(6000).Sub(at(1000)), RestoredKnown: true,
		CaughtUp:         []sim.Duration{400 * sim.Millisecond, 3000 * sim.Millisecond, 4400 * sim.Millisecond},
		BytesFromLeaders: 22, BytesFromRemote: 7,
		// (2, 1, 1) and (1, 0, 0) are still blocked at the end, 3000 ms:
		// 200 ms and 150 ms.
		FetcherBlocked: (300 + 500 + 500 + 400 + 200 + 150) * sim.Millisecond,
		Replaced:       []int{2, 1},
		Sources:        []SourceBytes{{Broker: 0, Bytes: 5}, {Broker: 1, Bytes: 17}},
		// Closed in the order (2, 1, 1), (2, 1, 0), (2, 0, 0), (0, 2, 3), then
		// (2, 1, 1) again and (1, 0, 0) at the end.
		Threads: []ThreadBlocked{
			{Follower: 0, Leader: 2, Fetcher: 3, Blocked: 400 * sim.Millisecond},
			{Follower: 1, Leader: 0, Fetcher: 0, Blocked: 150 * sim.Millisecond},
			{Follower: 2, Leader: 0, Fetcher: 0, Blocked: 500 * sim.Millisecond},
			{Follower: 2, Leader: 1, Fetcher: 0, Blocked: 500 * sim.Millisecond},
			{Follower: 2, Leader: 1, Fetcher: 1, Blocked: 500 * sim.Millisecond},
		},
		PartBlocked: []sim.Duration{500 * sim.Millisecond, 150 * sim.Millisecond, 500 * sim.Millisecond},
	}
	got := v.stats(at(3000), views)
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("stats at 3000 ms (-want +got):\n%s", d)
	}
	// The end's close was on a copy: the block is still open, and a later
	// end counts it further.
	if again := v.stats(at(3000), views); !cmp.Equal(want, again) {
		t.Fatalf("stats changed the view: a second call gives %+v", again)
	}
	v.Event(at(3500), ev(model.EvThreadUnblocked, 1, 0, 0, 1))
	got = v.stats(at(9000), views)
	if got.Threads[1].Blocked != 650*sim.Millisecond || got.PartBlocked[1] != 650*sim.Millisecond ||
		got.Threads[4].Blocked != 6500*sim.Millisecond || got.PartBlocked[2] != 6500*sim.Millisecond ||
		got.FetcherBlocked != (400+650+500+500+6500)*sim.Millisecond {
		t.Fatalf("after the unblock at 3500 ms, at 9000 ms: threads %+v, parts %v, blocked %v", got.Threads, got.PartBlocked, got.FetcherBlocked)
	}

	// A replica that never caught up leaves the restore unknown and counts;
	// one that caught up before the first move restores at 0, not below.
	views[2].replicas[1].CaughtUp = false
	got = v.stats(at(9000), views)
	if got.RestoredKnown || got.NeverCaughtUp != 1 || len(got.CaughtUp) != 2 {
		t.Fatalf("one never caught up: restored %v known %v, never %d, caught up %v", got.Restored, got.RestoredKnown, got.NeverCaughtUp, got.CaughtUp)
	}
	early := newBrokerScaleView(&scenarios.Scenario{Brokers: 3}, 1)
	early.Event(at(2000), ev(model.EvReplaceBroker, 2, 0, 0, -1))
	got = early.stats(at(9000), views[1:2])
	if !got.RestoredKnown || got.Restored != 0 {
		t.Fatalf("caught up before the move: restored %v known %v, want 0", got.Restored, got.RestoredKnown)
	}
	// No replace_broker or reassign: no restore time at all.
	none := newBrokerScaleView(&scenarios.Scenario{Brokers: 3}, 1)
	if got = none.stats(at(9000), views[1:2]); got.RestoredKnown {
		t.Fatalf("no move: restored %v known", got.Restored)
	}
}

// TestBrokerScaleFetchRequests: a broker-scale run's fetch requests are its
// fetcher threads' (a fleet's fetch carries every partition of its thread),
// counted for the brokers that got added replicas, each broker once.
func TestBrokerScaleFetchRequests(t *testing.T) {
	v := newBrokerScaleView(&scenarios.Scenario{Brokers: 4}, 2)
	send := func(from int, k model.MsgKind, part model.PartID, n int) {
		for range n {
			e := model.NewEvent(model.EvSend, from)
			e.Msg.Kind, e.Msg.From, e.Part = k, from, part
			v.Event(0, &e)
		}
	}
	send(2, model.MsgFetch, -1, 3)
	send(1, model.MsgFetch, -1, 2)
	send(3, model.MsgFetch, -1, 5)     // a broker without added replicas
	send(2, model.MsgFetch, 0, 1)      // a partition's own: its view counts it
	send(2, model.MsgFetchResp, -1, 7) // an answer
	added := ReplicaStats{Added: true, CaughtUp: true}
	views := []*runView{
		{replicas: []ReplicaStats{{}, {}, added, {}}},
		{replicas: []ReplicaStats{{}, added, added, {}}},
	}
	if got := v.stats(0, views).FetchRequests; got != 5 {
		t.Fatalf("fetch requests %d, want 5: b2's 3 and b1's 2 thread fetches", got)
	}
}

// TestBrokerScaleQuantile: nearest rank over every added replica, those
// that never caught up ranked last.
func TestBrokerScaleQuantile(t *testing.T) {
	s := &BrokerScaleStats{CaughtUp: []sim.Duration{10, 20, 30}, NeverCaughtUp: 1}
	for _, c := range []struct {
		q    float64
		want sim.Duration
		ok   bool
	}{{0, 10, true}, {0.25, 10, true}, {0.26, 20, true}, {0.5, 20, true}, {0.75, 30, true}, {0.76, 0, false}, {1, 0, false}} {
		if d, ok := s.Quantile(c.q); d != c.want || ok != c.ok {
			t.Errorf("Quantile(%v) = %v, %v; want %v, %v", c.q, d, ok, c.want, c.ok)
		}
	}
	if _, ok := (&BrokerScaleStats{}).Quantile(0.5); ok {
		t.Error("Quantile of no replicas is ok")
	}
	all := &BrokerScaleStats{CaughtUp: []sim.Duration{5, 7}}
	if d, ok := all.Quantile(1); d != 7 || !ok {
		t.Errorf("Quantile(1) of all caught up = %v, %v; want 7", d, ok)
	}
	if !slices.IsSorted(s.CaughtUp) {
		t.Fatal("fixture unsorted")
	}
}

// TestProduceChunksStayOnTheirPartitions: a produce spread over time in a
// broker-scale file appends every one of its batches to the partitions it
// names, from its first batch to its last: one partition, a whole topic, or
// the first event of the file.
func TestProduceChunksStayOnTheirPartitions(t *testing.T) {
	initial := `{"high_watermark": 100, "local_segments": [{"base_offset": 0, "end_offset": 99, "epoch": 0}]}`
	for _, c := range []struct {
		name    string
		produce string
		want    []int64 // each partition's leader's high watermark at the end
	}{
		{"one partition", `"topic": "t", "partition": 1`, []int64{100, 1100, 100}},
		{"the last partition", `"topic": "t", "partition": 2`, []int64{100, 100, 1100}},
		{"the whole topic", `"topic": "t"`, []int64{1100, 1100, 1100}},
	} {
		res, _ := runWith(t, `{"brokers": 2, "duration_ms": 5000, "heal_ms": 5000,
		  "partitions": [`+strings.ReplaceAll(partitionsOf(3, initial), `"replicas": [0]`, `"replicas": [0, 1]`)+`],
		  "events": [{"at_ms": 100, "type": "produce", "records": 1000, "over_ms": 1000, `+c.produce+`}]}`)
		if res.Outcome != OutcomeOK {
			t.Fatalf("%s: outcome %s: %+v", c.name, res.Outcome, res.Violation)
		}
		j := res.JSON()
		var got []int64
		for _, p := range j.Partitions {
			got = append(got, p.Leader.HighWatermark)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: high watermarks %v, want %v", c.name, got, c.want)
		}
	}
}
