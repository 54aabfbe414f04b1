package reports

import (
	bytespkg "bytes"
	"strings"
	"testing"

	"tierfetch/harness"
)

// fixedInput is profilesInput with the same pairs again under each profile
// with every fix: under kip as they are, under kafka-4.3 with every run
// passed and b's last-tiered back to kip's time.
func fixedInput() *CompareInput {
	in := profilesInput()
	in.Names = flagNames
	for s, set := range append([]ProfilePairs{{Profile: "kip", Pairs: in.Pairs}}, in.Others...) {
		fixed := make([]ComparePair, len(set.Pairs))
		for i, p := range set.Pairs {
			l, t := *p.Local, *p.Tiered
			if s == 1 {
				kl, kt := *in.Pairs[i].Local, *in.Pairs[i].Tiered
				l, t = kl, kt
				l.Outcome, l.Invariant, l.Kind = harness.OutcomeOK, "", ""
				t.Outcome, t.Invariant, t.Kind = harness.OutcomeOK, "", ""
				t.CaughtUp = true
				if t.CatchUpMs == 0 {
					t.CatchUpMs = 100
				}
			}
			fixed[i] = ComparePair{Scenario: p.Scenario, Seed: p.Seed, Profile: set.Profile, Fixes: "all", Local: &l, Tiered: &t}
		}
		in.Fixed = append(in.Fixed, ProfilePairs{Profile: set.Profile, Pairs: fixed})
	}
	return in
}

// TestCompareFixes: the report's "with fixes" column sets each profile's
// catch-up ratio, failed runs and followers that never joined beside the
// same with every fix, and lists where the fixes change a scenario.
func TestCompareFixes(t *testing.T) {
	in := fixedInput()
	a := Analyze(in)
	if len(a.Fixes) != 2 {
		t.Fatalf("fixes %+v, want kip and kafka-4.3", a.Fixes)
	}
	kip, k43 := a.Fixes[0], a.Fixes[1]
	if kip.Without.Failed != 3 || kip.With.Failed != 3 || k43.Without.Failed != 5 || k43.With.Failed != 0 ||
		k43.Without.NeverJoined != 2 || k43.With.NeverJoined != 0 {
		t.Errorf("kip %d -> %d failed; kafka-4.3 %d -> %d failed, %d -> %d never joined", kip.Without.Failed, kip.With.Failed,
			k43.Without.Failed, k43.With.Failed, k43.Without.NeverJoined, k43.With.NeverJoined)
	}
	if kip.With.Stats.GeoMean != kip.Without.Stats.GeoMean || k43.With.Stats.RatioN != 8 {
		t.Errorf("kip ratio %v with the fixes, %v without: want the same; kafka-4.3 with them: %d ratios, want all 8 pairs",
			kip.With.Stats.GeoMean, kip.Without.Stats.GeoMean, k43.With.Stats.RatioN)
	}
	var md bytespkg.Buffer
	CompareReport(&md, in, a, nil)
	for _, s := range []string{"## Once Kafka is fixed: --fix all", "(#once-kafka-is-fixed---fix-all)", "**Once Kafka is fixed**",
		"| `kafka-4.3` | ", " | 0 of 16 | 0 |", "`b`, last-tiered, `kafka-4.3`:"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if strings.Contains(md.String(), ", `kip`: ") {
		t.Error("the fixes change nothing under kip here, but the report lists a kip difference")
	}
	in.Fixed = nil
	md.Reset()
	CompareReport(&md, in, Analyze(in), nil)
	if strings.Contains(md.String(), "Once Kafka is fixed") {
		t.Error("a comparison run with --fix has no column with fixes")
	}
}

// TestFixedHeadlineAndRows: the headline's line on the fixes and the
// section's rows, word for word: NA for a profile with no pair to compare,
// and what each ratio leaves out only where it leaves something out.
func TestFixedHeadlineAndRows(t *testing.T) {
	in := fixedInput()
	for i := range in.Fixed[0].Pairs {
		in.Fixed[0].Pairs[i].Tiered.Outcome = harness.OutcomeSafety
	}
	var md bytespkg.Buffer
	CompareReport(&md, in, Analyze(in), nil)
	for _, want := range []string{
		"- **Once Kafka is fixed** ([the same pairs with `--fix all`](#once-kafka-is-fixed---fix-all), every fix the upstream reports suggest): " +
			"the catch-up ratio is NA under `kip` (over the pairs that passed: 9 of 16 runs broke an invariant, 0 followers never joined) " +
			"(without them 0.63x, over the pairs that passed: 3 of 16 runs broke an invariant, 0 followers never joined); " +
			"0.71x under `kafka-4.3` (without them 22.36x, over the pairs that passed: 5 of 16 runs broke an invariant, 2 followers never joined).\n",
		"\n| `kip` | 0.63x | 6 of 8 | 3 of 16 | 0 | NA | 0 of 8 | 9 of 16 | 0 |\n",
		"\n| `kafka-4.3` | 22.36x | 4 of 8 | 5 of 16 | 2 | 0.71x | 8 of 8 | 0 of 16 | 0 |\n",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("report lacks\n%s", want)
		}
	}
}

// TestFixedStatsFollowerZero: a follower that is broker 0 and never joined
// is counted.
func TestFixedStatsFollowerZero(t *testing.T) {
	p := pair("s", 1, 100, 50, harness.OutcomeOK, harness.OutcomeOK)
	p.Tiered.Follower, p.Tiered.CaughtUp = 0, false
	if s := fixedStats("kip", []ComparePair{p}); s.NeverJoined != 1 {
		t.Errorf("%d followers never joined, want 1 (broker 0)", s.NeverJoined)
	}
}
