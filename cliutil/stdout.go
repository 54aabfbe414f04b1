package cliutil

import (
	"os"
	"syscall"
)

// StdoutClosed reports whether the process started with its standard
// output closed (simrun ... >&-). The Go runtime opens /dev/null read-write
// on a standard descriptor it finds closed, so that is what it looks for:
// /dev/null on descriptor 1 opened O_RDWR. A shell's >/dev/null and Go's
// os/exec open it write-only; only an explicit 1<>/dev/null (or Python's
// subprocess.DEVNULL) looks the same, and is taken as closed.
func StdoutClosed() bool {
	var st, null syscall.Stat_t
	if syscall.Fstat(1, &st) != nil || syscall.Stat(os.DevNull, &null) != nil {
		return false
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR || st.Rdev != null.Rdev {
		return false
	}
	flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_GETFL, 0)
	return errno == 0 && flags&syscall.O_ACCMODE == syscall.O_RDWR
}
