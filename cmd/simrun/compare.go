package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/cliutil"
	"tierfetch/compare"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

// compareFlagSet adds compare's flags to fs.
func compareFlagSet(fs *pflag.FlagSet, f *compare.Config) {
	fs.StringVar(&f.Scenario, "scenario", "", "a named scenario or a scenario file (default: every named scenario with an add_replica event, findings aside)")
	fs.BoolVar(&f.Generated, "generated", false, "compare on the scenario each seed generates (see 'simrun gen')")
	fs.StringVar(&f.Seeds, "seeds", "1..20", "seed range A..B (inclusive), or one seed")
	fs.StringVar(&f.Out, "out", "compare-out", "directory for report.md, runs.csv and the charts")
	fs.StringVar(&f.Vary, "vary", "", "sweep one parameter: KEY=V1,V2,... where KEY is a config field of the scenario file\n(e.g. local_retention_bytes or Kafka's local.retention.bytes, replication_bytes_per_sec, remote_log_manager_task_interval_ms;\nbyte counts take units: 1MiB) or "+compare.ProduceScaleKey+" (multiplies every produce event's records)")
	fs.IntVar(&f.Workers, "workers", runtime.NumCPU(), "pairs run in parallel (the output does not depend on it)")
	fs.StringVar(&f.Profiles, "profiles", compare.DefaultProfiles, "behaviour profiles, comma-separated: "+harness.ProfileNames()+";\nthe statistics use the first, the report compares them all")
	fs.StringVar(&f.Profile, "profile", "", "one behaviour profile: the same as --profiles P")
	fixFlag(fs, &f.Fix)
	fs.Lookup("fix").Usage += ";\nunset: each pair runs without fixes and again with every fix, for the report's column \"with fixes\""
	fs.StringVar(&f.Shard, "shard", "", "run only shard K of N: the pairs whose index in the job list is K modulo N\n(with --jsonl; 'simrun merge' renders the report)")
	fs.StringVar(&f.JSONL, "jsonl", "", "write the pairs (of the shard, with --shard) to this file as JSON Lines instead of a report;\n'simrun merge' renders the report")
	fs.IntVar(&f.ResumeFrom, "resume-from", 0, "with --jsonl: run only the jobs from this one on (the rest of an interrupted comparison)")
	maxStepsVar(fs, (*stepsFlag)(&f.MaxSteps))
	maxInputVar(fs, (*scenarios.InputFlag)(&f.MaxInput))
}

func newCompareCmd(c *cli) *cobra.Command {
	var f compare.Config
	cmd := &cobra.Command{
		Use:   "compare [--scenario NAME|FILE | --generated] [--seeds A..B] [--out DIR] [--vary KEY=V1,V2,...] [--profiles P1,P2] [--workers N] [--shard K/N --jsonl FILE]",
		Short: "both protocols on the same seeds: report.md, runs.csv and charts of catch-up time and its costs",
		Long: strings.NewReplacer("{{sweepKey}}", compare.DefaultSweepKey, "{{sweepScenario}}", compare.DefaultSweepScenario,
			"{{sweepValues}}", compare.DefaultSweepValues).Replace(help("compare")),
		Args: noArgs,
		RunE: c.action(func(cmd *cobra.Command, _ []string) (int, error) {
			s, err := newCompare(f, cmd.Flags())
			if err != nil {
				return exitBadInput, err
			}
			return cmdCompare(s, c.stdout, c.stderr)
		}),
	}
	compareFlagSet(cmd.Flags(), &f)
	return cmd
}

// newCompare makes the comparison of the flags fs parsed into f.
func newCompare(f compare.Config, fs *pflag.FlagSet) (*compare.Setup, error) {
	fs.Visit(func(fl *pflag.Flag) { compareGiven(&f, fl.Name, fl.Value.String()) })
	f.Version, f.Names = cliutil.Version(), flagNames
	s, err := compare.New(f)
	if err != nil {
		return nil, badInput("%v", err)
	}
	return s, nil
}

// compareGiven records a flag given on the command line: its field in
// Changed, and unless it only says where or how fast the pairs run (shard,
// jsonl, out, workers, resume-from), the flag in Args, as --name=value.
// Flags are given in name order, as pflag visits them.
func compareGiven(f *compare.Config, name, value string) {
	if f.Changed == nil {
		f.Changed = map[string]bool{}
	}
	for field, flag := range fieldFlag {
		if flag == name {
			f.Changed[field] = true
		}
	}
	switch name {
	case "shard", "jsonl", "out", "workers", "resume-from":
	default:
		f.Args = append(f.Args, "--"+name+"="+value)
	}
}

