package model

import (
	"fmt"
	"slices"
	"strconv"

	"tierfetch/sim"
)

// PartID is a partition's index in its Fleet, in scenario order (-1: none,
// the whole fleet).
type PartID = int32

// TopicPartition names a partition as Kafka does.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String prints the partition as Kafka does: "orders-17".
func (tp TopicPartition) String() string { return tp.Topic + "-" + strconv.Itoa(int(tp.Partition)) }

// PartitionInit is one partition of a Fleet: its name, its topic
// configuration, its replicas (the first leads) and its initial log.
type PartitionInit struct {
	TP       TopicPartition
	Cfg      Config
	Replicas []int
	Init     Initial
	// LeaderThrottled and FollowerThrottled are its replicas the leader
	// and the follower replication quotas throttle (quota.go).
	LeaderThrottled, FollowerThrottled Throttled
}

// FleetConfig holds the broker-level keys the brokers share across
// partitions.
type FleetConfig struct {
	// NumReplicaFetchers is num.replica.fetchers: fetcher threads per
	// source broker (0 reads as 1).
	NumReplicaFetchers int
	// ReplicaFetchResponseMaxBytes is replica.fetch.response.max.bytes
	// (0 reads as Kafka's default, 10 MiB).
	ReplicaFetchResponseMaxBytes int64
	// ReplicaFetchMinBytes is replica.fetch.min.bytes (0 reads as 1).
	ReplicaFetchMinBytes int64
	// LeaderThrottledRate and FollowerThrottledRate are
	// leader.replication.throttled.rate and
	// follower.replication.throttled.rate in bytes/s (-1: unlimited); a
	// rate throttles only the replicas a partition lists (quota.go).
	LeaderThrottledRate, FollowerThrottledRate int64
	// NoElision, for tests, has every broker tick visit every partition
	// and every RLM task run at every point of its grid: the reference a
	// run with elision must equal (ticks.go).
	NoElision bool
}

// Fleet is the model the harness drives: every partition's Cluster, and
// what the brokers share across partitions. A Fleet of one partition is
// that partition's Cluster, step for step and event for event: it routes
// each input to it and its Ready is the cluster's. With more partitions
// (Multi) a broker-wide input (a crash, a restart, a broker's config
// change, the heal, an outage) is recorded once and applied to every
// partition in PartID order, request ids are the Fleet's, and every event,
// message, timer and remote operation names its partition.
//
// It is driven as a Cluster is (step.go): Step, Ready, Advance.
type Fleet struct {
	// Parts are the partitions, by PartID; TPs their names.
	Parts []*Cluster
	TPs   []TopicPartition
	Cfg   FleetConfig
	// Now is the virtual time of the last step.
	Now sim.Time

	out      *outbox
	multi    bool
	nbrokers int
	nextReq  uint64
	// dirty marks the partitions the steps since the last Advance touched
	// (a step handed them an input or a thread processed them); touched
	// lists them in the order first touched.
	dirty   []bool
	touched []PartID
	// threads are the fetcher threads, in the order made; threadIx finds
	// one by key ([follower][leader][fetcher], index+1, 0: none); pending
	// lists the threads to run at the end of the step (settle).
	threads  []*fetcherThread
	threadIx []int32
	pending  []int32
	// quota holds the replication quotas (nil: none throttles).
	quota *quotas
	// fanning is set while a broker-wide input the Fleet recorded is
	// applied to each partition (their own record of it is left out).
	fanning bool
	// pf is what the fleet keeps of each partition beside its cluster
	// (partFleet), by PartID; sessions is set once a fetch session holds
	// an entry; eager has every request visit and answer every partition
	// of its session (the reference for tests).
	pf       []partFleet
	sessions bool
	eager    bool
	// nextPos is the last place given in a thread's order (orderItem).
	nextPos uint64
	// minRecord is a lower bound of a record's bytes in any log of the
	// fleet (minRecordBytes).
	minRecord int64
	// tk is the brokers' ticks and the idle RLM tasks (ticks.go; nil
	// with one partition).
	tk *fleetTicks
	// foldBuf and stepFolds are the folds' events while settleFolds'
	// callers pass them on (emitFolds, stepPart): scratch of one call.
	foldBuf, stepFolds []Event
}

// partFleet is what the fleet keeps of one partition beside its cluster:
// its entries in the leaders' fetch sessions (sessOf) and its leadership
// as they last noted it (lsnap, session.go), its config changes (cfgVer,
// which taskSig reads) and whether an RLM task's run that did nothing
// trimmed its metadata log since its due checks were noted (foldedOthers,
// ticks.go). One record rather than an array each, so that a step reads
// one place in memory for a partition it touches: at 10,000 partitions
// every such array was a page of its own to find (a TLB and a cache miss)
// for each partition each step touched.
type partFleet struct {
	lsnap        leaderSnap
	sessOf       []sessRef
	cfgVer       uint64
	foldedOthers bool
}

