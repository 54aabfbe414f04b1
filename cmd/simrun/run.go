package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/cliutil"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

type runFlags struct {
	scenario string
	all      bool
	seed     seedFlag
	maxSteps stepsFlag
	maxInput inputFlag
	strategy string
	profile  string
	trace    bool
	verbose  bool
	command  string // the command line, for the JSON's claims
	json     bool
	mutants  string
	timeline string
	chrome   string
}

// runFlagSet adds run's flags to fs.
func runFlagSet(fs *pflag.FlagSet, f *runFlags) {
	fs.StringVar(&f.scenario, "scenario", "", "a named scenario (see 'simrun scenarios') or a scenario file")
	fs.BoolVar(&f.all, "all", false, "run every named scenario")
	fs.Var(&f.seed, "seed", "the run's seed, 0..18446744073709551615 (default: the scenario's seed)")
	maxStepsVar(fs, &f.maxSteps)
	maxInputVar(fs, &f.maxInput)
	fs.StringVar(&f.strategy, "strategy", "both", "local-log-start, last-tiered or both")
	fs.StringVar(&f.profile, "profile", "kip", "behaviour profile: "+fuzz.ProfileNames())
	fs.BoolVar(&f.trace, "trace", false, "print every trace line (with --json: on standard error, so standard output stays one JSON document)")
	fs.BoolVar(&f.verbose, "verbose", false, "with --all: each scenario's summary and the full report of every failure, known findings included,\nafter the table")
	fs.BoolVar(&f.json, "json", false, "print the result object (FORMATS.md) instead of a summary")
	fs.StringVar(&f.mutants, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants'); never on by default")
	fs.StringVar(&f.timeline, "timeline", "", "write an SVG timeline of the run to this file: LSO, LLSO, HW, LEO of the leader and the new follower\nand the remote range over time, each strategy in a row")
	fs.StringVar(&f.chrome, "chrome-trace", "", "write the run in Chrome trace-event JSON to this file (opens in Perfetto or chrome://tracing),\none process per strategy, one track per broker")
}

func newRunCmd(c *cli) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run (--scenario NAME|FILE | --all) [flags]",
		Short: "run a scenario under one or both follower protocols, checking invariants after every step",
		Long:  help("run"),
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			f.command = c.commandLine()
			return cmdRun(f, c.stdout, c.stderr)
		}),
	}
	runFlagSet(cmd.Flags(), &f)
	return cmd
}

func cmdRun(f runFlags, stdout, stderr io.Writer) (int, error) {
	strategies, err := fuzz.ParseStrategies(f.strategy)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	profile, err := fuzz.ParseProfile(f.profile)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	mutants, err := fuzz.ParseMutants(f.mutants)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	var list []*scenarios.Scenario
	switch {
	case f.all && (f.timeline != "" || f.chrome != ""):
		return exitBadInput, badInput("--timeline and --chrome-trace need one scenario (--scenario), not --all")
	case f.all && f.scenario != "":
		return exitBadInput, badInput("run: give --scenario or --all, not both")
	case f.all:
		list = scenarios.Named()
	case f.scenario == "":
		return exitBadInput, badInput("run: --scenario is required (or --all); see 'simrun scenarios'")
	default:
		sc, err := scenarios.ResolveMax(f.scenario, int64(f.maxInput))
		if err != nil {
			return exitBadInput, badInput("%v", err)
		}
		list = []*scenarios.Scenario{sc}
	}
	for _, sc := range list {
		if err := harness.CheckBudget(sc, int64(f.maxSteps)); err != nil {
			return exitBudget, err
		}
	}
	if err := checkOutputFiles(f.timeline, f.chrome); err != nil {
		return exitBadInput, err
	}
	rec := reports.NewRunRecorder(strategies, f.timeline != "", f.chrome != "")
	worst := ""
	var results []harness.Result
	var all []reports.AllRun
	// Under --all the first screen is the answer (reports.AllSummary); the
	// per-scenario summaries (--verbose) and failure reports follow it.
	var details bytes.Buffer
	out := io.Writer(stdout)
	if f.all {
		out = &details
	}
	for _, sc := range list {
		seed := sc.Seed
		if f.seed.set {
			seed = f.seed.n
		}
		o, res, replay := runOne(sc, f, seed, strategies, profile, mutants, rec, out, stdout, stderr)
		results = append(results, res)
		all = append(all, reports.AllRun{Result: res, Replay: replay})
		worst = harness.WorseOutcome(worst, o)
	}
	if err := writeRecorded(rec, f.timeline, f.chrome); err != nil {
		return exitBadInput, err
	}
	if f.all && !f.json {
		reports.AllReport(stdout, all, profile.Name(), details.Bytes())
	}
	if f.json {
		if err := reports.WriteResultsJSON(stdout, results, f.all, cliutil.Version(), f.command); err != nil {
			return exitBadInput, err
		}
	}
	return outcomeExit(worst), nil
}

