package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"

	"tierfetch/fuzz"
	"tierfetch/harness"
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
	maxSteps    stepsFlag
	resumeFrom  seedFlag
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
	maxStepsVar(fs, &f.maxSteps)
	fs.Var(&f.resumeFrom, "resume-from", "run only the seeds >= this one of A..B (and of the shard): the rest of an interrupted sweep;\nits --jsonl file's header says so, and 'simrun merge' folds it with the interrupted one")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: simrun sweep [--seeds A..B] [--strategy S] [--workers N] [--out DIR] [--check-determinism]
                    [--shard K/N] [--jsonl FILE]

Generates a scenario from every seed and runs it under each strategy, checking
invariants after every step. Prints a summary: runs, steps, unknown failures
by invariant and strategy, known findings by kind, and coverage goals. Each
failing seed's scenario is saved in --out with the command that replays it.
Ctrl-C (SIGINT) or SIGTERM stops at a seed boundary: the summary of the seeds
done is printed, the --jsonl file holds them in whole lines and its header says
where it stopped, and the command that resumes (--resume-from) is printed;
'simrun merge' of both files prints the uninterrupted sweep's summary.

--shard K/N runs only the seeds s of A..B with (s-A) % N == K; --jsonl FILE
writes a header line and then one line per seed (in seed order) with its runs:
'simrun merge' folds the files of every shard into the summary one sweep over
A..B prints.
Exit codes: 0 no unknown failure, 1 an unknown safety violation, 3 only unknown
liveness violations, 4 a run reached its work budget (and no unknown violation),
2 bad input or an output that could not be written, 130/143 stopped by
SIGINT/SIGTERM.

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
	shard, err := fuzz.ParseShard(f.shard)
	if err != nil {
		return exitBadInput, badInput("--shard: %v", err)
	}
	if err := ensureOutDir("--out", f.out); err != nil {
		return exitBadInput, err
	}
	start := from
	if f.resumeFrom.set {
		if f.resumeFrom.n < from || f.resumeFrom.n > to {
			return exitBadInput, badInput("--resume-from: seed %d outside --seeds %d..%d", f.resumeFrom.n, from, to)
		}
		start = f.resumeFrom.n
	}
	if n := shardSeedCount(shard, from, start, to); n > maxSweepSeeds {
		return exitBadInput, badInput("--seeds: %d seeds for this process, at most %d: split the sweep with --shard K/N", n, maxSweepSeeds)
	}
	tuneGC()
	s := &sweeper{f: f, from: from, to: to, resume: start, shard: shard, strategies: strategies, profile: profile, mutants: mutants,
		totals: fuzz.NewSweepTotals(strategies), stderr: stderr, start: time.Now()}
	if f.jsonl != "" {
		if err := s.openJSONL(); err != nil {
			return exitBadInput, badInput("--jsonl: %v", err)
		}
	}
	ctx, received, stop := catchSignals()
	defer stop()
	next, complete := s.run(ctx)
	s.closeJSONL(next, complete)
	seedRange := fmt.Sprintf("%d..%d", start, to)
	if !complete {
		seedRange = fmt.Sprintf("%d..%d", start, next-1)
		if next == start {
			seedRange = "none"
		}
	}
	if start != from {
		seedRange += fmt.Sprintf(" (resumed, of %d..%d)", from, to)
	}
	if shard != fuzz.WholeSweep {
		seedRange += " shard " + shard.String()
	}
	s.report(stdout, seedRange)
	if !complete {
		s.printResume(stdout, received(), next)
	}
	if s.jsonlErr != nil {
		return exitBadInput, fmt.Errorf("--jsonl: %v", s.jsonlErr)
	}
	if err := s.saveError(); err != nil {
		return exitBadInput, err
	}
	if !complete {
		return signalExit(received()), nil
	}
	return s.exitCode(), nil
}

