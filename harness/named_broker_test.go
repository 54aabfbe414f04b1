package harness

import (
	"slices"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// javaFetcherID is Kafka's AbstractFetcherManager.getFetcherId written out
// for an ASCII topic: Utils.abs(31 * topic.hashCode() + partition) % n, with
// String.hashCode's h = 31*h + c over the characters in wrapping 32-bit
// arithmetic (Utils.abs maps Integer.MIN_VALUE to 0).
func javaFetcherID(topic string, partition int32, n int) int {
	var h int32
	for i := 0; i < len(topic); i++ {
		h = 31*h + int32(topic[i])
	}
	v := 31*h + partition
	switch {
	case v == -1<<31:
		v = 0
	case v < 0:
		v = -v
	}
	return int(v) % n
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// TestFindingFetcherThreadsIdle: the partitions of one topic that one leader
// serves are every 6th partition on 6 brokers (the file's rotation, as in
// Kafka's AdminUtils placement), so Kafka's fetcher id puts them on only
// n/gcd(n, 6) of the n threads per leader. The replaced broker b2 fetches
// partitions i mod 6 = 0 from b0, 1 from b1, and 2 (which it led) from b3,
// the next replica. At the file's num_replica_fetchers 2 each leader's
// partitions share one thread, as at 1: 3 threads in all, and the restore
// takes as long. At 4 they spread over 2 threads per leader: 6 threads, and
// each thread serializes half as many tiered bootstraps, so the restore
// takes at most 0.6 of the time.
func TestFindingFetcherThreadsIdle(t *testing.T) {
	const name = "finding-fetcher-threads-idle"
	sc, ok := scenarios.Lookup(name)
	if !ok || !sc.BrokerScale() {
		t.Fatalf("no broker-scale named scenario %q", name)
	}
	if sc.Config.NumReplicaFetchers != 2 {
		t.Fatalf("the file runs num_replica_fetchers %d, want 2", sc.Config.NumReplicaFetchers)
	}
	leaderOf := map[int32]int{0: 0, 1: 1, 2: 3}
	for _, n := range []int{1, 2, 3, 4, 5, 6, 8} {
		threads := map[[2]int]bool{}
		for p := int32(0); p < 60; p++ {
			if l, held := leaderOf[p%6]; held {
				threads[[2]int{l, javaFetcherID("orders", p, n)}] = true
			}
		}
		if want := 3 * n / gcd(n, 6); len(threads) != want {
			t.Errorf("num_replica_fetchers %d: Kafka's rule uses %d threads, want 3 leaders x %d/gcd(%d, 6) = %d", n, len(threads), n, n, want)
		}
	}
	restored := map[Strategy]map[int64]int64{}
	for _, n := range []int64{1, 2, 4} {
		sc, _ := scenarios.Lookup(name)
		sc.Config.NumReplicaFetchers = n
		for _, st := range Strategies {
			res := Execute(sc, Options{Seed: sc.Seed, Strategy: st, Profile: model.KIP})
			if res.Outcome != OutcomeOK || res.BrokerScale == nil || !res.BrokerScale.RestoredKnown {
				t.Fatalf("%s at num_replica_fetchers %d: outcome %s, broker scale %+v", st, n, res.Outcome, res.BrokerScale)
			}
			want := 3 * int(n) / gcd(int(n), 6)
			if got := len(res.BrokerScale.Threads); got != want {
				t.Errorf("%s at num_replica_fetchers %d: %d threads blocked in bootstraps, want %d", st, n, got, want)
			}
			if restored[st] == nil {
				restored[st] = map[int64]int64{}
			}
			restored[st][n] = int64(res.BrokerScale.Restored)
		}
	}
	for st, r := range restored {
		if d := r[2] - r[1]; d < -r[1]/20 || d > r[1]/20 {
			t.Errorf("%s: restored in %d at 1 thread, %d at 2: want within 5%% (the second thread idles)", st, r[1], r[2])
		}
		if r[4]*10 > r[1]*6 {
			t.Errorf("%s: restored in %d at 1 thread, %d at 4: want at most 0.6x", st, r[1], r[4])
		}
	}
}

// isrShrinks runs the named scenario name, changed by edit, under st and
// kip, and returns the times b0 dropped b1 from partition t-0's ISR.
func isrShrinks(t *testing.T, name string, st Strategy, edit func(*scenarios.Scenario)) []sim.Time {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no named scenario %q", name)
	}
	edit(sc)
	var at []sim.Time
	obs := model.ObserverFunc(func(now sim.Time, e *model.Event) {
		if e.Kind == model.EvISRShrink && e.Part == 0 && e.Broker == 0 && slices.Contains(e.Dropped, 1) {
			at = append(at, now)
		}
	})
	res := Execute(sc, Options{Seed: sc.Seed, Strategy: st, Profile: model.KIP, Observers: []model.Observer{obs}})
	if res.Outcome != OutcomeOK {
		t.Fatalf("%s: outcome %s: %+v", st, res.Outcome, res.Violation)
	}
	return at
}

// TestFindingBootstrapBlocksISR: b1's one fetcher thread for b0 carries the
// in-sync t-0 and the newly added tiered t-1. t-1's bootstrap makes two
// remote reads of 25 s in the thread, from about 1.2 s to 51.2 s; t-0's
// follower last caught up at about 1.2 s, and b0's ISR expiry runs every
// replica.lag.time.max.ms / 2 = 15 s, so the first run that finds it more
// than 30 s behind is at 45 s: b1 leaves t-0's ISR then, under both
// protocols. Reads of 10 s (20 s blocked) stay under the limit, and with
// num_replica_fetchers 2 the partitions are on different threads by
// Kafka's rule (31*'t' + 0 and + 1 have different parities): no shrink.
func TestFindingBootstrapBlocksISR(t *testing.T) {
	const name = "finding-bootstrap-blocks-isr"
	if javaFetcherID("t", 0, 2) == javaFetcherID("t", 1, 2) {
		t.Fatal("t-0 and t-1 share a thread at num_replica_fetchers 2")
	}
	for _, st := range Strategies {
		if at := isrShrinks(t, name, st, func(*scenarios.Scenario) {}); len(at) != 1 || at[0] != sim.Time(45*sim.Second) {
			t.Errorf("%s: t-0 dropped b1 at %v, want once at 45 s", st, at)
		}
		fast := func(sc *scenarios.Scenario) { sc.Config.RemoteFetchMs = [2]int64{10000, 10000} }
		if at := isrShrinks(t, name, st, fast); len(at) != 0 {
			t.Errorf("%s: with 10 s remote reads t-0 dropped b1 at %v, want never", st, at)
		}
		two := func(sc *scenarios.Scenario) { sc.Config.NumReplicaFetchers = 2 }
		if at := isrShrinks(t, name, st, two); len(at) != 0 {
			t.Errorf("%s: with 2 fetcher threads t-0 dropped b1 at %v, want never", st, at)
		}
	}
}
