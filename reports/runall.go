package reports

import (
	"fmt"
	"io"
	"strings"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// AllRun is one named scenario of 'simrun run --all': its result and, for
// each strategy whose run failed, the command that replays that run.
type AllRun struct {
	Result harness.Result
	Replay map[string]string // by strategy
}

// AllTally counts the scenarios of 'simrun run --all' by outcome.
type AllTally struct {
	Clean, Known, Unknown int
}

// AllSummary writes the first screen of 'simrun run --all': one row per
// scenario with both strategies' bootstrap paths, catch-up times, the ratio,
// MiB copied from the leader and the outcome; each known finding on one
// line with its kind and replay command; and the tally, with why a known
// finding fails 'run --scenario' alone but not '--all'. It returns the
// tally.
func AllSummary(w io.Writer, runs []AllRun, profile string) AllTally {
	width := len("scenario")
	for _, r := range runs {
		width = max(width, len(r.Result.Scenario))
	}
	fmt.Fprintf(w, "every named scenario under both follower protocols, each at its own seed, profile %s; ratio = last-tiered's\n", profile)
	fmt.Fprintf(w, "catch-up time / local-log-start's; path+N: N more followers added (catch-up: the slowest; MiB: all, from the leader)\n")
	fmt.Fprintf(w, "%-*s  %-39s  %-39s  %6s  %s\n", width, "scenario", "local-log-start: path / catch-up / MiB",
		"last-tiered: path / catch-up / MiB", "ratio", "outcome")
	var t AllTally
	var known, unknown []string
	for _, r := range runs {
		res := r.Result
		cells := map[string]*followerCell{}
		for i := range res.Runs {
			cells[res.Runs[i].Strategy] = cellOf(&res.Runs[i])
		}
		local, tiered := cells[string(harness.LocalLogStart)], cells[string(harness.LastTiered)]
		ratio := "-"
		if local != nil && tiered != nil && local.caught && tiered.caught && local.ms > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(tiered.ms)/float64(local.ms))
		}
		outcome, isKnown, isUnknown := outcomeOf(res)
		fmt.Fprintf(w, "%-*s  %-39s  %-39s  %6s  %s\n", width, res.Scenario, local.String(), tiered.String(), ratio, outcome)
		switch {
		case isUnknown:
			t.Unknown++
		case isKnown:
			t.Known++
		default:
			t.Clean++
		}
		k, u := findingLines(r)
		known, unknown = append(known, k...), append(unknown, u...)
	}
	if len(known) > 0 {
		fmt.Fprintf(w, "\nknown findings (kind, invariant, strategies; FINDINGS.md explains each):\n")
		for _, l := range known {
			fmt.Fprintln(w, l)
		}
	}
	if len(unknown) > 0 {
		fmt.Fprintf(w, "\nUNKNOWN FAILURES (scenario, outcome, strategies; the full reports follow the tally):\n")
		for _, l := range unknown {
			fmt.Fprintln(w, l)
		}
	}
	fmt.Fprintf(w, "\ntally: %d scenarios: %d clean, %d known findings, %d unknown failures\n", len(runs), t.Clean, t.Known, t.Unknown)
	if t.Known > 0 {
		fmt.Fprintf(w, "A known finding is a real protocol failure its scenario exists to show: under --all it is the expected\n"+
			"result and does not fail the exit code (only unknown failures do); 'simrun run --scenario NAME' alone exits 1 for it.\n")
	}
	return t
}

// AllReport writes the first screen of 'simrun run --all' (AllSummary),
// then details (the per-scenario summaries and failure reports) or, when
// there are none but there are known findings, where their full reports
// are.
func AllReport(w io.Writer, runs []AllRun, profile string, details []byte) {
	t := AllSummary(w, runs, profile)
	if len(details) > 0 {
		fmt.Fprintf(w, "\n%s", details)
	} else if t.Known > 0 {
		fmt.Fprintf(w, "(the known findings' full reports: simrun run --all --verbose, or each replay command above)\n")
	}
}

// followerCell is one strategy's run in a row: the first added follower's
// bootstrap path and catch-up time, the bytes every follower copied from
// the leader.
type followerCell struct {
	path        string
	caught      bool
	ms          int64
	copied      int64
	more        int
	outcomeNote string
}

func cellOf(r *harness.RunJSON) *followerCell {
	c := &followerCell{}
	if len(r.Followers) == 0 {
		c.outcomeNote = "no follower added"
		return c
	}
	c.caught = true
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

func (c *followerCell) String() string {
	if c == nil {
		return "not run"
	}
	if c.outcomeNote != "" {
		return c.outcomeNote
	}
	path := c.path
	if c.more > 0 {
		path += fmt.Sprintf("+%d", c.more)
	}
	catch := "never"
	if c.caught {
		catch = ms(c.ms)
	}
	return fmt.Sprintf("%-23s %8s %6.1f", path, catch, float64(c.copied)/(1<<20))
}

// outcomeOf says how a scenario ended: ok, the known findings by kind, or
// the unknown failures by outcome and strategy.
func outcomeOf(res harness.Result) (text string, known, unknown bool) {
	var kinds, failures []string
	for _, r := range res.Runs {
		switch {
		case r.Outcome == harness.OutcomeOK:
		case r.Violation != nil && r.Violation.Kind != "":
			if !contains(kinds, "known: "+r.Violation.Kind) {
				kinds = append(kinds, "known: "+r.Violation.Kind)
			}
		default:
			failures = append(failures, fmt.Sprintf("UNKNOWN %s (%s)", r.Outcome, r.Strategy))
		}
	}
	switch {
	case len(failures) > 0:
		return strings.Join(append(failures, kinds...), ", "), len(kinds) > 0, true
	case len(kinds) > 0:
		return strings.Join(kinds, ", "), true, false
	}
	return "ok", false, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// findingLines are a scenario's known findings, one line per kind, and its
// unknown failures, one line per outcome: what failed, under which
// strategies, and the command that replays it (every strategy that failed).
func findingLines(r AllRun) (known, unknown []string) {
	type group struct {
		what, label string
		strategies  []string
	}
	var groups []*group
	find := func(what, label string) *group {
		for _, g := range groups {
			if g.what == what && g.label == label {
				return g
			}
		}
		g := &group{what: what, label: label}
		groups = append(groups, g)
		return g
	}
	for _, run := range r.Result.Runs {
		v := run.Violation
		if v == nil || run.Outcome == harness.OutcomeOK {
			continue
		}
		what, label := v.Kind, v.Invariant
		if v.Kind == "" {
			what, label = r.Result.Scenario, run.Outcome
		}
		g := find(what, label)
		g.strategies = append(g.strategies, run.Strategy)
	}
	for _, g := range groups {
		replay := r.Replay[g.strategies[0]]
		strategies := g.strategies[0]
		if len(g.strategies) > 1 {
			replay = strings.Replace(replay, " --strategy "+g.strategies[0], "", 1)
			strategies = "both"
		}
		line := fmt.Sprintf("  %-34s %-17s %-15s replay: %s", g.what, g.label, strategies, replay)
		if g.what == r.Result.Scenario {
			unknown = append(unknown, line)
		} else {
			known = append(known, line)
		}
	}
	return known, unknown
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