// maxSweepSeeds bounds the seeds one sweep process runs: a billion seeds
// take about three months of one core; a larger sweep is sharded.
const maxSweepSeeds = 1_000_000_000

// shardSeedCount is how many seeds of start..to (of the sweep from..to)
// shard sh holds.
func shardSeedCount(sh fuzz.Shard, from, start, to uint64) uint64 {
	first, ok := sh.FirstAt(from, start, to)
	if !ok {
		return 0
	}
	return (to-first)/sh.N + 1
}

// printResume says where an interrupted sweep stopped and the command that
// runs the rest, with every flag that shapes the results.
func (s *sweeper) printResume(stdout io.Writer, sig os.Signal, next uint64) {
	args := []string{"simrun sweep", fmt.Sprintf("--seeds %d..%d", s.from, s.to)}
	if s.shard != fuzz.WholeSweep {
		args = append(args, "--shard "+s.shard.String())
	}
	args = append(args, fmt.Sprintf("--resume-from %d", next), "--strategy "+s.f.strategy, "--profile "+s.f.profile,
		"--out "+s.f.out, fmt.Sprintf("--shrink %d", s.f.shrink), fmt.Sprintf("--workers %d", s.f.workers))
	if s.f.mutant != "" {
		args = append(args, "--mutant "+s.f.mutant)
	}
	if s.f.determinism {
		args = append(args, "--check-determinism")
	}
	if s.f.maxSteps != harness.DefaultMaxSteps {
		args = append(args, fmt.Sprintf("--max-steps %d", s.f.maxSteps))
	}
	var part string
	if s.f.jsonl != "" {
		part = partFile(s.f.jsonl, next)
		args = append(args, "--jsonl "+part)
	}
	fmt.Fprintf(stdout, "\ninterrupted by %s before seed %d", sigName(sig), next)
	if s.f.jsonl != "" {
		fmt.Fprintf(stdout, " (%s holds the seeds before it; its header says so)", s.f.jsonl)
	}
	fmt.Fprintf(stdout, "\nresume with: %s\n", strings.Join(args, " "))
	if s.f.jsonl != "" {
		fmt.Fprintf(stdout, "then the whole sweep's summary: simrun merge --out %s --shrink %d %s %s\n", s.f.out, s.f.shrink, s.f.jsonl, part)
	}
}

// partFile names the --jsonl file of the part of a sweep or comparison that
// starts at next: FILE.jsonl becomes FILE.from-NEXT.jsonl.
func partFile(path string, next uint64) string {
	base, ok := strings.CutSuffix(path, ".jsonl")
	if !ok {
		base = path
	}
	if i := strings.LastIndex(base, ".from-"); i >= 0 && !strings.ContainsRune(base[i:], '/') {
		base = base[:i]
	}
	return fmt.Sprintf("%s.from-%d.jsonl", base, next)
}

// saveError is the error of the failure files that could not be saved, nil
// when every one was.
func (s *sweeper) saveError() error {
	if s.saveFailed == 0 {
		return nil
	}
	return fmt.Errorf("--out: %d scenario files of failing seeds could not be saved (first: %v): the commands above that replay them name files that do not exist",
		s.saveFailed, s.firstSaveErr)
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
	case len(s.mismatches) > 0 || hasUnknown(s.totals, harness.OutcomeSafety):
		return exitSafety
	case hasUnknown(s.totals, harness.OutcomeLiveness):
		return exitLiveness
	case s.totals.UnknownFailures() > 0:
		return exitBudget
	}
	return exitOK
}

// sweepGCPercent is the GC target a sweep runs with unless GOGC says
// otherwise. A run's live heap is a few MiB, so at Go's default of 100 the
// collector runs every few MiB allocated; with two workers its cycles and
// assists cost about a fifth of the throughput (BENCHMARKS.md). At 400 a
// sweep process stays within tens of MiB.
const sweepGCPercent = 400

