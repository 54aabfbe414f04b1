package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"tierfetch/config"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// AllRun is one named scenario of 'simrun run --all': its result and, for
// each strategy whose run failed, the command that replays that run.
type AllRun struct {
	Result harness.Result
	Replay map[string]string // by strategy
}

// AllProfile is one behaviour profile's runs of 'simrun run --all': one per
// named scenario, in the same order under every profile.
type AllProfile struct {
	Profile string
	Runs    []AllRun
}

// AllInput is what the first screen of 'simrun run --all' shows.
type AllInput struct {
	// Profiles: the first is the table's; the rows of the others that
	// differ from it are listed after the table.
	Profiles []AllProfile
	// Width is the screen's width in columns: prose is wrapped to it
	// (0: DefaultWidth). The tables are as wide as their content.
	Width int
	// ReplayFlags are the flags every replay command needs beyond the
	// scenario, strategy and profile (a --seed given, --mutant,
	// --max-steps).
	ReplayFlags string
	// Seed is the --seed every scenario ran at, "" when each ran at its
	// own.
	Seed string
	// Fix is --fix as given ("" none): every run had those fixes. Fixed,
	// when --fix was not given, holds the same runs with every fix, in the
	// order of Profiles: the first screen's note on what --fix all changes.
	Fix   string
	Fixed []AllProfile
	// Names spells the flags the screen names (the command's).
	Names config.Names
}

// DefaultWidth is the first screen's width when standard output is not a
// terminal: every line of 'simrun run --all' fits it.
const DefaultWidth = 120

// The thresholds of the first screen: the flag is faster or slower in a
// scenario when the ratio is beyond 10% either way, and a row is marked
// SLOW at SlowRatio or more. A Kafka profile's row differs from the first
// profile's when its outcome or effect differs or its ratio is more than
// diffRatio times the other.
const (
	sameWithin = 1.1
	// SlowRatio is the ratio (flag on's catch-up time over flag off's) from
	// which a row of 'simrun run --all' is marked SLOW.
	SlowRatio = 10.0
	diffRatio = 1.5
)

// AllTally counts the scenarios of 'simrun run --all' by outcome, over
// every profile run.
type AllTally struct {
	Clean, Known, Unknown int
}

func (t *AllTally) add(r allRow) {
	switch r.base {
	case "UNKNOWN":
		t.Unknown++
	case "known":
		t.Known++
	default:
		t.Clean++
	}
}

// AllSummary writes the first screen of 'simrun run --all' and returns the
// tally. In its first 40 lines: a headline per profile (in how many
// scenarios the flag on makes the new follower join faster, as fast,
// slower, or never); the first profile's table, a row per scenario with
// both strategies' bootstrap path, catch-up time and MiB copied, the ratio
// and the outcome; and the rows that differ under the other profiles, with
// their numbers. Then what the columns mean, the known findings and how to
// replay one, the tally, and the next commands to run: a terminal's last
// screen holds the differences, the tally and what to do next.
func AllSummary(w io.Writer, in AllInput) AllTally {
	width := in.Width
	if width <= 0 {
		width = DefaultWidth
	}
	tables := make([][]allRow, len(in.Profiles))
	var total AllTally
	for i, p := range in.Profiles {
		for _, r := range p.Runs {
			row := rowOf(r.Result)
			tables[i] = append(tables[i], row)
			total.add(row)
		}
	}
	writeAllTitle(w, in, width)
	writeHeadlines(w, in, tables, width)
	writeAllTable(w, in.Profiles[0].Profile, tables[0])
	writeDifferences(w, in, tables, width)
	writeLegend(w, width, in.Names)
	writeKnown(w, in, width)
	fmt.Fprintln(w)
	writeTally(w, in, total)
	writeNext(w, in, tables, width)
	return total
}

// AllReport writes the first screen of 'simrun run --all' (AllSummary),
// then details (the per-scenario summaries and failure reports) or, when
// there are none but there are known findings, where their full reports
// are.
func AllReport(w io.Writer, in AllInput, details []byte) AllTally {
	t := AllSummary(w, in)
	if len(details) > 0 {
		fmt.Fprintf(w, "\n%s", details)
	}
	return t
}

