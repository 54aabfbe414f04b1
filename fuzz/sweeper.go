package fuzz

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// SweepConfig is what a sweep (simrun sweep, or simrun merge of its shards)
// runs and where it saves its failures.
type SweepConfig struct {
	// From..To is the sweep's seed range; Resume is the first seed this
	// process sweeps (From unless resumed); Shard the seeds it holds.
	From, To, Resume uint64
	Shard            campaign.Shard
	Strategies       []harness.Strategy
	Profile          model.Profile
	Mutants          model.Mutants
	// Mutant is the mutants as given (comma-separated names), for the
	// shard header.
	Mutant string
	// Fixes are the fixes every run has on; Fix is them as given (--fix).
	Fixes            model.Fixes
	Fix              string
	CheckDeterminism bool
	// Shrink is the runs allowed to shrink each saved failure (0: none).
	Shrink   int
	MaxSteps int64
	Workers  int
	// MaxSaved is how many unknown failures are saved (the first in seed
	// order; the first seed of each known kind is saved besides), and
	// MaxShrunk how many saved failures are shrunk.
	MaxSaved, MaxShrunk int
	// Out is the directory of the failing seeds' scenario files; Fresh
	// (a whole sweep or a merge, not a shard or a resumed part) removes the
	// files an earlier run listed in its manifest first (PrepareOut).
	Out   string
	Fresh bool
	// JSONL, when set, is the shard file every folded seed is written to.
	JSONL string
	// ReplayFlags are the flags a saved failure's replay command needs
	// beyond the file and strategy.
	ReplayFlags string
	// Names spells the settings the sweep's texts name (the command's
	// flags; nil: the fields' names).
	Names config.Names
	// OnFold, when set, is called after each seed is folded, with the
	// number folded so far (for progress).
	OnFold func(folded uint64)
	// Warn, when set, is told of each failure file that could not be saved.
	Warn func(msg string)
}

// Sweeper runs a sweep: it folds every seed's result into its totals in seed
// order, saves (and shrinks) the failures' scenarios, checks determinism
// when asked and writes the shard file.
type Sweeper struct {
	cfg       SweepConfig
	Totals    *SweepTotals
	folded    uint64
	jsonl     *bufio.Writer
	jsonlFile *os.File
	jsonlErr  error
	// jsonlSalvaged: a failed write's file was cut after its last whole
	// line, and its header says where it stopped.
	jsonlSalvaged bool
	jsonlStopped  uint64
	shrunk        []string
	mismatches    []string
	saveFailed    int
	firstSaveErr  error
	manifest      *outfile.Manifest
	cleared       outfile.Cleared
	// saved counts the scenario files written: unknown failures, the
	// first seeds of known kinds.
	savedUnknown, savedKnown int
}

// NewSweeper returns a sweeper of cfg with empty totals.
func NewSweeper(cfg SweepConfig) *Sweeper {
	s := &Sweeper{cfg: cfg, Totals: NewSweepTotals(cfg.Strategies)}
	s.Totals.Keep = max(cfg.MaxSaved, ListedFailures)
	return s
}

// PrepareOut readies the output directory before the first seed: with
// Fresh it removes the files the manifest of an earlier run there lists
// (and only those), then it opens the manifest every saved file is added
// to.
func (s *Sweeper) PrepareOut() error {
	if s.cfg.Fresh {
		c, err := outfile.ClearDir(s.cfg.Out)
		if err != nil {
			return config.Errorf("Out", "{Out}: clearing the earlier run's files: %v", err)
		}
		s.cleared = c
	}
	m, err := outfile.OpenManifest(s.cfg.Out)
	if err != nil {
		return config.Errorf("Out", "{Out}: %v", err)
	}
	s.manifest = m
	return nil
}

// CloseOut closes the output directory's manifest.
func (s *Sweeper) CloseOut() {
	if s.manifest != nil {
		if err := s.manifest.Close(); err != nil {
			s.noteSaveError(0, err)
		}
	}
}

// SaveCounts is what a sweep saved in its --out: scenario files of unknown
// failures and of the first seeds of known kinds, what clearing the
// directory did first.
type SaveCounts struct {
	Unknown, Known int
	Cleared        outfile.Cleared
}

