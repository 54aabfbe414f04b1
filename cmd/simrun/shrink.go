package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"tierfetch/cliutil"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// shrinkFlags are simrun shrink's flags: the run's (as run takes them) and
// the shrink's budget and output.
type shrinkFlags struct {
	run   runFlags
	runs  int
	out   string
	given func(string) bool
}

// newShrinkCmd is simrun shrink FILE (cmdShrink).
func newShrinkCmd(c *cli) *cobra.Command {
	var f shrinkFlags
	cmd := &cobra.Command{
		Use:   "shrink FILE|NAME [--strategy S] [--profile P] [--mutant M] [--fix F] [--seed N] [--shrink RUNS] [--out FILE]",
		Short: "shrink a failing scenario to the smallest that fails the same way (the sweep's shrinker)",
		Long:  help("shrink"),
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return badInput("shrink: want one scenario file or name, got %d arguments", len(args))
			}
			return nil
		},
		RunE: c.action(func(cmd *cobra.Command, args []string) (int, error) {
			f.run.scenario, f.given = args[0], cmd.Flags().Changed
			f.run.given = f.given
			return cmdShrink(f, c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.run.strategy, "strategy", "", "local-log-start or last-tiered; unset: the recorded one, else the first that fails")
	fs.StringVar(&f.run.profile, "profile", "", "behaviour profile: "+harness.ProfileNames()+" (unset: the recorded one, else kip)")
	fs.StringVar(&f.run.mutants, "mutant", "", "deliberate bugs, comma-separated (unset: the recorded ones, else none)")
	fixFlag(fs, &f.run.fixes)
	fs.Lookup("fix").Usage += " (unset: the recorded ones, else none)"
	fs.Var(&f.run.seed, "seed", "the run's seed (default: the scenario's); the result keeps it")
	maxStepsVar(fs, &f.run.maxSteps)
	fs.Lookup("max-steps").DefValue += ", or the recorded budget"
	maxInputVar(fs, &f.run.maxInput)
	fs.IntVar(&f.runs, "shrink", 200, "runs allowed to shrink (candidate scenarios tried)")
	fs.StringVar(&f.out, "out", "", "where to write the smallest scenario (default: FILE-min.json beside FILE, NAME-min.json for a named one)")
	return cmd
}

// cmdShrink runs the scenario as recorded or asked, and shrinks the run
// that fails (fuzz.ShrinkRun), writing the result with its record.
func cmdShrink(f shrinkFlags, stdout, stderr io.Writer) (int, error) {
	cliutil.TuneGC(gcPercent)
	if f.runs < 1 {
		return exitBadInput, badInput("--shrink: want runs >= 1, got %d", f.runs)
	}
	sc, err := scenarios.ResolveMax(f.run.scenario, int64(f.run.maxInput))
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if err := harness.CheckRunnable(sc); err != nil {
		return exitBadInput, badInput("%s: %v", f.run.scenario, err)
	}
	if sc.BrokerScale() {
		return exitBadInput, badInput("%s: broker-scale scenarios (partitions) cannot be shrunk in this build: simrun run runs them", f.run.scenario)
	}
	if f.run.seed.Given {
		sc.Seed = f.run.seed.N
	}
	strategies, err := harness.ParseStrategies(cmp.Or(f.run.strategy, "both"))
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	profiles, err := runProfiles(f.run)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	mutants, err := harness.ParseMutants(f.run.mutants)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	fixes, err := harness.ParseFixes(f.run.fixes)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if _, err := recordedRun(&f.run, sc, &strategies, &profiles, &mutants, &fixes, stdout); err != nil {
		return exitBadInput, badInput("%s: %v", f.run.scenario, err)
	}
	out := f.out
	if out == "" {
		out = minFileOf(f.run.scenario, sc)
	}
	if err := checkOutputs([]outfile.Named{{Flag: "--out", Path: out}}, []outfile.Named{scenarioInput("the scenario file", f.run.scenario)}); err != nil {
		return exitBadInput, err
	}
	budget, err := harness.Budget(sc, int64(f.run.maxSteps))
	if err != nil {
		return exitBudget, err
	}
	// The runs of sc take the passed check (the candidates, other
	// scenarios, check their own).
	opt := harness.Options{Seed: sc.Seed, Profile: profiles[0], Mutants: mutants, Fixes: fixes, MaxSteps: int64(f.run.maxSteps), Budget: budget}
	run, ok := firstFailing(sc, opt, strategies)
	if !ok {
		fmt.Fprintf(stdout, "nothing to shrink: %s passes under %s, profile %s (seed %d); no file written\n", f.run.scenario,
			strategyNames(strategies), profiles[0].Name(), sc.Seed)
		return exitOK, nil
	}
	opt.Strategy = run.Strategy
	if run.Outcome == harness.OutcomeBudget {
		fmt.Fprintf(stdout, "not shrunk: the %s run reached its work budget (%s); shrinking would spend it on every candidate\n",
			run.Strategy, run.Violation.Message)
		return exitBudget, nil
	}
	res := fuzz.ShrinkRun(sc, opt, f.runs)
	if err := fuzz.WriteScenario(out, res.Scenario); err != nil {
		return exitBadInput, badInput("--out: %v", err)
	}
	what := fmt.Sprintf("%s %s %s", f.run.scenario, run.Strategy, run.Violation.Invariant)
	fmt.Fprintf(stdout, "shrunk (saved to %s, recording how it fails):\n%s\n", out, fuzz.ShrunkLines(what, res, out))
	return exitOK, nil
}

// firstFailing runs sc under each strategy in turn and returns the first
// run that fails.
func firstFailing(sc *scenarios.Scenario, opt harness.Options, strategies []harness.Strategy) (*harness.RunResult, bool) {
	for _, st := range strategies {
		opt.Strategy = st
		if r := harness.Execute(sc, opt); r.Outcome != harness.OutcomeOK {
			return r, true
		}
	}
	return nil, false
}

func strategyNames(list []harness.Strategy) string {
	var names []string
	for _, st := range list {
		names = append(names, string(st))
	}
	return strings.Join(names, " and ")
}

// minFileOf is where the shrunk case of arg goes: FILE-min.json beside a
// file, NAME-min.json in the working directory for a named scenario.
func minFileOf(arg string, sc *scenarios.Scenario) string {
	if _, err := os.Stat(arg); err == nil {
		return strings.TrimSuffix(arg, filepath.Ext(arg)) + "-min.json"
	}
	return sc.Name + "-min.json"
}
