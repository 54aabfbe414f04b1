package harness

import (
	"math"
	"slices"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// BrokerScaleStats is what a run of a broker-scale file reports beyond its
// partitions (the result object's broker_scale). The replicas counted are
// those the scenario added (add_replica; replace_broker and reassign add
// theirs the same way).
type BrokerScaleStats struct {
	// Restored is how long after the first replace_broker or reassign every
	// added replica had joined its ISR; RestoredKnown is false when one never
	// did, or the file has neither event.
	Restored      sim.Duration
	RestoredKnown bool
	// CaughtUp is each added replica's time from its add to its first ISR
	// join, ascending; NeverCaughtUp counts those that never joined.
	CaughtUp      []sim.Duration
	NeverCaughtUp int
	// BytesFromLeaders is what the added replicas fetched from their
	// leaders; BytesFromRemote what their auxiliary-state builds read from
	// remote storage.
	BytesFromLeaders, BytesFromRemote int64
	// FetcherBlocked is the time fetcher threads spent blocked in tiered
	// bootstraps while other partitions of the thread waited.
	FetcherBlocked sim.Duration
}

// brokerScaleView folds the events only a broker-scale run has: the first
// replica-moving event (replace_broker; reassign is not modelled yet), and
// the fetcher threads' blocked spans.
type brokerScaleView struct {
	moveAt  sim.Time
	moved   bool
	blocked sim.Duration
	// open are the threads blocked now, with since when.
	open []openBlock
}

type openBlock struct {
	broker, peer int
	fetcher      int16
	since        sim.Time
}

func newBrokerScaleView(*scenarios.Scenario, int) *brokerScaleView { return &brokerScaleView{} }

func (v *brokerScaleView) clone() *brokerScaleView {
	n := *v
	n.open = slices.Clone(v.open)
	return &n
}

// Event implements model.Observer.
func (v *brokerScaleView) Event(now sim.Time, e *model.Event) {
	switch e.Kind {
	case model.EvReplaceBroker:
		if !v.moved {
			v.moveAt, v.moved = now, true
		}
	case model.EvThreadBlocked:
		v.open = append(v.open, openBlock{e.Broker, e.Peer, e.Fetcher, now})
	case model.EvThreadUnblocked:
		i := slices.IndexFunc(v.open, func(b openBlock) bool {
			return b.broker == e.Broker && b.peer == e.Peer && b.fetcher == e.Fetcher
		})
		if i >= 0 {
			v.blocked += now.Sub(v.open[i].since)
			v.open = slices.Delete(v.open, i, i+1)
		}
	}
}

// stats computes the run's broker-scale statistics at end from the
// partitions' views.
func (v *brokerScaleView) stats(end sim.Time, views []*runView) *BrokerScaleStats {
	s := &BrokerScaleStats{FetcherBlocked: v.blocked}
	for _, b := range v.open {
		s.FetcherBlocked += end.Sub(b.since)
	}
	last := sim.Time(0)
	for _, pv := range views {
		for i := range pv.replicas {
			st := &pv.replicas[i]
			if !st.Added {
				continue
			}
			s.BytesFromLeaders += st.BytesFromLeader
			s.BytesFromRemote += st.RemoteAuxBytes
			if !st.CaughtUp {
				s.NeverCaughtUp++
				continue
			}
			s.CaughtUp = append(s.CaughtUp, st.CaughtUpAt.Sub(st.AddedAt))
			last = max(last, st.CaughtUpAt)
		}
	}
	slices.Sort(s.CaughtUp)
	if v.moved && s.NeverCaughtUp == 0 {
		s.Restored, s.RestoredKnown = max(0, last.Sub(v.moveAt)), true
	}
	return s
}

// Quantile returns the nearest-rank q-quantile of the added replicas' catch-up
// times, counting those that never caught up as the largest: the
// ceil(q*n)-th smallest; ok is false when that rank is one that never caught
// up, or there are none.
func (s *BrokerScaleStats) Quantile(q float64) (d sim.Duration, ok bool) {
	n := len(s.CaughtUp) + s.NeverCaughtUp
	if n == 0 {
		return 0, false
	}
	k := min(max(int(math.Ceil(q*float64(n))), 1), n)
	if k > len(s.CaughtUp) {
		return 0, false
	}
	return s.CaughtUp[k-1], true
}
