package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInputPipeWithoutWriterIsRefused: a named pipe given as input that no
// writer opens is an error naming it once PipeWait has passed, where
// opening it waited for a writer for ever; one whose writer comes is read.
func TestInputPipeWithoutWriterIsRefused(t *testing.T) {
	defer func(w time.Duration) { PipeWait = w }(PipeWait)
	PipeWait = 100 * time.Millisecond
	fifo := filepath.Join(t.TempDir(), "p.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	read := func() ([]byte, error) {
		type result struct {
			data []byte
			err  error
		}
		done := make(chan result, 1)
		go func() {
			data, err := ReadLimited(fifo, DefaultMaxInputBytes)
			done <- result{data, err}
		}()
		select {
		case r := <-done:
			return r.data, r.err
		case <-time.After(10 * time.Second):
			t.Fatalf("reading %s: still waiting after 10 s", fifo)
			return nil, nil
		}
	}
	if _, err := read(); err == nil || !strings.Contains(err.Error(), "p.json is a named pipe with no writer (none came in 100ms)") {
		t.Errorf("no writer: %v, want the pipe named", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		w.Write([]byte(`{"brokers": 1}`))
	}()
	if data, err := read(); err != nil || string(data) != `{"brokers": 1}` {
		t.Errorf("a writer: %q, %v", data, err)
	}
}
