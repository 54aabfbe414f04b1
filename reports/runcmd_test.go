package reports

import (
	bytespkg "bytes"
	"strings"
	"testing"

	"tierfetch/harness"
)

// TestRunFailures: what 'simrun run' prints and returns for each kind of
// failed run, alone and under --all.
func TestRunFailures(t *testing.T) {
	known := &harness.RunResult{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeSafety,
		Violation: &harness.Failure{Invariant: "no-data-loss", Kind: "stale-hro", Step: 7}}
	budget := &harness.RunResult{Strategy: harness.LastTiered, Outcome: harness.OutcomeBudget,
		Violation: &harness.Failure{Invariant: harness.InvariantBudget, Message: "stopped after 100 steps"}}
	ok := &harness.RunResult{Strategy: harness.LastTiered, Outcome: harness.OutcomeOK}
	statesAsked := 0
	in := RunInput{Names: flagNames, Scenario: "s", ScenarioArg: "s.json", Seed: 3, Profile: "kip", Mutant: "hw-not-reset", MaxSteps: 100,
		States: func(harness.Strategy, int64) (before, after harness.State) { statesAsked++; return }}

	in.Runs = []*harness.RunResult{known, ok}
	var w bytespkg.Buffer
	worst, replay := RunFailures(&w, in)
	want := "simrun run --scenario s.json --seed 3 --strategy local-log-start --profile kip --mutant hw-not-reset --max-steps 100 --trace"
	if worst != harness.OutcomeSafety || replay["local-log-start"] != want || len(replay) != 1 {
		t.Errorf("alone: worst %q, replay %v", worst, replay)
	}
	if !strings.Contains(w.String(), "VIOLATION no-data-loss (known finding: stale-hro)") || !strings.Contains(w.String(), "alone it exits 1") || statesAsked != 1 {
		t.Errorf("alone: report lacks the violation or the known-finding note (states asked %d):\n%s", statesAsked, w.String())
	}

	in.All = true
	w.Reset()
	if worst, replay := RunFailures(&w, in); worst != "" || replay["local-log-start"] != want || w.Len() != 0 {
		t.Errorf("--all: worst %q, replay %v, printed %q; want a known finding to pass silently with its replay", worst, replay, w.String())
	}

	in.All, in.Runs = false, []*harness.RunResult{budget}
	w.Reset()
	if worst, _ := RunFailures(&w, in); worst != harness.OutcomeBudget || !strings.Contains(w.String(), "WORK BUDGET last-tiered") ||
		!strings.Contains(w.String(), "--max-steps 200") {
		t.Errorf("budget: worst %q:\n%s", worst, w.String())
	}
}

func TestReplayFlags(t *testing.T) {
	for _, c := range []struct {
		profile, mutant, fix string
		steps                int64
		want                 string
	}{{"kip", "", "", harness.DefaultMaxSteps, ""}, {"kafka-trunk", "a,b", "", 5, " --profile kafka-trunk --mutant a,b --max-steps 5"},
		{"kip", "", "stale-hro", harness.DefaultMaxSteps, " --fix stale-hro"}} {
		if got := ReplayFlags(flagNames, c.profile, c.mutant, c.fix, c.steps); got != c.want {
			t.Errorf("ReplayFlags(%q, %q, %q, %d) = %q, want %q", c.profile, c.mutant, c.fix, c.steps, got, c.want)
		}
	}
}

func TestWriteResultsJSON(t *testing.T) {
	var w bytespkg.Buffer
	if err := WriteResultsJSON(&w, []harness.Result{{Scenario: "s"}}, false, "v1", "simrun run"); err != nil {
		t.Fatal(err)
	}
	if s := w.String(); !strings.HasPrefix(s, "{") || !strings.Contains(s, `"simrun_version": "v1"`) || !strings.Contains(s, `"command": "simrun run"`) {
		t.Errorf("one result: %s", s)
	}
}

// TestScheduleWarnings: a warning for each run that did not follow its
// explore schedule (picks out of range or left unused), with the counts;
// none for a run that fits or has no schedule.
func TestScheduleWarnings(t *testing.T) {
	runs := []*harness.RunResult{
		{Strategy: harness.LocalLogStart, Schedule: &harness.ScheduleFit{Picks: 5, Used: 5}},
		{Strategy: harness.LastTiered},
		{Strategy: harness.LastTiered, Schedule: &harness.ScheduleFit{Picks: 7, Used: 4, Clamped: 1}},
		{Strategy: harness.LocalLogStart, Schedule: &harness.ScheduleFit{Picks: 3, Used: 3, Clamped: 2}},
	}
	var w bytespkg.Buffer
	ScheduleWarnings(&w, "s", runs)
	got := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if len(got) != 2 ||
		!strings.HasPrefix(got[0], "simrun: warning: s (last-tiered): the explore schedule does not fit this run: 1 of 7 picks out of range (the last alternative taken instead), 3 left unused;") ||
		!strings.HasPrefix(got[1], "simrun: warning: s (local-log-start): the explore schedule does not fit this run: 2 of 3 picks out of range (the last alternative taken instead), 0 left unused;") {
		t.Errorf("warnings:\n%s", w.String())
	}
}