// NewFleet builds a fleet of n brokers holding parts; lastTiered is the
// initial follower.fetch.last.tiered.offset.enable of every broker. Its
// Ready holds every partition's initial effects, in PartID order.
func NewFleet(cfg FleetConfig, p Profile, n int, lastTiered bool, parts []PartitionInit) *Fleet {
	if len(parts) == 0 {
		panic("model: a fleet of no partitions")
	}
	f := &Fleet{Cfg: cfg, out: &outbox{}, multi: len(parts) > 1, nbrokers: n}
	f.Parts, f.TPs, f.dirty = make([]*Cluster, len(parts)), make([]TopicPartition, len(parts)), make([]bool, len(parts))
	f.pf = make([]partFleet, len(parts))
	f.quota = newQuotas(cfg, n, parts)
	if f.multi {
		f.tk = newFleetTicks(len(parts), n, cfg.NoElision)
	}
	for i := range parts {
		x := &parts[i]
		f.TPs[i] = x.TP
		f.Parts[i] = newCluster(x.Cfg, p, n, x.Replicas, lastTiered, x.Init, f.out, f, PartID(i))
		f.touch(PartID(i))
		f.Parts[i].stepAll = true
	}
	if f.multi {
		f.minRecord = f.minRecordBytes()
		for b := range n {
			f.startTicks(b)
		}
		f.settle()
		f.afterStep()
	}
	return f
}

// Multi reports whether the fleet holds more than one partition: its
// events then name their partition (Event.AppendBinaryPart).
func (f *Fleet) Multi() bool { return f.multi }

// Ready returns the events and effects of every partition since the last
// Advance, in the order they happened.
func (f *Fleet) Ready() Ready { return Ready{Events: f.out.events, Effects: f.out.effects} }

// Advance acknowledges the last Ready (Cluster.Advance).
func (f *Fleet) Advance() {
	f.out.events, f.out.effects = f.out.events[:0], f.out.effects[:0]
	for _, p := range f.touched {
		f.dirty[p] = false
		c := f.Parts[p]
		c.stepBrokers, c.stepAll = 0, false
	}
	f.touched = f.touched[:0]
}

// Dirty returns the partitions the steps since the last Advance touched,
// in the order first touched. Only their state can have changed in what
// the fetcher threads, the fetch sessions, the harness's state events and
// the invariants read: an idle RLM task run (forgetIdleRun) changes its
// own books and its broker's fold of the metadata and is left out. Valid
// until Advance.
func (f *Fleet) Dirty() []PartID { return f.touched }

// touch marks partition p as touched by the step.
func (f *Fleet) touch(p PartID) {
	if !f.dirty[p] {
		f.dirty[p] = true
		f.touched = append(f.touched, p)
	}
}

// Step takes one input at virtual time now (Cluster.Step). An input about
// one partition (a message, a timer, a remote operation, an event with a
// partition) goes to in.Part; in a one-partition fleet every input does.
func (f *Fleet) Step(now sim.Time, in *Input) {
	if len(f.out.events) != 0 || len(f.out.effects) != 0 {
		panic(fmt.Sprintf("model: Fleet.Step(%s) at %v with %d events and %d effects not acknowledged (Advance)",
			in.Kind, now, len(f.out.events), len(f.out.effects)))
	}
	if now < f.Now {
		panic(fmt.Sprintf("model: Fleet.Step(%s) at %v, before the last step at %v", in.Kind, now, f.Now))
	}
	f.Now = now
	if !f.multi {
		c := f.Parts[0]
		c.Now = now
		f.touch(0)
		c.step(in)
		return
	}
	f.tk.inTask, f.tk.hroOnly = false, -1
	if in.Kind == EvTimer {
		f.tk.inRank, f.tk.inTask = in.Timer.TaskRank(f.nbrokers)
	}
	switch p := in.target(); {
	case int(p) >= len(f.Parts):
		panic(fmt.Sprintf("model: Fleet.Step(%s) of partition %d of %d", in.Kind, p, len(f.Parts)))
	case p >= 0:
		c := f.Parts[p]
		ver, meta := c.Remote.Version, len(c.metaLog)
		f.stepPart(p, in)
		f.forgetIdleRun(p, ver)
		f.noteHROOnly(p, in, ver, meta)
	case in.Kind == EvDeliver || in.Kind == EvTimer:
		f.stepThread(in)
	default:
		f.fanOut(in)
	}
	// A thread's fetch may have grown an ISR a reassignment waits for.
	for _, p := range f.touched {
		if c := f.Parts[p]; c.Ctrl.Reassigning() {
			c.Now, c.stepAll = f.Now, true
			c.maybeCompleteReassignment()
		}
	}
	f.settle()
	f.afterStep()
}

