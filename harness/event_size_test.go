package harness

import (
	"testing"
	"unsafe"
)

// TestRunEventSizeIsTheBenchmarkPayload: sim's scheduler benchmarks stand a
// run's event with a payload of runEventBytes (sim/bench_test.go); if the
// event grows or shrinks, that constant must follow, or the benchmark
// measures another size than it says.
func TestRunEventSizeIsTheBenchmarkPayload(t *testing.T) {
	const runEventBytes = 72 // sim/bench_test.go
	if got := unsafe.Sizeof(event{}); got != runEventBytes {
		t.Errorf("a run's event is %d bytes; set runEventBytes in sim/bench_test.go (and here) to it", got)
	}
}
