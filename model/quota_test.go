package model

import "testing"

// TestQuotaRate: the quota's rate is the bytes recorded over the time since
// its oldest sample started, at least one window (Kafka's SimpleRate), and
// it is exceeded only above the bound.
func TestQuotaRate(t *testing.T) {
	q := replicationQuota{rate: 1000}
	q.record(0, 4000)
	for _, c := range []struct {
		at   int64
		want bool
	}{
		{0, true},     // 4000 B over one window (1 s)
		{3999, true},  // 4000 B / 3.999 s > 1000 B/s
		{4000, false}, // exactly the bound: not above it
		{10999, false},
	} {
		if got := q.exceeded(c.at); got != c.want {
			t.Errorf("4000 B at 0, rate 1000 B/s: exceeded at %d ms = %v, want %v", c.at, got, c.want)
		}
	}
}

// TestQuotaWindow: samples are one second each, twelve in a ring, and a
// sample with no record for eleven windows no longer counts: 1000 B every
// second for 20 s at a bound of 1000 B/s measures the last ten seconds'
// 10,000 B over 10 s at 20 s (not exceeded); one more byte exceeds it.
// After eleven seconds without a record nothing counts.
func TestQuotaWindow(t *testing.T) {
	q := replicationQuota{rate: 1000}
	for s := int64(0); s < 20; s++ {
		q.record(s*1000, 1000)
	}
	if len(q.samples) != quotaSamples+1 {
		t.Fatalf("%d samples, want %d", len(q.samples), quotaSamples+1)
	}
	if q.exceeded(20000) {
		t.Error("10,000 B over the last 10 s, at 1000 B/s: exceeded")
	}
	q.record(20000, 1)
	if !q.exceeded(20000) {
		t.Error("10,001 B over the last 10 s, at 1000 B/s: not exceeded")
	}
	q.record(20000, 1<<30)
	if !q.exceeded(20000+quotaSamples*quotaWindowMs-1) || q.exceeded(20000+quotaSamples*quotaWindowMs) {
		t.Error("a GiB at 20 s counts until 31 s, not after")
	}
}

// TestThrottledList: a list names brokers' replicas, or all ("*").
func TestThrottledList(t *testing.T) {
	all, some, none := Throttled{All: true}, Throttled{Brokers: []int{2}}, Throttled{}
	if !all.has(0) || !some.has(2) || some.has(1) || none.has(0) || !none.empty() || some.empty() {
		t.Error("Throttled.has/empty")
	}
}

// TestFollowerLagKeptWithoutRecords: a follower's own lag, which decides
// whether its throttle applies, is set by an answer with records, or by
// any answer while it is unknown; an answer with none keeps it, as
// Kafka's fetcher keeps the partition's lag (AbstractFetcherThread.scala:366
// @1eb7644349cb).
func TestFollowerLagKeptWithoutRecords(t *testing.T) {
	f := &Fleet{nbrokers: 2, quota: &quotas{follower: make([]replicationQuota, 2), lag: make([]uint8, 2), fthr: make([]Throttled, 1)}}
	b := &Broker{ID: 1}
	b.Log.LogEnd = 100
	recs := []Batch{{Base: 90, Count: 10, Bytes: 10}}
	for _, step := range []struct {
		hw      int64
		batches []Batch
		want    uint8
	}{
		{hw: 150, want: lagBehind},                // unknown: any answer sets it
		{hw: 100, want: lagBehind},                // no records: kept, though the HW is reached
		{hw: 100, batches: recs, want: lagInSync}, // records: set
		{hw: 180, want: lagInSync},                // no records: kept, though the HW moved on
		{hw: 180, batches: recs, want: lagBehind}, // records: set
	} {
		f.tookPart(0, b, &FetchPart{HighWatermark: step.hw, Batches: step.batches})
		if got := f.quota.lag[1]; got != step.want {
			t.Fatalf("hw %d, %d batches: lag state %d, want %d", step.hw, len(step.batches), got, step.want)
		}
	}
}
