package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// The hazards a plan names depend on the partition's state and on what the
// flag-on runs showed, so these tests build the partition from tool output
// without running it and hand the hazard checks the flag-on runs: running
// them would cost the -short tests (and every mutant) seconds.

// hazardsOf lists the hazards profile p names for the partition of in,
// given the flag-on runs.
func hazardsOf(t *testing.T, in Input, p model.Profile, runs ...RunOutcome) []Hazard {
	t.Helper()
	b, sc := buildOnly(t, in)
	return hazards(b, sc, p, strategyPlan(harness.LastTiered, runs, true))
}

// hazardOf is the hazard id among hs, nil when it is not there.
func hazardOf(hs []Hazard, id string) *Hazard {
	for i := range hs {
		if hs[i].ID == id {
			return &hs[i]
		}
	}
	return nil
}

func idsOf(hs []Hazard) []string {
	ids := []string{}
	for _, h := range hs {
		ids = append(ids, h.ID)
	}
	return ids
}

// joinedIn is a flag-on run of seed that joined after ms, with retries
// for reasons (reason, count, ...).
func joinedIn(seed uint64, ms int64, retries ...any) RunOutcome {
	o := notJoined(seed, retries...)
	o.CaughtUpMs, o.Outcome = &ms, harness.OutcomeOK
	return o
}

// notJoined is a flag-on run of seed whose replica never joined.
func notJoined(seed uint64, retries ...any) RunOutcome {
	o := RunOutcome{Seed: seed, Outcome: harness.OutcomeLiveness, RetriesByReason: map[string]int{}}
	for i := 0; i+1 < len(retries); i += 2 {
		o.RetriesByReason[retries[i].(string)] = retries[i+1].(int)
	}
	return o
}

// hroUnknown is orders-2 with 20 MiB in remote storage only and a leader
// that does not know its highest uploaded offset.
func hroUnknown(t *testing.T, overrides map[string]string) Input {
	return smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: -1, TimeLatest: 71680}, overrides)
}

// TestHazardSaysWhatTheFlagOnRunsShowed: a stall hazard says how many
// flag-on seeds joined, their median when some did, and the retries for its
// reason when there were any; with --save its replay names the first seed
// that retried for it, else the first that did not join, else the first.
// A hazard of later (disable-tiering-later) has neither.
func TestHazardSaysWhatTheFlagOnRunsShowed(t *testing.T) {
	for _, c := range []struct {
		name       string
		runs       []RunOutcome
		seen, seed string
	}{
		{"retries", []RunOutcome{joinedIn(4, 1000), joinedIn(5, 2000, "epuo-unknown", 3), joinedIn(6, 3000, "epuo-unknown", 4, "aux-unavailable", 9)},
			"flag on: 3 of 3 seeds joined, median 2.0 s; 7 retries (epuo-unknown) over the seeds", "5"},
		{"other retries only", []RunOutcome{joinedIn(4, 1000, "aux-unavailable", 2), notJoined(5, "epuo-unknown", 0), notJoined(6)},
			"flag on: 1 of 3 seeds joined, median 1.0 s", "5"},
		{"none joined", []RunOutcome{notJoined(7), notJoined(8)}, "flag on: 0 of 2 seeds joined", "7"},
		{"all joined", []RunOutcome{joinedIn(4, 1000), joinedIn(5, 5000)}, "flag on: 2 of 2 seeds joined, median 1.0 s", "4"},
	} {
		for _, saved := range []string{"", "/tmp/p/plan.json"} {
			in := hroUnknown(t, nil)
			in.SavePath = saved
			hs := hazardsOf(t, in, model.Kafka43, c.runs...)
			hz := hazardOf(hs, HazardHROUnknown)
			if hz == nil {
				t.Fatalf("%s: hazards %v, want %s", c.name, idsOf(hs), HazardHROUnknown)
			}
			want := ""
			if saved != "" {
				want = "simrun run Scenario /tmp/p/plan.json Profile kafka-4.3 Seed " + c.seed + " Strategy last-tiered Trace"
			}
			if hz.Seen != c.seen || hz.Replay != want {
				t.Errorf("%s, saved to %q: seen %q, replay %q; want %q, %q", c.name, saved, hz.Seen, hz.Replay, c.seen, want)
			}
			if later := hazardOf(hs, HazardDisableTieringLater); later == nil || later.Seen != "" || later.Replay != "" {
				t.Errorf("%s, saved to %q: %+v, want %s without what the runs showed", c.name, saved, later, HazardDisableTieringLater)
			}
		}
	}
}

