package harness

import (
	"slices"

	"tierfetch/model"
	"tierfetch/sim"
)

// ReplicaStats is what a run reports of one replica, folded from its
// events: for a replica added by add_replica (Added), the result object's
// follower entry (bootstrap and catch-up).
type ReplicaStats struct {
	Added           bool
	AddedAt         sim.Time
	CaughtUp        bool
	CaughtUpAt      sim.Time // its first ISR join after the add
	BytesFromLeader int64
	Path            model.Path // how its bootstrap positioned it
	StartOffset     int64
	StartSet        bool // StartOffset is final: it bootstrapped or joined the ISR
	// Retries counts the backoffs while it bootstrapped.
	Retries         int
	RetriesByReason [model.NumRetryReasons]int
	LastRetry       model.RetryReason // why its last backoff happened (any time)
	EverRetried     bool
	AuxStateBuilds  int
	Fallbacks       int // KIP-1023 found EPUO < LSO and fell back
	RemoteAuxBytes  int64
	ListOffsets     int // ListOffsets requests sent
	Fetches         int // fetch requests sent
}

// ISRChange is the ISR after one change, and when it happened.
type ISRChange struct {
	At  sim.Time
	ISR []int
}

// ConsumeStats is what one consume event read: [FromOffset, ToOffset) on
// Broker, LocalBytes from its disk and RemoteBytes from remote storage.
type ConsumeStats struct {
	AtMs        int64
	Broker      int
	FromOffset  int64
	ToOffset    int64
	LocalBytes  int64
	RemoteBytes int64
}

// runView folds a run's event stream into what the run reports beyond its
// digest: each replica's bootstrap (ReplicaStats), what consumers read, the
// ISR's history and the coverage goals reached. It is an observer like the trace and the
// timeline, built into the runner so that every run has it, and reads
// nothing but events (and the scenario's initial state): the result
// object, the metrics and the coverage cannot disagree with the trace.
type runView struct {
	// What every event reads comes first, in the view's first cache line
	// (in a broker-scale run each partition's view is one more line a
	// step reads, a miss at thousands of partitions): the brokers' and
	// replicas' arrays and the pending input's kind.
	brokers  []seenBroker
	replicas []ReplicaStats
	// pend is what the step's input did, decided by the event after it:
	// a refusal (EvSkipped) undoes an add_replica or a set_config, a drop
	// (EvDropped) a delivery.
	pend     pending
	consumes []ConsumeStats
	// isr is the ISR now, isrChanges every change of it: the leader's
	// (EvISRJoin, EvISRShrink) as they say, the controller's as its
	// events imply (isrEvent).
	isr        []int
	isrChanges []ISRChange
	// assigned marks the brokers holding a replica: the initial ones and
	// those added.
	assigned []bool
	tiered   bool // remote.storage.enable
	coverage [model.NumGoals]int64
	// The size a multiple of 64 bytes, so that every view (allocated in
	// a size class of 64-byte multiples) starts on a cache line and its
	// first 64 bytes are one line.
	_ [56]byte
}

// seenBroker is one broker as its events last showed it.
type seenBroker struct {
	role  model.Role
	up    bool
	epoch int32
	log   model.LogOffsets
	hro   int64
	// boot: an added replica that has received no records yet.
	boot bool
	// req is the id of the request its fetcher waits for an answer to (0:
	// none): the last it sent, until it backs off, its role changes or it
	// crashes (the fetcher then drops any answer).
	req uint64
	// An auxiliary-state build under way (from EvAuxBuildStart to
	// EvAuxBuildEnd): its start offset and epoch, and the id of its
	// OffsetsForLeaderEpoch request.
	aux      bool
	auxStart int64
	auxEpoch int32
	auxReqID uint64
}

// pending is the effect of a step's input that the event after it
// decides.
type pending struct {
	what   pendKind   // first: runView.Event reads it at every event
	midRun bool       // pendAdd: the leader held records at a time after 0
	on     bool       // pendTiered: the value set
	goal   model.Goal // pendGoal: the goal a delivered answer reaches
	broker int        // pendAdd: the broker added
	at     sim.Time   // pendAdd: when
	// pendCrash: broker crashed at at.
}

type pendKind uint8

const (
	pendNone    pendKind = iota
	pendAdd              // add_replica: undone by a refusal
	pendTiered           // set_config remote_storage_enable: undone by a refusal
	pendGoal             // a delivered answer: undone by a drop
	pendCrash            // crash: undone by a refusal
	pendReplace          // replace_broker: undone by a refusal
)

