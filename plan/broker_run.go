package plan

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"tierfetch/config"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// BrokerResult is a broker plan: how long the replaced broker takes to be
// back with the flag off and on under each profile, and what the knob
// variants change.
type BrokerResult struct {
	Broker     int32    `json:"broker"`
	Partitions int      `json:"partitions"`
	Tiered     int      `json:"tiered_partitions"`
	Topics     []string `json:"topics"`
	// LocalBytes is what the broker holds now, by kafka-log-dirs.sh.
	LocalBytes int64 `json:"local_bytes"`
	// Sources are the brokers its replicas fetch from after the replace
	// (the cluster's ids).
	Sources            []int32 `json:"sources"`
	NumReplicaFetchers int64   `json:"num_replica_fetchers"`
	Seeds              string  `json:"seeds"`
	// Profiles holds the base scenario's runs, one row a profile.
	Profiles []BrokerRow `json:"profiles"`
	// VariantProfile is the profile the knob variants ran under, Variants
	// their rows (the base first) and Best the index of the variant that
	// helps most (-1: none helps).
	VariantProfile string      `json:"variant_profile"`
	Variants       []BrokerRow `json:"variants"`
	Best           int         `json:"best"`
	Assumptions    []string    `json:"assumptions"`
	Notes          []string    `json:"notes"`
	Scenario       string      `json:"scenario"`
	SavePath       string      `json:"-"`
	scenarioBroker int         // the replaced broker's scenario id
	scenario       *scenarios.Scenario
	names          config.Names // spells the fields WriteText names (BrokerInput.Names)
}

// BrokerRow is one profile's or variant's runs, both strategies: the
// medians over the seeds (a restored time that never came counts as the
// largest).
type BrokerRow struct {
	Name string     `json:"name"` // the profile, or the variant ("num.replica.fetchers=2")
	Off  BrokerSide `json:"flag_off"`
	On   BrokerSide `json:"flag_on"`
}

// BrokerSide is one strategy's median statistics over the seeds.
type BrokerSide struct {
	// RestoredMs is null when the median run was not restored by its end.
	RestoredMs       *int64 `json:"restored_ms"`
	CaughtUpMsP99    *int64 `json:"caught_up_ms_p99"`
	BytesFromLeaders int64  `json:"bytes_from_leaders"`
	BytesFromRemote  int64  `json:"bytes_from_remote"`
	FetcherBlockedMs int64  `json:"fetcher_blocked_ms"`
	// Failed counts the runs that broke an invariant; Findings are the
	// known findings among them, by kind (sorted).
	Failed   int      `json:"failed"`
	Findings []string `json:"known_findings,omitempty"`
	// NeverJoined of Replicas re-added replicas had not joined their ISR
	// at the run's end (medians).
	NeverJoined int `json:"never_joined"`
	Replicas    int `json:"replicas"`
}

// brokerVariant is a knob change tried on the base scenario.
type brokerVariant struct {
	name  string
	apply func(c *scenarios.Config)
}

