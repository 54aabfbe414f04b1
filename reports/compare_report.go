package reports

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"tierfetch/config"

	"tierfetch/harness"
	"tierfetch/model"
)

// Chart file names of a comparison report.
const (
	ChartCopy     = "ratio-vs-copy.svg"
	ChartCDF      = "catchup-cdf.svg"
	ChartPaired   = "catchup-paired.svg"
	ChartSweep    = "sweep.svg"
	ChartTimeline = "timeline.svg"
)

// CompareReport writes report.md: the setup, the headline numbers, the
// charts (relative links to the SVG files named in charts), the statistics
// by scenario and by varied value, the costs, what was excluded and why, and
// how every number is computed.
func CompareReport(w io.Writer, in *CompareInput, a *Analysis, charts []string) {
	has := func(name string) bool {
		for _, c := range charts {
			if c == name {
				return true
			}
		}
		return false
	}
	fmt.Fprintf(w, "# Follower fetch from the tiered offset: how much sooner, at what cost\n\n")
	fmt.Fprintf(w, "Regenerate this report (the same binary gives the same bytes):\n\n```sh\n%s\n```\n\n", in.Command)
	if in.Version != "" {
		in.Names.Fprintf(w, "Made by simrun `%s` (`simrun --version`: the module version and VCS revision from the build info; "+
			"`(devel)` is a build without a VCS stamp, as `go test` and `go run -buildvcs=false` make) with the command above: "+
			"its flags in a canonical order; `{Workers}`, `{Shard}` and `simrun merge` change no byte.\n\n", in.Version)
	}
	if sw := in.Sweep; sw != nil {
		fmt.Fprintf(w, "That one command also runs the [parameter sweep](#%s) beside the statistics (`%s` and the sweep's rows "+
			"in `runs.csv`); the sweep alone, with every chart of a comparison:\n\n```sh\n%s\n```\n\n",
			anchor(sweepBesideTitle(sw)), ChartSweep, sw.Command)
	}
	writeSetup(w, in, a)
	writeBrokerScale(w, in)
	writeHeadline(w, in, a)
	if has(ChartCopy) {
		writeCopyChart(w, a)
	}
	if has(ChartCDF) {
		fmt.Fprintf(w, "![CDF of catch-up time](%s)\n\n", ChartCDF)
	}
	if has(ChartPaired) {
		fmt.Fprintf(w, "![paired catch-up times per seed](%s)\n\n", ChartPaired)
	}
	writeByScenario(w, a)
	writeCosts(w, a)
	if in.VaryKey != "" {
		writeSweep(w, in, a, has(ChartSweep))
	}
	if in.Sweep != nil {
		writeSweepBeside(w, in.Sweep, a.Sweep, has(ChartSweep))
	}
	if a.Profiles != nil {
		writeProfiles(w, in, a)
	}
	if a.Fixes != nil {
		writeFixed(w, in, a.Fixes)
	}
	if has(ChartTimeline) && in.Timeline != nil {
		writeTimeline(w, in)
	}
	writeExclusions(w, in, a)
	writeMethod(w, in.Names)
}

// writeCopyChart links the chart of the catch-up ratio against the copy
// ratio and says how to read it, with the overall medians, and why it is
// drawn rather than the leader's local log fraction.
func writeCopyChart(w io.Writer, a *Analysis) {
	fmt.Fprintf(w, "![catch-up ratio against the bytes each follower copied](%s)\n\n", ChartCopy)
	var cs []float64
	for _, p := range a.All.compared {
		if c, ok := copyRatio(p); ok {
			cs = append(cs, c)
		}
	}
	slices.Sort(cs)
	fmt.Fprintf(w, "Each point is one pair (colour and shape: scenario; a black bar is a scenario's geometric mean): across, the bytes "+
		"last-tiered's new follower held at its ISR join as a share of local-log-start's (`local_bytes_at_join`: what each copied "+
		"from the leader, `[EPUO, LEO)` against `[LLSO, LEO)` on the usual paths); up, the catch-up ratio. On the dashed diagonal "+
		"the catch-up time is in proportion to the bytes copied; the further above it, the more of the gain other costs take back "+
		"(ListOffsets round trips, retries while the leader does not know its highest uploaded offset, the auxiliary-state build), "+
		"and they weigh most where the copy is small. At 1 across both copied the same and last-tiered gains nothing; at `0 (none)`, "+
		"left of the dotted line when there is one, its follower held no bytes at its join. Here the median copy ratio is %s and "+
		"the median catch-up ratio %s. This chart replaces one of the ratio against the leader's local log fraction at add_replica: "+
		"a named scenario fixes that fraction, so each scenario was one column of dots, and scenarios with the same fraction had "+
		"ratios far apart: the fraction does not set the ratio; the bytes each copies bound it, and those costs come on top.\n\n",
		frac(Percentile(cs, 50)), ratio(a.All.Median))
}

