package explore

import (
	"strings"
	"testing"

	"tierfetch/scenarios"
)

// TestArgsRangesAtTheirEdges: each numeric setting takes both ends of the
// range its message states and refuses one past each end, naming its
// field: --depth 0..100000, --max-states 1..100000000, --max-memory
// 64..1048576 MiB, --fault-ms 1..3600000, --from-ms from 0 to one before
// the scenario's end (tiny-join: 2300 ms).
func TestArgsRangesAtTheirEdges(t *testing.T) {
	cases := []struct {
		field    string
		set      func(*Args, int64)
		low, top int64
	}{
		{"Depth", func(a *Args, v int64) { a.Depth = int(v) }, 0, 100_000},
		{"MaxStates", func(a *Args, v int64) { a.MaxStates = int(v) }, 1, 100_000_000},
		{"MaxMemory", func(a *Args, v int64) { a.MaxMemory = int(v) }, 64, 1 << 20},
		{"FaultMs", func(a *Args, v int64) { a.FaultMs = v }, 1, 3_600_000},
		{"FromMs", func(a *Args, v int64) { a.FromMs = v }, 0, 2299},
	}
	for _, c := range cases {
		for _, v := range []int64{c.low, c.top} {
			a := goodArgs()
			c.set(&a, v)
			if _, _, err := a.Config(0, scenarios.DefaultMaxInputBytes); err != nil {
				t.Errorf("%s %d (an end of its range): %v", c.field, v, err)
			}
		}
		for _, v := range []int64{c.low - 1, c.top + 1} {
			a := goodArgs()
			c.set(&a, v)
			if _, _, err := a.Config(0, scenarios.DefaultMaxInputBytes); err == nil || !strings.Contains(err.Error(), c.field) {
				t.Errorf("%s %d (one past its range): %v, want an error naming %s", c.field, v, err, c.field)
			}
		}
	}
}
