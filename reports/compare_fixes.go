package reports

import (
	"fmt"
	"io"
	"strings"
	"tierfetch/config"

	"tierfetch/harness"
)

// fixedTitle is the heading of the report's section on the pairs run
// again with every fix of Kafka's code (CompareInput.Fixed).
func fixedTitle(names config.Names) string { return names.Sprintf("Once Kafka is fixed: {Fix} all") }

// FixedProfile is one profile's pairs without fixes and again with every
// fix: what the flag costs once Kafka is fixed.
type FixedProfile struct {
	Profile       string
	Without, With FixedStats
	// Changes compares the two, scenario by scenario: Profiles[0] is
	// without fixes, Profiles[1] with every fix.
	Changes *ProfileComparison
}

// FixedStats is one profile's pairs, with or without fixes: the
// statistics of the pairs both of whose runs passed, and how many runs
// broke an invariant or left a follower that never joined the ISR.
type FixedStats struct {
	Stats       GroupStats
	Runs        int
	Failed      int // runs that broke an invariant
	NeverJoined int // runs whose added follower never joined the ISR
}

// CompareFixes pairs each profile's pairs with the same pairs run with
// every fix (in.Fixed); nil when the comparison ran none.
func CompareFixes(in *CompareInput) []FixedProfile {
	if len(in.Fixed) == 0 {
		return nil
	}
	sets := append([]ProfilePairs{{Profile: in.Profile, Pairs: in.Pairs}}, in.Others...)
	var out []FixedProfile
	for i, set := range sets {
		fixed := in.Fixed[i]
		both := &CompareInput{Profile: set.Profile, Pairs: set.Pairs,
			Others: []ProfilePairs{{Profile: in.Names.Sprintf("%s {Fix} all", set.Profile), Pairs: fixed.Pairs}}}
		out = append(out, FixedProfile{Profile: set.Profile, Without: fixedStats(set.Profile, set.Pairs),
			With: fixedStats(set.Profile, fixed.Pairs), Changes: CompareProfiles(both)})
	}
	return out
}

func fixedStats(name string, pairs []ComparePair) FixedStats {
	var s FixedStats
	ptrs := make([]*ComparePair, len(pairs))
	for i := range pairs {
		ptrs[i] = &pairs[i]
		for _, r := range []*harness.RunMetrics{pairs[i].Local, pairs[i].Tiered} {
			s.Runs++
			if r.Outcome != harness.OutcomeOK {
				s.Failed++
			}
			if r.Follower >= 0 && !r.CaughtUp {
				s.NeverJoined++
			}
		}
	}
	s.Stats = Stats(name, ptrs)
	return s
}

// fixedRatio writes a profile's catch-up ratio, "NA" without a pair to
// compare.
func fixedRatio(s FixedStats) string {
	if s.Stats.RatioN == 0 {
		return "NA"
	}
	return ratio(s.Stats.GeoMean)
}

// leftOut says what a profile's catch-up ratio leaves out, "" when nothing.
func leftOut(s FixedStats) string {
	if s.Failed == 0 && s.NeverJoined == 0 {
		return ""
	}
	return fmt.Sprintf(", over the pairs that passed: %d of %d runs broke an invariant, %d followers never joined", s.Failed, s.Runs, s.NeverJoined)
}

// writeFixedHeadline is the headline's line on the pairs with every fix.
func writeFixedHeadline(w io.Writer, fixes []FixedProfile, names config.Names) {
	var parts []string
	for _, f := range fixes {
		with := ""
		if l := leftOut(f.With); l != "" {
			with = " (" + strings.TrimPrefix(l, ", ") + ")"
		}
		parts = append(parts, fmt.Sprintf("%s under `%s`%s (without them %s%s)", fixedRatio(f.With), f.Profile, with,
			fixedRatio(f.Without), leftOut(f.Without)))
	}
	names.Fprintf(w, "- **Once Kafka is fixed** ([the same pairs with `{Fix} all`](#%s), every fix the upstream reports suggest): "+
		"the catch-up ratio is %s.\n", anchor(fixedTitle(names)), strings.Join(parts, "; "))
}

// writeFixed writes the section on the pairs run again with every fix.
func writeFixed(w io.Writer, in *CompareInput, fixes []FixedProfile) {
	fmt.Fprintf(w, "## %s\n\n", fixedTitle(in.Names))
	in.Names.Fprintf(w, "The same pairs again, with every fix of Kafka's code that the upstream reports suggest switched on "+
		"(`{Fix} all`; `simrun fixes` lists them, and each report in docs/upstream/ shows its evidence): what the flag costs once "+
		"Kafka is fixed. The catch-up ratio is the geometric mean of last-tiered's catch-up time over local-log-start's, over the "+
		"pairs where both runs passed every invariant and both new followers joined the ISR; the runs that broke an invariant and "+
		"the followers that never joined are counted beside it, not hidden. `runs.csv` holds the pairs without fixes; "+
		"`simrun compare {Fix} all` makes a comparison of these alone, with their rows.\n\n")
	in.Names.Fprintf(w, "| profile | catch-up ratio | pairs compared | runs that broke an invariant | followers that never joined "+
		"| with `{Fix} all`: catch-up ratio | pairs compared | runs that broke an invariant | followers that never joined |\n")
	fmt.Fprintf(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, f := range fixes {
		row := func(s FixedStats) string {
			gm := "NA"
			if s.Stats.RatioN > 0 {
				gm = ratio(s.Stats.GeoMean)
			}
			return fmt.Sprintf("%s | %d of %d | %d of %d | %d", gm, s.Stats.RatioN, s.Stats.Pairs, s.Failed, s.Runs, s.NeverJoined)
		}
		fmt.Fprintf(w, "| `%s` | %s | %s |\n", f.Profile, row(f.Without), row(f.With))
	}
	fmt.Fprintln(w)
	var lines []string
	for _, f := range fixes {
		for _, d := range f.Changes.Differences() {
			lines = append(lines, fmt.Sprintf("- %s, %s, `%s`: %s without the fixes; %s with them", groupName(in, d.Group.Scenario, d.Group.VaryValue),
				harness.Strategies[d.Side], f.Profile, profileCell(d.Main), profileCell(d.Of)))
		}
	}
	if len(lines) == 0 {
		fmt.Fprintf(w, "The fixes change no scenario's result under any profile: the same followers join, with median catch-up times "+
			"within a factor of %d.\n\n", DifferenceFactor)
		return
	}
	fmt.Fprintf(w, "Where the fixes change a result (a follower joins with them and not without, or the medians are %dx or more apart):\n\n%s\n\n",
		DifferenceFactor, strings.Join(lines, "\n"))
}
