package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/campaign"
	"tierfetch/cliutil"
	"tierfetch/compare"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

type runFlags struct {
	scenario string
	all      bool
	seed     campaign.SeedFlag
	maxSteps stepsFlag
	maxInput scenarios.InputFlag
	strategy string
	profile  string
	trace    bool
	// tracePart limits the trace of a broker-scale file to one partition.
	tracePart string
	verbose   bool
	command   string // the command line, for the JSON's claims
	json      bool
	mutants   string
	fixes     string
	timeline  string
	chrome    string
	// given says which flags the command line set: a failure file's record
	// fills in the others (recordedRun).
	given  func(name string) bool
	replay bool // 'simrun replay'
	// budgets are the passed budget checks of the scenarios to run, which
	// their runs take (harness.Options.Budget) instead of checking again.
	budgets map[*scenarios.Scenario]harness.Budgeted
}

// runFlagSet adds run's flags to fs.
func runFlagSet(fs *pflag.FlagSet, f *runFlags) {
	fs.StringVar(&f.scenario, "scenario", "", "a named scenario (see 'simrun scenarios') or a scenario file")
	fs.BoolVar(&f.all, "all", false, "run every named scenario")
	fs.Var(&f.seed, "seed", "the run's seed, 0..18446744073709551615 (default: the scenario's seed)")
	maxStepsVar(fs, &f.maxSteps)
	fs.Lookup("max-steps").DefValue += ", or a failure file's recorded budget"
	maxInputVar(fs, &f.maxInput)
	fs.StringVar(&f.strategy, "strategy", "", "local-log-start, last-tiered or both; unset: both, or a failure file's recorded strategy")
	fs.StringVar(&f.profile, "profile", "", "behaviour profile: "+harness.ProfileNames()+", or several comma-separated (each run in turn;\n--json then prints an array); unset: kip, a failure file's recorded profile,\nand with --all every profile (the table is kip's, the rows another profile changes follow it)")
	fs.BoolVar(&f.trace, "trace", false, "print every trace line (with --json: on standard error, so standard output stays one JSON document)")
	fs.StringVar(&f.tracePart, "trace-partition", "", "with a broker-scale file (partitions): print the trace lines of this partition only\n(topic-partition, as Kafka names it, e.g. orders-3) and of the whole fleet (implies --trace)")
	fs.BoolVar(&f.verbose, "verbose", false, "with --all: each scenario's summary and the full report of every failure, known findings included,\nafter the table")
	fs.BoolVar(&f.json, "json", false, "print the result object (docs/reference/result.md) instead of a summary")
	fs.StringVar(&f.mutants, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants'); unset: none,\nor a failure file's recorded mutants")
	fixFlag(fs, &f.fixes)
	fs.Lookup("fix").Usage += "; unset: none,\nor a failure file's recorded fixes"
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
		RunE: c.action(func(cmd *cobra.Command, _ []string) (int, error) {
			f.command, f.given = c.commandLine(), cmd.Flags().Changed
			return cmdRun(f, c.stdout, c.stderr)
		}),
	}
	runFlagSet(cmd.Flags(), &f)
	return cmd
}