// gcMemoryLimit is the soft memory limit run and sweep set unless
// GOMEMLIMIT says otherwise: at GOGC=400 the heap may grow to five times
// what is live, and a fixture of a million segments keeps a few hundred MiB
// live; near the limit the collector runs more often instead.
const gcMemoryLimit = 768 << 20

// tuneGC sets the GC target of run and sweep (measured in BENCHMARKS.md),
// leaving an explicit GOGC or GOMEMLIMIT alone.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(sweepGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
}

// openJSONL creates the --jsonl file and writes its header, padded so that
// closeJSONL can rewrite it in place. The file must be regular (or a link
// to one, or new): a device or a fifo cannot have its header rewritten.
func (s *sweeper) openJSONL() error {
	target, fi, err := outputTarget(s.f.jsonl)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s): a sweep rewrites its file's header when it stops", s.f.jsonl, fi.Mode().Type())
	}
	file, err := os.OpenFile(target, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	s.jsonlFile = file
	s.jsonl = bufio.NewWriterSize(file, 1<<16)
	line, err := fuzz.SweepHeaderLine(s.header(nil))
	if err == nil {
		_, err = s.jsonl.Write(line)
	}
	if err != nil {
		file.Close()
		return err
	}
	return nil
}

// header is the --jsonl file's header; stoppedAt is nil for a sweep that ran
// to its end.
func (s *sweeper) header(stoppedAt *uint64) fuzz.SweepHeader {
	h := fuzz.NewSweepHeader(s.from, s.to, s.shard, s.strategies, s.profile.Name(), s.f.mutant, s.f.determinism)
	h.MaxSteps = s.maxStepsHeader()
	if s.resume != s.from {
		resume := s.resume
		h.ResumeFrom = &resume
	}
	h.StoppedAt = stoppedAt
	return h
}

// closeJSONL flushes the --jsonl file, whose lines are whole seeds, and
// when the sweep stopped early rewrites its header to say where (errors go
// to s.jsonlErr).
func (s *sweeper) closeJSONL(next uint64, complete bool) {
	if s.jsonl == nil {
		return
	}
	setErr := func(err error) {
		if err != nil && s.jsonlErr == nil {
			s.jsonlErr = err
		}
	}
	setErr(s.jsonl.Flush())
	if !complete && s.jsonlErr == nil {
		line, err := fuzz.SweepHeaderLine(s.header(&next))
		if err == nil {
			_, err = s.jsonlFile.WriteAt(line, 0)
		}
		setErr(err)
	}
	setErr(s.jsonlFile.Close())
}

func hasUnknown(t *fuzz.SweepTotals, outcome string) bool {
	for _, f := range t.FirstFailures {
		if f.Run.Outcome == outcome {
			return true
		}
	}
	return false
}

// parseSeeds reads "A..B" or "N", strictly (parseSeed).
func parseSeeds(s string) (uint64, uint64, error) {
	a, b, isRange := strings.Cut(s, "..")
	from, err1 := parseSeed(a)
	to := from
	var err2 error
	if isRange {
		to, err2 = parseSeed(b)
	}
	if err1 != nil || err2 != nil || to < from {
		return 0, 0, badInput("--seeds: want A..B with A <= B (or one seed), got %q", s)
	}
	return from, to, nil
}

type sweeper struct {
	f          sweepFlags
	from, to   uint64
	shard      fuzz.Shard
	folded     uint64 // seeds folded so far
	resume     uint64 // the first seed this run sweeps (--resume-from, else from)
	jsonl      *bufio.Writer
	jsonlFile  *os.File
	jsonlErr   error
	strategies []harness.Strategy
	profile    model.Profile
	mutants    model.Mutants
	shrunk     []string
	totals     *fuzz.SweepTotals
	stderr     io.Writer
	start      time.Time
	mismatches []string
	// saveFailed counts the failure files that could not be written.
	saveFailed   int
	firstSaveErr error
}

type seedDone struct {
	res      fuzz.SeedResult
	mismatch string
}

