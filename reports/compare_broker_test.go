package reports

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"tierfetch/harness"
)

// TestWriteBrokerScale: the comparison's broker-scale table per varied
// value and strategy: the median over the included pairs (a pair that
// failed an invariant or has no broker-scale statistics stays out), never
// when the median is a time that never came, NA without pairs; nothing
// for files that are not broker-scale.
func TestWriteBrokerScale(t *testing.T) {
	bs := func(restored int64, known bool, p99, leaders, remote, blocked int64) *harness.BrokerScaleMetrics {
		return &harness.BrokerScaleMetrics{RestoredKnown: known, RestoredMs: restored, P99Known: true, P99Ms: p99,
			BytesFromLeaders: leaders, BytesFromRemote: remote, FetcherBlockedMs: blocked}
	}
	pair := func(v string, tieredOutcome string, l, ti *harness.BrokerScaleMetrics) ComparePair {
		return ComparePair{VaryValue: v, Local: &harness.RunMetrics{Outcome: harness.OutcomeOK, BrokerScale: l},
			Tiered: &harness.RunMetrics{Outcome: tieredOutcome, BrokerScale: ti}}
	}
	ok := harness.OutcomeOK
	in := &CompareInput{BrokerScale: true, VaryKey: "segment_bytes", VaryValues: []string{"1", "2", "3"}, Pairs: []ComparePair{
		pair("1", ok, bs(3000, true, 50, 3<<20, 10, 7), bs(900, true, 40, 1024, 1<<30, 1)),
		pair("1", ok, bs(1000, true, 70, 1<<20, 30, 9), bs(800, false, 60, 2048, 1<<30, 2)),
		pair("1", ok, bs(2000, true, 60, 2<<20, 20, 8), bs(700, false, 20, 4096, 1<<30, 3)),
		pair("1", "violation", bs(1, true, 1, 1, 1, 1), bs(1, true, 1, 1, 1, 1)),
		pair("1", ok, nil, nil),
		pair("2", ok, bs(12000, true, 5, 5, 5, 5), bs(100, false, 6, 6, 6, 6)),
		pair("2", ok, bs(14000, true, 5, 5, 5, 5), bs(200, true, 6, 6, 6, 6)),
	}}
	var b strings.Builder
	writeBrokerScale(&b, in)
	got := b.String()
	table := "| `segment_bytes` | strategy | restored | caught up p99 | from leaders | from remote storage | threads blocked |\n" +
		"| --- | --- | --- | --- | --- | --- | --- |\n" +
		"| 1 | local-log-start | 2000 ms | 60 ms | 2.00 MiB | 20 B | 8 ms |\n" +
		"| 1 | last-tiered | never | 40 ms | 2.0 KiB | 1.00 GiB | 2 ms |\n" +
		"| 2 | local-log-start | 12.0 s | 5 ms | 5 B | 5 B | 5 ms |\n" +
		"| 2 | last-tiered | 200 ms | 6 ms | 6 B | 6 B | 6 ms |\n" +
		"| 3 | local-log-start | NA | NA | NA | NA | NA |\n" +
		"| 3 | last-tiered | NA | NA | NA | NA | NA |\n\n"
	if !strings.HasPrefix(got, "## Broker scale\n\n") || !strings.HasSuffix(got, table) {
		t.Errorf("broker-scale section:\n%s\nwant it to end with:\n%s", got, table)
	}
	if !strings.Contains(got, "(`restored_ms`, `caught_up_ms_p50`, `caught_up_ms_p99`, `bytes_from_leaders`, `bytes_from_remote`, `fetcher_blocked_ms`)") {
		t.Errorf("broker-scale section does not list the csv columns:\n%s", got)
	}

	in = &CompareInput{BrokerScale: true, Pairs: []ComparePair{pair("", ok, bs(5, true, 5, 5, 5, 5), bs(6, true, 6, 6, 6, 6))}}
	b.Reset()
	writeBrokerScale(&b, in)
	table = "| strategy | restored | caught up p99 | from leaders | from remote storage | threads blocked |\n" +
		"| --- | --- | --- | --- | --- | --- |\n" +
		"| local-log-start | 5 ms | 5 ms | 5 B | 5 B | 5 ms |\n" +
		"| last-tiered | 6 ms | 6 ms | 6 B | 6 B | 6 ms |\n\n"
	if got := b.String(); !strings.HasSuffix(got, table) {
		t.Errorf("broker-scale section without a varied key:\n%s\nwant it to end with:\n%s", got, table)
	}

	in.BrokerScale = false
	b.Reset()
	writeBrokerScale(&b, in)
	if b.Len() != 0 {
		t.Errorf("not broker-scale: wrote %q", b.String())
	}
}

