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

// envBuilder is a leader of 1000-byte records holding 60,000,600 bytes
// locally, untiered, with 1,000,000 B/s of replication, 1,000,000-byte
// fetches, 100-150 ms of latency (a fetch round trip of 1.25 s: 800,000
// B/s a follower), 200,000 B/s produced, metadata ready after 5 s, a 30 s
// copy-task interval and 1 s backoffs: 75 s of waits.
func envBuilder() *builder {
	b := &builder{in: &Input{Env: DefaultEnv()}, cfg: scenarios.DefaultConfig()}
	e := &b.in.Env
	e.ReplicationBytesPerSec, e.ProduceBytesPerSec, e.NetworkLatencyMs, e.RemoteMetadataReadyMs, e.RemoteUploadMs = 1_000_000, 200_000, [2]int64{100, 150}, 5_000, [2]int64{1_000, 5_000}
	b.cfg.ReplicaFetchMaxBytes, b.cfg.RemoteLogManagerTaskIntervalMs, b.cfg.ReplicaFetchBackoffMs, b.cfg.SegmentBytes = 1_000_000, 30_000, 1_000, 100_000_000
	b.st = State{RecordBytes: 1000, LocalBytes: 60_000_600, HighestRemoteOffset: -1, RemoteEndOffset: -1}
	return b
}

// TestEnvironmentHorizon: the horizon is the waits, the longer of the copy
// (10% to spare, at the rate left after producing) and a segment's roll and
// upload when a flag-on replica waits for one, and a minute, rounded up to
// a second; under 5% of the rate left, no replica catches up.
func TestEnvironmentHorizon(t *testing.T) {
	b := envBuilder()
	if err := b.environment(); err != nil {
		t.Fatal(err)
	}
	// 75 s + 110.0011 s of copy at 600,000 B/s + 60 s, rounded up.
	if b.horizonMs != 246_000 || b.copyRate != 600_000 || b.neverCatchesUp || !reflect.DeepEqual(b.reasons, []string{
		"75.0 s of waits (remote metadata, two copy-task runs, ten fetch backoffs) and a minute to spare",
		"110.0 s to copy the leader's local log (57.22 MiB at about 585.94 KiB/s net of produce, 10% to spare)"}) {
		t.Errorf("horizon %d ms, copy rate %v, never %v, reasons %q", b.horizonMs, b.copyRate, b.neverCatchesUp, b.reasons)
	}
	// Tiered below the log start with nothing at it: a 100 MB segment at
	// 200,000 B/s (500 s), a task interval and the longest upload: 535 s.
	b = envBuilder()
	b.st.RemoteStorageEnable, b.st.LogStartOffset, b.st.LocalLogStartOffset, b.st.HighestRemoteOffset, b.st.RemoteEndOffset = true, 100, 100, 50, 50
	if err := b.environment(); err != nil {
		t.Fatal(err)
	}
	if b.horizonMs != 670_000 || len(b.reasons) != 3 || b.reasons[2] != "535.0 s for a segment to fill at the produce rate and be uploaded (nothing is tiered at or above the log start)" {
		t.Errorf("waiting for an upload: horizon %d ms, reasons %q; want 670000", b.horizonMs, b.reasons)
	}
	// 760,000 B/s produced leaves 40,000, 5% of 800,000: it still copies;
	// one byte more and no replica catches up.
	for _, produce := range []int64{760_000, 760_001} {
		b = envBuilder()
		b.in.Env.ProduceBytesPerSec = produce
		if err := b.environment(); err != nil {
			t.Fatal(err)
		}
		if b.neverCatchesUp != (produce > 760_000) {
			t.Errorf("%d B/s produced: never catches up %v", produce, b.neverCatchesUp)
		}
	}
}

