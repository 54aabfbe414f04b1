package reports

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"tierfetch/harness"
	"tierfetch/invariants"
	"tierfetch/model"
)

// ProfilePairs is a comparison's pairs under one behaviour profile.
type ProfilePairs struct {
	Profile string
	Pairs   []ComparePair
}

// ProfileComparison is the same workloads under several behaviour profiles
// (the first is the one of the main statistics). Each run counts on its
// own: a run that broke an invariant is left out of its profile's catch-up
// times and listed in Failures.
type ProfileComparison struct {
	Profiles []string
	Runs     []int // runs per profile
	Failed   []int // runs per profile that broke an invariant
	// Groups is one per scenario (and varied value), in run order.
	Groups   []ProfileGroup
	Failures []ProfileFailure
}

// ProfileGroup is one scenario (at one varied value) under every profile:
// Cells[profile][0] is local-log-start, Cells[profile][1] last-tiered.
type ProfileGroup struct {
	Scenario  string
	VaryValue string
	Cells     [][2]ProfileCell
}

// ProfileCell is one scenario under one profile and one strategy, over the
// seeds.
type ProfileCell struct {
	Runs        int
	Failed      int // broke an invariant: out of CatchUp
	NoFollower  int // no replica was added
	NeverJoined int // the added follower never joined the ISR, whatever the outcome
	// CatchUp is the catch-up times of the runs that passed every
	// invariant and whose follower joined the ISR.
	CatchUp Dist
}

// ProfileFailure is one way runs under a profile broke an invariant, with
// the runs it happened in.
type ProfileFailure struct {
	Profile  string
	Strategy harness.Strategy
	Reason   string // invariant (known kind)
	Runs     []*ComparePair
}

// CompareProfiles computes the comparison of in.Pairs with in.Others.
func CompareProfiles(in *CompareInput) *ProfileComparison {
	sets := append([]ProfilePairs{{Profile: in.Profile, Pairs: in.Pairs}}, in.Others...)
	pc := &ProfileComparison{Runs: make([]int, len(sets)), Failed: make([]int, len(sets))}
	type key struct{ scenario, value string }
	index := map[key]int{}
	var times [][][2][]float64 // [group][profile][strategy]
	for i := range in.Pairs {
		k := key{in.Pairs[i].Scenario, in.Pairs[i].VaryValue}
		if _, ok := index[k]; !ok {
			index[k] = len(pc.Groups)
			pc.Groups = append(pc.Groups, ProfileGroup{Scenario: k.scenario, VaryValue: k.value, Cells: make([][2]ProfileCell, len(sets))})
			times = append(times, make([][2][]float64, len(sets)))
		}
	}
	type failureKey struct {
		profile, side int
		reason        string
	}
	failures := map[failureKey]*ProfileFailure{}
	var failureOrder []failureKey
	for s, set := range sets {
		pc.Profiles = append(pc.Profiles, set.Profile)
		for i := range set.Pairs {
			p := &set.Pairs[i]
			gi, ok := index[key{p.Scenario, p.VaryValue}]
			if !ok {
				panic(fmt.Sprintf("reports: profile %s ran %s %s, which the first profile did not", set.Profile, p.Scenario, p.VaryValue))
			}
			for side, r := range []*harness.RunMetrics{p.Local, p.Tiered} {
				c := &pc.Groups[gi].Cells[s][side]
				c.Runs++
				pc.Runs[s]++
				switch {
				case r.Follower < 0:
					c.NoFollower++
				case !r.CaughtUp:
					c.NeverJoined++
				}
				if r.Outcome != harness.OutcomeOK {
					c.Failed++
					pc.Failed[s]++
					fk := failureKey{s, side, runFailure(r)}
					if failures[fk] == nil {
						failures[fk] = &ProfileFailure{Profile: set.Profile, Strategy: r.Strategy, Reason: fk.reason}
						failureOrder = append(failureOrder, fk)
					}
					failures[fk].Runs = append(failures[fk].Runs, p)
					continue
				}
				if r.CaughtUp {
					times[gi][s][side] = append(times[gi][s][side], float64(r.CatchUpMs))
				}
			}
		}
	}
	for gi := range pc.Groups {
		for s := range sets {
			for side := range 2 {
				pc.Groups[gi].Cells[s][side].CatchUp = newDist(times[gi][s][side])
			}
		}
	}
	slices.SortStableFunc(failureOrder, func(x, y failureKey) int {
		return cmp.Or(cmp.Compare(x.profile, y.profile), cmp.Compare(x.side, y.side),
			cmp.Compare(len(failures[y].Runs), len(failures[x].Runs)), cmp.Compare(x.reason, y.reason))
	})
	for _, fk := range failureOrder {
		pc.Failures = append(pc.Failures, *failures[fk])
	}
	return pc
}

