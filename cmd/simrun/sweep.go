package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"

	"tierfetch/model"
	"tierfetch/reports"
	"tierfetch/scenarios"
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
}

func cmdSweep(args []string, stdout, stderr io.Writer) (int, error) {
	var f sweepFlags
	fs := flag.NewFlagSet("simrun sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
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
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: simrun sweep [--seeds A..B] [--strategy S] [--workers N] [--out DIR] [--check-determinism]
                    [--shard K/N] [--jsonl FILE]

Generates a scenario from every seed and runs it under each strategy, checking
invariants after every step. Prints a summary: runs, steps, unknown failures
by invariant and strategy, known findings by kind, and coverage goals. Each
failing seed's scenario is saved in --out with the command that replays it.
Ctrl-C stops cleanly, keeps what was found and says how to resume.

--shard K/N runs only the seeds s of A..B with (s-A) % N == K; --jsonl FILE
writes a header line and then one line per seed (in seed order) with its runs:
'simrun merge' folds the files of every shard into the summary one sweep over
A..B prints.
Exit codes: 0 no unknown failure, 1 an unknown safety violation, 3 only unknown
liveness violations, 2 bad input.

Flags:
`)
		fs.PrintDefaults()
	}
	if help, err := parseArgs(fs, args); help || err != nil {
		return exitCodeOf(err), err
	}
	from, to, err := parseSeeds(f.seeds)
	if err != nil {
		return exitBadInput, err
	}
	strategies, err := parseStrategies(f.strategy)
	if err != nil {
		return exitBadInput, err
	}
	profile, err := parseProfile(f.profile)
	if err != nil {
		return exitBadInput, err
	}
	if f.workers < 1 || f.workers > 1024 {
		return exitBadInput, badInput("--workers: want 1..1024, got %d", f.workers)
	}
	mutants, err := parseMutants(f.mutant)
	if err != nil {
		return exitBadInput, err
	}
	if f.shrink < 0 {
		return exitBadInput, badInput("--shrink: want >= 0, got %d", f.shrink)
	}
	shard, err := scenarios.ParseShard(f.shard)
	if err != nil {
		return exitBadInput, badInput("--shard: %v", err)
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return exitBadInput, badInput("--out: %v", err)
	}
	tuneGC()
	s := &sweeper{f: f, from: from, to: to, shard: shard, strategies: strategies, profile: profile, mutants: mutants,
		totals: scenarios.NewSweepTotals(strategies), stderr: stderr, start: time.Now()}
	closeJSONL := func() {}
	if f.jsonl != "" {
		if closeJSONL, err = s.openJSONL(); err != nil {
			return exitBadInput, badInput("--jsonl: %v", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	next, complete := s.run(ctx)
	closeJSONL()
	seedRange := fmt.Sprintf("%d..%d", from, next-1)
	if complete {
		seedRange = fmt.Sprintf("%d..%d", from, to)
	}
	if shard != scenarios.WholeSweep {
		seedRange += " shard " + shard.String()
	}
	s.report(stdout, seedRange)
	if !complete && shard == scenarios.WholeSweep {
		fmt.Fprintf(stdout, "\ninterrupted: seeds %d..%d done; resume with: simrun sweep --seeds %d..%d --strategy %s --profile %s --out %s\n",
			from, next-1, next, to, f.strategy, f.profile, f.out)
	} else if !complete {
		fmt.Fprintf(stdout, "\ninterrupted: shard %s stopped before seed %d; run the shard again: simrun sweep --seeds %d..%d --shard %s --strategy %s --profile %s --out %s\n",
			shard, next, from, to, shard, f.strategy, f.profile, f.out)
	}
	if s.jsonlErr != nil {
		return exitBadInput, fmt.Errorf("--jsonl: %v", s.jsonlErr)
	}
	return s.exitCode(), nil
}

// report prints the summary of the folded seeds, the shrunk cases and any
// determinism mismatch: what 'simrun sweep' and 'simrun merge' both print.
func (s *sweeper) report(stdout io.Writer, seedRange string) {
	reports.SweepSummary(stdout, s.totals, seedRange, s.profile.Name(), s.f.out, s.replayFlags())
	if len(s.shrunk) > 0 {
		fmt.Fprintf(stdout, "\nshrunk cases (saved beside the originals as -min.json):\n")
		for _, line := range s.shrunk {
			fmt.Fprintln(stdout, line)
		}
	}
	for _, m := range s.mismatches {
		fmt.Fprintln(stdout, m)
	}
}

// exitCode is the sweep's exit code: a mismatch or an unknown safety
// violation outranks unknown liveness violations.
func (s *sweeper) exitCode() int {
	switch {
	case len(s.mismatches) > 0 || hasUnknown(s.totals, scenarios.OutcomeSafety):
		return exitSafety
	case s.totals.UnknownFailures() > 0:
		return exitLiveness
	}
	return exitOK
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

// openJSONL creates the --jsonl file and writes its header; the returned
// function flushes and closes it (errors go to s.jsonlErr).
func (s *sweeper) openJSONL() (func(), error) {
	file, err := os.Create(s.f.jsonl)
	if err != nil {
		return nil, err
	}
	s.jsonl = bufio.NewWriterSize(file, 1<<16)
	h := scenarios.NewSweepHeader(s.from, s.to, s.shard, s.strategies, s.profile.Name(), s.f.mutant, s.f.determinism)
	if err := scenarios.WriteSweepHeader(s.jsonl, h); err != nil {
		file.Close()
		return nil, err
	}
	return func() {
		if err := s.jsonl.Flush(); err != nil && s.jsonlErr == nil {
			s.jsonlErr = err
		}
		if err := file.Close(); err != nil && s.jsonlErr == nil {
			s.jsonlErr = err
		}
	}, nil
}

func hasUnknown(t *scenarios.SweepTotals, outcome string) bool {
	for _, f := range t.FirstFailures {
		if f.Run.Outcome == outcome {
			return true
		}
	}
	return false
}

// parseSeeds reads "A..B" or "N".
func parseSeeds(s string) (uint64, uint64, error) {
	a, b, isRange := strings.Cut(s, "..")
	from, err1 := strconv.ParseUint(a, 10, 64)
	to := from
	var err2 error
	if isRange {
		to, err2 = strconv.ParseUint(b, 10, 64)
	}
	if err1 != nil || err2 != nil || to < from {
		return 0, 0, badInput("--seeds: want A..B with A <= B (or one seed), got %q", s)
	}
	return from, to, nil
}

type sweeper struct {
	f          sweepFlags
	from, to   uint64
	shard      scenarios.Shard
	folded     uint64 // seeds folded so far
	jsonl      *bufio.Writer
	jsonlErr   error
	strategies []scenarios.Strategy
	profile    model.Profile
	mutants    model.Mutants
	shrunk     []string
	totals     *scenarios.SweepTotals
	stderr     io.Writer
	start      time.Time
	mismatches []string
}

type seedDone struct {
	res      scenarios.SeedResult
	mismatch string
}

// run sweeps the shard's seeds with a pool of workers and folds their results
// in seed order (scenarios.FoldSeeds), so the totals do not depend on the
// number of workers. It returns the first seed not folded and whether every
// seed was.
func (s *sweeper) run(ctx context.Context) (next uint64, complete bool) {
	shown := time.Now()
	next, complete = scenarios.FoldSeeds(ctx, s.shard, s.from, s.to, s.f.workers, s.one, func(_ uint64, d seedDone) {
		s.fold(d)
		s.write(d)
		s.folded++
		if time.Since(shown) >= time.Second {
			s.progress(false)
			shown = time.Now()
		}
	})
	s.progress(true)
	return next, complete
}

// write appends a folded seed to the --jsonl file, if any.
func (s *sweeper) write(d seedDone) {
	if s.jsonl == nil || s.jsonlErr != nil {
		return
	}
	s.jsonlErr = scenarios.WriteSeedLine(s.jsonl, d.res, d.mismatch)
}

// one runs one seed (twice, comparing states, with --check-determinism).
func (s *sweeper) one(seed uint64) seedDone {
	if !s.f.determinism {
		return seedDone{res: scenarios.SweepSeedWith(seed, s.strategies, scenarios.Options{Profile: s.profile, Mutants: s.mutants})}
	}
	sc := scenarios.Generate(seed)
	d := seedDone{res: scenarios.SeedResult{Seed: seed}}
	for _, st := range s.strategies {
		opt := scenarios.Options{Seed: seed, Strategy: st, Profile: s.profile, Mutants: s.mutants, StateDigests: true}
		a, b := scenarios.Execute(sc, opt), scenarios.Execute(sc, opt)
		d.res.Runs = append(d.res.Runs, scenarios.Summarize(a))
		if step, ok := firstDivergence(a.StateDigests, b.StateDigests); ok && d.mismatch == "" {
			opt.StateDigests = false
			sa, _ := scenarios.StatesAround(sc, opt, step)
			_, sb := scenarios.StatesAround(sc, opt, step)
			d.mismatch = fmt.Sprintf("NONDETERMINISM seed %d %s: first divergent step %d\n%s", seed, st, step, cmp.Diff(sa, sb))
		}
	}
	return d
}

func firstDivergence(a, b []uint64) (int64, bool) {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return int64(i), true
		}
	}
	if len(a) != len(b) {
		return int64(min(len(a), len(b))), true
	}
	return 0, false
}

// fold adds a seed's result to the totals and saves the scenario of every
// unknown failure and of the first seed of each known kind.
func (s *sweeper) fold(d seedDone) {
	knownBefore := len(s.totals.FirstFindings)
	failedBefore := len(s.totals.FirstFailures)
	s.totals.Add(d.res)
	if d.mismatch != "" {
		s.mismatches = append(s.mismatches, d.mismatch)
	}
	var save []scenarios.Failed
	save = append(save, s.totals.FirstFailures[failedBefore:]...)
	if len(s.totals.FirstFindings) > knownBefore {
		for _, run := range d.res.Runs {
			if f, ok := s.totals.FirstFindings[run.Kind]; ok && f.Seed == d.res.Seed && f.Run.Strategy == run.Strategy {
				save = append(save, f)
			}
		}
	}
	for _, f := range save {
		s.save(f)
	}
}

// maxShrinks bounds how many failures one sweep shrinks.
const maxShrinks = 20

// save writes a failing seed's scenario, and, within the shrink budget, the
// smallest scenario that still fails the same way beside it.
func (s *sweeper) save(f scenarios.Failed) {
	sc := scenarios.Generate(f.Seed)
	file := reports.FailureFile(s.f.out, f)
	if err := writeScenario(file, sc); err != nil {
		fmt.Fprintf(s.stderr, "simrun: saving seed %d: %v\n", f.Seed, err)
		return
	}
	if s.f.shrink == 0 || len(s.shrunk) >= maxShrinks {
		return
	}
	opt := scenarios.Options{Seed: f.Seed, Strategy: f.Run.Strategy, Profile: s.profile, Mutants: s.mutants}
	res := scenarios.Shrink(sc, scenarios.SameFailure(opt, scenarios.Execute(sc, opt)), s.f.shrink)
	minFile := strings.TrimSuffix(file, ".json") + "-min.json"
	if err := writeScenario(minFile, res.Scenario); err != nil {
		fmt.Fprintf(s.stderr, "simrun: saving seed %d: %v\n", f.Seed, err)
		return
	}
	s.shrunk = append(s.shrunk, fmt.Sprintf("  seed %d %s %s: %s -> %s (%d runs)\n    replay: simrun run --scenario %s --strategy %s%s --trace",
		f.Seed, f.Run.Strategy, f.Run.Invariant, res.Before, res.After, res.Runs, minFile, f.Run.Strategy, s.replayFlags()))
}

func writeScenario(path string, sc *scenarios.Scenario) error {
	data, err := sc.Marshal()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data)
}

// progress shows seeds done, rate, failures and time left on a terminal.
func (s *sweeper) progress(final bool) {
	if !isTerminal(s.stderr) {
		return
	}
	done := s.folded
	total := s.shardSeeds()
	elapsed := time.Since(s.start).Seconds()
	rate := float64(done) / max(elapsed, 1e-9)
	left := "?"
	if rate > 0 {
		left = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
	}
	fmt.Fprintf(s.stderr, "\rseeds %d/%d  %.0f/s  unknown failures %d  known findings %d  time left %s   ",
		done, total, rate, s.totals.UnknownFailures(), len(s.totals.FirstFindings), left)
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

// shardSeeds is how many seeds of from..to the shard holds.
func (s *sweeper) shardSeeds() uint64 {
	first, ok := s.shard.First(s.from, s.to)
	if !ok {
		return 0
	}
	return (s.to-first)/s.shard.N + 1
}

// replayFlags are the flags a saved failure's replay command needs beyond
// the file and strategy: the profile (unless the default) and any mutant.
func (s *sweeper) replayFlags() string {
	flags := mutantFlag(s.f.mutant)
	if s.profile.Name() != "kip" {
		flags = " --profile " + s.profile.Name() + flags
	}
	return flags
}