// target is the partition an input is for: a message's, a timer's, a
// remote operation's, or Part for an event (-1: every partition).
func (in *Input) target() PartID {
	switch in.Kind {
	case EvDeliver:
		return in.Msg.Part
	case EvTimer:
		return in.Timer.Part
	case EvRemoteDone:
		return in.Op.Part
	}
	return in.Part
}

// forgetIdleRun takes partition p off the step's touched partitions when
// the step was a run of one of its RLM tasks that did nothing (fireRLM
// idled it: no event, no effect but its re-arm, nothing it reads changed)
// and left remote storage (at version ver before it) as it was. Such a run
// changes only the task's own books and its broker's fold of the metadata,
// which RLM tasks alone read (Cluster.view), and already completed what a
// reassignment of p waited for (Cluster.step): nothing the fetcher threads,
// the fetch sessions, the harness's state events or the invariants read of
// p changed, so p is settled, recorded and checked as a partition the step
// did not touch. A fleet of many partitions runs most of its RLM tasks this
// way while their partitions fetch (each change wakes them), so that the
// step costs what the timer costs, not what the partition's checks cost.
func (f *Fleet) forgetIdleRun(p PartID, ver uint64) {
	if !f.multi || !f.tk.idled || len(f.out.events) != 1 || len(f.touched) != 1 || f.touched[0] != p ||
		f.Parts[p].Remote.Version != ver {
		return
	}
	f.dirty[p], f.touched = false, f.touched[:0]
}

// noteHROOnly notes in tk.hroOnly the broker whose RLM follower task's run
// was the step (partition p's input in) when all it did was raise that
// broker's highest remote offset: its only events are the timer's and
// EvHighestRemote, its only effects timers, neither remote storage (at
// version ver before it) nor the metadata log (meta events before it)
// changed, and the other brokers' signatures were noted since the log was
// last trimmed (foldedOthers). Such a run (onRLMFollower: raiseHighestRemote,
// and the broker's fold of the metadata, which RLM tasks alone read)
// changes that broker's HighestRemote and nothing else of the partition:
// no fetcher, no leadership (settle has nothing to do for p; Cluster.step
// checked the fetchers) and nothing the other brokers' due checks and idle
// tasks read, so afterStep notes that broker alone (the leader's ISR
// expiry due stays as noted: an early one only costs its tick a visit that
// finds nothing, as isrExpiryDue allows). Such a run idles its task
// (raisedHROOnly), whose later runs that only raise the HRO are folded into
// the partition's steps where they can be (foldRun).
func (f *Fleet) noteHROOnly(p PartID, in *Input, ver uint64, meta int) {
	if !f.multi || f.tk.idled || f.tk.noElision || in.Kind != EvTimer || in.Timer.Kind != TimerRLMFollower ||
		len(f.touched) != 1 || f.touched[0] != p {
		return
	}
	c := f.Parts[p]
	if c.Remote.Version != ver || len(c.metaLog) != meta || f.pf[p].foldedOthers {
		return
	}
	for i := 1; i < len(f.out.events); i++ {
		if e := &f.out.events[i]; e.Kind != EvHighestRemote || e.Broker != in.Timer.Broker {
			return
		}
	}
	for i := range f.out.effects {
		if k := f.out.effects[i].Kind; k != EffSetTimer && k != EffCancelTimer {
			return
		}
	}
	f.tk.hroOnly = in.Timer.Broker
}

// HROOnly returns the broker whose RLM follower task's run the last step
// was, when all that run changed of its partition (the only one the step
// touched) was that broker's HRO and its fold of the metadata, which only
// RLM tasks read (noteHROOnly); -1 otherwise, and always in a fleet of one
// partition. A caller that compares or checks the touched partition after
// each step need only look at that broker's HRO then: the other brokers,
// the leadership, the logs and remote storage are as the last step that
// touched the partition left them. Valid until the next Step.
func (f *Fleet) HROOnly() int {
	if !f.multi {
		return -1
	}
	return f.tk.hroOnly
}

// stepPart hands partition p the input.
//
// Its folds due first (settleFolds) are applied before, and their events
// follow the input's (a step's first event, if it records one).
func (f *Fleet) stepPart(p PartID, in *Input) {
	c := f.Parts[p]
	c.Now = f.Now
	c.stepAll = true
	f.touch(p)
	if !f.multi || c.folds == 0 {
		c.step(in)
		return
	}
	folds, _ := f.settleFolds(p, f.stepFolds[:0])
	f.stepFolds = folds[:0]
	k := len(f.out.events)
	c.step(in)
	if len(folds) == 0 {
		return
	}
	if k < len(f.out.events) && f.out.events[k].Kind.IsInput() {
		k++
	}
	f.out.events = slices.Insert(f.out.events, k, folds...)
	f.tk.idled = false // the step changed p: an idle task's run is not all it did
}

