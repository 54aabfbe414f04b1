// Package cliutil holds what simrun's command line computes rather than
// wires: the flag suggested for a mistyped one, the version from the build
// info, the exit code of a signal and the pace of a progress line.
//
// It must never parse a command line, run a scenario or touch a file, the
// terminal or the wall clock itself: callers pass the flags, the signal and
// the clock.
package cliutil
