package compare

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"tierfetch/campaign"
	"tierfetch/cliutil"
	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/outfile"
	"tierfetch/reports"
	"tierfetch/scenarios"
)

// A compare shard file (simrun compare --shard K/N --jsonl FILE) is JSON
// Lines: a compareShardHeader, then one comparePairLine per pair of the
// shard, in job order. The jobs are the comparison's (s.jobs()) followed by
// the default sweep's, numbered from 0 across both; shard K of N holds the
// jobs whose number is K modulo N, so every shard gets the same mix of
// scenarios, profiles and seeds.

// compareShardFormat is the version of the compare shard file format; merge
// refuses others.
const compareShardFormat = 1

// compareShardHeader is the first line of a compare shard file. Shards of
// one comparison agree on everything but Shard.
type compareShardHeader struct {
	Format int    `json:"tierfetch_compare"`
	Shard  string `json:"shard"`
	// Args are the compare flags that fix the comparison, normalized
	// (--name=value, sorted by name): all but --shard, --jsonl, --out and
	// --workers. Merge parses them again with its own --out.
	Args []string `json:"args"`
	// Pairs and SweepPairs count the jobs of the comparison and of the
	// default sweep, to catch a simrun that would make other jobs of the
	// same flags.
	Pairs      int `json:"pairs"`
	SweepPairs int `json:"sweep_pairs"`
	// FromJob, when present, is the first job the file holds (a
	// comparison resumed with --resume-from); absent: 0.
	FromJob int `json:"from_job,omitempty"`
	// StoppedAtJob, when present, is the first job of the shard the file
	// does not hold: the comparison was interrupted there.
	StoppedAtJob *int `json:"stopped_at_job,omitempty"`
	// ContentDigest is Setup.ContentDigest: the scenarios' content and the
	// flags, so merge refuses shards of a scenario file edited between them.
	ContentDigest string `json:"content_digest"`
}

// comparePairLine is one pair of a shard file: its job number and the pair.
// Every field of the metrics is an integer, a string, a boolean or a float
// (encoding/json writes the shortest text that reads back the same float),
// so a pair reads back exactly as it was run.
type comparePairLine struct {
	Job       int                 `json:"job"`
	Scenario  string              `json:"scenario"`
	VaryValue string              `json:"vary_value,omitempty"`
	Profile   string              `json:"profile"`
	Fixes     string              `json:"fixes,omitempty"`
	Seed      uint64              `json:"seed"`
	Local     *harness.RunMetrics `json:"local"`
	Tiered    *harness.RunMetrics `json:"tiered"`
}

func (l *comparePairLine) pair() reports.ComparePair {
	return reports.ComparePair{Scenario: l.Scenario, VaryValue: l.VaryValue, Profile: l.Profile, Fixes: l.Fixes, Seed: l.Seed,
		Local: l.Local, Tiered: l.Tiered}
}

// parseShard reads --shard, --jsonl and --resume-from: a shard writes
// --jsonl, and so may a whole comparison (shard 0/1).
func (s *Setup) parseShard() error {
	s.shard = campaign.Whole
	switch {
	case s.f.resumeFrom < 0:
		return config.Errorf("ResumeFrom", "{ResumeFrom}: want a job number >= 0, got %d", s.f.resumeFrom)
	case s.f.resumeFrom > 0 && s.f.jsonl == "":
		return config.Errorf("ResumeFrom", "{ResumeFrom}: give {JSONL} FILE for the resumed part ('simrun merge' folds the parts)")
	case s.f.shard == "":
		return nil
	case s.f.jsonl == "":
		return config.Errorf("Shard", "{Shard}: give {JSONL} FILE for the shard's pairs ('simrun merge' renders the report)")
	}
	sh, err := campaign.ParseShard(s.f.shard)
	if err != nil {
		return config.Errorf("Shard", "{Shard}: %v", err)
	}
	s.shard = sh
	return nil
}