// variants are the knob changes a broker plan tries: more fetcher threads,
// larger fetch caps, and twice each replication throttle rate the broker
// sets.
func variants(c scenarios.Config) []brokerVariant {
	var vs []brokerVariant
	for _, k := range []int64{2, 4} {
		if n := c.NumReplicaFetchers * k; n <= 64 {
			vs = append(vs, brokerVariant{fmt.Sprintf("num.replica.fetchers=%d", n), func(c *scenarios.Config) { c.NumReplicaFetchers = n }})
		}
	}
	if n := c.ReplicaFetchMaxBytes * 2; n <= math.MaxInt32 {
		vs = append(vs, brokerVariant{fmt.Sprintf("replica.fetch.max.bytes=%d", n), func(c *scenarios.Config) { c.ReplicaFetchMaxBytes = n }})
	}
	if n := c.ReplicaFetchResponseMaxBytes * 2; n <= math.MaxInt32 {
		vs = append(vs, brokerVariant{fmt.Sprintf("replica.fetch.response.max.bytes=%d", n), func(c *scenarios.Config) { c.ReplicaFetchResponseMaxBytes = n }})
	}
	if r := c.LeaderReplicationThrottledRate; r >= 0 && r <= math.MaxInt64/2 {
		vs = append(vs, brokerVariant{fmt.Sprintf("leader.replication.throttled.rate=%d", max(1, 2*r)), func(c *scenarios.Config) { c.LeaderReplicationThrottledRate = max(1, 2*r) }})
	}
	if r := c.FollowerReplicationThrottledRate; r >= 0 && r <= math.MaxInt64/2 {
		vs = append(vs, brokerVariant{fmt.Sprintf("follower.replication.throttled.rate=%d", max(1, 2*r)), func(c *scenarios.Config) { c.FollowerReplicationThrottledRate = max(1, 2*r) }})
	}
	return vs
}

// restoredTail is how long a broker plan's run goes on after the broker
// is restored: the question is the restore, and nothing after it changes
// the statistics the plan reads.
const restoredTail = 10 * sim.Second

// brokerJob is one run: a scenario (0 the base, i the i-th variant), a
// profile, a strategy, a seed.
type brokerJob struct {
	sc       int
	profile  model.Profile
	strategy harness.Strategy
	seed     uint64
}

// MakeBroker builds the broker-scale scenario of in and runs it: flag off
// and on under every profile, and each knob variant under kafka-4.3 (or the
// first profile when kafka-4.3 is not run). It returns the plan, the
// scenario and the scenario file's bytes.
func MakeBroker(in BrokerInput) (*BrokerResult, *scenarios.Scenario, []byte, error) {
	if in.SeedFrom == 0 && in.SeedTo == 0 {
		in.SeedFrom, in.SeedTo = DefaultBrokerSeedFrom, DefaultBrokerSeedTo
	}
	if in.SeedTo < in.SeedFrom || in.SeedTo-in.SeedFrom >= 100 {
		return nil, nil, nil, inputErr("Seeds", "want A..B with A <= B and at most 100 seeds for a broker plan, got %d..%d", in.SeedFrom, in.SeedTo)
	}
	b, sc, data, err := buildBroker(&in)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := harness.CheckRunnable(sc); err != nil {
		return nil, nil, nil, fmt.Errorf("the scenario built from the tools' output does not run in this build: %v", err)
	}
	profiles := in.Profiles
	if len(profiles) == 0 {
		profiles = AllProfiles()
	}
	vp := profiles[0]
	for _, p := range profiles {
		if p.Name() == "kafka-4.3" {
			vp = p
		}
	}
	vs := variants(sc.Config)
	scs := []*scenarios.Scenario{sc}
	for _, v := range vs {
		x := *sc
		v.apply(&x.Config)
		scs = append(scs, &x)
	}
	var jobs []brokerJob
	for _, p := range profiles {
		for _, st := range harness.Strategies {
			for seed := range campaign.SeedRange(in.SeedFrom, in.SeedTo) {
				jobs = append(jobs, brokerJob{0, p, st, seed})
			}
		}
	}
	for i := range vs {
		for _, st := range harness.Strategies {
			for seed := range campaign.SeedRange(in.SeedFrom, in.SeedTo) {
				jobs = append(jobs, brokerJob{i + 1, vp, st, seed})
			}
		}
	}
	share := in.brokerShare(len(jobs), b.runStepsNeeded())
	out, stopped := runBrokerJobs(scs, jobs, in.Workers, share)
	r := b.result(sc, in)
	if stopped > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("the work budget (%d simulated events a run, %d over all runs) stopped %d of %d runs before the broker was back: "+
			"their \"not back\" means not back within it; simrun run on the saved scenario simulates a run in full", share, share*int64(len(jobs)), stopped, len(jobs)))
	}
	for _, p := range profiles {
		r.Profiles = append(r.Profiles, brokerRow(p.Name(), jobs, out, func(j brokerJob) bool { return j.sc == 0 && j.profile == p }))
	}
	r.VariantProfile = vp.Name()
	r.Variants = append(r.Variants, brokerRow(fmt.Sprintf("as configured (num.replica.fetchers=%d)", sc.Config.NumReplicaFetchers), jobs, out,
		func(j brokerJob) bool { return j.sc == 0 && j.profile == vp }))
	for i, v := range vs {
		r.Variants = append(r.Variants, brokerRow(v.name, jobs, out, func(j brokerJob) bool { return j.sc == i+1 }))
	}
	r.Best = bestVariant(r.Variants)
	return r, sc, data, nil
}

