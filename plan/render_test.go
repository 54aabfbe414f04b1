package plan

import (
	"strings"
	"testing"
)

// answerOf is a profile's answer with both strategies joining at the
// median times given (ms), copying the bytes given, and the hazards.
func answerOf(name, verdict string, offMs, onMs, maxOnMs int64, hazards ...Hazard) ProfilePlan {
	sp := func(flag bool, ms, maxMs, bytes int64) StrategyPlan {
		return StrategyPlan{Flag: flag, Seeds: 5, Joined: 5, CatchUpMs: &Distribution{N: 5, Min: ms - 100, Median: ms, Max: maxMs},
			BytesFromLeader: &Distribution{N: 5, Median: bytes}, Paths: map[string]int{"earliest-pending-upload": 5}}
	}
	pp := ProfilePlan{Profile: name, Verdict: verdict, Hazards: hazards,
		Strategies: []StrategyPlan{sp(false, offMs, offMs+200, 1<<30), sp(true, onMs, maxOnMs, 1<<20)}}
	pp.Summary = "The flag-on replica joins the ISR faster."
	return pp
}

// TestAgreeingProfilesPrintOnce: profiles whose answers read the same are
// one block, named together, with min..max over all their seeds and each
// hazard once; a profile whose answer differs has its own block.
func TestAgreeingProfilesPrintOnce(t *testing.T) {
	later := Hazard{ID: HazardDisableTieringLater, Severity: "later", Explanation: "keep leadership off", Command: "simrun run --scenario x"}
	stall := Hazard{ID: "fully-tiered", Severity: "stall", Explanation: "waits", Command: "simrun run --scenario y"}
	r := &Result{Topic: "t", Profiles: []ProfilePlan{
		answerOf("kafka-4.3", "on", 300_000, 6_000, 6_800, later, stall),
		answerOf("kafka-trunk", "on", 300_000, 6_000, 6_800, later, stall),
		answerOf("kip", "on", 300_000, 6_000, 6_900, later),
	}}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"\nkafka-4.3, kafka-trunk: turn the flag on (verdict: on)\n", "min..max (2 profiles)",
		"\nkip: turn the flag on (verdict: on)\n", "5.9 s..6.9 s"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "hazard fully-tiered"); n != 1 {
		t.Errorf("the shared hazard is printed %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "hazard "+HazardDisableTieringLater); n != 2 {
		t.Errorf("the hazard of both blocks is printed %d times, want twice (one a block)", n)
	}
}

// TestRecommendationVerdictFirst: the recommendation starts with what to
// do, says why kip is left out of it, and says each quantity in its own
// sentence, once for the profiles that agree.
func TestRecommendationVerdictFirst(t *testing.T) {
	r := &Result{Profiles: []ProfilePlan{
		answerOf("kafka-4.3", "on", 300_000, 6_000, 6_800),
		answerOf("kip", "on", 300_000, 6_000, 6_800),
	}}
	got := advice(r)
	if !strings.HasPrefix(got, "Recommendation: turn the flag on for this topic (kafka-4.3; kip is left out as the KIP text, not a release: its verdict is on)") {
		t.Errorf("advice: %q", got)
	}
	times, copies := agreeing(r, timeClause), agreeing(r, bytesClause)
	if len(times) != 1 || len(copies) != 1 || strings.Contains(times[0].clause, "GiB") || strings.Contains(copies[0].clause, " s ") {
		t.Errorf("clauses %+v %+v: want one each, time and bytes apart", times, copies)
	}
}
