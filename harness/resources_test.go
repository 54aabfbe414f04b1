package harness

import (
	"fmt"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// limited returns the shared resources of brokers brokers with the given
// network and disk rates (-1: unlimited) and remote concurrency.
func limited(t *testing.T, brokers int, net, disk, remote int64) *resources {
	t.Helper()
	cfg := scenarios.DefaultConfig()
	cfg.BrokerNetworkBytesPerSec, cfg.BrokerDiskBytesPerSec, cfg.RemoteFetchConcurrency = net, disk, remote
	s := newResources(&cfg, brokers)
	if s == nil {
		t.Fatal("newResources: nil for limited resources")
	}
	return s
}

// TestTransferRate: a transfer of N bytes through a resource of R bytes/s
// takes N/R; through several limited ones, as long as the slowest; the
// sender's replication link counts as one of them.
func TestTransferRate(t *testing.T) {
	const mib = 1 << 20
	s := limited(t, 3, 10*mib, 5*mib, -1)
	// A fetch request: 64 bytes, no records, so the disk is not used.
	start, end := s.transfer(0, 0, 0, 1, 0, 64, 0)
	if want := sim.Duration(64 * int64(sim.Second) / (10 * mib)); start != 0 || end.Sub(start) != want {
		t.Errorf("64 bytes at 10 MiB/s: %v..%v, want %v long", start, end, want)
	}
	// 10 MiB of records: the disk (5 MiB/s) is the slowest: 2 s.
	s = limited(t, 3, 10*mib, 5*mib, -1)
	start, end = s.transfer(0, 0, 0, 0, 1, 10*mib+64, 10*mib)
	if end.Sub(start) != 2*sim.Second {
		t.Errorf("10 MiB through a 5 MiB/s disk: %v long, want 2s", end.Sub(start))
	}
	// The network was busy for its own share only: 10 MiB + 64 at 10 MiB/s.
	if want := busyFor(10*mib+64, 10*mib); s.netOut[0] != sim.Time(want) || s.netIn[1] != sim.Time(want) {
		t.Errorf("network free at %v (out) %v (in), want %v", s.netOut[0], s.netIn[1], want)
	}
	// A slower replication link (1 MiB/s for 1 MiB) sets the time.
	s = limited(t, 3, 10*mib, -1, -1)
	start, end = s.transfer(0, 0, sim.Second, 0, 1, mib, mib)
	if end.Sub(start) != sim.Second {
		t.Errorf("1 MiB over a 1 MiB/s link: %v long, want 1s", end.Sub(start))
	}
}

// TestTransferFIFO: transfers through a shared resource go one after
// another, in the order they were scheduled: two leaders sending to one
// follower share its inbound network, while a transfer elsewhere does not
// wait.
func TestTransferFIFO(t *testing.T) {
	const mib = 1 << 20
	s := limited(t, 4, mib, -1, -1)
	_, e1 := s.transfer(0, 0, 0, 0, 3, mib, 0)
	s2, e2 := s.transfer(0, 0, 0, 1, 3, mib, 0)
	s3, e3 := s.transfer(0, 0, 0, 2, 1, mib, 0)
	if e1 != sim.Time(sim.Second) || s2 != e1 || e2 != sim.Time(2*sim.Second) {
		t.Errorf("into b3: first ends %v, second %v..%v; want 1s, then 1s..2s", e1, s2, e2)
	}
	if s3 != 0 || e3 != sim.Time(sim.Second) {
		t.Errorf("b2 to b1: %v..%v, want 0..1s (b1's inbound network is free)", s3, e3)
	}
	// A transfer scheduled later, while the resource is busy, waits too.
	s4, _ := s.transfer(sim.Time(sim.Second/2), 0, 0, 0, 1, mib, 0)
	if s4 != sim.Time(sim.Second) {
		t.Errorf("b0 to b1 at 0.5s: starts %v, want 1s (b0's outbound and b1's inbound busy until then)", s4)
	}
}

// TestRemoteGateFIFO: a broker's remote reads beyond the limit wait, and
// start oldest first as reads complete; uploads never wait.
func TestRemoteGateFIFO(t *testing.T) {
	s := limited(t, 2, -1, -1, 1)
	read := func(id uint64) model.RemoteOp {
		return model.RemoteOp{ID: id, Broker: 1, Kind: model.RemoteReadAux}
	}
	upload := model.RemoteOp{ID: 9, Broker: 1, Kind: model.RemoteUpload}
	if !s.admit(ptr(read(1))) || s.admit(ptr(read(2))) || s.admit(ptr(read(3))) || s.gated(&upload) {
		t.Fatal("with a limit of 1: the first read starts, the next two wait, an upload is not gated")
	}
	if o := read(1); !s.gated(&o) {
		t.Fatal("a read is gated")
	}
	for _, want := range []uint64{2, 3} {
		next, ok := s.release(1)
		if !ok || next.ID != want {
			t.Fatalf("release: %v %v, want read %d", next.ID, ok, want)
		}
	}
	if _, ok := s.release(1); ok || s.remoteBusy[1] != 0 {
		t.Fatalf("after the last read: %d in flight", s.remoteBusy[1])
	}
}

func ptr[T any](v T) *T { return &v }

// TestUnlimitedResourcesUnused: with every resource at its default (-1) the
// run has no resources at all and schedules as before (the golden digests,
// run --all and the default report hold it end to end).
func TestUnlimitedResourcesUnused(t *testing.T) {
	cfg := scenarios.DefaultConfig()
	if s := newResources(&cfg, 3); s != nil {
		t.Fatalf("defaults: %+v, want none", s)
	}
}

// TestRemoteConcurrencyDelaysBootstrap: two tiered partitions led by b0, on
// two fetcher threads of b1 (Kafka's rule puts t-0 and t-1 apart on two),
// bootstrap at once; each auxiliary-state build reads remote storage twice,
// 100 ms a read. With remote_fetch_concurrency 10 the two builds read side
// by side and each takes two reads, 200 ms; with 1 the four reads go one
// at a time, so the builds end 300 ms and 400 ms after they started.
func TestRemoteConcurrencyDelaysBootstrap(t *testing.T) {
	if kafkaFetcherID(0, 2) == kafkaFetcherID(1, 2) {
		t.Fatal("the test needs t-0 and t-1 on two threads")
	}
	initial := `{"high_watermark": 4000, "highest_remote_offset": 1999,
		"remote_segments": [{"base_offset": 0, "end_offset": 999, "epoch": 0, "count": 2}],
		"local_segments": [{"base_offset": 1000, "end_offset": 1999, "epoch": 0, "count": 3}]}`
	const read = 100 * sim.Millisecond
	for _, c := range []struct {
		limit      int
		end0, end1 sim.Duration // after the first build started
	}{
		{10, 2 * read, 2 * read},
		{1, 3 * read, 4 * read},
	} {
		res, evs := runWith(t, `{"brokers": 2, "duration_ms": 20000, "heal_ms": 20000,
		  "config": {"remote_storage_enable": true, "network_latency_ms": [1, 1], "remote_fetch_ms": [100, 100],
		             "num_replica_fetchers": 2, "remote_fetch_concurrency": `+fmt.Sprint(c.limit)+`},
		  "partitions": [`+partitionsOf(2, initial)+`],
		  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}]}`)
		s0, ok0 := firstOf(evs, model.EvAuxBuildStart, 0)
		s1, ok1 := firstOf(evs, model.EvAuxBuildStart, 1)
		e0, ok2 := firstOf(evs, model.EvAuxBuildEnd, 0)
		e1, ok3 := firstOf(evs, model.EvAuxBuildEnd, 1)
		if !ok0 || !ok1 || !ok2 || !ok3 || res.Outcome != OutcomeOK {
			t.Fatalf("limit %d: %s, builds seen %v %v %v %v", c.limit, res.Outcome, ok0, ok1, ok2, ok3)
		}
		first := min(s0, s1)
		got0, got1 := min(e0, e1).Sub(first), max(e0, e1).Sub(first)
		t.Logf("limit %d: builds %v..%v and %v..%v", c.limit, s0, e0, s1, e1)
		if s1.Sub(s0) >= sim.Millisecond || s0.Sub(s1) >= sim.Millisecond {
			t.Fatalf("limit %d: builds started at %v and %v, want within a millisecond", c.limit, s0, s1)
		}
		if slack := sim.Millisecond; got0 < c.end0 || got0 > c.end0+slack || got1 < c.end1 || got1 > c.end1+slack {
			t.Errorf("limit %d: builds ended %v and %v after the first started, want %v and %v", c.limit, got0, got1, c.end0, c.end1)
		}
	}
}

// TestThrottledReplicaCatchesUpAtTheRate: b1 is added empty to t-0 (40 MiB,
// out of the ISR) while it follows t-1 in sync, which is produced to at
// 1,024,000 bytes/s; both are throttled ("*") at 4 MiB/s on one side. The
// in-sync t-1's bytes count toward the quota too (Kafka records them,
// ReplicaFetcherThread.scala:142-145, KafkaApis.scala:979-983), so the
// out-of-ISR replica copies at about the rate less t-1's: it joins the ISR
// after about 40 MiB / (4 MiB/s - 1,024,000 B/s) = 13.2 s (give or take a
// second of the quota's window and of replica.fetch.backoff.ms or
// replica.fetch.wait.max.ms), against well under a second unthrottled at
// 100 MiB/s. The in-sync t-1 is never left out of a fetch request and
// never answered without records: only t-0 is throttled, by the follower
// leaving it out of its fetch session or by the leader answering it empty.
func TestThrottledReplicaCatchesUpAtTheRate(t *testing.T) {
	const mib, rate = 1 << 20, 4 << 20
	size := int64(40 * mib)
	initial := `{"high_watermark": 40960, "local_segments": [{"base_offset": 0, "end_offset": 40959, "epoch": 0}]}`
	file := func(config string) string {
		return `{"brokers": 2, "duration_ms": 30000, "heal_ms": 30000,
		  "config": {"record_bytes": 1024, "segment_bytes": 1073741824, "network_latency_ms": [1, 1]` + config + `},
		  "partitions": [{"topic": "t", "partition": 0, "replicas": [0], "initial": ` + initial + `},
		                 {"topic": "t", "partition": 1, "replicas": [0, 1]}],
		  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1, "topic": "t", "partition": 0},
		             {"at_ms": 0, "type": "produce", "records": 20000, "over_ms": 20000, "topic": "t", "partition": 1}]}`
	}
	joined := func(evs []timedEvent) sim.Time {
		for _, x := range evs {
			if x.e.Kind == model.EvISRJoin && x.e.Part == 0 && x.e.Broker == 1 {
				return x.at
			}
		}
		t.Fatal("t-0's b1 never joined the ISR")
		return 0
	}
	res, evs := runWith(t, file(""))
	free := joined(evs)
	if res.Outcome != OutcomeOK || free > sim.Time(sim.Second) {
		t.Fatalf("unthrottled: %s, joined at %v, want under 1s", res.Outcome, free)
	}
	const produced = 20000 * 1024 / 20 // t-1's bytes/s
	want := sim.Duration(size * int64(sim.Second) / (rate - produced))
	for _, side := range []string{"leader", "follower"} {
		res, evs := runWith(t, file(fmt.Sprintf(`, "%s_replication_throttled_rate": %d, "%[1]s_replication_throttled_replicas": "*"`, side, rate)))
		at := joined(evs)
		t.Logf("%s throttled: t-0's b1 joined at %v (unthrottled %v, want about %d ms)", side, at, free, want/sim.Millisecond)
		if res.Outcome != OutcomeOK || at < sim.Time(want-1500*sim.Millisecond) || at > sim.Time(want+2*sim.Second) {
			t.Errorf("%s throttled: %s, joined at %v, want about %d ms", side, res.Outcome, at, want/sim.Millisecond)
		}
		var left, asked, empty int
		var in [2]bool // the thread's fetch session as b0 holds it
		for _, x := range evs {
			m := &x.e.Msg
			if x.e.Kind != model.EvDeliver || m.Part != -1 || x.at > at {
				continue
			}
			switch {
			case m.Kind == model.MsgFetch && m.To == 0:
				if m.Full {
					in = [2]bool{}
				}
				for _, p := range m.Parts {
					in[p.Part] = true
				}
				for _, p := range m.Forget {
					in[p] = false
				}
				if !in[1] {
					t.Fatalf("%s throttled: b1's fetch at %v leaves out the in-sync t-1", side, x.at)
				}
				if !in[0] {
					left++
				}
				asked++
			case m.Kind == model.MsgFetchResp && m.To == 1:
				// In a fetch session a partition with nothing new is left
				// out of the answer: t-0, lagging in the session, answered
				// without records is one the leader throttled.
				got0 := false
				for _, p := range m.Parts {
					got0 = got0 || p.Part == 0 && len(p.Batches) != 0
					if p.Part == 1 && len(p.Batches) == 0 && p.Err == model.ErrNone && p.FetchOffset < p.HighWatermark {
						t.Fatalf("%s throttled: the in-sync t-1 answered at %v with no records at %d, below the high watermark %d", side, x.at, p.FetchOffset, p.HighWatermark)
					}
				}
				if in[0] && !got0 {
					empty++
				}
			}
		}
		if side == "follower" && (left == 0 || empty != 0) || side == "leader" && empty == 0 {
			t.Errorf("%s throttled: %d of %d fetches left out t-0, %d answers gave it no records while it lagged", side, left, asked, empty)
		}
	}
}
