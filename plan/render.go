package plan

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"tierfetch/config"
)

// WriteJSON writes the result object, indented, with a trailing newline.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// WriteText writes the plan for people: the partition, the comparison under
// each profile (profiles whose answers read the same in one block), the
// hazards, the recommendation, the assumptions and notes.
func (r *Result) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	r.writeHeader(ew)
	for _, g := range r.profileGroups() {
		r.writeProfiles(ew, g)
	}
	fmt.Fprintf(ew, "\nrecommendation:\n%s\n", wrap(r.Recommendation, "  ", 96))
	writeList(ew, "assumptions", r.Assumptions)
	writeList(ew, "notes", r.Notes)
	return ew.err
}

func (r *Result) writeHeader(w io.Writer) {
	st := &r.State
	fmt.Fprintf(w, "plan for %s-%d\n", r.Topic, r.Partition)
	if len(r.Fixes) > 0 {
		r.names.Fprintf(w, "  every run with fixes of Kafka's code not in any release ({Fix}): %s\n", strings.Join(r.Fixes, ", "))
	}
	leader := "unknown"
	if st.Leader >= 0 {
		leader = fmt.Sprint(st.Leader)
	}
	fmt.Fprintf(w, "  leader broker %s, in sync %s; the new replica is b%d of the scenario\n", leader, joinIDs(st.InSync), r.Scenario.NewBroker)
	fmt.Fprintf(w, "  log [%d, %d): %s, %d-byte records, segments of %s\n", st.LogStartOffset, st.HighWatermark, formatBytes(st.LogBytes), st.RecordBytes, formatBytes(st.SegmentBytes))
	if !st.RemoteStorageEnable {
		fmt.Fprintf(w, "  tiering off: all of it on the leader's disk\n")
	} else {
		fmt.Fprintf(w, "  local from %d (%s), only in remote storage %s, not yet uploaded %s\n", st.LocalLogStartOffset, formatBytes(st.LocalBytes),
			formatBytes(st.RemoteOnlyBytes), formatBytes(st.PendingUploadBytes))
		fmt.Fprintf(w, "  highest uploaded offset %s%s%s\n", offsetText(st.HighestRemoteOffset), epuoText(st), copyText(st))
	}
	sim := formatMs(r.Scenario.DurationMs)
	if len(r.Profiles) > 0 {
		if on, off := r.Profiles[0].Strategies[1].SimulatedMs, r.Profiles[0].Strategies[0].SimulatedMs; on < r.Scenario.DurationMs {
			sim += fmt.Sprintf(" (runs simulate %s flag on, %s flag off: the work budget)", formatMs(on), formatMs(off))
		}
	}
	fmt.Fprintf(w, "  scenario %s: %s, seeds %d..%d, %d runs, %d events\n", r.Scenario.Name, sim, r.Scenario.SeedFrom, r.Scenario.SeedTo, r.Scenario.Runs, r.Scenario.Steps)
	if r.Scenario.SavedTo != "" {
		r.names.Fprintf(w, "  saved to %s (simrun run {Scenario} %s {Profile} PROFILE {Seed} N replays a run)\n", r.Scenario.SavedTo, r.Scenario.SavedTo)
	}
}

func epuoText(st *State) string {
	if st.EarliestPendingUploadOffset == nil {
		return ""
	}
	return fmt.Sprintf(", earliest pending upload %d", *st.EarliestPendingUploadOffset)
}

func copyText(st *State) string {
	if st.RemoteLogCopyDisable {
		return ", copying disabled"
	}
	return ""
}

func joinIDs(ids []int32) string {
	var s []string
	for _, id := range ids {
		s = append(s, fmt.Sprint(id))
	}
	return strings.Join(s, ",")
}

// profileGroups groups the profiles whose answers read the same (the
// same verdict, the same medians, paths and hazards as printed, a replay
// command compared with its profile left out), in the order of their
// first profile.
func (r *Result) profileGroups() [][]*ProfilePlan {
	var groups [][]*ProfilePlan
	var keys []string
	for i := range r.Profiles {
		pp := &r.Profiles[i]
		k := agreementKey(pp, r.names)
		if j := slices.Index(keys, k); j >= 0 {
			groups[j] = append(groups[j], pp)
			continue
		}
		keys, groups = append(keys, k), append(groups, []*ProfilePlan{pp})
	}
	return groups
}

func agreementKey(pp *ProfilePlan, names config.Names) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", pp.Verdict)
	for i := range pp.Strategies {
		sp := &pp.Strategies[i]
		fmt.Fprintf(&b, "%s|%s|%s|%s\n", joinText(sp), distBytes(sp.BytesFromLeader), distBytes(sp.PriceRemoteBytes), pathText(sp))
	}
	for _, h := range pp.Hazards {
		h.Replay = strings.Replace(h.Replay, names.Sprintf(" {Profile} %s ", pp.Profile), names.Sprintf(" {Profile} P "), 1)
		fmt.Fprintf(&b, "%+v\n", h)
	}
	return b.String()
}

// verdictWords says a verdict in words.
var verdictWords = map[string]string{
	"on":               "turn the flag on",
	"off":              "leave the flag off",
	"either":           "either way: within 10%",
	"no-difference":    "the flag makes no difference",
	"neither":          "neither way does a new replica always join",
	"never-catches-up": "a new replica never catches up",
}