// holds reports whether job number g (across the comparison's and the
// default sweep's jobs) is this run's: the shard's, from --resume-from on.
func (s *Setup) holds(g int) bool {
	return uint64(g)%s.shard.N == s.shard.K && g >= s.f.resumeFrom
}

// Run is what Run ran: the pairs by job (zero where not run) and where it
// stopped.
type Run struct {
	Pairs, SweepPairs []reports.ComparePair
	// Complete is whether every held job ran; otherwise StoppedAt is the
	// first held job that did not (every held job before it did).
	Complete  bool
	StoppedAt int
}

// Jobs counts the jobs of the comparison: pairs (scenario-seed pairs times
// profiles, times varied values) and those of the default sweep; and Held
// those this process runs (its shard, from ResumeFrom on).
func (s *Setup) Jobs() (pairs, sweepPairs, held int) {
	pairs = len(s.jobs())
	if s.sweep != nil {
		sweepPairs = len(s.sweep.jobs())
	}
	for g := range pairs + sweepPairs {
		if s.holds(g) {
			held++
		}
	}
	return pairs, sweepPairs, held
}

// JobsText says what the jobs are, in the unit progress counts them:
// "600 pairs = 200 scenario-seed pairs x 3 profiles + 60 of the default sweep".
func (s *Setup) JobsText() string {
	pairs, sweepPairs, _ := s.Jobs()
	per := pairs / len(s.profiles)
	if s.withFixes {
		per /= 2
	}
	text := fmt.Sprintf("%d pairs = %d scenario-seed pairs", pairs+sweepPairs, per)
	if n := len(s.varyValues); n > 0 {
		text = fmt.Sprintf("%d pairs = %d scenario-seed pairs x %d values", pairs+sweepPairs, per/n, n)
	}
	if len(s.profiles) > 1 {
		text += fmt.Sprintf(" x %d profiles", len(s.profiles))
	}
	if s.withFixes {
		text += s.f.names.Sprintf(" x 2 (without fixes, and with {Fix} all)")
	}
	if sweepPairs > 0 {
		text += fmt.Sprintf(" + %d of the default sweep", sweepPairs)
	}
	return text
}

// Run runs the held jobs of the comparison and of the default sweep until
// ctx ends (campaign.Fold), calling progress(done, held) after each pair.
func (s *Setup) Run(ctx context.Context, progress func(done, held int)) Run {
	jobs := s.jobs()
	var sweepJobs []job
	if s.sweep != nil {
		sweepJobs = s.sweep.jobs()
	}
	n := len(jobs)
	_, _, held := s.Jobs()
	all := make([]reports.ComparePair, n+len(sweepJobs))
	r := Run{Complete: true, StoppedAt: len(all)}
	if len(all) > 0 {
		done := 0
		next, complete := campaign.Fold(ctx, campaign.JobsOf(len(all), s.shard, s.f.resumeFrom), s.f.workers,
			func(g uint64) reports.ComparePair {
				if g < uint64(n) {
					return s.runPair(jobs[g])
				}
				return s.sweep.runPair(sweepJobs[g-uint64(n)])
			},
			func(g uint64, p reports.ComparePair) {
				all[g] = p
				done++
				progress(done, held)
			})
		if !complete {
			r.Complete, r.StoppedAt = false, int(next)
		}
	}
	r.Pairs, r.SweepPairs = all[:n:n], all[n:]
	return r
}

