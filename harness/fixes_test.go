package harness

import (
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
)

// The upstream reports' suggested fixes (model.Fix), each on its finding's
// named scenarios: the finding's failure without the fix, a clean run with
// it. Each test names the Kafka code the fix changes; the report of the
// same name in docs/upstream gives the evidence beyond these scenarios
// (sweeps, explore).

var kafkaProfiles = []model.Profile{model.Kafka43, model.KafkaTrunk}

var allProfiles = []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk}

// fixedRuns runs a named scenario under both strategies with profile p and
// fixes f.
func fixedRuns(t *testing.T, name string, p model.Profile, f model.Fixes) Result {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no named scenario %q", name)
	}
	res, _ := RunAllWith(sc, Options{Seed: sc.Seed, Profile: p, Fixes: f}, Strategies)
	return res
}

// wantClean fails unless every run of res passed and every added follower
// joined the ISR.
func wantClean(t *testing.T, what string, res Result) {
	t.Helper()
	for _, r := range res.Runs {
		if r.Outcome != OutcomeOK {
			t.Errorf("%s %s %s: %s %+v, want ok", what, res.Profile, r.Strategy, r.Outcome, r.Violation)
		}
		for _, f := range r.Followers {
			if f.CaughtUpMs == nil {
				t.Errorf("%s %s %s: b%d never joined the ISR", what, res.Profile, r.Strategy, f.Broker)
			}
		}
	}
}

// wantKind fails unless the run of strategy st in res broke an invariant
// with kind.
func wantKind(t *testing.T, what string, res Result, st Strategy, kind string) {
	t.Helper()
	for _, r := range res.Runs {
		if r.Strategy == string(st) && (r.Violation == nil || r.Violation.Kind != kind) {
			t.Errorf("%s %s %s: %s %+v, want kind %s", what, res.Profile, r.Strategy, r.Outcome, r.Violation, kind)
		}
	}
}

func only(f model.Fix) model.Fixes { return model.Fixes(0).With(f) }

// TestFixIdleFullyTieredStall: ReplicaManager answering -6 with an EPUO equal
// to the log end (not -1) lets the flag-on follower start at the log end of
// a fully tiered idle partition and copy nothing, as the KIP text has it.
func TestFixIdleFullyTieredStall(t *testing.T) {
	for _, p := range kafkaProfiles {
		wantKind(t, "idle-fully-tiered", fixedRuns(t, "idle-fully-tiered", p, 0), LastTiered, "kafka43-epuo-unknown-stall")
		for _, name := range []string{"idle-fully-tiered", "hazard-idle-fully-tiered"} {
			res := fixedRuns(t, name, p, only(model.FixIdleFullyTieredStall))
			wantClean(t, name, res)
			f := res.Runs[1].Followers[0]
			// The leader's log ends at 3000, all of it uploaded: EPUO = 3000;
			// hazard-idle-fully-tiered produces more at 60 s, after the join.
			if f.Bootstrap.Path != "earliest-pending-upload" || f.Bootstrap.StartOffset != 3000 || f.CaughtUpMs == nil || *f.CaughtUpMs > 1000 ||
				name == "idle-fully-tiered" && f.BytesFromLeader != 0 {
				t.Errorf("%s %s last-tiered: %+v, %d bytes copied, joined at %v ms: want path earliest-pending-upload at 3000 within 1 s (nothing copied)",
					name, p.Name(), f.Bootstrap, f.BytesFromLeader, caughtUp(res.Runs[1]))
			}
		}
	}
}

// TestFixAuxStateAtLogStart: TierStateMachine starting a follower at the
// leader's log start offset without a remote segment holding start-1
// (nothing lies below it) ends the wait for one.
func TestFixAuxStateAtLogStart(t *testing.T) {
	for _, p := range kafkaProfiles {
		wantKind(t, "copy-disabled", fixedRuns(t, "hazard-log-start-above-tiered-copy-disabled", p, 0), LastTiered, "kafka43-aux-state-stall")
		for _, name := range []string{"hazard-log-start-above-tiered", "hazard-log-start-above-tiered-copy-disabled"} {
			res := fixedRuns(t, name, p, only(model.FixAuxStateAtLogStart))
			wantClean(t, name, res)
			f := res.Runs[1].Followers[0]
			if f.Bootstrap.AuxStateBuilds != 0 || f.Bootstrap.Retries != 0 || *f.CaughtUpMs > 1000 {
				t.Errorf("%s %s last-tiered: %+v joined at %d ms, want no auxiliary state built, no retry, within 1 s",
					name, p.Name(), f.Bootstrap, *f.CaughtUpMs)
			}
		}
	}
	// The log start of hazard-log-start-above-tiered is 1000 when b1 is added.
	if f := fixedRuns(t, "hazard-log-start-above-tiered", model.Kafka43, only(model.FixAuxStateAtLogStart)).Runs[1].Followers[0]; f.Bootstrap.StartOffset != 1000 {
		t.Errorf("start offset %d, want the leader's log start 1000", f.Bootstrap.StartOffset)
	}
}

