package fuzz

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/cespare/xxhash/v2"

	"tierfetch/campaign"
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// ShardFormat is the version of the shard file format; merge refuses others.
const ShardFormat = 1

// SweepHeader is the first line of a shard file: which sweep the file is a
// part of. Shards of one sweep agree on everything but Shard.
type SweepHeader struct {
	Format     int                `json:"tierfetch_sweep"`
	From       uint64             `json:"from"`
	To         uint64             `json:"to"`
	Shard      string             `json:"shard"`
	Strategies []harness.Strategy `json:"strategies"`
	Profile    string             `json:"profile"`
	Mutant     string             `json:"mutant"`
	// Fix is the sweep's --fix as given; absent: none.
	Fix              string `json:"fix,omitempty"`
	CheckDeterminism bool   `json:"check_determinism"`
	// MaxSteps is the sweep's work budget per run; 0 (absent) is
	// DefaultMaxSteps.
	MaxSteps int64 `json:"max_steps,omitempty"`
	// ResumeFrom, when present, is the first seed of from..to this file
	// holds (a sweep resumed with --resume-from); absent: from.
	ResumeFrom *uint64 `json:"resume_from,omitempty"`
	// StoppedAt, when present, is the first seed this file does not hold:
	// the sweep was interrupted there (the header is rewritten in place
	// when it stops); absent: the file holds its seeds up to to.
	StoppedAt *uint64 `json:"stopped_at,omitempty"`
	// Goals names the coverage goals in the order each run's coverage
	// lists them.
	Goals []string `json:"goals"`
	// ContentDigest is the header's Digest: what fixes the seeds' results,
	// so merge refuses shards another simrun made.
	ContentDigest string `json:"content_digest"`
}

// digestSeeds is how many seeds' generated scenarios a sweep's content
// digest covers: the generator is the binary's code, and a changed one
// changes the first scenarios as surely as the last.
const digestSeeds = 64

// Digest is what a sweep shard header's content_digest holds: XXH64 (16
// hex digits) of the options that fix the seeds' results (strategies,
// profile, mutant, determinism check, work budget) and the canonical text
// of the scenarios digestSeeds seeds from the first generate (the
// generator's fingerprint: the seed range itself is checked apart). Shards
// whose digests differ, or differ from the merging simrun's, are not one
// sweep's.
func (h *SweepHeader) Digest() string {
	d := xxhash.New()
	fmt.Fprintf(d, "sweep strategies %v profile %q mutant %q determinism %v max_steps %d\n",
		h.Strategies, h.Profile, h.Mutant, h.CheckDeterminism, h.MaxSteps)
	if h.Fix != "" {
		fmt.Fprintf(d, "fix %q\n", h.Fix) // a sweep without fixes keeps its digest
	}
	last := h.From + digestSeeds - 1
	if last < h.From {
		last = math.MaxUint64
	}
	for seed := range campaign.SeedRange(h.From, last) {
		data, err := gen.Generate(seed).Marshal()
		if err != nil {
			data = []byte(err.Error())
		}
		fmt.Fprintf(d, "seed %d %d\n", seed, len(data))
		d.Write(data)
	}
	return fmt.Sprintf("%016x", d.Sum64())
}

// NewSweepHeader describes shard sh of a sweep over from..to, with its
// content digest.
func NewSweepHeader(from, to uint64, sh campaign.Shard, strategies []harness.Strategy, profile, mutant string, checkDeterminism bool) SweepHeader {
	h := SweepHeader{Format: ShardFormat, From: from, To: to, Shard: sh.String(), Strategies: strategies,
		Profile: profile, Mutant: mutant, CheckDeterminism: checkDeterminism}
	for g := model.Goal(0); g < model.NumGoals; g++ {
		h.Goals = append(h.Goals, g.String())
	}
	h.ContentDigest = h.Digest() // again if an option is set later
	return h
}

// seedLine is one seed of a shard file.
type seedLine struct {
	Seed     uint64    `json:"seed"`
	Runs     []runLine `json:"runs"`
	Mismatch string    `json:"mismatch,omitempty"` // --check-determinism found the seed nondeterministic
}