func cmdRun(f runFlags, stdout, stderr io.Writer) (int, error) {
	cliutil.TuneGC(gcPercent)
	strategies, err := harness.ParseStrategies(cmp.Or(f.strategy, "both"))
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	profiles, err := runProfiles(f)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	mutants, err := harness.ParseMutants(f.mutants)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	fixes, err := harness.ParseFixes(f.fixes)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if f.all && f.tracePart != "" {
		return exitBadInput, badInput("--trace-partition needs one scenario (--scenario), not --all")
	}
	if f.all && (f.timeline != "" || f.chrome != "") {
		return exitBadInput, badInput("--timeline and --chrome-trace need one scenario (--scenario), not --all")
	}
	list, err := scenarios.Select(f.scenario, f.all, int64(f.maxInput))
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if w := scenarios.ShadowWarning("--scenario", f.scenario); w != "" {
		fmt.Fprintf(stderr, "simrun: %s\n", w)
	}
	note := io.Writer(stdout)
	if f.json {
		note = stderr
	}
	var recorded *scenarios.Failure
	if !f.all {
		if recorded, err = recordedRun(&f, list[0], &strategies, &profiles, &mutants, &fixes, note); err != nil {
			return exitBadInput, badInput("%s: %v", f.scenario, err)
		}
	}
	if len(profiles) > 1 && (f.timeline != "" || f.chrome != "") {
		// Each file draws one profile's runs, a row or a process a strategy.
		return exitBadInput, badInput("--timeline and --chrome-trace need one profile (--profile P), not %d", len(profiles))
	}
	f.budgets = map[*scenarios.Scenario]harness.Budgeted{}
	for _, sc := range list {
		if err := harness.CheckRunnable(sc); err != nil {
			name := f.scenario // the file's path, or the named scenario
			if f.all {
				name = sc.Name
			}
			return exitBadInput, badInput("%s: %v", name, err)
		}
		if f.tracePart != "" {
			if err := harness.CheckTracePartition(sc, f.tracePart); err != nil {
				return exitBadInput, badInput("--trace-partition %v", err)
			}
		}
		budget, err := harness.Budget(sc, int64(f.maxSteps))
		if err != nil {
			return exitBudget, err
		}
		f.budgets[sc] = budget
	}
	if err := checkOutputs([]outfile.Named{{Flag: "--timeline", Path: f.timeline}, {Flag: "--chrome-trace", Path: f.chrome}},
		[]outfile.Named{scenarioInput("--scenario", f.scenario)}); err != nil {
		return exitBadInput, err
	}
	rec := reports.NewRunRecorder(strategies, f.timeline != "", f.chrome != "")
	worst := ""
	var results []harness.Result
	var all, fixed []reports.AllProfile
	// Under --all the first screen is the answer (reports.AllSummary); the
	// per-scenario summaries (--verbose) and failure reports follow it.
	var details bytes.Buffer
	out := io.Writer(stdout)
	if f.all {
		out = &details
	}
	most := 1
	for _, sc := range list {
		most = max(most, sc.PartitionCount())
	}
	allowPartitions(most, 1) // one run at a time
	for _, profile := range profiles {
		ap := reports.AllProfile{Profile: profile.Name()}
		for _, sc := range list {
			seed := sc.Seed
			if f.seed.Given {
				seed = f.seed.N
			}
			o, res, replay := runOne(sc, f, seed, strategies, profile, mutants, fixes, rec, out, stdout, stderr)
			results = append(results, res)
			ap.Runs = append(ap.Runs, reports.AllRun{Result: res, Replay: replay})
			worst = harness.WorseOutcome(worst, o)
		}
		all = append(all, ap)
		if f.all && !f.json && f.fixes == "" {
			fixed = append(fixed, allFixed(list, f, profile, strategies))
		}
	}
	if recorded != nil {
		reports.RecordVerdict(note, f.scenario, recorded, results[0], flagNames)
	}
	if err := writeRunFiles(rec, f.timeline, f.chrome); err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if n := rec.ChromeCut(); n > 0 {
		fmt.Fprintf(stderr, "simrun: --chrome-trace: %d of %d runs' traces were cut at their share of %d events, where a 'trace cut' event marks it\n",
			n, len(strategies), reports.MaxChromeEvents)
	}
	if f.all && !f.json {
		in := reports.AllInput{Profiles: all, Fix: f.fixes, Fixed: fixed, Width: cliutil.TerminalWidth(stdout), Names: flagNames,
			ReplayFlags: reports.MutantFlag(flagNames, f.mutants) + reports.FixFlag(flagNames, f.fixes) + reports.MaxStepsFlag(flagNames, int64(f.maxSteps))}
		if f.seed.Given {
			in.Seed = fmt.Sprint(f.seed.N)
			in.ReplayFlags = " --seed " + in.Seed + in.ReplayFlags
		}
		reports.AllReport(stdout, in, details.Bytes())
	}
	if f.json {
		if err := reports.WriteResultsJSON(stdout, results, f.all || len(results) > 1, cliutil.Version(), f.command); err != nil {
			return exitBadInput, err
		}
	}
	return outcomeExit(worst), nil
}

// allFixed runs run --all's scenarios under profile with every fix, for
// the first screen's note on what --fix all changes.
func allFixed(list []*scenarios.Scenario, f runFlags, profile model.Profile, strategies []harness.Strategy) reports.AllProfile {
	ap := reports.AllProfile{Profile: profile.Name()}
	for _, sc := range list {
		seed := sc.Seed
		if f.seed.Given {
			seed = f.seed.N
		}
		res, _ := harness.RunAllWith(sc, harness.Options{Seed: seed, Profile: profile, Fixes: model.AllFixes, MaxSteps: int64(f.maxSteps),
			Budget: f.budgets[sc]}, strategies)
		ap.Runs = append(ap.Runs, reports.AllRun{Result: res})
	}
	return ap
}

// runProfiles are the profiles 'simrun run' runs: --profile (one, or a
// comma-separated list run one after the other), or unset kip,
// and under --all every profile (compare's default list, the KIP text's
// first).
func runProfiles(f runFlags) ([]model.Profile, error) {
	names := cmp.Or(f.profile, "kip")
	if f.all && f.profile == "" {
		names = compare.DefaultProfiles
	}
	return harness.ParseProfileList("Profile", names)
}

