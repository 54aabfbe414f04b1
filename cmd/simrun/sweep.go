package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/reports"
)

type sweepFlags struct {
	seeds       string
	strategy    string
	profile     string
	workers     int
	out         string
	determinism bool
	shrink      int
	mutant      string
	shard       string
	jsonl       string
	maxSteps    stepsFlag
	resumeFrom  seedFlag
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
	fs.StringVar(&f.seeds, "seeds", "1..1000", "seed range A..B (inclusive), or one seed")
	fs.StringVar(&f.strategy, "strategy", "both", "local-log-start, last-tiered or both")
	fs.StringVar(&f.profile, "profile", "kip", "behaviour profile: "+profileNames())
	fs.IntVar(&f.workers, "workers", runtime.NumCPU(), "runs in parallel (results do not depend on it)")
	fs.StringVar(&f.out, "out", "sweep-out", "directory for the scenario files of failing seeds")
	fs.BoolVar(&f.determinism, "check-determinism", false, "run each seed twice and compare the state after every step")
	fs.IntVar(&f.shrink, "shrink", 200, "runs allowed to shrink each saved failure (0: no shrinking)")
	fs.StringVar(&f.mutant, "mutant", "", "switch on deliberate bugs, comma-separated (see 'simrun mutants')")
	fs.StringVar(&f.shard, "shard", "0/1", "run only shard K of N: the seeds s with (s-A) % N == K")
	fs.StringVar(&f.jsonl, "jsonl", "", "write every seed's results to this file as JSON Lines, for 'simrun merge'")
	maxStepsVar(fs, &f.maxSteps)
	fs.Var(&f.resumeFrom, "resume-from", "run only the seeds >= this one of A..B (and of the shard): the rest of an interrupted sweep;\nits --jsonl file's header says so, and 'simrun merge' folds it with the interrupted one")
	return cmd
}

func cmdSweep(f sweepFlags, stdout, stderr io.Writer) (int, error) {
	args := fuzz.SweepArgs{Seeds: f.seeds, Strategy: f.strategy, Profile: f.profile, Mutant: f.mutant, Shard: f.shard, Out: f.out,
		JSONL: f.jsonl, Workers: f.workers, Shrink: f.shrink, CheckDeterminism: f.determinism, MaxSteps: int64(f.maxSteps)}
	if f.resumeFrom.set {
		args.ResumeFrom = &f.resumeFrom.n
	}
	cfg, err := fuzz.NewSweepConfig(args)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	tuneGC()
	s := newSweep(f, cfg, stderr)
	if f.jsonl != "" {
		if err := s.OpenJSONL(); err != nil {
			return exitBadInput, badInput("--jsonl: %v", err)
		}
	}
	ctx, received, stop := catchSignals()
	defer stop()
	next, complete := s.Run(ctx)
	s.progress(true)
	s.CloseJSONL(next, complete)
	s.report(stdout, s.RangeText(next, complete))
	if !complete {
		s.printResume(stdout, received(), next)
	}
	if err := s.JSONLError(); err != nil {
		return exitBadInput, fmt.Errorf("--jsonl: %v", err)
	}
	if err := s.SaveError(); err != nil {
		return exitBadInput, err
	}
	if !complete {
		return signalExit(received()), nil
	}
	return s.exitCode(), nil
}

// sweep is a fuzz.Sweeper with the flags that made it, printing progress
// on a terminal.
type sweep struct {
	*fuzz.Sweeper
	f      sweepFlags
	stderr io.Writer
	start  time.Time
	shown  time.Time
}

// newSweep makes the sweeper of cfg (its replay flags and progress from f).
func newSweep(f sweepFlags, cfg fuzz.SweepConfig, stderr io.Writer) *sweep {
	s := &sweep{f: f, stderr: stderr, start: time.Now(), shown: time.Now()}
	cfg.ReplayFlags = replayFlags(cfg.Profile.Name(), f.mutant, f.maxSteps)
	cfg.Warn = func(msg string) { fmt.Fprintf(stderr, "simrun: %s\n", msg) }
	cfg.OnFold = func(uint64) {
		if time.Since(s.shown) >= time.Second {
			s.progress(false)
			s.shown = time.Now()
		}
	}
	s.Sweeper = fuzz.NewSweeper(cfg)
	return s
}

// printResume says where an interrupted sweep stopped and the command that
// runs the rest.
func (s *sweep) printResume(stdout io.Writer, sig os.Signal, next uint64) {
	args, part := s.ResumeArgs(next)
	jsonl := s.Config().JSONL
	fmt.Fprintf(stdout, "\ninterrupted by %s before seed %d", sigName(sig), next)
	if jsonl != "" {
		fmt.Fprintf(stdout, " (%s holds the seeds before it; its header says so)", jsonl)
	}
	fmt.Fprintf(stdout, "\nresume with: %s\n", strings.Join(args, " "))
	if jsonl != "" {
		fmt.Fprintf(stdout, "then the whole sweep's summary: simrun merge --out %s --shrink %d %s %s\n", s.f.out, s.f.shrink, jsonl, part)
	}
}

// report prints the summary of the folded seeds, the shrunk cases and what
// the determinism check found: what 'simrun sweep' and 'simrun merge' both
// print.
func (s *sweep) report(stdout io.Writer, seedRange string) {
	cfg := s.Config()
	reports.SweepSummary(stdout, s.Totals, seedRange, cfg.Profile.Name(), cfg.Out, cfg.ReplayFlags)
	reports.SweepDetails(stdout, s.Shrunk(), cfg.CheckDeterminism, s.Totals.Runs, s.Mismatches())
}

// exitCode is the sweep's exit code (fuzz.Sweeper.Worst).
func (s *sweep) exitCode() int {
	return map[string]int{"": exitOK, harness.OutcomeSafety: exitSafety, harness.OutcomeLiveness: exitLiveness,
		harness.OutcomeBudget: exitBudget}[s.Worst()]
}

// sweepGCPercent is the GC target a sweep runs with unless GOGC says
// otherwise. A run's live heap is a few MiB, so at Go's default of 100 the
// collector runs every few MiB allocated; with two workers its cycles and
// assists cost about a fifth of the throughput (BENCHMARKS.md). At 400 a
// sweep process stays within tens of MiB.
const sweepGCPercent = 400

// tuneGC sets the sweep's GC target, leaving an explicit GOGC alone.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(sweepGCPercent)
	}
}

// progress shows seeds done, rate, failures and time left on a terminal.
func (s *sweep) progress(final bool) {
	if !isTerminal(s.stderr) {
		return
	}
	done := s.Totals.Seeds
	total := int64(s.Seeds())
	elapsed := time.Since(s.start).Seconds()
	rate := float64(done) / max(elapsed, 1e-9)
	left := "?"
	if rate > 0 {
		left = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(s.stderr, "\rseeds %d/%d  %.0f/s  unknown failures %d  known findings %d  time left %s   ",
		done, total, rate, s.Totals.UnknownFailures(), len(s.Totals.FirstFindings), left)
	if final {
		fmt.Fprintln(s.stderr)
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// replayFlags are the flags a saved failure's replay command needs beyond
// the file and strategy: the profile (unless the default), any mutant and
// the work budget (unless the default).
func replayFlags(profile, mutant string, maxSteps stepsFlag) string {
	flags := mutantFlag(mutant) + maxStepsFlag(maxSteps)
	if profile != "kip" {
		flags = " --profile " + profile + flags
	}
	return flags
}
