package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tierfetch/cliutil"
	"tierfetch/explore"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

type exploreFlags struct {
	explore.Args
	maxSteps stepsFlag
	maxInput scenarios.InputFlag
}

func newExploreCmd(c *cli) *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use: "explore --scenario NAME|FILE [--depth N] [--max-states N] [--max-memory MIB] [--faults LIST] [--lost]\n" +
			"        [--from-ms T] [--no-reduction] [--strategy S] [--profile P] [--mutant M] [--fix F] [--out FILE] [--shard K/N] [--jsonl FILE]",
		Short: "every state of a scenario, breadth first, to its end or a bound; counterexamples as replayable files",
		Long:  help("explore"),
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			return cmdExplore(f, c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.Scenario, "scenario", "", "a named scenario (see 'simrun scenarios') or a scenario file")
	fs.StringVar(&f.Strategy, "strategy", string(harness.LastTiered), "local-log-start or last-tiered")
	fs.StringVar(&f.Profile, "profile", "kip", "behaviour profile: "+harness.ProfileNames())
	fs.StringVar(&f.Mutant, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants')")
	fixFlag(fs, &f.Fix)
	fs.IntVar(&f.Depth, "depth", 0, "bound the steps of a path, 1..100000 (0: none, to the scenario's end)")
	fs.IntVar(&f.MaxStates, "max-states", explore.DefaultMaxStates, "the work budget: distinct states, 1..100000000")
	fs.IntVar(&f.MaxMemory, "max-memory", explore.DefaultMaxMemoryMiB, "the process's memory in MiB, 64..1048576: the search "+
		"keeps its estimate (deterministic) within 3/4 of it, rebuilding states past that, then stops")
	fs.BoolVar(&f.NoReduce, "no-reduction", false, "take every order of steps that commute (the full search; the partial-order reduction is on by default)")
	fs.StringVar(&f.Faults, "faults", "", "faults that may be injected before any step until the heal, comma-separated: "+
		strings.Join(scenarios.ExploreFaultNames(), ", ")+" (on every replica)")
	fs.Int64Var(&f.FaultMs, "fault-ms", explore.DefaultFaultMs, "how long an injected partition or remote outage lasts, 1..3600000 ms")
	fs.BoolVar(&f.Lost, "lost", false, "a message may also be lost (a third latency class)")
	fs.BoolVar(&f.NoLiveness, "no-liveness", false, "skip the healed continuation from the states the bound cuts")
	fs.Int64Var(&f.FromMs, "from-ms", 0, "start the search at this simulated time, reached with no faults and fast links (0: the start)")
	fs.BoolVar(&f.Reexecute, "reexecute", false, "re-run every path from the start instead of stepping copies of states (slower; a cross-check)")
	fs.StringVar(&f.Out, "out", "explore-counterexample.json", "where a violation's scenario file is written (known findings beside it, suffixed by kind)")
	fs.StringVar(&f.JSONL, "jsonl", "", "write the search's header and result to this file, for 'simrun merge'")
	fs.StringVar(&f.Shard, "shard", "0/1", "explore only shard K of N of the frontier (split by state hash)")
	maxStepsVar(fs, &f.maxSteps)
	maxInputVar(fs, &f.maxInput)
	return cmd
}

// exploreRun is explore.Run (a variable for tests).
var exploreRun = explore.Run