func writeSetup(w io.Writer, in *CompareInput, a *Analysis) {
	fmt.Fprintf(w, "## Setup\n\n")
	fmt.Fprintf(w, "Each pair runs one seed of one scenario under both follower protocols: **local-log-start** "+
		"(KIP-405, `follower.fetch.last.tiered.offset.enable=false`: copy the leader's local log from its local log start offset) "+
		"and **last-tiered** (KIP-1023, the flag on: start at the earliest pending upload offset and rebuild only the auxiliary state "+
		"for what lies in remote storage). Both runs of a pair get the same exogenous events. ")
	if in.Generated {
		in.Names.Fprintf(w, "Each seed generates its own scenario (`simrun gen {Seed} N`): cluster, log, retention, produce bursts and faults.\n\n")
	} else {
		fmt.Fprintf(w, "The scenario's events are fixed; the seed changes only the network and remote-storage latency draws and which producer writes each batch.\n\n")
	}
	if in.Generated {
		fmt.Fprintf(w, "- scenarios: generated from the seeds\n")
	} else {
		fmt.Fprintf(w, "- scenarios (%d): %s\n", len(in.Scenarios), "`"+strings.Join(in.Scenarios, "`, `")+"`")
	}
	fmt.Fprintf(w, "- seeds: %s; profile `%s`; %d pairs, %d runs\n", in.Seeds, in.Profile, len(in.Pairs), 2*len(in.Pairs))
	if len(in.Others) > 0 {
		var names []string
		for _, o := range in.Others {
			names = append(names, "`"+o.Profile+"`")
		}
		fmt.Fprintf(w, "- the same pairs under profile %s too: only in [%s](#%s)\n", strings.Join(names, ", "),
			ProfilesTitle(a.Profiles.Profiles), anchor(ProfilesTitle(a.Profiles.Profiles)))
	}
	if len(in.Fixed) > 0 {
		in.Names.Fprintf(w, "- the same pairs again under each profile with every fix of Kafka's code the upstream reports suggest "+
			"(`{Fix} all`): only in [%s](#%s) and the headline\n", fixedTitle(in.Names), anchor(fixedTitle(in.Names)))
	}
	if in.Fix != "" {
		in.Names.Fprintf(w, "- every run with the fixes `{Fix} %s` of Kafka's code (`simrun fixes`)\n", in.Fix)
	}
	if sw := in.Sweep; sw != nil {
		fmt.Fprintf(w, "- beside them, a parameter sweep: `%s` = %s on `%s`, the same seeds, profile `%s` (see [%s](#%s))\n",
			sw.VaryKey, strings.Join(sw.VaryValues, ", "), strings.Join(sw.Scenarios, "`, `"), sw.Profile,
			sweepBesideTitle(sw), anchor(sweepBesideTitle(sw)))
	}
	if in.VaryKey != "" {
		fmt.Fprintf(w, "- varied: `%s` = %s (every pair at every value)\n", in.VaryKey, strings.Join(in.VaryValues, ", "))
	}
	fmt.Fprintf(w, "- in the statistics: **%d of %d pairs** (both runs passed every invariant); %d excluded (see [Excluded](#excluded))",
		a.All.Included, a.All.Pairs, a.All.Pairs-a.All.Included)
	if n := a.All.Included - a.All.Compared; n > 0 {
		fmt.Fprintf(w, "; %d included pairs have no added follower that joined the ISR and give no catch-up time", n)
	}
	fmt.Fprintf(w, "\n\n")
}

func writeHeadline(w io.Writer, in *CompareInput, a *Analysis) {
	g := a.All
	fmt.Fprintf(w, "## Headline\n\n")
	if g.Compared == 0 {
		fmt.Fprintf(w, "No pair could be compared: no included pair has an added follower that joined the ISR under both protocols.\n\n")
		return
	}
	what := "**Catch-up time** (add_replica to the first ISR join of the first added follower)"
	if in.BrokerScale {
		what = "**Restore time** (the first replace_broker or reassign until every replica it added joined its ISR)"
	}
	fmt.Fprintf(w, "- "+what+": last-tiered takes "+
		"**%s** the time of local-log-start (geometric mean of %d per-seed ratios, 95%% bootstrap CI %s to %s; median ratio %s). "+
		"last-tiered is faster in **%d of %d** pairs (win rate %s), as fast in %d, slower in %d.\n",
		ratio(g.GeoMean), g.RatioN, ratio(g.CILo), ratio(g.CIHi), ratio(g.Median), g.Wins, g.Compared, pct(g.WinRate), g.Ties, g.Losses)
	ps := g.compared
	bl, bt := meanOf(ps, local, func(r *harness.RunMetrics) float64 { return float64(r.BytesFromLeader) }),
		meanOf(ps, tiered, func(r *harness.RunMetrics) float64 { return float64(r.BytesFromLeader) })
	el, et := meanOf(ps, local, func(r *harness.RunMetrics) float64 { return float64(r.LeaderEgressBytes) }),
		meanOf(ps, tiered, func(r *harness.RunMetrics) float64 { return float64(r.LeaderEgressBytes) })
	if in.BrokerScale {
		// One leader's egress and the price of a new leader are
		// one-partition measures: a broker-scale run has neither.
		fmt.Fprintf(w, "- **Bytes the added replicas fetched from their leaders**: %s under last-tiered against %s (mean per pair, %s).\n",
			fbytes(bt), fbytes(bl), change(bt, bl))
	} else {
		fmt.Fprintf(w, "- **Bytes the new follower fetched from the leader**: %s under last-tiered against %s (mean per pair, %s); "+
			"the initial leader's replication egress over the whole run: %s against %s.\n",
			fbytes(bt), fbytes(bl), change(bt, bl), fbytes(et), fbytes(el))
	}
	writeHeadlineRest(w, in, a, ps)
}