// Saved says what the sweep saved.
func (s *Sweeper) Saved() SaveCounts {
	return SaveCounts{Unknown: s.savedUnknown, Known: s.savedKnown, Cleared: s.cleared}
}

// Config is the sweeper's configuration.
func (s *Sweeper) Config() SweepConfig { return s.cfg }

// Shrunk lists the shrunk cases, two lines each (the case, its replay).
func (s *Sweeper) Shrunk() []string { return s.shrunk }

// Mismatches lists the determinism mismatches found, one report each.
func (s *Sweeper) Mismatches() []string { return s.mismatches }

// jobs are the seeds this process sweeps.
func (c SweepConfig) jobs() campaign.Jobs {
	return campaign.Jobs{From: c.From, To: c.To, Start: c.Resume, Shard: c.Shard}
}

// Seeds is how many seeds this process sweeps.
func (s *Sweeper) Seeds() uint64 {
	return s.cfg.jobs().Count()
}

// SaveError is the error of the failure files that could not be saved, nil
// when every one was.
func (s *Sweeper) SaveError() error {
	if s.saveFailed == 0 {
		return nil
	}
	return config.Errorf("Out", "{Out}: %d scenario files of failing seeds could not be saved (first: %v): the commands above that replay them name files that do not exist",
		s.saveFailed, s.firstSaveErr)
}

// JSONLError is the first error writing the shard file, if any. When the
// file could be cut after its last whole line, the error says so and how
// to sweep the rest.
func (s *Sweeper) JSONLError() error {
	if s.jsonlErr == nil || !s.jsonlSalvaged {
		return s.jsonlErr
	}
	args, _ := s.ResumeArgs(s.jsonlStopped)
	return fmt.Errorf("%v; %s now holds the seeds before %d (its header says so): resume with: %s", s.jsonlErr, s.cfg.JSONL, s.jsonlStopped, strings.Join(args, " "))
}

// HasUnknown reports whether an unknown failure of outcome was folded.
func (s *Sweeper) HasUnknown(outcome string) bool {
	return s.Totals.UnknownOutcomes[outcome] > 0
}

// OpenJSONL claims the shard file (outfile.Claim: new or empty, and locked
// against a second sweep writing it) and writes its header, padded so that
// CloseJSONL can rewrite it in place. The file must be regular (or a link
// to one, or new): a device or a fifo cannot have its header rewritten. A
// file that holds data is refused, never truncated: it may be another
// sweep's results.
func (s *Sweeper) OpenJSONL() error {
	if _, fi, err := outfile.Target(s.cfg.JSONL); err == nil && fi != nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s): a sweep rewrites its file's header when it stops", s.cfg.JSONL, fi.Mode().Type())
	}
	file, err := outfile.Claim(s.cfg.JSONL)
	if errors.Is(err, outfile.ErrNotEmpty) {
		return fmt.Errorf("%v; it may hold an earlier sweep's seeds: name a new file or delete this one (an interrupted sweep's 'resume with:' command writes the rest to a new file, and 'simrun merge' folds both)", err)
	}
	if err != nil {
		return err
	}
	s.jsonlFile = file
	s.jsonl = bufio.NewWriterSize(file, 1<<16)
	line, err := SweepHeaderLine(s.header(nil))
	if err == nil {
		_, err = s.jsonl.Write(line)
	}
	if err != nil {
		file.Close()
		return err
	}
	return nil
}

// DropJSONL closes the shard file OpenJSONL claimed without writing it (the
// command failed before any seed ran), and removes it when remove (the
// command made it).
func (s *Sweeper) DropJSONL(remove bool) {
	if s.jsonlFile == nil {
		return
	}
	s.jsonlFile.Close()
	if remove {
		os.Remove(s.cfg.JSONL)
	}
	s.jsonlFile, s.jsonl = nil, nil
}

