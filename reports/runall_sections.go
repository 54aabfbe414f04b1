package reports

import (
	"fmt"
	"io"
	"strings"
	"tierfetch/config"

	"tierfetch/harness"
)

// profileBlurb says in a few words what a profile follows.
var profileBlurb = map[string]string{
	"kip":         "the KIP text",
	"kafka-4.3":   "Kafka 4.3's code",
	"kafka-trunk": "Kafka trunk's code",
}

func profileTitle(p string) string {
	if b, ok := profileBlurb[p]; ok {
		return fmt.Sprintf("profile %s (%s)", p, b)
	}
	return "profile " + p
}

// headline counts one profile's rows by effect.
type headline struct {
	added, faster, asFast, slower, slow, never int
	worst                                      float64
}

func headlineOf(rows []allRow) headline {
	var h headline
	for _, r := range rows {
		if r.effect != noFollower {
			h.added++
		}
		switch r.effect {
		case faster:
			h.faster++
		case asFast:
			h.asFast++
		case slower:
			h.slower++
			h.worst = max(h.worst, r.ratio)
			if r.slow {
				h.slow++
			}
		case never:
			h.never++
		}
	}
	return h
}

func (h headline) String() string {
	slower := fmt.Sprintf("slower in %d", h.slower)
	switch {
	case h.slow > 0:
		slower += fmt.Sprintf(" (%d by %.0fx or more, up to %s)", h.slow, SlowRatio, ratioText(h.worst))
	case h.worst > 0:
		slower += fmt.Sprintf(" (up to %s)", ratioText(h.worst))
	}
	return fmt.Sprintf("the new follower joins faster in %d, as fast in %d, %s, never in %d", h.faster, h.asFast, slower, h.never)
}

// writeHeadlines writes one line per profile: in how many scenarios the
// flag on makes the new follower join faster, as fast, slower or never.
func writeHeadlines(w io.Writer, in AllInput, tables [][]allRow, width int) {
	h0 := headlineOf(tables[0])
	if h0.added == 0 {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, wrap(fmt.Sprintf("follower.fetch.last.tiered.offset.enable on against off, in the %d scenarios that add a follower (by over %.0f%%):",
		h0.added, (sameWithin-1)*100), "", width))
	nameWidth := 0
	for _, p := range in.Profiles {
		nameWidth = max(nameWidth, len(p.Profile))
	}
	for i, p := range in.Profiles {
		line := wrap(headlineOf(tables[i]).String(), strings.Repeat(" ", 2+nameWidth+2), width)
		fmt.Fprintf(w, "  %-*s  %s\n", nameWidth, p.Profile, strings.TrimLeft(line, " "))
	}
	if len(in.Fixed) > 0 {
		line := wrap(fixedNote(in, tables), strings.Repeat(" ", 2+nameWidth+2), width)
		fmt.Fprintf(w, "  %-*s  %s\n", nameWidth, fixedLabel(in.Names), strings.TrimLeft(line, " "))
	}
}

// fixedLabel names the first screen's line on what --fix all changes.
func fixedLabel(names config.Names) string { return names.Sprintf("{Fix} all") }

// fixedNote says what --fix all changes (AllInput.Fixed): in how many
// scenarios the flag-on follower never joins under each profile, and how
// many known findings are left, against the same without fixes.
func fixedNote(in AllInput, tables [][]allRow) string {
	var never, neverWas []string
	known, knownWas := 0, 0
	for i, p := range in.Fixed {
		var rows []allRow
		for _, r := range p.Runs {
			row := rowOf(r.Result)
			rows = append(rows, row)
			if row.base == "known" {
				known++
			}
		}
		for _, row := range tables[i] {
			if row.base == "known" {
				knownWas++
			}
		}
		never = append(never, fmt.Sprint(headlineOf(rows).never))
		neverWas = append(neverWas, fmt.Sprint(headlineOf(tables[i]).never))
	}
	return fmt.Sprintf("the reports' fixes (simrun fixes): never in %s (without: %s); known findings %d (without: %d)",
		strings.Join(never, ", "), strings.Join(neverWas, ", "), known, knownWas)
}