// newRunView returns the view of a run of n brokers with the given
// replicas (the ISR at first) whose topic starts with tiering on or off
// and whose initial log holds epochs.
func newRunView(n int, replicas []int, tiered bool, init *model.Initial) *runView {
	v := &runView{replicas: make([]ReplicaStats, n), brokers: make([]seenBroker, n), tiered: tiered,
		isr: slices.Sorted(slices.Values(replicas)), assigned: make([]bool, n)}
	for _, r := range replicas {
		v.assigned[r] = true
	}
	for i := range v.brokers {
		v.brokers[i].hro = -1
	}
	if slices.ContainsFunc(init.Log.Epochs, func(e model.EpochEntry) bool { return e.Epoch > 0 }) {
		v.coverage[model.GoalInitialEpochs]++
	}
	return v
}

// clone returns an independent copy of the view.
func (v *runView) clone() *runView {
	n := *v
	n.replicas = slices.Clone(v.replicas)
	n.consumes = slices.Clip(v.consumes)
	n.brokers = slices.Clone(v.brokers)
	n.assigned = slices.Clone(v.assigned)
	n.isrChanges = slices.Clip(v.isrChanges)
	return &n
}

// Event implements model.Observer.
func (v *runView) Event(now sim.Time, e *model.Event) {
	if v.pend.what != pendNone {
		v.settle(e)
	}
	switch e.Kind {
	case model.EvAddReplica:
		v.pend = pending{what: pendAdd, broker: e.Broker, at: now, midRun: now > 0 && v.leaderHolds()}
	case model.EvCrash:
		v.pend = pending{what: pendCrash, broker: e.Broker, at: now}
	case model.EvReplaceBroker:
		v.pend = pending{what: pendReplace, broker: e.Broker, at: now}
	case model.EvSetConfig:
		if e.Key == "remote_storage_enable" {
			v.pend = pending{what: pendTiered, on: e.On}
		}
	case model.EvDeliver:
		v.deliver(&e.Msg)
	case model.EvReassignStart, model.EvReassignDone:
		v.reassign(now, e)
	default:
		v.replica(now, e)
		v.goals(e)
		v.isrEvent(now, e)
		v.broker(e)
	}
}

// end settles what the run's last input left pending.
func (v *runView) end() {
	if v.pend.what != pendNone {
		v.settle(nil)
	}
}

// settle applies the pending effect of the step's input unless next (nil:
// the run ended) shows it did not happen.
func (v *runView) settle(next *model.Event) {
	p := v.pend
	v.pend = pending{}
	skipped := next != nil && next.Kind == model.EvSkipped
	switch p.what {
	case pendAdd:
		if !skipped {
			v.replicas[p.broker] = ReplicaStats{Added: true, AddedAt: p.at}
			v.brokers[p.broker].boot = true
			v.assigned[p.broker] = true
			if p.midRun {
				v.coverage[model.GoalReplicaAddedMidRun]++
			}
		}
	case pendTiered:
		if !skipped {
			v.tiered = p.on
		}
	case pendGoal:
		if next == nil || next.Kind != model.EvDropped {
			v.coverage[p.goal]++
		}
	case pendReplace:
		// Fenced out of the ISR as a crash is, then re-added empty if it
		// holds a replica of the partition.
		if skipped {
			break
		}
		if slices.Contains(v.isr, p.broker) {
			v.setISR(p.at, slices.DeleteFunc(slices.Clone(v.isr), func(r int) bool { return r == p.broker }))
		}
		if v.assigned[p.broker] {
			v.replicas[p.broker] = ReplicaStats{Added: true, AddedAt: p.at}
			v.brokers[p.broker].boot = true
		}
	case pendCrash:
		// The controller fences a crashed broker: it leaves the ISR, even
		// as its last member (model.Cluster.fence).
		if !skipped && slices.Contains(v.isr, p.broker) {
			v.setISR(p.at, slices.DeleteFunc(slices.Clone(v.isr), func(r int) bool { return r == p.broker }))
		}
	}
}

// reassign folds a reassignment: at its start each target replica not
// assigned before is added (it bootstraps as an added replica does); at
// its end the replicas it removed are no longer assigned and leave the ISR.
func (v *runView) reassign(now sim.Time, e *model.Event) {
	if e.Kind == model.EvReassignStart {
		for _, r := range e.Brokers {
			if !v.assigned[r] {
				v.replicas[r] = ReplicaStats{Added: true, AddedAt: now}
				v.brokers[r].boot = true
				v.assigned[r] = true
			}
		}
		return
	}
	for r := range v.assigned {
		if v.assigned[r] && !slices.Contains(e.Brokers, r) {
			v.assigned[r] = false
		}
	}
	if isr := slices.DeleteFunc(slices.Clone(v.isr), func(r int) bool { return !v.assigned[r] }); len(isr) != len(v.isr) {
		v.setISR(now, isr)
	}
}

