package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic writes data to path so that a reader never sees a
// half-written file and nothing but a regular file is ever replaced:
//
//   - a new path or a regular file: a temporary file beside it (created
//     exclusively, never through a link) is renamed over it;
//   - a symbolic link: the same, applied to the file it points to (the link
//     stays a link);
//   - a character device or a named pipe (/dev/stdout, /dev/null, a fifo):
//     written through, never replaced;
//   - anything else (a directory, a block device, a socket): refused.
func WriteAtomic(path string, data []byte) error {
	target, fi, err := Target(path)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return writeThrough(path, target, fi, data)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// Target resolves path for writing: the file a symbolic link points
// to, and what is there (nil when nothing is).
func Target(path string) (string, fs.FileInfo, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return path, fi, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", nil, fmt.Errorf("%s is a symbolic link that cannot be followed: %w", path, err)
	}
	fi, err = os.Stat(target)
	if err != nil {
		return "", nil, err
	}
	return target, fi, nil
}

// writeThrough writes data into a character device or a named pipe without
// replacing it, and refuses anything else that is not a regular file.
func writeThrough(path, target string, fi fs.FileInfo, data []byte) error {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return fmt.Errorf("%s is a directory, want a file", path)
	case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
	default:
		return fmt.Errorf("%s is not a regular file (%s): refusing to replace or write into it", path, m.Type())
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// ErrWriter passes writes to w and keeps the first error, so a command can
// print a whole report and still fail when its output was lost
// (simrun scenarios > /dev/full).
type ErrWriter struct {
	W   io.Writer
	Err error
}

func (e *ErrWriter) Write(p []byte) (int, error) {
	if e.Err != nil {
		return len(p), nil // the first error is kept; later writes are dropped
	}
	n, err := e.W.Write(p)
	if err != nil {
		e.Err = err
		return len(p), nil
	}
	return n, nil
}

// EnsureDir makes the output directory dir and checks that files can be
// created in it, so a long job finds an unwritable directory before it runs.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".simrun-check-*")
	if err != nil {
		return fmt.Errorf("%s is not writable: %v", dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// CheckFile checks, before any work, that path can become an output file:
// it is not a directory, and its directory exists.
func CheckFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory, want a file", path)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("directory %s does not exist", filepath.Dir(path))
	}
	return nil
}
