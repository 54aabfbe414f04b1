package outfile

import (
	"os"
	"sync"
)

// What the process has open for its outputs: the temporary files being
// written (removed when a signal ends the process), the named pipes
// CheckFile opened and WriteAtomic will write, and the lock Abort takes so
// that a set of renames (WriteSet) is never cut in half.
var state struct {
	sync.Mutex
	temps map[string]bool
	held  map[string]*os.File
}

// renames is held while WriteSet renames its files into place.
var renames sync.Mutex

func rememberTemp(name string) {
	state.Lock()
	defer state.Unlock()
	if state.temps == nil {
		state.temps = map[string]bool{}
	}
	state.temps[name] = true
}

func forgetTemp(name string) {
	state.Lock()
	defer state.Unlock()
	delete(state.temps, name)
}

// holdPipe opens the named pipe target for writing without waiting and
// keeps it for WriteAtomic; a pipe with no reader is an error.
func holdPipe(path, target string) error {
	state.Lock()
	defer state.Unlock()
	if state.held[target] != nil {
		return nil
	}
	f, err := openThrough(path, target)
	if err != nil {
		return err
	}
	if state.held == nil {
		state.held = map[string]*os.File{}
	}
	state.held[target] = f
	return nil
}

// takeHeld returns the pipe held for target (nil: none), which the caller
// closes.
func takeHeld(target string) *os.File {
	state.Lock()
	defer state.Unlock()
	f := state.held[target]
	delete(state.held, target)
	return f
}

// Abort is what a signal that ends the process does first: it waits for a
// set of renames under way to finish, then removes the temporary files
// being written, so that nothing half-written is left beside the outputs.
// Nothing is written after it (the lock stays taken).
func Abort() {
	renames.Lock()
	Reset()
}

// Reset removes the temporary files still registered and closes the named
// pipes still held: the end of one command (tests run many in a process).
func Reset() {
	state.Lock()
	defer state.Unlock()
	for name := range state.temps {
		os.Remove(name)
	}
	for _, f := range state.held {
		f.Close()
	}
	state.temps, state.held = nil, nil
}
