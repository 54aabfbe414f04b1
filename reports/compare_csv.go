package reports

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"tierfetch/harness"
	"tierfetch/model"
)

// CompareCSVHeader returns the columns of runs.csv, in order.
func CompareCSVHeader() []string {
	h := []string{"scenario", "vary_key", "vary_value", "seed", "strategy", "included", "outcome", "invariant", "kind",
		"follower", "path", "start_offset", "catch_up_ms", "bytes_from_leader", "leader_egress_bytes", "egress_bytes",
		"remote_aux_bytes", "aux_state_builds", "list_offsets", "fetches", "fallbacks", "retries", "stalled_ms"}
	for _, r := range model.RetryReasonNames() {
		h = append(h, "retries_"+csvName(r))
	}
	for _, r := range model.RetryReasonNames() {
		h = append(h, "stalled_ms_"+csvName(r))
	}
	return append(h, "leader_local_fraction_at_add", "leader_log_bytes_at_add", "llso_at_join", "local_bytes_at_join",
		"price_remote_bytes", "price_local_bytes", "price_extra_latency_ms", "redundancy_restored_ms",
		"consume_remote_bytes", "consume_local_bytes", "steps", "digest", "profile")
}

func csvName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// na is how runs.csv writes a value that does not exist.
const na = "NA"

// CompareCSV writes runs.csv: one row per pair and strategy (local-log-start
// first), every metric; NA where a value does not exist. The pairs of the
// first profile come first, then those of each further profile, then those
// of the sweep beside the comparison (if any).
func CompareCSV(w io.Writer, in *CompareInput) error {
	cw := csv.NewWriter(w)
	header := CompareCSVHeader()
	if in.BrokerScale {
		header = append(header, BrokerScaleCSVColumns...)
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	type set struct {
		varyKey string
		pairs   []ComparePair
	}
	sets := []set{{in.VaryKey, in.Pairs}}
	for _, o := range in.Others {
		sets = append(sets, set{in.VaryKey, o.Pairs})
	}
	if in.Sweep != nil {
		sets = append(sets, set{in.Sweep.VaryKey, in.Sweep.Pairs})
	}
	for _, set := range sets {
		for i := range set.pairs {
			p := &set.pairs[i]
			for _, r := range []*harness.RunMetrics{p.Local, p.Tiered} {
				row := csvRow(set.varyKey, p, r)
				if in.BrokerScale {
					row = append(row, brokerScaleRow(r)...)
				}
				if err := cw.Write(row); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRow(varyKey string, p *ComparePair, r *harness.RunMetrics) []string {
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	itoa := strconv.Itoa
	opt := func(ok bool, v string) string {
		if ok {
			return v
		}
		return na
	}
	included := "no"
	if p.Included() {
		included = "yes"
	}
	hasF := r.Follower >= 0
	row := []string{p.Scenario, varyKey, p.VaryValue, strconv.FormatUint(p.Seed, 10), string(r.Strategy), included,
		r.Outcome, r.Invariant, r.Kind, opt(hasF, itoa(r.Follower)), opt(hasF, r.Path), opt(hasF, i64(r.StartOffset)),
		opt(r.CaughtUp, i64(r.CatchUpMs)), opt(hasF, i64(r.BytesFromLeader)), i64(r.LeaderEgressBytes), i64(r.EgressBytes),
		opt(hasF, i64(r.RemoteAuxBytes)), opt(hasF, itoa(r.AuxStateBuilds)), opt(hasF, itoa(r.ListOffsets)),
		opt(hasF, itoa(r.Fetches)), opt(hasF, itoa(r.Fallbacks)), opt(hasF, itoa(r.Retries)), opt(hasF, i64(r.StalledMs))}
	n := len(model.RetryReasonNames())
	for i := range n {
		row = append(row, opt(hasF, itoa(reason(r, i))))
	}
	for i := range n {
		row = append(row, opt(hasF, i64(int64(reason(r, i))*r.BackoffMs)))
	}
	return append(row,
		opt(r.LocalFractionKnown, strconv.FormatFloat(r.LocalFractionAtAdd, 'f', 4, 64)),
		opt(hasF, i64(r.LogBytesAtAdd)),
		opt(r.CaughtUp, i64(r.LLSOAtJoin)), opt(r.CaughtUp, i64(r.LocalBytesAtJoin)),
		opt(hasF && r.PriceKnown, i64(r.PriceRemoteBytes)), opt(hasF && r.PriceKnown, i64(r.PriceLocalBytes)),
		opt(hasF && r.PriceKnown, strconv.FormatFloat(r.PriceExtraLatencyMs, 'f', 1, 64)),
		opt(r.RedundancyKnown, i64(r.RedundancyMs)),
		i64(r.ConsumeRemoteBytes), i64(r.ConsumeLocalBytes), i64(r.Steps), short(r.Digest), p.Profile)
}

func reason(r *harness.RunMetrics, i int) int {
	if i < len(r.RetriesByReason) {
		return r.RetriesByReason[i]
	}
	return 0
}
