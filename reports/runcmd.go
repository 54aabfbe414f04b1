package reports

import (
	"encoding/json"
	"fmt"
	"io"
	"tierfetch/config"

	"tierfetch/harness"
)

// RunInput is one scenario's runs under each strategy, as 'simrun run'
// reports them.
type RunInput struct {
	Runs []*harness.RunResult
	// Scenario is the scenario's name; ScenarioArg the scenario as the
	// command line gave it (a file or a name), for the replay commands.
	Scenario, ScenarioArg string
	Seed                  uint64
	Profile               string
	Mutant                string // --mutant as given
	Fix                   string // --fix as given
	MaxSteps              int64
	// Names spells the flags the reports name (the command's).
	Names config.Names
	// All: 'run --all', where a known finding is the expected result and
	// its report is printed only with Verbose. JSON: no reports at all.
	All, Verbose, JSON bool
	// States gives the compact states before and after the step at which a
	// strategy's run failed: the caller reruns the scenario to that step.
	States func(strategy harness.Strategy, step int64) (before, after harness.State)
}

// RunFailures writes the report of each failed run (a failure report, or a
// line for a run stopped by its work budget) and returns the worst outcome
// that fails the command ("" when none does: under All a known finding
// does not) and, by strategy, the command that replays each failed run.
func RunFailures(w io.Writer, in RunInput) (worst string, replay map[string]string) {
	replay = map[string]string{}
	for _, r := range in.Runs {
		known := r.Violation != nil && r.Violation.Kind != ""
		switch {
		case known && in.All:
			// In the default set a known finding is the product working.
		case r.Outcome == harness.OutcomeOK:
			continue
		default:
			worst = harness.WorseOutcome(worst, r.Outcome)
		}
		n := in.Names
		repro := n.Sprintf("simrun run {Scenario} %s {Seed} %d {Strategy} %s {Profile} %s%s%s",
			in.ScenarioArg, in.Seed, r.Strategy, in.Profile, MutantFlag(n, in.Mutant), FixFlag(n, in.Fix))
		replay[string(r.Strategy)] = repro + MaxStepsFlag(n, in.MaxSteps) + n.Sprintf(" {Trace}")
		if in.JSON || (in.All && known && !in.Verbose) {
			continue
		}
		if r.Outcome == harness.OutcomeBudget {
			n.Fprintf(w, "WORK BUDGET %s: %s\n  reproduce with a larger budget: %s {MaxSteps} %d\n",
				r.Strategy, r.Violation.Message, repro, min(2*in.MaxSteps, harness.MaxStepsLimit))
			continue
		}
		before, after := in.States(r.Strategy, r.Violation.Step)
		Failure(w, FailureInput{Seed: in.Seed, Scenario: in.Scenario, Strategy: string(r.Strategy), Profile: in.Profile,
			Failure: r.Violation, Before: before, After: after, Repro: replay[string(r.Strategy)]})
		if known && !in.All {
			n.Fprintf(w, "  known finding %s: a real protocol failure this scenario exists to show; alone it exits 1 like any\n"+
				"  violation, under 'simrun run {All}' it is the expected result and does not fail the exit code\n", r.Violation.Kind)
		}
	}
	return worst, replay
}

// ReplayFlags are the flags a replay command needs beyond the scenario and
// strategy: the profile (unless the default, kip), any mutant, any fix and
// the work budget (unless the default), spelled by names.
func ReplayFlags(names config.Names, profile, mutant, fix string, maxSteps int64) string {
	flags := MutantFlag(names, mutant) + FixFlag(names, fix) + MaxStepsFlag(names, maxSteps)
	if profile != "kip" {
		flags = names.Sprintf(" {Profile} %s", profile) + flags
	}
	return flags
}

// MutantFlag is " --mutant M" (as names spells Mutant) for the mutants m
// as given, "" for none.
func MutantFlag(names config.Names, m string) string {
	if m == "" {
		return ""
	}
	return names.Sprintf(" {Mutant} %s", m)
}

// FixFlag is " --fix F" (as names spells Fix) for the fixes f as given, ""
// for none.
func FixFlag(names config.Names, f string) string {
	if f == "" {
		return ""
	}
	return names.Sprintf(" {Fix} %s", f)
}

// MaxStepsFlag is " --max-steps N" (as names spells MaxSteps) when n is
// not the default budget.
func MaxStepsFlag(names config.Names, n int64) string {
	if n == harness.DefaultMaxSteps {
		return ""
	}
	return names.Sprintf(" {MaxSteps} %d", n)
}

// ClaimedResult is a result object with what made it (additive fields):
// the simrun version from the build info and the command line as given,
// so that "the same binary gives the same bytes" can be checked.
type ClaimedResult struct {
	harness.Result
	Version string `json:"simrun_version"`
	Command string `json:"command"`
}

// WriteResultsJSON writes the result objects with their claims, indented:
// under all a list, else the one object.
func WriteResultsJSON(w io.Writer, results []harness.Result, all bool, version, command string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	var claimed []ClaimedResult
	for _, r := range results {
		claimed = append(claimed, ClaimedResult{Result: r, Version: version, Command: command})
	}
	if all {
		return enc.Encode(claimed)
	}
	return enc.Encode(claimed[0])
}

// ScheduleWarnings writes a warning line for each run that did not follow
// its scenario's explore schedule exactly (harness.ScheduleFit): such a run
// is not the path explore found.
func ScheduleWarnings(w io.Writer, scenario string, runs []*harness.RunResult) {
	for _, r := range runs {
		f := r.Schedule
		if f == nil || f.Fits() {
			continue
		}
		fmt.Fprintf(w, "simrun: warning: %s (%s): the explore schedule does not fit this run: %d of %d picks out of range "+
			"(the last alternative taken instead), %d left unused; the run diverged from the path explore found "+
			"(the model, strategy, profile or mutants differ from those it was written for)\n",
			scenario, r.Strategy, f.Clamped, f.Picks, f.Picks-f.Used)
	}
}