// TestHazardCommandsSpellTheCallersFlags: a hazard's command names the
// scenario that shows it as the caller spells its flags, with the plan's
// fixes when it has some and no --fix when it has none.
func TestHazardCommandsSpellTheCallersFlags(t *testing.T) {
	flags := func(field string) string { return "--" + strings.ToLower(field) }
	for _, c := range []struct {
		fixes model.Fixes
		want  string
	}{
		{0, "simrun run --scenario leader-hro-unknown --profile kafka-trunk"},
		{model.Fixes(0).With(model.FixStaleHRO), "simrun run --scenario leader-hro-unknown --profile kafka-trunk --fix stale-hro"},
	} {
		in := hroUnknown(t, nil)
		in.Names, in.Fixes = flags, c.fixes
		hs := hazardsOf(t, in, model.KafkaTrunk, joinedIn(1, 1000))
		if hz := hazardOf(hs, HazardHROUnknown); hz == nil || hz.Command != c.want {
			t.Errorf("fixes %v: %+v, want the command %q", c.fixes, hz, c.want)
		}
		if later := hazardOf(hs, HazardDisableTieringLater); later == nil || later.Command != "simrun run --scenario finding-tiered-follower-after-disable" {
			t.Errorf("fixes %v: %+v", c.fixes, later)
		}
	}
}

// explanations lists each hazard as "id (severity): explanation".
func explanations(hs []Hazard) []string {
	out := []string{}
	for _, h := range hs {
		out = append(out, h.ID+" ("+h.Severity+"): "+h.Explanation)
	}
	return out
}

// later is what every tiered partition's plan ends with.
const later = "disable-tiering-later (later): if tiering is later disabled (remote.storage.enable=false with remote.log.delete.on.disable=true), " +
	"the records between the leader's local log start and a flag-on replica's start are on the leader's disk only: keep leadership off flag-on replicas until they hold the leader's local log"

// withProduce is in with rate bytes a second produced, as given.
func withProduce(in Input, rate int64) Input {
	in.Env.ProduceBytesPerSec, in.Env.Given[FieldProduce] = rate, true
	return in
}