// runLine is a RunSummary; the violation fields are absent for a clean run.
type runLine struct {
	Strategy  harness.Strategy `json:"strategy"`
	Outcome   string           `json:"outcome"`
	Invariant string           `json:"invariant,omitempty"`
	Kind      string           `json:"kind,omitempty"`
	Message   string           `json:"message,omitempty"`
	Step      int64            `json:"step,omitempty"`
	AtMs      int64            `json:"at_ms,omitempty"`
	Steps     int64            `json:"steps"`
	Digest    string           `json:"digest"`
	Coverage  []int64          `json:"coverage"` // in the header's goal order
}

// WriteSweepHeader writes h as the first line of a shard file.
func WriteSweepHeader(w io.Writer, h SweepHeader) error {
	return writeLine(w, h)
}

// SweepHeaderLine is h as the first line of a shard file, padded with spaces
// (JSON allows them) to a length that does not depend on StoppedAt: the
// header can be rewritten in place when the sweep stops.
func SweepHeaderLine(h SweepHeader) ([]byte, error) {
	longest := h
	maxSeed := uint64(math.MaxUint64)
	longest.StoppedAt = &maxSeed
	return campaign.PaddedLine(h, longest)
}

// WriteSeedLine writes one seed's result (and the determinism mismatch
// found for it, if any) as one line of a shard file.
func WriteSeedLine(w io.Writer, r SeedResult, mismatch string) error {
	l := seedLine{Seed: r.Seed, Mismatch: mismatch, Runs: make([]runLine, len(r.Runs))}
	for i, run := range r.Runs {
		l.Runs[i] = runLine{Strategy: run.Strategy, Outcome: run.Outcome, Invariant: run.Invariant, Kind: run.Kind,
			Message: run.Message, Step: run.Step, AtMs: run.AtMs, Steps: run.Steps, Digest: run.Digest,
			Coverage: run.Coverage[:]}
	}
	return writeLine(w, l)
}

func writeLine(w io.Writer, v any) error { return campaign.WriteLine(w, v) }

// ShardSource is one shard file to merge: a name for messages and its text.
type ShardSource struct {
	Name string
	R    io.Reader
}

// sweepSpan is what merge checks a sweep's seed lines against.
func sweepSpan(h SweepHeader) campaign.Span {
	return campaign.Span{From: h.From, To: h.To, Unit: "seed", Units: "seeds", Whole: "sweep",
		ResumeField: "resume_from", StopField: "stopped_at"}
}

// MergeShards reads the shard files of one sweep and calls fold with every
// seed of it, in seed order, whatever shards the files hold
// (campaign.Merge). It checks that the files belong to the same sweep and
// hold every seed of it exactly once, and returns the whole sweep's header
// (Shard "0/1"). fold may be nil to only check. Memory does not grow with
// the number of seeds: each file is read a line at a time.
func MergeShards(srcs []ShardSource, fold func(r SeedResult, mismatch string)) (SweepHeader, error) {
	if len(srcs) == 0 {
		return SweepHeader{}, errors.New("no shard files")
	}
	parts := make([]*campaign.Part[seedLine], len(srcs))
	headers := make([]SweepHeader, len(srcs))
	for i, src := range srcs {
		p, h, err := openPart(src)
		if err != nil {
			return SweepHeader{}, err
		}
		parts[i], headers[i] = p, h
		if i > 0 {
			if err := sameSweep(srcs[0].Name, headers[0], src.Name, h); err != nil {
				return SweepHeader{}, err
			}
		}
	}
	whole := headers[0]
	whole.Shard = campaign.Whole.String()
	if err := campaign.CheckDigest(srcs[0].Name, whole.ContentDigest, whole.Digest(),
		"this simrun gives %s for the sweep's options: the shards were made by another simrun (its generator differs); merge with that simrun"); err != nil {
		return SweepHeader{}, err
	}
	var each func(uint64, *seedLine)
	if fold != nil {
		each = func(_ uint64, l *seedLine) { fold(l.result(), l.Mismatch) }
	}
	if err := campaign.Merge(sweepSpan(whole), parts, each); err != nil {
		return SweepHeader{}, err
	}
	return whole, nil
}

