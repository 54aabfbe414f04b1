package campaign

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"tierfetch/scenarios"
)

// A shard file is JSON Lines: one header line naming the campaign
// ({"tierfetch_KIND": 1, "shard": "K/N", ..., "content_digest": ...}),
// then one line per job the file holds, in job order (an explore shard
// holds one: its search's result). Kind reads which campaign a file is of.

// Kinds of shard file, by the key of their header's format version.
const (
	KindSweep   = "sweep"   // tierfetch_sweep: a sweep's seeds
	KindCompare = "compare" // tierfetch_compare: a comparison's pairs
	KindExplore = "explore" // tierfetch_explore: a search's shard
)

// MaxLineBytes bounds one line of a sweep's or a comparison's shard file
// (a seed line with long failure messages, or a pair of about two
// kilobytes, stays far below).
const MaxLineBytes = 1 << 20

// Kind reads the first line of the shard file name: KindCompare or
// KindExplore when its header says so, KindSweep for anything else (the
// sweep's merge reports what is wrong with it).
func Kind(name string) (string, error) {
	file, err := scenarios.OpenInput(name)
	if err != nil {
		return "", err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	if !sc.Scan() {
		return KindSweep, nil
	}
	var head map[string]json.RawMessage
	if json.Unmarshal(sc.Bytes(), &head) == nil {
		for _, k := range []string{KindCompare, KindExplore} {
			if _, ok := head["tierfetch_"+k]; ok {
				return k, nil
			}
		}
	}
	return KindSweep, nil
}

// WriteLine writes v as one line of JSON.
func WriteLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// PaddedLine is v as one line of JSON, padded with spaces (JSON allows
// them) to the length of longest, the same header with every field that
// may change at its longest: a header can be rewritten in place, when the
// part stops, without moving the lines after it.
func PaddedLine(v, longest any) ([]byte, error) {
	full, err := json.Marshal(longest)
	if err != nil {
		return nil, err
	}
	line, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(line) > len(full) {
		return nil, fmt.Errorf("campaign: header of %d bytes longer than its longest form (%d)", len(line), len(full))
	}
	line = append(line, bytes.Repeat([]byte{' '}, len(full)-len(line))...)
	return append(line, '\n'), nil
}

// Lines reads a shard file a line at a time, counting lines for messages.
type Lines struct {
	name string
	sc   *bufio.Scanner
	n    int // lines read
}

// NewLines reads r, the file name (named in messages).
func NewLines(name string, r io.Reader) *Lines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	return &Lines{name: name, sc: sc}
}

// Name is the file's name.
func (l *Lines) Name() string { return l.name }

// Line is the number of the line last read (1 for the header).
func (l *Lines) Line() int { return l.n }

// Scan reads the next line; false at the end or on an error (Err).
func (l *Lines) Scan() bool {
	if !l.sc.Scan() {
		return false
	}
	l.n++
	return true
}

// Bytes is the line last read.
func (l *Lines) Bytes() []byte { return l.sc.Bytes() }

// Err is the error that ended Scan, naming the file and line; nil at the
// end of the file.
func (l *Lines) Err() error {
	if err := l.sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", l.name, l.n+1, err)
	}
	return nil
}

// Decode reads the next line into v as strictly as a scenario file
// (scenarios.DecodeStrict); ok is false at the end of the file. An error
// names the file and line.
func (l *Lines) Decode(v any) (ok bool, err error) {
	if !l.Scan() {
		return false, l.Err()
	}
	if len(bytes.TrimSpace(l.Bytes())) == 0 {
		return false, fmt.Errorf("%s:%d: a blank line, want a JSON object (shard files have none)", l.name, l.n)
	}
	if err := scenarios.DecodeStrict(l.Bytes(), v); err != nil {
		return false, fmt.Errorf("%s:%d: %v", l.name, l.n, err)
	}
	return true, nil
}

// DigestText is a header's content digest as a message shows it.
func DigestText(d string) string {
	if d == "" {
		return "absent (a shard of an older simrun)"
	}
	return d
}

// CheckDigest checks the content_digest of the file name's header, got,
// against want, what this simrun makes of the campaign now. but says what
// gives want and why they differ, with %s for want: "this simrun gives %s
// for the sweep's options: ...".
func CheckDigest(name, got, want, but string) error {
	if got == want {
		return nil
	}
	return fmt.Errorf("%s: content_digest %s, but %s", name, DigestText(got), fmt.Sprintf(but, want))
}

// NotSame is the error for two shard files of different campaigns (a
// "sweep", a "comparison"): diff lists what differs.
func NotSame(a, b, campaign string, diff []string) error {
	return fmt.Errorf("%s and %s are not shards of the same %s: %s", a, b, campaign, strings.Join(diff, ", "))
}

// PartFile is the shard file of a part resumed at job next: FILE.jsonl
// becomes FILE.from-NEXT.jsonl (FILE.from-M.jsonl too, a part itself).
func PartFile(path string, next uint64) string {
	base, ok := strings.CutSuffix(path, ".jsonl")
	if !ok {
		base = path
	}
	if i := strings.LastIndex(base, ".from-"); i >= 0 && !strings.ContainsRune(base[i:], '/') {
		base = base[:i]
	}
	return fmt.Sprintf("%s.from-%d.jsonl", base, next)
}
