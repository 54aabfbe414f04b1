package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// caught is the cause of the context catchSignals cancels.
type caught struct{ sig os.Signal }

func (c caught) Error() string { return "caught " + c.sig.String() }

// catchSignals returns a context canceled by the first SIGINT or SIGTERM,
// a function that tells which signal came (nil: none), and one that stops
// catching. Until stop, later signals are caught too, so the work stops at
// a boundary and writes whole lines whatever the user presses.
func catchSignals() (ctx context.Context, received func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for sig := range ch {
			cancel(caught{sig}) // the first cause stays
		}
	}()
	received = func() os.Signal {
		var c caught
		if errors.As(context.Cause(ctx), &c) {
			return c.sig
		}
		return nil
	}
	stop = sync.OnceFunc(func() {
		signal.Stop(ch) // no signal is sent on ch after it returns
		close(ch)
		cancel(nil)
	})
	return ctx, received, stop
}
