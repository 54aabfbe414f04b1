package model

import (
	"fmt"
	"slices"

	"tierfetch/sim"
)

// Role is what a broker does for the partition.
type Role uint8

// Roles.
const (
	RoleNone Role = iota // not a replica, or crashed
	RoleLeader
	RoleFollower
)

var roleNames = [...]string{"none", "leader", "follower"}

func (r Role) String() string { return roleNames[r] }

// Broker is one broker's state for the partition. Log is on disk and
// survives a crash; everything else is in memory and is lost.
type Broker struct {
	ID int
	Up bool
	// Role is beside Up: a step of a fleet of many partitions reads both of
	// every broker of each partition it touches (Fleet.noteDue). The fields
	// such a step reads of a broker come first (taskSigOf): through the
	// cache, then lead, whose first fields are those.
	Role        Role
	Incarnation uint32
	// InSyncEpoch is the leader epoch of the last fetch this broker had
	// answered with records (or none) by its leader: from then on its log
	// below HW is the leader's (-1: not since it last became a follower).
	InSyncEpoch int32
	LeaderEpoch int32 // the latest leader epoch this broker knows
	Log         Log
	// HighestRemote is the highest offset known to be in remote storage
	// (HRO), -1 when unknown. In memory only; it only ever rises.
	HighestRemote int64
	// MetadataReadyAt is when the broker's remote log metadata cache for the
	// partition is ready: it replays the metadata topic from its start when
	// the broker starts, is assigned the partition, or tiering is enabled
	// again (ConsumerTask.java:239-245 @36006682), and stays ready through
	// leadership changes.
	MetadataReadyAt sim.Time
	// The upload in flight of the broker's copy task: remote op, segment
	// and its base and end; 0 when none. The uploads of cancelled copy
	// tasks, whose threads go on (cancelledCopies), and the remote
	// deletions in flight. Lost with the broker.
	copyOp uint64
	// cache is the broker's fold of the metadata topic while it lags the
	// published events (nil: it is c.Remote); seen indexes the next event
	// of c.metaLog it folds.
	cache *Remote
	seen  int

	lead              leaderState
	cancelledCopies   []copyInFlight
	deleteOps         []uint64
	copySeg           uint64
	copyBase, copyEnd int64

	// LastTieredEnable is follower.fetch.last.tiered.offset.enable.
	LastTieredEnable bool
	Leader           int // the leader this broker follows (-1 none)

	fetch fetcher
}

// copyInFlight is an upload a cancelled copy task left running.
type copyInFlight struct {
	op, seg   uint64
	base, end int64
}

// Controller is the partition's controller state: the assignment, the
// leader and its epoch, the ISR and the eligible leader replicas
// (election.go).
//
// Invariant: Leader is -1 or a member of ISR; ISR is a subset of Replicas.
type Controller struct {
	Replicas    []int // assignment order; the first is the preferred leader
	Leader      int   // -1: offline
	LeaderEpoch int32
	ISR         []int // sorted
	// ELR holds the eligible leader replicas (KIP-966), sorted: replicas
	// that left an ISR smaller than min.insync.replicas, each holding every
	// committed record; one may lead cleanly once the ISR is empty.
	ELR []int
	// LastKnownLeader is the leader when the ISR last became empty, -1 if
	// none since (Kafka's lastKnownElr in balanced recovery).
	LastKnownLeader int
	// Unclean counts unclean elections: committed records may be lost there.
	Unclean int
	// Adding and Removing are a reassignment in progress (Kafka's
	// PartitionRegistration addingReplicas and removingReplicas), sorted:
	// the replicas it adds, already in Replicas, and those it removes once
	// every target replica is in the ISR. Both empty: none.
	Adding, Removing []int
}

// Reassigning reports whether a reassignment is in progress.
func (c *Controller) Reassigning() bool { return len(c.Adding) > 0 || len(c.Removing) > 0 }

// Target returns the replicas a reassignment in progress moves the
// partition to (the replicas without those it removes), or the replicas.
func (c *Controller) Target() []int {
	if len(c.Removing) == 0 {
		return c.Replicas
	}
	return slices.DeleteFunc(slices.Clone(c.Replicas), func(r int) bool { return slices.Contains(c.Removing, r) })
}

// InISR reports whether broker b is in the ISR.
func (c *Controller) InISR(b int) bool { return slices.Contains(c.ISR, b) }

// IsReplica reports whether broker b is assigned a replica.
func (c *Controller) IsReplica(b int) bool { return slices.Contains(c.Replicas, b) }

