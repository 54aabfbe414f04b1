package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"tierfetch/harness"
	"tierfetch/model"
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
	json     bool
	mutants  string
	timeline string
	chrome   string
}

func newRunFlagSet(f *runFlags, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("simrun run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.scenario, "scenario", "", "a named scenario (see 'simrun scenarios') or a scenario file")
	fs.BoolVar(&f.all, "all", false, "run every named scenario")
	fs.Var(&f.seed, "seed", "the run's seed, 0..18446744073709551615 (default: the scenario's seed)")
	maxStepsVar(fs, &f.maxSteps)
	maxInputVar(fs, &f.maxInput)
	fs.StringVar(&f.strategy, "strategy", "both", "local-log-start, last-tiered or both")
	fs.StringVar(&f.profile, "profile", "kip", "behaviour profile: "+profileNames())
	fs.BoolVar(&f.trace, "trace", false, "print every trace line")
	fs.BoolVar(&f.json, "json", false, "print the result object (FORMATS.md) instead of a summary")
	fs.StringVar(&f.mutants, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants'); never on by default")
	fs.StringVar(&f.timeline, "timeline", "", "write an SVG timeline of the run to this file: LSO, LLSO, HW, LEO of the leader and the new follower\nand the remote range over time, each strategy in a row")
	fs.StringVar(&f.chrome, "chrome-trace", "", "write the run in Chrome trace-event JSON to this file (opens in Perfetto or chrome://tracing),\none process per strategy, one track per broker")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: simrun run --scenario NAME|FILE [flags]
       simrun run --all [flags]

Runs a scenario under one or both follower protocols on the same workload and
fault schedule, checking invariants after every step. With --all, every named
scenario runs; a violation the checker names as a known finding (by kind) is
reported but does not fail the exit code: clean means no unknown failures. Prints a summary per
strategy (outcome, each follower's bootstrap path, start offset, catch-up time,
bytes from the leader), or with --json the result object.
Exit codes: 0 all invariants held, 1 safety violation, 3 liveness violation,
4 work budget reached (or predicted), 2 bad input or an unwritable output.

Flags:
`)
		fs.PrintDefaults()
	}
	return fs
}

func profileNames() string {
	var names []string
	for name := range model.Profiles {
		names = append(names, name)
	}
	return strings.Join(sortStrings(names), ", ")
}

// parseProfile returns the behaviour profile called name.
func parseProfile(name string) (model.Profile, error) {
	p, ok := model.Profiles[name]
	if !ok {
		return nil, badInput("--profile: want one of %s, got %q", profileNames(), name)
	}
	return p, nil
}

func parseStrategies(s string) ([]harness.Strategy, error) {
	switch s {
	case "both":
		return harness.Strategies, nil
	case string(harness.LocalLogStart), string(harness.LastTiered):
		return []harness.Strategy{harness.Strategy(s)}, nil
	}
	return nil, badInput("--strategy: want local-log-start, last-tiered or both, got %q", s)
}

func cmdRun(args []string, stdout, stderr io.Writer) (int, error) {
	var f runFlags
	fs := newRunFlagSet(&f, stderr)
	if help, err := parseArgs(fs, args); help || err != nil {
		return exitCodeOf(err), err
	}
	tuneGC()
	strategies, err := parseStrategies(f.strategy)
	if err != nil {
		return exitBadInput, err
	}
	profile, err := parseProfile(f.profile)
	if err != nil {
		return exitBadInput, err
	}
	mutants, err := parseMutants(f.mutants)
	if err != nil {
		return exitBadInput, err
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
	rec, err := newRunRecorder(strategies, f.timeline, f.chrome)
	if err != nil {
		return exitBadInput, err
	}
	code := exitOK
	var results []harness.Result
	for _, sc := range list {
		seed := sc.Seed
		if f.seed.set {
			seed = f.seed.n
		}
		c, res := runOne(sc, f, seed, strategies, profile, mutants, rec, stdout)
		results = append(results, res)
		code = worse(code, c)
	}
	if err := rec.write(); err != nil {
		return exitBadInput, err
	}
	if f.json {
		if err := writeJSON(stdout, results, f.all); err != nil {
			return exitBadInput, err
		}
	}
	return code, nil
}

// runOne runs one scenario under each strategy and prints its summary and
// failure reports.
func runOne(sc *scenarios.Scenario, f runFlags, seed uint64, strategies []harness.Strategy, p model.Profile, mutants model.Mutants, rec *runRecorder, stdout io.Writer) (int, harness.Result) {
	var sink func(string)
	if f.trace && !f.json {
		sink = func(line string) { fmt.Fprintln(stdout, line) }
	}
	opt := harness.Options{Seed: seed, Profile: p, TraceSink: sink, Mutants: mutants, MaxSteps: int64(f.maxSteps)}
	rec.hook(&opt)
	res, runs := harness.RunAllWith(sc, opt, strategies)
	rec.finish(runs, fmt.Sprintf("%s, seed %d", sc.Name, seed))
	code := exitOK
	if !f.json {
		reports.Summary(stdout, res)
	}
	for _, r := range runs {
		known := f.all && r.Violation != nil && r.Violation.Kind != ""
		switch {
		case known:
			// In the default set a known finding is the product working.
		case r.Outcome == harness.OutcomeSafety:
			code = worse(code, exitSafety)
		case r.Outcome == harness.OutcomeLiveness:
			code = worse(code, exitLiveness)
		case r.Outcome == harness.OutcomeBudget:
			code = worse(code, exitBudget)
		case r.Outcome == harness.OutcomeOK:
			continue
		}
		if f.json {
			continue
		}
		scenarioArg := sc.Name
		if f.scenario != "" {
			scenarioArg = f.scenario
		}
		repro := fmt.Sprintf("simrun run --scenario %s --seed %d --strategy %s --profile %s%s", scenarioArg, seed, r.Strategy, p.Name(), mutantFlag(f.mutants))
		if r.Outcome == harness.OutcomeBudget {
			fmt.Fprintf(stdout, "WORK BUDGET %s: %s\n  reproduce with a larger budget: %s --max-steps %d\n",
				r.Strategy, r.Violation.Message, repro, min(2*int64(f.maxSteps), harness.MaxStepsLimit))
			continue
		}
		opt := harness.Options{Seed: seed, Strategy: r.Strategy, Profile: p, Mutants: mutants, MaxSteps: int64(f.maxSteps)}
		before, after := harness.StatesAround(sc, opt, r.Violation.Step)
		reports.Failure(stdout, reports.FailureInput{Seed: seed, Scenario: sc.Name, Strategy: string(r.Strategy), Profile: p.Name(),
			Failure: r.Violation, Before: before, After: after, Repro: repro + maxStepsFlag(f.maxSteps) + " --trace"})
	}
	return code, res
}

func mutantFlag(m string) string {
	if m == "" {
		return ""
	}
	return " --mutant " + m
}

// maxStepsFlag is " --max-steps N" when N is not the default, for the
// commands that reproduce a run.
func maxStepsFlag(n stepsFlag) string {
	if n == harness.DefaultMaxSteps {
		return ""
	}
	return fmt.Sprintf(" --max-steps %d", n)
}

// worse orders exit codes: a safety violation outranks a liveness one, which
// outranks a run stopped by its work budget.
func worse(a, b int) int {
	rank := map[int]int{exitOK: 0, exitBudget: 1, exitLiveness: 2, exitSafety: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func writeJSON(w io.Writer, results []harness.Result, all bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if all {
		return enc.Encode(results)
	}
	return enc.Encode(results[0])
}