// openPart reads and checks the header of one shard file.
func openPart(src ShardSource) (*campaign.Part[seedLine], SweepHeader, error) {
	lines := campaign.NewLines(src.Name, src.R)
	name := src.Name
	var h SweepHeader
	if !lines.Scan() {
		if err := lines.Err(); err != nil {
			return nil, h, err
		}
		return nil, h, fmt.Errorf("%s: empty: not a shard file (want a sweep header line first)", name)
	}
	if err := scenarios.DecodeStrict(lines.Bytes(), &h); err != nil {
		return nil, h, fmt.Errorf("%s:1: not a shard file header (want {\"tierfetch_sweep\": %d, ...}): %v", name, ShardFormat, err)
	}
	if h.Format == 0 {
		return nil, h, fmt.Errorf("%s:1: not a shard file header: tierfetch_sweep: want %d, got none", name, ShardFormat)
	}
	if err := checkHeader(h); err != nil {
		return nil, h, fmt.Errorf("%s:1: %v", name, err)
	}
	sh, _ := campaign.ParseShard(h.Shard) // checked
	p := &campaign.Part[seedLine]{Lines: lines, Shard: sh, Lo: h.From, StoppedAt: h.StoppedAt,
		Job:   func(l *seedLine) uint64 { return l.Seed },
		Check: func(l *seedLine) error { return checkSeedLine(h, l) }}
	if h.ResumeFrom != nil {
		p.Lo = *h.ResumeFrom
	}
	return p, h, nil
}

// checkHeader checks a sweep shard file's header on its own.
func checkHeader(h SweepHeader) error {
	if h.Format != ShardFormat {
		return fmt.Errorf("shard file format %d, this simrun reads %d", h.Format, ShardFormat)
	}
	if h.To < h.From {
		return fmt.Errorf("seeds %d..%d: from > to", h.From, h.To)
	}
	lo := h.From
	if h.ResumeFrom != nil {
		if *h.ResumeFrom < h.From || *h.ResumeFrom > h.To {
			return fmt.Errorf("resume_from: seed %d outside the sweep's seeds %d..%d", *h.ResumeFrom, h.From, h.To)
		}
		lo = *h.ResumeFrom
	}
	if h.StoppedAt != nil && (*h.StoppedAt < lo || *h.StoppedAt > h.To) {
		return fmt.Errorf("stopped_at: seed %d outside the file's seeds %d..%d", *h.StoppedAt, lo, h.To)
	}
	if h.MaxSteps < 0 || h.MaxSteps > harness.MaxStepsLimit {
		return fmt.Errorf("max_steps: want 0 (the default) or 1..%d, got %d", int64(harness.MaxStepsLimit), h.MaxSteps)
	}
	if h.Mutant != "" && !validMutants(h.Mutant) {
		return fmt.Errorf("mutant: unknown mutant %q", shortText(h.Mutant))
	}
	if _, err := harness.ParseFixes(h.Fix); err != nil {
		return fmt.Errorf("fix: unknown fix in %q", shortText(h.Fix))
	}
	if _, err := campaign.ParseShard(h.Shard); err != nil {
		return fmt.Errorf("shard: %v", err)
	}
	if len(h.Strategies) == 0 {
		return errors.New("strategies: none")
	}
	for _, st := range h.Strategies {
		if !slices.Contains(harness.Strategies, st) {
			return fmt.Errorf("strategies: unknown strategy %q", st)
		}
	}
	if want := NewSweepHeader(0, 0, campaign.Whole, nil, "", "", false).Goals; !slices.Equal(h.Goals, want) {
		return fmt.Errorf("goals %v differ from this simrun's %v: merge with the simrun that wrote the shards", h.Goals, want)
	}
	return nil
}

