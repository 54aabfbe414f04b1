package harness

import (
	"cmp"
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
	// FetchRequests counts the fetch requests the fetcher threads of the
	// brokers that got added replicas sent (each for all the partitions of
	// its thread, so not per replica; not in the result object).
	FetchRequests int

	// The rest is for the text summary only (not in the result object).

	// Replaced lists the brokers replace_broker replaced, in event order.
	Replaced []int
	// Sources is the added replicas' bytes by the broker they fetched
	// from, ascending broker id.
	Sources []SourceBytes
	// Threads is each fetcher thread's blocked time (FetcherBlocked split
	// by thread), ascending by thread; only threads that were blocked.
	Threads []ThreadBlocked
	// PartBlocked is, per partition (PartID), the time its own tiered
	// bootstraps blocked its thread while other partitions waited.
	PartBlocked []sim.Duration
}

// SourceBytes is what the added replicas fetched from one broker.
type SourceBytes struct {
	Broker int
	Bytes  int64
}

// ThreadBlocked is one fetcher thread's blocked time: the thread of
// Follower fetching from Leader with id Fetcher.
type ThreadBlocked struct {
	Follower, Leader, Fetcher int
	Blocked                   sim.Duration
}

// brokerScaleView folds the events only a broker-scale run has: the first
// replica-moving event (replace_broker, or a reassignment's start), and
// the fetcher threads' blocked spans.
type brokerScaleView struct {
	moveAt  sim.Time
	moved   bool
	blocked sim.Duration
	// open are the threads blocked now, with since when.
	open []openBlock
	// replaced, sources, threads and partBlocked: BrokerScaleStats'
	// Replaced, Sources, Threads (unsorted) and PartBlocked.
	replaced    []int
	sources     []SourceBytes
	threads     []ThreadBlocked
	partBlocked []sim.Duration
	// fetches counts the fetch requests each broker's fetcher threads sent.
	fetches []int
}

type openBlock struct {
	broker, peer int
	fetcher      int16
	part         model.PartID
	since        sim.Time
}

func newBrokerScaleView(sc *scenarios.Scenario, n int) *brokerScaleView {
	return &brokerScaleView{partBlocked: make([]sim.Duration, n), fetches: make([]int, sc.Brokers)}
}

func (v *brokerScaleView) clone() *brokerScaleView {
	n := *v
	n.open = slices.Clone(v.open)
	n.replaced, n.sources = slices.Clone(v.replaced), slices.Clone(v.sources)
	n.threads, n.partBlocked = slices.Clone(v.threads), slices.Clone(v.partBlocked)
	return &n
}

// fromLeader counts an added replica's fetched bytes (an EvFetched) by the
// broker it fetched from.
func (v *brokerScaleView) fromLeader(e *model.Event) {
	i := slices.IndexFunc(v.sources, func(s SourceBytes) bool { return s.Broker == e.Peer })
	if i < 0 {
		v.sources = append(v.sources, SourceBytes{Broker: e.Peer})
		i = len(v.sources) - 1
	}
	v.sources[i].Bytes += e.Bytes
}

// closeBlock ends thread block b at now.
func (v *brokerScaleView) closeBlock(b openBlock, now sim.Time) {
	d := now.Sub(b.since)
	v.blocked += d
	if int(b.part) >= 0 && int(b.part) < len(v.partBlocked) {
		v.partBlocked[b.part] += d
	}
	i := slices.IndexFunc(v.threads, func(t ThreadBlocked) bool {
		return t.Follower == b.broker && t.Leader == b.peer && t.Fetcher == int(b.fetcher)
	})
	if i < 0 {
		v.threads = append(v.threads, ThreadBlocked{Follower: b.broker, Leader: b.peer, Fetcher: int(b.fetcher)})
		i = len(v.threads) - 1
	}
	v.threads[i].Blocked += d
}

// Event implements model.Observer.
func (v *brokerScaleView) Event(now sim.Time, e *model.Event) {
	switch e.Kind {
	case model.EvReplaceBroker, model.EvReassignStart:
		if !v.moved {
			v.moveAt, v.moved = now, true
		}
		if e.Kind == model.EvReplaceBroker && !slices.Contains(v.replaced, e.Broker) {
			v.replaced = append(v.replaced, e.Broker)
		}
	case model.EvSend:
		// A thread's fetch is the fleet's (no partition): the partitions'
		// views, which count a one-partition run's fetches, never see it.
		if e.Part < 0 && e.Msg.Kind == model.MsgFetch {
			v.fetches[e.Broker]++
		}
	case model.EvThreadBlocked:
		v.open = append(v.open, openBlock{e.Broker, e.Peer, e.Fetcher, e.Part, now})
	case model.EvThreadUnblocked:
		i := slices.IndexFunc(v.open, func(b openBlock) bool {
			return b.broker == e.Broker && b.peer == e.Peer && b.fetcher == e.Fetcher
		})
		if i >= 0 {
			v.closeBlock(v.open[i], now)
			v.open = slices.Delete(v.open, i, i+1)
		}
	}
}

// stats computes the run's broker-scale statistics at end from the
// partitions' views.
func (v *brokerScaleView) stats(end sim.Time, views []*runView) *BrokerScaleStats {
	v = v.clone() // the still-open blocks close at end on a copy
	for _, b := range v.open {
		v.closeBlock(b, end)
	}
	s := &BrokerScaleStats{FetcherBlocked: v.blocked, Replaced: v.replaced, Sources: v.sources, Threads: v.threads,
		PartBlocked: v.partBlocked}
	slices.SortFunc(s.Sources, func(a, b SourceBytes) int { return a.Broker - b.Broker })
	slices.SortFunc(s.Threads, func(a, b ThreadBlocked) int {
		return cmp.Or(a.Follower-b.Follower, a.Leader-b.Leader, a.Fetcher-b.Fetcher)
	})
	last := sim.Time(0)
	counted := make([]bool, len(v.fetches))
	for _, pv := range views {
		for i := range pv.replicas {
			st := &pv.replicas[i]
			if !st.Added {
				continue
			}
			if !counted[i] {
				counted[i] = true
				s.FetchRequests += v.fetches[i]
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