// recordedRun lets a scenario file's failure record fill in what the
// command line did not set (the strategy, profile, mutants, fixes and work
// budget) and says so on note; it returns the record (nil when the file
// holds none). 'simrun replay' of a file with no record says what it runs.
func recordedRun(f *runFlags, sc *scenarios.Scenario, strategies *[]harness.Strategy, profiles *[]model.Profile, mutants *model.Mutants,
	fixes *model.Fixes, note io.Writer) (*scenarios.Failure, error) {
	if sc.Failure == nil {
		if f.replay {
			reports.NoRecord(note, f.scenario, cmp.Or(f.strategy, "both"), (*profiles)[0].Name())
		}
		return nil, nil
	}
	r, err := harness.ReadRecord(sc.Failure)
	if err != nil {
		return nil, err
	}
	var overridden []string
	given := func(name string) bool { return f.given != nil && f.given(name) }
	if given("strategy") {
		overridden = append(overridden, "--strategy "+f.strategy)
	} else {
		*strategies = []harness.Strategy{r.Strategy}
	}
	if given("profile") {
		overridden = append(overridden, "--profile "+f.profile)
	} else {
		*profiles = []model.Profile{r.Profile}
	}
	if given("mutant") {
		overridden = append(overridden, "--mutant "+f.mutants)
	} else {
		*mutants, f.mutants = r.Mutants, r.Mutant
	}
	if given("fix") {
		overridden = append(overridden, "--fix "+f.fixes)
	} else {
		*fixes, f.fixes = r.Fixes, r.Fix
	}
	if given("max-steps") {
		overridden = append(overridden, "--max-steps "+f.maxSteps.String())
	} else if r.MaxSteps != 0 {
		f.maxSteps = stepsFlag(r.MaxSteps)
	}
	reports.RecordHeader(note, f.scenario, sc.Failure, overridden)
	return sc.Failure, nil
}

// runOne runs one scenario under each strategy and prints its summary and
// failure reports to out (under --all: the summary only with --verbose, the
// reports of known findings only with --verbose). Trace lines go to stdout,
// or with --json to stderr. It returns the worst outcome that fails the
// command, the result and the command that replays each failed strategy's
// run.
func runOne(sc *scenarios.Scenario, f runFlags, seed uint64, strategies []harness.Strategy, p model.Profile, mutants model.Mutants,
	fixes model.Fixes, rec *reports.RunRecorder, out, stdout, stderr io.Writer) (string, harness.Result, map[string]string) {
	var sink func(string)
	if f.trace || f.tracePart != "" {
		traceTo := stdout
		if f.json {
			traceTo = stderr
		}
		sink = func(line string) { fmt.Fprintln(traceTo, line) }
	}
	opt := harness.Options{Seed: seed, Profile: p, TraceSink: sink, TracePartition: f.tracePart, Mutants: mutants, Fixes: fixes,
		MaxSteps: int64(f.maxSteps), Budget: f.budgets[sc]}
	rec.Hook(&opt)
	res, runs := harness.RunAllWith(sc, opt, strategies)
	var also []string
	if f.mutants != "" {
		also = append(also, "mutant "+f.mutants)
	}
	if f.fixes != "" {
		also = append(also, "fix "+f.fixes)
	}
	rec.Finish(runs, reports.TimelineTitle(sc.Name, p.Name(), seed, strings.Join(also, ", ")))
	reports.ScheduleWarnings(stderr, sc.Name, runs)
	if !f.json && (!f.all || f.verbose) {
		if sc.BrokerScale() {
			reports.BrokerScaleSummary(out, res, runs, sc)
		} else {
			reports.Summary(out, res, sc.DurationMs, sc.HealMs)
		}
	}
	scenarioArg := cmp.Or(f.scenario, sc.Name) // as the user named it
	worst, replay := reports.RunFailures(out, reports.RunInput{Names: flagNames, Runs: runs, Scenario: sc.Name, ScenarioArg: scenarioArg, Seed: seed,
		Profile: p.Name(), Mutant: f.mutants, Fix: f.fixes, MaxSteps: int64(f.maxSteps), All: f.all, Verbose: f.verbose, JSON: f.json,
		States: func(st harness.Strategy, step int64) (before, after harness.State) {
			opt := harness.Options{Seed: seed, Strategy: st, Profile: p, Mutants: mutants, Fixes: fixes, MaxSteps: int64(f.maxSteps),
				Budget: f.budgets[sc]}
			return harness.StatesAround(sc, opt, step)
		}})
	return worst, res, replay
}

// outcomeExit is the exit code of an outcome ("" or ok: 0).
func outcomeExit(outcome string) int {
	return map[string]int{harness.OutcomeSafety: exitSafety, harness.OutcomeLiveness: exitLiveness, harness.OutcomeBudget: exitBudget}[outcome]
}

// writeRunFiles renders and writes the --timeline and --chrome-trace files
// asked for ("" for none); an error names the flag. reports renders them,
// the command writes them (reports touches no files).
func writeRunFiles(rec *reports.RunRecorder, timeline, chrome string) error {
	for _, out := range []struct {
		flag, path string
		render     func() ([]byte, error)
	}{{"--timeline", timeline, rec.Timeline}, {"--chrome-trace", chrome, rec.ChromeJSON}} {
		if out.path == "" {
			continue
		}
		data, err := out.render()
		if err != nil {
			return fmt.Errorf("%s: %w", out.flag, err)
		}
		if err := outfile.WriteAtomic(out.path, data); err != nil {
			return fmt.Errorf("%s: %v", out.flag, err)
		}
	}
	return nil
}
