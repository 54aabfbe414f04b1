package harness

import (
	"testing"
	"tierfetch/scenarios"

	"tierfetch/model"
)

// runNamed runs a named scenario under both strategies with its own seed
// and returns the result object's runs, local-log-start first.
func runNamed(t *testing.T, name string) (lls, lt RunJSON) {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no named scenario %q", name)
	}
	res, _ := RunAll(sc, sc.Seed, Strategies, model.KIP, nil)
	for _, r := range res.Runs {
		if r.Outcome != OutcomeOK {
			t.Fatalf("%s/%s: outcome %s: %+v", name, r.Strategy, r.Outcome, r.Violation)
		}
	}
	return res.Runs[0], res.Runs[1]
}

func follower(t *testing.T, r RunJSON, broker int) FollowerJSON {
	t.Helper()
	for _, f := range r.Followers {
		if f.Broker == broker {
			if f.CaughtUpMs == nil {
				t.Fatalf("%s: b%d never caught up", r.Strategy, broker)
			}
			return f
		}
	}
	t.Fatalf("%s: no follower b%d", r.Strategy, broker)
	return FollowerJSON{}
}

func wantPath(t *testing.T, r RunJSON, f FollowerJSON, path string, start int64) {
	t.Helper()
	if f.Bootstrap.Path != path || f.Bootstrap.StartOffset != start {
		t.Errorf("%s: b%d path=%s start=%d, want path=%s start=%d", r.Strategy, f.Broker, f.Bootstrap.Path, f.Bootstrap.StartOffset, path, start)
	}
}

func TestNamedTieringOff(t *testing.T) {
	lls, lt := runNamed(t, "tiering-off")
	a, b := follower(t, lls, 1), follower(t, lt, 1)
	wantPath(t, lls, a, "from-zero", 0)
	wantPath(t, lt, b, "from-zero", 0)
	if a.BytesFromLeader != b.BytesFromLeader || a.BytesFromLeader < 3000*1024 {
		t.Errorf("bytes from leader %d vs %d: the flag must change nothing without tiering, and the whole log is copied", a.BytesFromLeader, b.BytesFromLeader)
	}
}

func TestNamedOffsetZeroLocal(t *testing.T) {
	lls, lt := runNamed(t, "tiered-offset-zero-local")
	wantPath(t, lls, follower(t, lls, 1), "from-zero", 0)
	wantPath(t, lt, follower(t, lt, 1), "from-zero", 0)
	if follower(t, lt, 1).Bootstrap.ListOffsets != 0 {
		t.Error("a leader holding offset 0 is copied from 0: no ListOffsets")
	}
}

func TestNamedOMTS(t *testing.T) {
	lls, lt := runNamed(t, "omts-local-deleted")
	a, b := follower(t, lls, 1), follower(t, lt, 1)
	wantPath(t, lls, a, "local-log-start", 3000)
	wantPath(t, lt, b, "earliest-pending-upload", 9000)
	if a.Bootstrap.AuxStateBuilds != 1 || b.Bootstrap.AuxStateBuilds != 1 {
		t.Errorf("aux builds %d and %d, want 1 each", a.Bootstrap.AuxStateBuilds, b.Bootstrap.AuxStateBuilds)
	}
	if b.BytesFromLeader >= a.BytesFromLeader || *b.CaughtUpMs > *a.CaughtUpMs {
		t.Errorf("last-tiered copied %d B in %d ms, local-log-start %d B in %d ms: want less and no later",
			b.BytesFromLeader, *b.CaughtUpMs, a.BytesFromLeader, *a.CaughtUpMs)
	}
}

func TestNamedLeaderKnowsHRO(t *testing.T) {
	lls, lt := runNamed(t, "leader-knows-hro")
	a, b := follower(t, lls, 1), follower(t, lt, 1)
	wantPath(t, lls, a, "local-log-start", 10000)
	wantPath(t, lt, b, "earliest-pending-upload", 40000)
	// 10 MiB/s of replication: 40000 vs 10000 records of 1 KiB.
	if *a.CaughtUpMs < 3500 || *b.CaughtUpMs > 1500 {
		t.Errorf("catch-up %d ms (local-log-start) and %d ms (last-tiered): want about 3.9 s and 1 s", *a.CaughtUpMs, *b.CaughtUpMs)
	}
	if b.LogStartOffset != 0 {
		t.Errorf("last-tiered follower lso=%d, want the leader's 0", b.LogStartOffset)
	}
}