// runBrokerJobs runs the jobs on workers goroutines (campaign.All), each
// for at most share steps; each result lands at its job's index, so the
// output does not depend on workers. It returns the results and how many
// runs their share stopped before the broker was back.
func runBrokerJobs(scs []*scenarios.Scenario, jobs []brokerJob, workers int, share int64) ([]*harness.RunMetrics, int) {
	stopped := make([]bool, len(jobs))
	out := campaign.All(len(jobs), workers, func(i int) *harness.RunMetrics {
		j := jobs[i]
		opt := harness.Options{Seed: j.seed, Strategy: j.strategy, Profile: j.profile}
		m, _, s := harness.MeasureBrokerScaleUntilRestored(scs[j.sc], opt, restoredTail, share)
		stopped[i] = s
		return m
	})
	n := 0
	for _, s := range stopped {
		if s {
			n++
		}
	}
	return out, n
}

// result is the plan's description of the broker, before the runs.
func (b *brokerBuilder) result(sc *scenarios.Scenario, in BrokerInput) *BrokerResult {
	r := &BrokerResult{Broker: in.Broker, Partitions: len(b.parts), Topics: b.topics, LocalBytes: b.localBytes,
		NumReplicaFetchers: sc.Config.NumReplicaFetchers, Seeds: fmt.Sprintf("%d..%d", in.SeedFrom, in.SeedTo),
		Assumptions: b.assume, Notes: b.notes, Scenario: sc.Name, SavePath: in.SavePath, scenarioBroker: b.index(in.Broker), scenario: sc, names: in.Names}
	src := map[int32]bool{}
	for _, p := range b.parts {
		if p.tiered {
			r.Tiered++
		}
		s := p.replicas[0]
		if s == in.Broker && len(p.replicas) > 1 {
			s = p.replicas[1]
		}
		src[s] = true
	}
	r.Sources = brokerSortedKeys(src)
	if r.Assumptions == nil {
		r.Assumptions = []string{}
	}
	if r.Notes == nil {
		r.Notes = []string{}
	}
	return r
}

// brokerRow folds the runs of the jobs keep selects into a row.
func brokerRow(name string, jobs []brokerJob, out []*harness.RunMetrics, keep func(brokerJob) bool) BrokerRow {
	row := BrokerRow{Name: name}
	for _, side := range []struct {
		st  harness.Strategy
		dst *BrokerSide
	}{{harness.LocalLogStart, &row.Off}, {harness.LastTiered, &row.On}} {
		var ms []*harness.RunMetrics
		for i, j := range jobs {
			if keep(j) && j.strategy == side.st {
				ms = append(ms, out[i])
			}
		}
		*side.dst = brokerSide(ms)
	}
	return row
}

