package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestDefaultReportIsCurrent: the command docs/guide/compare.md gives regenerates the
// committed reports/default byte for byte (the report records the simrun
// version; a test binary, like go run -buildvcs=false, says "(devel)").
// It writes beside it, at the same depth, so the report's relative link to
// FINDINGS.md is the same; only the --out path in the commands differs.
func TestDefaultReportIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the default comparison")
	}
	t.Chdir("../..")
	out, err := os.MkdirTemp("reports", ".default-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(out) })
	if code, _, stderr := simrun(t, "compare", "--seeds", "1..10", "--out", out); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want, err := filepath.Glob("reports/default/*")
	if err != nil || len(want) == 0 {
		t.Fatalf("no committed report: %v", err)
	}
	got, _ := filepath.Glob(filepath.Join(out, "*"))
	if len(got) != len(want) {
		t.Errorf("regenerated %d files, reports/default holds %d", len(got), len(want))
	}
	for _, path := range want {
		committed, _ := os.ReadFile(path)
		fresh, err := os.ReadFile(filepath.Join(out, filepath.Base(path)))
		if err != nil {
			t.Errorf("%s not regenerated: %v", filepath.Base(path), err)
			continue
		}
		fresh = bytes.ReplaceAll(fresh, []byte("--out "+out), []byte("--out reports/default"))
		if !bytes.Equal(fresh, committed) {
			t.Errorf("%s differs from the regenerated one: run go run -buildvcs=false ./cmd/simrun compare --seeds 1..10 --out reports/default", path)
		}
	}
}
