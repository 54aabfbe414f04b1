package harness

import (
	"testing"
	"tierfetch/scenarios"

	"tierfetch/model"
)

// runRetention runs local-retention-sweep with its local retention set to
// localRetentionBytes under both strategies and returns the new follower b1
// of each, local-log-start first; every run must pass every invariant.
func runRetention(t *testing.T, localRetentionBytes int64, p model.Profile) (lls, lt FollowerJSON) {
	t.Helper()
	sc, ok := scenarios.Lookup("local-retention-sweep")
	if !ok {
		t.Fatal("no named scenario local-retention-sweep")
	}
	sc.Config.LocalRetentionBytes = localRetentionBytes
	res, _ := RunAll(sc, sc.Seed, Strategies, p, nil)
	for _, r := range res.Runs {
		if r.Outcome != OutcomeOK {
			t.Fatalf("local_retention_bytes=%d %s/%s: outcome %s: %+v", localRetentionBytes, p.Name(), r.Strategy, r.Outcome, r.Violation)
		}
	}
	return follower(t, res.Runs[0], 1), follower(t, res.Runs[1], 1)
}

// TestNamedLocalRetentionSweep keeps the headline of the scenario: at its
// own 5 MiB of local retention, KIP-405 starts at the leader's LLSO and
// copies about that much before it joins the ISR; KIP-1023 starts at EPUO,
// one segment below the log end, copies less and joins sooner. The same
// holds under kafka-4.3 (no hazard here: the leader knows HRO).
func TestNamedLocalRetentionSweep(t *testing.T) {
	const mib = 1 << 20
	for _, p := range []model.Profile{model.KIP, model.Kafka43} {
		lls, lt := runRetention(t, 5*mib, p)
		r := RunJSON{Strategy: string(LocalLogStart)}
		wantPath(t, r, lls, "local-log-start", 54272)
		r.Strategy = string(LastTiered)
		wantPath(t, r, lt, "earliest-pending-upload", 59392)
		// 5 MiB and more at 10 MiB/s of replication: at least 500 ms.
		if *lls.CaughtUpMs < 500 || *lt.CaughtUpMs*3 > *lls.CaughtUpMs {
			t.Errorf("%s: caught up in %d ms (local-log-start) and %d ms (last-tiered), want >= 500 ms and under a third of it",
				p.Name(), *lls.CaughtUpMs, *lt.CaughtUpMs)
		}
		if lls.BytesFromLeader-lt.BytesFromLeader != (59392-54272)*1024 {
			t.Errorf("%s: bytes from leader %d and %d, want last-tiered to copy exactly [54272, 59392) less",
				p.Name(), lls.BytesFromLeader, lt.BytesFromLeader)
		}
	}
}

// TestNamedLocalRetentionSweepCurve keeps the shape of the sweep: KIP-405's
// catch-up time grows with local retention while KIP-1023's stays flat, and
// at -2 (local retention = total retention, unlimited) the leader still
// holds offset 0, so both copy from 0 and break even.
func TestNamedLocalRetentionSweepCurve(t *testing.T) {
	const mib = 1 << 20
	var prevLocal int64
	var tiered []int64
	for _, bytes := range []int64{1 * mib, 10 * mib, 40 * mib} {
		lls, lt := runRetention(t, bytes, model.KIP)
		if *lls.CaughtUpMs <= prevLocal || *lt.CaughtUpMs >= *lls.CaughtUpMs {
			t.Errorf("local_retention_bytes=%d: %d ms (local-log-start, previous value %d ms) and %d ms (last-tiered): "+
				"want local-log-start slower than at less retention and last-tiered faster", bytes, *lls.CaughtUpMs, prevLocal, *lt.CaughtUpMs)
		}
		prevLocal = *lls.CaughtUpMs
		tiered = append(tiered, *lt.CaughtUpMs)
	}
	if lo, hi := min(tiered[0], tiered[1], tiered[2]), max(tiered[0], tiered[1], tiered[2]); hi*4 > lo*5 {
		t.Errorf("last-tiered caught up in %v ms: want within 25%% whatever the local retention", tiered)
	}
	if prevLocal < 10*tiered[2] {
		t.Errorf("at 40 MiB: %d ms against %d ms, want last-tiered 10x faster", prevLocal, tiered[2])
	}
	lls, lt := runRetention(t, -2, model.KIP)
	r := RunJSON{Strategy: string(LocalLogStart)}
	wantPath(t, r, lls, "from-zero", 0)
	r.Strategy = string(LastTiered)
	wantPath(t, r, lt, "from-zero", 0)
	if *lls.CaughtUpMs != *lt.CaughtUpMs || lls.BytesFromLeader != lt.BytesFromLeader {
		t.Errorf("at -2: %d ms / %d B and %d ms / %d B, want the same run", *lls.CaughtUpMs, lls.BytesFromLeader, *lt.CaughtUpMs, lt.BytesFromLeader)
	}
}
