package plan

import (
	"testing"

	"tierfetch/scenarios"
)

// TestPriceAtTheJoin: a read from the log start to HW finds below the new
// replica's local log start only remote storage (one read a segment, begun
// or whole, at the mean remote fetch time) and the rest on its disk; a
// local log start above HW or below the log start leaves the other part
// empty.
func TestPriceAtTheJoin(t *testing.T) {
	c := scenarios.DefaultConfig()
	c.RecordBytes, c.SegmentBytes, c.RemoteFetchMs = 10, 1000, [2]int64{20, 40}
	for _, x := range []struct {
		lls           int64
		remote, local int64
		latency       float64
	}{{400, 3000, 6000, 90}, {401, 3010, 5990, 120}, {1200, 9000, 0, 270}, {50, 0, 9000, 0}} {
		var o RunOutcome
		o.price(joinSample{lso: 100, hw: 1000, followerLLS: x.lls}, &c)
		if o.PriceRemoteBytes != x.remote || o.PriceLocalBytes != x.local || o.PriceExtraLatencyMs != x.latency {
			t.Errorf("local log start %d: remote %d, local %d, %v ms; want %d, %d, %v", x.lls, o.PriceRemoteBytes, o.PriceLocalBytes, o.PriceExtraLatencyMs, x.remote, x.local, x.latency)
		}
	}
}
