package harness

import (
	"slices"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// RunMetrics is what a comparison of the two follower protocols measures of
// one run, about the first replica added by add_replica (the follower): how
// long it took to join the ISR, what that cost the leader and remote storage,
// how long it stalled, what it held when it joined, and what it would cost
// consumers if it led. Fields whose Known flag is false are not available
// (no follower, it never joined, no leader at the end, no crash).
type RunMetrics struct {
	Strategy  Strategy
	Outcome   string
	Invariant string // the broken invariant, "" when Outcome is ok
	Kind      string // its known kind, if any
	Digest    string
	Steps     int64
	SimMs     int64

	// Follower is the first broker added by add_replica, -1 when none was.
	Follower    int
	Path        string
	StartOffset int64
	// CatchUpMs is from its add_replica to its first ISR join (as the
	// result object's caught_up_ms); valid when CaughtUp.
	CaughtUp        bool
	CatchUpMs       int64
	BytesFromLeader int64
	// LeaderEgressBytes is what the initial leader sent to other brokers
	// (all replication traffic, every follower); EgressBytes is all brokers'.
	LeaderEgressBytes int64
	EgressBytes       int64
	RemoteAuxBytes    int64
	AuxStateBuilds    int
	ListOffsets       int
	Fetches           int
	Fallbacks         int
	// Retries counts backoffs before the first records; RetriesByReason
	// is indexed by model.RetryReason. StalledMs is Retries times
	// replica_fetch_backoff_ms (the time spent waiting to retry).
	Retries         int
	RetriesByReason []int
	StalledMs       int64
	// BackoffMs is the scenario's replica_fetch_backoff_ms.
	BackoffMs int64

	// LocalFractionAtAdd is the leader's local log (LEO - LLSO) over its
	// whole log (LEO - LSO) right after the add_replica, when its log was
	// not empty (LocalFractionKnown).
	LocalFractionKnown bool
	LocalFractionAtAdd float64
	// LogBytesAtAdd is the leader's whole log, (LEO - LSO) * record_bytes,
	// right after the add_replica.
	LogBytesAtAdd int64
	// LLSOAtJoin and LocalBytesAtJoin are the follower's local log start
	// offset and local bytes when it first joined the ISR (valid when
	// CaughtUp).
	LLSOAtJoin       int64
	LocalBytesAtJoin int64

	// The price, at the end of the run: if the follower led, a consumer
	// reading from the log start (the leader's LSO) up to HW would get
	// PriceRemoteBytes from remote storage and PriceLocalBytes from the
	// follower's disk; PriceExtraLatencyMs is what the remote reads add
	// (see PriceModel). Valid when PriceKnown (a leader at the end).
	PriceKnown          bool
	PriceRemoteBytes    int64
	PriceLocalBytes     int64
	PriceExtraLatencyMs float64

	// RedundancyMs is from the first crash event to the first moment
	// after it at which the ISR holds every assigned replica; valid when
	// RedundancyKnown (a crash happened and redundancy came back).
	RedundancyKnown bool
	RedundancyMs    int64
	// ConsumeRemoteBytes and ConsumeLocalBytes sum what the scenario's
	// consume events read.
	ConsumeRemoteBytes int64
	ConsumeLocalBytes  int64

	// BrokerScale is a broker-scale run's statistics (MeasureBrokerScale),
	// nil for a one-partition run.
	BrokerScale *BrokerScaleMetrics
}

// PriceModel says how PriceExtraLatencyMs is computed: a consumer reads the
// remote part one remote segment (segment_bytes) after another, each read
// taking the mean of remote_fetch_ms; reading local segments adds nothing.
const PriceModel = "remote bytes / segment_bytes (rounded up) remote segment reads, one after another, each taking the mean of remote_fetch_ms; local reads add nothing"

// Measure runs sc once with opt and measures it. It adds its own observer
// of the run's events to opt's.
func Measure(sc *scenarios.Scenario, opt Options) (*RunMetrics, *RunResult) {
	m := &measurer{follower: -1, recordBytes: sc.Config.RecordBytes, brokers: NewBrokerLogs()}
	opt.Observers = append(slices.Clip(opt.Observers), m)
	res := Execute(sc, opt)
	return m.metrics(sc, res), res
}

// measurer keeps, from the run's events, what only the moment shows: the
// leader's log when the follower is added, the follower's log when it
// joins the ISR.
type measurer struct {
	recordBytes int64
	follower    int
	addStep     bool // the current step added the follower
	joined      bool
	fraction    float64
	known       bool
	logBytes    int64
	llso        int64
	local       int64
	// the brokers' latest offsets and the current leader, by their state
	// events
	brokers BrokerLogs
}

// Event implements model.Observer.
func (m *measurer) Event(_ sim.Time, e *model.Event) {
	if e.Kind.IsInput() {
		m.addStep = false
	}
	m.brokers.Update(e)
	switch e.Kind {
	case model.EvAddReplica:
		if m.follower < 0 {
			m.follower, m.addStep = e.Broker, true
			m.sampleLeader()
		}
	case model.EvSkipped:
		if m.addStep { // the add did not happen
			m.follower, m.addStep, m.known, m.fraction, m.logBytes = -1, false, false, 0, 0
		}
	case model.EvISRJoin:
		if e.Broker == m.follower && !m.joined {
			m.joined = true
			m.llso, m.local = e.Log.LocalLogStart, e.Bytes
		}
	}
}

func (m *measurer) sampleLeader() {
	l, ok := m.brokers.LeaderLog()
	if !ok {
		return
	}
	whole := l.LogEnd - l.LogStart
	m.logBytes = whole * m.recordBytes
	if whole > 0 {
		m.fraction, m.known = float64(l.LogEnd-l.LocalLogStart)/float64(whole), true
	}
}

func (m *measurer) metrics(sc *scenarios.Scenario, res *RunResult) *RunMetrics {
	c := res.Cluster
	out := &RunMetrics{Strategy: res.Strategy, Outcome: res.Outcome, Digest: res.Digest, Steps: res.Steps, SimMs: res.SimMs,
		Follower: m.follower, LeaderEgressBytes: res.EgressBytes[sc.Replicas[0]],
		LocalFractionKnown: m.known, LocalFractionAtAdd: m.fraction, LogBytesAtAdd: m.logBytes}
	if f := res.Violation; f != nil {
		out.Invariant, out.Kind = f.Invariant, f.Kind
	}
	for _, n := range res.EgressBytes {
		out.EgressBytes += n
	}
	for _, s := range res.Consumes {
		out.ConsumeRemoteBytes += s.RemoteBytes
		out.ConsumeLocalBytes += s.LocalBytes
	}
	out.RedundancyMs, out.RedundancyKnown = RedundancyRestored(sc, res)
	if m.follower < 0 {
		return out
	}
	b, st := c.Brokers[m.follower], &res.Replicas[m.follower]
	fj := followerJSON(b, st)
	out.Path, out.StartOffset = fj.Bootstrap.Path, fj.Bootstrap.StartOffset
	if fj.CaughtUpMs != nil {
		out.CaughtUp, out.CatchUpMs = true, *fj.CaughtUpMs
		out.LLSOAtJoin, out.LocalBytesAtJoin = m.llso, m.local
	}
	out.BytesFromLeader, out.RemoteAuxBytes, out.AuxStateBuilds = st.BytesFromLeader, st.RemoteAuxBytes, st.AuxStateBuilds
	out.ListOffsets, out.Fetches, out.Fallbacks, out.Retries = st.ListOffsets, st.Fetches, st.Fallbacks, st.Retries
	out.RetriesByReason = make([]int, len(st.RetriesByReason))
	copy(out.RetriesByReason, st.RetriesByReason[:])
	out.BackoffMs = sc.Config.ReplicaFetchBackoffMs
	out.StalledMs = int64(st.Retries) * out.BackoffMs
	out.PriceKnown, out.PriceRemoteBytes, out.PriceLocalBytes, out.PriceExtraLatencyMs = price(sc, c, b)
	return out
}

// price is what a consumer reading from the leader's log start up to HW
// would read from remote storage and from local disk if b led, and the
// latency the remote part adds (PriceModel).
func price(sc *scenarios.Scenario, c *model.Cluster, b *model.Broker) (known bool, remote, local int64, extraMs float64) {
	l := c.Leader()
	if l == nil {
		return false, 0, 0, 0
	}
	remote, local, extraMs = Price(&sc.Config, l.Log.LogStart, l.Log.HighWatermark, b.Log.LocalLogStart)
	return true, remote, local, extraMs
}

// Price is what a consumer reading [lso, hw) would read from remote storage
// (below llso, a replica's local log start) and from its local disk, and
// the latency the remote reads add (PriceModel).
func Price(c *scenarios.Config, lso, hw, llso int64) (remote, local int64, extraMs float64) {
	rb := c.RecordBytes
	remote = max(0, min(llso, hw)-lso) * rb
	local = max(0, hw-max(llso, lso)) * rb
	reads := (remote + c.SegmentBytes - 1) / c.SegmentBytes
	meanMs := float64(c.RemoteFetchMs[0]+c.RemoteFetchMs[1]) / 2
	return remote, local, float64(reads) * meanMs
}

// RedundancyRestored returns the time from the scenario's first crash event
// to the first moment at or after it when the ISR holds every replica
// assigned at the end of the run, by the run's ISR history (its events); ok
// is false without a crash event or when the ISR never became whole again.
func RedundancyRestored(sc *scenarios.Scenario, res *RunResult) (ms int64, ok bool) {
	c, changes := res.Cluster, res.ISRChanges
	crash := int64(-1)
	for _, e := range sc.Events {
		if e.Type == scenarios.EventCrash {
			crash = e.AtMs
			break
		}
	}
	if crash < 0 {
		return 0, false
	}
	at := sim.AtMs(crash)
	whole := func(isr []int) bool {
		for _, r := range c.Ctrl.Replicas {
			if !slices.Contains(isr, r) {
				return false
			}
		}
		return true
	}
	isr := slices.Sorted(slices.Values(sc.Replicas))
	i := 0
	for ; i < len(changes) && changes[i].At <= at; i++ {
		isr = changes[i].ISR
	}
	if whole(isr) {
		return 0, true
	}
	for ; i < len(changes); i++ {
		if whole(changes[i].ISR) {
			return changes[i].At.Sub(at).Ms(), true
		}
	}
	return 0, false
}
