package explore

import (
	"fmt"
	"path/filepath"
	"strings"

	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// Text is what simrun explore (and merge) print of a search named h:
// settings, figures, whether the bound was exhausted, the findings.
// seconds > 0 adds the time taken and the rate.
func Text(h Header, r Report, seconds float64) string {
	var w strings.Builder
	faults := "none"
	if len(h.Faults) > 0 {
		faults = strings.Join(h.Faults, ",")
	}
	fmt.Fprintf(&w, "explore %s  strategy %s  profile %s  depth %d  faults %s  lost %v  shard %s", h.Scenario, h.Strategy,
		h.Profile, h.Depth, faults, h.Lost, h.Shard)
	if h.Mutant != "" {
		fmt.Fprintf(&w, "  mutant %s", h.Mutant)
	}
	fmt.Fprintln(&w)
	fmt.Fprintf(&w, "  states %d  transitions %d  depth reached %d  frontier %d  ended %d  liveness continuations %d\n",
		r.States, r.Transitions, r.Depth, r.Frontier, r.Ended, r.LivenessChecked)
	if seconds > 0 {
		fmt.Fprintf(&w, "  %.2f s, %.0f states/s\n", seconds, float64(r.States)/seconds)
	}
	switch {
	case r.Violation != nil:
		fmt.Fprintf(&w, "  search stopped at a violation\n")
	case r.Complete:
		fmt.Fprintf(&w, "  exhausted: every reachable state visited (every path ended, at the scenario's end or a violation, within the bound)\n")
	case r.Exhausted:
		fmt.Fprintf(&w, "  exhausted: every state within depth %d visited\n", h.Depth)
	case r.Interrupted:
		fmt.Fprintf(&w, "  NOT exhausted: stopped at depth %d\n", r.Depth)
	case r.BudgetCut > 0:
		fmt.Fprintf(&w, "  NOT exhausted: --max-steps cut %d paths\n", r.BudgetCut)
	default:
		fmt.Fprintf(&w, "  NOT exhausted: --max-states %d reached at depth %d\n", h.MaxStates, r.Depth)
	}
	for _, k := range r.Known {
		fmt.Fprintf(&w, "  known finding %s: %s %s at step %d (t=%d ms), %d choices\n", k.Kind, k.Outcome, k.Invariant, k.Step, k.AtMs, k.Choices)
	}
	if r.KnownCount > 0 {
		fmt.Fprintf(&w, "  %d violating transitions explained by known findings\n", r.KnownCount)
	}
	if v := r.Violation; v != nil {
		fmt.Fprintf(&w, "  VIOLATION %s %s at step %d (t=%d ms), %d choices: %s\n", v.Outcome, v.Invariant, v.Step, v.AtMs, v.Choices, v.Message)
		for _, f := range v.Faults {
			fmt.Fprintf(&w, "    injected %s\n", f)
		}
	} else {
		fmt.Fprintf(&w, "  no unknown violation\n")
	}
	return w.String()
}

// SaveFindings writes the violation's scenario file to out and each known
// finding's beside it (out with "-KIND" before its extension), and returns
// the lines that name them with the command that replays each. An error
// is one of writing a file, naming it.
func SaveFindings(out string, h Header, r Report) (string, error) {
	var w strings.Builder
	replay := func(file string) string {
		s := fmt.Sprintf("simrun run --scenario %s --strategy %s --profile %s", file, h.Strategy, h.Profile)
		if h.Mutant != "" {
			s += " --mutant " + h.Mutant
		}
		return s + " --trace"
	}
	if v := r.Violation; v != nil {
		if err := outfile.WriteAtomic(out, append([]byte(nil), v.Scenario...)); err != nil {
			return w.String(), err
		}
		fmt.Fprintf(&w, "    counterexample: %s\n    replay: %s\n", out, replay(out))
	}
	for _, k := range r.Known {
		ext := filepath.Ext(out)
		file := strings.TrimSuffix(out, ext) + "-" + k.Kind + ext
		if err := outfile.WriteAtomic(file, append([]byte(nil), k.Scenario...)); err != nil {
			return w.String(), err
		}
		fmt.Fprintf(&w, "    %s: %s\n", k.Kind, replay(file))
	}
	return w.String(), nil
}

// IgnoredScheduleWarning is the warning line simrun explore prints when the
// scenario sc (given as arg) has an explore schedule, which the search
// ignores; "" when it has none.
func IgnoredScheduleWarning(arg string, sc *scenarios.Scenario) string {
	e := sc.Explore
	if e == nil {
		return ""
	}
	return fmt.Sprintf("simrun: warning: %s already has an explore schedule (%d faults, %d picks): explore ignores it "+
		"and searches from the scenario's start with --faults and --lost as given (--from-ms starts further in)\n",
		arg, len(e.Faults), len(e.Choices))
}

// InterruptedText is the line simrun explore prints when the signal named
// sig stopped the search; jsonl is the shard file not written ("" none).
func InterruptedText(sig, jsonl string) string {
	s := fmt.Sprintf("  stopped by %s: the figures are those of the part searched", sig)
	if jsonl != "" {
		s += fmt.Sprintf("; %s not written (a partial shard would pass for a whole one)", jsonl)
	}
	return s + "\n"
}
