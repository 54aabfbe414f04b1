package scenarios

import (
	"runtime"
	"strings"
	"testing"
)

// TestTooManyChoicesRefusedBeforeDecoding: a schedule longer than
// scheduleChoicesMax is refused from its element count, before its
// elements are decoded: a 32 MiB file of 16 million choices took 4.9 s
// and 975 MB only to be refused.
func TestTooManyChoicesRefusedBeforeDecoding(t *testing.T) {
	const n = 3 * scheduleChoicesMax
	doc := `{"brokers": 3, "duration_ms": 1000, "explore": {"faults": [], "choices": [` + strings.Repeat("0,", n-1) + `0]}}`
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Parse([]byte(doc))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "explore.choices: at most 1000000 choices, got 3000000") {
		t.Fatalf("%d choices: %v", n, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(len(doc)) {
		t.Errorf("refusing %d choices (%d bytes) allocated %d bytes, want at most 4 times the file", n, len(doc), alloc)
	}
}
