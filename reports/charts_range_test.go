package reports

import "testing"

// TestLogAxisOfOneValue: an axis whose values are all one (every pair's
// flag-on follower copied nothing, so the copy chart's axis holds only its
// anchor 1) gets a range around the value, and an empty range gets no
// ticks instead of gonum's panic ('simrun compare --scenario
// hazard-idle-fully-tiered' panicked: "illegal range").
func TestLogAxisOfOneValue(t *testing.T) {
	for _, v := range []float64{1, 0.5, 2, 1000} {
		lo, hi := logRange([]float64{v})
		if !(lo <= v && v <= hi && lo < hi) {
			t.Errorf("logRange(%v) = [%v, %v]: want a range around it", v, lo, hi)
		}
	}
	if ticks := (logTicks{}).Ticks(1, 1); ticks != nil {
		t.Errorf("ticks of an empty range: %v", ticks)
	}
}