func TestNamedLeaderHROUnknown(t *testing.T) {
	lls, lt := runNamed(t, "leader-hro-unknown")
	a, b := follower(t, lls, 1), follower(t, lt, 1)
	wantPath(t, lls, a, "local-log-start", 3000)
	wantPath(t, lt, b, "earliest-pending-upload", 9000)
	if n := b.Bootstrap.RetriesByReason["epuo-unknown"]; n < 20 {
		t.Errorf("last-tiered retried %d times for an unknown EPUO, want about 30 (until the copy task seeds HRO at 30 s)", n)
	}
	if *b.CaughtUpMs < 30000 || *a.CaughtUpMs < 20000 || *a.CaughtUpMs > 25000 {
		t.Errorf("caught up after %d ms (last-tiered) and %d ms (local-log-start): want >= 30 s (HRO seeded) and ~20 s (metadata ready)", *b.CaughtUpMs, *a.CaughtUpMs)
	}
	if a.Bootstrap.RetriesByReason["epuo-unknown"] != 0 {
		t.Error("the local-log-start protocol never asks for EPUO")
	}
}

func TestNamedIdleFullyTiered(t *testing.T) {
	lls, lt := runNamed(t, "idle-fully-tiered")
	a, b := follower(t, lls, 1), follower(t, lt, 1)
	wantPath(t, lls, a, "local-log-start", 2000)
	wantPath(t, lt, b, "earliest-pending-upload", 3000)
	if b.BytesFromLeader != 0 || a.BytesFromLeader != 1000*1024 {
		t.Errorf("bytes from leader %d (last-tiered) and %d (local-log-start), want 0 and %d", b.BytesFromLeader, a.BytesFromLeader, 1000*1024)
	}
}

func TestNamedTieringToggle(t *testing.T) {
	lls, lt := runNamed(t, "tiering-toggle-epuo-below-lso")
	a, b := follower(t, lls, 1), follower(t, lt, 1)
	wantPath(t, lls, a, "truncate-to-log-start", 2500)
	wantPath(t, lt, b, "truncate-to-log-start", 2500)
	if b.Bootstrap.Fallbacks != 1 || a.Bootstrap.Fallbacks != 0 {
		t.Errorf("fallbacks %d (last-tiered) and %d (local-log-start), want 1 and 0: EPUO 2000 < LSO 2500 must fall back", b.Bootstrap.Fallbacks, a.Bootstrap.Fallbacks)
	}
}

func TestNamedElectionMidBootstrap(t *testing.T) {
	lls, lt := runNamed(t, "election-mid-bootstrap")
	for _, r := range []RunJSON{lls, lt} {
		if r.Leader == nil || r.Leader.Broker != 2 {
			t.Fatalf("%s: leader %+v, want b2", r.Strategy, r.Leader)
		}
		f := follower(t, r, 1)
		if f.Bootstrap.ListOffsets < 4 {
			t.Errorf("%s: %d ListOffsets, want the bootstrap started again against b2", r.Strategy, f.Bootstrap.ListOffsets)
		}
		if f.LogEndOffset != r.Leader.LogEndOffset {
			t.Errorf("%s: follower leo %d, leader %d", r.Strategy, f.LogEndOffset, r.Leader.LogEndOffset)
		}
	}
	wantPath(t, lls, follower(t, lls, 1), "local-log-start", 3000)
	wantPath(t, lt, follower(t, lt, 1), "earliest-pending-upload", 9000)
}

