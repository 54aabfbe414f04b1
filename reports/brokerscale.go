package reports

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// SlowestShown is how many of the slowest partitions a broker-scale
// summary names.
const SlowestShown = 3

// BrokerScaleSummary writes the summary of a broker-scale run (a file with
// partitions): what the file does to the brokers, then per strategy how
// long until the replaced broker was back, the catch-up percentiles, the
// bytes from leaders and from remote storage, the time fetcher threads
// were blocked in tiered bootstraps and the slowest partitions with why;
// last the strategies' ratios. runs are res's runs (the text-only details:
// bytes by source, blocked time by thread and partition).
func BrokerScaleSummary(w io.Writer, res harness.Result, runs []*harness.RunResult, sc *scenarios.Scenario) {
	n := 0
	for _, p := range sc.Partitions {
		n += int(p.Count)
	}
	fmt.Fprintf(w, "scenario %s  seed %d  profile %s  %d partitions (%s) on %d brokers\n", res.Scenario, res.Seed, res.Profile,
		n, partitionRanges(sc), sc.Brokers)
	if len(res.Runs) > 0 {
		fmt.Fprintf(w, "  %s\n", movedLine(&res.Runs[0], sc))
	}
	if l := limitsLine(sc); l != "" {
		fmt.Fprintf(w, "  limits: %s\n", l)
	}
	for i := range res.Runs {
		r := &res.Runs[i]
		fmt.Fprintf(w, "  %-16s %-18s steps=%d sim=%.1fs %s digest=%s\n", r.Strategy, r.Outcome, r.Steps, float64(r.SimMs)/1000,
			simParts(r.SimMs, sc.DurationMs, sc.HealMs), r.Digest)
		if r.Violation != nil {
			fmt.Fprintf(w, "    violation %s at %.3fs step %d: %s\n", r.Violation.Invariant, float64(r.Violation.AtMs)/1000, r.Violation.Step, r.Violation.Message)
		}
		var st *harness.BrokerScaleStats
		if i < len(runs) {
			st = runs[i].BrokerScale
		}
		brokerRunLines(w, r, st)
		for _, sk := range r.Skipped {
			fmt.Fprintf(w, "    skipped %s at %.3fs: %s\n", sk.Type, float64(sk.AtMs)/1000, sk.Reason)
		}
	}
	if len(res.Runs) == 2 {
		fmt.Fprintf(w, "  %s\n", brokerRatioLine(&res.Runs[0], &res.Runs[1]))
	}
}

