package main

import (
	"syscall"
	"testing"
)

// TestASignalDuringTheWorkOnlyStopsIt: while a command works under
// catchSignals, a signal stops the work (its context ends, received names
// the first signal) and does not end the process, however late the handler
// runs; once the work is over (stop), a signal ends the process at once.
// Before, the process's handler and the work's catcher each had a channel:
// a signal that stopped a comparison could reach the handler after the stop
// and end the process before the part file was written.
func TestASignalDuringTheWorkOnlyStopsIt(t *testing.T) {
	t.Cleanup(func() {
		signals.Lock()
		signals.first, signals.cancel = nil, nil
		signals.Unlock()
	})
	if stopWork(syscall.SIGINT) {
		t.Fatal("a signal before any work was handed to a work")
	}
	ctx, received, stop := catchSignals()
	if ctx.Err() != nil || received() != nil {
		t.Fatalf("the work is stopped before any signal: %v, %v", ctx.Err(), received())
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		if !stopWork(sig) {
			t.Fatalf("%v during the work would end the process before the work saved what it did", sig)
		}
	}
	if ctx.Err() == nil || received() != syscall.SIGTERM {
		t.Fatalf("after SIGTERM then SIGINT: context %v, received %v; want it stopped by SIGTERM", ctx.Err(), received())
	}
	stop()
	if stopWork(syscall.SIGTERM) {
		t.Fatal("a signal after the work was handed to it instead of ending the process")
	}
	_, received2, stop2 := catchSignals()
	defer stop2()
	if received2() != nil {
		t.Fatalf("a new work starts stopped by %v", received2())
	}
}