// sameSweep checks that b, the header of file bn, is a shard of the same
// sweep as a, file an's.
func sameSweep(an string, x SweepHeader, bn string, y SweepHeader) error {
	var diff []string
	if x.From != y.From || x.To != y.To {
		diff = append(diff, fmt.Sprintf("seeds %d..%d vs %d..%d", x.From, x.To, y.From, y.To))
	}
	if !slices.Equal(x.Strategies, y.Strategies) {
		diff = append(diff, fmt.Sprintf("strategies %v vs %v", x.Strategies, y.Strategies))
	}
	if x.Profile != y.Profile {
		diff = append(diff, fmt.Sprintf("profile %q vs %q", x.Profile, y.Profile))
	}
	if x.Mutant != y.Mutant {
		diff = append(diff, fmt.Sprintf("mutant %q vs %q", x.Mutant, y.Mutant))
	}
	if x.Fix != y.Fix {
		diff = append(diff, fmt.Sprintf("fix %q vs %q", x.Fix, y.Fix))
	}
	if x.MaxSteps != y.MaxSteps {
		diff = append(diff, fmt.Sprintf("max_steps %d vs %d", x.MaxSteps, y.MaxSteps))
	}
	if x.CheckDeterminism != y.CheckDeterminism {
		diff = append(diff, fmt.Sprintf("check_determinism %v vs %v", x.CheckDeterminism, y.CheckDeterminism))
	}
	if x.ContentDigest != y.ContentDigest {
		diff = append(diff, fmt.Sprintf("content_digest %s vs %s (made by different simruns)",
			campaign.DigestText(x.ContentDigest), campaign.DigestText(y.ContentDigest)))
	}
	if len(diff) > 0 {
		return campaign.NotSame(an, bn, "sweep", diff)
	}
	return nil
}

// checkSeedLine checks a seed line's runs against its file's header h.
func checkSeedLine(h SweepHeader, l *seedLine) error {
	if len(l.Runs) != len(h.Strategies) {
		return fmt.Errorf("seed %d has %d runs, want one per strategy (%d)", l.Seed, len(l.Runs), len(h.Strategies))
	}
	for i, run := range l.Runs {
		if err := checkRunLine(run, h.Strategies[i]); err != nil {
			return fmt.Errorf("seed %d runs[%d]: %v", l.Seed, i, err)
		}
	}
	return nil
}

func checkRunLine(r runLine, st harness.Strategy) error {
	switch {
	case r.Strategy != st:
		return fmt.Errorf("strategy %q, want %q", r.Strategy, st)
	case r.Outcome != harness.OutcomeOK && r.Outcome != harness.OutcomeSafety && r.Outcome != harness.OutcomeLiveness && r.Outcome != harness.OutcomeBudget:
		return fmt.Errorf("unknown outcome %q", r.Outcome)
	case r.Outcome != harness.OutcomeOK && r.Invariant == "":
		return fmt.Errorf("outcome %s names no invariant", r.Outcome)
	case len(r.Coverage) != int(model.NumGoals):
		return fmt.Errorf("coverage has %d goals, want %d", len(r.Coverage), model.NumGoals)
	case r.Steps < 0:
		return fmt.Errorf("steps %d < 0", r.Steps)
	}
	return checkRunNames(r)
}

// validMutants reports whether s is a comma-separated list of known mutants.
func validMutants(s string) bool {
	for _, name := range strings.Split(s, ",") {
		if _, ok := model.MutantByName(strings.TrimSpace(name)); !ok {
			return false
		}
	}
	return true
}

// result converts the line back to a SeedResult.
func (sl *seedLine) result() SeedResult {
	r := SeedResult{Seed: sl.Seed, Runs: make([]harness.RunSummary, len(sl.Runs))}
	for i, l := range sl.Runs {
		r.Runs[i] = harness.RunSummary{Strategy: l.Strategy, Outcome: l.Outcome, Invariant: l.Invariant, Kind: l.Kind,
			Message: l.Message, Step: l.Step, AtMs: l.AtMs, Steps: l.Steps, Digest: l.Digest}
		copy(r.Runs[i].Coverage[:], l.Coverage)
	}
	return r
}
