package plan

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"tierfetch/scenarios"
)

// retentionBuilder is a leader holding offsets [100, 200) of 10-byte
// records (1000 bytes), [150, 200) locally (500 bytes), in 100-byte
// segments, with the topic's retention configs given.
func retentionBuilder(tiered, copyDisabled bool, retBytes, retMs, locBytes, locMs int64) *builder {
	b := &builder{in: &Input{}, cfg: scenarios.DefaultConfig()}
	b.cfg.SegmentBytes = 100
	b.cfg.RetentionBytes, b.cfg.RetentionMs, b.cfg.LocalRetentionBytes, b.cfg.LocalRetentionMs = retBytes, retMs, locBytes, locMs
	b.cfg.RemoteLogCopyDisable = copyDisabled
	b.st = State{RecordBytes: 10, LogStartOffset: 100, LocalLogStartOffset: 150, HighWatermark: 200, RemoteEndOffset: 149, RemoteStorageEnable: tiered}
	return b
}

// TestRetentionBecomesSizeLimits: the topic's retention becomes the
// scenario's size limits (no timestamps in the scenario): a time limit is
// the size now, at least a segment, capped by a size limit; local
// retention inherits the total's when -2 and applies only with tiering on
// and copying; a local size limit more than a segment below what the
// leader holds is noted.
func TestRetentionBecomesSizeLimits(t *testing.T) {
	const day = 86_400_000
	type limits struct{ retBytes, retMs, locBytes, locMs int64 }
	for _, c := range []struct {
		name                 string
		tiered, copyDisabled bool
		in, want             limits
		notes                []string
	}{
		{"untiered, unlimited", false, false, limits{-1, -1, -2, -2}, limits{-1, -1, -2, -2}, nil},
		{"untiered, local limits ignored", false, false, limits{-1, -1, 300, 5}, limits{-1, -1, -2, -2}, nil},
		{"tiered, copy disabled: retention applies locally", true, true, limits{-1, -1, 300, -1}, limits{-1, -1, -2, -2}, nil},
		{"tiered, local inherits the total's size", true, false, limits{2000, -1, -2, -2}, limits{2000, -1, 2000, -1}, nil},
		{"tiered, a day is the size now", true, false, limits{-1, day, -2, -2}, limits{1000, -1, 500, -1}, []string{
			"retention.ms=86400000 is modelled as retention.bytes=1000 (1000 B, the size now): the scenario's segments carry no timestamps, so the partition keeps its size as records arrive",
			"local.retention.ms=86400000 is modelled as local.retention.bytes=500 (500 B, the size now): the scenario's segments carry no timestamps, so the partition keeps its size as records arrive"}},
		{"tiered, a day capped by a size", true, false, limits{800, day, 250, day}, limits{800, -1, 250, -1}, []string{
			"retention.ms=86400000 is modelled as retention.bytes=800 (800 B, the size now): the scenario's segments carry no timestamps, so the partition keeps its size as records arrive",
			"local.retention.ms=86400000 is modelled as local.retention.bytes=250 (250 B, the size now): the scenario's segments carry no timestamps, so the partition keeps its size as records arrive",
			"the leader holds 500 B locally but local.retention.bytes is 250 B: the offsets and the configs disagree (saved at different times, or retention has not run yet); the simulated leader deletes down to the limit at its first retention check"}},
		{"tiered, local limit a segment below the local size", true, false, limits{-1, -1, 400, -1}, limits{-1, -1, 400, -1}, nil},
		{"tiered, local limit 0", true, false, limits{-1, -1, 0, -1}, limits{-1, -1, 0, -1}, []string{
			"the leader holds 500 B locally but local.retention.bytes is 0 B: the offsets and the configs disagree (saved at different times, or retention has not run yet); the simulated leader deletes down to the limit at its first retention check"}},
	} {
		b := retentionBuilder(c.tiered, c.copyDisabled, c.in.retBytes, c.in.retMs, c.in.locBytes, c.in.locMs)
		if err := b.retention(); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := limits{b.cfg.RetentionBytes, b.cfg.RetentionMs, b.cfg.LocalRetentionBytes, b.cfg.LocalRetentionMs}
		if got != c.want || !reflect.DeepEqual(b.notes, c.notes) {
			t.Errorf("%s: limits %+v, notes\n%s\nwant %+v, notes\n%s", c.name, got, strings.Join(b.notes, "\n"), c.want, strings.Join(c.notes, "\n"))
		}
	}
}

