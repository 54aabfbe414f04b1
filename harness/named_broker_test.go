package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
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