// runOne runs one scenario under each strategy and prints its summary and
// failure reports to out (under --all: the summary only with --verbose, the
// reports of known findings only with --verbose). Trace lines go to stdout,
// or with --json to stderr. It returns the worst outcome that fails the
// command, the result and the command that replays each failed strategy's
// run.
func runOne(sc *scenarios.Scenario, f runFlags, seed uint64, strategies []harness.Strategy, p model.Profile, mutants model.Mutants,
	rec *reports.RunRecorder, out, stdout, stderr io.Writer) (string, harness.Result, map[string]string) {
	var sink func(string)
	if f.trace {
		traceTo := stdout
		if f.json {
			traceTo = stderr
		}
		sink = func(line string) { fmt.Fprintln(traceTo, line) }
	}
	opt := harness.Options{Seed: seed, Profile: p, TraceSink: sink, Mutants: mutants, MaxSteps: int64(f.maxSteps)}
	rec.Hook(&opt)
	res, runs := harness.RunAllWith(sc, opt, strategies)
	rec.Finish(runs, fmt.Sprintf("%s, seed %d", sc.Name, seed))
	reports.ScheduleWarnings(stderr, sc.Name, runs)
	if !f.json && (!f.all || f.verbose) {
		reports.Summary(out, res, sc.DurationMs, sc.HealMs)
	}
	scenarioArg := sc.Name
	if f.scenario != "" {
		scenarioArg = f.scenario
	}
	worst, replay := reports.RunFailures(out, reports.RunInput{Runs: runs, Scenario: sc.Name, ScenarioArg: scenarioArg, Seed: seed,
		Profile: p.Name(), Mutant: f.mutants, MaxSteps: int64(f.maxSteps), All: f.all, Verbose: f.verbose, JSON: f.json,
		States: func(st harness.Strategy, step int64) (before, after harness.State) {
			opt := harness.Options{Seed: seed, Strategy: st, Profile: p, Mutants: mutants, MaxSteps: int64(f.maxSteps)}
			return harness.StatesAround(sc, opt, step)
		}})
	return worst, res, replay
}

// outcomeExit is the exit code of an outcome ("" or ok: 0).
func outcomeExit(outcome string) int {
	return map[string]int{harness.OutcomeSafety: exitSafety, harness.OutcomeLiveness: exitLiveness, harness.OutcomeBudget: exitBudget}[outcome]
}

// checkOutputFiles checks the --timeline and --chrome-trace files before
// anything runs (outfile.CheckFile).
func checkOutputFiles(timelinePath, chromePath string) error {
	for _, out := range []struct{ flag, path string }{{"--timeline", timelinePath}, {"--chrome-trace", chromePath}} {
		if out.path == "" {
			continue
		}
		if err := outfile.CheckFile(out.path); err != nil {
			return badInput("%s: %v", out.flag, err)
		}
	}
	return nil
}

// writeRecorded renders and writes the files asked for.
func writeRecorded(rec *reports.RunRecorder, timelinePath, chromePath string) error {
	for _, out := range []struct {
		flag, path string
		render     func() ([]byte, error)
	}{{"--timeline", timelinePath, rec.Timeline}, {"--chrome-trace", chromePath, rec.ChromeJSON}} {
		if out.path == "" {
			continue
		}
		data, err := out.render()
		if err != nil {
			return fmt.Errorf("%s: %w", out.flag, err)
		}
		if err := outfile.WriteAtomic(out.path, data); err != nil {
			return badInput("%s: %v", out.flag, err)
		}
	}
	return nil
}
