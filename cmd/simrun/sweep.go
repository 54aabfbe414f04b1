package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
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
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: simrun sweep [--seeds A..B] [--strategy S] [--workers N] [--out DIR] [--check-determinism]

Generates a scenario from every seed and runs it under each strategy, checking
invariants after every step. Prints a summary: runs, steps, unknown failures
by invariant and strategy, known findings by kind, and coverage goals. Each
failing seed's scenario is saved in --out with the command that replays it.
Ctrl-C stops cleanly, keeps what was found and says how to resume.
Exit codes: 0 no unknown failure, 1 an unknown safety violation, 3 only unknown
liveness violations, 2 bad input.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, nil
		}
		return exitBadInput, badInput("sweep: %v", err)
	}
	if fs.NArg() > 0 {
		return exitBadInput, badInput("sweep: unexpected argument %q", fs.Arg(0))
	}
	from, to, err := parseSeeds(f.seeds)
	if err != nil {
		return exitBadInput, err
	}
	strategies, err := parseStrategies(f.strategy)
	if err != nil {
		return exitBadInput, err
	}
	profile, ok := model.Profiles[f.profile]
	if !ok {
		return exitBadInput, badInput("--profile: want one of %s, got %q", profileNames(), f.profile)
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
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return exitBadInput, badInput("--out: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s := &sweeper{f: f, from: from, to: to, strategies: strategies, profile: profile, mutants: mutants,
		totals: scenarios.NewSweepTotals(strategies), stderr: stderr, start: time.Now()}
	next := s.run(ctx)
	reports.SweepSummary(stdout, s.totals, fmt.Sprintf("%d..%d", from, next-1), profile.Name(), f.out, mutantFlag(f.mutant))
	if len(s.shrunk) > 0 {
		fmt.Fprintf(stdout, "\nshrunk cases (saved beside the originals as -min.json):\n")
		for _, line := range s.shrunk {
			fmt.Fprintln(stdout, line)
		}
	}
	for _, m := range s.mismatches {
		fmt.Fprintln(stdout, m)
	}
	if next <= to {
		fmt.Fprintf(stdout, "\ninterrupted: seeds %d..%d done; resume with: simrun sweep --seeds %d..%d --strategy %s --profile %s --out %s\n",
			from, next-1, next, to, f.strategy, f.profile, f.out)
	}
	switch {
	case len(s.mismatches) > 0 || hasUnknown(s.totals, scenarios.OutcomeSafety):
		return exitSafety, nil
	case s.totals.UnknownFailures() > 0:
		return exitLiveness, nil
	}
	return exitOK, nil
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

// run sweeps the seeds with a pool of workers and folds their results in seed
// order, so the totals do not depend on the number of workers. It returns
// the first seed not folded (to+1 when all were).
func (s *sweeper) run(ctx context.Context) uint64 {
	seeds := make(chan uint64)
	done := make(chan seedDone, s.f.workers)
	go func() {
		defer close(seeds)
		for seed := s.from; seed <= s.to; seed++ {
			select {
			case seeds <- seed:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for i := 0; i < s.f.workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range seeds {
				done <- s.one(seed)
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	pending := map[uint64]seedDone{}
	next := s.from
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case d, ok := <-done:
			if !ok {
				s.progress(next, true)
				return next
			}
			pending[d.res.Seed] = d
			for {
				p, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				s.fold(p)
				next++
			}
		case <-tick.C:
			s.progress(next, false)
		}
	}
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
		f.Seed, f.Run.Strategy, f.Run.Invariant, res.Before, res.After, res.Runs, minFile, f.Run.Strategy, mutantFlag(s.f.mutant)))
}

func writeScenario(path string, sc *scenarios.Scenario) error {
	data, err := sc.Marshal()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data)
}

// progress shows seeds done, rate, failures and time left on a terminal.
func (s *sweeper) progress(next uint64, final bool) {
	if !isTerminal(s.stderr) {
		return
	}
	done := next - s.from
	total := s.to - s.from + 1
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
