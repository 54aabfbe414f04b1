package main

import (
	"cmp"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"tierfetch/campaign"
	"tierfetch/fuzz"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

// newMergeCmd is simrun merge (cmdMerge).
func newMergeCmd(c *cli) *cobra.Command {
	var f sweepFlags
	var maxInput scenarios.InputFlag
	cmd := &cobra.Command{
		Use:   "merge [--out DIR] [--shrink N] FILE...",
		Short: "fold the --jsonl files of a sharded sweep or comparison into the whole one's summary or report",
		Long:  help("merge"),
		RunE: c.action(func(cmd *cobra.Command, files []string) (int, error) {
			return cmdMerge(f, maxInput, files, cmd.Flags(), c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.Out, "out", "", "where to write: a sweep's failing seeds' scenario files (default sweep-out), a comparison's\nreport (default compare-out), a search's counterexample file (default explore-counterexample.json)")
	fs.IntVar(&f.Shrink, "shrink", 200, "runs allowed to shrink each saved failure (0: no shrinking)")
	capFlags(fs, &f.SweepArgs)
	maxInputVar(fs, &maxInput)
	fs.Lookup("max-input-bytes").Usage = "the size limit of each comparison's shard file (a sweep's are read a line at a time)"
	return cmd
}

// cmdMerge folds the --jsonl files of a sharded sweep into the summary one
// sweep over all the seeds prints, byte for byte (given the same --out and
// --shrink), saving and shrinking the failures as that sweep would. Given
// the files of a sharded comparison (the first file's header says which),
// it writes the report the whole comparison writes (mergeCompare).
func cmdMerge(f sweepFlags, maxInput scenarios.InputFlag, files []string, fs *pflag.FlagSet, stdout, stderr io.Writer) (int, error) {
	if len(files) == 0 {
		return exitBadInput, badInput("merge: want the shard files (simrun merge [--out DIR] FILE...)")
	}
	if f.Shrink < 0 {
		return exitBadInput, badInput("--shrink: want >= 0, got %d", f.Shrink)
	}
	for _, name := range files {
		// Each file is read more than once (its kind, then a check before
		// anything is written): a pipe's second reading would find it
		// drained, or wait for a writer that is gone.
		if fi, err := os.Stat(name); err == nil && fi.IsDir() {
			return exitBadInput, badInput("merge: %s is a directory, want a shard file", name)
		} else if err == nil && !fi.Mode().IsRegular() {
			return exitBadInput, badInput("merge: %s is not a regular file (%s): merge reads each shard file more than once; save it to a file first", name, fileKind(fi.Mode()))
		}
	}
	kind, err := campaign.Kind(files[0])
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	if kind == campaign.KindExplore {
		out := "explore-counterexample.json"
		if fs.Changed("out") {
			out = f.Out
		}
		return mergeExplore(files, out, stdout)
	}
	if kind == campaign.KindCompare {
		if fs.Changed("shrink") {
			return exitBadInput, badInput("--shrink: only for the shards of a sweep; %s is a comparison's", files[0])
		}
		out := "compare-out"
		if fs.Changed("out") {
			out = f.Out
		}
		return mergeCompare(files, out, int64(maxInput), stdout)
	}
	f.Out = cmp.Or(f.Out, "sweep-out")
	// A first pass checks every file before anything is saved.
	h, err := fuzz.MergeShardFiles(files, nil)
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	cfg, err := fuzz.MergeConfig(h, f.Out, f.Shrink)
	if err != nil {
		return exitBadInput, badInput("merge: %v", err)
	}
	if err := fuzz.CheckCaps(f.MaxSaved, f.MaxShrunk); err != nil {
		return exitBadInput, badInput("%v", err)
	}
	cfg.MaxSaved, cfg.MaxShrunk = f.MaxSaved, f.MaxShrunk
	if err := ensureOutDir("--out", f.Out); err != nil {
		return exitBadInput, err
	}
	s := newSweep(cfg, stderr)
	if err := prepareOut(s, stderr); err != nil {
		return exitBadInput, err
	}
	_, err = fuzz.MergeShardFiles(files, s.Fold)
	s.CloseOut()
	if err != nil {
		return exitBadInput, badInput("merge: %v", err) // a file changed between the passes
	}
	reports.SweepReport(stdout, s.Sweeper, fmt.Sprintf("%d..%d", h.From, h.To))
	if err := s.SaveError(); err != nil {
		return exitBadInput, err
	}
	return outcomeExit(s.Worst()), nil
}

// fileKind names what a file that is not regular is.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a " + m.Type().String()
}