func writeHeadlineRest(w io.Writer, in *CompareInput, a *Analysis, ps []*ComparePair) {
	pl, pt := meanOf(ps, local, priceRemote), meanOf(ps, tiered, priceRemote)
	ll, lt := meanOf(ps, local, priceLatency), meanOf(ps, tiered, priceLatency)
	if in.BrokerScale {
		fmt.Fprintf(w, "- **The price** (what a consumer would read from remote storage were an added replica elected leader) is not measured for broker-scale files.\n")
	} else {
		fmt.Fprintf(w, "- **The price**: were the new follower leader at the end, a consumer reading from the log start would get "+
			"%s from remote storage under last-tiered against %s under local-log-start (mean), about %s against %s of remote reads (%s).\n",
			fbytes(pt), fbytes(pl), fms(lt), fms(ll), "see [How](#how-the-numbers-are-computed)")
	}
	sl, st := meanOf(ps, local, stalled), meanOf(ps, tiered, stalled)
	fmt.Fprintf(w, "- **Stalls**: %s backing off before the first records under last-tiered against %s (mean per pair).\n", fms(st), fms(sl))
	if why := meansDisagree(a); why != "" {
		fmt.Fprintf(w, "- **Why the means disagree**: %s\n", why)
	}
	if a.Sweep != nil {
		writeSweepHeadline(w, in.Sweep, a.Sweep)
	}
	if a.Profiles != nil {
		writeProfilesHeadline(w, a.Profiles)
	}
	if a.Fixes != nil {
		writeFixedHeadline(w, a.Fixes, in.Names)
	}
	g := a.All
	col := "catch-up time"
	if in.BrokerScale {
		col = "restore time"
	}
	fmt.Fprintf(w, "\n| %s | pairs | p50 | p90 | p99 | max |\n| --- | ---: | ---: | ---: | ---: | ---: |\n", col)
	for _, row := range []struct {
		name string
		d    Dist
	}{{"local-log-start", g.Local}, {"last-tiered", g.Tiered}} {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s |\n", row.name, row.d.N, fms(row.d.P50), fms(row.d.P90), fms(row.d.P99), fms(row.d.Max))
	}
	fmt.Fprintln(w)
}

// meansDisagree explains, in one sentence, a geometric-mean ratio and a
// ratio of mean catch-up times that point different ways (one below 1, the
// other above): the mean adds milliseconds, so a few long pairs outweigh
// many short ones, while the geometric mean gives every pair's ratio the
// same weight. It names the scenario whose pairs add the most to the
// difference of the sums. "" when both point the same way.
func meansDisagree(a *Analysis) string {
	g := a.All
	ml := meanOf(g.compared, local, catchUp)
	mt := meanOf(g.compared, tiered, catchUp)
	if math.IsNaN(g.GeoMean) || math.IsNaN(ml) || ml <= 0 || (g.GeoMean < 1) == (mt/ml < 1) || g.GeoMean == 1 || mt == ml {
		return ""
	}
	total := (mt - ml) * float64(len(g.compared))
	best, bestDiff, bestN := "", 0.0, 0
	for _, sg := range a.ByScenario {
		var d float64
		for _, p := range sg.compared {
			d += float64(p.Tiered.CatchUpMs - p.Local.CatchUpMs)
		}
		if d*total > 0 && math.Abs(d) > math.Abs(bestDiff) {
			best, bestDiff, bestN = sg.Name, d, len(sg.compared)
		}
	}
	if best == "" {
		return ""
	}
	word := func(d float64) string {
		if d > 0 {
			return "longer"
		}
		return "shorter"
	}
	// The other pairs' sum, unless there are none; rounded to nothing, it
	// is no difference, not "0 ms shorter".
	others := ""
	if rest, n := total-bestDiff, len(g.compared)-bestN; n > 0 {
		others = fmt.Sprintf(" (the other %d pairs together: %s %s)", n, fms(math.Abs(rest)), word(rest))
		if fms(math.Abs(rest)) == fms(0) {
			others = fmt.Sprintf(" (the other %d pairs together: no difference)", n)
		}
	}
	return fmt.Sprintf("the mean catch-up time is %s under last-tiered (%s against %s) although the geometric mean of the ratios is %s, "+
		"because a mean adds milliseconds: the %d pairs of `%s` alone make last-tiered's sum %s %s%s, "+
		"while the geometric mean gives each pair's ratio the same weight.",
		word(total), fms(mt), fms(ml), ratio(g.GeoMean), bestN, best, fms(math.Abs(bestDiff)), word(bestDiff), others)
}

