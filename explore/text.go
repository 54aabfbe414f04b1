package explore

import (
	"fmt"
	"path/filepath"
	"strings"

	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// Text is what simrun explore (and merge) print of a search named h:
// settings, the scenario's length, figures, what the search covered and
// why it stopped, the findings. seconds > 0 adds the time taken and the
// rate. names spells the settings it names (the command's flags).
func Text(h Header, r Report, seconds float64, names config.Names) string {
	var w strings.Builder
	faults := "none"
	if len(h.Faults) > 0 {
		faults = strings.Join(h.Faults, ",")
	}
	depth := "to the end"
	if h.Depth > 0 {
		depth = fmt.Sprint(h.Depth)
	}
	fmt.Fprintf(&w, "explore %s  strategy %s  profile %s  depth %s  faults %s  lost %v  reduction %s  shard %s", h.Scenario,
		h.Strategy, h.Profile, depth, faults, h.Lost, onOff(h.Reduction), h.Shard)
	if h.Mutant != "" {
		fmt.Fprintf(&w, "  mutant %s", h.Mutant)
	}
	if h.Fix != "" {
		fmt.Fprintf(&w, "  fix %s", h.Fix)
	}
	fmt.Fprintln(&w)
	fmt.Fprintf(&w, "  scenario: %s\n", scenarioLength(r, names))
	fmt.Fprintf(&w, "  states %d  transitions %d  inputs skipped by the reduction %d  depth reached %d  frontier %d  ended %d\n",
		r.States, r.Transitions, r.Skipped, r.Depth, r.Frontier, r.Ended)
	if h.Liveness {
		fmt.Fprintf(&w, "  liveness: %d continuations from the states the bound cut, %d took a memoized verdict, %d steps",
			r.LivenessChecked, r.MemoHits, r.ContSteps)
		if r.LivenessCut > 0 {
			names.Fprintf(&w, "; %d cut states NOT checked (the continuations' budget, {MaxStates} x %d steps, ran out)",
				r.LivenessCut, continuationSteps)
		}
		if r.LivenessStepsCut > 0 {
			names.Fprintf(&w, "; %d NOT checked ({MaxSteps} cut their runs)", r.LivenessStepsCut)
		}
		fmt.Fprintln(&w)
	}
	if seconds > 0 {
		names.Fprintf(&w, "  %.2f s, %.0f states/s, memory estimate %.0f of the search's %.0f MiB ({MaxMemory} %d)\n", seconds,
			float64(r.States)/seconds, r.MemoryMiB, float64(searchBudget(h.MaxMemory))/(1<<20), h.MaxMemory)
	}
	fmt.Fprintf(&w, "  %s\n", stopText(h, r, names))
	fmt.Fprintf(&w, "  %s\n", collisionText(r))
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

// collisionText states the risk of telling states apart by their 64-bit
// hash alone: the optimistic probability that two of the states visited
// collided (one taken for the other, its successors perhaps unexplored).
func collisionText(r Report) string {
	return fmt.Sprintf("64-bit state hashes: chance two of the %s collided (taken for one, the second's successors "+
		"perhaps unexplored), optimistically n^2/2^65: %.1e", plural(r.States, "state"), CollisionProbability(r.States))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// scenarioLength says how long the scenario is: a seeded run's steps and
// the simulated time.
func scenarioLength(r Report, names config.Names) string {
	s := fmt.Sprintf("a seeded run takes %s; %s simulated", plural(r.ScenarioSteps, "step"), seconds(r.ScenarioMs))
	if r.SeededOutcome != "" && r.SeededOutcome != harness.OutcomeOK {
		s = fmt.Sprintf("a seeded run stops at step %d (%s); %s simulated", r.ScenarioSteps, r.SeededOutcome, seconds(r.ScenarioMs))
	}
	if r.BaseSteps > 0 {
		s += names.Sprintf("; the search starts at step %d (t=%s, {FromMs})", r.BaseSteps, seconds(r.BaseMs))
	}
	return s
}

// covered says which states the search visited every one of: those of
// the first Covered steps, with the share of a seeded run's steps and the
// simulated time every path reached.
func covered(r Report) string {
	share := ""
	if r.ScenarioSteps > 0 {
		share = fmt.Sprintf(" (%d of the %d steps of a seeded run: %.1f%%)", int64(r.Covered)+r.BaseSteps, r.ScenarioSteps,
			100*float64(int64(r.Covered)+r.BaseSteps)/float64(r.ScenarioSteps))
	}
	first := fmt.Sprintf("the first %d steps", r.Covered)
	if r.BaseSteps > 0 {
		first = fmt.Sprintf("%d steps from step %d", r.Covered, r.BaseSteps)
	}
	return fmt.Sprintf("every state of %s%s visited; every path explored to %s or later (at most %s) of %s", first, share,
		seconds(r.ReachedMinMs), seconds(r.ReachedMaxMs), seconds(r.ScenarioMs))
}

// stopText says why the search stopped and what that covered:
// "exhausted" only for the end of every path or the depth bound asked for.
func stopText(h Header, r Report, names config.Names) string {
	switch r.Stop {
	case StopComplete:
		return "exhausted: every reachable state visited, to the end of the scenario (every path ended, at the end or at a violation)"
	case StopDepth:
		return names.Sprintf("exhausted to {Depth} %d, not to the scenario's end: %s", h.Depth, covered(r))
	case StopViolation:
		return "search stopped at a violation: " + covered(r)
	case StopInterrupted:
		return fmt.Sprintf("NOT exhausted: stopped at depth %d: %s", r.Depth, covered(r))
	case StopSteps:
		return names.Sprintf("NOT exhausted: {MaxSteps} cut %d paths: %s", r.BudgetCut, covered(r))
	case StopMemory:
		return names.Sprintf("NOT exhausted: {MaxMemory} %d MiB reached at depth %d: %s", h.MaxMemory, r.Depth, covered(r))
	}
	return names.Sprintf("NOT exhausted: {MaxStates} %d reached at depth %d: %s", h.MaxStates, r.Depth, covered(r))
}

// plural prints n things, e.g. "1 step", "186 steps".
func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// seconds prints simulated milliseconds as seconds, e.g. "90.000 s".
func seconds(ms int64) string { return fmt.Sprintf("%d.%03d s", ms/1000, ms%1000) }

// SaveFindings writes the violation's scenario file to out and each known
// finding's beside it (KnownFile), and returns the lines that name them
// with the command that replays each. A file that cannot be written is
// not lost: its scenario is printed in the lines instead, and the error
// (the first) names the file.
func SaveFindings(out string, h Header, r Report) (string, error) {
	var w strings.Builder
	var first error
	// The file records its strategy, profile, mutants and work budget
	// (its failure member): 'simrun replay FILE' reruns the path alone.
	replay := func(file string) string { return "simrun replay " + file }
	save := func(file string, data []byte) bool {
		err := CheckOut(file)
		if err == nil {
			err = outfile.WriteAtomic(file, append([]byte(nil), data...))
		}
		if err != nil {
			fmt.Fprintf(&w, "    NOT SAVED (%v); the scenario file follows:\n%s\n", err, data)
			if first == nil {
				first = err
			}
		}
		return err == nil
	}
	if v := r.Violation; v != nil && save(out, v.Scenario) {
		fmt.Fprintf(&w, "    counterexample: %s\n    replay: %s\n", out, replay(out))
	}
	for _, k := range r.Known {
		if file := KnownFile(out, k.Kind); save(file, k.Scenario) {
			fmt.Fprintf(&w, "    %s: %s\n", k.Kind, replay(file))
		}
	}
	return w.String(), first
}

// KnownFile is where SaveFindings writes the known finding of kind beside
// out: in out's directory, out's name with "-KIND" before its extension.
func KnownFile(out, kind string) string {
	dir, base := filepath.Split(out)
	ext := filepath.Ext(base)
	return filepath.Join(dir, strings.TrimSuffix(base, ext)+"-"+kind+ext)
}

// CheckOut checks that out can take a scenario file (--out): nothing
// there yet, or a regular file (a link to one is followed) that can be
// replaced, in a directory where files can be made (outfile.CheckFile). A
// device, a pipe or a directory is refused: the file is a scenario to
// replay, and known findings go beside it.
func CheckOut(out string) error {
	_, fi, err := outfile.Target(out)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s): a counterexample is a scenario file, and known findings are "+
			"written beside it; give a file name", out, fi.Mode().Type())
	}
	if err := outfile.CheckFile(out); err != nil {
		return fmt.Errorf("%s: %v", out, err)
	}
	return nil
}