// writeAllTable writes the first profile's table.
func writeAllTable(w io.Writer, profile string, rows []allRow) {
	t := &table{gaps: []int{0, 2, 2, 2, 3, 2, 2, 2, 2}, right: []bool{false, false, true, true, false, true, true, true, false}}
	t.header = []string{"scenario", "path", "joins", "MiB", "path", "joins", "MiB", "ratio", "outcome"}
	for _, r := range rows {
		lp, lj, lm := r.local.cells()
		tp, tj, tm := r.tiered.cells()
		t.rows = append(t.rows, []string{r.scenario, lp, lj, lm, tp, tj, tm, r.ratioText(), r.outcome()})
	}
	t.groups = []group{{0, profileTitle(profile)}, {1, "flag off (KIP-405)"}, {4, "flag on (KIP-1023)"}}
	fmt.Fprintln(w)
	t.write(w)
}

// writeLegend says what the columns of the tables mean.
func writeLegend(w io.Writer, width int, names config.Names) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, wrap(names.Sprintf("flag off/on: follower.fetch.last.tiered.offset.enable=false (KIP-405, {Strategy} local-log-start) or true "+
		"(KIP-1023, {Strategy} last-tiered). path: how the first new follower started (+N: N more were added): from-0 (fetched "+
		"from offset 0), trunc@LSO (OUT_OF_RANGE: truncated to the leader's log start), aux@LLSO or aux@EPUO (auxiliary state "+
		"built up to the leader's local log start, or to its earliest pending upload offset). joins: the slowest new follower's "+
		"time to the ISR. MiB: what they copied from the leader. ratio: flag on's time over flag off's."), "", width))
	fmt.Fprintln(w, wrap(fmt.Sprintf("outcome: ok = every invariant held, however long it took; SLOW = a ratio of %.0fx or more; "+
		"STALL = a follower never joined the ISR; known = a known finding (below); UNKNOWN = a failure no finding explains "+
		"(it fails the exit code).", SlowRatio), "", width))
}

// writeDifferences writes the rows whose outcome, effect or ratio under a
// later profile differs from the first profile's: the first profile's
// ratio and outcome, each later profile's flag-on catch-up time, ratio and
// outcome (without the first profile's columns when that is too wide).
func writeDifferences(w io.Writer, in AllInput, tables [][]allRow, width int) {
	if len(in.Profiles) < 2 {
		return
	}
	names := profileNames(in)
	t := differencesTable(tables, names, true)
	if t.width() > width {
		t = differencesTable(tables, names, false)
	}
	others := strings.Join(names[1:], " or ")
	fmt.Fprintln(w)
	if len(t.rows) == 0 {
		fmt.Fprintln(w, wrap(fmt.Sprintf("No row differs under %s from %s.", others, names[0]), "", width))
		return
	}
	what := fmt.Sprintf("Rows that differ under %s from %s", others, names[0])
	if names[0] == "kip" {
		what = "Where Kafka's code differs from the KIP text"
	}
	fmt.Fprintln(w, wrap(what+" (flag on: its time to the ISR, the ratio, the outcome):", "", width))
	t.write(w)
}

func differencesTable(tables [][]allRow, names []string, withFirst bool) *table {
	t := &table{header: []string{"scenario"}, gaps: []int{0}, right: []bool{false}, groups: []group{{0, ""}}}
	if withFirst {
		t.groups = append(t.groups, group{1, names[0]})
		t.header = append(t.header, "ratio", "outcome")
		t.gaps = append(t.gaps, 2, 2)
		t.right = append(t.right, true, false)
	}
	for _, p := range names[1:] {
		t.groups = append(t.groups, group{len(t.header), p})
		t.header = append(t.header, "joins", "ratio", "outcome")
		t.gaps = append(t.gaps, 3, 2, 2)
		t.right = append(t.right, true, true, false)
	}
	for i, base := range tables[0] {
		if !rowDiffers(tables, i) {
			continue
		}
		cells := []string{base.scenario}
		if withFirst {
			cells = append(cells, base.ratioText(), base.outcome())
		}
		for p := 1; p < len(tables); p++ {
			r := tables[p][i]
			cells = append(cells, r.tiered.joins(), r.ratioText(), r.outcome())
		}
		t.rows = append(t.rows, cells)
	}
	return t
}

func rowDiffers(tables [][]allRow, i int) bool {
	for p := 1; p < len(tables); p++ {
		if tables[p][i].differs(tables[0][i]) {
			return true
		}
	}
	return false
}

// failureGroup is one known finding (or unknown failure) of one scenario:
// the strategies that showed it and the profiles it showed under.
type failureGroup struct {
	what, label, scenario string
	strategies, profiles  []string
	replay                string // the first profile's replay command
}

