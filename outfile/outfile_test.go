package outfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteAtomic: a new file and a regular file are written whole; a link
// stays a link and its target gets the bytes; a directory is refused.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	for _, data := range []string{"first", "second"} {
		if err := WriteAtomic(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Errorf("read %q, want %q", got, data)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(link, []byte("through")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if got, _ := os.ReadFile(path); string(got) != "through" {
		t.Errorf("target holds %q, want the bytes written through the link", got)
	}
	if err := WriteAtomic(dir, []byte("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("writing over a directory: %v, want refused", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

func TestEnsureDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := EnsureDir(dir); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := EnsureDir(file); err == nil {
		t.Error("a file accepted as an output directory")
	}
}

// TestCheckFile: a directory, or a file in a directory that does not
// exist, is refused before any work.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	if err := CheckFile(filepath.Join(dir, "t.svg")); err != nil {
		t.Errorf("a new file in a directory: %v", err)
	}
	if err := CheckFile(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	if err := CheckFile(filepath.Join(dir, "no", "t.svg")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("a missing directory: %v", err)
	}
}
