package sim

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
)

// Trace records a run as one stable, human-readable line per event. It keeps
// the last lines in a bounded ring (for failure reports), can hand every line
// to a sink (for --trace), and folds every line into a rolling SHA-256 digest:
// the same seed and binary give the same digest on any machine.
//
// The ring holds byte buffers it reuses (each line with its newline, the
// bytes the digest reads), so recording a line allocates nothing once the
// ring has warmed up; strings are made only for a sink and for Last.
type Trace struct {
	ring  [][]byte
	next  int // ring index the next line goes to
	full  bool
	count int64
	h     hash.Hash
	sink  func(line string)
}

// NewTrace returns a trace that keeps the last keep lines (keep >= 1) and
// passes each line to sink when sink is not nil.
func NewTrace(keep int, sink func(line string)) *Trace {
	if keep < 1 {
		panic("sim: trace must keep at least one line")
	}
	return &Trace{ring: make([][]byte, keep), h: sha256.New(), sink: sink}
}

// Add records one line.
func (t *Trace) Add(line string) {
	t.add(append(t.ring[t.next][:0], line...), line)
}

// AddBytes records one line held in a buffer the caller may reuse at once.
func (t *Trace) AddBytes(line []byte) {
	t.add(append(t.ring[t.next][:0], line...), "")
}

// add records the line in buf (the ring slot's buffer, reused); line is the
// same text as a string when the caller has one.
func (t *Trace) add(buf []byte, line string) {
	buf = append(buf, '\n')
	t.h.Write(buf)
	t.count++
	t.ring[t.next] = buf
	t.next++
	if t.next == len(t.ring) {
		t.next, t.full = 0, true
	}
	if t.sink != nil {
		if line == "" {
			line = string(buf[:len(buf)-1])
		}
		t.sink(line)
	}
}

// Lines returns how many lines were recorded.
func (t *Trace) Lines() int64 { return t.count }

// Last returns up to n of the most recent lines, oldest first.
func (t *Trace) Last(n int) []string {
	size := t.next
	if t.full {
		size = len(t.ring)
	}
	if n > size {
		n = size
	}
	out := make([]string, 0, n)
	for i := n; i > 0; i-- {
		j := (t.next - i + len(t.ring)) % len(t.ring)
		out = append(out, string(t.ring[j][:len(t.ring[j])-1]))
	}
	return out
}

// Digest returns the hex SHA-256 of every line so far, each followed by a
// newline: the digest of the trace text a sink would have written.
func (t *Trace) Digest() string {
	return hex.EncodeToString(t.h.Sum(nil))
}
