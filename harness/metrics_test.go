package harness

import (
	"testing"
	"tierfetch/scenarios"
)

// TestMeasureMatchesResultObject: the comparison's numbers are the result
// object's numbers, and the sampled ones are what the scenario shows.
func TestMeasureMatchesResultObject(t *testing.T) {
	sc, _ := scenarios.Lookup("omts-local-deleted")
	want := map[Strategy]struct {
		llso     int64
		fraction float64
	}{LocalLogStart: {3000, 0.7}, LastTiered: {9000, 0.7}}
	for _, seed := range []uint64{1, 2} {
		for _, st := range Strategies {
			m, res := Measure(sc, Options{Seed: seed, Strategy: st})
			f := res.JSON().Followers[0]
			if m.Follower != f.Broker || !m.CaughtUp || m.CatchUpMs != *f.CaughtUpMs || m.BytesFromLeader != f.BytesFromLeader ||
				m.Path != f.Bootstrap.Path || m.ListOffsets != f.Bootstrap.ListOffsets || m.RemoteAuxBytes != f.Bootstrap.RemoteAuxBytes {
				t.Errorf("seed %d %s: metrics %+v disagree with the result object %+v", seed, st, m, f)
			}
			if m.LLSOAtJoin != want[st].llso || m.LocalBytesAtJoin <= 0 {
				t.Errorf("seed %d %s: LLSO at join %d (local bytes %d), want %d", seed, st, m.LLSOAtJoin, m.LocalBytesAtJoin, want[st].llso)
			}
			if !m.LocalFractionKnown || m.LocalFractionAtAdd != want[st].fraction {
				t.Errorf("seed %d %s: leader local fraction %v (known %v), want %v", seed, st, m.LocalFractionAtAdd, m.LocalFractionKnown, want[st].fraction)
			}
			var sum int64
			for _, n := range res.EgressBytes {
				sum += n
			}
			if m.LeaderEgressBytes != res.EgressBytes[0] || m.EgressBytes != sum || m.LeaderEgressBytes < m.BytesFromLeader {
				t.Errorf("seed %d %s: egress %d of %d, from leader %d", seed, st, m.LeaderEgressBytes, m.EgressBytes, m.BytesFromLeader)
			}
			if m.RedundancyKnown {
				t.Errorf("seed %d %s: redundancy measured without a crash", seed, st)
			}
		}
	}
}

// TestPriceIsTheConsumeOfTheScenario: tiered-follower-becomes-leader makes
// the new follower leader and reads from 0; the price computed at the end
// is what that read cost.
func TestPriceIsTheConsumeOfTheScenario(t *testing.T) {
	sc, _ := scenarios.Lookup("tiered-follower-becomes-leader")
	for _, st := range Strategies {
		m, res := Measure(sc, Options{Seed: 1, Strategy: st})
		c := res.Consumes[0]
		if !m.PriceKnown || m.PriceRemoteBytes != c.RemoteBytes || m.PriceLocalBytes != c.LocalBytes || m.ConsumeRemoteBytes != c.RemoteBytes {
			t.Errorf("%s: price remote %d local %d, consume read remote %d local %d", st, m.PriceRemoteBytes, m.PriceLocalBytes, c.RemoteBytes, c.LocalBytes)
		}
		// 3 MB segments, remote_fetch_ms [20, 200]: a 110 ms mean a segment.
		wantMs := float64((m.PriceRemoteBytes+sc.Config.SegmentBytes-1)/sc.Config.SegmentBytes) * 110
		if m.PriceExtraLatencyMs != wantMs {
			t.Errorf("%s: extra latency %v ms, want %v", st, m.PriceExtraLatencyMs, wantMs)
		}
	}
	lls, _ := Measure(sc, Options{Seed: 1, Strategy: LocalLogStart})
	lt, _ := Measure(sc, Options{Seed: 1, Strategy: LastTiered})
	if lls.PriceRemoteBytes != 3000*1024 || lt.PriceRemoteBytes != 9000*1024 {
		t.Errorf("price remote bytes %d and %d, want 3000 and 9000 records", lls.PriceRemoteBytes, lt.PriceRemoteBytes)
	}
}