// fanOut applies an input of every partition (or of those in.Only names) (a broker's crash or restart,
// a config change, the heal, an outage, a scenario event without a
// partition) to each in PartID order, recorded once: the first
// partition's record of it is the fleet's (Part -1), the others' are left
// out. What each partition refuses follows as its own EvSkipped.
func (f *Fleet) fanOut(in *Input) {
	switch in.Kind {
	case EvDeliver, EvTimer, EvRemoteDone:
		panic(fmt.Sprintf("model: Fleet.Step(%s) of no partition", in.Kind))
	}
	for i, n := 0, len(f.Parts); i < n; i++ {
		p := PartID(i)
		if in.Only != nil {
			if n = len(in.Only); i >= n {
				break
			}
			p = in.Only[i]
		}
		f.stepPart(p, in)
		if i == 0 {
			f.out.events[0].Part = -1
			f.fanning = true
		}
	}
	f.fanning = false
	if in.Kind == EvCrash || in.Kind == EvReplaceBroker {
		f.brokerDown(in.Broker)
	}
	f.followTicks(in)
}

// Clone returns an independent copy of the fleet (Cluster.Clone); the
// outbox must be empty.
func (f *Fleet) Clone() *Fleet { return f.CloneInto(nil) }

// CloneInto is Clone into dst, a fleet nothing uses any more (nil: a new
// one): its structure and its partitions' clusters are reused as
// Cluster.CloneInto reuses them.
func (f *Fleet) CloneInto(dst *Fleet) *Fleet {
	if len(f.out.events) != 0 || len(f.out.effects) != 0 {
		panic(fmt.Sprintf("model: Fleet.Clone with %d events and %d effects not acknowledged (Advance)", len(f.out.events), len(f.out.effects)))
	}
	if dst == f {
		panic("model: CloneInto a fleet into itself")
	}
	var parts []*Cluster
	var dirty []bool
	var touched []PartID
	var pf []partFleet
	if dst == nil {
		dst = new(Fleet)
		if len(f.Parts) == 1 { // one partition: the fleet, its list, its record and its cluster in one allocation
			m := new(fleetMem)
			dst, parts, pf = &m.f, m.parts[:], m.pf[:0]
			parts[0] = &m.c
		}
	} else {
		parts, dirty, touched, pf = dst.Parts, dst.dirty, dst.touched[:0], dst.pf // the step's scratch: dst's own
	}
	*dst = *f
	n := dst
	if n.Parts = parts; len(parts) != len(f.Parts) {
		n.Parts = make([]*Cluster, len(f.Parts))
	}
	n.dirty, n.touched = Reuse(dirty, f.dirty), touched
	clear(n.dirty)
	n.quota = f.quota.clone()
	n.threads, n.threadIx, n.pending = make([]*fetcherThread, len(f.threads)), slices.Clone(f.threadIx), nil
	n.foldBuf, n.stepFolds = nil, nil
	for i, t := range f.threads {
		x := *t
		x.order, x.held, x.sess = slices.Clone(t.order), slices.Clone(t.held), t.sess.clone()
		n.threads[i] = &x
	}
	n.tk = f.tk.clone()
	n.pf = Reuse(pf, f.pf)
	if f.sessions {
		for i := range n.pf {
			n.pf[i].sessOf = slices.Clone(f.pf[i].sessOf)
		}
	}
	for i, c := range f.Parts {
		var into *Cluster
		if i < len(parts) {
			into = parts[i]
		}
		n.Parts[i] = c.CloneInto(into)
		n.Parts[i].fleet = n
	}
	return n
}

// fleetMem is a one-partition fleet's copy made in fresh memory: the
// fleet, its partition list and its cluster.
type fleetMem struct {
	f     Fleet
	parts [1]*Cluster
	pf    [1]partFleet
	c     Cluster
}

// At returns partition p's cluster with its time brought to the fleet's:
// a partition no step touched keeps the time of its last step, and a
// check that depends on the time (a leader's stale log start offset) reads
// it.
func (f *Fleet) At(p PartID) *Cluster {
	c := f.Parts[p]
	c.Now = f.Now
	return c
}

// Incarnation returns broker b's incarnation: how many times it crashed
// (every partition counts the same).
func (f *Fleet) Incarnation(b int) uint32 { return f.Parts[0].Brokers[b].Incarnation }
