package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// cmdMerge folds the --jsonl files of a sharded sweep into the summary one
// sweep over all the seeds prints, byte for byte (given the same --out and
// --shrink), saving and shrinking the failures as that sweep would. Given
// the files of a sharded comparison (the first file's header says which),
// it writes the report the whole comparison writes (mergeCompare).
func cmdMerge(args []string, stdout, stderr io.Writer) (int, error) {
	var f sweepFlags
	fs := flag.NewFlagSet("simrun merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.out, "out", "sweep-out", "directory for the scenario files of failing seeds")
	fs.IntVar(&f.shrink, "shrink", 200, "runs allowed to shrink each saved failure (0: no shrinking)")
	var maxInput inputFlag
	maxInputVar(fs, &maxInput)
	fs.Lookup("max-input-bytes").Usage = "the size limit of each comparison's shard file (a sweep's are read a line at a time)"
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: simrun merge [--out DIR] [--shrink N] FILE...
       simrun merge [--out DIR] FILE...     (the shards of a comparison)

Reads the --jsonl files that 'simrun sweep --shard K/N --jsonl FILE' wrote for
every shard of one sweep, checks that they hold every seed of it exactly once,
and prints the summary 'simrun sweep' prints for the whole seed range, byte for
byte when given the same --out and --shrink: the failing seeds' scenarios are
generated again, saved in --out and shrunk in seed order, as that sweep does.
Exit codes: those of 'simrun sweep'; 2 when the files are unreadable, of
different sweeps, overlapping or missing seeds.

Given the files 'simrun compare ... --shard K/N --jsonl FILE' wrote for every
shard of one comparison, it checks that they hold every pair of it exactly
once and writes in --out (default compare-out) the report, runs.csv and
charts that 'simrun compare' with the same flags and --out writes, byte for
byte. Exit codes: 0, or 2 as above.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, nil
		}
		return exitBadInput, badInput("merge: %v", err)
	}
	if fs.NArg() == 0 {
		return exitBadInput, badInput("merge: want the shard files (simrun merge [--out DIR] FILE...)")
	}
	if f.shrink < 0 {
		return exitBadInput, badInput("--shrink: want >= 0, got %d", f.shrink)
	}
	files := fs.Args()
	kind, err := shardKind(files[0])
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	if kind == "explore" {
		out := "explore-counterexample.json"
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name == "out" {
				out = f.out
			}
		})
		return mergeExplore(files, out, stdout)
	}
	if kind == "compare" {
		set := map[string]bool{}
		fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		if set["shrink"] {
			return exitBadInput, badInput("--shrink: only for the shards of a sweep; %s is a comparison's", files[0])
		}
		out := "compare-out"
		if set["out"] {
			out = f.out
		}
		return mergeCompare(files, out, int64(maxInput), stdout, stderr)
	}
	// A first pass checks every file before anything is saved.
	h, err := mergeFiles(files, nil)
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	profile, ok := model.Profiles[h.Profile]
	if !ok {
		return exitBadInput, badInput("merge: the shards ran profile %q, which this simrun does not know", h.Profile)
	}
	mutants, err := parseMutants(h.Mutant)
	if err != nil {
		return exitBadInput, badInput("merge: the shards' mutants: %v", err)
	}
	if err := ensureOutDir("--out", f.out); err != nil {
		return exitBadInput, err
	}
	f.mutant, f.determinism = h.Mutant, h.CheckDeterminism
	f.maxSteps = harness.DefaultMaxSteps
	if h.MaxSteps != 0 {
		if err := f.maxSteps.Set(fmt.Sprint(h.MaxSteps)); err != nil {
			return exitBadInput, badInput("merge: the shards' max_steps: %v", err)
		}
	}
	s := &sweeper{f: f, from: h.From, to: h.To, resume: h.From, shard: fuzz.WholeSweep, strategies: h.Strategies,
		profile: profile, mutants: mutants, totals: fuzz.NewSweepTotals(h.Strategies), stderr: stderr, start: time.Now()}
	if _, err := mergeFiles(files, func(r fuzz.SeedResult, mismatch string) {
		s.fold(seedDone{res: r, mismatch: mismatch})
	}); err != nil {
		return exitBadInput, badInput("merge: %v", err) // a file changed between the passes
	}
	s.report(stdout, fmt.Sprintf("%d..%d", h.From, h.To))
	if err := s.saveError(); err != nil {
		return exitBadInput, err
	}
	return s.exitCode(), nil
}

// mergeFiles opens the shard files and merges them with fold.
func mergeFiles(files []string, fold func(fuzz.SeedResult, string)) (fuzz.SweepHeader, error) {
	var srcs []fuzz.ShardSource
	for _, name := range files {
		file, err := os.Open(name)
		if err != nil {
			return fuzz.SweepHeader{}, err // names the file
		}
		defer file.Close()
		srcs = append(srcs, fuzz.ShardSource{Name: name, R: file})
	}
	return fuzz.MergeShards(srcs, fold)
}