// run sweeps the shard's seeds with a pool of workers and folds their results
// in seed order (fuzz.FoldSeeds), so the totals do not depend on the
// number of workers. It returns the first seed not folded and whether every
// seed was.
func (s *sweeper) run(ctx context.Context) (next uint64, complete bool) {
	shown := time.Now()
	next, complete = fuzz.FoldSeeds(ctx, s.shard, s.from, s.resume, s.to, s.f.workers, s.one, func(_ uint64, d seedDone) {
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
	s.jsonlErr = fuzz.WriteSeedLine(s.jsonl, d.res, d.mismatch)
}

// one runs one seed (twice, comparing states, with --check-determinism).
func (s *sweeper) one(seed uint64) seedDone {
	if !s.f.determinism {
		return seedDone{res: fuzz.SweepSeedWith(seed, s.strategies, s.options())}
	}
	sc := fuzz.Generate(seed)
	d := seedDone{res: fuzz.SeedResult{Seed: seed}}
	for _, st := range s.strategies {
		opt := s.options()
		opt.Seed, opt.Strategy, opt.StateDigests = seed, st, true
		a, b := harness.Execute(sc, opt), harness.Execute(sc, opt)
		d.res.Runs = append(d.res.Runs, fuzz.Summarize(a))
		if step, ok := firstDivergence(a.StateDigests, b.StateDigests); ok && d.mismatch == "" {
			opt.StateDigests = false
			sa, _ := harness.StatesAround(sc, opt, step)
			_, sb := harness.StatesAround(sc, opt, step)
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
	var save []fuzz.Failed
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
func (s *sweeper) save(f fuzz.Failed) {
	sc := fuzz.Generate(f.Seed)
	file := reports.FailureFile(s.f.out, f)
	if err := writeScenario(file, sc); err != nil {
		s.noteSaveError(f.Seed, err)
		return
	}
	if s.f.shrink == 0 || len(s.shrunk) >= maxShrinks || f.Run.Outcome == harness.OutcomeBudget {
		return // a run that reached its budget would take the whole budget for every try
	}
	opt := s.options()
	opt.Seed, opt.Strategy = f.Seed, f.Run.Strategy
	res := fuzz.Shrink(sc, fuzz.SameFailure(opt, harness.Execute(sc, opt)), s.f.shrink)
	minFile := strings.TrimSuffix(file, ".json") + "-min.json"
	if err := writeScenario(minFile, res.Scenario); err != nil {
		s.noteSaveError(f.Seed, err)
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
	return shardSeedCount(s.shard, s.from, s.resume, s.to)
}

// options are the run options of every seed (the seed and strategy aside).
func (s *sweeper) options() harness.Options {
	return harness.Options{Profile: s.profile, Mutants: s.mutants, MaxSteps: int64(s.f.maxSteps)}
}

// maxStepsHeader is the budget the shard header records: 0 for the default.
func (s *sweeper) maxStepsHeader() int64 {
	if s.f.maxSteps == harness.DefaultMaxSteps {
		return 0
	}
	return int64(s.f.maxSteps)
}

// replayFlags are the flags a saved failure's replay command needs beyond
// the file and strategy: the profile (unless the default), any mutant and
// the work budget (unless the default).
func (s *sweeper) replayFlags() string {
	flags := mutantFlag(s.f.mutant) + maxStepsFlag(s.f.maxSteps)
	if s.profile.Name() != "kip" {
		flags = " --profile " + s.profile.Name() + flags
	}
	return flags
}

// noteSaveError reports a failure file that could not be written; the
// sweep then exits 2 (saveError).
func (s *sweeper) noteSaveError(seed uint64, err error) {
	fmt.Fprintf(s.stderr, "simrun: saving seed %d: %v\n", seed, err)
	if s.saveFailed == 0 {
		s.firstSaveErr = err
	}
	s.saveFailed++
}
