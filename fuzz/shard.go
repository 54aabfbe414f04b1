package fuzz

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// Shard is one part of a sweep split across processes or machines: shard K
// of N runs the seeds s of from..to with (s-from) % N == K. Interleaving the
// seeds, rather than cutting the range into blocks, gives every shard the
// same mix of cheap and expensive seeds, so shards finish together.
//
// Invariant: K < N.
type Shard struct {
	K, N uint64
}

// WholeSweep is the shard that holds every seed.
var WholeSweep = Shard{K: 0, N: 1}

// shardsMax bounds N: a million-seed sweep on a thousand pods is already
// a thousand seeds a pod.
const shardsMax = 1_000_000

// ParseShard reads "K/N" with 0 <= K < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.ParseUint(a, 10, 64)
	n, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || n == 0 || n > shardsMax || k >= n {
		return Shard{}, fmt.Errorf("want K/N with 0 <= K < N <= %d, got %q", shardsMax, s)
	}
	return Shard{K: k, N: n}, nil
}

// String prints the shard as ParseShard reads it.
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Holds reports whether seed, of a sweep starting at from, is the shard's.
func (s Shard) Holds(from, seed uint64) bool { return seed >= from && (seed-from)%s.N == s.K }

// First returns the shard's first seed of from..to; ok is false when it has
// none.
func (s Shard) First(from, to uint64) (seed uint64, ok bool) {
	if to-from < s.K {
		return 0, false
	}
	return from + s.K, true
}

// FirstAt returns the shard's first seed of from..to at or above start (a
// resumed sweep's first seed); ok is false when it has none.
func (s Shard) FirstAt(from, start, to uint64) (uint64, bool) {
	first, ok := s.First(from, to)
	if !ok || first >= start {
		return first, ok
	}
	steps := (start - first + s.N - 1) / s.N // seeds of the shard below start
	if steps > (to-first)/s.N {
		return 0, false
	}
	return first + steps*s.N, true
}