// Cluster is one partition on a set of brokers, with its controller and
// remote storage: the whole state of one run. It is driven through Step,
// Ready and Advance (step.go); its exported fields are for reading.
type Cluster struct {
	Cfg     Config
	Profile Profile
	// Now is the virtual time of the last step (Step sets it).
	Now sim.Time
	// folds has bit b set when broker b's RLM follower task may hold a fold
	// (idleTask.fold; a fleet of many partitions, brokers below 64). Beside
	// Now, which every step of the partition writes; nextFold is no later
	// than the first of them.
	folds    uint64
	nextFold sim.Time
	// ticked has bit b set when broker b's replicaTicks may differ from a
	// reset one (ticksOf sets it, noteBrokerDue's reset clears it): a
	// broker without a role and without the bit needs no noting.
	ticked uint64
	// stepBrokers has bit b set when the step may have changed broker b;
	// stepAll, any broker (a step of the partition or of every partition,
	// a tick, a reassignment). noteDue looks at those; Advance clears them.
	stepBrokers uint64
	stepAll     bool
	Brokers     []*Broker
	Ctrl        Controller
	Remote      Remote
	// out holds what the steps since the last Advance did (Ready).
	out *outbox
	// fleet is the Fleet the cluster is a partition of (nil: none), part
	// its index there: every event, message, timer and remote operation
	// the cluster makes carries it.
	fleet *Fleet
	part  PartID

	nextReq    uint64
	nextOrigin uint64
	nextOp     uint64
	// producers is an array, not a slice: a copy of the cluster copies
	// it with the structure, without an allocation.
	producers [3]producerClient
	// Coverage counts how often the interesting paths no event shows were
	// reached (GoalUploadLagged, GoalRemoteRetention); the harness counts
	// the others from the event stream.
	Coverage [NumGoals]int64
	// metaLog holds the published metadata events some lagging broker has
	// not folded yet (metadata.go).
	metaLog []metaEvent
	// prods is the array a copy's brokers' producer states were packed
	// into (packLogs): its own, so a later copy made in this cluster's
	// memory packs into it again.
	prods []ProducerEntry
}

type producerClient struct {
	id      int64
	nextSeq int64
}

// Initial is the leader's log at time 0 (Kafka unit-test style fixture);
// every initial replica holds a caught-up copy of it.
type Initial struct {
	Log            Log
	LeaderEpoch    int32
	HighestRemote  int64
	RemoteSegments []RemoteSegment
}

// NewCluster builds a cluster of n brokers with the given replicas (the first
// is the leader) holding init. The leader's RLM and ISR tasks start at once;
// cfg.Fixes are switched on once the initial leadership is taken.
func NewCluster(cfg Config, p Profile, n int, replicas []int, lastTiered bool, init Initial) *Cluster {
	return newCluster(cfg, p, n, replicas, lastTiered, init, &outbox{}, nil, 0)
}

// newCluster is NewCluster for partition part of fleet (nil: none), whose
// events and effects go to out.
func newCluster(cfg Config, p Profile, n int, replicas []int, lastTiered bool, init Initial, out *outbox, fleet *Fleet, part PartID) *Cluster {
	for i, r := range replicas {
		if r < 0 || r >= n || slices.Contains(replicas[:i], r) {
			panic(fmt.Sprintf("model: replicas %v of %d brokers (scenarios validate them)", replicas, n))
		}
	}
	if len(replicas) == 0 || p == nil {
		panic(fmt.Sprintf("model: a cluster of replicas %v, profile %v", replicas, p))
	}
	fixes := cfg.Fixes
	cfg.Fixes = 0 // switched on last (setFixes)
	c := &Cluster{Cfg: cfg, Profile: p, out: out, fleet: fleet, part: part}
	c.producers = [3]producerClient{{id: 1}, {id: 2}, {id: 3}}
	for i := 0; i < n; i++ {
		c.Brokers = append(c.Brokers, &Broker{ID: i, Up: true, Leader: -1, HighestRemote: -1, LastTieredEnable: lastTiered,
			MetadataReadyAt: c.Now.Add(cfg.RemoteMetadataReady)})
	}
	c.Ctrl = Controller{Replicas: slices.Clone(replicas), Leader: replicas[0], LeaderEpoch: init.LeaderEpoch, ISR: slices.Sorted(slices.Values(replicas)),
		LastKnownLeader: -1}
	c.Remote.Segments = make([]RemoteSegment, 0, len(init.RemoteSegments))
	for _, s := range init.RemoteSegments {
		c.Remote.NextID++
		s.ID = c.Remote.NextID
		c.Remote.Segments = append(c.Remote.Segments, s)
	}
	c.Remote.InitHighest()
	for _, id := range replicas {
		b := c.Brokers[id]
		b.Log = cloneLog(init.Log)
		b.LeaderEpoch = init.LeaderEpoch
	}
	for _, s := range init.Log.Segments {
		for _, bt := range s.Batches {
			c.nextOrigin = max(c.nextOrigin, bt.Origin)
		}
	}
	for _, s := range init.RemoteSegments {
		for _, bt := range s.Batches {
			c.nextOrigin = max(c.nextOrigin, bt.Origin)
		}
	}
	leader := c.Brokers[replicas[0]]
	leader.HighestRemote = init.HighestRemote
	c.becomeLeader(leader)
	for _, id := range replicas[1:] {
		c.becomeFollower(c.Brokers[id])
	}
	for _, b := range c.Brokers {
		b.checkFetcher()
	}
	c.setFixes(fixes)
	return c
}