// WritePart writes the held jobs r ran before it stopped to path, as a
// compare shard file whose header says which jobs it holds.
func (s *Setup) WritePart(path string, r Run) error {
	n := len(r.Pairs)
	h := compareShardHeader{Format: compareShardFormat, Shard: s.shard.String(), Args: s.args, Pairs: n,
		SweepPairs: len(r.SweepPairs), FromJob: s.f.resumeFrom, ContentDigest: s.ContentDigest()}
	if !r.Complete {
		h.StoppedAtJob = &r.StoppedAt
	}
	var buf bytes.Buffer
	if err := campaign.WriteLine(&buf, h); err != nil {
		return err
	}
	all := append(slices.Clone(r.Pairs), r.SweepPairs...)
	for g := range r.StoppedAt {
		if !s.holds(g) {
			continue
		}
		p := all[g]
		l := comparePairLine{Job: g, Scenario: p.Scenario, VaryValue: p.VaryValue, Profile: p.Profile, Fixes: p.Fixes,
			Seed: p.Seed, Local: p.Local, Tiered: p.Tiered}
		if err := campaign.WriteLine(&buf, l); err != nil {
			return err
		}
	}
	return outfile.WriteAtomic(path, buf.Bytes())
}

// ResumeText says where an interrupted comparison stopped (by signal sig,
// with the pairs before it in part), the command that runs the rest (its
// flags as given, --resume-from, a new part file) and the merge that renders
// the report from the parts.
func (s *Setup) ResumeText(sig string, r Run, part string) string {
	next := campaign.PartFile(part, uint64(r.StoppedAt))
	args := append([]string{"simrun", "compare"}, s.args...)
	n := s.f.names
	if s.shard != campaign.Whole {
		args = append(args, n.Sprintf("{Shard}=%s", s.shard.String()))
	}
	args = append(args, n.Sprintf("{Out}=%s", s.f.out), n.Sprintf("{Workers}=%d", s.f.workers), n.Sprintf("{ResumeFrom}=%d", r.StoppedAt), n.Sprintf("{JSONL}=%s", next))
	for i, a := range args {
		args[i] = cliutil.ShellQuote(a)
	}
	return n.Sprintf("interrupted by %s before job %d of %d: %s holds the pairs before it (its header says so); no report written\n"+
		"resume with: %s\nthen the report: simrun merge {Out} %s %s %s (with the files of the other shards, if any)\n",
		sig, r.StoppedAt, len(r.Pairs)+len(r.SweepPairs), part, strings.Join(args, " "), cliutil.ShellQuote(s.f.out), cliutil.ShellQuote(part), cliutil.ShellQuote(next))
}

// SavePart writes the pairs of r to their shard file: the --jsonl file,
// or for an interrupted comparison without one, pairs.jsonl in the output
// directory. It returns the file ("" when there is none); an error names
// the flag that gave it.
func (s *Setup) SavePart(r Run) (string, error) {
	part, field := s.f.jsonl, "JSONL"
	if part == "" && !r.Complete {
		part, field = s.partFile(), "Out"
	}
	if part == "" {
		return "", nil
	}
	err := s.WritePart(part, r)
	if s.claim != nil {
		s.claim.Close() // the lock goes once the file is whole
		s.claim = nil
	}
	if err != nil {
		return part, config.Errorf(field, "{"+field+"}: %v", err)
	}
	return part, nil
}

// ShardText is what a comparison that wrote its pairs to --jsonl says when
// it is done: the jobs written, how to merge them into the report, and the
// runs stopped by their work budget (also returned).
func (s *Setup) ShardText(r Run) (text string, budgetRuns int) {
	_, _, held := s.Jobs()
	text = s.f.names.Sprintf("compare shard %s: %d of %s written to %s; 'simrun merge {Out} DIR' the files of every shard for the report\n",
		s.shard, held, s.JobsText(), s.f.jsonl)
	if budgetRuns = BudgetRuns(r.Pairs) + BudgetRuns(r.SweepPairs); budgetRuns > 0 {
		text += s.f.names.Sprintf("%d runs reached the work budget of %d steps: raise {MaxSteps}\n", budgetRuns, s.f.maxSteps)
	}
	return text, budgetRuns
}

// Shard is the part of the jobs this process runs.
func (s *Setup) Shard() campaign.Shard { return s.shard }

// Out is the output directory.
func (s *Setup) Out() string { return s.f.out }

