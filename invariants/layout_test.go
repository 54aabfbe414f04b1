package invariants

import (
	"testing"
	"unsafe"
)

// TestCursorIsOneLine: a broker's cursor is what every Check reads of it,
// sized to one 64-byte cache line, and the cursors array's elements are
// aligned with the lines only if their size divides by 64 (cursor).
func TestCursorIsOneLine(t *testing.T) {
	if n := unsafe.Sizeof(cursor{}); n != 64 {
		t.Fatalf("cursor is %d bytes, want 64: one cache line", n)
	}
}