// isrEvent folds an ISR change into the ISR's history: the leader's join
// and shrink say the ISR after; an unclean election leaves the elected
// broker alone in it, and so does any election while the ISR is empty
// (from the ELR, or of the last known leader).
func (v *runView) isrEvent(now sim.Time, e *model.Event) {
	switch e.Kind {
	case model.EvISRJoin, model.EvISRShrink:
		v.setISR(now, slices.Clone(e.Brokers))
	case model.EvUncleanElection:
		v.setISR(now, []int{e.Broker})
	case model.EvBecomeLeader:
		if len(v.isr) == 0 {
			v.setISR(now, []int{e.Broker})
		}
	}
}

// setISR records a change of the ISR to isr at now.
func (v *runView) setISR(now sim.Time, isr []int) {
	if slices.Equal(isr, v.isr) {
		return
	}
	v.isr = isr
	v.isrChanges = append(v.isrChanges, ISRChange{At: now, ISR: isr})
}

// leaderHolds reports whether the leader, as the last broker-state events
// showed it, holds records.
func (v *runView) leaderHolds() bool {
	for i := range v.brokers {
		if b := &v.brokers[i]; b.role == model.RoleLeader && b.up {
			return b.log.LogEnd > b.log.LogStart
		}
	}
	return false
}

// deliver notes an answer arriving at a follower whose fetcher waits for
// it, and the goal its taking reaches: OFFSET_OUT_OF_RANGE or
// OFFSET_MOVED_TO_TIERED_STORAGE while it bootstraps, or an
// OffsetsForLeaderEpoch answer that puts start-1 of its build in an
// earlier epoch. The goal counts unless the network drops the answer.
func (v *runView) deliver(m *model.Message) {
	b := &v.brokers[m.To]
	if m.ReqID == 0 || m.ReqID != b.req {
		return
	}
	switch {
	case m.Kind == model.MsgFetchResp && b.boot && m.Err == model.ErrOffsetOutOfRange:
		v.pend = pending{what: pendGoal, goal: model.GoalFollowerOOR}
	case m.Kind == model.MsgFetchResp && b.boot && m.Err == model.ErrOffsetMovedToTieredStorage:
		v.pend = pending{what: pendGoal, goal: model.GoalFollowerOMTS}
	case m.Kind == model.MsgEpochEndResp && m.Err == model.ErrNone && b.aux && m.ReqID == b.auxReqID &&
		m.Epoch >= 0 && m.Offset > b.auxStart-1 && m.Epoch != b.auxEpoch:
		v.pend = pending{what: pendGoal, goal: model.GoalAuxEpochBeforeStart}
	}
}

// replica folds an outcome into its replica's stats and consumes.
func (v *runView) replica(now sim.Time, e *model.Event) {
	switch e.Kind {
	case model.EvSend:
		st := &v.replicas[e.Msg.From]
		switch e.Msg.Kind {
		case model.MsgFetch:
			st.Fetches++
		case model.MsgListOffsets:
			st.ListOffsets++
		}
	case model.EvFetched:
		v.replicas[e.Broker].BytesFromLeader += e.Bytes
	case model.EvBootstrapped:
		if st := &v.replicas[e.Broker]; !st.StartSet {
			st.StartOffset, st.StartSet = e.Offset, true
		}
	case model.EvISRJoin:
		if st := &v.replicas[e.Broker]; st.Added && !st.CaughtUp {
			st.CaughtUp, st.CaughtUpAt = true, now
			if !st.StartSet {
				st.StartOffset, st.StartSet = e.Log.LocalLogStart, true
			}
		}
	case model.EvBackoff:
		st := &v.replicas[e.Broker]
		st.LastRetry, st.EverRetried = e.Retry, true
		if v.brokers[e.Broker].boot {
			st.Retries++
			st.RetriesByReason[e.Retry]++
		}
	case model.EvFallback:
		v.replicas[e.Broker].Fallbacks++
	case model.EvStartAt:
		if v.brokers[e.Broker].boot {
			v.replicas[e.Broker].Path = e.Path
		}
	case model.EvAuxBuildEnd:
		if e.Cause == model.AuxBuilt {
			st := &v.replicas[e.Broker]
			if v.brokers[e.Broker].boot {
				st.Path = e.Path
			}
			st.AuxStateBuilds++
			st.RemoteAuxBytes += e.RemoteBytes
		}
	case model.EvConsumed:
		v.consumes = append(v.consumes, ConsumeStats{AtMs: now.Ms(), Broker: e.Broker, FromOffset: e.Offset, ToOffset: e.End,
			LocalBytes: e.Bytes, RemoteBytes: e.RemoteBytes})
	}
}