// TestFixRestartedLeaderCopyDisabled: KAFKA-20732's seeding from the
// expiration task, backported to 4.3, lets the flag-on follower of a
// restarted copy-disabled leader join as trunk's does; under trunk it
// changes nothing.
func TestFixRestartedLeaderCopyDisabled(t *testing.T) {
	name := "hazard-restarted-leader-copy-disabled"
	wantKind(t, name, fixedRuns(t, name, model.Kafka43, 0), LastTiered, "kafka43-epuo-unknown-stall")
	fixed := fixedRuns(t, name, model.Kafka43, only(model.FixRestartedLeaderCopyDisabled))
	wantClean(t, name, fixed)
	trunk := fixedRuns(t, name, model.KafkaTrunk, 0)
	for i := range fixed.Runs {
		a, b := fixed.Runs[i].Followers[0], trunk.Runs[i].Followers[0]
		if a.Bootstrap.Path != b.Bootstrap.Path || a.Bootstrap.StartOffset != b.Bootstrap.StartOffset || *a.CaughtUpMs != *b.CaughtUpMs {
			t.Errorf("%s: kafka-4.3 with the fix %+v at %d ms, kafka-trunk %+v at %d ms: want the same", fixed.Runs[i].Strategy,
				a.Bootstrap, *a.CaughtUpMs, b.Bootstrap, *b.CaughtUpMs)
		}
	}
	same := fixedRuns(t, name, model.KafkaTrunk, only(model.FixRestartedLeaderCopyDisabled))
	for i := range same.Runs {
		if same.Runs[i].Steps != trunk.Runs[i].Steps || *same.Runs[i].Followers[0].CaughtUpMs != *trunk.Runs[i].Followers[0].CaughtUpMs {
			t.Errorf("%s: kafka-trunk with the fix took %d steps, without %d: trunk has KAFKA-20732 already", same.Runs[i].Strategy,
				same.Runs[i].Steps, trunk.Runs[i].Steps)
		}
	}
}

// staleHROScenarios are the stale-hro finding's named scenarios.
var staleHROScenarios = []string{"finding-reenable-stale-hro", "finding-reenable-stale-hro-fast-upload", "finding-reenable-stale-hro-restart"}

// TestFixStaleHRO: the metadata cache lowering an epoch's highest offset
// when its segments are deleted (RemoteLogLeaderEpochState's
// DELETE_SEGMENT_STARTED handler), and every replica resetting its
// in-memory HRO on a disable that deletes the remote data, close every
// variant under every profile. Either half alone does not: the reset alone
// leaves the metadata to seed the stale offset again (all three fail); the
// metadata alone leaves the leader's in-memory offset, which the original
// (5 s uploads: retention runs before the re-upload) shows.
func TestFixStaleHRO(t *testing.T) {
	for _, p := range allProfiles {
		for _, name := range staleHROScenarios {
			wantClean(t, name, fixedRuns(t, name, p, only(model.FixStaleHRO)))
			wantKind(t, name+" (reset only)", fixedRuns(t, name, p, only(model.FixStaleHROResetOnly)), LocalLogStart, "stale-hro")
		}
		wantKind(t, "metadata only", fixedRuns(t, staleHROScenarios[0], p, only(model.FixStaleHROMetadataOnly)), LocalLogStart, "stale-hro")
	}
}

// TestFixStaleLocalLogStart: UnifiedLog raising its local log start offset
// with the log start offset whatever remote storage is makes -4 answer the
// log start. Under the KIP text the flag-on follower then joins; under
// Kafka's code it starts at the log start with nothing tiered below it and
// meets aux-state-at-log-start's finding, which that fix ends.
func TestFixStaleLocalLogStart(t *testing.T) {
	name := "finding-stale-local-log-start"
	wantClean(t, name, fixedRuns(t, name, model.KIP, only(model.FixStaleLocalLogStart)))
	for _, p := range kafkaProfiles {
		wantKind(t, name, fixedRuns(t, name, p, only(model.FixStaleLocalLogStart)), LastTiered, "kafka43-aux-state-stall")
		wantClean(t, name, fixedRuns(t, name, p, only(model.FixStaleLocalLogStart).With(model.FixAuxStateAtLogStart)))
	}
}