func profileNames(in AllInput) []string {
	var names []string
	for _, p := range in.Profiles {
		names = append(names, p.Profile)
	}
	return names
}

func writeAllTitle(w io.Writer, in AllInput, width int) {
	what := "profile " + in.Profiles[0].Profile
	if names := profileNames(in); len(names) > 1 {
		what = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	seed := "each at its own seed"
	if in.Seed != "" {
		seed = "at seed " + in.Seed
	}
	fixes := ""
	if in.Fix != "" {
		fixes = in.Names.Sprintf(", with {Fix} %s", in.Fix)
	}
	fmt.Fprintln(w, wrap(in.Names.Sprintf("simrun run {All}: the %d named scenarios, %s, under %s%s", len(in.Profiles[0].Runs), seed, what, fixes),
		"", width))
}

func writeTally(w io.Writer, in AllInput, t AllTally) {
	scope := fmt.Sprintf("%d scenarios", len(in.Profiles[0].Runs))
	if len(in.Profiles) > 1 {
		scope += fmt.Sprintf(" x %d profiles", len(in.Profiles))
	}
	fmt.Fprintf(w, "tally: %s: %d clean, %d known findings, %d unknown failures\n", scope, t.Clean, t.Known, t.Unknown)
}

// effect is what turning the flag on does to a scenario's new follower.
type effect int

const (
	noFollower effect = iota // no follower added, or one strategy not run
	faster
	asFast
	slower
	never // the flag-on follower never joins the ISR
)

// allRow is one scenario's row of the first screen.
type allRow struct {
	scenario      string
	local, tiered *followerCell
	ratio         float64 // flag on's catch-up time over flag off's; 0 when there is none
	effect        effect
	base          string // ok, known or UNKNOWN
	slow, stall   bool
}

func rowOf(res harness.Result) allRow {
	row := allRow{scenario: res.Scenario}
	for i := range res.Runs {
		c := cellOf(&res.Runs[i])
		switch harness.Strategy(res.Runs[i].Strategy) {
		case harness.LocalLogStart:
			row.local = c
		case harness.LastTiered:
			row.tiered = c
		}
		row.stall = row.stall || c.added && !c.caught
	}
	row.base = baseOutcome(res)
	l, t := row.local, row.tiered
	switch {
	case l == nil || t == nil || !l.added || !t.added:
		row.effect = noFollower
	case !t.caught:
		row.effect = never
	case !l.caught:
		row.effect = faster
	case l.ms == 0 && t.ms == 0:
		row.effect = asFast
	case l.ms == 0:
		row.effect = slower
	default:
		row.ratio = float64(t.ms) / float64(l.ms)
		row.effect = effectOf(row.ratio)
		row.slow = row.ratio >= SlowRatio
	}
	return row
}

func effectOf(ratio float64) effect {
	switch {
	case ratio > sameWithin:
		return slower
	case ratio < 1/sameWithin:
		return faster
	}
	return asFast
}

// outcome is the row's outcome column: ok, known or UNKNOWN, marked STALL
// when a follower never joined the ISR or SLOW when the flag on took
// SlowRatio times as long or more.
func (r allRow) outcome() string {
	switch {
	case r.stall:
		return r.base + " STALL"
	case r.slow:
		return r.base + " SLOW"
	}
	return r.base
}

func (r allRow) ratioText() string {
	if r.ratio == 0 {
		return "-"
	}
	return ratioText(r.ratio)
}

// ratioText prints a ratio with three significant digits at most, and no
// decimals from 100x.
func ratioText(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0fx", r)
	case r >= 10:
		return fmt.Sprintf("%.1fx", r)
	}
	return fmt.Sprintf("%.2fx", r)
}

// differs says whether a Kafka profile's row tells another story than the
// first profile's: another outcome or effect, or a ratio more than
// diffRatio times the other.
func (r allRow) differs(base allRow) bool {
	if r.outcome() != base.outcome() || r.effect != base.effect {
		return true
	}
	if (r.ratio == 0) != (base.ratio == 0) {
		return true
	}
	return r.ratio > 0 && math.Max(r.ratio/base.ratio, base.ratio/r.ratio) > diffRatio
}