// TestRetriesAndStall: leader-hro-unknown makes KIP-1023 retry on an
// unknown EPUO, 30 times, 1 s each.
func TestRetriesAndStall(t *testing.T) {
	sc, _ := scenarios.Lookup("leader-hro-unknown")
	m, _ := Measure(sc, Options{Seed: 1, Strategy: LastTiered})
	if m.Retries != 30 || m.RetriesByReason[0] != 30 || m.StalledMs != 30_000 || m.BackoffMs != 1000 {
		t.Errorf("retries %d (by reason %v), stalled %d ms; want 30 epuo-unknown, 30000 ms", m.Retries, m.RetriesByReason, m.StalledMs)
	}
}

// TestRedundancyRestored measures from the crash to the ISR whole again.
func TestRedundancyRestored(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "replicas": [0, 1, 2], "duration_ms": 20000, "heal_ms": 40000,
	  "events": [{"at_ms": 0, "type": "produce", "records": 1000, "over_ms": 10000},
	             {"at_ms": 2000, "type": "crash", "broker": 2},
	             {"at_ms": 6000, "type": "restart", "broker": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, res := Measure(sc, Options{Seed: 1, Strategy: LastTiered})
	if res.Outcome != OutcomeOK || !m.RedundancyKnown || m.RedundancyMs < 4000 || m.RedundancyMs > 10_000 {
		t.Errorf("outcome %s, redundancy %d ms (known %v): want 4 s to 10 s after the crash", res.Outcome, m.RedundancyMs, m.RedundancyKnown)
	}
	var rejoin int64 = -1
	for _, ch := range res.ISRChanges {
		if ch.At.Ms() > 2000 && len(ch.ISR) == 3 && rejoin < 0 {
			rejoin = ch.At.Ms() - 2000
		}
	}
	if rejoin != m.RedundancyMs {
		t.Errorf("redundancy %d ms, the ISR history says %d ms", m.RedundancyMs, rejoin)
	}
	if m.Follower != -1 || m.CaughtUp {
		t.Errorf("no add_replica, yet follower %d", m.Follower)
	}
}

// TestMetricsOfALogThatStartsAbove0: for a leader whose log starts above 0,
// the metrics measure from its log start: the log's bytes and its local
// share when the replica is added, and the price from the log start; and
// they follow the first replica added, broker 0 too.
func TestMetricsOfALogThatStartsAbove0(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 4, "replicas": [1, 2], "duration_ms": 60000, "heal_ms": 60000,
	  "config": {"segment_bytes": 1024000, "record_bytes": 1024, "remote_storage_enable": true},
	  "initial": {"log_start_offset": 1000, "high_watermark": 5000, "highest_remote_offset": 2999,
	    "remote_segments": [{"base_offset": 1000, "end_offset": 1999, "epoch": 0}, {"base_offset": 2000, "end_offset": 2999, "epoch": 0}],
	    "local_segments": [{"base_offset": 2000, "end_offset": 2999, "epoch": 0}, {"base_offset": 3000, "end_offset": 3999, "epoch": 0},
	      {"base_offset": 4000, "end_offset": 4999, "epoch": 0}]},
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 0}, {"at_ms": 10, "type": "add_replica", "broker": 3}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range Strategies {
		m, res := Measure(sc, Options{Seed: 1, Strategy: st})
		if m.Follower != 0 || !m.CaughtUp || m.Path == "" {
			t.Errorf("%s: follower %d (caught up %v, path %q), want b0, the first added", st, m.Follower, m.CaughtUp, m.Path)
		}
		if !m.LocalFractionKnown || m.LogBytesAtAdd != 4000*1024 || m.LocalFractionAtAdd != 3000.0/4000 {
			t.Errorf("%s: at the add, log bytes %d, local fraction %v (known %v), want %d and 0.75", st, m.LogBytesAtAdd, m.LocalFractionAtAdd, m.LocalFractionKnown, 4000*1024)
		}
		l, b := res.Cluster.Leader(), res.Cluster.Brokers[0]
		wantRemote := (min(b.Log.LocalLogStart, l.Log.HighWatermark) - l.Log.LogStart) * 1024
		wantLocal := (l.Log.HighWatermark - max(b.Log.LocalLogStart, l.Log.LogStart)) * 1024
		if l.Log.LogStart != 1000 || !m.PriceKnown || m.PriceRemoteBytes != wantRemote || m.PriceLocalBytes != wantLocal {
			t.Errorf("%s: price remote %d local %d, want %d and %d (log start %d, b0's local log start %d, HW %d)", st,
				m.PriceRemoteBytes, m.PriceLocalBytes, wantRemote, wantLocal, l.Log.LogStart, b.Log.LocalLogStart, l.Log.HighWatermark)
		}
	}
}

// TestPriceCountsAPartSegmentAsARead: the price's added latency is the
// mean remote fetch time for every segment the remote part of the read
// touches, a part segment too: a log starting inside its first remote
// segment (deleteRecords) leaves 500 or 1500 records' worth of remote
// bytes for the new replica to price, one or two segment reads.
func TestPriceCountsAPartSegmentAsARead(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "replicas": [1], "duration_ms": 60000, "heal_ms": 60000,
	  "config": {"segment_bytes": 1024000, "record_bytes": 1024, "remote_storage_enable": true, "remote_fetch_ms": [10, 30]},
	  "initial": {"log_start_offset": 1500, "high_watermark": 5000, "highest_remote_offset": 2999,
	    "remote_segments": [{"base_offset": 1000, "end_offset": 1999, "epoch": 0}, {"base_offset": 2000, "end_offset": 2999, "epoch": 0}],
	    "local_segments": [{"base_offset": 2000, "end_offset": 2999, "epoch": 0}, {"base_offset": 3000, "end_offset": 3999, "epoch": 0},
	      {"base_offset": 4000, "end_offset": 4999, "epoch": 0}]},
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 2}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range Strategies {
		m, res := Measure(sc, Options{Seed: 1, Strategy: st})
		b := res.Cluster.Brokers[2]
		remote := (b.Log.LocalLogStart - 1500) * 1024
		reads := (remote + 1024000 - 1) / 1024000 // a part segment is a whole read
		if !m.PriceKnown || m.PriceRemoteBytes != remote || remote%1024000 == 0 || m.PriceExtraLatencyMs != float64(reads)*20 {
			t.Errorf("%s: price remote %d bytes (local log start %d), extra latency %v ms; want %d bytes, %d reads of 20 ms",
				st, m.PriceRemoteBytes, b.Log.LocalLogStart, m.PriceExtraLatencyMs, remote, reads)
		}
	}
}

