package plan

import (
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
)

// TestVerdictSentences: each verdict's summary, word for word: how much
// faster or slower, the bytes saved (only when the flag-on replica copies
// some and fewer), the price when both strategies have one; each
// strategy's time (its range over more than one seed, how many were
// extrapolated, the seeds it never joined in) and bytes when a replica
// did not always join; broken invariants only when the flag-on runs broke
// more and one was a safety invariant; produce no replica keeps up with.
func TestVerdictSentences(t *testing.T) {
	const (
		withFlag = "With the flag it joins the ISR in 6.0 s (median, 5.9 s-6.8 s). It copies 1.00 MiB from the leader."
		without  = "Without the flag it joins the ISR in 300.0 s (median, 299.9 s-300.2 s). It copies 4.00 MiB from the leader."
	)
	in := smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: 70655, TimeLatest: 71680}, nil)
	b, _ := buildOnly(t, in)
	never, _ := buildOnly(t, withProduce(in, 150<<20))
	tieringOff := *b
	tieringOff.st.RemoteStorageEnable = false
	// base: 5 seeds each, the flag-off replica copying 4 MiB.
	base := func(offMs, onMs int64, edit func(off, on *StrategyPlan)) ProfilePlan {
		pp := answerOf("kafka-4.3", "", offMs, onMs, onMs+800)
		pp.Strategies = append([]StrategyPlan(nil), pp.Strategies...)
		off, on := &pp.Strategies[0], &pp.Strategies[1]
		off.BytesFromLeader = &Distribution{N: 5, Median: 4 << 20}
		if edit != nil {
			edit(off, on)
		}
		return pp
	}
	notAll := func(sp *StrategyPlan, joined int) {
		sp.Joined = joined
		if joined == 0 {
			sp.CatchUpMs, sp.BytesFromLeader = nil, nil
		}
	}
	safety := []RunOutcome{{Seed: 2, Outcome: harness.OutcomeSafety}}
	liveness := []RunOutcome{{Seed: 2, Outcome: harness.OutcomeLiveness}}
	for _, c := range []struct {
		name    string
		b       *builder
		pp      ProfilePlan
		verdict string
		summary string
	}{
		{"faster", b, base(300_000, 6_000, nil), "on", "The flag-on replica joins the ISR 50x faster. It copies 4x fewer bytes from the leader."},
		{"faster, priced", b, base(300_000, 6_000, func(off, on *StrategyPlan) {
			off.PriceRemoteBytes, on.PriceRemoteBytes = &Distribution{Median: 20 << 20}, &Distribution{Median: 70 << 20}
		}), "on", "The flag-on replica joins the ISR 50x faster. It copies 4x fewer bytes from the leader. " +
			"If the new replica led, a read from the log start would take 70.00 MiB from remote storage (flag off: 20.00 MiB)."},
		{"faster, one price", b, base(300_000, 6_000, func(off, on *StrategyPlan) { on.PriceRemoteBytes = &Distribution{Median: 70 << 20} }),
			"on", "The flag-on replica joins the ISR 50x faster. It copies 4x fewer bytes from the leader."},
		{"faster, as many bytes", b, base(300_000, 6_000, func(off, on *StrategyPlan) { on.BytesFromLeader = &Distribution{N: 5, Median: 4 << 20} }),
			"on", "The flag-on replica joins the ISR 50x faster."},
		{"faster, no bytes", b, base(300_000, 6_000, func(off, on *StrategyPlan) { on.BytesFromLeader = &Distribution{N: 5} }),
			"on", "The flag-on replica joins the ISR 50x faster."},
		{"slower", b, base(3_000, 6_000, nil), "off", "The flag-on replica joins the ISR 2x slower."},
		{"a thousandfold", b, base(2_048_000, 1_000, func(off, on *StrategyPlan) { on.BytesFromLeader = &Distribution{N: 5, Median: 4 << 10} }),
			"on", "The flag-on replica joins the ISR 2048x faster. It copies 1024x fewer bytes from the leader."},
		{"just under a thousandfold", b, base(999_000, 1_000, func(off, on *StrategyPlan) { on.BytesFromLeader = &Distribution{N: 5, Median: 41 << 10} }),
			"on", "The flag-on replica joins the ISR 999x faster. It copies 99.9x fewer bytes from the leader."},
		{"a thousandfold slower", b, base(1_000, 1_000_000, nil), "off", "The flag-on replica joins the ISR 1000x slower."},
		{"tiering off", &tieringOff, base(300_000, 6_000, nil), "no-difference",
			"Tiering is off: the flag changes nothing. Either way it joins the ISR in 300.0 s (median, 299.9 s-300.2 s). It copies 4.00 MiB from the leader."},
		{"within 10%", b, base(6_300, 6_000, nil), "either", "The flag-on replica joins the ISR within 10% of the flag-off one's time."},
		{"flag on not always", b, base(300_000, 6_000, func(off, on *StrategyPlan) { notAll(on, 4); on.Extrapolated = 2 }), "off",
			"With the flag it joins the ISR in 6.0 s (median, 5.9 s-6.8 s, 2 of 5 extrapolated), but in 1 of 5 seeds it never joined. It copies 1.00 MiB from the leader. " + without},
		{"flag off never", b, base(300_000, 6_000, func(off, on *StrategyPlan) { notAll(off, 0) }), "on",
			withFlag + " Without the flag it never joined the ISR in 5 seeds."},
		{"one seed each, neither", b, base(300_000, 6_000, func(off, on *StrategyPlan) {
			off.Seeds, on.Seeds, on.CatchUpMs.N = 1, 1, 1
			notAll(off, 0)
			on.Joined = 1
			on.Seeds = 2
		}), "neither", "With the flag it joins the ISR in 6.0 s (median), but in 1 of 2 seeds it never joined. It copies 1.00 MiB from the leader. Without the flag it never joined the ISR in 1 seed."},
		{"broke an invariant", b, base(300_000, 6_000, func(off, on *StrategyPlan) { on.Failures = safety }), "off",
			withFlag + " " + without + " The flag-on runs broke an invariant (see the hazards)."},
		{"broke liveness", b, base(300_000, 6_000, func(off, on *StrategyPlan) { on.Failures = liveness }), "on",
			"The flag-on replica joins the ISR 50x faster. It copies 4x fewer bytes from the leader."},
		{"both broke", b, base(300_000, 6_000, func(off, on *StrategyPlan) { on.Failures, off.Failures = safety, safety }), "on",
			"The flag-on replica joins the ISR 50x faster. It copies 4x fewer bytes from the leader."},
		{"never catches up", never, base(300_000, 6_000, func(off, on *StrategyPlan) { notAll(off, 0); notAll(on, 0) }), "never-catches-up",
			"A new replica never catches up, flag on or off: 150.00 MiB/s produced leaves it almost none of the 62.50 MiB/s it can copy (hazard cannot-catch-up). " +
				"With the flag it never joined the ISR in 5 seeds. Without the flag it never joined the ISR in 5 seeds."},
		{"could not catch up, one joined", never, base(300_000, 6_000, func(off, on *StrategyPlan) { notAll(off, 0) }), "on",
			withFlag + " Without the flag it never joined the ISR in 5 seeds."},
	} {
		v, summary := verdict(c.b, &c.pp)
		if v != c.verdict || summary != c.summary {
			t.Errorf("%s: verdict %s, summary\n %q\nwant %s,\n %q", c.name, v, summary, c.verdict, c.summary)
		}
	}
}

