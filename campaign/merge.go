package campaign

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"tierfetch/config"
)

// Span is what a merge checks the shard files' jobs against, and the words
// its messages name them with.
type Span struct {
	// From..To are the campaign's jobs (inclusive).
	From, To uint64
	// Unit and Units name a job ("seed", "seeds"; "job", "jobs"), Whole the
	// campaign ("sweep", "comparison").
	Unit, Units, Whole string
	// ResumeField and StopField are the header's fields that bound a part
	// of an interrupted shard ("resume_from", "stopped_at").
	ResumeField, StopField string
}

// Part is one shard file being merged: its job lines, read a line at a
// time, in rising job order.
type Part[L any] struct {
	Lines *Lines // the file, its header read
	Shard Shard
	// Lo is the first job the file may hold: where its part was resumed,
	// else From.
	Lo uint64
	// StoppedAt, when not nil, is the first job the file does not hold:
	// its part was interrupted there.
	StoppedAt *uint64
	// Job is the job of a line.
	Job func(l *L) uint64
	// Check checks a line beyond its job (nil: nothing more); its error is
	// prefixed with the file and line.
	Check func(l *L) error

	idx  int
	line L
	done bool
	last uint64 // the previous job read
	any  bool   // a job line was read
}

// Merge reads the parts, shard files of one campaign whose headers the
// caller checked, and calls fold with every job of sp, in job order, with
// its line, whatever shards the files hold. It checks that each line is
// within sp and its file's header, the file's shard's and after the file's
// previous one, that no two files hold a job, and that every job is in a
// file; fold may be nil to only check. Memory does not grow with the
// number of jobs: each file is read a line at a time.
func Merge[L any](sp Span, parts []*Part[L], fold func(job uint64, l *L)) error {
	live := make(partHeap[L], 0, len(parts))
	for i, p := range parts {
		p.idx = i
		if err := p.advance(&sp); err != nil {
			return err
		}
		if !p.done {
			live = append(live, p)
		}
	}
	heap.Init(&live)
	m := gaps[L]{sp: &sp, parts: parts}
	// Walk the jobs the files hold, counting the gaps between them at
	// once: the cost grows with the lines, not with the span.
	job, more := sp.From, true
	for ; more; job, more = Whole.Next(job, sp.To) {
		if len(live) == 0 {
			m.addRange(job, sp.To)
			break
		}
		p := live[0]
		if next := p.Job(&p.line); next > job {
			m.addRange(job, next-1)
			job = next
		}
		if err := p.checkOnly(&sp, live, job); err != nil {
			return err
		}
		if fold != nil {
			fold(job, &p.line)
		}
		if err := p.advance(&sp); err != nil {
			return err
		}
		if p.done {
			heap.Pop(&live)
		} else {
			heap.Fix(&live, 0)
		}
	}
	return m.err()
}

// advance reads the next job line and checks it against the span and the
// file's header.
func (p *Part[L]) advance(sp *Span) error {
	var l L
	ok, err := p.Lines.Decode(&l)
	if err != nil {
		return err
	}
	if !ok {
		p.done = true
		return nil
	}
	p.line = l
	at := fmt.Sprintf("%s:%d", p.Lines.Name(), p.Lines.Line())
	j := p.Job(&p.line)
	switch {
	case j < sp.From || j > sp.To:
		return fmt.Errorf("%s: %s %d outside the %s's %s %d..%d", at, sp.Unit, j, sp.Whole, sp.Units, sp.From, sp.To)
	case j < p.Lo || (p.StoppedAt != nil && j >= *p.StoppedAt):
		return fmt.Errorf("%s: %s %d outside the %s the header says the file holds (%s %d, %s %s)",
			at, sp.Unit, j, sp.Units, sp.ResumeField, p.Lo, sp.StopField, jobOrNone(p.StoppedAt))
	case !p.Shard.Holds(sp.From, j):
		return fmt.Errorf("%s: %s %d is not shard %s's", at, sp.Unit, j, p.Shard)
	case p.any && j <= p.last:
		return fmt.Errorf("%s: %s %d after %s %d: %s must rise", at, sp.Unit, j, sp.Unit, p.last, sp.Units)
	}
	if p.Check != nil {
		if err := p.Check(&p.line); err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
	}
	p.last, p.any = j, true
	return nil
}