// TestRedundancyFromTheFirstCrash: with two crashes, redundancy is
// measured from the first (to the ISR first whole again after it), not
// from a later one.
func TestRedundancyFromTheFirstCrash(t *testing.T) {
	sc, err := scenarios.Parse([]byte(`{"brokers": 3, "replicas": [0, 1, 2], "duration_ms": 40000, "heal_ms": 40000,
	  "events": [{"at_ms": 0, "type": "produce", "records": 1000, "over_ms": 10000},
	             {"at_ms": 2000, "type": "crash", "broker": 2},
	             {"at_ms": 6000, "type": "restart", "broker": 2},
	             {"at_ms": 30000, "type": "crash", "broker": 1},
	             {"at_ms": 31000, "type": "restart", "broker": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m, res := Measure(sc, Options{Seed: 1, Strategy: LastTiered})
	var rejoin int64 = -1
	for _, ch := range res.ISRChanges {
		if ch.At.Ms() > 2000 && len(ch.ISR) == 3 && rejoin < 0 {
			rejoin = ch.At.Ms() - 2000
		}
	}
	if res.Outcome != OutcomeOK || rejoin < 0 || rejoin >= 28_000 || !m.RedundancyKnown || m.RedundancyMs != rejoin {
		t.Errorf("outcome %s, redundancy %d ms (known %v); the ISR history says whole again %d ms after the first crash",
			res.Outcome, m.RedundancyMs, m.RedundancyKnown, rejoin)
	}
}

// TestAFallbackIsNoStall: a KIP-1023 follower that finds EPUO below the
// log start falls back to the log start at once: stalled_ms counts the
// retries' backoffs only (retries x replica_fetch_backoff_ms), not the
// fallback.
func TestAFallbackIsNoStall(t *testing.T) {
	for _, name := range []string{"tiering-toggle-epuo-below-lso", "hazard-log-start-above-tiered-copy-disabled"} {
		sc, ok := scenarios.Lookup(name)
		if !ok {
			t.Fatalf("no scenario %s", name)
		}
		m, _ := Measure(sc, Options{Seed: 1, Strategy: LastTiered})
		if m.Fallbacks == 0 || m.StalledMs != int64(m.Retries)*sc.Config.ReplicaFetchBackoffMs {
			t.Errorf("%s: %d fallbacks, %d retries, stalled %d ms; want a fallback and %d ms per retry only",
				name, m.Fallbacks, m.Retries, m.StalledMs, sc.Config.ReplicaFetchBackoffMs)
		}
	}
}
