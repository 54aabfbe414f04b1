package plan

import (
	"fmt"
	"slices"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// Distribution is a quantity over the seeds, by the nearest-rank method.
type Distribution struct {
	N      int   `json:"n"`
	Min    int64 `json:"min"`
	P10    int64 `json:"p10"`
	Median int64 `json:"median"`
	P90    int64 `json:"p90"`
	Max    int64 `json:"max"`
	Spread int64 `json:"spread"` // max - min
}

// distribution returns the distribution of values, nil for none.
func distribution(values []int64) *Distribution {
	if len(values) == 0 {
		return nil
	}
	s := slices.Sorted(slices.Values(values))
	rank := func(p int) int64 {
		k := (p*len(s) + 99) / 100 // nearest rank: ceil(p% of n)
		return s[min(max(k, 1), len(s))-1]
	}
	return &Distribution{N: len(s), Min: s[0], P10: rank(10), Median: rank(50), P90: rank(90), Max: s[len(s)-1], Spread: s[len(s)-1] - s[0]}
}

// StrategyPlan is one strategy's runs under one profile, over the seeds.
type StrategyPlan struct {
	Strategy string `json:"strategy"`
	// Flag is the value of follower.fetch.last.tiered.offset.enable.
	Flag  bool `json:"flag"`
	Seeds int  `json:"seeds"`
	// SimulatedMs is what each run simulated: the scenario's duration, or
	// less when the work budget (StepBudget) cut the runs short (the least
	// a run's share of the budget let it simulate).
	SimulatedMs int64 `json:"simulated_ms"`
	// Joined counts the seeds whose replica joined the ISR, measured or
	// extrapolated; Extrapolated those extrapolated.
	Joined       int `json:"joined"`
	Extrapolated int `json:"extrapolated"`
	// CatchUpMs is over the seeds that joined; BytesFromLeader (at the
	// join) and the price likewise.
	CatchUpMs        *Distribution  `json:"catch_up_ms"`
	BytesFromLeader  *Distribution  `json:"bytes_from_leader"`
	PriceRemoteBytes *Distribution  `json:"price_remote_bytes"`
	PriceLocalBytes  *Distribution  `json:"price_local_bytes"`
	StartOffset      *Distribution  `json:"start_offset"`
	Paths            map[string]int `json:"paths"`             // bootstrap path of the seeds that joined ("not-joined" the others): seeds
	RetriesByReason  map[string]int `json:"retries_by_reason"` // summed over the seeds
	// Failures are the seeds whose run broke an invariant (a liveness
	// violation only when the run covered the whole scenario).
	Failures []RunOutcome `json:"failures"`
	Runs     []RunOutcome `json:"runs"`
}

// ProfilePlan is the answer under one behaviour profile.
type ProfilePlan struct {
	Profile    string         `json:"profile"`
	Strategies []StrategyPlan `json:"strategies"` // local-log-start (flag off), then last-tiered (flag on)
	Hazards    []Hazard       `json:"hazards"`
	// Verdict: "on" (the flag helps), "off" (it hurts or the flag-on replica
	// does not always join), "either" (within 10%), "no-difference"
	// (tiering is off), "never-catches-up" (produce outruns what a new
	// replica can copy), "neither" (no replica joins either way).
	Verdict string `json:"verdict"`
	Summary string `json:"summary"`
}

// summarize folds the runs, in job order, into one ProfilePlan a profile.
func summarize(b *builder, sc *scenarios.Scenario, profiles []model.Profile, jobs []job, outs []RunOutcome, simulated map[harness.Strategy]int64) []ProfilePlan {
	var out []ProfilePlan
	for _, p := range profiles {
		pp := ProfilePlan{Profile: p.Name()}
		for _, st := range harness.Strategies {
			var runs []RunOutcome
			for i, j := range jobs {
				if j.profile == p && j.strategy == st {
					runs = append(runs, outs[i])
				}
			}
			sp := strategyPlan(st, runs, simulated[st] == sc.DurationMs)
			sp.SimulatedMs = simulated[st]
			for _, o := range runs {
				if o.stopped {
					sp.SimulatedMs = min(sp.SimulatedMs, o.SimulatedMs)
				}
			}
			pp.Strategies = append(pp.Strategies, sp)
		}
		pp.Hazards = hazards(b, sc, p, pp.Strategies[1])
		pp.Verdict, pp.Summary = verdict(b, &pp)
		out = append(out, pp)
	}
	return out
}

func strategyPlan(st harness.Strategy, runs []RunOutcome, full bool) StrategyPlan {
	sp := StrategyPlan{Strategy: string(st), Flag: st == harness.LastTiered, Seeds: len(runs),
		Paths: map[string]int{}, RetriesByReason: map[string]int{}, Failures: []RunOutcome{}, Runs: runs}
	var catchUp, bytes, remote, local, start []int64
	for _, o := range runs {
		if _, ok := o.Joined(); ok {
			sp.Paths[o.Path]++
		} else {
			sp.Paths["not-joined"]++
		}
		for k, n := range o.RetriesByReason {
			sp.RetriesByReason[k] += n
		}
		start = append(start, o.StartOffset)
		if o.Outcome == harness.OutcomeSafety || o.Outcome == harness.OutcomeLiveness && full && !o.stopped {
			sp.Failures = append(sp.Failures, o)
		}
		ms, ok := o.Joined()
		if !ok {
			continue
		}
		sp.Joined++
		if o.ExtrapolatedMs != nil {
			sp.Extrapolated++
		}
		catchUp, bytes = append(catchUp, ms), append(bytes, o.BytesAtJoin)
		remote, local = append(remote, o.PriceRemoteBytes), append(local, o.PriceLocalBytes)
	}
	sp.CatchUpMs, sp.BytesFromLeader = distribution(catchUp), distribution(bytes)
	sp.PriceRemoteBytes, sp.PriceLocalBytes, sp.StartOffset = distribution(remote), distribution(local), distribution(start)
	return sp
}

// verdict compares the flag-off and flag-on strategies under one profile:
// the verdict and the sentences saying why, one quantity a sentence.
func verdict(b *builder, pp *ProfilePlan) (string, string) {
	off, on := &pp.Strategies[0], &pp.Strategies[1]
	both := describe("With the flag", on) + " " + describe("Without the flag", off)
	switch {
	case !b.st.RemoteStorageEnable:
		return "no-difference", "Tiering is off: the flag changes nothing. " + describe("Either way", off)
	case b.neverCatchesUp && on.Joined == 0 && off.Joined == 0:
		return "never-catches-up", fmt.Sprintf("A new replica never catches up, flag on or off: %s/s produced leaves it almost none of the %s/s it can copy (hazard %s). %s",
			formatBytes(b.in.Env.ProduceBytesPerSec), formatBytes(int64(b.copyRate)+b.in.Env.ProduceBytesPerSec), HazardCannotCatchUp, both)
	case len(on.Failures) > len(off.Failures) && hasSafety(on):
		return "off", both + " The flag-on runs broke an invariant (see the hazards)."
	case on.Joined < on.Seeds && off.Joined < off.Seeds:
		return "neither", both
	case on.Joined < on.Seeds:
		return "off", both
	case off.Joined < off.Seeds:
		return "on", both
	}
	ratio := float64(off.CatchUpMs.Median) / float64(max(on.CatchUpMs.Median, 1))
	v, cmp := "either", "The flag-on replica joins the ISR within 10% of the flag-off one's time."
	switch {
	case ratio >= 1/0.9:
		v, cmp = "on", fmt.Sprintf("The flag-on replica joins the ISR %s faster.%s", times(ratio), bytesRatio(off, on))
	case ratio <= 1/1.1:
		v, cmp = "off", fmt.Sprintf("The flag-on replica joins the ISR %s slower.", times(1/ratio))
	}
	return v, cmp + priceText(off, on)
}

func hasSafety(sp *StrategyPlan) bool {
	return slices.ContainsFunc(sp.Failures, func(o RunOutcome) bool { return o.Outcome == harness.OutcomeSafety })
}

// describe is one strategy's result in a sentence or two, after lead:
// the time to the ISR, then the bytes copied.
func describe(lead string, sp *StrategyPlan) string {
	if sp.Joined == 0 {
		return fmt.Sprintf("%s it never joined the ISR in %s.", lead, plural(sp.Seeds, "seed"))
	}
	d := sp.CatchUpMs
	s := fmt.Sprintf("%s it joins the ISR in %s (median", lead, formatMs(d.Median))
	if d.N > 1 {
		s += fmt.Sprintf(", %s-%s", formatMs(d.Min), formatMs(d.Max))
	}
	if sp.Extrapolated > 0 {
		s += fmt.Sprintf(", %d of %d extrapolated", sp.Extrapolated, d.N)
	}
	s += ")"
	if sp.Joined < sp.Seeds {
		s += fmt.Sprintf(", but in %d of %d seeds it never joined", sp.Seeds-sp.Joined, sp.Seeds)
	}
	return s + fmt.Sprintf(". It copies %s from the leader.", formatBytes(sp.BytesFromLeader.Median))
}

// plural is "1 seed", "5 seeds".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func bytesRatio(off, on *StrategyPlan) string {
	a, b := off.BytesFromLeader.Median, on.BytesFromLeader.Median
	if b <= 0 || a <= b {
		return ""
	}
	return fmt.Sprintf(" It copies %s fewer bytes from the leader.", times(float64(a)/float64(b)))
}

// times is a ratio as people write it: three significant digits ("1.23x",
// "12.3x", "123x") and whole numbers above that ("1024x", not "1.02e+03x").
func times(r float64) string {
	if r >= 1000 {
		return fmt.Sprintf("%.0fx", r)
	}
	return fmt.Sprintf("%.3gx", r)
}

func priceText(off, on *StrategyPlan) string {
	if off.PriceRemoteBytes == nil || on.PriceRemoteBytes == nil {
		return ""
	}
	return fmt.Sprintf(" If the new replica led, a read from the log start would take %s from remote storage (flag off: %s).",
		formatBytes(on.PriceRemoteBytes.Median), formatBytes(off.PriceRemoteBytes.Median))
}
