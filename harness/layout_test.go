package harness

import (
	"testing"
	"unsafe"
)

// TestRunViewLines: a run view's size is a multiple of 64 bytes, so that
// every view starts on a cache line and the fields every event reads
// (brokers, replicas, the pending input's kind) share its first.
func TestRunViewLines(t *testing.T) {
	var v runView
	if n := unsafe.Sizeof(v); n%64 != 0 {
		t.Fatalf("runView is %d bytes, not a multiple of 64: pad it (its last field)", n)
	}
	if end := unsafe.Offsetof(v.pend) + unsafe.Sizeof(v.pend.what); end > 64 {
		t.Fatalf("runView's brokers, replicas and pend.what end at byte %d, past its first cache line", end)
	}
}
