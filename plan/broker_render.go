package plan

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// blockedShare is the share of the restored time that fetcher threads
// spent blocked in tiered bootstraps above which the plan says bootstraps
// serialize on the threads.
const blockedShare = 0.25

// WriteJSON writes the broker plan as one JSON object.
func (r *BrokerResult) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		SchemaVersion int `json:"schema_version"`
		*BrokerResult
	}{1, r})
}

// WriteText writes the broker plan: the answer first (how long with the
// flag off and on under each profile), then which knob helps most, the
// recommendation, the assumptions and how to replay a run.
func (r *BrokerResult) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Replace broker %d with an empty one: %d partitions (%d tiered) of %s, %s on its disk now;\n",
		r.Broker, r.Partitions, r.Tiered, topicList(r.Topics), formatBytes(r.LocalBytes))
	fmt.Fprintf(&b, "its replicas fetch again from brokers %s (num.replica.fetchers=%d).\n\n", idList(r.Sources), r.NumReplicaFetchers)
	fmt.Fprintf(&b, "How long until every replica of broker %d is back in its ISR (%s):\n\n", r.Broker, seedsPhrase(r.Seeds))
	tw := tabwriter.NewWriter(&b, 2, 8, 3, ' ', 0)
	fmt.Fprintf(tw, "  profile\tflag off\tflag on\ton / off\tfrom leaders off / on\tthreads blocked off / on\n")
	for _, p := range r.Profiles {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s / %s\t%s / %s\n", p.Name, restored(p.Off), restored(p.On), ratioOf(p.Off.RestoredMs, p.On.RestoredMs),
			formatBytes(p.Off.BytesFromLeaders), formatBytes(p.On.BytesFromLeaders), formatMs(p.Off.FetcherBlockedMs), formatMs(p.On.FetcherBlockedMs))
	}
	tw.Flush()
	fmt.Fprintf(&b, "\nWhich knob helps most (profile %s; change against the configuration as it is):\n\n", r.VariantProfile)
	tw = tabwriter.NewWriter(&b, 2, 8, 3, ' ', 0)
	fmt.Fprintf(tw, "  knob\tflag off\tchange\tflag on\tchange\n")
	base := r.Variants[0]
	for i, v := range r.Variants {
		g := func(b, x BrokerSide) string {
			if i == 0 {
				return ""
			}
			if f, ok := gain(b.RestoredMs, x.RestoredMs); ok {
				if math.Round(100*f) == 0 {
					return "0%"
				}
				return fmt.Sprintf("%+.0f%%", -100*f)
			}
			return "n/a"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", v.Name, restored(v.Off), g(base.Off, v.Off), restored(v.On), g(base.On, v.On))
	}
	tw.Flush()
	fmt.Fprintf(&b, "\n%s\n", r.knobVerdict())
	fmt.Fprintf(&b, "\nRecommendation: %s\n", r.recommendation())
	if len(r.Notes) > 0 {
		fmt.Fprintf(&b, "\nNotes:\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	fmt.Fprintf(&b, "\nAssumptions (the tools do not tell these; flags change them):\n")
	for _, a := range r.Assumptions {
		fmt.Fprintf(&b, "  - %s\n", a)
	}
	scen := "FILE"
	if r.SavePath != "" {
		scen = r.SavePath
	}
	r.names.Fprintf(&b, "\nReplay a run (save the scenario with {SavePath} FILE): simrun run {Scenario} %s {Profile} %s\n", scen, r.VariantProfile)
	var out strings.Builder
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		out.WriteString(strings.TrimRight(l, " \n"))
		if strings.HasSuffix(l, "\n") {
			out.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, out.String())
	return err
}

// knobVerdict names the variant that helps most with the flag on.
func (r *BrokerResult) knobVerdict() string {
	if r.Best < 0 && r.Variants[0].On.RestoredMs == nil {
		return fmt.Sprintf("No knob tried brings broker %d back with the flag on (see the recommendation).", r.Broker)
	}
	if r.Best < 0 {
		return "No knob tried shortens the flag-on time: the copy is bound by the leaders' replication bandwidth, not by the fetcher threads."
	}
	v, base := r.Variants[r.Best], r.Variants[0]
	f, _ := gain(base.On.RestoredMs, v.On.RestoredMs)
	return fmt.Sprintf("%s helps most: with the flag on broker %d is back in %s instead of %s (%.0f%% sooner).",
		v.Name, r.Broker, restored(v.On), restored(base.On), 100*f)
}

// recommendation answers: flag on or off, under the variant profile; and,
// when bootstraps serialize on the fetcher threads (blocked more than a
// quarter of the restored time) and more threads help, says so.
func (r *BrokerResult) recommendation() string {
	row := r.Variants[0]
	var s string
	switch on, off := row.On.RestoredMs, row.Off.RestoredMs; {
	case on == nil && off == nil:
		s = fmt.Sprintf("broker %d is not back by the end of the runs under %s either way; see the assumptions and replay a run.", r.Broker, r.VariantProfile) +
			whyNotBack("Flag off", row.Off) + whyNotBack("Flag on", row.On)
	case on == nil:
		s = fmt.Sprintf("keep the flag off: with it on, broker %d is not back by the end of the run under %s (off: %s).", r.Broker, r.VariantProfile, restored(row.Off)) +
			whyNotBack("Flag on", row.On)
	case off == nil || *on < *off:
		s = fmt.Sprintf("turn the flag on (follower.fetch.last.tiered.offset.enable=true): broker %d is back in %s instead of %s under %s.",
			r.Broker, restored(row.On), restored(row.Off), r.VariantProfile)
	case *on == *off:
		s = fmt.Sprintf("the flag makes no difference here: broker %d is back in %s either way under %s.", r.Broker, restored(row.On), r.VariantProfile)
	default:
		s = fmt.Sprintf("keep the flag off: broker %d is back in %s with it off, %s with it on, under %s.", r.Broker, restored(row.Off), restored(row.On), r.VariantProfile)
	}
	if on := row.On.RestoredMs; on != nil && *on > 0 && float64(row.On.FetcherBlockedMs) > blockedShare*float64(*on) && r.Best >= 0 &&
		strings.HasPrefix(r.Variants[r.Best].Name, "num.replica.fetchers=") {
		s += fmt.Sprintf(" Tiered bootstraps serialize on the fetcher threads (blocked %s against %s restored): raise %s.",
			formatMs(row.On.FetcherBlockedMs), formatMs(*on), r.Variants[r.Best].Name)
	}
	return s
}

// whyNotBack says how many of a side's re-added replicas had not joined
// their ISR at the run's end (never, or not within the work budget), and
// the known findings its runs broke ("" when every replica joined).
func whyNotBack(side string, s BrokerSide) string {
	if s.NeverJoined == 0 {
		return ""
	}
	t := fmt.Sprintf(" %s: %d of the %d re-added replicas had not joined their ISR at the run's end", side, s.NeverJoined, s.Replicas)
	if len(s.Findings) > 0 {
		t += fmt.Sprintf(", known finding %s (FINDINGS.md)", strings.Join(s.Findings, ", "))
	}
	return t + "."
}

func restored(s BrokerSide) string {
	if s.RestoredMs == nil {
		return "not back"
	}
	t := formatMs(*s.RestoredMs)
	if s.Failed > 0 {
		t += fmt.Sprintf(" (%d runs failed)", s.Failed)
	}
	return t
}

func ratioOf(off, on *int64) string {
	if off == nil || on == nil || *off == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2fx", float64(*on)/float64(*off))
}

func topicList(ts []string) string {
	if len(ts) == 1 {
		return "topic " + ts[0]
	}
	if len(ts) <= 4 {
		return fmt.Sprintf("%d topics (%s)", len(ts), strings.Join(ts, ", "))
	}
	return fmt.Sprintf("%d topics (%s, ...)", len(ts), strings.Join(ts[:3], ", "))
}

// seedsPhrase says which seeds a figure comes from: "seed 1" for one seed
// (a median of one run is that run), "median of seeds 1..5" for several.
func seedsPhrase(seeds string) string {
	if lo, hi, ok := strings.Cut(seeds, ".."); ok && lo == hi {
		return "seed " + lo
	}
	if !strings.ContainsAny(seeds, ".,") {
		return "seed " + seeds
	}
	return "median of seeds " + seeds
}