func TestNamedTieredFollowerBecomesLeader(t *testing.T) {
	lls, lt := runNamed(t, "tiered-follower-becomes-leader")
	for _, r := range []RunJSON{lls, lt} {
		if r.Leader.Broker != 1 || len(r.Consumes) != 1 || r.Consumes[0].Broker != 1 {
			t.Fatalf("%s: leader %+v consumes %+v, want b1 to lead and serve the consumer", r.Strategy, r.Leader, r.Consumes)
		}
	}
	a, b := lls.Consumes[0], lt.Consumes[0]
	if a.RemoteBytes != 3000*1024 || b.RemoteBytes != 9000*1024 {
		t.Errorf("remote bytes for a read from 0: %d (local-log-start), %d (last-tiered), want %d and %d",
			a.RemoteBytes, b.RemoteBytes, 3000*1024, 9000*1024)
	}
	if a.LocalBytes+a.RemoteBytes != b.LocalBytes+b.RemoteBytes {
		t.Errorf("both read the same records: %+v vs %+v", a, b)
	}
}

func TestNamedFormatsExample(t *testing.T) {
	lls, lt := runNamed(t, "fast-partial-upload")
	// The remote segment [0,149] overlaps the leader's local [10,149]: the
	// build needs the segment holding 9 (or 149), which ends at 149, so both
	// protocols restart at 150.
	wantPath(t, lls, follower(t, lls, 1), "local-log-start", 150)
	wantPath(t, lt, follower(t, lt, 1), "earliest-pending-upload", 150)
}

// TestEveryNamedScenarioIsTested keeps this file in step with named/.
func TestEveryNamedScenarioIsTested(t *testing.T) {
	tested := map[string]bool{"tiering-off": true, "tiered-offset-zero-local": true, "omts-local-deleted": true,
		"leader-knows-hro": true, "leader-hro-unknown": true, "idle-fully-tiered": true,
		"tiering-toggle-epuo-below-lso": true, "election-mid-bootstrap": true,
		"tiered-follower-becomes-leader": true, "fast-partial-upload": true,
		"finding-reenable-stale-hro": true, "finding-stale-log-start-copy-disabled": true,
		"finding-reenable-stale-hro-fast-upload": true, "finding-reenable-stale-hro-restart": true,
		"finding-stale-local-log-start":         true,
		"finding-tiered-follower-after-disable": true, "finding-follower-gap-after-disable": true,
		"finding-stale-log-start-unfinished-segment": true, "hazard-idle-fully-tiered": true, "hazard-log-start-above-tiered": true, "hazard-restarted-leader-copy-disabled": true,
		"hazard-log-start-above-tiered-copy-disabled": true, "local-retention-sweep": true}
	for _, sc := range scenarios.Named() {
		if !tested[sc.Name] {
			t.Errorf("named scenario %s has no test", sc.Name)
		}
		if sc.Description == "" {
			t.Errorf("named scenario %s has no description", sc.Name)
		}
	}
}

// runFinding runs a finding scenario under both strategies and checks that
// each run broke invariant with kind (at atMs, when atMs >= 0); it returns
// the runs for the finding's own checks.
func runFinding(t *testing.T, name, invariant, kind string, atMs int64) []RunJSON {
	t.Helper()
	return runFindingUnder(t, model.KIP, name, invariant, kind, atMs)
}

// runFindingUnder is runFinding under profile p.
func runFindingUnder(t *testing.T, p model.Profile, name, invariant, kind string, atMs int64) []RunJSON {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no named scenario %q", name)
	}
	res, _ := RunAll(sc, sc.Seed, Strategies, p, nil)
	for _, r := range res.Runs {
		v := r.Violation
		if r.Outcome != OutcomeSafety || v == nil || v.Invariant != invariant || v.Kind != kind || (atMs >= 0 && v.AtMs != atMs) {
			t.Errorf("%s %s %s: outcome %s violation %+v, want %s (%s) at %d ms", name, p.Name(), r.Strategy, r.Outcome, v, invariant, kind, atMs)
		}
	}
	return res.Runs
}