// checkOnly checks that no other file also holds job (the heap's top is p).
func (p *Part[L]) checkOnly(sp *Span, live partHeap[L], job uint64) error {
	for _, i := range []int{1, 2} { // the second smallest is a child of the root
		if i < len(live) && live[i].Job(&live[i].line) == job {
			return fmt.Errorf("%s %d is in both %s (shard %s) and %s (shard %s): overlapping shards",
				sp.Unit, job, p.Lines.Name(), p.Shard, live[i].Lines.Name(), live[i].Shard)
		}
	}
	return nil
}

// partHeap orders the files by their current job (then by position on the
// command line, so messages do not depend on the heap's moves).
type partHeap[L any] []*Part[L]

func (h partHeap[L]) Len() int { return len(h) }
func (h partHeap[L]) Less(i, j int) bool {
	a, b := h[i].Job(&h[i].line), h[j].Job(&h[j].line)
	if a != b {
		return a < b
	}
	return h[i].idx < h[j].idx
}
func (h partHeap[L]) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *partHeap[L]) Push(x any)   { *h = append(*h, x.(*Part[L])) }
func (h *partHeap[L]) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// gaps collects the jobs no file holds, for one error at the end.
type gaps[L any] struct {
	sp    *Span
	parts []*Part[L]
	n     uint64
	first []uint64
}

// addRange adds the jobs a..b (a <= b); the count saturates at 2^64-1.
func (m *gaps[L]) addRange(a, b uint64) {
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

func (m *gaps[L]) err() error {
	if m.n == 0 {
		return nil
	}
	sp := m.sp
	msg := fmt.Sprintf("%d of the %s's %s %d..%d are in no file (first: %v)", m.n, sp.Whole, sp.Units, sp.From, sp.To, m.first)
	// Name the shards that would hold the first missing job, by the
	// splits the files use.
	var shards []string
	for _, p := range m.parts {
		want := Shard{K: (m.first[0] - sp.From) % p.Shard.N, N: p.Shard.N}.String()
		if !slices.Contains(shards, want) {
			shards = append(shards, want)
		}
	}
	msg = fmt.Sprintf("%s: shard %s is absent or incomplete", msg, strings.Join(shards, " or "))
	format, args := strings.ReplaceAll(msg, "%", "%%"), []any(nil)
	for _, p := range m.parts {
		if st := p.StoppedAt; st != nil {
			format += "; %s stopped at %s %d (interrupted: resume it with {ResumeFrom} %d)"
			args = append(args, p.Lines.Name(), sp.Unit, *st, *st)
		}
	}
	if args == nil {
		return errors.New(msg)
	}
	return config.Errorf("ResumeFrom", format, args...) // the command names the flag
}

func jobOrNone(p *uint64) string {
	if p == nil {
		return "none"
	}
	return strconv.FormatUint(*p, 10)
}

// MissingShards counts the distinct shards of a split in n that shards
// (all of that split) are, and lists up to five of those none of them is.
func MissingShards(shards []Shard, n uint64) (given int, missing []Shard) {
	have := map[uint64]bool{}
	for _, s := range shards {
		have[s.K] = true
	}
	for k := uint64(0); k < n && len(missing) < 5; k++ {
		if !have[k] {
			missing = append(missing, Shard{K: k, N: n})
		}
	}
	return len(have), missing
}

// CheckSplit checks that shards, the shards of one campaign's files, are
// every shard of one split, each once (a search's: its shards are not
// resumed in parts).
func CheckSplit(shards []Shard) error {
	if len(shards) == 0 {
		return errors.New("no shards")
	}
	n := shards[0].N
	seen := make([]bool, n)
	for _, s := range shards {
		if s.N != n {
			return fmt.Errorf("shards of different splits: %s and %s", shards[0], s)
		}
		if seen[s.K] {
			return fmt.Errorf("shard %s given twice", s)
		}
		seen[s.K] = true
	}
	if i := slices.Index(seen, false); i >= 0 {
		return fmt.Errorf("shard %d/%d missing", i, n)
	}
	return nil
}
