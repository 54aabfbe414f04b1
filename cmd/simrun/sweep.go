package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/campaign"
	"tierfetch/cliutil"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/reports"
)

// sweepFlags are simrun sweep's flags: a sweep's settings (fuzz checks
// them) and where to resume.
type sweepFlags struct {
	fuzz.SweepArgs
	resumeFrom campaign.SeedFlag
}

func newSweepCmd(c *cli) *cobra.Command {
	var f sweepFlags
	cmd := &cobra.Command{
		Use:   "sweep [--seeds A..B] [--strategy S] [--workers N] [--out DIR] [--check-determinism] [--shard K/N] [--jsonl FILE]",
		Short: "run generated scenarios for a range of seeds; summary, failures saved (and shrunk) for replay",
		Long:  help("sweep"),
		Args:  noArgs,
		RunE:  c.action(func(_ *cobra.Command, _ []string) (int, error) { return cmdSweep(f, c.stdout, c.stderr) }),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.Seeds, "seeds", "1..1000", "seed range A..B (inclusive), or one seed")
	fs.StringVar(&f.Strategy, "strategy", "both", "local-log-start, last-tiered or both")
	fs.StringVar(&f.Profile, "profile", "kip", "behaviour profile: "+harness.ProfileNames())
	fs.IntVar(&f.Workers, "workers", runtime.NumCPU(), "runs in parallel (results do not depend on it)")
	fs.StringVar(&f.Out, "out", "sweep-out", "directory for the scenario files of failing seeds")
	fs.BoolVar(&f.CheckDeterminism, "check-determinism", false, "run each seed twice and compare the state after every step")
	fs.IntVar(&f.Shrink, "shrink", 200, "runs allowed to shrink each saved failure (0: no shrinking)")
	capFlags(fs, &f.SweepArgs)
	fs.StringVar(&f.Mutant, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants')")
	fixFlag(fs, &f.Fix)
	fs.StringVar(&f.Shard, "shard", "0/1", "run only shard K of N: the seeds s with (s-A) % N == K")
	fs.StringVar(&f.JSONL, "jsonl", "", "write every seed's results to this file as JSON Lines, for 'simrun merge'")
	maxStepsVar(fs, (*stepsFlag)(&f.MaxSteps))
	fs.Var(&f.resumeFrom, "resume-from", "run only the seeds >= this one of A..B (and of the shard): the rest of an interrupted sweep;\nits --jsonl file's header says so, and 'simrun merge' folds it with the interrupted one")
	return cmd
}

func cmdSweep(f sweepFlags, stdout, stderr io.Writer) (int, error) {
	if f.resumeFrom.Given {
		f.ResumeFrom = &f.resumeFrom.N
	}
	cfg, err := fuzz.NewSweepConfig(f.SweepArgs)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	cliutil.TuneGC(gcPercent)
	s := newSweep(cfg, stderr)
	if f.JSONL != "" {
		// Claimed before --out is cleared, so that a refused --jsonl leaves
		// the earlier run's files there; and never --out's manifest, which
		// the sweep writes too.
		manifest := outfile.Named{Flag: "--out's manifest", Path: filepath.Join(cfg.Out, outfile.ManifestName)}
		if err := outfile.CheckDistinct([]outfile.Named{manifest, {Flag: "--jsonl", Path: f.JSONL}}, nil); err != nil {
			return exitBadInput, badInput("%v", err)
		}
		_, statErr := os.Lstat(f.JSONL)
		if err := s.OpenJSONL(); err != nil {
			return exitBadInput, badInput("--jsonl: %v", err)
		}
		if err := prepareOut(s, stderr); err != nil {
			s.DropJSONL(errors.Is(statErr, fs.ErrNotExist))
			return exitBadInput, err
		}
	} else if err := prepareOut(s, stderr); err != nil {
		return exitBadInput, err
	}
	ctx, received, stop := catchSignals()
	defer stop()
	next, complete := s.Run(ctx)
	stop() // the work is done: a signal now ends the process (signals.go)
	s.showProgress(true)
	s.CloseJSONL(next, complete)
	s.CloseOut()
	reports.SweepReport(stdout, s.Sweeper, s.RangeText(next, complete))
	if !complete {
		fmt.Fprint(stdout, s.ResumeText(cliutil.SignalName(received()), next))
	}
	if err := s.JSONLError(); err != nil {
		return exitBadInput, fmt.Errorf("--jsonl: %v", err)
	}
	if err := s.SaveError(); err != nil {
		return exitBadInput, err
	}
	if !complete {
		return cliutil.SignalExit(received()), nil
	}
	return outcomeExit(s.Worst()), nil
}

// gcPercent is the GC target run and sweep set unless GOGC says otherwise.
// A run's live heap is a few MiB, so at Go's default of 100 the collector
// runs every few MiB allocated; with two workers its cycles and assists
// cost about a fifth of the throughput (docs/contributing/BENCHMARKS.md). At 400 the heap may
// grow to five times what is live (a fixture of a million segments keeps a
// few hundred MiB live): main's memoryLimit makes it collect more near 1 GiB.
const gcPercent = 400

// sweep is a fuzz.Sweeper printing progress on a terminal.
type sweep struct {
	*fuzz.Sweeper
	stderr   io.Writer
	progress *cliutil.Progress
}

// newSweep makes the sweeper of cfg, with the replay flags its failures
// need and its texts naming the flags.
func newSweep(cfg fuzz.SweepConfig, stderr io.Writer) *sweep {
	s := &sweep{stderr: stderr, progress: cliutil.NewProgress(time.Now, time.Second, cliutil.IsTerminal(stderr))}
	cfg.Names = flagNames
	cfg.ReplayFlags = reports.ReplayFlags(flagNames, cfg.Profile.Name(), cfg.Mutant, cfg.Fix, cfg.MaxSteps)
	cfg.Warn = func(msg string) { fmt.Fprintf(stderr, "simrun: %s\n", msg) }
	cfg.OnFold = func(uint64) { s.showProgress(false) }
	s.Sweeper = fuzz.NewSweeper(cfg)
	return s
}

// showProgress shows seeds done, rate, failures and time left on a
// terminal, at most once a second (a final line always).
func (s *sweep) showProgress(final bool) {
	if !s.progress.Due(final) {
		return
	}
	extra := fmt.Sprintf("unknown failures %d  known findings %d  ", s.Totals.UnknownFailures(), len(s.Totals.FirstFindings))
	fmt.Fprint(s.stderr, s.progress.Line("seeds", s.Totals.Seeds, int64(s.Seeds()), extra))
	if final {
		fmt.Fprintln(s.stderr)
	}
}

// capFlags adds --max-saved and --max-shrunk, the caps on what a sweep (or
// a merge) saves and shrinks.
func capFlags(fs *pflag.FlagSet, a *fuzz.SweepArgs) {
	fs.IntVar(&a.MaxSaved, "max-saved", fuzz.DefaultMaxSaved, "save the scenario files of the first N unknown failures, in seed order\n(the first seed of each known kind is saved besides)")
	fs.IntVar(&a.MaxShrunk, "max-shrunk", fuzz.DefaultMaxShrunk, "shrink the first N saved failures")
}

// prepareOut readies a sweep's (or merge's) --out and says on stderr what
// clearing it did: that is the directory's story, not the sweep's, whose
// summary is the same whatever the directory held.
func prepareOut(s *sweep, stderr io.Writer) error {
	if err := s.PrepareOut(); err != nil {
		return badInput("%v", err)
	}
	if c := s.Saved().Cleared.String(); c != "" {
		fmt.Fprintf(stderr, "simrun: --out %s: %s\n", s.Config().Out, c)
	}
	return nil
}