// header is the shard file's header; stoppedAt is nil for a sweep that ran
// to its end.
func (s *Sweeper) header(stoppedAt *uint64) SweepHeader {
	h := NewSweepHeader(s.cfg.From, s.cfg.To, s.cfg.Shard, s.cfg.Strategies, s.cfg.Profile.Name(), s.cfg.Mutant, s.cfg.CheckDeterminism)
	h.Fix = s.cfg.Fix
	if s.cfg.MaxSteps != harness.DefaultMaxSteps {
		h.MaxSteps = s.cfg.MaxSteps
	}
	if s.cfg.Resume != s.cfg.From {
		resume := s.cfg.Resume
		h.ResumeFrom = &resume
	}
	h.StoppedAt = stoppedAt
	h.ContentDigest = h.Digest()
	return h
}

// CloseJSONL flushes the shard file, whose lines are whole seeds, and when
// the sweep stopped early rewrites its header to say where (errors go to
// JSONLError).
func (s *Sweeper) CloseJSONL(next uint64, complete bool) {
	if s.jsonl == nil {
		return
	}
	setErr := func(err error) {
		if err != nil && s.jsonlErr == nil {
			s.jsonlErr = err
		}
	}
	setErr(s.jsonl.Flush())
	if s.jsonlErr != nil {
		// A failed write (a full disk) left the file ending inside a line:
		// cut it after its last whole line and say in its header where it
		// stopped, so that it reads back as an interrupted part.
		if stopped, ok := s.salvageJSONL(); ok {
			next, complete = stopped, false
			s.jsonlStopped = stopped
		}
	}
	if !complete && (s.jsonlErr == nil || s.jsonlSalvaged) {
		line, err := SweepHeaderLine(s.header(&next))
		if err == nil {
			_, err = s.jsonlFile.WriteAt(line, 0)
		}
		setErr(err)
	}
	setErr(s.jsonlFile.Close())
}

// salvageJSONL truncates the shard file after its last whole line and
// returns the first seed it does not hold; ok is false when that is none
// (every seed's line is whole) or the file cannot be read back.
func (s *Sweeper) salvageJSONL() (stopped uint64, ok bool) {
	st, err := s.jsonlFile.Stat()
	if err != nil {
		return 0, false
	}
	size := st.Size()
	// The last whole line ends at the last newline; the one before it
	// starts after the newline before that, at most MaxLineBytes earlier.
	tail := min(size, 2*campaign.MaxLineBytes+2)
	buf := make([]byte, tail)
	if _, err := s.jsonlFile.ReadAt(buf, size-tail); err != nil {
		return 0, false
	}
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 || size-tail+int64(end) < 0 {
		return 0, false // not even the header is whole
	}
	if err := s.jsonlFile.Truncate(size - tail + int64(end) + 1); err != nil {
		return 0, false
	}
	start := bytes.LastIndexByte(buf[:end], '\n') + 1
	jobs := s.cfg.jobs()
	if size-tail+int64(start) == 0 { // the header alone
		first, ok := jobs.First()
		s.jsonlSalvaged = ok
		return first, ok
	}
	var last struct {
		Seed uint64 `json:"seed"`
	}
	if json.Unmarshal(buf[start:end], &last) != nil {
		return 0, false
	}
	stopped, ok = jobs.Next(last.Seed)
	s.jsonlSalvaged = ok
	return stopped, ok
}

type seedDone struct {
	res      SeedResult
	mismatch string
}

// Run sweeps the shard's seeds with a pool of workers and folds their
// results in seed order (campaign.Fold), so the totals do not depend on the
// number of workers. It returns the first seed not folded and whether every
// seed was.
func (s *Sweeper) Run(ctx context.Context) (next uint64, complete bool) {
	return campaign.Fold(ctx, s.cfg.jobs(), s.cfg.Workers, s.one, func(_ uint64, d seedDone) {
		s.Fold(d.res, d.mismatch)
		if s.jsonl != nil && s.jsonlErr == nil {
			s.jsonlErr = WriteSeedLine(s.jsonl, d.res, d.mismatch)
		}
		s.folded++
		if s.cfg.OnFold != nil {
			s.cfg.OnFold(s.folded)
		}
	})
}

