// Package cliutil holds what simrun's command line computes rather than
// wires: the flag suggested for a mistyped one, the version from the build
// info, the exit code of a signal, a command line quoted for a shell, and
// the pace and text of a progress line.
//
// It must never parse a command line, run a scenario or touch a file, the
// terminal or the wall clock itself: callers pass the flags, the signal,
// whether the output is a terminal, and the clock.
package cliutil