// brokerSide is the medians of runs (lower median; a time that never came
// is the largest).
func brokerSide(runs []*harness.RunMetrics) BrokerSide {
	var s BrokerSide
	type tv struct {
		v  int64
		ok bool
	}
	med := func(get func(b *harness.BrokerScaleMetrics) tv) tv {
		var xs []tv
		for _, r := range runs {
			if r.BrokerScale != nil {
				xs = append(xs, get(r.BrokerScale))
			}
		}
		if len(xs) == 0 {
			return tv{}
		}
		slices.SortFunc(xs, func(a, b tv) int {
			if a.ok != b.ok {
				if a.ok {
					return -1
				}
				return 1
			}
			return cmp.Compare(a.v, b.v)
		})
		return xs[(len(xs)-1)/2]
	}
	opt := func(x tv) *int64 {
		if !x.ok {
			return nil
		}
		return &x.v
	}
	s.RestoredMs = opt(med(func(b *harness.BrokerScaleMetrics) tv { return tv{b.RestoredMs, b.RestoredKnown} }))
	s.CaughtUpMsP99 = opt(med(func(b *harness.BrokerScaleMetrics) tv { return tv{b.P99Ms, b.P99Known} }))
	s.BytesFromLeaders = med(func(b *harness.BrokerScaleMetrics) tv { return tv{b.BytesFromLeaders, true} }).v
	s.BytesFromRemote = med(func(b *harness.BrokerScaleMetrics) tv { return tv{b.BytesFromRemote, true} }).v
	s.FetcherBlockedMs = med(func(b *harness.BrokerScaleMetrics) tv { return tv{b.FetcherBlockedMs, true} }).v
	s.NeverJoined = int(med(func(b *harness.BrokerScaleMetrics) tv { return tv{int64(b.Never), true} }).v)
	s.Replicas = int(med(func(b *harness.BrokerScaleMetrics) tv { return tv{int64(b.Replicas), true} }).v)
	for _, r := range runs {
		if r.Outcome != harness.OutcomeOK {
			s.Failed++
			if r.Kind != "" && !slices.Contains(s.Findings, r.Kind) {
				s.Findings = append(s.Findings, r.Kind)
			}
		}
	}
	slices.Sort(s.Findings)
	return s
}

// bestVariant is the variant (past the base, row 0) with the largest
// reduction of the flag-on restored time, ties to the first; -1 when none
// reduces it.
func bestVariant(rows []BrokerRow) int {
	best, bestGain := -1, 0.0
	for i := 1; i < len(rows); i++ {
		if g, ok := gain(rows[0].On.RestoredMs, rows[i].On.RestoredMs); ok && g > bestGain+1e-9 {
			best, bestGain = i, g
		}
	}
	return best
}

// gain is the share of the base time a variant saves (0.2: 20% less);
// ok is false when either time never came.
func gain(base, v *int64) (float64, bool) {
	if base == nil || v == nil || *base <= 0 {
		return 0, false
	}
	return 1 - float64(*v)/float64(*base), true
}

// runStepsNeeded is what a run of the broker's replacement needs, from its
// size (brokerStepsPerMiB, brokerStepsPerPartition), at most
// BrokerRunStepsMax.
func (b *brokerBuilder) runStepsNeeded() int64 {
	var local int64
	for _, p := range b.parts {
		local = sim.AddSat(local, p.local)
	}
	need := sim.AddSat(local>>20*brokerStepsPerMiB, int64(len(b.parts))*brokerStepsPerPartition)
	return min(need, BrokerRunStepsMax)
}

// brokerShare is the simulated events each of jobs runs may take: an equal
// share of StepBudget when given, else the larger of an equal share of
// BrokerStepBudget a seed and need, what the broker's size needs.
func (in *BrokerInput) brokerShare(jobs int, need int64) int64 {
	share := max(in.brokerBudget()/int64(max(jobs, 1)), 1)
	if in.StepBudget > 0 {
		return share
	}
	return max(share, need)
}

// brokerBudget is the simulated events the plan's runs may spend together
// but for what the broker's size needs (brokerShare): StepBudget, or
// BrokerStepBudget a seed.
func (in *BrokerInput) brokerBudget() int64 {
	if in.StepBudget > 0 {
		return in.StepBudget
	}
	return BrokerStepBudget * int64(in.SeedTo-in.SeedFrom+1)
}
