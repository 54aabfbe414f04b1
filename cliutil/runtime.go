package cliutil

import (
	"os"
	"runtime/debug"
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