// runFailure names what a failed run broke: its invariant and known kind.
func runFailure(r *harness.RunMetrics) string {
	s := r.Invariant
	if r.Kind != "" {
		s += " (" + r.Kind + ")"
	}
	return s
}

// ProfileDifference is a scenario and strategy whose catch-up differs between
// the first profile and another: one joins where the other does not, or
// their median times differ by a factor of DifferenceFactor or more.
type ProfileDifference struct {
	Group    *ProfileGroup
	Side     int // 0 local-log-start, 1 last-tiered
	Other    int // index of the other profile
	Main, Of ProfileCell
}

// DifferenceFactor is how far apart two median catch-up times must be for
// the report to call them different.
const DifferenceFactor = 2

// Differences lists where the first profile and each other differ.
func (pc *ProfileComparison) Differences() []ProfileDifference {
	var out []ProfileDifference
	for gi := range pc.Groups {
		g := &pc.Groups[gi]
		for o := 1; o < len(pc.Profiles); o++ {
			for side := range 2 {
				m, x := g.Cells[0][side], g.Cells[o][side]
				joins := func(c ProfileCell) int { return c.Runs - c.NoFollower - c.NeverJoined }
				differ := joins(m) != joins(x)
				if m.CatchUp.N > 0 && x.CatchUp.N > 0 {
					q := x.CatchUp.P50 / max(m.CatchUp.P50, 1)
					differ = differ || q >= DifferenceFactor || q <= 1.0/DifferenceFactor
				}
				if differ {
					out = append(out, ProfileDifference{Group: g, Side: side, Other: o, Main: m, Of: x})
				}
			}
		}
	}
	return out
}