// Next returns the shard's seed after seed, ok false past to.
func (s Shard) Next(seed, to uint64) (uint64, bool) {
	if seed >= to || to-seed < s.N {
		return 0, false
	}
	return seed + s.N, true
}

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
	for seed := range SeedRange(h.From, last) {
		data, err := Generate(seed).Marshal()
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
func NewSweepHeader(from, to uint64, sh Shard, strategies []harness.Strategy, profile, mutant string, checkDeterminism bool) SweepHeader {
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
	full, err := json.Marshal(longest)
	if err != nil {
		return nil, err
	}
	line, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	line = append(line, bytes.Repeat([]byte{' '}, len(full)-len(line))...)
	return append(line, '\n'), nil
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

func writeLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ShardSource is one shard file to merge: a name for messages and its text.
type ShardSource struct {
	Name string
	R    io.Reader
}

// MergeShards reads the shard files of one sweep and calls fold with every
// seed of it, in seed order, whatever shards the files hold. It checks
// that the files belong to the same sweep and hold every seed of it exactly
// once, and returns the whole sweep's header (Shard "0/1"). fold may be nil
// to only check. Memory does not grow with the number of seeds: each file
// is read a line at a time.
func MergeShards(srcs []ShardSource, fold func(r SeedResult, mismatch string)) (SweepHeader, error) {
	if len(srcs) == 0 {
		return SweepHeader{}, errors.New("no shard files")
	}
	cur := make(cursorHeap, len(srcs))
	for i, src := range srcs {
		c, err := openCursor(i, src)
		if err != nil {
			return SweepHeader{}, err
		}
		cur[i] = c
		if i > 0 {
			if err := sameSweep(cur[0], c); err != nil {
				return SweepHeader{}, err
			}
		}
	}
	whole := cur[0].header
	whole.Shard = WholeSweep.String()
	if d := whole.Digest(); d != whole.ContentDigest {
		return SweepHeader{}, fmt.Errorf("%s: content_digest %s, but this simrun gives %s for the sweep's options: the shards were made by another simrun (its generator differs); merge with that simrun",
			cur[0].name, digestText(whole.ContentDigest), d)
	}
	live := make(cursorHeap, 0, len(cur))
	for _, c := range cur {
		if err := c.advance(); err != nil {
			return SweepHeader{}, err
		}
		if !c.done {
			live = append(live, c)
		}
	}
	heap.Init(&live)
	m := missing{from: whole.From, cursors: cur}
	// Walk the seeds the files hold, counting the gaps between them at
	// once: the cost grows with the lines, not with the header's range.
	seed, more := whole.From, true
	for ; more; seed, more = WholeSweep.Next(seed, whole.To) {
		if len(live) == 0 {
			m.addRange(seed, whole.To)
			break
		}
		if next := live[0].line.Seed; next > seed {
			m.addRange(seed, next-1)
			seed = next
		}
		c := live[0]
		if err := c.checkOnly(live, seed); err != nil {
			return SweepHeader{}, err
		}
		if fold != nil {
			fold(c.result(), c.line.Mismatch)
		}
		if err := c.advance(); err != nil {
			return SweepHeader{}, err
		}
		if c.done {
			heap.Pop(&live)
		} else {
			heap.Fix(&live, 0)
		}
	}
	if err := m.err(whole); err != nil {
		return SweepHeader{}, err
	}
	return whole, nil
}

// cursor reads one shard file a line at a time.
type cursor struct {
	idx    int
	name   string
	sc     *bufio.Scanner
	lineNo int
	header SweepHeader
	shard  Shard
	line   seedLine // the current seed line, when !done
	done   bool
	last   uint64 // the previous seed read
	any    bool   // a seed line was read
	lo     uint64 // the first seed the file may hold (resume_from, else from)
}

// maxLineBytes bounds one line of a shard file (a seed line with long
// failure messages stays far below).
const maxLineBytes = 1 << 20

func openCursor(idx int, src ShardSource) (*cursor, error) {
	c := &cursor{idx: idx, name: src.Name, sc: bufio.NewScanner(src.R)}
	c.sc.Buffer(make([]byte, 64<<10), maxLineBytes)
	if !c.sc.Scan() {
		if err := c.sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %v", c.name, err)
		}
		return nil, fmt.Errorf("%s: empty: not a shard file (want a sweep header line first)", c.name)
	}
	c.lineNo = 1
	if err := scenarios.DecodeStrict(c.sc.Bytes(), &c.header); err != nil {
		return nil, fmt.Errorf("%s:1: not a shard file header (want {\"tierfetch_sweep\": %d, ...}): %v", c.name, ShardFormat, err)
	}
	if c.header.Format == 0 {
		return nil, fmt.Errorf("%s:1: not a shard file header: tierfetch_sweep: want %d, got none", c.name, ShardFormat)
	}
	h := &c.header
	if h.Format != ShardFormat {
		return nil, fmt.Errorf("%s:1: shard file format %d, this simrun reads %d", c.name, h.Format, ShardFormat)
	}
	if h.To < h.From {
		return nil, fmt.Errorf("%s:1: seeds %d..%d: from > to", c.name, h.From, h.To)
	}
	c.lo = h.From
	if h.ResumeFrom != nil {
		if *h.ResumeFrom < h.From || *h.ResumeFrom > h.To {
			return nil, fmt.Errorf("%s:1: resume_from: seed %d outside the sweep's seeds %d..%d", c.name, *h.ResumeFrom, h.From, h.To)
		}
		c.lo = *h.ResumeFrom
	}
	if h.StoppedAt != nil && (*h.StoppedAt < c.lo || *h.StoppedAt > h.To) {
		return nil, fmt.Errorf("%s:1: stopped_at: seed %d outside the file's seeds %d..%d", c.name, *h.StoppedAt, c.lo, h.To)
	}
	if h.MaxSteps < 0 || h.MaxSteps > harness.MaxStepsLimit {
		return nil, fmt.Errorf("%s:1: max_steps: want 0 (the default) or 1..%d, got %d", c.name, int64(harness.MaxStepsLimit), h.MaxSteps)
	}
	if h.Mutant != "" && !validMutants(h.Mutant) {
		return nil, fmt.Errorf("%s:1: mutant: unknown mutant %q", c.name, shortText(h.Mutant))
	}
	if _, err := ParseFixes(h.Fix); err != nil {
		return nil, fmt.Errorf("%s:1: fix: unknown fix in %q", c.name, shortText(h.Fix))
	}
	sh, err := ParseShard(h.Shard)
	if err != nil {
		return nil, fmt.Errorf("%s:1: shard: %v", c.name, err)
	}
	c.shard = sh
	if len(h.Strategies) == 0 {
		return nil, fmt.Errorf("%s:1: strategies: none", c.name)
	}
	for _, st := range h.Strategies {
		if !slices.Contains(harness.Strategies, st) {
			return nil, fmt.Errorf("%s:1: strategies: unknown strategy %q", c.name, st)
		}
	}
	if want := NewSweepHeader(0, 0, WholeSweep, nil, "", "", false).Goals; !slices.Equal(h.Goals, want) {
		return nil, fmt.Errorf("%s:1: goals %v differ from this simrun's %v: merge with the simrun that wrote the shards", c.name, h.Goals, want)
	}
	return c, nil
}

// sameSweep checks that b is a shard of the same sweep as a.
// digestText is a header's content digest as a message shows it.
func digestText(d string) string {
	if d == "" {
		return "absent (a shard of an older simrun)"
	}
	return d
}

func sameSweep(a, b *cursor) error {
	x, y := a.header, b.header
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
		diff = append(diff, fmt.Sprintf("content_digest %s vs %s (made by different simruns)", digestText(x.ContentDigest), digestText(y.ContentDigest)))
	}
	if len(diff) > 0 {
		return fmt.Errorf("%s and %s are not shards of the same sweep: %s", a.name, b.name, strings.Join(diff, ", "))
	}
	return nil
}

