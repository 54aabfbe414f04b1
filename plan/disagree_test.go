package plan

import (
	"errors"
	"strings"
	"testing"
)

// TestDisagreeNamesTheOffsetsLine: an offset no log can hold is reported at
// the file and line it came from ("FILE:LINE"); a From with no line, one
// whose tail is not a number, or one with no file before its line, is the
// file itself; an offset no file gave is
// "the offsets" in the notes that name where an offset came from.
func TestDisagreeNamesTheOffsetsLine(t *testing.T) {
	for _, c := range []struct {
		from, file string
		line       int
	}{
		{"latest.txt:7", "latest.txt", 7},
		{"dir:a/latest.txt", "dir:a/latest.txt", 0},
		{":7", ":7", 0},
		{"latest.txt", "latest.txt", 0},
	} {
		var te *ToolError
		err := disagree(Offset{From: c.from}, "bad")
		if !errors.As(err, &te) || te.File != c.file || te.Line != c.line || te.Msg != "bad" {
			t.Errorf("From %q: %#v, want file %q, line %d", c.from, err, c.file, c.line)
		}
	}
	if got := offsetFile(Offset{}); got != "the offsets" {
		t.Errorf("no file: %q", got)
	}
	if got := offsetFile(Offset{From: "f.txt:3"}); got != "f.txt:3" {
		t.Errorf("a file: %q", got)
	}
}

// TestLatestAtTheOffsetLimit: a latest offset at the simulator's limit is
// taken, one past it refused with both numbers named.
func TestLatestAtTheOffsetLimit(t *testing.T) {
	for _, hw := range []int64{offsetLimit, offsetLimit + 1} {
		b := &builder{in: &Input{}, f: &Facts{Offsets: map[Time]Offset{
			TimeEarliest: {Value: 0, Known: true, From: "e.txt:1"},
			TimeLatest:   {Value: hw, Known: true, From: "l.txt:1"}, TimeEarliestLocal: {Value: 0, Known: true, From: "el.txt:1"},
		}}}
		err := b.logOffsets()
		refused := err != nil && strings.Contains(err.Error(), "is beyond the simulator's offset limit")
		if refused != (hw > offsetLimit) {
			t.Errorf("latest %d: %v", hw, err)
		}
	}
}