// TestFindingReenableStaleHRO keeps a finding of Kafka's code, under every
// profile: tiering disabled with remote.log.delete.on.disable deletes every
// remote segment (deleteRemoteLogPartition publishes DELETE_SEGMENT_STARTED
// and _FINISHED per segment, RemoteLogManager.java:578-600 @025293cb) but
// lowers no epoch's highest offset in the metadata cache
// (RemoteLogLeaderEpochState.java:132-144 @06a2dac2), so after tiering is
// enabled again the new copy task seeds its copied offset and HRO from it
// (maybeUpdateCopiedOffset, RemoteLogManager.java:904-913) and local
// retention deletes segments no remote segment holds. It needs no race (the
// fast-upload variant) and survives restarts of every replica (the restart
// variant: the metadata topic keeps the COPY_SEGMENT_FINISHED events, its
// retention unlimited by default, TopicBasedRemoteLogMetadataManagerConfig
// .java:55 @0490f692, and a restarted broker's cache replays them,
// ConsumerTask.java:239-245 @36006682).
func TestFindingReenableStaleHRO(t *testing.T) {
	cases := []struct {
		name string
		atMs int64
		hro  int64
	}{
		// The original: the 5 s upload of [2000..2999] is still in flight.
		{"finding-reenable-stale-hro", 3000, 1999},
		// 100 ms uploads: [2000..2999] is uploaded after the stale seed.
		{"finding-reenable-stale-hro-fast-upload", 3000, 2999},
		// Both replicas restarted while tiering was off: HRO came back from
		// the replayed metadata alone.
		{"finding-reenable-stale-hro-restart", 3400, 1999},
	}
	for _, p := range []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk} {
		for _, tc := range cases {
			for _, r := range runFindingUnder(t, p, tc.name, "no-hole", "stale-hro", tc.atMs) {
				if r.Leader == nil || r.Leader.Broker != 0 || r.Leader.HighestRemoteOffset != tc.hro ||
					r.Leader.LocalLogStartOffset != 2000 || r.Leader.LogStartOffset != 0 {
					t.Errorf("%s %s %s: leader %+v, want b0 with lso 0, llso 2000 and the stale hro %d",
						tc.name, p.Name(), r.Strategy, r.Leader, tc.hro)
				}
			}
		}
	}
}

// TestFindingStaleLocalLogStart keeps a finding of Kafka's code under every
// profile: a log start offset raised with remote storage disabled leaves
// UnifiedLog's localLogStartOffset behind (maybeIncrementLogStartOffset
// moves it only with remote storage enabled, UnifiedLog.java:1343-1346
// @004b2276); after tiering is enabled, -4 answers it
// (fetchOffsetByTimestamp, 1680-1688), not the log start, so a flag-on
// follower told -6 = -1 (nothing tiered, HRO unknown) retries forever. The
// flag-off follower joins.
func TestFindingStaleLocalLogStart(t *testing.T) {
	sc, _ := scenarios.Lookup("finding-stale-local-log-start")
	for _, p := range []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk} {
		res, _ := RunAll(sc, sc.Seed, Strategies, p, nil)
		lls, lt := res.Runs[0], res.Runs[1]
		if lls.Outcome != OutcomeOK {
			t.Errorf("%s local-log-start: %s %+v, want ok", p.Name(), lls.Outcome, lls.Violation)
		}
		v := lt.Violation
		if lt.Outcome != OutcomeLiveness || v == nil || v.Invariant != "liveness" || v.Kind != "stale-local-log-start" {
			t.Errorf("%s last-tiered: %s %+v, want liveness (stale-local-log-start)", p.Name(), lt.Outcome, v)
		}
		if l := lt.Leader; l == nil || l.LogStartOffset != 2000 || l.LocalLogStartOffset != 2000 || l.HighestRemoteOffset != -1 {
			t.Errorf("%s last-tiered: leader %+v, want lso = llso = 2000, HRO unknown", p.Name(), lt.Leader)
		}
	}
}

