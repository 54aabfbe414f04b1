package plan

import (
	"strings"
	"testing"
)

// withJoined is pp with strategy i (0 flag off, 1 flag on) joining in
// joined of its 5 seeds; with none, it has no times or bytes.
func withJoined(pp ProfilePlan, i, joined int) ProfilePlan {
	pp.Strategies = append([]StrategyPlan(nil), pp.Strategies...)
	sp := &pp.Strategies[i]
	sp.Joined = joined
	if joined == 0 {
		sp.CatchUpMs, sp.BytesFromLeader = nil, nil
	}
	return pp
}

// TestRecommendationSentences: after the advice, the recommendation says
// the partition's sizes, then each quantity once for the profiles that
// agree on it ("under every profile run" only when more than one profile
// ran and all agree on both), with the flag-on replica's stall hazards, a
// join in some seeds or none, and copies unknown when a replica never
// joined; the price when both strategies have one; brokers without -6; and
// what it assumed.
func TestRecommendationSentences(t *testing.T) {
	const (
		head    = "Partition orders-2 holds 70.00 MiB: 50.00 MiB on the leader's disk, 1.00 MiB not yet uploaded. "
		fast    = "a new, empty replica joins in 6.0 s with the flag and in 300.0 s without"
		copies  = "it copies 1.00 MiB from the leader with the flag and 1.00 GiB without"
		unknown = "what it copies from the leader is not known: a replica never joined"
		tail    = "Before you ever disable tiering on this topic, move leadership off replicas that bootstrapped with the flag on. " +
			"This assumes 1.00 MiB/s produced (a default: ProduceBytesPerSec), 100.00 MiB/s of replication bandwidth (a default: ReplicationBytesPerSec) and the 6 assumptions listed below."
		older = "Your brokers do not answer ListOffsets -6, so they predate Kafka 4.2 and have no such flag: the advice is for after an upgrade to 4.3. "
	)
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: 70655, TimeLatest: 71680}, nil)
	b, _ := buildOnly(t, in)
	k43, trunk, kip := answerOf("kafka-4.3", "on", 300_000, 6_000, 6_800), answerOf("kafka-trunk", "on", 300_000, 6_000, 6_800), answerOf("kip", "on", 300_000, 6_000, 6_800)
	stalled := answerOf("kafka-trunk", "off", 300_000, 6_000, 6_800, Hazard{ID: HazardFullyTieredIdle, Severity: "stall"},
		Hazard{ID: HazardEPUOBelowLogStart, Severity: "slower"}, Hazard{ID: HazardDisableTieringLater, Severity: "later"})
	priced := k43
	priced.Strategies = append([]StrategyPlan(nil), k43.Strategies...)
	priced.Strategies[0].PriceRemoteBytes, priced.Strategies[1].PriceRemoteBytes = &Distribution{Median: 20 << 20}, &Distribution{Median: 70 << 20}
	halfPriced := k43
	halfPriced.Strategies = append([]StrategyPlan(nil), k43.Strategies...)
	halfPriced.Strategies[1].PriceRemoteBytes = &Distribution{Median: 70 << 20}
	on := "Recommendation: turn the flag on for this topic (kafka-4.3). "
	for _, c := range []struct {
		name         string
		profiles     []ProfilePlan
		unsupported6 bool
		want         string
	}{
		{"one profile", []ProfilePlan{k43}, false, on + head + "Under kafka-4.3, " + fast + ". Under kafka-4.3, " + copies + ". " + tail},
		{"two agree", []ProfilePlan{k43, trunk}, false, "Recommendation: turn the flag on for this topic (kafka-4.3, kafka-trunk). " + head +
			"Under every profile run (kafka-4.3 and kafka-trunk), " + fast + ". It copies 1.00 MiB from the leader with the flag and 1.00 GiB without. " + tail},
		{"three, two agree on the time", []ProfilePlan{k43, trunk, answerOf("kip", "on", 200_000, 6_000, 6_800)}, false,
			"Recommendation: turn the flag on for this topic (kafka-4.3, kafka-trunk; kip is left out as the KIP text, not a release: its verdict is on). " + head +
				"Under kafka-4.3 and kafka-trunk, " + fast + ". Under kip, a new, empty replica joins in 6.0 s with the flag and in 200.0 s without. " +
				"Under kafka-4.3, kafka-trunk and kip, " + copies + ". " + tail},
		{"some join, some never", []ProfilePlan{withJoined(k43, 0, 0), withJoined(stalled, 1, 0), withJoined(kip, 1, 3), withJoined(answerOf("kafka-4.0", "on", 300_000, 6_000, 6_800), 0, 4)}, false,
			"Recommendation: it depends on your release: turn it on with kafka-4.3, kafka-4.0, leave it off with kafka-trunk (kip is left out as the KIP text, not a release: its verdict is on). " + head +
				"Under kafka-4.3, a new, empty replica joins in 6.0 s with the flag and never joins without. " +
				"Under kafka-trunk, a new, empty replica never joins with the flag (fully-tiered, epuo-below-log-start) and joins in 300.0 s without. " +
				"Under kip, a new, empty replica joins in 3 of 5 seeds with the flag and in 300.0 s without. " +
				"Under kafka-4.0, a new, empty replica joins in 6.0 s with the flag and in 4 of 5 seeds without. " +
				"Under kafka-4.3 and kafka-trunk, " + unknown + ". Under kip and kafka-4.0, " + copies + ". " + tail},
		{"brokers without -6", []ProfilePlan{k43}, true, on + head + "Under kafka-4.3, " + fast + ". Under kafka-4.3, " + copies + ". " + older + tail},
		{"the price", []ProfilePlan{priced}, false, on + head + "Under kafka-4.3, " + fast + ". Under kafka-4.3, " + copies + ". " +
			"The price: once such a replica leads, a consumer reading from the log start gets 70.00 MiB from remote storage instead of 20.00 MiB. " + tail},
		{"a price of one strategy", []ProfilePlan{halfPriced}, false, on + head + "Under kafka-4.3, " + fast + ". Under kafka-4.3, " + copies + ". " + tail},
	} {
		b.unsupported6 = c.unsupported6
		if got := recommend(b, &Result{Profiles: c.profiles}); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestRecommendationAssumed: the last sentence names the rates the user
// gave as they are and the defaults as such, and counts the assumptions
// listed below; with tiering off the recommendation says so and stops
// after the sizes.
func TestRecommendationAssumed(t *testing.T) {
	in := smallInput(t, map[Time]int64{TimeEarliest: 1000, TimeEarliestLocal: 1000, TimeLatest: 60000}, map[string]string{"remote.storage.enable": "false"})
	in.Env.ReplicationBytesPerSec, in.Env.Given[FieldReplication] = 10<<20, true
	in.Names = func(field string) string { return "--" + strings.ToLower(field) }
	b, _ := buildOnly(t, in)
	b.assume = b.assume[:1]
	r := &Result{Profiles: []ProfilePlan{answerOf("kafka-4.3", "no-difference", 300_000, 300_000, 300_000)}}
	want := "Recommendation: leave follower.fetch.last.tiered.offset.enable as it is: tiering is off, so the flag makes no difference here. " +
		"Partition orders-2 holds 57.62 MiB: 57.62 MiB on the leader's disk, 57.62 MiB not yet uploaded. " +
		"This assumes 1.00 MiB/s produced (a default: --producebytespersec), 10.00 MiB/s of replication bandwidth and the 1 assumption listed below."
	if got := recommend(b, r); got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}

// TestAdviceNamesTheReleases: the advice follows the release profiles'
// verdicts (off, neither and never-catches-up all leave the flag off), says
// why the KIP text is left out and what its verdict was, warns of the
// delay a release the flag helps still shows (its stall or slower hazards,
// not its later ones, and not the KIP text's), names a release whose
// verdict is either beside the advice for the others, and follows the KIP
// text only when no release ran.
func TestAdviceNamesTheReleases(t *testing.T) {
	stall := Hazard{ID: HazardHROUnknown, Severity: "stall"}
	slower := Hazard{ID: HazardMetadataNotReady, Severity: "slower"}
	later := Hazard{ID: HazardDisableTieringLater, Severity: "later"}
	pp := func(name, verdict string, hazards ...Hazard) ProfilePlan {
		return answerOf(name, verdict, 300_000, 6_000, 6_800, hazards...)
	}
	const kipOn = "kip is left out as the KIP text, not a release: its verdict is on"
	for _, c := range []struct {
		profiles []ProfilePlan
		want     string
	}{
		{[]ProfilePlan{pp("kafka-4.3", "on"), pp("kafka-trunk", "on"), pp("kip", "on")},
			"Recommendation: turn the flag on for this topic (kafka-4.3, kafka-trunk; " + kipOn + ")."},
		{[]ProfilePlan{pp("kafka-4.3", "on", stall, later), pp("kafka-trunk", "on", later), pp("kip", "on", stall)},
			"Recommendation: turn the flag on for this topic (kafka-4.3, kafka-trunk; " + kipOn + "), but expect the delay kafka-4.3 shows (hro-unknown)."},
		{[]ProfilePlan{pp("kafka-4.3", "on", later), pp("kafka-trunk", "on", slower, stall)},
			"Recommendation: turn the flag on for this topic (kafka-4.3, kafka-trunk), but expect the delay kafka-trunk shows (metadata-not-ready, hro-unknown)."},
		{[]ProfilePlan{pp("kafka-4.3", "off", stall), pp("kafka-trunk", "neither"), pp("kafka-4.0", "never-catches-up"), pp("kip", "either")},
			"Recommendation: leave the flag off for this topic (kafka-4.3, kafka-trunk, kafka-4.0; kip is left out as the KIP text, not a release: its verdict is either)."},
		{[]ProfilePlan{pp("kafka-4.3", "off"), pp("kafka-trunk", "on", stall), pp("kip", "on")},
			"Recommendation: it depends on your release: turn it on with kafka-trunk, leave it off with kafka-4.3 (" + kipOn + ")."},
		{[]ProfilePlan{pp("kafka-4.3", "either"), pp("kip", "off")},
			"Recommendation: either way (kafka-4.3; kip is left out as the KIP text, not a release: its verdict is off): the flag changes catch-up by less than 10%."},
		{[]ProfilePlan{pp("kafka-4.3", "either"), pp("kafka-trunk", "on")},
			"Recommendation: turn the flag on for this topic (kafka-trunk; with kafka-4.3 the flag changes catch-up by less than 10%)."},
		{[]ProfilePlan{pp("kafka-4.3", "off"), pp("kafka-4.0", "either"), pp("kip", "off")},
			"Recommendation: leave the flag off for this topic (kafka-4.3; with kafka-4.0 the flag changes catch-up by less than 10%; kip is left out as the KIP text, not a release: its verdict is off)."},
		{[]ProfilePlan{pp("kafka-4.3", "off"), pp("kafka-trunk", "on"), pp("kafka-4.0", "either")},
			"Recommendation: it depends on your release: turn it on with kafka-trunk, leave it off with kafka-4.3 (with kafka-4.0 the flag changes catch-up by less than 10%)."},
		{[]ProfilePlan{pp("kip", "on", stall)}, "Recommendation (no release profile was run): the KIP text says turn it on."},
		{[]ProfilePlan{pp("kip", "either")}, "Recommendation (no release profile was run): the KIP text says leave it off."},
	} {
		if got := advice(&Result{Profiles: c.profiles}); got != c.want {
			t.Errorf("\n got %q\nwant %q", got, c.want)
		}
	}
}

// TestAdviceDependsWithoutTheKIPText: releases that disagree, with no KIP
// text run (simrun plan --profile kafka-4.3,kafka-trunk), give the advice
// for each release and nothing after: no empty "()" where the KIP text's
// verdict would be.
func TestAdviceDependsWithoutTheKIPText(t *testing.T) {
	r := &Result{Profiles: []ProfilePlan{answerOf("kafka-4.3", "off", 300_000, 6_000, 6_800), answerOf("kafka-trunk", "on", 300_000, 6_000, 6_800)}}
	want := "Recommendation: it depends on your release: turn it on with kafka-trunk, leave it off with kafka-4.3."
	if got := advice(r); got != want {
		t.Errorf("\n got %q\nwant %q", got, want)
	}
}
