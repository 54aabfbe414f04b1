package harness

import (
	"slices"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// BrokerScaleMetrics is a broker-scale run's statistics as compare and plan
// read them: the result object's broker_scale, a null time as Known false.
type BrokerScaleMetrics struct {
	RestoredKnown    bool
	RestoredMs       int64
	P50Known         bool
	P50Ms            int64
	P99Known         bool
	P99Ms            int64
	BytesFromLeaders int64
	BytesFromRemote  int64
	FetcherBlockedMs int64
	// Replicas is the number of replicas the file added (re-added by
	// replace_broker), Never those of them that never joined their ISR.
	Replicas, Never int
}

// MeasureBrokerScale runs a broker-scale file with opt and returns its
// metrics: RunMetrics' one-follower fields are those of the broker as a
// whole (the follower is the first replaced broker; its catch-up is the
// time until it was restored, its bytes the added replicas' together, its
// path the one most of them took, its retries and requests their sums),
// and BrokerScale the statistics.
func MeasureBrokerScale(sc *scenarios.Scenario, opt Options) (*RunMetrics, *RunResult) {
	res := Execute(sc, opt)
	return brokerScaleMetrics(sc, res), res
}

func brokerScaleMetrics(sc *scenarios.Scenario, res *RunResult) *RunMetrics {
	out := &RunMetrics{Strategy: res.Strategy, Outcome: res.Outcome, Digest: res.Digest, Steps: res.Steps, SimMs: res.SimMs,
		Follower: -1, BackoffMs: sc.Config.ReplicaFetchBackoffMs, RetriesByReason: make([]int, model.NumRetryReasons)}
	if f := res.Violation; f != nil {
		out.Invariant, out.Kind = f.Invariant, f.Kind
	}
	for _, n := range res.EgressBytes {
		out.EgressBytes += n
	}
	s := res.BrokerScale
	if s == nil {
		return out
	}
	bm := &BrokerScaleMetrics{RestoredKnown: s.RestoredKnown, RestoredMs: s.Restored.Ms(), BytesFromLeaders: s.BytesFromLeaders,
		BytesFromRemote: s.BytesFromRemote, FetcherBlockedMs: s.FetcherBlocked.Ms(), Replicas: len(s.CaughtUp) + s.NeverCaughtUp,
		Never: s.NeverCaughtUp}
	if d, ok := s.Quantile(0.5); ok {
		bm.P50Known, bm.P50Ms = true, d.Ms()
	}
	if d, ok := s.Quantile(0.99); ok {
		bm.P99Known, bm.P99Ms = true, d.Ms()
	}
	out.BrokerScale = bm
	if len(s.Replaced) > 0 {
		out.Follower = s.Replaced[0]
	} else if bm.Replicas > 0 {
		out.Follower = firstAdded(res)
	}
	out.CaughtUp, out.CatchUpMs = s.RestoredKnown, s.Restored.Ms()
	if s.RestoredKnown { // what the broker held when restored: what it copied
		out.LocalBytesAtJoin = s.BytesFromLeaders
	}
	out.BytesFromLeader, out.RemoteAuxBytes = s.BytesFromLeaders, s.BytesFromRemote
	paths := make([]int, model.PathEarliestPendingUpload+1)
	for _, p := range res.Partitions {
		for i := range p.Replicas {
			st := &p.Replicas[i]
			if !st.Added {
				continue
			}
			paths[st.Path]++
			out.AuxStateBuilds += st.AuxStateBuilds
			out.ListOffsets += st.ListOffsets
			out.Fetches += st.Fetches
			out.Fallbacks += st.Fallbacks
			out.Retries += st.Retries
			for r, n := range st.RetriesByReason {
				out.RetriesByReason[r] += n
			}
		}
	}
	out.Fetches += s.FetchRequests // a fleet's fetches are its threads' (BrokerScaleStats)
	out.Path = model.Path(slices.Index(paths, slices.Max(paths))).String()
	out.StalledMs = int64(out.Retries) * out.BackoffMs
	return out
}

// firstAdded is the broker of the first partition's first added replica.
func firstAdded(res *RunResult) int {
	for _, p := range res.Partitions {
		for b := range p.Replicas {
			if p.Replicas[b].Added {
				return b
			}
		}
	}
	return -1
}

// restoredCheckEvery is how many steps MeasureBrokerScaleUntilRestored
// takes between looks at whether the broker is restored (a look visits
// every partition).
const restoredCheckEvery = 4096

// MeasureBrokerScaleUntilRestored is MeasureBrokerScale for a question
// about the restore alone (simrun plan --broker): the run stops, with
// outcome ok, once every replica the file's replace_broker re-added has
// joined its ISR and tail more has passed (looked at every
// restoredCheckEvery steps), instead of running to the scenario's end. The
// statistics are those of the whole run when nothing after the restore
// adds to them (no records produced, no further broker event). It takes
// at most steps steps (0: the run's own budget alone): a run that reaches
// them first stops there too, with outcome ok, its statistics those so
// far, and stopped true when the broker was not restored by then.
func MeasureBrokerScaleUntilRestored(sc *scenarios.Scenario, opt Options, tail sim.Duration, steps int64) (m *RunMetrics, res *RunResult, stopped bool) {
	x := newRun(sc, opt, false)
	for x.done == nil {
		x.Step()
		if x.done != nil {
			break
		}
		if steps > 0 && x.r.steps >= steps {
			_, restored := x.restoredAt()
			stopped = !restored
			x.Stop()
			break
		}
		if x.r.steps%restoredCheckEvery == 0 {
			if at, ok := x.restoredAt(); ok && x.r.sched.Now() >= at.Add(tail) {
				x.Stop()
			}
		}
	}
	return brokerScaleMetrics(sc, x.done), x.done, stopped
}

// restoredAt reports whether a broker-scale run's replace_broker has
// happened and every replica it re-added has joined its ISR, and when the
// last one did.
func (x *Run) restoredAt() (sim.Time, bool) {
	m := x.r.mp
	if m == nil || !m.bs.moved {
		return 0, false
	}
	last := sim.Time(0)
	for _, v := range m.views {
		for i := range v.replicas {
			st := &v.replicas[i]
			if !st.Added {
				continue
			}
			if !st.CaughtUp {
				return 0, false
			}
			last = max(last, st.CaughtUpAt)
		}
	}
	return last, true
}