// advance reads the next seed line and checks it against the header.
func (c *cursor) advance() error {
	if !c.sc.Scan() {
		if err := c.sc.Err(); err != nil {
			return fmt.Errorf("%s:%d: %v", c.name, c.lineNo+1, err)
		}
		c.done = true
		return nil
	}
	c.lineNo++
	c.line = seedLine{}
	if err := scenarios.DecodeStrict(c.sc.Bytes(), &c.line); err != nil {
		return fmt.Errorf("%s:%d: %v", c.name, c.lineNo, err)
	}
	h, l := &c.header, &c.line
	switch {
	case l.Seed < h.From || l.Seed > h.To:
		return fmt.Errorf("%s:%d: seed %d outside the sweep's seeds %d..%d", c.name, c.lineNo, l.Seed, h.From, h.To)
	case l.Seed < c.lo || (h.StoppedAt != nil && l.Seed >= *h.StoppedAt):
		return fmt.Errorf("%s:%d: seed %d outside the seeds the header says the file holds (resume_from %d, stopped_at %s)",
			c.name, c.lineNo, l.Seed, c.lo, seedOrNone(h.StoppedAt))
	case !c.shard.Holds(h.From, l.Seed):
		return fmt.Errorf("%s:%d: seed %d is not shard %s's", c.name, c.lineNo, l.Seed, c.shard)
	case c.any && l.Seed <= c.last:
		return fmt.Errorf("%s:%d: seed %d after seed %d: seeds must rise", c.name, c.lineNo, l.Seed, c.last)
	case len(l.Runs) != len(h.Strategies):
		return fmt.Errorf("%s:%d: seed %d has %d runs, want one per strategy (%d)", c.name, c.lineNo, l.Seed, len(l.Runs), len(h.Strategies))
	}
	for i, run := range l.Runs {
		if err := checkRunLine(run, h.Strategies[i]); err != nil {
			return fmt.Errorf("%s:%d: seed %d runs[%d]: %v", c.name, c.lineNo, l.Seed, i, err)
		}
	}
	c.last, c.any = l.Seed, true
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

// checkOnly checks that no other file also holds seed (the heap's top is c).
func (c *cursor) checkOnly(live cursorHeap, seed uint64) error {
	for _, i := range []int{1, 2} { // the second smallest is a child of the root
		if i < len(live) && live[i].line.Seed == seed {
			return fmt.Errorf("seed %d is in both %s (shard %s) and %s (shard %s): overlapping shards",
				seed, c.name, c.shard, live[i].name, live[i].shard)
		}
	}
	return nil
}

// result converts the current line back to a SeedResult.
func (c *cursor) result() SeedResult {
	r := SeedResult{Seed: c.line.Seed, Runs: make([]RunSummary, len(c.line.Runs))}
	for i, l := range c.line.Runs {
		r.Runs[i] = RunSummary{Strategy: l.Strategy, Outcome: l.Outcome, Invariant: l.Invariant, Kind: l.Kind,
			Message: l.Message, Step: l.Step, AtMs: l.AtMs, Steps: l.Steps, Digest: l.Digest}
		copy(r.Runs[i].Coverage[:], l.Coverage)
	}
	return r
}

// cursorHeap orders the files by their current seed (then by position on
// the command line, so messages do not depend on the heap's moves).
type cursorHeap []*cursor

func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	if h[i].line.Seed != h[j].line.Seed {
		return h[i].line.Seed < h[j].line.Seed
	}
	return h[i].idx < h[j].idx
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// missing collects the seeds no file holds, for one error at the end.
type missing struct {
	from    uint64
	cursors []*cursor
	n       uint64
	first   []uint64
}

// addRange adds the seeds a..b (a <= b); the count saturates at 2^64-1.
func (m *missing) addRange(a, b uint64) {
	if n := b - a + 1; n == 0 || m.n+n < m.n {
		m.n = math.MaxUint64
	} else {
		m.n += n
	}
	for s := a; len(m.first) < 5; s++ {
		m.first = append(m.first, s)
		if s == b {
			break
		}
	}
}

func (m *missing) err(h SweepHeader) error {
	if m.n == 0 {
		return nil
	}
	msg := fmt.Sprintf("%d of the sweep's seeds %d..%d are in no file (first: %v)", m.n, h.From, h.To, m.first)
	// Name the shards that would hold the first missing seed, by the
	// splits the files use.
	var hints []string
	for _, c := range m.cursors {
		want := Shard{K: (m.first[0] - m.from) % c.shard.N, N: c.shard.N}
		hint := fmt.Sprintf("shard %s", want)
		if !slices.Contains(hints, hint) {
			hints = append(hints, hint)
		}
	}
	for _, c := range m.cursors {
		if st := c.header.StoppedAt; st != nil {
			hints = append(hints, fmt.Sprintf("%s stopped at seed %d (interrupted: resume it with --resume-from %d)", c.name, *st, *st))
		}
	}
	return fmt.Errorf("%s: %s is absent or incomplete", msg, strings.Join(hints, "; "))
}

func seedOrNone(p *uint64) string {
	if p == nil {
		return "none"
	}
	return strconv.FormatUint(*p, 10)
}

// ParseSeed reads a seed strictly: decimal digits only, 0..2^64-1 (no sign,
// space, exponent, fraction, base prefix or underscore).
func ParseSeed(s string) (uint64, error) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return 0, fmt.Errorf("want a seed in 0..18446744073709551615 (decimal digits), got %q", s)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want a seed in 0..18446744073709551615 (decimal digits), got %q", s)
	}
	return n, nil
}

// ParseSeeds reads a seed range "A..B" (inclusive) or one seed "N",
// strictly (ParseSeed).
func ParseSeeds(s string) (from, to uint64, err error) {
	a, b, isRange := strings.Cut(s, "..")
	from, err1 := ParseSeed(a)
	to = from
	var err2 error
	if isRange {
		to, err2 = ParseSeed(b)
	}
	if err1 != nil || err2 != nil || to < from {
		return 0, 0, fmt.Errorf("want A..B with A <= B (or one seed), got %q", s)
	}
	return from, to, nil
}

// SeedFlag is a strictly parsed seed flag (a pflag.Value): N, and whether
// it was given.
type SeedFlag struct {
	N     uint64
	Given bool
}

func (f *SeedFlag) String() string { return strconv.FormatUint(f.N, 10) }

// Type names the flag's value in help.
func (f *SeedFlag) Type() string { return "seed" }

// Set parses s (ParseSeed).
func (f *SeedFlag) Set(s string) error {
	n, err := ParseSeed(s)
	if err != nil {
		return err
	}
	f.N, f.Given = n, true
	return nil
}
