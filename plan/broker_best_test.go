package plan

import (
	"slices"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestBestVariantAndItsGain: the best variant is the one (past the base,
// row 0) that cuts the flag-on restored time most, ties to the first; none
// when no variant cuts it, when the base never restored or took no time, or
// when a variant never restored.
func TestBestVariantAndItsGain(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	row := func(on *int64) BrokerRow { return BrokerRow{On: BrokerSide{RestoredMs: on}} }
	for _, c := range []struct {
		name string
		rows []BrokerRow
		want int
	}{
		{"the largest cut wins", []BrokerRow{row(ms(1000)), row(ms(900)), row(ms(500)), row(ms(700))}, 2},
		{"ties to the first", []BrokerRow{row(ms(1000)), row(ms(600)), row(ms(600))}, 1},
		{"no cut", []BrokerRow{row(ms(1000)), row(ms(1000)), row(ms(1200))}, -1},
		{"a variant that never restored is not best", []BrokerRow{row(ms(1000)), row(nil), row(ms(999))}, 2},
		{"a base that never restored: no best", []BrokerRow{row(nil), row(ms(10))}, -1},
		{"a base of 0 ms: no best", []BrokerRow{row(ms(0)), row(ms(0))}, -1},
		{"the base alone", []BrokerRow{row(ms(1000))}, -1},
	} {
		if got := bestVariant(c.rows); got != c.want {
			t.Errorf("%s: best %d, want %d", c.name, got, c.want)
		}
	}
	if g, ok := gain(ms(1000), ms(800)); !ok || g < 0.2-1e-12 || g > 0.2+1e-12 {
		t.Errorf("gain of 800 ms on 1000: %v %v, want 0.2", g, ok)
	}
	for _, base := range []int64{0, -5} {
		if g, ok := gain(ms(base), ms(1)); ok {
			t.Errorf("gain on a base of %d ms: %v, ok", base, g)
		}
	}
}

// TestBrokerSideMedians: a side's figures are the lower medians of its
// runs, a time that never came counting as the largest; runs without
// broker-scale metrics are left out, and failed runs are counted.
func TestBrokerSideMedians(t *testing.T) {
	run := func(restored int64, known bool, p99 int64, outcome string) *harness.RunMetrics {
		return &harness.RunMetrics{Outcome: outcome, BrokerScale: &harness.BrokerScaleMetrics{RestoredMs: restored,
			RestoredKnown: known, P99Ms: p99, P99Known: true, BytesFromLeaders: restored * 10, BytesFromRemote: p99,
			FetcherBlockedMs: restored / 10}}
	}
	s := brokerSide([]*harness.RunMetrics{run(300, true, 30, harness.OutcomeOK), run(100, true, 10, harness.OutcomeOK),
		run(0, false, 50, harness.OutcomeLiveness), {Outcome: harness.OutcomeOK}, run(200, true, 20, harness.OutcomeOK)})
	if s.RestoredMs == nil || *s.RestoredMs != 200 || s.CaughtUpMsP99 == nil || *s.CaughtUpMsP99 != 20 ||
		s.BytesFromLeaders != 1000 || s.BytesFromRemote != 20 || s.FetcherBlockedMs != 10 || s.Failed != 1 {
		t.Errorf("side %+v (restored %v, p99 %v); want restored 200, p99 20 (the lower medians of four), from leaders 1000, remote 20, blocked 10, 1 failed",
			s, deref(s.RestoredMs), deref(s.CaughtUpMsP99))
	}
	s = brokerSide([]*harness.RunMetrics{run(0, false, 5, harness.OutcomeLiveness), run(0, false, 6, harness.OutcomeLiveness),
		run(100, true, 7, harness.OutcomeOK)})
	if s.RestoredMs != nil || s.Failed != 2 {
		t.Errorf("two of three never restored: restored %v, %d failed; want never (nil), 2", deref(s.RestoredMs), s.Failed)
	}
	if s = brokerSide(nil); s.RestoredMs != nil || s.CaughtUpMsP99 != nil || s.BytesFromLeaders != 0 {
		t.Errorf("no runs: %+v", s)
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestBrokerResultCountsAndSources: the plan's description of the broker
// counts its tiered partitions and names the brokers its replicas fetch
// from: each partition's leader, or the next replica where the replaced
// broker leads it; a partition whose only replica is the replaced broker
// names itself.
func TestBrokerResultCountsAndSources(t *testing.T) {
	b := &brokerBuilder{in: &BrokerInput{Broker: 3}, ids: []int32{1, 2, 3, 4, 5}, parts: []brokerPart{
		{replicas: []int32{1, 3}, tiered: true},
		{replicas: []int32{3, 2, 1}},
		{replicas: []int32{3, 5}, tiered: true},
		{replicas: []int32{4, 3}},
		{replicas: []int32{3}},
	}}
	r := b.result(&scenarios.Scenario{Name: "b3"}, *b.in)
	if r.Tiered != 2 || !slices.Equal(r.Sources, []int32{1, 2, 3, 4, 5}) || r.Partitions != 5 {
		t.Errorf("tiered %d, sources %v, partitions %d; want 2, [1 2 3 4 5], 5", r.Tiered, r.Sources, r.Partitions)
	}
	if r.Assumptions == nil || len(r.Assumptions) != 0 || r.Notes == nil || len(r.Notes) != 0 {
		t.Errorf("no assumptions or notes: %#v, %#v; want empty lists (JSON [], not null)", r.Assumptions, r.Notes)
	}
	b.assume, b.notes = []string{"an assumption"}, []string{"a note"}
	if r = b.result(&scenarios.Scenario{Name: "b3"}, *b.in); !slices.Equal(r.Assumptions, b.assume) || !slices.Equal(r.Notes, b.notes) {
		t.Errorf("assumptions %q, notes %q; want the builder's", r.Assumptions, r.Notes)
	}
	b.parts = b.parts[:2]
	if r = b.result(&scenarios.Scenario{Name: "b3"}, *b.in); !slices.Equal(r.Sources, []int32{1, 2}) || r.Tiered != 1 {
		t.Errorf("two partitions: sources %v, tiered %d; want [1 2], 1", r.Sources, r.Tiered)
	}
}
