package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ManifestName is the file in an output directory that lists, one name a
// line, the files simrun wrote there: the next run into the directory
// removes those files (and only those) before it writes its own, so an
// earlier run's files never mix with a later one's.
const ManifestName = "simrun-manifest.txt"

const manifestHeader = "# the files simrun wrote in this directory; the next run into it removes them first\n"

// Cleared is what clearing an output directory did: how many files of the
// earlier run it removed, and how many other entries it left alone (files
// no manifest lists, such as the user's own).
type Cleared struct {
	Removed, Others int
}

// String says what was cleared, "" when nothing was there.
func (c Cleared) String() string {
	var parts []string
	switch {
	case c.Removed == 1:
		parts = append(parts, "1 file of an earlier run removed first")
	case c.Removed > 1:
		parts = append(parts, fmt.Sprintf("%d files of an earlier run removed first", c.Removed))
	}
	switch {
	case c.Others == 1:
		parts = append(parts, "1 other entry, not written by simrun, left alone")
	case c.Others > 1:
		parts = append(parts, fmt.Sprintf("%d other entries, not written by simrun, left alone", c.Others))
	}
	return strings.Join(parts, "; ")
}

// ClearDir removes from dir the files its manifest lists (names directly
// in dir; a regular file or a link is removed, anything else is left), then
// the manifest, and counts the entries left.
func ClearDir(dir string) (Cleared, error) {
	var c Cleared
	path := filepath.Join(dir, ManifestName)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return c, err
	default:
		for _, name := range strings.Split(string(data), "\n") {
			if name == "" || strings.HasPrefix(name, "#") || name != filepath.Base(name) || name == "." || name == ".." {
				continue
			}
			fi, err := os.Lstat(filepath.Join(dir, name))
			if err != nil || !(fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0) {
				continue
			}
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return c, err
			}
			c.Removed++
		}
		if err := os.Remove(path); err != nil {
			return c, err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return c, err
	}
	c.Others = len(entries)
	return c, nil
}

// Manifest is an output directory's manifest, open for adding names.
type Manifest struct {
	dir  string
	file *os.File
	w    *bufio.Writer
}

// OpenManifest opens dir's manifest to add names to it, creating it when
// it is not there.
func OpenManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestName)
	fi, err := os.Lstat(path)
	fresh := errors.Is(err, fs.ErrNotExist)
	if err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	m := &Manifest{dir: dir, file: f, w: bufio.NewWriter(f)}
	if fresh {
		m.w.WriteString(manifestHeader)
	}
	return m, nil
}

// Add records path, a file directly in the manifest's directory, before it
// is written, so that even an interrupted run's files are listed.
func (m *Manifest) Add(path string) error {
	if filepath.Clean(filepath.Dir(path)) != filepath.Clean(m.dir) {
		return fmt.Errorf("%s is not in %s", path, m.dir)
	}
	m.w.WriteString(filepath.Base(path) + "\n")
	return m.w.Flush()
}

// Close closes the manifest.
func (m *Manifest) Close() error {
	err := m.w.Flush()
	if cerr := m.file.Close(); err == nil {
		err = cerr
	}
	return err
}
