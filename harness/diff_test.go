package harness

import (
	"strings"
	"testing"
)

func TestStateDiffIsPlainText(t *testing.T) {
	type state struct {
		LEO, HW int64
		Peers   []string
	}
	a := state{LEO: 10, HW: 5, Peers: []string{"b1"}}
	b := state{LEO: 12, HW: 5, Peers: []string{"b1", "b2"}}
	d := StateDiff(a, b)
	if d == "" {
		t.Fatal("no diff between different states")
	}
	if strings.ContainsRune(d, '\u00a0') {
		t.Fatalf("diff holds a no-break space, so its bytes vary from process to process:\n%q", d)
	}
	// Markers as the report prints them, each followed by a plain space.
	var removed, inserted int
	for _, line := range strings.Split(d, "\n") {
		switch {
		case strings.HasPrefix(line, "- "):
			removed++
		case strings.HasPrefix(line, "+ "):
			inserted++
		}
	}
	if removed != 1 || inserted != 2 {
		t.Errorf("want 1 removed and 2 inserted lines, got %d and %d:\n%s", removed, inserted, d)
	}
	if StateDiff(a, a) != "" {
		t.Error("equal states give a diff")
	}
}
