package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// WriteAtomic writes data to path so that a reader never sees a
// half-written file and nothing but a regular file is ever replaced:
//
//   - a new path or a regular file: a temporary file beside it (created
//     exclusively, never through a link) is renamed over it, keeping the
//     mode of the file it replaces (a new one gets 0644); a read-only file
//     is refused, not replaced;
//   - a symbolic link: the same, applied to the file it points to (the link
//     stays a link);
//   - a character device or a named pipe (/dev/stdout, /dev/null, a fifo):
//     written through, never replaced, and opened without waiting: a named
//     pipe with no reader is an error, not a hang;
//   - anything else (a directory, a block device, a socket): refused.
func WriteAtomic(path string, data []byte) error {
	target, fi, err := Target(path)
	if err != nil {
		return err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return writeThrough(path, target, fi, data)
	}
	if err := writable(path, fi); err != nil {
		return err
	}
	tmp, err := writeTemp(target, data, modeOf(fi))
	if err == nil {
		err = os.Rename(tmp, target)
		forgetTemp(tmp)
	}
	if err != nil {
		if tmp != "" {
			os.Remove(tmp)
			forgetTemp(tmp)
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// modeOf is the mode a file replacing fi gets: fi's, or 0644 for a new one.
func modeOf(fi fs.FileInfo) fs.FileMode {
	if fi == nil {
		return 0o644
	}
	return fi.Mode().Perm()
}

// writable refuses to replace a regular file nobody may write (mode
// without a write bit): the user made it read-only on purpose.
func writable(path string, fi fs.FileInfo) error {
	if fi != nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s is read-only (mode %v): refusing to replace it", path, fi.Mode().Perm())
	}
	return nil
}

// writeTemp writes data to a new temporary file beside target with the
// given mode, and returns its name (registered, so a signal can remove it;
// "" when none was created).
func writeTemp(target string, data []byte, mode fs.FileMode) (string, error) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return "", err
	}
	rememberTemp(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), mode)
	}
	return tmp.Name(), err
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
	if err := throughable(path, fi); err != nil {
		return err
	}
	f := takeHeld(target)
	if f == nil {
		var err error
		if f, err = openThrough(path, target); err != nil {
			return err
		}
	}
	_, err := f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// throughable accepts what writeThrough writes into: a character device or
// a named pipe.
func throughable(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return fmt.Errorf("%s is a directory, want a file", path)
	case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
		return nil
	}
	return fmt.Errorf("%s is not a regular file (%s): refusing to replace or write into it", path, m.Type())
}

// PipeWait is how long opening a named pipe waits for a reader to open it
// (one started beside the command, 'simrun ... --out p & cat p', may come a
// little later); then it is an error.
var PipeWait = 2 * time.Second

// openThrough opens a character device or a named pipe for writing without
// blocking: O_NONBLOCK, retried for PipeWait while a pipe has no reader, in
// Go code a signal ends (a blocking open of a pipe nobody reads never
// returned, and swallowed signals); Go then writes through its poller, so a
// slow reader is waited for.
func openThrough(path, target string) (*os.File, error) {
	deadline := time.Now().Add(PipeWait)
	for {
		f, err := os.OpenFile(target, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.ENXIO) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s is a named pipe with no reader (none came in %v): start the reader first", path, PipeWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ErrWriter passes writes to w and keeps the first error, so a command can
// print a whole report and still fail when its output was lost
// (simrun scenarios > /dev/full).
type ErrWriter struct {
	W   io.Writer
	Err error
}

// Target is the writer e writes to (cliutil.TerminalWidth looks through
// it).
func (e *ErrWriter) Target() any { return e.W }

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
