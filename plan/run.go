package plan

import (
	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// RunOutcome is one run of the plan's scenario: one profile, one seed, one
// strategy. When the run simulated the scenario's whole duration, simrun
// run --scenario SAVED --seed SEED --profile PROFILE prints the same
// outcome, catch-up time, bootstrap, bytes from the leader and digest; a run
// the work budget cut short gives the same catch-up time when it joined.
type RunOutcome struct {
	Seed      uint64 `json:"seed"`
	Outcome   string `json:"outcome"`
	Invariant string `json:"invariant,omitempty"`
	Kind      string `json:"kind,omitempty"`
	// CaughtUpMs is from the add_replica to the new replica's first ISR
	// join; null when it did not join within the simulated time.
	CaughtUpMs *int64 `json:"caught_up_ms"`
	// ExtrapolatedMs, when the replica was still copying at the end of the
	// simulated time, is when it would join at the rate it was gaining on
	// the leader.
	ExtrapolatedMs *int64 `json:"extrapolated_ms,omitempty"`
	// BytesAtJoin is what it had copied from the leader when it joined (or,
	// extrapolated, would have: the leader's log above its start);
	// BytesFromLeader what it had at the end of the simulated time.
	BytesAtJoin     int64          `json:"bytes_from_leader_at_join"`
	BytesFromLeader int64          `json:"bytes_from_leader"`
	Path            string         `json:"path"`
	StartOffset     int64          `json:"start_offset"`
	Retries         int            `json:"retries"`
	RetriesByReason map[string]int `json:"retries_by_reason,omitempty"`
	// The price when it joined (extrapolated: at the end of the simulated
	// time): what a consumer reading from the leader's log start to HW
	// would read from remote storage and from local disk if the new
	// replica led, and what the remote reads add (harness.PriceModel).
	PriceRemoteBytes    int64   `json:"price_remote_bytes"`
	PriceLocalBytes     int64   `json:"price_local_bytes"`
	PriceExtraLatencyMs float64 `json:"price_extra_latency_ms"`
	Digest              string  `json:"digest"`
	Steps               int64   `json:"steps"`
	// SimulatedMs is the simulated time the run covered: its horizon, less
	// when it broke an invariant, or when its share of the work budget
	// (StepBudget) stopped it first.
	SimulatedMs int64 `json:"simulated_ms"`
	// stopped: the run's share of the work budget stopped it.
	stopped bool
}

// Joined reports whether the replica joined the ISR, measured or
// extrapolated, and when.
func (o RunOutcome) Joined() (ms int64, ok bool) {
	switch {
	case o.CaughtUpMs != nil:
		return *o.CaughtUpMs, true
	case o.ExtrapolatedMs != nil:
		return *o.ExtrapolatedMs, true
	}
	return 0, false
}

type job struct {
	profile  model.Profile
	fixes    model.Fixes
	seed     uint64
	strategy harness.Strategy
	maxSteps int64 // the run's share of the plan's work budget
	// extrapolate: a replica still copying at the end may be extrapolated
	// (not when produce outruns it: builder.neverCatchesUp).
	extrapolate bool
}

// runAll runs every job, on the scenario of its strategy, on workers
// goroutines (campaign.All); each result lands at its job's index, so the
// output does not depend on the number of workers.
func runAll(sc map[harness.Strategy]*scenarios.Scenario, jobs []job, workers int) []RunOutcome {
	return campaign.All(len(jobs), workers, func(i int) RunOutcome { return runOne(sc[jobs[i].strategy], jobs[i]) })
}

// joinSample is the state of the cluster when the new replica first joined
// the ISR.
type joinSample struct {
	joined      bool
	bytes       int64
	lso, hw     int64 // the leader's
	followerLLS int64
}

// joinObserver takes, from a run's events, the join sample at the end of
// the step in which the new replica first joined the ISR.
type joinObserver struct {
	follower int
	js       joinSample
	pending  bool  // joined in the current step; sampled when it ends
	fetched  int64 // bytes the follower appended from fetches so far
	brokers  harness.BrokerLogs
}

// Event implements model.Observer.
func (o *joinObserver) Event(_ sim.Time, e *model.Event) {
	if e.Kind.IsInput() {
		o.sample()
	}
	o.brokers.Update(e)
	switch e.Kind {
	case model.EvFetched:
		if e.Broker == o.follower {
			o.fetched += e.Bytes
		}
	case model.EvISRJoin:
		if e.Broker == o.follower && !o.js.joined && !o.pending {
			o.pending = true
			o.js.followerLLS = e.Log.LocalLogStart
		}
	}
}

// sample takes the join sample once the join's step has ended.
func (o *joinObserver) sample() {
	if !o.pending {
		return
	}
	o.pending = false
	o.js.joined, o.js.bytes = true, o.fetched
	if l, ok := o.brokers.LeaderLog(); ok {
		o.js.lso, o.js.hw = l.LogStart, l.HighWatermark
	}
}

// runOne runs one job and keeps what the plan reports of it.
func runOne(sc *scenarios.Scenario, j job) RunOutcome {
	obs := &joinObserver{follower: sc.Brokers - 1, brokers: harness.NewBrokerLogs()}
	// The run stops, as if its horizon ended, at its share of the plan's
	// budget (StopAfter); the harness's own budget only refuses a scenario
	// no share could run.
	opt := harness.Options{Seed: j.seed, Strategy: j.strategy, Profile: j.profile, Fixes: j.fixes, Observers: []model.Observer{obs},
		MaxSteps: harness.MaxStepsLimit, StopAfter: j.maxSteps}
	res := harness.Execute(sc, opt)
	obs.sample()
	js := obs.js
	o := RunOutcome{Seed: j.seed, Outcome: res.Outcome, Path: "not-started", Digest: res.Digest, Steps: res.Steps, SimulatedMs: res.SimMs,
		stopped: res.Violation == nil && res.Steps >= j.maxSteps && res.SimMs < sc.DurationMs+sc.HealMs}
	if v := res.Violation; v != nil {
		o.Invariant, o.Kind = v.Invariant, v.Kind
	}
	rj := res.JSON()
	if len(rj.Followers) == 0 {
		return o // refused or broken before the replica was added
	}
	f := rj.Followers[0]
	o.CaughtUpMs, o.BytesFromLeader = f.CaughtUpMs, f.BytesFromLeader
	o.Path, o.StartOffset, o.Retries, o.RetriesByReason = f.Bootstrap.Path, f.Bootstrap.StartOffset, f.Bootstrap.Retries, f.Bootstrap.RetriesByReason
	if !js.joined {
		js = extrapolate(sc, res, &o, j.extrapolate)
	}
	o.BytesAtJoin = js.bytes
	o.price(js, &sc.Config)
	return o
}

// price sets the outcome's price at the join sample js: what a consumer
// reading [log start, HW) would read from remote storage and from local
// disk if the new replica led, and what the remote reads add
// (harness.Price, the runs' own measure).
func (o *RunOutcome) price(js joinSample, c *scenarios.Config) {
	o.PriceRemoteBytes, o.PriceLocalBytes, o.PriceExtraLatencyMs = harness.Price(c, js.lso, js.hw, js.followerLLS)
}

func sampleJoin(res *harness.RunResult, b *model.Broker) joinSample {
	c := res.Cluster
	s := joinSample{joined: true, bytes: res.Replicas[b.ID].BytesFromLeader, followerLLS: b.Log.LocalLogStart}
	if l := c.Leader(); l != nil {
		s.lso, s.hw = l.Log.LogStart, l.Log.HighWatermark
	}
	return s
}

// extrapolate estimates, for a replica still copying when the simulated
// time ended, when it would join: it gains on the leader at its copy rate
// (records fetched since its start over the time simulated) less the
// produce rate. The sample is the cluster at the end; without allowed, it
// is all extrapolate returns.
func extrapolate(sc *scenarios.Scenario, res *harness.RunResult, o *RunOutcome, allowed bool) joinSample {
	c := res.Cluster
	b := c.Brokers[sc.Brokers-1]
	s := sampleJoin(res, b)
	s.joined = false
	l := c.Leader()
	if !allowed || l == nil || res.Violation != nil && res.Violation.Invariant != invariants.Liveness {
		return s
	}
	elapsedMs := res.SimMs
	copied := b.Log.LogEnd - o.StartOffset
	gap := l.Log.HighWatermark - b.Log.LogEnd
	var produced, overMs int64
	for _, e := range sc.Events {
		if e.Type == scenarios.EventProduce {
			produced, overMs = produced+e.Records, overMs+e.OverMs
		}
	}
	if copied <= 0 || elapsedMs <= 0 || gap <= 0 {
		return s
	}
	gain := float64(copied) / float64(elapsedMs)
	if overMs > 0 {
		gain -= float64(produced) / float64(overMs)
	}
	if gain <= 0 {
		return s
	}
	ms := elapsedMs + int64(float64(gap)/gain)
	o.ExtrapolatedMs = &ms
	s.bytes = (l.Log.HighWatermark - o.StartOffset) * sc.Config.RecordBytes
	return s
}