// TestFindingStaleLogStartCopyDisabled keeps a finding: a follower elected
// with a log start offset that lags the old leader's advertises records that
// exist nowhere; Kafka raises it in the new leader's copy task
// (KAFKA-15351), which does not exist with remote.log.copy.disable.
func TestFindingStaleLogStartCopyDisabled(t *testing.T) {
	for _, r := range runFinding(t, "finding-stale-log-start-copy-disabled", "stale-log-start", "stale-log-start-copy-disabled", -1) {
		if r.Leader == nil || r.Leader.Broker != 1 || r.Leader.LogStartOffset != 0 {
			t.Errorf("%s: leader %+v, want b1 still advertising log start 0", r.Strategy, r.Leader)
		}
	}
	// With copying on, the new leader's first copy-task run raises the log
	// start offset and the same schedule is clean.
	sc, _ := scenarios.Lookup("finding-stale-log-start-copy-disabled")
	on := *sc
	on.Config.RemoteLogCopyDisable = false
	for _, st := range Strategies {
		if r := Execute(&on, Options{Seed: 1, Strategy: st}); r.Outcome != OutcomeOK {
			t.Errorf("%s with copying on: %s %+v, want ok", st, r.Outcome, r.Violation)
		}
	}
}

// TestFindingTieredFollowerAfterDisable keeps a KIP-1023 finding: a follower
// bootstrapped from the tiered offset holds nothing below it; after tiering
// is disabled with delete-on-disable and it is elected, the committed
// records between the old leader's local log start and its own are on no
// leader. The KIP-405 follower copied them and passes the same schedule.
func TestFindingTieredFollowerAfterDisable(t *testing.T) {
	sc, _ := scenarios.Lookup("finding-tiered-follower-after-disable")
	res, _ := RunAll(sc, sc.Seed, Strategies, model.KIP, nil)
	lls, lt := res.Runs[0], res.Runs[1]
	if lls.Outcome != OutcomeOK {
		t.Errorf("local-log-start: %s %+v, want ok", lls.Outcome, lls.Violation)
	}
	if len(lls.Consumes) != 1 || lls.Consumes[0].LocalBytes != 6000*1024 {
		t.Errorf("local-log-start consume %+v, want [3000, 9000) read locally", lls.Consumes)
	}
	v := lt.Violation
	if lt.Outcome != OutcomeSafety || v == nil || v.Invariant != "no-committed-loss" || v.Kind != "tiered-follower-after-disable" || v.AtMs != 10000 {
		t.Errorf("last-tiered: %s %+v, want no-committed-loss (tiered-follower-after-disable) at 10 s", lt.Outcome, v)
	}
}

// TestFindingFollowerGapAfterDisable keeps a finding of Kafka's code, under
// both protocols: disabling tiering with delete-on-disable deletes the only
// other copy of what a follower's own local retention already dropped.
func TestFindingFollowerGapAfterDisable(t *testing.T) {
	for _, r := range runFinding(t, "finding-follower-gap-after-disable", "no-committed-loss", "follower-gap-after-disable", 2300) {
		if r.Leader == nil || r.Leader.Broker != 1 || r.Leader.LocalLogStartOffset != 3000 || r.Leader.LogStartOffset != 0 {
			t.Errorf("%s: leader %+v, want b1 with lso 0 and llso 3000", r.Strategy, r.Leader)
		}
	}
}

// TestFindingStaleLogStartUnfinishedSegment keeps a finding of Kafka's code:
// a new leader raises its lagging log start offset from remote metadata
// (KAFKA-15351) that also lists a segment whose deletion the old leader
// started (here left DELETE_SEGMENT_STARTED by a remote outage); once the
// deletion completes the offset is stale again.
func TestFindingStaleLogStartUnfinishedSegment(t *testing.T) {
	for _, r := range runFinding(t, "finding-stale-log-start-unfinished-segment", "stale-log-start", "stale-log-start-unfinished-segment", -1) {
		if r.Leader == nil || r.Leader.Broker != 1 || r.Leader.LogStartOffset != 0 || r.Leader.LocalLogStartOffset != 1392 {
			t.Errorf("%s: leader %+v, want b1 advertising log start 0 with llso 1392", r.Strategy, r.Leader)
		}
	}
}