func profileNames(g []*ProfilePlan) string {
	var names []string
	for _, pp := range g {
		names = append(names, pp.Profile)
	}
	return strings.Join(names, ", ")
}

// writeSummaries writes a group's summary once when its profiles' read
// the same, else each distinct one after the profiles it is theirs (their
// ratios, from unrounded medians, may differ in the last digit).
func writeSummaries(w io.Writer, g []*ProfilePlan) {
	var texts []string
	var names [][]*ProfilePlan
	for _, pp := range g {
		if i := slices.Index(texts, pp.Summary); i >= 0 {
			names[i] = append(names[i], pp)
			continue
		}
		texts, names = append(texts, pp.Summary), append(names, []*ProfilePlan{pp})
	}
	for i, text := range texts {
		if len(texts) > 1 {
			text = profileNames(names[i]) + ": " + text
		}
		fmt.Fprintf(w, "%s\n", wrap(text, "  ", 96))
	}
}

// writeProfiles writes the answer of a group of profiles that agree: the
// verdict first, the table (min..max over every profile's seeds when
// there are several), the summary and the hazards.
func (r *Result) writeProfiles(w io.Writer, g []*ProfilePlan) {
	pp := g[0]
	fmt.Fprintf(w, "\n%s: %s (verdict: %s)\n", profileNames(g), cmp.Or(verdictWords[pp.Verdict], pp.Verdict), pp.Verdict)
	spread := "min..max"
	if len(g) > 1 {
		spread = fmt.Sprintf("min..max (%d profiles)", len(g))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  \tjoins the ISR (median)\t%s\tcopied from leader\tprice: remote read from log start\tpath\n", spread)
	for i := range pp.Strategies {
		name := "flag off (KIP-405)"
		if pp.Strategies[i].Flag {
			name = "flag on (KIP-1023)"
		}
		var each []*StrategyPlan
		for _, p := range g {
			each = append(each, &p.Strategies[i])
		}
		sp := each[0]
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", name, joinText(sp), spreadText(each), distBytes(sp.BytesFromLeader), distBytes(sp.PriceRemoteBytes), pathText(sp))
	}
	tw.Flush()
	writeSummaries(w, g)
	if len(pp.Hazards) == 0 {
		fmt.Fprintf(w, "  hazards: none\n")
	}
	for _, h := range pp.Hazards {
		fmt.Fprintf(w, "  hazard %s (%s):\n%s\n", h.ID, h.Severity, wrap(h.Explanation, "      ", 96))
		if h.Seen != "" {
			fmt.Fprintf(w, "      seen: %s\n", h.Seen)
		}
		fmt.Fprintf(w, "      shown by: %s\n", h.Command)
		if h.Replay != "" {
			fmt.Fprintf(w, "      replay: %s\n", h.Replay)
			if len(g) > 1 {
				r.names.Fprintf(w, "      (the same with {Profile} %s)\n", strings.ReplaceAll(profileNames(g[1:]), ", ", " or "))
			}
		}
	}
}

func joinText(sp *StrategyPlan) string {
	if sp.CatchUpMs == nil {
		return fmt.Sprintf("never (0 of %d)", sp.Seeds)
	}
	s := formatMs(sp.CatchUpMs.Median)
	if sp.Extrapolated > 0 {
		s += " (extrapolated)"
	}
	if sp.Joined < sp.Seeds {
		s += fmt.Sprintf(" (%d of %d joined)", sp.Joined, sp.Seeds)
	}
	return s
}

// spreadText is the smallest and largest catch-up time over the seeds of
// every strategy plan given (a group's profiles').
func spreadText(each []*StrategyPlan) string {
	var lo, hi int64
	seen := false
	for _, sp := range each {
		if d := sp.CatchUpMs; d != nil {
			if !seen || d.Min < lo {
				lo = d.Min
			}
			hi, seen = max(hi, d.Max), true
		}
	}
	if !seen {
		return "-"
	}
	return formatMs(lo) + ".." + formatMs(hi)
}

func distBytes(d *Distribution) string {
	if d == nil {
		return "-"
	}
	return formatBytes(d.Median)
}

func pathText(sp *StrategyPlan) string {
	var s []string
	for _, k := range sortedKeys(sp.Paths) {
		if len(sp.Paths) == 1 {
			s = append(s, k)
		} else {
			s = append(s, fmt.Sprintf("%s x%d", k, sp.Paths[k]))
		}
	}
	return strings.Join(s, ", ")
}

func writeList(w io.Writer, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s:\n", title)
	for _, it := range items {
		fmt.Fprintf(w, "%s\n", wrap("- "+it, "  ", 96))
	}
}

// wrap fills text into lines of at most width columns, each starting with
// indent (continuation lines of a "- " item get two more spaces).
func wrap(text, indent string, width int) string {
	var lines []string
	cur := indent
	cont := indent
	if strings.HasPrefix(text, "- ") {
		cont = indent + "  "
	}
	for _, word := range strings.Fields(text) {
		if len(cur) > len(cont) && len(cur)+1+len(word) > width {
			lines = append(lines, cur)
			cur = cont
		}
		if len(cur) > len(indent) && cur != cont {
			cur += " "
		}
		cur += word
	}
	return strings.Join(append(lines, cur), "\n")
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

// Write writes p unless an earlier write failed; it never fails itself.
func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, nil
}