// TestBrokerScaleRow: runs.csv's broker-scale columns, NA for a time that
// never came and for a run without the statistics.
func TestBrokerScaleRow(t *testing.T) {
	r := &harness.RunMetrics{BrokerScale: &harness.BrokerScaleMetrics{RestoredKnown: true, RestoredMs: 1, P50Known: false, P50Ms: 2,
		P99Known: true, P99Ms: 3, BytesFromLeaders: 4, BytesFromRemote: 5, FetcherBlockedMs: 6}}
	if got, want := strings.Join(brokerScaleRow(r), ","), "1,NA,3,4,5,6"; got != want {
		t.Errorf("row %s, want %s", got, want)
	}
	if got, want := strings.Join(brokerScaleRow(&harness.RunMetrics{}), ","), "NA,NA,NA,NA,NA,NA"; got != want {
		t.Errorf("row without stats %s, want %s", got, want)
	}
}

// TestChartWords: a broker-scale comparison's charts speak of the time
// until the broker is restored; others keep their words.
func TestChartWords(t *testing.T) {
	s := "Catch-up time, add_replica to ISR join; catch-up vs bytes at ISR join"
	if got := chartWords(&CompareInput{}, s); got != s {
		t.Errorf("not broker-scale: %q", got)
	}
	want := "Time until the broker is restored, replace_broker to the last ISR join; restored vs bytes from leaders"
	if got := chartWords(&CompareInput{BrokerScale: true}, s); got != want {
		t.Errorf("broker-scale: %q, want %q", got, want)
	}
}

// TestBrokerScalePriceSentence: a broker-scale comparison says what the
// price it does not measure is, in a whole sentence.
func TestBrokerScalePriceSentence(t *testing.T) {
	in := &CompareInput{BrokerScale: true}
	var b strings.Builder
	writeHeadlineRest(&b, in, Analyze(in), nil)
	want := "- **The price** (what a consumer would read from remote storage were an added replica elected leader) is not measured for broker-scale files.\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("headline:\n%s\nwant it to hold:\n%s", b.String(), want)
	}
}

// TestMergeCloseLabels: labels of bars that lie on top of each other (the
// same copy ratio, ratios a line apart or less) print once, joined, at
// their geometric-mean height; labels apart up or across stay apart.
func TestMergeCloseLabels(t *testing.T) {
	in := plotter.XYLabels{
		XYs:    []plotter.XY{{X: 0.5, Y: 0.96}, {X: 0.5, Y: 0.962}, {X: 0.5, Y: 0.94}, {X: 0.5, Y: 0.961}, {X: 0.5, Y: 1.5}, {X: 0.8, Y: 0.96}},
		Labels: []string{"1", "2", "4", "5", "8", "16"},
	}
	got := mergeCloseLabels(in, 0.5, 2)
	if want := []string{"1, 2, 4, 5", "8", "16"}; !slices.Equal(got.Labels, want) {
		t.Fatalf("labels %q, want %q", got.Labels, want)
	}
	mean := math.Exp((math.Log(0.96) + math.Log(0.962) + math.Log(0.94) + math.Log(0.961)) / 4)
	if xy := got.XYs[0]; xy.X != 0.5 || math.Abs(xy.Y-mean) > 1e-12 {
		t.Errorf("joined label at %v, want (0.5, %v)", xy, mean)
	}
	if got.XYs[1] != in.XYs[4] || got.XYs[2] != in.XYs[5] {
		t.Errorf("labels apart moved: %v", got.XYs[1:])
	}
}