// MaxSteps is the work budget of each run.
func (s *Setup) MaxSteps() int64 { return s.f.maxSteps }

// SweepKey is the key of the default sweep, "" when there is none.
func (s *Setup) SweepKey() string {
	if s.sweep == nil {
		return ""
	}
	return s.sweep.varyKey
}

// compareShard is one compare shard file, read whole, its header checked.
type compareShard struct {
	name   string
	header compareShardHeader
	shard  campaign.Shard
	lines  *campaign.Lines // after the header
}

func readCompareShard(name string, maxBytes int64) (*compareShard, error) {
	file, err := scenarios.OpenInput(name)
	if err != nil {
		return nil, err // names the file
	}
	defer file.Close()
	if st, err := file.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > maxBytes {
		return nil, config.Errorf("MaxInput", "%s: %d bytes, more than the input limit of %d (raise it with {MaxInput})", name, st.Size(), maxBytes)
	}
	lim := &io.LimitedReader{R: file, N: maxBytes + 1}
	data, err := io.ReadAll(lim)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if lim.N <= 0 {
		return nil, config.Errorf("MaxInput", "%s: more than %d bytes, the input limit (raise it with {MaxInput})", name, maxBytes)
	}
	c := &compareShard{name: name, lines: campaign.NewLines(name, bytes.NewReader(data))}
	if !c.lines.Scan() {
		if err := c.lines.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: empty: not a shard file", name)
	}
	if err := scenarios.DecodeStrict(c.lines.Bytes(), &c.header); err != nil || c.header.Format == 0 {
		return nil, fmt.Errorf("%s:1: not a compare shard file (want {\"tierfetch_compare\": %d, ...}; a sweep shard cannot be merged with a comparison's): %v",
			name, compareShardFormat, err)
	}
	if c.header.Format != compareShardFormat {
		return nil, fmt.Errorf("%s:1: compare shard format %d, this simrun reads %d", name, c.header.Format, compareShardFormat)
	}
	if c.shard, err = campaign.ParseShard(c.header.Shard); err != nil {
		return nil, fmt.Errorf("%s:1: shard: %v", name, err)
	}
	h := &c.header
	total := h.Pairs + h.SweepPairs
	switch {
	case h.Pairs < 0 || h.SweepPairs < 0 || total > maxComparePairs:
		return nil, fmt.Errorf("%s:1: pairs %d, sweep_pairs %d: want 0..%d in all", name, h.Pairs, h.SweepPairs, maxComparePairs)
	case h.FromJob < 0 || h.FromJob > total:
		return nil, fmt.Errorf("%s:1: from_job: %d outside the jobs 0..%d", name, h.FromJob, total)
	case h.StoppedAtJob != nil && (*h.StoppedAtJob < h.FromJob || *h.StoppedAtJob > total):
		return nil, fmt.Errorf("%s:1: stopped_at_job: %d outside the jobs %d..%d", name, *h.StoppedAtJob, h.FromJob, total)
	}
	return c, nil
}

// part is the file as campaign.Merge reads it: check checks a line beyond
// its job.
func (c *compareShard) part(check func(l *comparePairLine) error) *campaign.Part[comparePairLine] {
	p := &campaign.Part[comparePairLine]{Lines: c.lines, Shard: c.shard, Lo: uint64(c.header.FromJob),
		Job: func(l *comparePairLine) uint64 { return uint64(l.Job) }, Check: check}
	if st := c.header.StoppedAtJob; st != nil {
		at := uint64(*st)
		p.StoppedAt = &at
	}
	return p
}

