package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/compare"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// cmdMerge folds the --jsonl files of a sharded sweep into the summary one
// sweep over all the seeds prints, byte for byte (given the same --out and
// --shrink), saving and shrinking the failures as that sweep would. Given
// the files of a sharded comparison (the first file's header says which),
// it writes the report the whole comparison writes (mergeCompare).
func newMergeCmd(c *cli) *cobra.Command {
	var f sweepFlags
	var maxInput inputFlag
	cmd := &cobra.Command{
		Use:   "merge [--out DIR] [--shrink N] FILE...",
		Short: "fold the --jsonl files of a sharded sweep or comparison into the whole one's summary or report",
		Long: `Reads the --jsonl files that 'simrun sweep --shard K/N --jsonl FILE' wrote for
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
byte. Exit codes: 0, or 2 as above.`,
		RunE: c.action(func(cmd *cobra.Command, files []string) (int, error) {
			return cmdMerge(f, maxInput, files, cmd.Flags(), c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.out, "out", "sweep-out", "directory for the scenario files of failing seeds")
	fs.IntVar(&f.shrink, "shrink", 200, "runs allowed to shrink each saved failure (0: no shrinking)")
	maxInputVar(fs, &maxInput)
	fs.Lookup("max-input-bytes").Usage = "the size limit of each comparison's shard file (a sweep's are read a line at a time)"
	return cmd
}

// cmdMerge folds the --jsonl files of a sharded sweep into the summary one
// sweep over all the seeds prints, byte for byte (given the same --out and
// --shrink), saving and shrinking the failures as that sweep would. Given
// the files of a sharded comparison (the first file's header says which),
// it writes the report the whole comparison writes (mergeCompare).
func cmdMerge(f sweepFlags, maxInput inputFlag, files []string, fs *pflag.FlagSet, stdout, stderr io.Writer) (int, error) {
	if len(files) == 0 {
		return exitBadInput, badInput("merge: want the shard files (simrun merge [--out DIR] FILE...)")
	}
	if f.shrink < 0 {
		return exitBadInput, badInput("--shrink: want >= 0, got %d", f.shrink)
	}
	kind, err := compare.ShardKind(files[0])
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	if kind == "explore" {
		out := "explore-counterexample.json"
		if fs.Changed("out") {
			out = f.out
		}
		return mergeExplore(files, out, stdout)
	}
	if kind == "compare" {
		if fs.Changed("shrink") {
			return exitBadInput, badInput("--shrink: only for the shards of a sweep; %s is a comparison's", files[0])
		}
		out := "compare-out"
		if fs.Changed("out") {
			out = f.out
		}
		return mergeCompare(files, out, int64(maxInput), stdout)
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
	s := newSweep(f, fuzz.SweepConfig{From: h.From, To: h.To, Resume: h.From, Shard: fuzz.WholeSweep, Strategies: h.Strategies,
		Profile: profile, Mutants: mutants, Mutant: h.Mutant, CheckDeterminism: h.CheckDeterminism, Shrink: f.shrink,
		MaxSteps: int64(f.maxSteps), Out: f.out}, stderr)
	if _, err := mergeFiles(files, s.Fold); err != nil {
		return exitBadInput, badInput("merge: %v", err) // a file changed between the passes
	}
	s.report(stdout, fmt.Sprintf("%d..%d", h.From, h.To))
	if err := s.SaveError(); err != nil {
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