// one runs one seed (twice, comparing states, with CheckDeterminism).
func (s *Sweeper) one(seed uint64) seedDone {
	if !s.cfg.CheckDeterminism {
		return seedDone{res: SweepSeedWith(seed, s.cfg.Strategies, s.options())}
	}
	sc := gen.Generate(seed)
	d := seedDone{res: SeedResult{Seed: seed}}
	for _, st := range s.cfg.Strategies {
		opt := s.options()
		opt.Seed, opt.Strategy, opt.StateDigests = seed, st, true
		a, b := harness.Execute(sc, opt), harness.Execute(sc, opt)
		d.res.Runs = append(d.res.Runs, harness.Summarize(a))
		if step, ok := firstDivergence(a.StateDigests, b.StateDigests); ok && d.mismatch == "" {
			opt.StateDigests = false
			sa, _ := harness.StatesAround(sc, opt, step)
			_, sb := harness.StatesAround(sc, opt, step)
			d.mismatch = fmt.Sprintf("NONDETERMINISM seed %d %s: first divergent step %d\n%s", seed, st, step, harness.StateDiff(sa, sb))
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

// Fold adds a seed's result to the totals and saves the scenario of the
// first MaxSaved unknown failures and of the first seed of each known kind.
func (s *Sweeper) Fold(res SeedResult, mismatch string) {
	knownBefore := len(s.Totals.FirstFindings)
	failedBefore := len(s.Totals.FirstFailures)
	s.Totals.Add(res)
	if mismatch != "" {
		s.mismatches = append(s.mismatches, mismatch)
	}
	for i := failedBefore; i < min(len(s.Totals.FirstFailures), s.cfg.MaxSaved); i++ {
		s.save(s.Totals.FirstFailures[i])
		s.savedUnknown++
	}
	if len(s.Totals.FirstFindings) > knownBefore {
		for _, run := range res.Runs {
			if f, ok := s.Totals.FirstFindings[run.Kind]; ok && f.Seed == res.Seed && f.Run.Strategy == run.Strategy {
				s.save(f)
				s.savedKnown++
			}
		}
	}
}

// SavedFile reports whether the sweep saved failure f's scenario file: an
// unknown failure among the first MaxSaved, or the first seed of a known
// kind.
func (s *Sweeper) SavedFile(f Failed) bool {
	if f.Run.Known() {
		first, ok := s.Totals.FirstFindings[f.Run.Kind]
		return ok && first.Seed == f.Seed && first.Run.Strategy == f.Run.Strategy
	}
	for i, x := range s.Totals.FirstFailures {
		if x.Seed == f.Seed && x.Run.Strategy == f.Run.Strategy {
			return i < s.cfg.MaxSaved
		}
	}
	return false
}

// FailureFile is where a sweep saves a failing seed's scenario.
func FailureFile(outDir string, f Failed) string {
	name := f.Run.Invariant
	if f.Run.Kind != "" {
		name = f.Run.Kind
	}
	if !SafeName(name) || !SafeName(string(f.Run.Strategy)) {
		name = "unnamed" // a name from a file never becomes a path (merge refuses them first)
	}
	return fmt.Sprintf("%s/seed-%d-%s-%s.json", outDir, f.Seed, f.Run.Strategy, name)
}

// save writes a failing seed's scenario, recording how it failed, and,
// within the shrink budget, the smallest scenario that still fails the
// same way beside it, recording how that one fails.
func (s *Sweeper) save(f Failed) {
	opt := s.options()
	opt.Seed, opt.Strategy = f.Seed, f.Run.Strategy
	sc := harness.WithRecord(gen.Generate(f.Seed), opt, f.Run)
	file := FailureFile(s.cfg.Out, f)
	if err := s.write(file, sc); err != nil {
		s.noteSaveError(f.Seed, err)
		return
	}
	if s.cfg.Shrink == 0 || len(s.shrunk) >= s.cfg.MaxShrunk || f.Run.Outcome == harness.OutcomeBudget {
		return // a run that reached its budget would take the whole budget for every try
	}
	minFile := strings.TrimSuffix(file, ".json") + "-min.json"
	res := ShrinkRun(sc, opt, s.cfg.Shrink)
	if err := s.write(minFile, res.Scenario); err != nil {
		s.noteSaveError(f.Seed, err)
		return
	}
	s.shrunk = append(s.shrunk, ShrunkLines(fmt.Sprintf("seed %d %s %s", f.Seed, f.Run.Strategy, f.Run.Invariant), res, minFile))
}

// write saves a scenario file in the output directory, listed in its
// manifest first.
func (s *Sweeper) write(path string, sc *scenarios.Scenario) error {
	if s.manifest != nil {
		if err := s.manifest.Add(path); err != nil {
			return err
		}
	}
	return WriteScenario(path, sc)
}

// WriteScenario writes sc to path whole (outfile.WriteAtomic).
func WriteScenario(path string, sc *scenarios.Scenario) error {
	data, err := sc.Marshal()
	if err != nil {
		return err
	}
	return outfile.WriteAtomic(path, data)
}

// options are the run options of every seed (the seed and strategy aside).
func (s *Sweeper) options() harness.Options {
	return harness.Options{Profile: s.cfg.Profile, Mutants: s.cfg.Mutants, Fixes: s.cfg.Fixes, MaxSteps: s.cfg.MaxSteps}
}

// noteSaveError reports a failure file that could not be written; the
// sweep then fails (SaveError).
func (s *Sweeper) noteSaveError(seed uint64, err error) {
	if s.cfg.Warn != nil {
		s.cfg.Warn(fmt.Sprintf("saving seed %d: %v", seed, err))
	}
	if s.saveFailed == 0 {
		s.firstSaveErr = err
	}
	s.saveFailed++
}

// RangeText names the seeds a sweep that stopped before next (complete:
// every seed) covered: "1..1000", "1..499 (resumed, of 1..1000) shard 0/2".
func (s *Sweeper) RangeText(next uint64, complete bool) string {
	c := s.cfg
	text := fmt.Sprintf("%d..%d", c.Resume, c.To)
	if !complete {
		text = fmt.Sprintf("%d..%d", c.Resume, next-1)
		if next == c.Resume {
			text = "none"
		}
	}
	if c.Resume != c.From {
		text += fmt.Sprintf(" (resumed, of %d..%d)", c.From, c.To)
	}
	if c.Shard != campaign.Whole {
		text += " shard " + c.Shard.String()
	}
	return text
}

// Worst is the worst outcome of the sweep's unknown failures: a
// determinism mismatch counts as a safety violation, then liveness, then a
// run stopped by its budget; "" when there was none.
func (s *Sweeper) Worst() string {
	switch {
	case len(s.mismatches) > 0 || s.HasUnknown(harness.OutcomeSafety):
		return harness.OutcomeSafety
	case s.HasUnknown(harness.OutcomeLiveness):
		return harness.OutcomeLiveness
	case s.Totals.UnknownFailures() > 0:
		return harness.OutcomeBudget
	}
	return ""
}

// ResumeArgs is the command that sweeps the rest of an interrupted sweep,
// from seed next, with every flag that shapes the results, and the shard
// file of that part ("" without one).
func (s *Sweeper) ResumeArgs(next uint64) (args []string, part string) {
	c, n := s.cfg, s.cfg.Names
	args = []string{"simrun sweep", n.Sprintf("{Seeds} %d..%d", c.From, c.To)}
	if c.Shard != campaign.Whole {
		args = append(args, n.Sprintf("{Shard} %s", c.Shard.String()))
	}
	strategy := "both"
	if len(c.Strategies) == 1 {
		strategy = string(c.Strategies[0])
	}
	args = append(args, n.Sprintf("{ResumeFrom} %d", next), n.Sprintf("{Strategy} %s", strategy), n.Sprintf("{Profile} %s", c.Profile.Name()),
		n.Sprintf("{Out} %s", c.Out), n.Sprintf("{Shrink} %d", c.Shrink), n.Sprintf("{Workers} %d", c.Workers))
	args = append(args, c.capFlags()...)
	if c.Mutant != "" {
		args = append(args, n.Sprintf("{Mutant} %s", c.Mutant))
	}
	if c.Fix != "" {
		args = append(args, n.Sprintf("{Fix} %s", c.Fix))
	}
	if c.CheckDeterminism {
		args = append(args, n.Of("CheckDeterminism"))
	}
	if c.MaxSteps != harness.DefaultMaxSteps {
		args = append(args, n.Sprintf("{MaxSteps} %d", c.MaxSteps))
	}
	if c.JSONL != "" {
		part = campaign.PartFile(c.JSONL, next)
		args = append(args, n.Sprintf("{JSONL} %s", part))
	}
	return args, part
}

// ResumeText says where a sweep interrupted by the signal sig stopped, the
// command that sweeps the rest from seed next (ResumeArgs) and, with a
// shard file, the merge that gives the whole sweep's summary.
func (s *Sweeper) ResumeText(sig string, next uint64) string {
	args, part := s.ResumeArgs(next)
	jsonl := s.cfg.JSONL
	var b strings.Builder
	fmt.Fprintf(&b, "\ninterrupted by %s before seed %d", sig, next)
	if jsonl != "" {
		fmt.Fprintf(&b, " (%s holds the seeds before it; its header says so)", jsonl)
	}
	fmt.Fprintf(&b, "\nresume with: %s\n", strings.Join(args, " "))
	if jsonl != "" {
		caps := strings.Join(append([]string{""}, s.cfg.capFlags()...), " ")
		s.cfg.Names.Fprintf(&b, "then the whole sweep's summary: simrun merge {Out} %s {Shrink} %d%s %s %s\n", s.cfg.Out, s.cfg.Shrink, caps, jsonl, part)
	}
	return b.String()
}

// MergeShardFiles opens the shard files of one sweep and merges them with
// fold (MergeShards); fold nil only checks them.
func MergeShardFiles(files []string, fold func(SeedResult, string)) (SweepHeader, error) {
	var srcs []ShardSource
	for _, name := range files {
		file, err := scenarios.OpenInput(name)
		if err != nil {
			return SweepHeader{}, err // names the file
		}
		defer file.Close()
		srcs = append(srcs, ShardSource{Name: name, R: file})
	}
	return MergeShards(srcs, fold)
}

// MergeConfig is the configuration that sweeps, over the whole range, what
// the shards whose header is h swept, saving failures in out and shrinking
// each with shrink runs.
func MergeConfig(h SweepHeader, out string, shrink int) (SweepConfig, error) {
	profile, ok := model.Profiles[h.Profile]
	if !ok {
		return SweepConfig{}, fmt.Errorf("the shards ran profile %q, which this simrun does not know", h.Profile)
	}
	var mutants model.Mutants
	if h.Mutant != "" {
		for _, name := range strings.Split(h.Mutant, ",") {
			m, ok := model.MutantByName(strings.TrimSpace(name))
			if !ok {
				return SweepConfig{}, fmt.Errorf("the shards' mutants: unknown mutant %q", name)
			}
			mutants = mutants.With(m)
		}
	}
	fixes, err := harness.ParseFixes(h.Fix)
	if err != nil {
		return SweepConfig{}, fmt.Errorf("the shards' fix: %w", err)
	}
	maxSteps := int64(harness.DefaultMaxSteps)
	if h.MaxSteps != 0 {
		if h.MaxSteps < 1 || h.MaxSteps > harness.MaxStepsLimit {
			return SweepConfig{}, fmt.Errorf("the shards' max_steps: want a number of steps in 1..%d, got %d", int64(harness.MaxStepsLimit), h.MaxSteps)
		}
		maxSteps = h.MaxSteps
	}
	return SweepConfig{From: h.From, To: h.To, Resume: h.From, Shard: campaign.Whole, Strategies: h.Strategies, Profile: profile,
		Mutants: mutants, Mutant: h.Mutant, Fixes: fixes, Fix: h.Fix, CheckDeterminism: h.CheckDeterminism, Shrink: shrink, MaxSteps: maxSteps, Out: out,
		MaxSaved: DefaultMaxSaved, MaxShrunk: DefaultMaxShrunk, Fresh: true}, nil
}

// capFlags are the MaxSaved and MaxShrunk settings that differ from their
// defaults, as flags (Names).
func (c SweepConfig) capFlags() []string {
	var flags []string
	if c.MaxSaved != DefaultMaxSaved {
		flags = append(flags, c.Names.Sprintf("{MaxSaved} %d", c.MaxSaved))
	}
	if c.MaxShrunk != DefaultMaxShrunk {
		flags = append(flags, c.Names.Sprintf("{MaxShrunk} %d", c.MaxShrunk))
	}
	return flags
}
