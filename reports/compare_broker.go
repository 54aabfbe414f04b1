package reports

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"tierfetch/harness"
)

// BrokerScaleCSVColumns are the columns runs.csv gains for a comparison of
// broker-scale files: the result object's broker_scale
// (docs/reference/result.md), NA for a null time.
var BrokerScaleCSVColumns = []string{"restored_ms", "caught_up_ms_p50", "caught_up_ms_p99", "bytes_from_leaders",
	"bytes_from_remote", "fetcher_blocked_ms"}

// brokerScaleRow is r's broker-scale columns.
func brokerScaleRow(r *harness.RunMetrics) []string {
	b := r.BrokerScale
	if b == nil {
		return []string{na, na, na, na, na, na}
	}
	opt := func(ok bool, v int64) string {
		if ok {
			return strconv.FormatInt(v, 10)
		}
		return na
	}
	return []string{opt(b.RestoredKnown, b.RestoredMs), opt(b.P50Known, b.P50Ms), opt(b.P99Known, b.P99Ms),
		opt(true, b.BytesFromLeaders), opt(true, b.BytesFromRemote), opt(true, b.FetcherBlockedMs)}
}

// chartWords rewrites a chart's title or axis label for a comparison of
// broker-scale files, whose catch-up time is the time until the broker was
// restored and whose copied bytes are those from the leaders.
func chartWords(in *CompareInput, s string) string {
	if !in.BrokerScale {
		return s
	}
	return strings.NewReplacer(
		"Catch-up time, add_replica to ISR join", "Time until the broker is restored, replace_broker to the last ISR join",
		"the bytes each follower copied", "the bytes the broker copied",
		"bytes at ISR join", "bytes from leaders",
		"fraction of pairs caught up", "fraction of pairs restored",
		"Catch-up", "Restored", "catch-up", "restored").Replace(s)
}

// writeBrokerScale writes, for a comparison of broker-scale files, what
// the report's words mean for them and the broker-scale statistics per
// varied value: median over the pairs of each strategy's restored time,
// p99 of its partitions' catch-up, bytes from leaders and remote storage,
// and the time fetcher threads were blocked in tiered bootstraps.
func writeBrokerScale(w io.Writer, in *CompareInput) {
	if !in.BrokerScale {
		return
	}
	fmt.Fprintf(w, "## Broker scale\n\n")
	fmt.Fprintf(w, "The scenarios have many partitions. In this report a pair's **catch-up time** is the time until the replaced "+
		"broker was restored (`restored_ms`: from the first `replace_broker` until every replica it re-added joined its ISR), "+
		"and **bytes from the leader** are what all its re-added replicas fetched from their leaders (`bytes_from_leaders`); "+
		"`runs.csv` adds the result object's `broker_scale` columns (%s). Medians over the pairs in the statistics:\n\n",
		"`"+strings.Join(BrokerScaleCSVColumns, "`, `")+"`")
	values := in.VaryValues
	if len(values) == 0 {
		values = []string{""}
	}
	head := "| strategy | restored | caught up p99 | from leaders | from remote storage | threads blocked |"
	if in.VaryKey != "" {
		head = "| `" + in.VaryKey + "` " + head
	}
	fmt.Fprintf(w, "%s\n%s\n", head, strings.Repeat("| --- ", strings.Count(head, "|")-1)+"|")
	for _, v := range values {
		for _, side := range []struct {
			name string
			get  func(p *ComparePair) *harness.RunMetrics
		}{{"local-log-start", local}, {"last-tiered", tiered}} {
			var rs []*harness.BrokerScaleMetrics
			for i := range in.Pairs {
				p := &in.Pairs[i]
				if p.VaryValue == v && p.Included() && side.get(p).BrokerScale != nil {
					rs = append(rs, side.get(p).BrokerScale)
				}
			}
			med := func(f func(b *harness.BrokerScaleMetrics) (float64, bool)) float64 {
				var xs []float64
				for _, b := range rs {
					if x, ok := f(b); ok {
						xs = append(xs, x)
					} else {
						xs = append(xs, math.Inf(1))
					}
				}
				if len(xs) == 0 {
					return math.NaN()
				}
				slices.Sort(xs)
				return xs[(len(xs)-1)/2]
			}
			row := fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", side.name,
				msOrNever(med(func(b *harness.BrokerScaleMetrics) (float64, bool) { return float64(b.RestoredMs), b.RestoredKnown })),
				msOrNever(med(func(b *harness.BrokerScaleMetrics) (float64, bool) { return float64(b.P99Ms), b.P99Known })),
				fbytes(med(func(b *harness.BrokerScaleMetrics) (float64, bool) { return float64(b.BytesFromLeaders), true })),
				fbytes(med(func(b *harness.BrokerScaleMetrics) (float64, bool) { return float64(b.BytesFromRemote), true })),
				msOrNever(med(func(b *harness.BrokerScaleMetrics) (float64, bool) { return float64(b.FetcherBlockedMs), true })))
			if in.VaryKey != "" {
				row = "| " + v + " " + row
			}
			fmt.Fprintln(w, row)
		}
	}
	fmt.Fprintln(w)
}

// msOrNever is a median time: NA without pairs, never when it is one that
// never came.
func msOrNever(v float64) string {
	switch {
	case math.IsNaN(v):
		return na
	case math.IsInf(v, 1):
		return "never"
	}
	return ms(int64(v))
}