// parseCompare parses compare's flags from args (merge reads a shard's).
func parseCompare(args []string) (*compare.Setup, error) {
	var f compare.Config
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	compareFlagSet(fs, &f)
	if err := fs.Parse(args); err != nil {
		return nil, badInput("compare: %v", err)
	}
	if fs.NArg() > 0 {
		return nil, badInput("compare: unexpected argument %q", fs.Arg(0))
	}
	return newCompare(f, fs)
}

func cmdCompare(s *compare.Setup, stdout, stderr io.Writer) (int, error) {
	if w := scenarios.ShadowWarning("--scenario", s.ScenarioArg()); w != "" {
		fmt.Fprintf(stderr, "simrun: %s\n", w)
	}
	if err := s.Check(); err != nil {
		return errorCode(err), err
	}
	allowPartitions(s.Partitions(), s.Workers())
	// Where it writes is checked before the pairs run: --jsonl claimed,
	// the report's files writable, none of them the scenario file.
	if err := s.CheckOutputs(); err != nil {
		return exitBadInput, badInput("%v", err)
	}
	ctx, received, stop := catchSignals()
	defer stop()
	jsonl := s.JSONL()
	r := runCompare(ctx, s, stderr)
	stop() // the work is done: a signal now ends the process (signals.go)
	part, err := s.SavePart(r)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if !r.Complete {
		fmt.Fprint(stdout, s.ResumeText(cliutil.SignalName(received()), r, part))
		return cliutil.SignalExit(received()), nil
	}
	if jsonl != "" {
		text, budgetRuns := s.ShardText(r)
		fmt.Fprint(stdout, text)
		return budgetExit(budgetRuns), nil
	}
	return compareReport(s, r.Pairs, r.SweepPairs, stdout)
}

// runCompare runs the comparison's held pairs, showing progress on a
// terminal in the unit its summary counts.
func runCompare(ctx context.Context, s *compare.Setup, stderr io.Writer) compare.Run {
	tty := cliutil.IsTerminal(stderr)
	p := cliutil.NewProgress(time.Now, 250*time.Millisecond, tty)
	show := func(done, total int, final bool) {
		if p.Due(final) {
			fmt.Fprint(stderr, p.Line("compare: pairs", int64(done), int64(total), ""))
		}
	}
	r := s.Run(ctx, func(done, total int) { show(done, total, false) })
	if tty {
		if _, _, held := s.Jobs(); r.Complete {
			show(held, held, true)
		}
		fmt.Fprintln(stderr)
	}
	return r
}

// compareReport writes the report of the pairs and prints its summary.
func compareReport(s *compare.Setup, pairs, sweepPairs []reports.ComparePair, stdout io.Writer) (int, error) {
	budgetRuns, err := s.ReportSummary(stdout, pairs, sweepPairs)
	if err != nil {
		return exitBadInput, err
	}
	return budgetExit(budgetRuns), nil
}

// budgetExit is the exit code of a comparison with budgetRuns runs stopped
// by their work budget: 4 when there is one, else 0.
func budgetExit(budgetRuns int) int {
	if budgetRuns > 0 {
		return exitBudget
	}
	return exitOK
}

// errorCode is the exit code of an error found before any run: 4 when a
// scenario's predicted cost exceeds the work budget, 2 otherwise.
func errorCode(err error) int {
	var be *harness.BudgetError
	if errors.As(err, &be) {
		return exitBudget
	}
	return exitBadInput
}

// mergeCompare folds the shard files of one comparison into the report the
// whole comparison writes with --out out, byte for byte, and prints its
// summary.
func mergeCompare(files []string, out string, maxBytes int64, stdout io.Writer) (int, error) {
	s, pairs, sweepPairs, err := compare.Merge(files, maxBytes, func(args []string) (*compare.Setup, error) {
		return parseCompare(append(args, "--out", out, "--workers", "1"))
	})
	if err != nil {
		return errorCode(err), err
	}
	var inputs []outfile.Named
	for _, f := range files {
		inputs = append(inputs, outfile.Named{Flag: "merge", Path: f})
	}
	if err := s.CheckOutputs(inputs...); err != nil {
		return exitBadInput, badInput("%v", err)
	}
	return compareReport(s, pairs, sweepPairs, stdout)
}