// TestSummarizeFoldsEachStrategysRuns: summarize gives each profile its
// flag-off then flag-on runs (the flag field false, then true), and counts
// a liveness failure only for a strategy whose runs simulated the whole
// scenario: the flag-on one here, not the flag-off one the budget cut to
// 100 s.
func TestSummarizeFoldsEachStrategysRuns(t *testing.T) {
	b, sc := buildOnly(t, smallInput(t, map[Time]int64{TimeEarliest: 0, TimeEarliestLocal: 20480, TimeLatestTiered: 70655, TimeLatest: 71680}, nil))
	var jobs []job
	var outs []RunOutcome
	for _, st := range harness.Strategies {
		jobs = append(jobs, job{profile: model.Kafka43, seed: 1, strategy: st})
		outs = append(outs, RunOutcome{Seed: 1, Outcome: harness.OutcomeLiveness, Invariant: string(st), SimulatedMs: sc.DurationMs})
	}
	pps := summarize(b, sc, []model.Profile{model.Kafka43}, jobs, outs,
		map[harness.Strategy]int64{harness.LocalLogStart: 100_000, harness.LastTiered: sc.DurationMs})
	if len(pps) != 1 || len(pps[0].Strategies) != 2 {
		t.Fatalf("%+v", pps)
	}
	off, on := pps[0].Strategies[0], pps[0].Strategies[1]
	if off.Flag || !on.Flag || off.Strategy != string(harness.LocalLogStart) || on.Strategy != string(harness.LastTiered) {
		t.Errorf("strategies %s (flag %v), %s (flag %v): want local-log-start off, then last-tiered on", off.Strategy, off.Flag, on.Strategy, on.Flag)
	}
	if len(off.Failures) != 0 || len(on.Failures) != 1 || on.Failures[0].Invariant != string(harness.LastTiered) {
		t.Errorf("failures: flag off %+v, flag on %+v; want the flag-on run's only", off.Failures, on.Failures)
	}
	if off.SimulatedMs != 100_000 || on.SimulatedMs != sc.DurationMs {
		t.Errorf("simulated %d and %d ms, want 100000 and %d", off.SimulatedMs, on.SimulatedMs, sc.DurationMs)
	}
}