// TestFixStaleLogStartCopyDisabled: the expiration task raising a new
// leader's log start offset from the remote metadata, as the copy task does
// (KAFKA-15351), works with copying disabled.
func TestFixStaleLogStartCopyDisabled(t *testing.T) {
	name := "finding-stale-log-start-copy-disabled"
	for _, p := range allProfiles {
		res := fixedRuns(t, name, p, only(model.FixStaleLogStartCopyDisabled))
		wantClean(t, name, res)
		for _, r := range res.Runs {
			if r.Leader == nil || r.Leader.Broker != 1 || r.Leader.LogStartOffset == 0 {
				t.Errorf("%s %s: leader %+v, want b1 with its log start offset raised above 0", p.Name(), r.Strategy, r.Leader)
			}
		}
	}
}

// TestFixStaleLogStartUnfinishedSegment: findLogStartOffset taking the first
// segment whose copy finished, not one being deleted, keeps the new
// leader's log start offset on readable data.
func TestFixStaleLogStartUnfinishedSegment(t *testing.T) {
	name := "finding-stale-log-start-unfinished-segment"
	for _, p := range allProfiles {
		wantClean(t, name, fixedRuns(t, name, p, only(model.FixStaleLogStartUnfinishedSegment)))
	}
}

// TestFixFollowerGapAfterDisable: refusing a delete-on-disable while a
// replica's local log starts above the leader's keeps the remote copy of
// what lies between; the refusal is a skipped event with its reason. The
// tiering-off half of stale-log-start-copy-disabled's fix alone must not
// hide the loss (it raises a new leader's log start offset over records
// only the old leader holds): it applies only with this fix.
func TestFixFollowerGapAfterDisable(t *testing.T) {
	for _, p := range allProfiles {
		for _, name := range []string{"finding-follower-gap-after-disable", "finding-tiered-follower-after-disable"} {
			res := fixedRuns(t, name, p, only(model.FixFollowerGapAfterDisable))
			wantClean(t, name, res)
			for _, r := range res.Runs {
				refused := false
				for _, sk := range r.Skipped {
					refused = refused || sk.Type == "set_config" && strings.Contains(sk.Reason, "refused")
				}
				if !refused && r.Strategy == string(LastTiered) {
					t.Errorf("%s %s %s: skipped %+v, want the disable refused", name, p.Name(), r.Strategy, r.Skipped)
				}
			}
			alone := fixedRuns(t, name, p, only(model.FixStaleLogStartCopyDisabled))
			base := fixedRuns(t, name, p, 0)
			for i, r := range alone.Runs {
				if b := base.Runs[i]; r.Outcome != b.Outcome || (r.Violation == nil) != (b.Violation == nil) ||
					r.Violation != nil && r.Violation.Kind != b.Violation.Kind {
					t.Errorf("%s %s %s with stale-log-start-copy-disabled alone: %s %+v, want what Kafka does: %s %+v", name, p.Name(),
						r.Strategy, r.Outcome, r.Violation, b.Outcome, b.Violation)
				}
			}
		}
	}
}

// TestEveryNamedScenarioCleanWithAllFixes: the fixes compose. With every fix
// on, every named scenario passes under every profile and both strategies,
// and every added follower joins.
func TestEveryNamedScenarioCleanWithAllFixes(t *testing.T) {
	for _, p := range allProfiles {
		for _, sc := range scenarios.Named() {
			res, _ := RunAllWith(sc, Options{Seed: sc.Seed, Profile: p, Fixes: model.AllFixes}, Strategies)
			wantClean(t, sc.Name, res)
		}
	}
}

// TestFixesNamedInTheRun: a run with fixes says so (the result's fixes, the
// trace's first line, so its digest is its own); a run without says
// nothing of them.
func TestFixesNamedInTheRun(t *testing.T) {
	sc, _ := scenarios.Lookup("finding-stale-local-log-start")
	var first string
	res, runs := RunAllWith(sc, Options{Seed: sc.Seed, Fixes: only(model.FixStaleLocalLogStart),
		TraceSink: func(line string) {
			if first == "" {
				first = line
			}
		}}, []Strategy{LastTiered})
	if len(res.Fixes) != 1 || res.Fixes[0] != "stale-local-log-start" || !strings.HasSuffix(first, " fixes=stale-local-log-start") {
		t.Errorf("result fixes %v, first trace line %q: want the fix named in both", res.Fixes, first)
	}
	plain, plainRuns := RunAllWith(sc, Options{Seed: sc.Seed}, []Strategy{LastTiered})
	if plain.Fixes != nil || runs[0].Digest == plainRuns[0].Digest {
		t.Errorf("without fixes: result fixes %v, digests %s and %s: want none named and two digests", plain.Fixes, plainRuns[0].Digest, runs[0].Digest)
	}
}