func cloneLog(l Log) Log {
	out := cloneSegmentsInto(nil, l)
	out.Epochs = slices.Clone(l.Epochs)
	out.Producers = slices.Clone(l.Producers)
	return out
}

// cloneSegmentsInto is l with its segment list copied into segs's array
// (one no other log holds); the epoch cache and producer state are still
// l's (packLogs clips the one and copies the other).
func cloneSegmentsInto(segs []Segment, l Log) Log {
	out := l
	out.Segments = Reuse(segs, l.Segments)
	for i := range out.Segments {
		out.Segments[i].Batches = slices.Clip(out.Segments[i].Batches)
	}
	out.grown = false
	return out
}

// packLogs copies the producer states of the brokers' logs into one array
// (Pack), buf's when it has room (the array of a copy nothing uses any
// more), and returns it: a copy of a cluster makes at most one allocation
// for them, not one a broker (a search made one at each of its copies,
// most of them in a dropped state's memory: 6% of omts-local-deleted's
// allocated bytes). The epoch caches are shared, clipped: the model
// appends to one (a clipped slice reallocates), truncates it clipped or
// replaces it, and never writes an entry in place; producer states it
// writes in place (setProducer).
func packLogs(bs []*Broker, buf []ProducerEntry) []ProducerEntry {
	var np int
	for _, b := range bs {
		np += len(b.Log.Producers)
		b.Log.Epochs = slices.Clip(b.Log.Epochs)
	}
	prods := buf[:0]
	if cap(buf) < np {
		prods = make([]ProducerEntry, 0, np)
	}
	for _, b := range bs {
		prods, b.Log.Producers = packInto(prods, b.Log.Producers)
	}
	return prods
}

// Leader returns the current leader broker, nil when the partition is offline.
func (c *Cluster) Leader() *Broker {
	if c.Ctrl.Leader < 0 {
		return nil
	}
	return c.Brokers[c.Ctrl.Leader]
}

// send sends m: a request of a follower's fetcher (a request id of its
// own) or a leader's answer (the request's id), between two brokers.
func (c *Cluster) send(m Message) {
	if m.From == m.To || m.ReqID == 0 {
		panic(fmt.Sprintf("model: send %s from b%d to b%d with request id %d", m.Kind, m.From, m.To, m.ReqID))
	}
	m.Part = c.part
	c.out.effects = append(c.out.effects, Effect{Kind: EffSend, Msg: m})
	c.emit(Event{Kind: EvSend, Broker: m.From, Peer: m.To, Msg: m})
}

// setTimer arms b's timer (k, peer) to fire after d, replacing any pending.
func (c *Cluster) setTimer(b *Broker, k TimerKind, peer int, d sim.Duration) {
	c.unidle(b, k)
	c.armTimer(b, k, peer, d)
}

// armTimer is setTimer leaving an idle task's record as it is.
func (c *Cluster) armTimer(b *Broker, k TimerKind, peer int, d sim.Duration) {
	if d < 0 || !b.Up || peer < 0 || peer >= len(c.Brokers) || k >= NumTimerKinds {
		panic(fmt.Sprintf("model: b%d (up %v) arms timer %s peer %d %v from now", b.ID, b.Up, k, peer, d))
	}
	c.out.effects = append(c.out.effects, Effect{Kind: EffSetTimer, Timer: TimerKey{Broker: b.ID, Kind: k, Part: c.part, Peer: peer}, After: d})
}