// seedList writes seeds (in increasing order) as ranges, "1..5, 8, 10..12",
// at most limit ranges and then "...".
func seedList(seeds []uint64, limit int) string {
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		if len(parts) == limit {
			parts = append(parts, "...")
			break
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d..%d", seeds[i], seeds[j]))
		} else {
			parts = append(parts, fmt.Sprint(seeds[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// profileAbout says in words what each known profile follows.
var profileAbout = map[string]string{
	"kip":         "follows the KIP-1023 text",
	"kafka-4.3":   "follows Apache Kafka 4.3.0 and 4.3.1's broker code where it differs (the leader's ListOffsets -6 answer, the follower's requests, the auxiliary-state build, no copy task when copying is disabled)",
	"kafka-trunk": "follows Apache Kafka trunk at " + model.KafkaTrunkCommit[:8] + ": `kafka-4.3` plus KAFKA-20732 (the RLM expiration task seeds an unknown highest uploaded offset on a leader, so a restarted leader learns it with copying disabled too)",
}

// profileTitles names each known profile in the heading of the section
// comparing profiles.
var profileTitles = map[string]string{"kip": "KIP text", "kafka-4.3": "Kafka 4.3", "kafka-trunk": "Kafka trunk"}

// ProfilesTitle is the heading of the section comparing profiles: "KIP
// text vs Kafka 4.3 vs Kafka trunk" when the KIP text comes with known
// Kafka profiles only, in model.ProfileNames order.
func ProfilesTitle(profiles []string) string {
	var names []string
	for _, p := range model.ProfileNames() {
		if slices.Contains(profiles, p) {
			names = append(names, profileTitles[p])
		}
	}
	if len(profiles) >= 2 && len(names) == len(profiles) && slices.Contains(profiles, "kip") {
		return strings.Join(names, " vs ")
	}
	return "Profiles: " + strings.Join(profiles, " vs ")
}

// anchor is the GitHub anchor of a markdown heading.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

func writeProfiles(w io.Writer, in *CompareInput, a *Analysis) {
	pc := a.Profiles
	fmt.Fprintf(w, "## %s\n\n", ProfilesTitle(pc.Profiles))
	fmt.Fprintf(w, "The same scenarios and seeds (the same exogenous events) under each behaviour profile: ")
	for i, name := range pc.Profiles {
		about := profileAbout[name]
		if about == "" {
			about = "a behaviour profile"
		}
		sep := "; "
		if i == len(pc.Profiles)-1 {
			sep = ". "
		}
		main := ""
		if i == 0 {
			main = " (the statistics above)"
		}
		fmt.Fprintf(w, "`%s` %s%s%s", name, about, main, sep)
	}
	fmt.Fprintf(w, "Here each run counts on its own: a cell is the median catch-up time of the runs that passed every invariant; "+
		"then, if any, how many seeds' new followers never joined the ISR (whatever the outcome) and how many runs broke an invariant "+
		"(left out of the median, listed below). A cell with a time alone: every seed's follower joined and every run passed.\n\n")
	var counts []string
	for i, name := range pc.Profiles {
		counts = append(counts, fmt.Sprintf("`%s` %d runs, %d broke an invariant", name, pc.Runs[i], pc.Failed[i]))
	}
	fmt.Fprintf(w, "Runs: %s.\n\n", strings.Join(counts, "; "))
	writeProfileTable(w, in, pc)
	writeProfileDifferences(w, in, pc)
	writeProfileFailures(w, in, pc)
	if kafka := kafkaProfiles(pc.Profiles); len(kafka) > 0 {
		fmt.Fprintf(w, "Under %s a flag-on follower can stall where the KIP text lets it join: the leader answers ListOffsets -6 "+
			"with -1 for a fully tiered idle partition and while it does not know its highest uploaded offset (after a restart, "+
			"until its copy task's first run; with `remote.log.copy.disable` never in 4.3.0 and 4.3.1, until the expiration "+
			"task's first run in trunk, KAFKA-20732), and the auxiliary-state build needs a remote segment holding `start - 1`. ",
			strings.Join(kafka, " and "))
		var seen []string
		for _, kind := range []string{invariants.KindKafka43EPUOUnknownStall, invariants.KindKafka43AuxStateStall} {
			for _, f := range pc.Failures {
				if strings.Contains(f.Reason, "("+kind+")") && !slices.Contains(seen, kind) {
					seen = append(seen, kind)
				}
			}
		}
		if len(seen) > 0 {
			fmt.Fprintf(w, "The liveness failures of kind `%s` above are those stalls: expected findings about Kafka's code, "+
				"not simulator bugs, kept in view rather than hidden. ", strings.Join(seen, "` and `"))
		} else {
			fmt.Fprintf(w, "No run here stalls for good (no liveness failure of kind `%s` or `%s`). ",
				invariants.KindKafka43EPUOUnknownStall, invariants.KindKafka43AuxStateStall)
		}
		fmt.Fprintf(w, "%s says in plain words what an operator turning on `follower.fetch.last.tiered.offset.enable` should "+
			"expect, with the command that reproduces each claim.\n\n", findingsRef(in.FindingsLink))
	} else {
		fmt.Fprintf(w, "%s describes what each profile shows.\n\n", findingsRef(in.FindingsLink))
	}
}

// kafkaProfiles returns the profiles, quoted, that follow Kafka's code.
func kafkaProfiles(profiles []string) []string {
	var out []string
	for _, p := range profiles {
		if p == "kafka-4.3" || p == "kafka-trunk" {
			out = append(out, "`"+p+"`")
		}
	}
	return out
}

func findingsRef(link string) string {
	if link == "" {
		return "FINDINGS.md (at the repository root)"
	}
	return "[FINDINGS.md](" + link + ")"
}

// groupName names a scenario at a varied value (with the value in the
// parameter's terms when they differ).
func groupName(in *CompareInput, scenario, value string) string {
	s := "`" + scenario + "`"
	if value == "" {
		return s
	}
	s += " at `" + in.VaryKey + "` = " + value
	if i := slices.Index(in.VaryValues, value); i >= 0 {
		s = "`" + scenario + "` at `" + in.VaryKey + "` = " + valueLabel(value, SweepAxis(in.VaryKey, in.VaryValues).Labels[i])
	}
	return s
}

// valueLabel writes a varied value with its label in the parameter's terms
// when that says more: "5242880 (5.00 MiB)", "-2 (= retention)".
func valueLabel(value, label string) string {
	switch {
	case label == value:
		return value
	case strings.HasPrefix(label, value+" "):
		return label
	}
	return value + " (" + label + ")"
}

func writeProfileTable(w io.Writer, in *CompareInput, pc *ProfileComparison) {
	fmt.Fprintf(w, "| scenario |")
	for _, name := range pc.Profiles {
		fmt.Fprintf(w, " %s: local-log-start | %s: last-tiered |", name, name)
	}
	fmt.Fprintf(w, "\n| --- |%s\n", strings.Repeat(" ---: |", 2*len(pc.Profiles)))
	for _, g := range pc.Groups {
		fmt.Fprintf(w, "| %s |", groupName(in, g.Scenario, g.VaryValue))
		for _, cells := range g.Cells {
			fmt.Fprintf(w, " %s | %s |", profileCell(cells[0]), profileCell(cells[1]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// profileCell writes a cell: the median catch-up time, then the seeds whose
// follower never joined and the runs that failed, when there are any.
func profileCell(c ProfileCell) string {
	var parts []string
	withFollower := c.Runs - c.NoFollower
	if c.CatchUp.N > 0 {
		parts = append(parts, fms(c.CatchUp.P50))
	}
	switch {
	case withFollower == 0:
		parts = append(parts, "no follower added")
	case c.NeverJoined == withFollower:
		parts = append(parts, fmt.Sprintf("**never joined** (%d of %d)", c.NeverJoined, withFollower))
	case c.NeverJoined > 0:
		parts = append(parts, fmt.Sprintf("never joined in %d of %d", c.NeverJoined, withFollower))
	}
	if c.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", c.Failed))
	}
	if len(parts) == 0 {
		return "NA"
	}
	return strings.Join(parts, "; ")
}

func writeProfileDifferences(w io.Writer, in *CompareInput, pc *ProfileComparison) {
	diffs := pc.Differences()
	if len(diffs) == 0 {
		fmt.Fprintf(w, "The profiles agree: in every scenario the same followers join, with median catch-up times within a factor of %d.\n\n", DifferenceFactor)
		return
	}
	fmt.Fprintf(w, "Where the profiles differ (a follower joins under one and not the other, or the medians are %dx or more apart):\n\n", DifferenceFactor)
	for _, d := range diffs {
		fmt.Fprintf(w, "- %s, %s: `%s` %s; `%s` %s\n", groupName(in, d.Group.Scenario, d.Group.VaryValue),
			harness.Strategies[d.Side], pc.Profiles[0], profileCell(d.Main), pc.Profiles[d.Other], profileCell(d.Of))
	}
	fmt.Fprintln(w)
}

func writeProfileFailures(w io.Writer, in *CompareInput, pc *ProfileComparison) {
	if len(pc.Failures) == 0 {
		fmt.Fprintf(w, "No run broke an invariant under any profile.\n\n")
		return
	}
	fmt.Fprintf(w, "Runs that broke an invariant, by profile and strategy (out of that profile's medians, not hidden):\n\n")
	fmt.Fprintf(w, "| profile | strategy | outcome: invariant (known kind) | runs | where (scenario: seeds) |\n| --- | --- | --- | ---: | --- |\n")
	for _, f := range pc.Failures {
		type where struct {
			name  string
			seeds []uint64
		}
		var ws []where
		for _, p := range f.Runs {
			name := groupName(in, p.Scenario, p.VaryValue)
			if len(ws) == 0 || ws[len(ws)-1].name != name {
				ws = append(ws, where{name: name})
			}
			ws[len(ws)-1].seeds = append(ws[len(ws)-1].seeds, p.Seed)
		}
		var parts []string
		for _, x := range ws {
			parts = append(parts, fmt.Sprintf("%s: %s", x.name, seedList(x.seeds, 6)))
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %d | %s |\n", f.Profile, f.Strategy, f.Reason, len(f.Runs), strings.Join(parts, "; "))
	}
	in.Names.Fprintf(w, "\nReplay one with `simrun run {Scenario} NAME {Seed} N {Profile} P {Strategy} S {Trace}`")
	if in.Generated {
		in.Names.Fprintf(w, " (for generated scenarios, `simrun gen {Seed} N {Out} s.json` first)")
	}
	fmt.Fprintf(w, ".\n\n")
}