// sidesText says on how many points of a curve each protocol was faster.
func sidesText(ys []float64, what string) string {
	below, even, above := Sides(ys)
	return fmt.Sprintf("last-tiered faster at %d %s, even at %d, slower at %d", below, what, even, above)
}

func writeByScenario(w io.Writer, a *Analysis) {
	fmt.Fprintf(w, "## By scenario\n\n")
	fmt.Fprintf(w, "| scenario | pairs in stats | paths (local-log-start / last-tiered) | p50 local-log-start | p50 last-tiered | ratio, geometric mean (95%% CI) | wins / ties / losses | leader local fraction |\n")
	fmt.Fprintf(w, "| --- | ---: | --- | ---: | ---: | --- | --- | ---: |\n")
	for _, g := range a.ByScenario {
		fmt.Fprintf(w, "| `%s` | %d of %d | %s / %s | %s | %s | %s (%s to %s) | %d / %d / %d | %s |\n",
			g.Name, g.Compared, g.Pairs, commonPath(g.compared, local), commonPath(g.compared, tiered),
			fms(g.Local.P50), fms(g.Tiered.P50), ratio(g.GeoMean), ratio(g.CILo), ratio(g.CIHi), g.Wins, g.Ties, g.Losses, frac(g.Fraction))
	}
	fmt.Fprintln(w)
}

// commonPath is the most frequent bootstrap path of one side of pairs.
func commonPath(ps []*ComparePair, side func(*ComparePair) *harness.RunMetrics) string {
	counts := map[string]int{}
	for _, p := range ps {
		counts[side(p).Path]++
	}
	best, n := "", 0
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		if counts[k] > n {
			best, n = k, counts[k]
		}
	}
	if best == "" {
		return "NA"
	}
	if n < len(ps) {
		return fmt.Sprintf("%s (%d of %d)", best, n, len(ps))
	}
	return best
}

func local(p *ComparePair) *harness.RunMetrics  { return p.Local }
func tiered(p *ComparePair) *harness.RunMetrics { return p.Tiered }

func priceRemote(r *harness.RunMetrics) float64 {
	if !r.PriceKnown {
		return math.NaN()
	}
	return float64(r.PriceRemoteBytes)
}

func priceLatency(r *harness.RunMetrics) float64 {
	if !r.PriceKnown {
		return math.NaN()
	}
	return r.PriceExtraLatencyMs
}

func stalled(r *harness.RunMetrics) float64 { return float64(r.StalledMs) }

func catchUp(r *harness.RunMetrics) float64 { return float64(r.CatchUpMs) }

// meanOf is the mean of f over one side of pairs, NaN values skipped.
func meanOf(ps []*ComparePair, side func(*ComparePair) *harness.RunMetrics, f func(*harness.RunMetrics) float64) float64 {
	var xs []float64
	for _, p := range ps {
		if v := f(side(p)); !math.IsNaN(v) {
			xs = append(xs, v)
		}
	}
	return mean(xs)
}

type costRow struct {
	name  string
	unit  func(float64) string
	value func(*harness.RunMetrics) float64
}