// TestEnvironmentMetadataAssumed: a tiered leader that reports no highest
// uploaded offset though remote storage holds data (its end at 0 counts)
// is taken as not yet having its metadata: ready one task interval from
// now; an HRO of 0 is known; a given readiness is kept.
func TestEnvironmentMetadataAssumed(t *testing.T) {
	for _, c := range []struct {
		hro, remoteEnd int64
		given          bool
		want           int64
	}{
		{-1, 0, false, 30_000},
		{-1, -1, false, 5_000},
		{0, 0, false, 5_000},
		{-1, 0, true, 5_000},
	} {
		b := envBuilder()
		b.st.RemoteStorageEnable, b.st.HighestRemoteOffset, b.st.RemoteEndOffset = true, c.hro, c.remoteEnd
		b.in.Env.Given[FieldMetadataReady] = c.given
		if err := b.environment(); err != nil {
			t.Fatal(err)
		}
		if b.cfg.RemoteMetadataReadyMs != c.want || b.metadataAssumed != (c.want == 30_000) {
			t.Errorf("%+v: metadata ready at %d ms (assumed %v), want %d", c, b.cfg.RemoteMetadataReadyMs, b.metadataAssumed, c.want)
		}
	}
}

// TestEnvironmentProduceLimit: what the scenario must produce over its
// horizon is refused past what scenario files can hold (10^12 records).
func TestEnvironmentProduceLimit(t *testing.T) {
	for _, c := range []struct {
		produce int64
		refused bool
	}{{900_000_000_000, false}, {1 << 40, true}} {
		b := envBuilder()
		b.st.RecordBytes, b.in.Env.ProduceBytesPerSec = 135, c.produce // 135 s of horizon: records = bytes a second
		err := b.environment()
		if (err != nil) != c.refused || b.horizonMs != 135_000 {
			t.Errorf("%d B/s: %v, horizon %d ms; want refused %v, 135 s", c.produce, err, b.horizonMs, c.refused)
		}
	}
}

// TestEnvironmentAssumptionsOnlyWhatWasNotGiven: the defaults the plan
// assumed are listed only when some value was not given.
func TestEnvironmentAssumptionsOnlyWhatWasNotGiven(t *testing.T) {
	for _, given := range []bool{false, true} {
		b := envBuilder()
		for _, f := range []string{FieldProduce, FieldReplication, FieldNetworkLatency, FieldRemoteFetch, FieldRemoteUpload, FieldMetadataReady} {
			b.in.Env.Given[f] = given
		}
		b.environmentAssumptions()
		listed := strings.Contains(strings.Join(b.assume, "\n"), "not in the tools' output, defaults")
		want := 3 // the defaults, one epoch, the log end at HW
		if given {
			want = 2
		}
		if listed == given || len(b.assume) != want {
			t.Errorf("every value given %v: assumptions %q", given, b.assume)
		}
	}
}

// TestProduceEventsSplitAtTheRecordLimit: what the horizon produces is
// one event when it fits the per-event record limit, else as few
// consecutive events as the limit needs, their records and times adding up
// to the whole with none lost to rounding.
func TestProduceEventsSplitAtTheRecordLimit(t *testing.T) {
	for _, c := range []struct {
		total int64 // records over the horizon
		parts int
	}{{produceRecordsMax, 1}, {produceRecordsMax + 1, 2}, {3*produceRecordsMax + 2, 4}} {
		b := &builder{in: &Input{Env: DefaultEnv()}, horizonMs: 1_000_000, st: State{RecordBytes: 1}}
		b.in.Env.ProduceBytesPerSec = c.total / 1000 // records a second over 1000 s
		total := b.in.Env.ProduceBytesPerSec * 1000
		evs := b.produceEvents()
		var records, at int64
		for _, e := range evs {
			if e.AtMs != at || e.Records > produceRecordsMax {
				t.Errorf("%d records: event %+v at %d ms, want contiguous, at most the limit", total, e, at)
			}
			records, at = records+e.Records, e.AtMs+e.OverMs
		}
		if wantParts := int((total + produceRecordsMax - 1) / produceRecordsMax); len(evs) != wantParts || records != total || at != 1_000_000 {
			t.Errorf("%d records: %d events of %d records to %d ms, want %d events of %d to 1000000", total, len(evs), records, at, wantParts, total)
		}
	}
}
