package outfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestManifestClearsOnlyWhatItListed: ClearDir removes the files the
// manifest lists (and the manifest), never a file it does not list, a
// directory, or a path outside the directory; OpenManifest then lists the
// new files.
func TestManifestClearsOnlyWhatItListed(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"out/a.json", "out/b.json", "out/mine.txt", "outside.txt"} {
		if err := os.WriteFile(filepath.Join(root, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := OpenManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.json", "b.json", "sub"} {
		if err := m.Add(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Add(filepath.Join(root, "outside.txt")); err == nil {
		t.Errorf("Add of a file outside the directory: no error")
	}
	m.Close()
	// A hand-edited manifest naming a path outside is ignored.
	f, _ := os.OpenFile(filepath.Join(dir, ManifestName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("../outside.txt\n")
	f.Close()

	c, err := ClearDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if !slices.Equal(left, []string{"mine.txt", "sub"}) || c != (Cleared{Removed: 2, Others: 2}) {
		t.Errorf("after ClearDir: %v, %+v; want mine.txt and sub left, 2 removed", left, c)
	}
	if _, err := os.Stat(filepath.Join(root, "outside.txt")); err != nil {
		t.Errorf("ClearDir removed a file outside its directory: %v", err)
	}
	if c, err := ClearDir(dir); err != nil || c.Removed != 0 {
		t.Errorf("a second ClearDir: %+v, %v; want nothing removed", c, err)
	}
}
