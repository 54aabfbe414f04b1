package harness

import (
	"strings"
	"testing"
	"tierfetch/scenarios"

	"tierfetch/model"
)

// profileRuns runs a named scenario under both strategies with profile p.
func profileRuns(t *testing.T, name string, p model.Profile) (lls, lt RunJSON) {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no named scenario %q", name)
	}
	res, _ := RunAll(sc, sc.Seed, Strategies, p, nil)
	if res.Profile != p.Name() {
		t.Fatalf("result profile %q, want %q", res.Profile, p.Name())
	}
	return res.Runs[0], res.Runs[1]
}

// caughtUp returns b1's catch-up time in ms, -1 if it never joined.
func caughtUp(r RunJSON) int64 {
	for _, f := range r.Followers {
		if f.Broker == 1 && f.CaughtUpMs != nil {
			return *f.CaughtUpMs
		}
	}
	return -1
}

func within(t *testing.T, what string, got, lo, hi int64) {
	t.Helper()
	if got < lo || got > hi {
		t.Errorf("%s: %d ms, want %d..%d", what, got, lo, hi)
	}
}

// TestHazardIdleFullyTiered: Kafka 4.3 answers -6 with -1 once everything is
// uploaded (EPUO >= LEO), and -4 differs from the log start: the flag-on
// follower waits for new records (at 60 s); the KIP text starts it at once.
func TestHazardIdleFullyTiered(t *testing.T) {
	for _, p := range []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk} {
		lls, lt := profileRuns(t, "hazard-idle-fully-tiered", p)
		within(t, p.Name()+" local-log-start", caughtUp(lls), 0, 1000)
		if p == model.KIP {
			within(t, "kip last-tiered", caughtUp(lt), 0, 1000)
			continue
		}
		within(t, p.Name()+" last-tiered", caughtUp(lt), 58_000, 61_000)
		if f := lt.Followers[0]; f.Bootstrap.RetriesByReason["epuo-unknown"] < 50 {
			t.Errorf("%s: %d epuo-unknown retries, want one a second until 60 s", p.Name(), f.Bootstrap.RetriesByReason["epuo-unknown"])
		}
	}
}

// TestHazardLogStartAboveTiered: nothing is tiered below the log start
// offset 1000. Kafka 4.3's auxiliary-state build still needs a remote
// segment holding 999, so the flag-on follower waits until records roll a
// segment and it is uploaded; the KIP text needs nothing when start == LSO.
func TestHazardLogStartAboveTiered(t *testing.T) {
	for _, p := range []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk} {
		lls, lt := profileRuns(t, "hazard-log-start-above-tiered", p)
		within(t, p.Name()+" local-log-start", caughtUp(lls), 0, 1000)
		if p == model.KIP {
			within(t, "kip last-tiered", caughtUp(lt), 0, 1000)
			if b := lt.Followers[0].Bootstrap; b.Path != "local-log-start" || b.StartOffset != 1000 || b.AuxStateBuilds != 0 {
				t.Errorf("kip last-tiered bootstrap %+v, want local-log-start from 1000 with nothing to build", b)
			}
			continue
		}
		within(t, p.Name()+" last-tiered", caughtUp(lt), 59_000, 95_000)
		if n := lt.Followers[0].Bootstrap.RetriesByReason["aux-unavailable"]; n < 50 {
			t.Errorf("%s: %d aux-unavailable retries, want one a second until the upload", p.Name(), n)
		}
	}
}

