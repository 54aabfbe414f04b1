package fuzz

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// mutantSweep is a small sweep that fails: seeds 1..24 under a mutant the
// generator catches within them (a remote deletion before the log start
// moves).
func mutantSweep(t *testing.T, out string, edit func(*SweepArgs)) SweepConfig {
	t.Helper()
	a := SweepArgs{Seeds: "1..24", Strategy: "both", Profile: "kip", Mutant: "lso-after-remote-delete", Shard: "0/1", Out: out,
		Workers: 2, Shrink: 20, MaxSaved: DefaultMaxSaved, MaxShrunk: 1, MaxSteps: harness.DefaultMaxSteps}
	if edit != nil {
		edit(&a)
	}
	c, err := NewSweepConfig(a)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sweep runs cfg to its end (or until stop says so after a fold) with its
// output directory and shard file, as simrun sweep does.
func sweep(t *testing.T, cfg SweepConfig, stop func(folded uint64) bool) (*Sweeper, uint64, bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if stop != nil {
		cfg.OnFold = func(n uint64) {
			if stop(n) {
				cancel()
			}
		}
	}
	s := NewSweeper(cfg)
	if err := s.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	if cfg.JSONL != "" {
		if err := s.OpenJSONL(); err != nil {
			t.Fatal(err)
		}
	}
	next, complete := s.Run(ctx)
	s.CloseJSONL(next, complete)
	s.CloseOut()
	if err := s.JSONLError(); err != nil {
		t.Fatal(err)
	}
	return s, next, complete
}

// TestSweeperShardsFoldToTheWholeSweep: a sweep under a mutant folds its
// unknown failures and saves the first seeds' scenario files, each
// recording how it failed, and shrinks within its cap; its two shards
// (one interrupted and resumed into a part file) merge, with the merge's
// config from their header, to the same totals and the same saved files.
func TestSweeperShardsFoldToTheWholeSweep(t *testing.T) {
	dir := t.TempDir()
	whole, next, complete := sweep(t, mutantSweep(t, filepath.Join(dir, "whole"), nil), nil)
	if !complete || next != 25 || whole.Totals.Seeds != 24 {
		t.Fatalf("whole sweep: complete %v next %d seeds %d", complete, next, whole.Totals.Seeds)
	}
	unknown := whole.Totals.UnknownFailures()
	if unknown == 0 || whole.Worst() != harness.OutcomeSafety || !whole.HasUnknown(harness.OutcomeSafety) {
		t.Fatalf("the mutant was not caught in seeds 1..24: %d unknown failures, worst %q", unknown, whole.Worst())
	}
	known := len(whole.Totals.FirstFindings) // seeds 1..24 hold a known finding too
	if got := whole.Saved(); got.Unknown != int(min(unknown, DefaultMaxSaved)) || got.Known != known || known == 0 || whole.SaveError() != nil {
		t.Errorf("saved %+v (%v), want %d unknown and %d known", got, whole.SaveError(), min(unknown, DefaultMaxSaved), known)
	}
	for _, f := range whole.Totals.FirstFindings {
		if _, err := os.Stat(FailureFile(filepath.Join(dir, "whole"), f)); err != nil || !whole.SavedFile(f) {
			t.Errorf("the first seed of %s: %v", f.Run.Kind, err)
		}
	}
	for _, f := range whole.Totals.FirstFailures {
		path := FailureFile(filepath.Join(dir, "whole"), f)
		if !whole.SavedFile(f) {
			t.Errorf("seed %d %s: not counted as saved", f.Seed, f.Run.Strategy)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("seed %d %s: %v", f.Seed, f.Run.Strategy, err)
			continue
		}
		if !strings.Contains(string(data), `"invariant": "`+f.Run.Invariant+`"`) || !strings.Contains(string(data), "lso-after-remote-delete") {
			t.Errorf("%s does not record its failure and mutant", path)
		}
	}
	mins, _ := filepath.Glob(filepath.Join(dir, "whole", "*-min.json"))
	if len(mins) != 1 || len(whole.Shrunk()) != 1 || !strings.Contains(whole.Shrunk()[0], "replay: simrun replay "+mins[0]) {
		t.Errorf("shrunk %v, files %v: want one, within --max-shrunk 1", whole.Shrunk(), mins)
	}

	var files []string
	for k, shard := range []string{"0/2", "1/2"} {
		jsonl := filepath.Join(dir, "s"+shard[:1]+".jsonl")
		cfg := mutantSweep(t, filepath.Join(dir, "shards"), func(a *SweepArgs) {
			a.Shard, a.JSONL = shard, jsonl
			if k == 1 {
				a.Workers = 1 // with two, the fold may take every seed after the stop (TestShardHeadersSayWhatRan)
			}
		})
		if cfg.Fresh {
			t.Error("a shard clears the output directory")
		}
		var stop func(uint64) bool
		if k == 1 {
			stop = func(n uint64) bool { return n == 2 } // after seeds 2 and 4
		}
		s, next, complete := sweep(t, cfg, stop)
		files = append(files, jsonl)
		if k == 0 {
			if !complete || s.Seeds() != 12 || s.RangeText(next, complete) != "1..24 shard 0/2" {
				t.Errorf("shard 0/2: complete %v, %d seeds, %q", complete, s.Seeds(), s.RangeText(next, complete))
			}
			continue
		}
		if complete || next < 6 || next%2 != 0 || s.RangeText(next, complete) != "1.."+itoa(next-1)+" shard 1/2" {
			t.Fatalf("interrupted shard: complete %v next %d, %q", complete, next, s.RangeText(next, complete))
		}
		args, part := s.ResumeArgs(next)
		if part != campaign.PartFile(jsonl, next) || !strings.Contains(strings.Join(args, " "), "ResumeFrom "+itoa(next)+" Strategy both Profile kip") {
			t.Errorf("ResumeArgs %v, %s", args, part)
		}
		rest := mutantSweep(t, filepath.Join(dir, "shards"), func(a *SweepArgs) { a.Shard, a.JSONL, a.ResumeFrom = shard, part, &next })
		r, _, complete := sweep(t, rest, nil)
		if !complete || r.RangeText(25, true) != itoa(next)+"..24 (resumed, of 1..24) shard 1/2" {
			t.Errorf("resumed: complete %v, %q", complete, r.RangeText(25, true))
		}
		files = append(files, part)
	}
	h, err := MergeShardFiles(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := MergeConfig(h, filepath.Join(dir, "merged"), 20)
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(cfg.Out, 0o755) // simrun merge makes it
	cfg.MaxShrunk = 1
	merged := NewSweeper(cfg)
	if err := merged.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	if _, err := MergeShardFiles(files, merged.Fold); err != nil {
		t.Fatal(err)
	}
	merged.CloseOut()
	if !reflect.DeepEqual(merged.Totals, whole.Totals) {
		t.Errorf("the merged shards' totals differ from the whole sweep's")
	}
	for _, f := range whole.Totals.FirstFailures {
		a, _ := os.ReadFile(FailureFile(filepath.Join(dir, "whole"), f))
		b, _ := os.ReadFile(FailureFile(filepath.Join(dir, "merged"), f))
		if string(a) != string(b) {
			t.Errorf("seed %d %s: the merge saved another scenario file", f.Seed, f.Run.Strategy)
		}
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

// TestSweeperSavesWithinItsCaps: --max-saved 0 saves no unknown failure
// (the first seed of a known finding still),
// a fresh sweep removes only the files its earlier run listed, and a
// directory that cannot be written (removed under the sweep) is a save error naming how many files
// were lost, each one told to Warn.
func TestSweeperSavesWithinItsCaps(t *testing.T) {
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("not the sweep's"), 0o644)
	first, _, _ := sweep(t, mutantSweep(t, out, func(a *SweepArgs) { a.Seeds, a.Shrink = "1..12", 0 }), nil)
	saved, _ := filepath.Glob(filepath.Join(out, "seed-*.json"))
	if len(saved) == 0 || first.Saved().Unknown+first.Saved().Known != len(saved) || len(first.Shrunk()) != 0 {
		t.Fatalf("saved %d files, counted %+v, shrunk %v", len(saved), first.Saved(), first.Shrunk())
	}
	none, _, _ := sweep(t, mutantSweep(t, out, func(a *SweepArgs) { a.Seeds, a.MaxSaved, a.Shrink = "1..12", 0, 0 }), nil)
	left, _ := filepath.Glob(filepath.Join(out, "seed-*.json"))
	if none.Saved().Unknown != 0 || len(left) != none.Saved().Known || none.Saved().Cleared.Removed != len(saved) || none.Saved().Cleared.Others != 1 {
		t.Errorf("--max-saved 0: saved %+v, %d files (the known findings' first seeds) of the earlier run's %d", none.Saved(), len(left), len(saved))
	}
	if _, err := os.Stat(filepath.Join(out, "mine.txt")); err != nil {
		t.Errorf("a file the sweep did not write was removed: %v", err)
	}
	if none.Totals.UnknownFailures() != first.Totals.UnknownFailures() {
		t.Error("--max-saved changed the totals")
	}
	gone := filepath.Join(t.TempDir(), "gone")
	cfg := mutantSweep(t, gone, func(a *SweepArgs) { a.Seeds, a.Shrink = "1..12", 0 })
	os.Remove(gone) // removed after the sweep checked it
	var warned []string
	cfg.Warn = func(msg string) { warned = append(warned, msg) }
	s := NewSweeper(cfg)
	s.Run(context.Background())
	if err := s.SaveError(); err == nil || len(warned) == 0 || !strings.Contains(err.Error(), itoa(uint64(len(warned)))+" scenario files of failing seeds could not be saved") {
		t.Errorf("save error %v, %d warnings", err, len(warned))
	}
}

// TestSweeperJSONLIsNeverTaken: a shard file that holds data, or is not a
// regular file, is refused before the first seed; an empty one is taken.
func TestSweeperJSONLIsNeverTaken(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.jsonl")
	os.WriteFile(full, []byte("{}\n"), 0o644)
	empty := filepath.Join(dir, "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{full, "earlier sweep's seeds"},
		{dir, "not a regular file"},
		{fifo, "not a regular file"},
		{empty, ""},
	} {
		s := NewSweeper(mutantSweep(t, dir, func(a *SweepArgs) { a.JSONL = c.path }))
		err := s.OpenJSONL()
		if (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
		s.CloseJSONL(1, true)
	}
}

// TestMergeConfigRefusesForeignHeaders: a header of a profile, mutant or
// budget this simrun cannot run is refused, naming it; a good one gives the
// whole sweep's config, fresh.
func TestMergeConfigRefusesForeignHeaders(t *testing.T) {
	h := NewSweepHeader(1, 10, campaign.Whole, harness.Strategies, "kip", "hw-not-reset,empty-again", false)
	h.MaxSteps = 1000
	c, err := MergeConfig(h, "o", 7)
	if err != nil || c.MaxSteps != 1000 || !c.Fresh || c.Shrink != 7 || c.From != 1 || c.To != 10 || c.Resume != 1 || c.Mutants == 0 {
		t.Fatalf("MergeConfig: %+v %v", c, err)
	}
	for what, edit := range map[string]func(*SweepHeader){
		`profile "kafka-9"`:         func(h *SweepHeader) { h.Profile = "kafka-9" },
		`unknown mutant "nope"`:     func(h *SweepHeader) { h.Mutant = "hw-not-reset,nope" },
		"max_steps: want":           func(h *SweepHeader) { h.MaxSteps = -1 },
		"max_steps: want a number ": func(h *SweepHeader) { h.MaxSteps = harness.MaxStepsLimit + 1 },
	} {
		x := h
		edit(&x)
		if _, err := MergeConfig(x, "o", 0); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: %v", what, err)
		}
	}
	h.MaxSteps = harness.MaxStepsLimit
	if _, err := MergeConfig(h, "o", 0); err != nil {
		t.Errorf("max_steps at the limit: %v", err)
	}
}

// TestWorstOutcome: a determinism mismatch counts as a safety violation,
// then an unknown liveness failure, then a run stopped by its budget;
// known findings are no failure.
func TestWorstOutcome(t *testing.T) {
	fold := func(mismatch string, runs ...harness.RunSummary) string {
		s := NewSweeper(SweepConfig{Strategies: harness.Strategies, MaxSaved: 0})
		s.Fold(SeedResult{Seed: 1, Runs: runs}, mismatch)
		return s.Worst()
	}
	ok := harness.RunSummary{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeOK}
	run := func(outcome, kind string) harness.RunSummary {
		return harness.RunSummary{Strategy: harness.LastTiered, Outcome: outcome, Invariant: "x", Kind: kind}
	}
	for _, c := range []struct {
		mismatch string
		runs     []harness.RunSummary
		want     string
	}{
		{"", []harness.RunSummary{ok, ok}, ""},
		{"NONDETERMINISM", []harness.RunSummary{ok, ok}, harness.OutcomeSafety},
		{"", []harness.RunSummary{ok, run(harness.OutcomeSafety, "")}, harness.OutcomeSafety},
		{"", []harness.RunSummary{ok, run(harness.OutcomeLiveness, "")}, harness.OutcomeLiveness},
		{"", []harness.RunSummary{ok, run(harness.OutcomeBudget, "")}, harness.OutcomeBudget},
		{"", []harness.RunSummary{ok, run(harness.OutcomeSafety, "stale-hro")}, ""},
	} {
		if got := fold(c.mismatch, c.runs...); got != c.want {
			t.Errorf("%q %v: worst %q, want %q", c.mismatch, c.runs, got, c.want)
		}
	}
}

// TestCheckDeterminismFindsNoMismatch: a sweep that runs every seed twice
// and compares the states step by step finds the model deterministic, and
// folds the same totals as without the check.
func TestCheckDeterminismFindsNoMismatch(t *testing.T) {
	plain, _, _ := sweep(t, mutantSweep(t, t.TempDir(), func(a *SweepArgs) { a.Seeds, a.Shrink = "2..3", 0 }), nil)
	checked, _, _ := sweep(t, mutantSweep(t, t.TempDir(), func(a *SweepArgs) { a.Seeds, a.Shrink, a.CheckDeterminism = "2..3", 0, true }), nil)
	if len(checked.Mismatches()) != 0 || !reflect.DeepEqual(plain.Totals, checked.Totals) {
		t.Errorf("mismatches %v; totals equal %v", checked.Mismatches(), reflect.DeepEqual(plain.Totals, checked.Totals))
	}
	if d, ok := firstDivergence([]uint64{1, 2, 3}, []uint64{1, 2, 4}); !ok || d != 2 {
		t.Errorf("firstDivergence at the third step: %d %v", d, ok)
	}
	if d, ok := firstDivergence([]uint64{1, 2}, []uint64{1, 2, 3}); !ok || d != 2 {
		t.Errorf("firstDivergence of a longer run: %d %v", d, ok)
	}
	if _, ok := firstDivergence([]uint64{1, 2}, []uint64{1, 2}); ok {
		t.Error("firstDivergence of equal runs")
	}
}

// TestShardHeadersSayWhatRan: a shard file's header names a budget other
// than the default (and none for the default), an interrupted sweep's
// rewritten header says where it stopped, and its resumed part's where it
// resumed; an uninterrupted, unresumed sweep's says neither.
func TestShardHeadersSayWhatRan(t *testing.T) {
	dir := t.TempDir()
	header := func(path string) SweepHeader {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var h SweepHeader
		if err := scenarios.DecodeStrict([]byte(strings.SplitN(string(data), "\n", 2)[0]), &h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	small := func(jsonl string, edit func(*SweepArgs)) SweepConfig {
		return mutantSweep(t, filepath.Join(dir, "out"), func(a *SweepArgs) {
			a.Seeds, a.Mutant, a.JSONL, a.Shrink = "1..6", "", jsonl, 0
			if edit != nil {
				edit(a)
			}
		})
	}
	whole := filepath.Join(dir, "whole.jsonl")
	sweep(t, small(whole, nil), nil)
	if h := header(whole); h.MaxSteps != 0 || h.StoppedAt != nil || h.ResumeFrom != nil {
		t.Errorf("a whole sweep at the default budget: max_steps %d, stopped_at %v, resume_from %v", h.MaxSteps, h.StoppedAt, h.ResumeFrom)
	}
	first := filepath.Join(dir, "first.jsonl")
	budget := func(a *SweepArgs) { a.MaxSteps = 400_000 }
	// One worker: with two, a slow first seed lets the other worker finish
	// the rest, and the fold then takes all six in one pass after the stop
	// (the sweep completes: 3 runs in 10 failed so).
	interrupted := func(a *SweepArgs) { budget(a); a.Workers = 1 }
	_, next, complete := sweep(t, small(first, interrupted), func(n uint64) bool { return n == 2 })
	if complete {
		t.Fatal("the sweep was not interrupted")
	}
	if h := header(first); h.MaxSteps != 400_000 || h.StoppedAt == nil || *h.StoppedAt != next || h.ResumeFrom != nil {
		t.Errorf("interrupted before %d: max_steps %d, stopped_at %v, resume_from %v", next, h.MaxSteps, h.StoppedAt, h.ResumeFrom)
	}
	rest := filepath.Join(dir, "rest.jsonl")
	sweep(t, small(rest, func(a *SweepArgs) { budget(a); a.ResumeFrom = &next }), nil)
	if h := header(rest); h.MaxSteps != 400_000 || h.StoppedAt != nil || h.ResumeFrom == nil || *h.ResumeFrom != next {
		t.Errorf("resumed at %d: max_steps %d, stopped_at %v, resume_from %v", next, h.MaxSteps, h.StoppedAt, h.ResumeFrom)
	}
}

// fullDisk writes to f until n bytes are written, then fails as a full
// disk does, after a part of the write.
type fullDisk struct {
	f *os.File
	n int
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if len(p) <= d.n {
		d.n -= len(p)
		return d.f.Write(p)
	}
	k, _ := d.f.Write(p[:d.n])
	d.n = 0
	return k, syscall.ENOSPC
}

// TestSweepShardFileOnAFullDisk: a shard file whose write failed is cut
// after its last whole line, its header saying where it stopped, so that
// merge reads it as an interrupted part and names the resume; it ended
// inside a line ("unexpected end of JSON input") under a header that
// claimed the whole sweep.
func TestSweepShardFileOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	cfg := mutantSweep(t, filepath.Join(dir, "out"), func(a *SweepArgs) { a.JSONL = file; a.Mutant = ""; a.Shrink = 0 })
	s := NewSweeper(cfg)
	if err := s.PrepareOut(); err != nil {
		t.Fatal(err)
	}
	if err := s.OpenJSONL(); err != nil {
		t.Fatal(err)
	}
	// The header and a few seeds' lines fit, then the disk is full.
	if err := s.jsonl.Flush(); err != nil {
		t.Fatal(err)
	}
	s.jsonl = bufio.NewWriterSize(&fullDisk{f: s.jsonlFile, n: 4000}, 512)
	next, complete := s.Run(context.Background())
	s.CloseJSONL(next, complete)
	s.CloseOut()
	err := s.JSONLError()
	if err == nil || !strings.Contains(err.Error(), "no space left on device; "+file+" now holds the seeds before ") {
		t.Fatalf("JSONLError: %v", err)
	}
	data, _ := os.ReadFile(file)
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("the file ends inside a line: %q", data[max(0, len(data)-40):])
	}
	_, err = MergeShardFiles([]string{file}, nil)
	if err == nil || !strings.Contains(err.Error(), "stopped at seed") || !strings.Contains(err.Error(), "resume it with") {
		t.Errorf("merge: %v", err)
	}
}