func failureGroups(in AllInput) (known, unknown []*failureGroup) {
	find := func(list []*failureGroup, what, scenario string, strategies []string) *failureGroup {
		for _, g := range list {
			if g.what == what && g.scenario == scenario && strings.Join(g.strategies, ",") == strings.Join(strategies, ",") {
				return g
			}
		}
		return nil
	}
	for _, p := range in.Profiles {
		for _, r := range p.Runs {
			for _, g := range scenarioFailures(r, in.Names) {
				list := &known
				if g.label == "" {
					list = &unknown
				}
				if old := find(*list, g.what, g.scenario, g.strategies); old != nil {
					old.profiles = append(old.profiles, p.Profile)
					continue
				}
				g.profiles = []string{p.Profile}
				*list = append(*list, g)
			}
		}
	}
	return known, unknown
}

// scenarioFailures are a scenario's failed runs, one group per known kind
// or, for failures no finding explains, per outcome; names spells the
// replay command's flags.
func scenarioFailures(r AllRun, names config.Names) []*failureGroup {
	var groups []*failureGroup
	for _, run := range r.Result.Runs {
		v := run.Violation
		if v == nil || run.Outcome == harness.OutcomeOK {
			continue
		}
		what, label := v.Kind, v.Invariant
		if v.Kind == "" {
			what, label = run.Outcome, ""
		}
		var g *failureGroup
		for _, old := range groups {
			if old.what == what {
				g = old
			}
		}
		if g == nil {
			g = &failureGroup{what: what, label: label, scenario: r.Result.Scenario, replay: r.Replay[run.Strategy]}
			groups = append(groups, g)
		}
		g.strategies = append(g.strategies, run.Strategy)
	}
	for _, g := range groups {
		if len(g.strategies) > 1 {
			g.replay = strings.Replace(g.replay, names.Sprintf(" {Strategy} %s", g.strategies[0]), "", 1)
		}
	}
	return groups
}

func strategiesText(list []string) string {
	if len(list) == len(harness.Strategies) {
		return "both"
	}
	return strings.Join(list, ",")
}

// writeKnown lists the unknown failures, each with its replay command, and
// the known findings, one a line (kind, scenario, strategies, profiles),
// with what a known finding is and how to replay one.
func writeKnown(w io.Writer, in AllInput, width int) {
	known, unknown := failureGroups(in)
	all := profileNames(in)
	profilesText := func(g *failureGroup) string {
		if len(g.profiles) == len(all) {
			return "all"
		}
		return strings.Join(g.profiles, ", ")
	}
	if len(unknown) > 0 {
		fmt.Fprintf(w, "\nUNKNOWN FAILURES (outcome, scenario, strategies, profiles; the full reports follow), each with its replay:\n")
		for _, g := range unknown {
			fmt.Fprintf(w, "  %s  %s  %s  %s\n    %s\n", g.what, g.scenario, strategiesText(g.strategies), profilesText(g), g.replay)
		}
	}
	if len(known) == 0 {
		return
	}
	t := &table{header: []string{"known finding", "scenario", "strategies"}, gaps: []int{2, 2, 2}, right: []bool{false, false, false}}
	if len(all) > 1 {
		t.header, t.gaps, t.right = append(t.header, "profiles"), append(t.gaps, 2), append(t.right, false)
	}
	for _, g := range known {
		row := []string{g.what, g.scenario, strategiesText(g.strategies)}
		if len(all) > 1 {
			row = append(row, profilesText(g))
		}
		t.rows = append(t.rows, row)
	}
	fmt.Fprintln(w)
	t.write(w)
	profile := in.Names.Sprintf(" {Profile} PROFILE")
	if len(all) == 1 {
		profile = ReplayFlags(in.Names, all[0], "", "", harness.DefaultMaxSteps)
	}
	fmt.Fprintln(w, wrap(in.Names.Sprintf("A known finding is a real protocol failure its scenario exists to show (FINDINGS.md explains "+
		"each kind): under {All} it is the expected result and does not fail the exit code, while 'simrun run {Scenario} NAME' "+
		"alone exits 1 for it. Its full report: simrun run {Scenario} SCENARIO {Strategy} STRATEGY%s%s {Trace} (without "+
		"{Strategy} when both showed it), or every one: simrun run {All} {Verbose}.", profile, in.ReplayFlags), "", width))
}