// Merge folds the shard files of one comparison into its pairs
// (campaign.Merge), checking that they are every pair of it exactly once.
// parse makes the comparison of the shards' compare flags (the header's
// normalized --name=value args). Report then writes the report the whole
// comparison writes, byte for byte.
func Merge(files []string, maxBytes int64, parse func(args []string) (*Setup, error)) (s *Setup, pairs, sweepPairs []reports.ComparePair, err error) {
	shards, err := checkCompareShards(files, maxBytes)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("merge: %w", err)
	}
	h := shards[0].header
	s, err = parse(slices.Clone(h.Args))
	if err != nil {
		return nil, nil, nil, badInput("merge: the shards' compare flags %s: %v", strings.Join(h.Args, " "), err)
	}
	if err := s.checkScenarios(); err != nil {
		return nil, nil, nil, fmt.Errorf("merge: %w", err)
	}
	if err := campaign.CheckDigest(shards[0].name, h.ContentDigest, s.ContentDigest(),
		"the comparison's scenarios and flags give %s now: a scenario file changed after the shards ran (or another simrun made them); merge needs what the shards ran"); err != nil {
		return nil, nil, nil, fmt.Errorf("merge: %w", err)
	}
	jobs := s.jobs()
	var sweepJobs []job
	if s.sweep != nil {
		if err := s.sweep.checkScenarios(); err != nil {
			return nil, nil, nil, fmt.Errorf("merge: %w", err)
		}
		sweepJobs = s.sweep.jobs()
	}
	if len(jobs) != h.Pairs || len(sweepJobs) != h.SweepPairs {
		return nil, nil, nil, badInput("merge: the shards ran %d+%d pairs, this simrun makes %d+%d of the same flags: merge with the simrun that wrote the shards",
			h.Pairs, h.SweepPairs, len(jobs), len(sweepJobs))
	}
	pairs = make([]reports.ComparePair, len(jobs)+len(sweepJobs))
	check := s.lineCheck(jobs, sweepJobs)
	parts := make([]*campaign.Part[comparePairLine], len(shards))
	for i, c := range shards {
		parts[i] = c.part(check)
	}
	sp := campaign.Span{From: 0, To: uint64(len(pairs) - 1), Unit: "job", Units: "jobs", Whole: "comparison",
		ResumeField: "from_job", StopField: "stopped_at_job"}
	if len(pairs) > 0 {
		err = campaign.Merge(sp, parts, func(g uint64, l *comparePairLine) { pairs[g] = l.pair() })
		if err != nil {
			return nil, nil, nil, fmt.Errorf("merge: %w", err)
		}
	}
	return s, pairs[:len(jobs)], pairs[len(jobs):], nil
}

// lineCheck checks a pair line against the pair its job runs: jobs are
// the comparison's, sweepJobs its default sweep's.
func (s *Setup) lineCheck(jobs, sweepJobs []job) func(l *comparePairLine) error {
	return func(l *comparePairLine) error {
		if l.Local == nil || l.Tiered == nil {
			return fmt.Errorf("job %d: a pair wants both runs (local and tiered)", l.Job)
		}
		if err := checkPairRuns(*l); err != nil {
			return fmt.Errorf("job %d: %v", l.Job, err)
		}
		owner, j := s, job{}
		if l.Job < len(jobs) {
			j = jobs[l.Job]
		} else {
			owner, j = s.sweep, sweepJobs[l.Job-len(jobs)]
		}
		if want := owner.pairID(j); want != l.id() {
			return fmt.Errorf("job %d is %s, this comparison's job %d is %s", l.Job, l.id(), l.Job, want)
		}
		return nil
	}
}