// cancelTimer cancels b's timer (k, peer), pending or not.
func (c *Cluster) cancelTimer(b *Broker, k TimerKind, peer int) {
	if peer < 0 || peer >= len(c.Brokers) || k >= NumTimerKinds {
		panic(fmt.Sprintf("model: b%d cancels timer %s peer %d", b.ID, k, peer))
	}
	c.unidle(b, k)
	c.out.effects = append(c.out.effects, Effect{Kind: EffCancelTimer, Timer: TimerKey{Broker: b.ID, Kind: k, Part: c.part, Peer: peer}})
}

// unidle forgets that RLM task k of b is idle: its timer is set or
// cancelled anew.
func (c *Cluster) unidle(b *Broker, k TimerKind) {
	if rt := c.ticksOf(b); rt != nil && k >= TimerRLMCopy && k <= TimerRLMFollower {
		rt.idle[k-TimerRLMCopy] = idleTask{}
	}
}

// startRemote starts remote operation op on behalf of its broker and
// returns its id.
func (c *Cluster) startRemote(op RemoteOp) uint64 {
	if b := c.Brokers[op.Broker]; !b.Up || op.Segment == 0 || op.Bytes < 0 {
		panic(fmt.Sprintf("model: b%d (up %v) starts remote %s of segment %d, %d bytes", op.Broker, b.Up, op.Kind, op.Segment, op.Bytes))
	}
	c.nextOp++
	op.ID, op.Part = c.nextOp, c.part
	c.out.effects = append(c.out.effects, Effect{Kind: EffRemote, Remote: op})
	return op.ID
}

// Tiered reports whether the topic has remote storage enabled.
func (c *Cluster) Tiered() bool { return c.Cfg.RemoteStorageEnable }

// incrementLogStart raises l's log start offset to to as Kafka's
// maybeIncrementLogStartOffset does with remote storage enabled or not
// (Log.LocalLogStartOffset). FixStaleLocalLogStart drops the condition on
// remote storage (UnifiedLog.java:1343-1346 @004b2276): the local log start
// offset rises with the log start offset whatever remote storage is.
func (c *Cluster) incrementLogStart(l *Log, to int64) bool {
	if c.Tiered() || c.Cfg.Fixes.Has(FixStaleLocalLogStart) {
		return l.IncrementLogStart(to)
	}
	return l.IncrementLogStartUntiered(to)
}

// deliver hands message m to its destination broker. Messages to a crashed
// broker are dropped (the sender's request timer covers it).
func (c *Cluster) deliver(m Message) {
	b := c.Brokers[m.To]
	if !b.Up {
		c.emit(Event{Kind: EvDropped, Broker: m.To, Peer: m.From, Msg: m, Cause: DropReceiverDown})
		return
	}
	switch m.Kind {
	case MsgFetch:
		c.handleFetch(b, m)
	case MsgListOffsets:
		c.handleListOffsets(b, m)
	case MsgEpochEnd:
		c.handleEpochEnd(b, m)
	case MsgFetchResp, MsgListOffsetsResp, MsgEpochEndResp:
		c.handleResponse(b, m)
	default:
		panic(fmt.Sprintf("model: deliver a message of kind %d: %+v", m.Kind, m))
	}
}

// fire runs the timer k.
func (c *Cluster) fire(k TimerKey) {
	b := c.Brokers[k.Broker]
	if !b.Up {
		return
	}
	switch k.Kind {
	case TimerFetchBackoff:
		c.onBackoffDone(b)
	case TimerRequest:
		c.onRequestTimeout(b)
	case TimerParkedFetch:
		c.answerParked(b, k.Peer)
	case TimerISRExpire:
		c.onISRExpire(b)
	case TimerRLMCopy, TimerRLMExpire, TimerRLMFollower:
		c.unidle(b, k.Kind)
		c.fireRLM(b, k.Kind)
	case TimerRetention:
		c.onRetentionCheck(b)
	default:
		panic(fmt.Sprintf("model: fire a timer of kind %d: %+v", k.Kind, k))
	}
}

// remoteDone completes remote operation op, failed or not (stepRemoteDone
// decides).
func (c *Cluster) remoteDone(op RemoteOp, failed bool) {
	b := c.Brokers[op.Broker]
	switch op.Kind {
	case RemoteUpload:
		c.onUploadDone(b, op, failed)
	case RemoteReadAux:
		c.onAuxReadDone(b, op, failed)
	case RemoteDelete:
		c.onRemoteDeleteDone(op, failed)
	case RemoteRead:
	default:
		panic(fmt.Sprintf("model: remote operation of kind %d done: %+v", op.Kind, op))
	}
}