// writeNext ends the screen with the commands to run next: the first
// unknown failure's replay, or a row that a Kafka profile changes, in full
// and compared over seeds; and a plan for one's own partition.
func writeNext(w io.Writer, in AllInput, tables [][]allRow, width int) {
	type next struct{ cmd, why string }
	var list []next
	_, unknown := failureGroups(in)
	if len(unknown) > 0 {
		list = append(list, next{unknown[0].replay, "the first unknown failure, step by step"})
	}
	scenario, profile := pickNext(in, tables)
	if scenario != "" {
		flag := ""
		if profile != "kip" {
			flag = in.Names.Sprintf(" {Profile} %s", profile)
		}
		list = append(list,
			next{in.Names.Sprintf("simrun run {Scenario} %s%s%s", scenario, flag, in.ReplayFlags), "that row in full, follower by follower"},
			next{in.Names.Sprintf("simrun compare {Scenario} %s {Seeds} 1..10 {Out} cmp", scenario), "10 seeds, 3 profiles, charts"})
	}
	list = append(list, next{"simrun plan --help", "for a partition of your own"})
	if len(in.Profiles) == 1 {
		list = append(list, next{in.Names.Sprintf("simrun run {All}"), "every profile side by side"})
	}
	cmdWidth := 0
	for _, n := range list {
		cmdWidth = max(cmdWidth, len(n.cmd))
	}
	fmt.Fprintf(w, "next:\n")
	for _, n := range list {
		if 2+cmdWidth+3+len(n.why) > width {
			fmt.Fprintf(w, "  %s\n", n.cmd)
			continue
		}
		fmt.Fprintf(w, "  %-*s   %s\n", cmdWidth, n.cmd, n.why)
	}
}

// pickNext is the scenario and profile of the first row a later profile
// changes (the profile under which its flag-on time is longest), or the
// first row where the flag is faster.
func pickNext(in AllInput, tables [][]allRow) (scenario, profile string) {
	for i, base := range tables[0] {
		if !rowDiffers(tables, i) {
			continue
		}
		best := 1
		for p := 2; p < len(tables); p++ {
			if tables[p][i].ratio > tables[best][i].ratio {
				best = p
			}
		}
		return base.scenario, in.Profiles[best].Profile
	}
	for _, r := range tables[0] {
		if r.effect == faster && r.base == "ok" {
			return r.scenario, in.Profiles[0].Profile
		}
	}
	return "", ""
}

// table is a plain text table: columns as wide as their widest cell, each
// after its gap of spaces, left- or right-aligned, under optional group
// titles that start at a column.
type table struct {
	groups []group
	header []string
	rows   [][]string
	gaps   []int
	right  []bool
}

type group struct {
	col   int
	title string
}

func (t *table) widths() []int {
	widths := make([]int, len(t.header))
	for _, row := range append([][]string{t.header}, t.rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], len(c))
		}
	}
	// A group's title ends before the next group's columns begin: when it
	// is wider than its columns, the last of them widens (with short
	// scenario names the profile's title pushed "flag off" over the flag-on
	// columns).
	for k := 0; k+1 < len(t.groups); k++ {
		g, next := t.groups[k], t.groups[k+1]
		span := t.gaps[next.col] - t.gaps[g.col] // from this title's start to the next one's
		for i := g.col; i < next.col; i++ {
			span += t.gaps[i] + widths[i]
		}
		if need := len(g.title) + 1; next.col > g.col && span < need {
			widths[next.col-1] += need - span
		}
	}
	return widths
}

// width is the width of the table's widest line.
func (t *table) width() int {
	n := 0
	for i, w := range t.widths() {
		n += t.gaps[i] + w
	}
	return n
}

func (t *table) write(w io.Writer) {
	widths := t.widths()
	if len(t.groups) > 0 {
		var b strings.Builder
		for _, g := range t.groups {
			at := 0
			for i := 0; i < g.col; i++ {
				at += t.gaps[i] + widths[i]
			}
			at += t.gaps[g.col]
			if b.Len() > 0 && b.Len() >= at {
				b.WriteString(" ")
			}
			for b.Len() < at {
				b.WriteString(" ")
			}
			b.WriteString(g.title)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	for _, row := range append([][]string{t.header}, t.rows...) {
		var b strings.Builder
		for i, c := range row {
			b.WriteString(strings.Repeat(" ", t.gaps[i]))
			if t.right[i] {
				fmt.Fprintf(&b, "%*s", widths[i], c)
			} else {
				fmt.Fprintf(&b, "%-*s", widths[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