// goals counts the coverage goals an outcome reaches, reading the brokers
// as they were before it.
func (v *runView) goals(e *model.Event) {
	g := -1
	switch e.Kind {
	case model.EvAuxBuildEnd:
		switch e.Cause {
		case model.AuxBuilt:
			g = int(model.GoalAuxStateBuilt)
		case model.AuxSegmentGone:
			g = int(model.GoalAuxSegmentDeleted)
		case model.AuxRemoteError:
			g = int(model.GoalAuxReadFailed)
		}
	case model.EvBackoff:
		if e.Retry == model.RetryEPUOUnknown {
			g = int(model.GoalEPUOUnknownRetry)
		}
	case model.EvFallback:
		g = int(model.GoalEPUOBelowLSOFallback)
	case model.EvUncleanElection:
		g = int(model.GoalUncleanElection)
	case model.EvUploadEnd:
		if e.Cause == model.UploadFailed {
			g = int(model.GoalUploadFailed)
		}
	case model.EvConsumed:
		if e.RemoteBytes > 0 {
			g = int(model.GoalConsumeRemote)
		}
	case model.EvBecomeFollower:
		// The leader changed under a follower that was bootstrapping from
		// the one before.
		if b := &v.brokers[e.Broker]; b.boot && b.role == model.RoleFollower && b.epoch != e.Epoch {
			g = int(model.GoalLeaderChangedMidBootstrap)
		}
	case model.EvBecomeLeader:
		if st := &v.replicas[e.Broker]; st.Path == model.PathEarliestPendingUpload && st.StartSet {
			g = int(model.GoalTieredFollowerBecameLeader)
		}
	case model.EvTruncate:
		// KIP-405's rule for a LEO above the leader's applied to a follower
		// holding no records.
		if l := &v.brokers[e.Broker].log; e.Cause == model.TruncateLeaderEnd && l.LocalLogStart == l.LogEnd {
			g = int(model.GoalEmptyFollowerAboveLeaderEnd)
		}
	case model.EvLocalRetention:
		// Local retention left a tiered leader with no local records and
		// every record in remote storage.
		b, l := &v.brokers[e.Broker], &e.Log
		if b.role == model.RoleLeader && v.tiered && l.LocalLogStart == l.LogEnd && l.LogEnd > l.LogStart && b.hro == l.LogEnd-1 {
			g = int(model.GoalIdleFullyTieredByRetention)
		}
	}
	if g >= 0 {
		v.coverage[g]++
	}
}

// broker folds an outcome into its broker as seen.
func (v *runView) broker(e *model.Event) {
	switch e.Kind {
	case model.EvBrokerState:
		b := &v.brokers[e.Broker]
		b.role, b.up, b.epoch, b.log, b.hro = e.Role, e.Up, e.Epoch, e.Log, e.HRO
		if !e.Up {
			b.req = 0 // a crash stops the fetcher
		}
	case model.EvBecomeLeader:
		b := &v.brokers[e.Broker]
		b.role, b.epoch, b.hro, b.req = model.RoleLeader, e.Epoch, e.HRO, 0
	case model.EvBecomeFollower:
		b := &v.brokers[e.Broker]
		b.role, b.epoch, b.req = model.RoleFollower, e.Epoch, 0
	case model.EvHighestRemote, model.EvHighestRemoteRun:
		v.brokers[e.Broker].hro = e.HRO
	case model.EvBootstrapped:
		v.brokers[e.Broker].boot = false
	case model.EvBackoff:
		v.brokers[e.Broker].req = 0
	case model.EvSend:
		if k := e.Msg.Kind; k == model.MsgFetch || k == model.MsgListOffsets || k == model.MsgEpochEnd {
			b := &v.brokers[e.Msg.From]
			b.req = e.Msg.ReqID
			if k == model.MsgEpochEnd && b.aux {
				b.auxReqID = e.Msg.ReqID
			}
		}
	case model.EvAuxBuildStart:
		b := &v.brokers[e.Broker]
		b.aux, b.auxStart, b.auxEpoch, b.auxReqID = true, e.Offset, e.Epoch, 0
	case model.EvAuxBuildEnd:
		v.brokers[e.Broker].aux = false
	}
}
