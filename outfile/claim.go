package outfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// ErrNotEmpty is wrapped by Claim's error for a file that already holds
// data (an earlier command's results).
var ErrNotEmpty = errors.New("not empty")

// ErrBusy is wrapped by Claim's error for a file another process is
// writing.
var ErrBusy = errors.New("locked by another process")

// Claim opens path, a regular file (or a new one) a command will write from
// its start, and takes an exclusive lock on it (flock, released when the
// file is closed or the process ends), so that two commands never write one
// file: a file another process holds is refused (ErrBusy), and so is one
// that holds data (ErrNotEmpty: the caller says how to resume or to start
// over), never truncated. It returns the open, locked, empty file.
func Claim(path string) (*os.File, error) {
	target, fi, err := Target(path)
	if err != nil {
		return nil, err
	}
	if fi != nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	if err := writable(path, fi); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(target, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s is being written by another simrun (%w): refusing to write it too", path, ErrBusy)
		}
		return nil, fmt.Errorf("locking %s: %v", path, err)
	}
	st, err := f.Stat()
	if err == nil && st.Size() > 0 {
		err = fmt.Errorf("%s is %w (%d bytes): refusing to replace it", path, ErrNotEmpty, st.Size())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