// TestHazardsOfEachState: the hazards each profile names for the partition
// states hazards.go documents, in order and word for word, on both sides of
// each condition: everything uploaded (the highest uploaded offset at the log
// end - 1, even offset 0) with and without produce; nothing tiered at or
// above a log start above 0, with full segments waiting (one record more
// than a segment) or not (exactly a segment), with and without produce, and
// not once something is tiered above it; -6 below the log start (the KIP
// text) and not at it; the highest uploaded offset unknown with copying on
// and off; copying disabled with the offset known, unknown with the whole
// log on disk, and 0; produce no replica can keep up with.
func TestHazardsOfEachState(t *testing.T) {
	const (
		idle = "fully-tiered (stall): everything is uploaded (highest uploaded offset %d = log end - 1): this leader answers -6 with -1 and -4 (%d) differs from -2 (0), " +
			"so a flag-on replica retries every 1000 ms until new records arrive"
		above = "log-start-above-tiered (stall): nothing is tiered at or above the log start 5000: this profile's auxiliary-state build needs the remote segment holding 4999, " +
			"which no longer exists, so a flag-on replica retries until "
		unknown = "hro-unknown (stall): the leader does not know its highest uploaded offset (latest-tiered gave none): it answers -6 with -1 and -4 (20480) differs from -2 (0), " +
			"so a flag-on replica retries every 1000 ms until the leader's %s seeds it (every 30000 ms once remote metadata is ready)"
		copyLater = "copy-disabled (later): remote.log.copy.disable=true: if the leader restarts, nothing in this release seeds its highest uploaded offset " +
			"(there is no copy task; trunk's expiration task does, KAFKA-20732), so a flag-on replica added after that retries while the leader answers -6 with -1, " +
			"and never joins unless remote retention raises the log start offset"
		copyStall = "copy-disabled (stall): remote.log.copy.disable=true and the leader does not know its highest uploaded offset: with no copy task nothing in this release seeds it " +
			"(trunk's expiration task does, KAFKA-20732), so the leader answers -6 with -1 and a flag-on replica retries until remote retention raises the log start offset " +
			"to the local log start offset; it then starts at the log start and needs the remote segment holding the offset before it, which that retention is deleting: " +
			"it joins only if it reads that segment first, and with no retention it never joins"
	)
	copyOff := map[string]string{"remote.log.copy.disable": "true"}
	state := func(lso, llso, hro, hw int64, overrides map[string]string) Input {
		return smallInput(t, map[Time]int64{TimeEarliest: lso, TimeEarliestLocal: llso, TimeLatestTiered: hro, TimeLatest: hw}, overrides)
	}
	k43, trunk, kip := model.Kafka43, model.KafkaTrunk, model.KIP
	for _, c := range []struct {
		name     string
		in       Input
		profiles []model.Profile
		want     []string
	}{
		{"fully tiered, none produced", withProduce(state(0, 70656, 71679, 71680, nil), 0), []model.Profile{k43, trunk},
			[]string{fmt.Sprintf(idle, 71679, 70656) + ": with none produced, never", later}},
		{"fully tiered, produced", withProduce(state(0, 70656, 71679, 71680, nil), 64<<10), []model.Profile{k43, trunk},
			[]string{fmt.Sprintf(idle, 71679, 70656), later}},
		{"fully tiered at offset 0", withProduce(state(0, 1, 0, 1, nil), 64<<10), []model.Profile{k43},
			[]string{fmt.Sprintf(idle, 0, 1), later}},
		{"fully tiered, the KIP text", withProduce(state(0, 70656, 71679, 71680, nil), 0), []model.Profile{kip}, []string{later}},
		{"log start above tiered, full segments waiting", withProduce(state(5000, 5000, -1, 5000+1024+1, nil), 64<<10), []model.Profile{k43, trunk},
			[]string{above + "the copy task (every 30000 ms) uploads the oldest of the full segments waiting on the leader's disk", later}},
		{"log start above tiered, one segment", withProduce(state(5000, 5000, -1, 5000+1024, nil), 64<<10), []model.Profile{k43, trunk},
			[]string{above + "a segment fills (16.0 s at 64.00 KiB/s) and the copy task (every 30000 ms) uploads it", later}},
		{"log start above tiered, one segment, 1 MiB/s", withProduce(state(5000, 5000, -1, 5000+1024, nil), 1<<20), []model.Profile{k43},
			[]string{above + "a segment fills (1.0 s at 1.00 MiB/s) and the copy task (every 30000 ms) uploads it", later}},
		{"log start above tiered, none produced", withProduce(state(5000, 5000, -1, 5000+1024, nil), 0), []model.Profile{k43},
			[]string{above + "a segment fills and is uploaded: with none produced, never", later}},
		{"log start above tiered, the KIP text", withProduce(state(5000, 5000, -1, 9000, nil), 0), []model.Profile{kip}, []string{later}},
		{"log start tiered above", state(5000, 5000, 6000, 9000, nil), []model.Profile{k43, trunk, kip}, []string{later}},
		{"log start 0, nothing tiered", state(0, 0, -1, 9000, nil), []model.Profile{k43, trunk, kip}, []string{later}},
		{"-6 below the log start", state(5000, 5000, 1000, 9000, nil), []model.Profile{kip},
			[]string{"epuo-below-log-start (slower): the leader answers -6 with 1001, below the log start 5000 (tiering was disabled and re-enabled, or records were deleted above the last upload): " +
				"a flag-on replica falls back to copying the leader's local log", later}},
		{"-6 at the log start", state(5000, 5000, 4999, 9000, nil), []model.Profile{kip}, []string{later}},
		{"highest uploaded unknown", hroUnknown(t, nil), []model.Profile{k43, trunk, kip}, []string{fmt.Sprintf(unknown, "copy task"), later}},
		{"highest uploaded unknown, copying disabled, seeded", hroUnknown(t, copyOff), []model.Profile{trunk, kip},
			[]string{fmt.Sprintf(unknown, "expiration task (with copying disabled there is no copy task)"), later}},
		{"highest uploaded unknown, copying disabled", hroUnknown(t, copyOff), []model.Profile{k43}, []string{copyStall, later}},
		{"copying disabled, highest uploaded known", state(0, 20480, 30000, 71680, copyOff), []model.Profile{k43}, []string{copyLater, later}},
		{"copying disabled, highest uploaded known, seeded", state(0, 20480, 30000, 71680, copyOff), []model.Profile{trunk, kip}, []string{later}},
		{"copying disabled, the log on disk", state(0, 0, -1, 9000, copyOff), []model.Profile{k43}, []string{copyLater, later}},
		{"copying disabled, highest uploaded 0", state(0, 1, 0, 5000, copyOff), []model.Profile{k43}, []string{copyLater, later}},
		{"produce above replication", withProduce(state(0, 20480, 70655, 71680, nil), 150<<20), []model.Profile{k43, trunk, kip},
			[]string{"cannot-catch-up (stall): 150.00 MiB/s produced leaves a new replica almost none of the 62.50 MiB/s it can copy: it never catches up, flag or not", later}},
	} {
		for _, p := range c.profiles {
			if got := explanations(hazardsOf(t, c.in, p, joinedIn(1, 1000))); !slices.Equal(got, c.want) {
				t.Errorf("%s, %s:\n got %q\nwant %q", c.name, p.Name(), got, c.want)
			}
		}
	}
}

