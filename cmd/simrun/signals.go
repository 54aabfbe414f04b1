package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"tierfetch/cliutil"
	"tierfetch/outfile"
)

// The process's SIGINT and SIGTERM. main installs the handler
// (installSignals): a signal ends the process at once with 130 or 143,
// after outfile.Abort removes the temporary files being written (waiting
// for a set of renames under way), so nothing half-written is left, and no
// blocked open or write (a named pipe nobody reads) can swallow it. While a
// command works under catchSignals, a signal instead cancels its work,
// which stops at a boundary and saves what was done; once that work is over
// (its stop), a signal ends the process at once again, and one that came
// during the work ends it if the command has not ended signalGrace later.
// One goroutine receives every signal and decides, under the lock, which of
// the two it does: had the work's catcher a channel of its own, a signal
// that stopped the work could also reach the process's handler only after
// the stop and end the process before the work's part was saved (a
// comparison interrupted under load exited 143 without its pairs.jsonl).
var signals struct {
	sync.Mutex
	installed bool
	cancel    func(os.Signal) // while a command works under catchSignals: stops its work
	first     os.Signal       // the first signal received
}

// signalReadyEnv, when set in the environment, makes catchSignals say on
// standard error (signalReadyLine) that a signal from now on stops the work
// at a boundary: tests wait for it instead of guessing how long a busy
// machine takes to get there.
const (
	signalReadyEnv  = "TIERFETCH_SAY_SIGNALS_CAUGHT"
	signalReadyLine = "simrun: catching signals"
)

// signalGrace is how long a command whose work a signal stopped has to
// write what it saved and end.
const signalGrace = 10 * time.Second

// installSignals installs the process's handler (main only: tests run
// commands in-process and never signal them).
func installSignals() {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	signals.Lock()
	signals.installed = true
	signals.Unlock()
	go func() {
		for sig := range ch {
			if !stopWork(sig) {
				sayStopped(sig)
				exitOnSignal(sig)
			}
		}
	}()
}

// stopWork hands sig to the command working under catchSignals, if one
// is, and reports whether one was: if not, sig ends the process.
func stopWork(sig os.Signal) bool {
	signals.Lock()
	defer signals.Unlock()
	if signals.first == nil {
		signals.first = sig
	}
	if signals.cancel == nil {
		return false
	}
	signals.cancel(sig)
	return true
}

// exitOnSignal ends the process as sig asks.
func exitOnSignal(sig os.Signal) {
	outfile.Abort()
	os.Exit(cliutil.SignalExit(sig))
}

// sayStopped tells a user whose command a signal ends at once (one that
// saves nothing at a boundary: run, plan, replay...; or one already
// writing its outputs, whose unfinished files exitOnSignal removes) why it
// stopped, unless that write blocks: a standard error nobody reads waits
// at most signalSayWait.
func sayStopped(sig os.Signal) {
	said := make(chan struct{})
	go func() {
		os.Stderr.WriteString("simrun: stopped by " + cliutil.SignalName(sig) + "\n")
		close(said)
	}()
	select {
	case <-said:
	case <-time.After(signalSayWait):
	}
}

// signalSayWait bounds sayStopped's wait for its line on standard error.
const signalSayWait = 200 * time.Millisecond

// caught is the cause of the context catchSignals cancels.
type caught struct{ sig os.Signal }

func (c caught) Error() string { return "caught " + c.sig.String() }

// catchSignals returns a context canceled by the first SIGINT or SIGTERM,
// a function that tells which signal came (nil: none), and one that stops
// catching: call it when the work is done, before writing what it made, so
// that a blocked write cannot swallow a signal (see signals). Until stop,
// later signals are caught too, so the work stops at a boundary and writes
// whole lines whatever the user presses. The signals come through the
// process's handler (installSignals); without it nothing is caught.
func catchSignals() (ctx context.Context, received func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals.Lock()
	signals.cancel = func(sig os.Signal) { cancel(caught{sig}) } // the first cause stays
	signals.Unlock()
	if os.Getenv(signalReadyEnv) != "" {
		os.Stderr.WriteString(signalReadyLine + "\n")
	}
	received = func() os.Signal {
		var c caught
		if errors.As(context.Cause(ctx), &c) {
			return c.sig
		}
		return nil
	}
	stop = sync.OnceFunc(func() {
		signals.Lock()
		signals.cancel = nil // a signal from now on ends the process
		sig, installed := signals.first, signals.installed
		signals.Unlock()
		cancel(nil)
		if sig != nil && installed {
			time.AfterFunc(signalGrace, func() { exitOnSignal(sig) })
		}
	})
	return ctx, received, stop
}