func cmdExplore(f exploreFlags, stdout, stderr io.Writer) (int, error) {
	cfg, h, err := f.Config(int64(f.maxSteps), int64(f.maxInput))
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if err := checkExploreOutputs(f); err != nil {
		return exitBadInput, err
	}
	if cfg.Budget, err = harness.Budget(cfg.Scenario, int64(f.maxSteps)); err != nil {
		return exitBudget, err
	}
	fmt.Fprint(stderr, explore.IgnoredScheduleWarning(f.Scenario, cfg.Scenario, flagNames))
	cliutil.TuneGC(gcPercent) // as run and sweep: about a third more states/s (docs/history.md)
	// --max-memory bounds the process: the runtime is limited to it (less
	// the binary), the search's estimate to three quarters of that, the
	// rest being the collector's room (explore.RuntimeLimit). The limit
	// paces the collector only; what is kept is decided by the estimate.
	cliutil.LimitMemory(explore.RuntimeLimit(f.MaxMemory))
	ctx, received, stop := catchSignals()
	defer stop()
	cfg.Stopped = func() bool { return ctx.Err() != nil }
	// The search asks Stopped before each state and every few hundred
	// steps of a long run, so a signal stops it within a fraction of a
	// second; should some step take longer, the process ends anyway
	// exploreStopGrace after the signal, with nothing half-written.
	context.AfterFunc(ctx, func() {
		if sig := received(); sig != nil {
			time.AfterFunc(exploreStopGrace, func() {
				fmt.Fprintf(stderr, "simrun: explore: the search did not stop within %v of %s; ended without its figures "+
					"(no file is left half-written)\n", exploreStopGrace, cliutil.SignalName(sig))
				exitOnSignal(sig)
			})
		}
	})
	begin := time.Now()
	cfg.Progress = func(depth int, states int64, level int) {
		fmt.Fprintf(stderr, "explore: depth %d, %d states, %d in the last level, %.1f s\n", depth, states, level,
			time.Since(begin).Seconds())
	}
	res, err := exploreRun(cfg)
	if nd := (*explore.NondeterminismError)(nil); errors.As(err, &nd) {
		return exitNondeterminism, nd
	}
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	seconds := time.Since(begin).Seconds()
	rep, err := explore.ReportOf(res)
	if err != nil {
		return exitBadInput, err
	}
	code := outcomeExit(rep.Outcome())
	if err := printExplore(stdout, f.Out, h, rep, seconds); err != nil {
		fmt.Fprintf(stderr, "simrun: --out: %v (the scenario is printed above)\n", err)
		code = max(code, exitBadInput)
		if rep.Violation != nil {
			code = outcomeExit(rep.Outcome()) // the violation is the result: its exit code stands
		}
	}
	if rep.Interrupted {
		fmt.Fprint(stdout, explore.InterruptedText(cliutil.SignalName(received()), rep, f.JSONL, flagNames))
		return cliutil.SignalExit(received()), nil
	}
	if f.JSONL != "" {
		if err := explore.WriteShardFile(f.JSONL, h, rep); err != nil {
			fmt.Fprintf(stderr, "simrun: --jsonl: %v\n", err)
			if rep.Violation == nil {
				return exitBadInput, badInput("--jsonl: the shard file was not written")
			}
		}
	}
	return code, nil
}

// exploreStopGrace is how long the search has to stop after a signal
// before the process ends without it.
const exploreStopGrace = 5 * time.Second

// checkExploreOutputs checks --out and --jsonl before the search, so that
// a counterexample found is not lost to an output that cannot be written:
// --out must be able to take a scenario file (a regular file, in a
// writable directory: explore.CheckOut), --jsonl an output
// (outfile.CheckFile), and neither may be the scenario file or the other.
func checkExploreOutputs(f exploreFlags) error {
	if err := explore.CheckOut(f.Out); err != nil {
		return badInput("--out: %v", err)
	}
	if f.JSONL != "" {
		if err := outfile.CheckFile(f.JSONL); err != nil {
			return badInput("--jsonl: %v", err)
		}
	}
	outs := append(findingOutputs(f.Out), outfile.Named{Flag: "--jsonl", Path: f.JSONL})
	if err := outfile.CheckDistinct(outs, []outfile.Named{{Flag: "--scenario", Path: f.Scenario}}); err != nil {
		return badInput("%v", err)
	}
	return nil
}

// findingOutputs are the files a search may write: out, its
// counterexample, and beside it a known finding of each kind
// (explore.KnownFile), which replaced the scenario explored when it was
// such a file (simrun explore --scenario explore-counterexample-KIND.json).
func findingOutputs(out string) []outfile.Named {
	outs := []outfile.Named{{Flag: "--out", Path: out}}
	for _, kind := range harness.KnownKinds {
		outs = append(outs, outfile.Named{Flag: "--out's " + kind + " file", Path: explore.KnownFile(out, kind)})
	}
	return outs
}

// printExplore prints a search's figures and findings and saves the
// findings' scenario files (--out, and beside it); a file it could not
// write is printed instead, and the error returned.
func printExplore(stdout io.Writer, out string, h explore.Header, rep explore.Report, seconds float64) error {
	fmt.Fprint(stdout, explore.Text(h, rep, seconds, flagNames))
	saved, err := explore.SaveFindings(out, h, rep)
	fmt.Fprint(stdout, saved)
	return err
}

// mergeExplore folds the --jsonl files of every shard of one search.
func mergeExplore(files []string, out string, stdout io.Writer) (int, error) {
	var inputs []outfile.Named
	for _, name := range files {
		inputs = append(inputs, outfile.Named{Flag: "the shard file", Path: name})
	}
	if err := outfile.CheckDistinct(findingOutputs(out), inputs); err != nil {
		return exitBadInput, badInput("%v", err)
	}
	h, m, err := explore.MergeFiles(files)
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	fmt.Fprintf(stdout, "merged %d shards (states: an upper bound, shards do not share their visited sets)\n", len(files))
	if m.Violation != nil || len(m.Known) > 0 {
		if err := explore.CheckOut(out); err != nil {
			return exitBadInput, badInput("--out: %v", err)
		}
	}
	code := outcomeExit(m.Outcome())
	if err := printExplore(stdout, out, h, m, 0); err != nil && m.Violation == nil {
		return exitBadInput, badInput("--out: %v (the scenario is printed above)", err)
	}
	return code, nil
}