// baseOutcome is ok, known (every failed run a known finding) or UNKNOWN.
func baseOutcome(res harness.Result) string {
	out := "ok"
	for _, r := range res.Runs {
		switch {
		case r.Outcome == harness.OutcomeOK:
		case r.Violation != nil && r.Violation.Kind != "":
			if out == "ok" {
				out = "known"
			}
		default:
			out = "UNKNOWN"
		}
	}
	return out
}

// followerCell is one strategy's run in a row: the first added follower's
// bootstrap path, the slowest follower's catch-up time, the bytes every
// follower copied from the leader.
type followerCell struct {
	added  bool
	path   string
	caught bool
	ms     int64
	copied int64
	more   int
}

func cellOf(r *harness.RunJSON) *followerCell {
	c := &followerCell{}
	if len(r.Followers) == 0 {
		return c
	}
	c.added, c.caught = true, true
	for i, f := range r.Followers {
		c.copied += f.BytesFromLeader
		if f.CaughtUpMs == nil {
			c.caught = false
		} else {
			c.ms = max(c.ms, *f.CaughtUpMs)
		}
		if i == 0 {
			c.path = f.Bootstrap.Path
		}
	}
	c.more = len(r.Followers) - 1
	return c
}

// PathLabel is the first screen's name for a bootstrap path (the result
// object's bootstrap.path), chosen so that no path reads like a strategy:
// from-0, trunc@LSO, aux@LLSO, aux@EPUO.
func PathLabel(path string) string {
	switch path {
	case "from-zero":
		return "from-0"
	case "truncate-to-log-start":
		return "trunc@LSO"
	case "local-log-start":
		return "aux@LLSO"
	case "earliest-pending-upload":
		return "aux@EPUO"
	}
	return path
}

// cells are the path, catch-up and MiB columns of a strategy's run.
func (c *followerCell) cells() (path, joins, mib string) {
	switch {
	case c == nil:
		return "not run", "", ""
	case !c.added:
		return "none added", "", ""
	}
	path = PathLabel(c.path)
	if c.more > 0 {
		path += fmt.Sprintf("+%d", c.more)
	}
	joins = "never"
	if c.caught {
		joins = ms(c.ms)
	}
	return path, joins, fmt.Sprintf("%.1f", float64(c.copied)/(1<<20))
}

func (c *followerCell) joins() string {
	_, j, _ := c.cells()
	return j
}

// ScenarioList writes the scenarios one a line: the name, then what it
// shows.
func ScenarioList(w io.Writer, list []*scenarios.Scenario) {
	width := 0
	for _, sc := range list {
		width = max(width, len(sc.Name))
	}
	for _, sc := range list {
		fmt.Fprintf(w, "%-*s  %s\n", width, sc.Name, sc.Description)
	}
}

// FixList writes the fixes --fix takes, one a line: the name, then the
// finding kinds it closes, space-separated (simrun fixes).
func FixList(w io.Writer) {
	fixes := model.AllFixes.List()
	slices.SortFunc(fixes, func(a, b model.Fix) int { return strings.Compare(a.String(), b.String()) })
	width := 0
	for _, f := range fixes {
		width = max(width, len(f.String()))
	}
	for _, f := range fixes {
		fmt.Fprintf(w, "%-*s  %s\n", width, f, strings.Join(f.Kinds(), " "))
	}
}

// ReplacedFixList writes the fixes tried first and replaced, one a line:
// the name, then the fix that replaced it (simrun fixes --replaced).
func ReplacedFixList(w io.Writer) {
	list := model.ReplacedFixes()
	width := 0
	for _, f := range list {
		width = max(width, len(f.String()))
	}
	for _, f := range list {
		by, _ := f.Replaced()
		fmt.Fprintf(w, "%-*s  replaced by %s\n", width, f, by)
	}
}

// wrap fills text into lines of at most width columns, each starting with
// indent; a word longer than the line stays whole.
func wrap(text, indent string, width int) string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(text) {
		if cur != "" && len(indent)+len(cur)+1+len(word) > width {
			lines = append(lines, indent+cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += word
	}
	if cur != "" {
		lines = append(lines, indent+cur)
	}
	return strings.Join(lines, "\n")
}