// IgnoredScheduleWarning is the warning line simrun explore prints when the
// scenario sc (given as arg) has an explore schedule, which the search
// ignores; "" when it has none. names spells the settings it names.
func IgnoredScheduleWarning(arg string, sc *scenarios.Scenario, names config.Names) string {
	e := sc.Explore
	if e == nil {
		return ""
	}
	return names.Sprintf("simrun: warning: %s already has an explore schedule (%d faults, %d picks): explore ignores it "+
		"and searches from the scenario's start with {Faults} and {Lost} as given ({FromMs} starts further in)\n",
		arg, len(e.Faults), len(e.Choices))
}

// InterruptedText is the line simrun explore prints when the signal named
// sig stopped the search r: what it cut short, and that the figures are of
// the part done; jsonl is the shard file not written ("" none). names
// spells the settings it names.
func InterruptedText(sig string, r Report, jsonl string, names config.Names) string {
	var what string
	switch r.InterruptedIn {
	case PartPrefix:
		what = names.Sprintf("the run to {FromMs}, before the search began")
	case PartLiveness:
		what = fmt.Sprintf("the liveness continuations from the %s the bound cut (%d run)", plural(int64(r.Frontier), "state"),
			r.LivenessChecked)
	default:
		what = fmt.Sprintf("the search at depth %d (%s visited)", r.Depth, plural(r.States, "state"))
	}
	s := fmt.Sprintf("  stopped by %s during %s: the figures are those of the part done", sig, what)
	if jsonl != "" {
		s += fmt.Sprintf("; %s not written (a partial shard would pass for a whole one)", jsonl)
	}
	return s + "\n"
}