// TestRetentionRefusesBytesPastInt64: a log whose bytes (records x record
// size) would pass the largest int64 is refused, one record fewer taken.
func TestRetentionRefusesBytesPastInt64(t *testing.T) {
	const rb = 1 << 40
	for _, n := range []int64{math.MaxInt64 / rb, math.MaxInt64/rb + 1} {
		b := retentionBuilder(false, false, -1, -1, -2, -2)
		b.st.RecordBytes, b.st.LocalLogStartOffset, b.st.HighWatermark, b.st.RemoteEndOffset = rb, 100, 100+n, -1
		err := b.retention()
		if refused := err != nil && strings.Contains(err.Error(), "overflow the simulator's byte counts"); refused != (n > math.MaxInt64/rb) {
			t.Errorf("%d records of 2^40 bytes: %v", n, err)
		}
	}
}

// TestWaitsForUpload: a flag-on replica waits for a segment to roll and
// upload when the log is tiered, the leader holds no offset 0, nothing
// tiered reaches the log start, and either something was tiered or the
// leader holds the whole log locally.
func TestWaitsForUpload(t *testing.T) {
	for _, c := range []struct {
		tiered         bool
		lso, llso, hro int64
		want           bool
	}{
		{true, 100, 150, 99, true},   // tiered below the log start
		{true, 100, 150, 100, false}, // tiered up to the log start
		{false, 100, 150, 99, false}, // untiered
		{true, 0, 0, -1, false},      // the leader holds offset 0
		{true, 0, 1, -1, false},      // nothing tiered, the leader not holding the whole log
		{true, 1, 1, -1, true},       // nothing tiered, the whole log local, above 0
		{true, 1, 1, 0, true},        // tiered up to just below the log start
		{true, 1, 2, -1, false},      // nothing tiered, records below the local log
		{true, 1, 2, 0, true},        // offset 0 tiered, the log start above it
	} {
		b := &builder{st: State{RemoteStorageEnable: c.tiered, LogStartOffset: c.lso, LocalLogStartOffset: c.llso, HighestRemoteOffset: c.hro}}
		if got := b.waitsForUpload(); got != c.want {
			t.Errorf("%+v: %v, want %v", c, got, c.want)
		}
	}
}

// TestRetentionMsZeroIsATimeLimit: retention.ms=0 is a time limit (the
// size now, noted), only a negative one is none.
func TestRetentionMsZeroIsATimeLimit(t *testing.T) {
	b := retentionBuilder(false, false, -1, 0, -2, -2)
	if err := b.retention(); err != nil || b.cfg.RetentionBytes != 1000 || len(b.notes) != 1 {
		t.Errorf("retention.ms=0: %v, retention.bytes %d, notes %q; want the size now, 1000, noted", err, b.cfg.RetentionBytes, b.notes)
	}
}

// TestSizeLimitOfATimeLimit: a time limit becomes the size now, at least
// a segment, and no more than a size limit that is set, 0 included.
func TestSizeLimitOfATimeLimit(t *testing.T) {
	for _, c := range []struct{ bytes, ms, now, want int64 }{
		{-1, -1, 500, -1},   // no time limit: the size limit as it is
		{300, -1, 500, 300}, // the same
		{-1, 5, 500, 500},   // the size now
		{-1, 5, 50, 100},    // at least a segment
		{300, 5, 500, 300},  // capped by the size limit
		{0, 5, 500, 0},      // a size limit of 0 caps too
	} {
		b := retentionBuilder(true, false, -1, -1, -2, -2)
		if got := b.sizeLimit("retention", c.bytes, c.ms, c.now); got != c.want {
			t.Errorf("bytes %d, ms %d, size now %d: %d, want %d", c.bytes, c.ms, c.now, got, c.want)
		}
	}
}