// checkCompareShards reads the files and checks that they are every shard
// of one comparison, each once.
func checkCompareShards(files []string, maxBytes int64) ([]*compareShard, error) {
	var shards []*compareShard
	for _, name := range files {
		c, err := readCompareShard(name, maxBytes)
		if err != nil {
			return nil, err
		}
		shards = append(shards, c)
	}
	first := shards[0]
	var have []campaign.Shard
	for _, c := range shards {
		x, y := first.header, c.header
		var diff []string
		if !slices.Equal(x.Args, y.Args) {
			diff = append(diff, fmt.Sprintf("flags %q vs %q", strings.Join(x.Args, " "), strings.Join(y.Args, " ")))
		}
		if x.Pairs != y.Pairs || x.SweepPairs != y.SweepPairs {
			diff = append(diff, fmt.Sprintf("pairs %d+%d vs %d+%d", x.Pairs, x.SweepPairs, y.Pairs, y.SweepPairs))
		}
		if x.ContentDigest != y.ContentDigest {
			diff = append(diff, fmt.Sprintf("content_digest %s vs %s (a scenario file changed between the shards, or another simrun made one)",
				campaign.DigestText(x.ContentDigest), campaign.DigestText(y.ContentDigest)))
		}
		if first.shard.N != c.shard.N {
			diff = append(diff, fmt.Sprintf("shard %s vs %s: split in %d and in %d", first.shard, c.shard, first.shard.N, c.shard.N))
		}
		if len(diff) > 0 {
			return nil, campaign.NotSame(first.name, c.name, "comparison", diff)
		}
		have = append(have, c.shard) // a shard may come in parts (interrupted, then resumed): jobs are checked one by one
	}
	given, absent := campaign.MissingShards(have, first.shard.N)
	var missing []string
	for _, sh := range absent {
		missing = append(missing, sh.String())
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%d of %d shards given: missing shard %s", given, first.shard.N, strings.Join(missing, ", "))
	}
	return shards, nil
}

// checkPairRuns checks the values of a pair's runs as merge checks a sweep's:
// known outcomes, invariants and kinds, a SHA-256 digest, no negative count.
func checkPairRuns(l comparePairLine) error {
	for _, r := range []struct {
		name string
		m    *harness.RunMetrics
	}{{"local", l.Local}, {"tiered", l.Tiered}} {
		m := r.m
		switch {
		case !slices.Contains([]string{harness.OutcomeOK, harness.OutcomeSafety, harness.OutcomeLiveness, harness.OutcomeBudget}, m.Outcome):
			return fmt.Errorf("%s.Outcome: unknown outcome %q", r.name, m.Outcome)
		case m.Invariant != "" && !slices.Contains(harness.KnownInvariants, m.Invariant):
			return fmt.Errorf("%s.Invariant: unknown invariant %q", r.name, m.Invariant)
		case m.Kind != "" && !slices.Contains(harness.KnownKinds, m.Kind):
			return fmt.Errorf("%s.Kind: unknown kind %q", r.name, m.Kind)
		case !harness.ValidDigest(m.Digest):
			return fmt.Errorf("%s.Digest: want 16 hex digits (a run's digest), got %q", r.name, m.Digest)
		case m.Steps < 0 || m.SimMs < 0 || m.CatchUpMs < 0 || m.BytesFromLeader < 0 || m.EgressBytes < 0 || m.Retries < 0:
			return fmt.Errorf("%s: a negative count", r.name)
		}
	}
	return nil
}

// pairID names the pair job j runs: scenario, varied value, profile, seed.
func (s *Setup) pairID(j job) string {
	name := "generated"
	if !s.f.generated {
		name = s.scenarios[j.scenario].Name
	}
	vary := ""
	if s.varyKey != "" {
		vary = s.varyValues[j.vary]
	}
	return pairIDOf(name, vary, s.profiles[j.profile].Name(), s.jobFixes(j).String(), j.seed)
}

func (l *comparePairLine) id() string {
	return pairIDOf(l.Scenario, l.VaryValue, l.Profile, l.Fixes, l.Seed)
}

func pairIDOf(scenario, vary, profile, fixes string, seed uint64) string {
	id := fmt.Sprintf("%s seed %d profile %s", scenario, seed, profile)
	if vary != "" {
		id += " at " + vary
	}
	if fixes != "" {
		id += " fix " + fixes
	}
	return id
}

// JSONL is the shard file the pairs go to ("" for a report).
func (s *Setup) JSONL() string { return s.f.jsonl }