// TestHazardsOfTheFlagOnRuns: what the flag-on runs showed adds hazards of
// its own: retries waiting for the new replica's remote metadata (not
// without them); the first run that broke a safety invariant (a liveness
// failure is not one), as a known finding by its kind or an unknown
// failure to report; and replicas that did not join for no reason a stall
// hazard gives, with the first of them to replay (not when every seed
// joined, nor when a stall explains it; a slower hazard does not).
func TestHazardsOfTheFlagOnRuns(t *testing.T) {
	const (
		metadata = "metadata-not-ready (slower): the flag-on bootstrap builds auxiliary state from remote storage, so it waits for the new replica's own remote log metadata (%d ms after it is assigned; KAFKA-19523)"
		replay   = "simrun plan ... SavePath plan.json, then simrun run Scenario plan.json Profile kafka-4.3 Seed %d Strategy last-tiered Trace"
	)
	broke := func(seed uint64, invariant, kind string) RunOutcome {
		o := notJoined(seed)
		o.Outcome, o.Invariant, o.Kind = harness.OutcomeSafety, invariant, kind
		return o
	}
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: 70655, TimeLatest: 71680}, nil)
	b, _ := buildOnly(t, in)
	ready := b.cfg.RemoteMetadataReadyMs
	for _, c := range []struct {
		name     string
		in       Input
		runs     []RunOutcome
		want     []string
		commands map[string]string
		seen     map[string]string
	}{
		{"all joined", in, []RunOutcome{joinedIn(1, 1000), joinedIn(2, 1000, "aux-unavailable", 1)}, []string{later}, nil, nil},
		{"metadata not ready", in, []RunOutcome{joinedIn(1, 1000), joinedIn(2, 3000, "metadata-not-ready", 2)},
			[]string{fmt.Sprintf(metadata, ready), later},
			map[string]string{HazardMetadataNotReady: "simrun gen Seed 177 Out s.json && simrun run Scenario s.json Profile kafka-4.3"},
			map[string]string{HazardMetadataNotReady: "flag on: 2 of 2 seeds joined, median 1.0 s; 2 retries (metadata-not-ready) over the seeds"}},
		{"not joined", in, []RunOutcome{joinedIn(1, 1000), notJoined(2), notJoined(3)},
			[]string{"flag-on-not-joined (stall): the flag-on replica did not join in 2 of 3 seeds, for no reason the plan knows: replay one with Trace", later},
			map[string]string{HazardNotJoined: fmt.Sprintf(replay, 2)}, nil},
		{"not joined, metadata not ready", in, []RunOutcome{notJoined(1, "metadata-not-ready", 1)},
			[]string{fmt.Sprintf(metadata, ready), "flag-on-not-joined (stall): the flag-on replica did not join in 1 of 1 seeds, for no reason the plan knows: replay one with Trace", later},
			nil, nil},
		{"not joined, a stall explains it", hroUnknown(t, nil), []RunOutcome{notJoined(1, "epuo-unknown", 5)},
			[]string{HazardHROUnknown, HazardDisableTieringLater}, nil, nil},
		{"broken, unknown", in, []RunOutcome{notJoined(3), broke(4, "hro-bound", ""), broke(5, "log-start", "stale-hro")},
			[]string{"invariant-broken (stall): the flag-on run of seed 4 broke invariant hro-bound: an unknown failure: please report it with the saved scenario", later},
			map[string]string{HazardInvariantBroken: fmt.Sprintf(replay, 4)}, nil},
		{"broken, known", in, []RunOutcome{joinedIn(3, 100), broke(5, "log-start", "stale-hro")},
			[]string{"invariant-broken (stall): the flag-on run of seed 5 broke invariant log-start: known finding stale-hro (FINDINGS.md)", later},
			map[string]string{HazardInvariantBroken: fmt.Sprintf(replay, 5)}, nil},
	} {
		hs := hazardsOf(t, c.in, model.Kafka43, c.runs...)
		got := explanations(hs)
		if !strings.Contains(c.want[0], " ") { // ids only
			got = idsOf(hs)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		for id, want := range c.commands {
			if hz := hazardOf(hs, id); hz == nil || hz.Command != want {
				t.Errorf("%s: %+v, want the command %q", c.name, hz, want)
			}
		}
		for id, want := range c.seen {
			if hz := hazardOf(hs, id); hz == nil || hz.Seen != want {
				t.Errorf("%s: %+v, want seen %q", c.name, hz, want)
			}
		}
	}
}
