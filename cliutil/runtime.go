package cliutil

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// TuneGC sets the collector's target to percent, leaving an explicit GOGC
// alone.
func TuneGC(percent int) {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(percent)
	}
}

// LimitMemory sets the runtime's soft memory limit to bytes, leaving an
// explicit GOMEMLIMIT alone.
func LimitMemory(bytes int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(bytes)
	}
}

// IsTerminal reports whether w (an output) is a terminal: an *os.File on a
// character device. Progress lines go only there.
func IsTerminal(w any) bool {
	if t, ok := w.(interface{ Target() any }); ok {
		w = t.Target() // a filter over the terminal (outfile.TerminalSafe)
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// RaiseMemoryLimit raises the runtime's soft memory limit to bytes when it
// is lower, but not past three quarters of the memory the process can have
// (Memory); it never lowers the limit, and leaves an explicit GOMEMLIMIT
// alone.
func RaiseMemoryLimit(bytes int64) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	if m := Memory(os.ReadFile); m > 0 {
		bytes = min(bytes, m/4*3)
	}
	if bytes > debug.SetMemoryLimit(-1) {
		debug.SetMemoryLimit(bytes)
	}
}

// Memory returns the memory the process can have, read through read: the
// least of its cgroup's limit (v2 memory.max, v1 memory.limit_in_bytes)
// and the machine's MemTotal (/proc/meminfo); 0 when none can be read.
func Memory(read func(string) ([]byte, error)) int64 {
	least := int64(0)
	take := func(n int64) {
		if n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if data, err := read(path); err == nil {
			// "max" (v2) or a huge number (v1) when there is no limit:
			// MemTotal then bounds it.
			if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
				take(n)
			}
		}
	}
	if data, err := read("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			f := strings.Fields(line)
			if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil && kb < 1<<53 {
					take(kb << 10)
				}
			}
		}
	}
	return least
}
