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

// TestAxisFormatsRates: a varied rate reads in bytes per second, as the user
// wrote it (1MiB is "1.00 MiB/s", not 1.049e+06), and -1 as unlimited.
func TestAxisFormatsRates(t *testing.T) {
	for _, c := range []struct {
		key  string
		v    float64
		want string
	}{
		{"follower_replication_throttled_rate", 1 << 20, "1.00 MiB/s"},
		{"leader_replication_throttled_rate", -1, "-1 (unlimited)"},
		{"broker_network_bytes_per_sec", 10 << 20, "10.00 MiB/s"},
		{"broker_disk_bytes_per_sec", -1, "-1 (unlimited)"},
		{"remote_fetch_concurrency", 4, "4"},
	} {
		if got := SweepAxis(c.key, []string{"1", "2"}).Format(c.v); got != c.want {
			t.Errorf("%s = %v: %q, want %q", c.key, c.v, got, c.want)
		}
	}
}

// TestMsLabelsWithoutExponents: a time axis labels 10,000 s and more in
// whole seconds, as a reader writes them, not "1e+04 s".
func TestMsLabelsWithoutExponents(t *testing.T) {
	for _, c := range []struct {
		ms   float64
		want string
	}{
		{20, "20 ms"}, {999, "999 ms"}, {1000, "1 s"}, {1500, "1.5 s"}, {9_999_000, "9999 s"},
		{9_999_999, "10000 s"}, {1e7, "10000 s"}, {123_456_789, "123457 s"},
	} {
		if got := msLabel(c.ms); got != c.want {
			t.Errorf("msLabel(%v) = %q, want %q", c.ms, got, c.want)
		}
	}
}