// partitionRanges names a file's partitions: by entry (orders-0..1999,
// audit-0) up to three entries, else by topic with its count (orders 120,
// audit 60), in the file's order.
func partitionRanges(sc *scenarios.Scenario) string {
	var parts []string
	if len(sc.Partitions) <= 3 {
		for _, p := range sc.Partitions {
			s := fmt.Sprintf("%s-%d", p.Topic, p.Partition)
			if p.Count > 1 {
				s += fmt.Sprintf("..%d", int64(p.Partition)+p.Count-1)
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ", ")
	}
	var topics []string
	count := map[string]int64{}
	for _, p := range sc.Partitions {
		if count[p.Topic] == 0 {
			topics = append(topics, p.Topic)
		}
		count[p.Topic] += p.Count
	}
	for _, t := range topics {
		parts = append(parts, fmt.Sprintf("%s %d", t, count[t]))
	}
	return strings.Join(parts, ", ")
}

// movedLine says what the file's broker events did: the replaced brokers
// (or, without one, the replicas added), how many replicas that re-added,
// which leaders they fetch from at the end, and over how many fetcher
// threads.
func movedLine(r *harness.RunJSON, sc *scenarios.Scenario) string {
	var events []string
	for _, e := range sc.Events {
		if e.Type == scenarios.EventReplaceBroker && e.Broker != nil {
			events = append(events, fmt.Sprintf("replace_broker b%d at %s", *e.Broker, ms(e.AtMs)))
		}
	}
	added, bySource := 0, map[int]int{}
	type thread struct{ follower, leader, fetcher int }
	threads := map[thread]bool{}
	fetchers := max(1, int(sc.Config.NumReplicaFetchers))
	for _, p := range r.Partitions {
		added += len(p.Followers)
		if p.Leader == nil {
			continue
		}
		for _, f := range p.Followers {
			bySource[p.Leader.Broker]++
			threads[thread{f.Broker, p.Leader.Broker, model.FetcherID(p.Topic, p.Partition, fetchers)}] = true
		}
	}
	var from []string
	for _, b := range slices.Sorted(maps.Keys(bySource)) {
		from = append(from, fmt.Sprintf("b%d %d", b, bySource[b]))
	}
	verb := "added"
	if len(events) > 0 {
		verb = "re-added"
	}
	s := fmt.Sprintf("%d replicas %s", added, verb)
	if len(events) > 0 {
		s = strings.Join(events, ", ") + ": " + s
	}
	if len(from) > 0 {
		s += fmt.Sprintf(", fetching from %s (num_replica_fetchers %d: %d threads)", strings.Join(from, ", "), fetchers, len(threads))
	}
	return s
}

// brokerRunLines writes one strategy's broker-scale lines: restored and
// percentiles, bytes, blocked time, the slowest partitions.
func brokerRunLines(w io.Writer, r *harness.RunJSON, st *harness.BrokerScaleStats) {
	b := r.BrokerScale
	if b == nil {
		return
	}
	outcomes := map[string]int{}
	for _, p := range r.Partitions {
		outcomes[p.Outcome]++
	}
	if outcomes[harness.OutcomeOK] != len(r.Partitions) {
		var parts []string
		for _, o := range slices.Sorted(maps.Keys(outcomes)) {
			parts = append(parts, fmt.Sprintf("%d %s", outcomes[o], o))
		}
		fmt.Fprintf(w, "    partitions: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "    %s; caught up p50 %s, p99 %s\n", restoredText(r, st), optMs(b.CaughtUpMsP50), optMs(b.CaughtUpMsP99))
	src := ""
	if st != nil && len(st.Sources) > 0 {
		var parts []string
		for _, s := range st.Sources {
			parts = append(parts, fmt.Sprintf("b%d %s", s.Broker, bytes(s.Bytes)))
		}
		src = " (" + strings.Join(parts, ", ") + ")"
	}
	fmt.Fprintf(w, "    from leaders %s%s; from remote storage %s\n", bytes(b.BytesFromLeaders), src, bytes(b.BytesFromRemote))
	thr := ""
	if st != nil && len(st.Threads) > 0 {
		ts := slices.Clone(st.Threads)
		slices.SortStableFunc(ts, func(a, b harness.ThreadBlocked) int { return cmp.Compare(b.Blocked, a.Blocked) })
		var parts []string
		for i, t := range ts {
			if i == 3 {
				parts = append(parts, fmt.Sprintf("%d more", len(ts)-3))
				break
			}
			parts = append(parts, fmt.Sprintf("b%d<-b%d#%d %s", t.Follower, t.Leader, t.Fetcher, ms(t.Blocked.Ms())))
		}
		thr = " (" + strings.Join(parts, ", ") + ")"
	}
	fmt.Fprintf(w, "    fetcher threads blocked in tiered bootstraps %s%s\n", ms(b.FetcherBlockedMs), thr)
	for i, s := range slowest(r, st) {
		label := "slowest:"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(w, "    %-8s %s\n", label, s)
	}
}

// restoredText says when the replaced broker was back: every replica it
// re-added in its ISR.
func restoredText(r *harness.RunJSON, st *harness.BrokerScaleStats) string {
	who := "the broker"
	if st != nil && len(st.Replaced) > 0 {
		var bs []string
		for _, b := range st.Replaced {
			bs = append(bs, fmt.Sprintf("b%d", b))
		}
		who = strings.Join(bs, ", ")
	} else if st != nil && r.BrokerScale.RestoredMs == nil {
		return "no broker replaced"
	} else if st != nil {
		who = "the reassigned replicas" // restored_ms is known: a reassign, no replace_broker
	}
	if b := r.BrokerScale; b.RestoredMs != nil {
		return fmt.Sprintf("%s restored in %s", who, ms(*b.RestoredMs))
	}
	never, all := 0, 0
	for _, p := range r.Partitions {
		for _, f := range p.Followers {
			all++
			if f.CaughtUpMs == nil {
				never++
			}
		}
	}
	return fmt.Sprintf("%s NOT restored: %d of %d re-added replicas never joined their ISR", who, never, all)
}

// slowest names the partitions whose added replica caught up last (never
// first), with why: its bootstrap path and start, what it copied, its
// retries and how long its own bootstraps blocked its thread.
func slowest(r *harness.RunJSON, st *harness.BrokerScaleStats) []string {
	type slow struct {
		part int
		f    *harness.FollowerJSON
	}
	var all []slow
	for i := range r.Partitions {
		for j := range r.Partitions[i].Followers {
			all = append(all, slow{i, &r.Partitions[i].Followers[j]})
		}
	}
	key := func(s slow) int64 {
		if s.f.CaughtUpMs == nil {
			return 1 << 62
		}
		return *s.f.CaughtUpMs
	}
	slices.SortStableFunc(all, func(a, b slow) int { return cmp.Compare(key(b), key(a)) })
	var out []string
	for _, s := range all[:min(len(all), SlowestShown)] {
		p, f := &r.Partitions[s.part], s.f
		when := "never"
		if f.CaughtUpMs != nil {
			when = ms(*f.CaughtUpMs)
		}
		why := fmt.Sprintf("%s from %d, %s", f.Bootstrap.Path, f.Bootstrap.StartOffset, bytes(f.BytesFromLeader))
		if f.Bootstrap.Retries > 0 {
			var rs []string
			for _, name := range slices.Sorted(maps.Keys(f.Bootstrap.RetriesByReason)) {
				rs = append(rs, fmt.Sprintf("%s %d", name, f.Bootstrap.RetriesByReason[name]))
			}
			why += fmt.Sprintf(", %d retries (%s)", f.Bootstrap.Retries, strings.Join(rs, ", "))
		} else {
			why += ", no retries"
		}
		if st != nil && s.part < len(st.PartBlocked) {
			why += ", its bootstraps blocked its thread " + ms(st.PartBlocked[s.part].Ms())
		}
		out = append(out, fmt.Sprintf("%s-%d b%d %s: %s", p.Topic, p.Partition, f.Broker, when, why))
	}
	return out
}

// brokerRatioLine compares the second strategy's run with the first's.
func brokerRatioLine(a, b *harness.RunJSON) string {
	x, y := a.BrokerScale, b.BrokerScale
	if x == nil || y == nil {
		return ""
	}
	ratio := func(u, v *int64) string {
		if u == nil || v == nil {
			return "n/a"
		}
		return brokerRatio(float64(*v), float64(*u))
	}
	bl, br := x.BytesFromLeaders, y.BytesFromLeaders
	fa, fb := x.FetcherBlockedMs, y.FetcherBlockedMs
	return fmt.Sprintf("%s / %s: restored %s, p99 %s, from leaders %s, blocked %s", b.Strategy, a.Strategy,
		ratio(x.RestoredMs, y.RestoredMs), ratio(x.CaughtUpMsP99, y.CaughtUpMsP99), ratio(&bl, &br), ratio(&fa, &fb))
}

// brokerRatio is v/u as "0.55x", or n/a when u is 0.
func brokerRatio(v, u float64) string {
	if u == 0 {
		if v == 0 {
			return "1.00x"
		}
		return "n/a"
	}
	return fmt.Sprintf("%.2fx", v/u)
}

func optMs(v *int64) string {
	if v == nil {
		return "never"
	}
	return ms(*v)
}

// limitsLine names the shared resources and replication throttles the file
// limits ("" when none: every one unlimited), so a reader sees what slowed
// the restore.
func limitsLine(sc *scenarios.Scenario) string {
	c := &sc.Config
	var l []string
	if c.BrokerNetworkBytesPerSec >= 0 {
		l = append(l, fmt.Sprintf("network %s/s a broker each way", bytes(c.BrokerNetworkBytesPerSec)))
	}
	if c.BrokerDiskBytesPerSec >= 0 {
		l = append(l, fmt.Sprintf("disk %s/s a broker", bytes(c.BrokerDiskBytesPerSec)))
	}
	if c.RemoteFetchConcurrency >= 0 {
		l = append(l, fmt.Sprintf("remote reads %d at once a broker", c.RemoteFetchConcurrency))
	}
	listed := func(top string, entry func(*scenarios.TopicConfig) *string) bool {
		if top != "" {
			return true
		}
		for _, p := range sc.Partitions {
			if p.Config == nil {
				continue
			}
			if v := entry(p.Config); v != nil && *v != "" {
				return true
			}
		}
		return false
	}
	if c.FollowerReplicationThrottledRate >= 0 && listed(c.FollowerReplicationThrottledReplicas,
		func(t *scenarios.TopicConfig) *string { return t.FollowerReplicationThrottledReplicas }) {
		l = append(l, fmt.Sprintf("follower throttle %s/s on the listed replicas", bytes(c.FollowerReplicationThrottledRate)))
	}
	if c.LeaderReplicationThrottledRate >= 0 && listed(c.LeaderReplicationThrottledReplicas,
		func(t *scenarios.TopicConfig) *string { return t.LeaderReplicationThrottledReplicas }) {
		l = append(l, fmt.Sprintf("leader throttle %s/s on the listed replicas", bytes(c.LeaderReplicationThrottledRate)))
	}
	return strings.Join(l, ", ")
}