// TestHazardRestartedLeaderCopyDisabled: with copying disabled Kafka 4.3 has
// no copy task, so a restarted leader's HRO stays unknown and the flag-on
// follower never joins; the KIP text's task seeds HRO; Kafka trunk's
// expiration task seeds it (KAFKA-20732) on its first run with the metadata
// ready, and the follower joins after that.
func TestHazardRestartedLeaderCopyDisabled(t *testing.T) {
	lls, lt := profileRuns(t, "hazard-restarted-leader-copy-disabled", model.KIP)
	within(t, "kip local-log-start", caughtUp(lls), 0, 1000)
	within(t, "kip last-tiered", caughtUp(lt), 0, 1000)
	lls, lt = profileRuns(t, "hazard-restarted-leader-copy-disabled", model.Kafka43)
	within(t, "kafka-4.3 local-log-start", caughtUp(lls), 0, 1000)
	if caughtUp(lt) != -1 || lt.Outcome != OutcomeLiveness || lt.Violation.Kind != "kafka43-epuo-unknown-stall" {
		t.Errorf("kafka-4.3 last-tiered: caught up %d, %s %+v; want never, a liveness violation of kind kafka43-epuo-unknown-stall",
			caughtUp(lt), lt.Outcome, lt.Violation)
	}
	lls, lt = profileRuns(t, "hazard-restarted-leader-copy-disabled", model.KafkaTrunk)
	within(t, "kafka-trunk local-log-start", caughtUp(lls), 0, 1000)
	within(t, "kafka-trunk last-tiered", caughtUp(lt), 0, 1000)
	if b := lt.Followers[0].Bootstrap; lt.Outcome != OutcomeOK || b.Path != "earliest-pending-upload" || b.StartOffset != 6000 {
		t.Errorf("kafka-trunk last-tiered: %s, bootstrap %+v; want ok from EPUO 6000", lt.Outcome, b)
	}
	// The follower joins after the seeding, not before.
	sc, _ := scenarios.Lookup("hazard-restarted-leader-copy-disabled")
	var seeded, joined int
	line := 0
	Execute(sc, Options{Seed: sc.Seed, Strategy: LastTiered, Profile: model.KafkaTrunk, TraceSink: func(l string) {
		line++
		switch {
		case seeded == 0 && strings.Contains(l, "rlm-expire seeds the highest remote offset"):
			seeded = line
		case joined == 0 && strings.Contains(l, "b1 joins ISR"):
			joined = line
		}
	}})
	if seeded == 0 || joined <= seeded {
		t.Errorf("kafka-trunk trace: expiration seeding at line %d, b1 joins at line %d; want the seeding first", seeded, joined)
	}
}

// TestHazardLogStartAboveTieredCopyDisabled: with copying disabled the wait
// of hazard-log-start-above-tiered is permanent under Kafka's code (4.3 and
// trunk): retention.ms raises the log start offset past the last upload,
// EPUO = max(HRO+1, LSO) = LSO and nothing is ever uploaded again to hold
// LSO-1. The KIP text falls back (EPUO < LSO) and joins.
func TestHazardLogStartAboveTieredCopyDisabled(t *testing.T) {
	for _, p := range []model.Profile{model.KIP, model.Kafka43, model.KafkaTrunk} {
		lls, lt := profileRuns(t, "hazard-log-start-above-tiered-copy-disabled", p)
		within(t, p.Name()+" local-log-start", caughtUp(lls), 0, 1000)
		if p == model.KIP {
			within(t, "kip last-tiered", caughtUp(lt), 0, 1000)
			if b := lt.Followers[0].Bootstrap; b.Fallbacks != 1 || b.Path != "truncate-to-log-start" {
				t.Errorf("kip last-tiered bootstrap %+v, want one EPUO < LSO fallback to the log start", b)
			}
			continue
		}
		if caughtUp(lt) != -1 || lt.Outcome != OutcomeLiveness || lt.Violation.Kind != "kafka43-aux-state-stall" {
			t.Errorf("%s last-tiered: caught up %d, %s %+v; want never, kind kafka43-aux-state-stall", p.Name(), caughtUp(lt), lt.Outcome, lt.Violation)
		}
		// The log start kept rising above every upload: the build's start-1
		// was never in remote storage, through 150 s of new records.
		if f := lt.Followers[0]; f.Bootstrap.RetriesByReason["aux-unavailable"] < 150 || lt.Leader.LogStartOffset <= 3000 ||
			lt.Leader.HighestRemoteOffset != 999 {
			t.Errorf("%s: retries %v, leader %+v; want a retry a second and a log start far above hro 999", p.Name(),
				f.Bootstrap.RetriesByReason, lt.Leader)
		}
	}
}

// TestProfilesAgreeOffTheHazards: on the core named scenarios the two
// profiles take the same paths (they differ only where docs/design/protocol.md says).
func TestProfilesAgreeOffTheHazards(t *testing.T) {
	for _, name := range []string{"omts-local-deleted", "leader-knows-hro", "tiering-off", "tiered-follower-becomes-leader"} {
		kl, kt := profileRuns(t, name, model.KIP)
		al, at := profileRuns(t, name, model.Kafka43)
		for _, pair := range [][2]RunJSON{{kl, al}, {kt, at}} {
			a, b := pair[0].Followers[0].Bootstrap, pair[1].Followers[0].Bootstrap
			if a.Path != b.Path || a.StartOffset != b.StartOffset || pair[1].Outcome != OutcomeOK {
				t.Errorf("%s %s: kip %s@%d, kafka-4.3 %s@%d (%s)", name, pair[0].Strategy, a.Path, a.StartOffset, b.Path, b.StartOffset, pair[1].Outcome)
			}
		}
	}
}
