package campaign

import (
	"os"
	"path/filepath"
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
