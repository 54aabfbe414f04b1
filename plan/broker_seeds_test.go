package plan

import (
	"strings"
	"testing"
)

// TestBrokerPlanSeedRange: a broker plan takes at most 100 seeds, A..B with
// A <= B; the range is refused before any tool output is read (here there
// is none: a range it accepts fails on the missing topics instead).
func TestBrokerPlanSeedRange(t *testing.T) {
	for _, c := range []struct {
		from, to uint64
		refused  bool
	}{{5, 4, true}, {5, 0, true}, {4, 4, false}, {1, 100, false}, {1, 101, true}, {0, 0, false}, {0, 99, false}, {0, 100, true}} {
		_, _, _, err := MakeBroker(BrokerInput{SeedFrom: c.from, SeedTo: c.to})
		if err == nil {
			t.Fatalf("seeds %d..%d with no tool output: no error", c.from, c.to)
		}
		if refused := strings.Contains(err.Error(), "at most 100 seeds"); refused != c.refused {
			t.Errorf("seeds %d..%d: %v; want the seed range refused: %v", c.from, c.to, err, c.refused)
		}
	}
}
