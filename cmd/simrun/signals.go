package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// catchSignals returns a context canceled by the first SIGINT or SIGTERM,
// a function that tells which signal came (nil: none), and one that stops
// catching. Until stop, later signals are caught too, so the work stops at
// a boundary and writes whole lines whatever the user presses.
func catchSignals() (ctx context.Context, received func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var mu sync.Mutex
	var got os.Signal
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-ch:
				mu.Lock()
				if got == nil {
					got = sig
				}
				mu.Unlock()
				cancel()
			case <-done:
				return
			}
		}
	}()
	received = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	return ctx, received, stop
}