func costRows() []costRow {
	i := func(f func(*harness.RunMetrics) int64) func(*harness.RunMetrics) float64 {
		return func(r *harness.RunMetrics) float64 { return float64(f(r)) }
	}
	count := func(v float64) string {
		if math.IsNaN(v) {
			return "NA"
		}
		return fmt.Sprintf("%.2f", v)
	}
	rows := []costRow{
		{"catch-up time (mean)", fms, i(func(r *harness.RunMetrics) int64 { return r.CatchUpMs })},
		{"bytes fetched from the leader", fbytes, i(func(r *harness.RunMetrics) int64 { return r.BytesFromLeader })},
		{"initial leader's replication egress (whole run)", fbytes, i(func(r *harness.RunMetrics) int64 { return r.LeaderEgressBytes })},
		{"all brokers' egress (whole run)", fbytes, i(func(r *harness.RunMetrics) int64 { return r.EgressBytes })},
		{"remote bytes read for auxiliary state", fbytes, i(func(r *harness.RunMetrics) int64 { return r.RemoteAuxBytes })},
		{"auxiliary-state builds", count, i(func(r *harness.RunMetrics) int64 { return int64(r.AuxStateBuilds) })},
		{"ListOffsets requests", count, i(func(r *harness.RunMetrics) int64 { return int64(r.ListOffsets) })},
		{"fetch requests (whole run)", count, i(func(r *harness.RunMetrics) int64 { return int64(r.Fetches) })},
		{"retries before the first records", count, i(func(r *harness.RunMetrics) int64 { return int64(r.Retries) })},
		{"time stalled (retries x backoff)", fms, stalled},
	}
	for k, name := range model.RetryReasonNames() {
		rows = append(rows, costRow{"  stalled: " + name, fms, func(r *harness.RunMetrics) float64 {
			return float64(int64(reason(r, k)) * r.BackoffMs)
		}})
	}
	return append(rows,
		costRow{"follower's local bytes at ISR join", fbytes, i(func(r *harness.RunMetrics) int64 { return r.LocalBytesAtJoin })},
		costRow{"follower's LLSO at ISR join", count, i(func(r *harness.RunMetrics) int64 { return r.LLSOAtJoin })},
		costRow{"price: remote bytes for a read from the log start, if it led", fbytes, priceRemote},
		costRow{"price: local bytes for that read", fbytes, func(r *harness.RunMetrics) float64 {
			if !r.PriceKnown {
				return math.NaN()
			}
			return float64(r.PriceLocalBytes)
		}},
		costRow{"price: remote read latency for that read", fms, priceLatency},
		costRow{"consume events: bytes read from remote storage", fbytes, i(func(r *harness.RunMetrics) int64 { return r.ConsumeRemoteBytes })},
	)
}

func writeCosts(w io.Writer, a *Analysis) {
	ps := a.All.compared
	fmt.Fprintf(w, "## Costs\n\n")
	if len(ps) > 0 {
		writeCostTable(w, ps)
	}
	writeRedundancy(w, a)
}

