package reports

import (
	"fmt"
	"io"
	"strings"
	"tierfetch/config"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// RecordHeader says, before a run of a scenario file that records a
// failure, what the file records and that the run follows it, except where
// a flag given (overridden, as given) says otherwise.
func RecordHeader(w io.Writer, file string, f *scenarios.Failure, overridden []string) {
	how := "running it as recorded"
	if len(overridden) > 0 {
		how = "running it as recorded except " + strings.Join(overridden, ", ") + " as given"
	}
	fmt.Fprintf(w, "%s records a failure: %s: %s %s; %s\n", file, recordedRun(f), f.Outcome, f.Violation, how)
}

// recordedRun names the run a record describes: its strategy, profile, and
// mutants, fixes and work budget when it has them.
func recordedRun(f *scenarios.Failure) string {
	parts := []string{f.Strategy, "profile " + f.Profile}
	if len(f.Mutants) > 0 {
		parts = append(parts, "mutant "+strings.Join(f.Mutants, ","))
	}
	if len(f.Fixes) > 0 {
		parts = append(parts, "fix "+strings.Join(f.Fixes, ","))
	}
	if f.MaxSteps != 0 {
		parts = append(parts, fmt.Sprintf("max-steps %d", f.MaxSteps))
	}
	return strings.Join(parts, ", ")
}

// RecordVerdict says, after the run, whether the recorded strategy's run
// failed as the file records (outcome, invariant and kind; the step is
// named when it moved), as a Go fuzz corpus entry does.
func RecordVerdict(w io.Writer, file string, f *scenarios.Failure, res harness.Result, names config.Names) {
	for _, r := range res.Runs {
		if r.Strategy != f.Strategy {
			continue
		}
		fmt.Fprintf(w, "%s\n", recordVerdict(f, r))
		return
	}
	names.Fprintf(w, "%s: the recorded strategy %s was not run ({Strategy})\n", file, f.Strategy)
}

func recordVerdict(f *scenarios.Failure, r harness.RunJSON) string {
	if r.Violation == nil || r.Outcome == harness.OutcomeOK {
		return fmt.Sprintf("NOT AS RECORDED: the %s run passed; the file records %s %s", f.Strategy, f.Outcome, f.Violation)
	}
	v := r.Violation
	got := scenarios.FailureViolation{Invariant: v.Invariant, Kind: v.Kind, AtMs: v.AtMs, Step: v.Step}
	switch {
	case r.Outcome != f.Outcome || v.Invariant != f.Violation.Invariant || v.Kind != f.Violation.Kind:
		return fmt.Sprintf("NOT AS RECORDED: the %s run ended %s %s; the file records %s %s", f.Strategy, r.Outcome, got, f.Outcome, f.Violation)
	case v.Step != f.Violation.Step:
		return fmt.Sprintf("as recorded: %s %s, at step %d instead of the recorded %d", r.Outcome, v.Invariant, v.Step, f.Violation.Step)
	}
	return fmt.Sprintf("as recorded: %s %s", r.Outcome, got)
}

// NoRecord says what 'simrun replay' runs for a file that records no
// failure.
func NoRecord(w io.Writer, file, strategy, profile string) {
	if strategy == "both" {
		strategy = "both strategies"
	}
	fmt.Fprintf(w, "%s records no failure (the files simrun sweep, merge, mutants, shrink and explore save do): running %s, profile %s\n",
		file, strategy, profile)
}
