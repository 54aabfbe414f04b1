package campaign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKind: a file is a compare shard, an explore shard or else a
// sweep's, by its first line.
func TestKind(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ first, want string }{
		{`{"tierfetch_compare": 1, "shard": "0/2"}`, "compare"},
		{`{"tierfetch_explore": 1}`, "explore"},
		{`{"format": "tierfetch-sweep"}`, "sweep"},
		{`not json`, "sweep"},
		{``, "sweep"},
	} {
		path := filepath.Join(dir, "f.jsonl")
		os.WriteFile(path, []byte(c.first+"\n{}\n"), 0o644)
		if c.first == "" {
			os.WriteFile(path, nil, 0o644)
		}
		if got, err := Kind(path); err != nil || got != c.want {
			t.Errorf("%q: %s %v, want %s", c.first, got, err, c.want)
		}
	}
	if _, err := Kind(filepath.Join(dir, "none")); err == nil {
		t.Error("a missing file: no error")
	}
}

// TestDecodeBlankLine: a blank line in a shard file (an editor's extra
// newline) is named as such, not "unexpected end of JSON input".
func TestDecodeBlankLine(t *testing.T) {
	l := NewLines("s.jsonl", strings.NewReader("{\"a\":1}\n\n"))
	var v struct {
		A int `json:"a"`
	}
	if ok, err := l.Decode(&v); !ok || err != nil {
		t.Fatalf("line 1: %v %v", ok, err)
	}
	if _, err := l.Decode(&v); err == nil || err.Error() != "s.jsonl:2: a blank line, want a JSON object (shard files have none)" {
		t.Errorf("line 2: %v", err)
	}
}
