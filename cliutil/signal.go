package cliutil

import (
	"os"
	"syscall"
)

// Exit codes of a command stopped by a signal: 128 plus the signal's
// number, as a shell reports it.
const (
	ExitSIGINT  = 130
	ExitSIGTERM = 143
)

// SignalExit is the exit code of a command stopped by sig (SIGTERM, else
// SIGINT).
func SignalExit(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return ExitSIGTERM
	}
	return ExitSIGINT
}

// SignalName names sig as a person pressed or sent it: SIGTERM, else SIGINT.
func SignalName(sig os.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}