func writeCostTable(w io.Writer, ps []*ComparePair) {
	fmt.Fprintf(w, "Means per pair over the %d pairs compared (both followers joined the ISR).\n\n", len(ps))
	fmt.Fprintf(w, "| metric | local-log-start | last-tiered | last-tiered / local-log-start |\n| --- | ---: | ---: | ---: |\n")
	for _, row := range costRows() {
		l, t := meanOf(ps, local, row.value), meanOf(ps, tiered, row.value)
		if strings.HasPrefix(row.name, "  ") && l == 0 && t == 0 {
			continue // a retry reason no run had
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", strings.TrimSpace(row.name), row.unit(l), row.unit(t), quotient(t, l))
	}
	fmt.Fprintln(w)
}

func writeRedundancy(w io.Writer, a *Analysis) {
	var crashed int
	for _, p := range a.All.included {
		if p.Local.RedundancyKnown || p.Tiered.RedundancyKnown {
			crashed++
		}
	}
	if crashed == 0 {
		fmt.Fprintf(w, "Time until the partition is fully redundant again after a broker loss: NA (no included pair has a crash event).\n\n")
		return
	}
	fmt.Fprintf(w, "Time until the partition is fully redundant again after a broker loss (%d included pairs with a crash):\n\n", crashed)
	fmt.Fprintf(w, "| strategy | runs | p50 | p90 | max |\n| --- | ---: | ---: | ---: | ---: |\n")
	for _, side := range []struct {
		name string
		f    func(*ComparePair) *harness.RunMetrics
	}{{"local-log-start", local}, {"last-tiered", tiered}} {
		var xs []float64
		for _, p := range a.All.included {
			if r := side.f(p); r.RedundancyKnown {
				xs = append(xs, float64(r.RedundancyMs))
			}
		}
		d := newDist(xs)
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", side.name, d.N, fms(d.P50), fms(d.P90), fms(d.Max))
	}
	fmt.Fprintln(w)
}

func writeSweep(w io.Writer, in *CompareInput, a *Analysis, chart bool) {
	fmt.Fprintf(w, "## Parameter sweep: `%s`\n\n", in.VaryKey)
	writeSweepBody(w, in, a, chart)
}

// writeSweepBody writes a sweep's chart, its break-even and its table by
// value.
func writeSweepBody(w io.Writer, in *CompareInput, a *Analysis, chart bool) {
	if chart {
		fmt.Fprintf(w, "![catch-up ratio against %s](%s)\n\n", in.VaryKey, ChartSweep)
	}
	if a.SweepBreakEvenFound {
		fmt.Fprintf(w, "The geometric-mean catch-up ratio crosses 1 at `%s` = **%s** (interpolated between the values swept).\n\n", in.VaryKey, a.SweepBreakEvenLabel)
	} else {
		ys := make([]float64, len(a.ByValue))
		for i, g := range a.ByValue {
			ys[i] = g.GeoMean
		}
		fmt.Fprintf(w, "The geometric-mean catch-up ratio does not cross 1 over the values swept (%s).\n\n", sidesText(ys, "values"))
	}
	fmt.Fprintf(w, "| %s | pairs in stats | p50 local-log-start | p50 last-tiered | ratio, geometric mean (95%% CI) | wins / ties / losses | leader local fraction |\n", in.VaryKey)
	fmt.Fprintf(w, "| ---: | ---: | ---: | ---: | --- | --- | ---: |\n")
	ax := SweepAxis(in.VaryKey, in.VaryValues)
	for i, g := range a.ByValue {
		value := valueLabel(in.VaryValues[i], ax.Labels[i])
		fmt.Fprintf(w, "| %s | %d of %d | %s | %s | %s (%s to %s) | %d / %d / %d | %s |\n", value, g.Compared, g.Pairs,
			fms(g.Local.P50), fms(g.Tiered.P50), ratio(g.GeoMean), ratio(g.CILo), ratio(g.CIHi), g.Wins, g.Ties, g.Losses, frac(g.Fraction))
	}
	fmt.Fprintln(w)
}

func writeTimeline(w io.Writer, in *CompareInput) {
	p := in.Timeline
	r, _ := p.Ratio()
	fmt.Fprintf(w, "## Timeline of one seed\n\n")
	fmt.Fprintf(w, "`%s` seed %d", p.Scenario, p.Seed)
	if p.VaryValue != "" {
		fmt.Fprintf(w, " at `%s` = %s", in.VaryKey, p.VaryValue)
	}
	fmt.Fprintf(w, ": the pair with the median catch-up ratio (%s) among those where the two protocols' times differ. "+
		"Left, the whole run; right, the bootstrap of the new follower, in time since its add_replica (the two rows share that "+
		"time scale unless one bootstrap took more than %d times the other; then each row has its own, as its axis says). Solid "+
		"lines are the current leader's offsets, dashed lines the new follower's, the band the offsets held in remote storage.",
		ratio(r), sharedZoomFactor)
	if in.TimelineCommand != "" {
		in.Names.Fprintf(w, " Draw it alone (or add `{ChromeTrace} FILE.json` for a trace to open in Perfetto):\n\n```sh\n%s\n```\n\n", in.TimelineCommand)
	} else {
		fmt.Fprintf(w, "\n\n")
	}
	fmt.Fprintf(w, "![timeline of %s seed %d](%s)\n\n", p.Scenario, p.Seed, ChartTimeline)
}

func writeExclusions(w io.Writer, in *CompareInput, a *Analysis) {
	fmt.Fprintf(w, "## Excluded\n\n")
	excluded := a.All.Pairs - a.All.Included
	if excluded == 0 {
		fmt.Fprintf(w, "None: both runs of every pair passed every invariant (0 of %d pairs excluded).\n\n", a.All.Pairs)
		return
	}
	fmt.Fprintf(w, "%d of %d pairs excluded from the statistics because a run broke an invariant:\n\n", excluded, a.All.Pairs)
	fmt.Fprintf(w, "| why (strategy: invariant (known kind)) | pairs | first pairs (scenario seed) |\n| --- | ---: | --- |\n")
	for _, e := range a.Exclusions {
		var ex []string
		for i, p := range e.Pairs {
			if i == 5 {
				ex = append(ex, "...")
				break
			}
			s := fmt.Sprintf("%s %d", p.Scenario, p.Seed)
			if p.VaryValue != "" {
				s += " " + in.VaryKey + "=" + p.VaryValue
			}
			ex = append(ex, s)
		}
		fmt.Fprintf(w, "| %s | %d | %s |\n", e.Reason, len(e.Pairs), strings.Join(ex, ", "))
	}
	in.Names.Fprintf(w, "\nReplay one with `simrun run {Scenario} NAME {Seed} N {Trace}` (for generated scenarios, `simrun gen {Seed} N {Out} s.json` first).\n\n")
}

func writeMethod(w io.Writer, names config.Names) {
	fmt.Fprintf(w, "## How the numbers are computed\n\n")
	for _, line := range []string{
		"**Follower**: the first replica added by an `add_replica` event. **Catch-up time**: from its add_replica to its first ISR join, in whole ms (the result object's `caught_up_ms`).",
		"**Percentiles**: nearest rank (the smallest value with at least p% of the values at or below it).",
		fmt.Sprintf("**Ratio**: per pair, last-tiered catch-up time / local-log-start catch-up time (pairs with a 0 ms time have none). The summary is the geometric mean of the ratios with a 95%% percentile bootstrap interval (%d resamples of the pairs, a PCG generator with a fixed seed: the same pairs give the same interval). **Win rate**: the share of pairs where last-tiered joined the ISR strictly sooner.", BootstrapResamples),
		"**Leader local fraction**: right after the add_replica, the leader's (LEO - LLSO) / (LEO - LSO): how much of the log it still holds locally (a scenario's figure is its median).",
		names.Sprintf("**Break-even** (only for `{Vary}` on one scenario): where the geometric-mean ratio crosses 1 along the numeric values swept, by linear interpolation in log ratio (and in log value on a log axis) between the two values on either side; special values such as -1 and -2 are not on that scale and are left out, and resting at 1 (ties) is not crossing."),
		"**Bytes from the leader**: record bytes the follower appended from fetch responses. **Egress**: every byte a broker sent to other brokers (fetch responses to every follower, requests), over the whole run.",
		"**Stalled**: backoff retries before the first records times `replica_fetch_backoff_ms`, by reason (`epuo-unknown`: the leader did not know its highest uploaded offset; `aux-unavailable`: no remote segment held the offset before the start; `metadata-not-ready`; `remote-error`; `leader-error`; `timeout`).",
		"**Price**: at the end of the run, if the follower led, a consumer reading from the leader's log start offset up to HW reads `[LSO, follower's LLSO)` from remote storage and the rest from the follower's disk (record bytes). Its extra latency: " + harness.PriceModel + ".",
		"**Redundancy**: from the first `crash` event to the first moment the ISR again holds every replica assigned at the end of the run (NA without a crash).",
		"**Exclusions**: a pair enters the statistics only when both runs passed every invariant (safety after every step, liveness at the end).",
		names.Sprintf("**Profiles** (`{Profiles}`, default `kip,kafka-4.3,kafka-trunk`): the statistics are the first profile's; each further profile runs the same pairs and enters only the section comparing the profiles, where each run counts on its own: a run that broke an invariant is out of its profile's medians but counted and named, and \"never joined\" counts the seeds whose added follower was never in the ISR by the end of the run (or by the violation that stopped it)."),
	} {
		fmt.Fprintf(w, "- %s\n", line)
	}
	fmt.Fprintf(w, "\n`runs.csv` holds one row per pair and strategy with every metric (`NA` where a value does not exist): %s. "+
		"Rows come by profile (the first profile's pairs, then each further profile's), then the pairs of a sweep beside the comparison; "+
		"`included` says whether both runs of the pair passed every invariant.\n",
		"`"+strings.Join(CompareCSVHeader(), "`, `")+"`")
}

// orNA formats v with format, or "NA" when it is not a number.
func orNA(format string, v float64) string {
	if math.IsNaN(v) {
		return "NA"
	}
	return fmt.Sprintf(format, v)
}

func ratio(v float64) string { return orNA("%.2fx", v) }

func pct(v float64) string { return orNA("%.0f%%", 100*v) }

func frac(v float64) string { return orNA("%.2f", v) }

func fms(v float64) string {
	if math.IsNaN(v) {
		return "NA"
	}
	if v < 10000 {
		return fmt.Sprintf("%.0f ms", v)
	}
	return fmt.Sprintf("%.1f s", v/1000)
}

func fbytes(v float64) string {
	if math.IsNaN(v) {
		return "NA"
	}
	return bytes(int64(math.Round(v)))
}

// change says how t differs from l in percent.
func change(t, l float64) string {
	if math.IsNaN(t) || math.IsNaN(l) || l == 0 {
		return "NA"
	}
	return fmt.Sprintf("%+.0f%%", 100*(t-l)/l)
}

func quotient(t, l float64) string {
	switch {
	case math.IsNaN(t) || math.IsNaN(l):
		return "NA"
	case l == 0 && t == 0:
		return "-"
	case l == 0:
		return "inf"
	}
	return fmt.Sprintf("%.2f", t/l)
}

// sweepBesideTitle is the heading of the section of a sweep run beside a
// comparison.
func sweepBesideTitle(sw *CompareInput) string {
	return fmt.Sprintf("Parameter sweep: %s on %s", sw.VaryKey, strings.Join(sw.Scenarios, ", "))
}

// writeSweepHeadline sums up a sweep beside the comparison in one bullet:
// the ratio at each value and where it crosses 1.
func writeSweepHeadline(w io.Writer, sw *CompareInput, a *Analysis) {
	ax := SweepAxis(sw.VaryKey, sw.VaryValues)
	var at []string
	ys := make([]float64, len(a.ByValue))
	for i, g := range a.ByValue {
		ys[i] = g.GeoMean
		at = append(at, fmt.Sprintf("%s at %s", ratio(g.GeoMean), ax.Labels[i]))
	}
	fmt.Fprintf(w, "- **Where it pays off** ([sweep of `%s` on `%s`](#%s)): the catch-up ratio is %s; ", sw.VaryKey,
		strings.Join(sw.Scenarios, "`, `"), anchor(sweepBesideTitle(sw)), strings.Join(at, ", "))
	if a.SweepBreakEvenFound {
		fmt.Fprintf(w, "it crosses 1 at `%s` = **%s**.\n", sw.VaryKey, a.SweepBreakEvenLabel)
	} else {
		fmt.Fprintf(w, "it never crosses 1 (%s).\n", sidesText(ys, "values"))
	}
}

// writeProfilesHeadline sums up the other profiles in one bullet: how many
// runs failed, by kind, and where the catch-up differs.
func writeProfilesHeadline(w io.Writer, pc *ProfileComparison) {
	title := ProfilesTitle(pc.Profiles)
	fmt.Fprintf(w, "- **%s** ([below](#%s)): ", title, anchor(title))
	var parts []string
	for i := 1; i < len(pc.Profiles); i++ {
		var kinds []string
		for _, f := range pc.Failures {
			if f.Profile == pc.Profiles[i] {
				kinds = append(kinds, fmt.Sprintf("%s: %s in %d", f.Strategy, f.Reason, len(f.Runs)))
			}
		}
		s := fmt.Sprintf("under `%s` %d of %d runs broke an invariant", pc.Profiles[i], pc.Failed[i], pc.Runs[i])
		if len(kinds) > 0 {
			s += " (" + strings.Join(kinds, "; ") + ")"
		}
		parts = append(parts, s)
	}
	scenariosDiffer := map[string]bool{}
	for _, d := range pc.Differences() {
		scenariosDiffer[d.Group.Scenario+"\x00"+d.Group.VaryValue] = true
	}
	fmt.Fprintf(w, "%s; the catch-up differs from `%s` in %d of %d scenarios.\n", strings.Join(parts, "; "), pc.Profiles[0],
		len(scenariosDiffer), len(pc.Groups))
}

// writeSweepBeside writes the section of a sweep run beside the comparison:
// what was run, the command that runs it alone, the chart and the table.
func writeSweepBeside(w io.Writer, sw *CompareInput, a *Analysis, chart bool) {
	fmt.Fprintf(w, "## %s\n\n", sweepBesideTitle(sw))
	if sw.About != "" {
		fmt.Fprintf(w, "%s ", sw.About)
	}
	fmt.Fprintf(w, "Seeds %s at each value, profile `%s`: %d of %d pairs in the statistics. Its pairs are in `runs.csv` "+
		"(`vary_key` `%s`); run alone, with every chart of a comparison:\n\n```sh\n%s\n```\n\n",
		sw.Seeds, sw.Profile, a.All.Included, a.All.Pairs, sw.VaryKey, sw.Command)
	writeSweepBody(w, sw, a, chart)
	if n := a.All.Pairs - a.All.Included; n > 0 {
		var reasons []string
		for _, e := range a.Exclusions {
			reasons = append(reasons, fmt.Sprintf("%s (%d)", e.Reason, len(e.Pairs)))
		}
		fmt.Fprintf(w, "Excluded from the sweep: %d pairs: %s.\n\n", n, strings.Join(reasons, "; "))
	}
}

// CompareSummaryInput is what the summary of a written comparison says
// beside its analysis.
type CompareSummaryInput struct {
	SweepKey, SweepScenario string // the default sweep's, "" without one
	Jobs                    string // the pairs run, in the unit progress counts
	ReportPath              string
	BudgetRuns              int   // runs stopped by their work budget
	MaxSteps                int64 // that budget
	Names                   config.Names
}

// CompareSummary writes the few lines 'simrun compare' (and 'simrun merge'
// of its shards) prints once the report is written.
func CompareSummary(w io.Writer, a *Analysis, in CompareSummaryInput) {
	fmt.Fprintf(w, "compare: %d pairs, %d in the statistics, %d excluded", a.All.Pairs, a.All.Included, a.All.Pairs-a.All.Included)
	if a.All.RatioN > 0 {
		fmt.Fprintf(w, "; catch-up ratio last-tiered/local-log-start %.2fx (95%% CI %.2f to %.2f), win rate %.0f%%",
			a.All.GeoMean, a.All.CILo, a.All.CIHi, 100*a.All.WinRate)
	} else {
		fmt.Fprintf(w, "; no pair to compare catch-up times on")
	}
	fmt.Fprintln(w)
	if pc := a.Profiles; pc != nil {
		for i := 1; i < len(pc.Profiles); i++ {
			fmt.Fprintf(w, "profile %s: %d runs, %d broke an invariant (listed in the report, not in the statistics)\n",
				pc.Profiles[i], pc.Runs[i], pc.Failed[i])
		}
	}
	if a.Sweep != nil {
		fmt.Fprintf(w, "sweep %s on %s: %d pairs, %d in the statistics\n", in.SweepKey, in.SweepScenario, a.Sweep.All.Pairs, a.Sweep.All.Included)
	}
	fmt.Fprintf(w, "ran %s (progress counts these)\n", in.Jobs)
	fmt.Fprintf(w, "report: %s\n", in.ReportPath)
	if in.BudgetRuns > 0 {
		in.Names.Fprintf(w, "%d runs reached the work budget of %d steps (excluded, named in the report): raise {MaxSteps}\n", in.BudgetRuns, in.MaxSteps)
	}
}
