package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tierfetch/cliutil"
	"tierfetch/explore"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

type exploreFlags struct {
	explore.Args
	maxSteps harness.StepsFlag
	maxInput scenarios.InputFlag
}

func newExploreCmd(c *cli) *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use: "explore --scenario NAME|FILE [--depth N] [--max-states N] [--faults LIST] [--lost] [--from-ms T]\n" +
			"        [--strategy S] [--profile P] [--mutant M] [--out FILE] [--shard K/N] [--jsonl FILE]",
		Short: "every state of a small scenario within a depth bound, breadth first; counterexamples as replayable files",
		Long:  help("explore"),
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			return cmdExplore(f, c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.Scenario, "scenario", "", "a named scenario (see 'simrun scenarios') or a scenario file")
	fs.StringVar(&f.Strategy, "strategy", string(harness.LastTiered), "local-log-start or last-tiered")
	fs.StringVar(&f.Profile, "profile", "kip", "behaviour profile: "+fuzz.ProfileNames())
	fs.StringVar(&f.Mutant, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants')")
	fs.IntVar(&f.Depth, "depth", explore.DefaultDepth, "the bound: steps of a path, 1..100000")
	fs.IntVar(&f.MaxStates, "max-states", explore.DefaultMaxStates, "the work budget: distinct states, 1..100000000")
	fs.StringVar(&f.Faults, "faults", "", "faults that may be injected before any step until the heal, comma-separated: "+
		strings.Join(explore.FaultKinds, ", ")+" (on every replica)")
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
	if err := harness.CheckBudget(cfg.Scenario, int64(f.maxSteps)); err != nil {
		return exitBudget, err
	}
	fmt.Fprint(stderr, explore.IgnoredScheduleWarning(f.Scenario, cfg.Scenario))
	cliutil.TuneGC(gcPercent) // as run and sweep: about a third more states/s (docs/history.md)
	ctx, received, stop := catchSignals()
	defer stop()
	cfg.Stopped = func() bool { return ctx.Err() != nil }
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
	if code, err := printExplore(stdout, f.Out, h, rep, seconds); err != nil {
		return code, err
	}
	if rep.Interrupted {
		fmt.Fprint(stdout, explore.InterruptedText(cliutil.SignalName(received()), f.JSONL))
		return cliutil.SignalExit(received()), nil
	}
	if f.JSONL != "" {
		if err := explore.WriteShardFile(f.JSONL, h, rep); err != nil {
			return exitBadInput, badInput("--jsonl: %v", err)
		}
	}
	return outcomeExit(rep.Outcome()), nil
}

// printExplore prints a search's figures and findings and saves the
// findings' scenario files (--out, and beside it).
func printExplore(stdout io.Writer, out string, h explore.Header, rep explore.Report, seconds float64) (int, error) {
	fmt.Fprint(stdout, explore.Text(h, rep, seconds))
	saved, err := explore.SaveFindings(out, h, rep)
	fmt.Fprint(stdout, saved)
	if err != nil {
		return exitBadInput, badInput("--out: %v", err)
	}
	return exitOK, nil
}

// mergeExplore folds the --jsonl files of every shard of one search.
func mergeExplore(files []string, out string, stdout io.Writer) (int, error) {
	h, m, err := explore.MergeFiles(files)
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	fmt.Fprintf(stdout, "merged %d shards (states: an upper bound, shards do not share their visited sets)\n", len(files))
	if code, err := printExplore(stdout, out, h, m, 0); err != nil {
		return code, err
	}
	return outcomeExit(m.Outcome()), nil
}
