package model

import (
	"container/heap"
	"math"
	"math/bits"
	"slices"

	"tierfetch/sim"
)

// Broker-wide periodic tasks and idle RLM tasks, in a fleet of many
// partitions (design §9.4 item 3). With one partition every task keeps its
// per-partition timer (design §13 decision 4).
//
// Kafka checks ISR expiry and local retention once per broker, over every
// partition it holds: ReplicaManager.startup schedules "isr-expiration"
// with no delay and a period of replica.lag.time.max.ms / 2, whose
// maybeShrinkIsr visits every online partition
// (core/src/main/scala/kafka/server/ReplicaManager.scala:415, 2588-2595
// @1eb7644349cb), and LogManager schedules "kafka-log-retention" after
// log.initial.task.delay.ms (30 s by default) every
// log.retention.check.interval.ms, whose cleanupLogs calls
// deleteOldSegments on every log (core/src/main/scala/kafka/log/
// LogManager.scala:630-633, 1406-1428; ServerLogConfigs.java:190). A tick
// here visits only the partitions whose check can act at its time: each
// replica keeps the first instant its check acts (replicaTicks.isrAt, retAt),
// recomputed at the end of every step that touched its partition, and its
// broker a min-heap of them.
//
// The RLM copy, expiration and follower tasks are per partition in Kafka
// (a fixed-delay task each). A run of one that does nothing (no event, no
// effect but its re-arm, no state change) leaves it idle: no timer, until
// the first point of its own grid (its last run + k intervals) at which a
// change of its partition (any step that touched it) or of time (the
// metadata's readiness or fold, retention.ms, the copy lag) can make it
// act. The harness orders these timers before every other event of their
// instant, by TaskRank, so the instant a task is woken at is the one an
// unelided run would fire it at, in the same order.
//
// An idle RLM follower task whose next run would only raise its broker's
// HRO holds that run as a fold instead of a timer, applied by the
// partition's next step (foldRun, settleFolds).
//
// Fleet.noElision (tests) visits every partition at each tick and never
// idles a task: the reference the optimized run must equal.

// noDue is the due time of a check that never acts.
const noDue = sim.Time(math.MaxInt64)

// logInitialTaskDelay is log.initial.task.delay.ms's default (30 s,
// ServerLogConfigs.java:190 @1eb7644349cb): the first retention tick's
// delay after a broker starts.
const logInitialTaskDelay = 30 * sim.Second

// TaskRank orders the per-partition RLM task timers of a fleet of brokers
// brokers at one instant: by partition, broker, then copy, expiration,
// follower. ok is false for every other timer (a thread's, or a
// partition's other timers).
func (k TimerKey) TaskRank(brokers int) (rank uint64, ok bool) {
	if k.Part < 0 || k.Kind < TimerRLMCopy || k.Kind > TimerRLMFollower {
		return 0, false
	}
	return (uint64(k.Part)*uint64(brokers)+uint64(k.Broker))*3 + uint64(k.Kind-TimerRLMCopy), true
}

// idleTask is an RLM task left without a timer: its last run was at
// anchor, its interval then every; armed is the grid point a timer is set
// for (a time-based wake; 0: none).
//
// fold (an RLM follower task's only) is a run at foldAt that would raise
// the broker's HRO to foldHRO and change nothing else anything reads before
// the partition's next step (foldRun): no timer is set for it, and the
// first step that touches the partition after foldAt (or at it, after the
// task in TaskRank order) applies it first (settleFolds).
type idleTask struct {
	on, fold              bool
	anchor, armed, foldAt sim.Time
	every                 sim.Duration
	foldHRO               int64
}

// taskSig is what a broker's retention check and RLM tasks of a partition
// read, but time and the leader's views of its followers: a step that
// touched the partition and left it as it was cannot make them act
// sooner.
type taskSig struct {
	up                                    bool
	role                                  Role
	epoch                                 int32
	logStart, localStart, logEnd, hw, hro int64
	gen                                   uint64
	segs                                  int
	firstBase, activeBase                 int64
	epochs                                int
	lastEpoch                             EpochEntry
	copied                                int64
	copyOp                                uint64
	cancelled, deleting, expiring         int
	seeded, checked, task, valid, unref   bool
	readyAt                               sim.Time
	remote, cacheVer, cfgVer              uint64
	outage                                int64
	seen, metaLog                         int
	deleteOp                              uint64
}

// taskSigOf returns b's taskSig.
func (c *Cluster) taskSigOf(b *Broker) taskSig {
	l, ld := &b.Log, &b.lead
	s := taskSig{up: b.Up, role: b.Role, epoch: b.LeaderEpoch, logStart: l.LogStart, localStart: l.LocalLogStart, logEnd: l.LogEnd,
		hw: l.HighWatermark, hro: b.HighestRemote, gen: l.Gen, segs: len(l.Segments), epochs: len(l.Epochs),
		copied: ld.copiedOffset, copyOp: b.copyOp, cancelled: len(b.cancelledCopies), deleting: len(b.deleteOps),
		expiring: len(ld.expiring), seeded: ld.copySeeded, checked: ld.logStartChecked, task: ld.copyTask,
		valid: ld.allSegmentsValid, unref: ld.unrefPending, readyAt: b.MetadataReadyAt, remote: c.Remote.Version,
		cfgVer: c.fleet.pf[c.part].cfgVer, outage: c.Remote.OutageUntilUs, seen: b.seen, metaLog: len(c.metaLog), deleteOp: ld.deleteOp}
	if n := len(l.Segments); n > 0 {
		s.firstBase, s.activeBase = l.Segments[0].Base, l.Segments[n-1].Base
	}
	if n := len(l.Epochs); n > 0 {
		s.lastEpoch = l.Epochs[n-1]
	}
	if b.cache != nil {
		s.cacheVer = b.cache.Version
	}
	return s
}

// replicaTicks is what a fleet of many partitions keeps of one replica
// (partition, broker) for its ticks and RLM tasks: the first instant its
// ISR-expiry (a leader's) and retention checks act (noDue: never; -1: to
// be noted), its idle RLM tasks (copy, expiration, follower) and what
// they read when last noted. Kept beside the clusters, not in Broker, so
// that a one-partition run's states stay as small as they were.
type replicaTicks struct {
	isrAt, retAt sim.Time
	idle         [3]idleTask
	sig          taskSig
}

// ticksOf returns b's replicaTicks of the cluster's partition (nil: the
// fleet holds one partition).
func (c *Cluster) ticksOf(b *Broker) *replicaTicks {
	if !c.multi() {
		return nil
	}
	c.ticked |= 1 << b.ID // 0 above 63: noteDue notes such brokers always
	return &c.fleet.tk.rt[int(c.part)*c.fleet.nbrokers+b.ID]
}

// fleetTicks is a fleet's ticks and idle RLM tasks: the due checks by
// broker, each replica's replicaTicks (by part*brokers+broker), whether
// each broker's ticks run, each partition's config changes (taskSig reads
// them). noElision visits every partition at a tick and never idles an RLM
// task (FleetConfig.NoElision). inTask and inRank: the step's input is the
// RLM task timer of that TaskRank; idled: the step was its run, which did
// nothing.
type fleetTicks struct {
	isrHeap, retHeap []dueHeap
	rt               []replicaTicks
	ticking          []bool
	noElision        bool
	inTask, idled    bool
	inRank           uint64
	// hroOnly is the broker whose RLM follower task's run the step was,
	// when it only raised that broker's HRO (Fleet.noteHROOnly; -1: not
	// such a step). partFleet.foldedOthers marks the partitions where a
	// run that did nothing trimmed the metadata log since their due checks
	// were last noted: the other brokers' taskSig then differs from the
	// one noted.
	hroOnly int
}

func newFleetTicks(parts, brokers int, noElision bool) *fleetTicks {
	t := &fleetTicks{isrHeap: make([]dueHeap, brokers), retHeap: make([]dueHeap, brokers), rt: make([]replicaTicks, parts*brokers),
		ticking: make([]bool, brokers), noElision: noElision, hroOnly: -1}
	for i := range t.rt {
		t.rt[i].isrAt, t.rt[i].retAt = noDue, noDue
	}
	return t
}

// clone returns a copy of t that shares nothing t writes (nil: nil).
func (t *fleetTicks) clone() *fleetTicks {
	if t == nil {
		return nil
	}
	n := *t
	n.isrHeap, n.retHeap = make([]dueHeap, len(t.isrHeap)), make([]dueHeap, len(t.retHeap))
	for b := range t.isrHeap {
		n.isrHeap[b], n.retHeap[b] = slices.Clone(t.isrHeap[b]), slices.Clone(t.retHeap[b])
	}
	n.rt, n.ticking = slices.Clone(t.rt), slices.Clone(t.ticking)
	return &n
}

// dueEntry is one replica's due check in its broker's heap.
type dueEntry struct {
	at   sim.Time
	part PartID
}

// dueHeap is a min-heap of due checks by (time, partition).
type dueHeap []dueEntry

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].part < h[j].part
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(dueEntry)) }
func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// multi reports whether the cluster is one partition of many.
func (c *Cluster) multi() bool { return c.fleet != nil && c.fleet.multi }

// startTicks arms broker b's ISR-expiry and retention ticks, as its start
// schedules them.
func (f *Fleet) startTicks(b int) {
	f.tk.ticking[b] = true
	f.setTimer(TimerKey{Broker: b, Kind: TimerISRExpire, Part: -1}, 0)
	f.setTimer(TimerKey{Broker: b, Kind: TimerRetention, Part: -1}, logInitialTaskDelay)
}

// stopTicks cancels broker b's ticks (it is down).
func (f *Fleet) stopTicks(b int) {
	f.tk.ticking[b] = false
	f.cancelTimer(TimerKey{Broker: b, Kind: TimerISRExpire, Part: -1})
	f.cancelTimer(TimerKey{Broker: b, Kind: TimerRetention, Part: -1})
}

// followTicks starts or stops the ticks of the brokers a broker-wide
// input started or stopped (a replaced broker starts anew).
func (f *Fleet) followTicks(in *Input) {
	for b := range f.tk.ticking {
		switch up := f.up(b); {
		case up && (!f.tk.ticking[b] || in.Kind == EvReplaceBroker && in.Broker == b):
			f.startTicks(b)
		case !up && f.tk.ticking[b]:
			f.stopTicks(b)
		}
	}
}

// onBrokerTick runs broker b's ISR-expiry or retention tick and arms the
// next (a fixed rate: Kafka's scheduler runs periodic tasks at one).
func (f *Fleet) onBrokerTick(k TimerKey) {
	cfg := &f.Parts[0].Cfg
	every, heaps := cfg.RetentionCheckInterval, f.tk.retHeap
	if k.Kind == TimerISRExpire {
		every, heaps = cfg.ReplicaLagTimeMax/2, f.tk.isrHeap
	}
	f.setTimer(k, every)
	var parts []PartID
	if f.tk.noElision {
		for p := range f.Parts {
			parts = append(parts, PartID(p))
		}
	} else {
		h := &heaps[k.Broker]
		for h.Len() > 0 && (*h)[0].at <= f.Now {
			x := heap.Pop(h).(dueEntry)
			// An entry whose replica's due time moved since is stale.
			if due := f.tk.rt[int(x.part)*f.nbrokers+k.Broker].duePtr(k.Kind); *due == x.at {
				*due = -1 // visited: noted again below
				parts = append(parts, x.part)
			}
		}
		slices.Sort(parts)
	}
	for _, p := range parts {
		c := f.At(p)
		b := c.Brokers[k.Broker]
		n := len(f.out.events)
		c.stepAll = true
		f.emitFolds(p) // retention reads the HRO
		switch {
		case k.Kind == TimerISRExpire && b.Role == RoleLeader:
			c.maybeShrinkISR(b)
		case k.Kind == TimerRetention && b.Role != RoleNone:
			c.applyRetention(b)
		}
		if len(f.out.events) != n {
			f.touch(p)
		} else if !f.tk.noElision {
			f.noteDue(p, true)
		}
	}
}

// duePtr returns where rt keeps its due check of tick kind k.
func (rt *replicaTicks) duePtr(k TimerKind) *sim.Time {
	if k == TimerISRExpire {
		return &rt.isrAt
	}
	return &rt.retAt
}

// noteDue notes what the step changed of partition p on each broker:
// when its ISR-expiry check can act next (a leader's), and, when what its
// retention check and RLM tasks read changed (or force), when its
// retention check can act next, and its idle RLM tasks woken. A changed
// due check goes on its broker's heap.
func (f *Fleet) noteDue(p PartID, force bool) {
	c := f.At(p)
	f.pf[p].foldedOthers = false
	all := force || c.stepAll
	for _, b := range c.Brokers {
		switch {
		case b.ID >= 64: // no bit in the masks: always noted
		case !all && c.stepBrokers&(1<<b.ID) == 0:
			continue // the step did not change it (Fleet.at)
		case b.Role == RoleNone && c.ticked&(1<<b.ID) == 0:
			continue // reset, and nothing to note
		}
		f.noteBrokerDue(c, p, b, force)
	}
}

// noteBrokerDue is noteDue of broker b alone.
func (f *Fleet) noteBrokerDue(c *Cluster, p PartID, b *Broker, force bool) {
	rt := c.ticksOf(b)
	if !b.Up || b.Role == RoleNone {
		rt.isrAt, rt.retAt, rt.idle = noDue, noDue, [3]idleTask{}
		c.ticked &^= 1 << b.ID
		return
	}
	isr := noDue
	if b.Role == RoleLeader {
		isr = c.isrExpiryDue(b)
	}
	if isr != rt.isrAt {
		if rt.isrAt = isr; isr != noDue {
			heap.Push(&f.tk.isrHeap[b.ID], dueEntry{isr, p})
		}
	}
	sig := c.taskSigOf(b)
	changed := sig != rt.sig
	if !changed && !force && rt.retAt >= 0 {
		return
	}
	rt.sig = sig
	if ret := c.retentionDue(b); ret != rt.retAt {
		if rt.retAt = ret; ret != noDue {
			heap.Push(&f.tk.retHeap[b.ID], dueEntry{ret, p})
		}
	}
	if changed {
		f.wakeRLM(c, b, rt)
	}
}

// isrExpiryDue is the first instant maybeShrinkISR drops a follower, the
// state staying as it is: a follower's caught-up time only rises until its
// partition changes (a lazy one too: viewCaughtUpAt), so this is never
// later than the true one.
func (c *Cluster) isrExpiryDue(b *Broker) sim.Time {
	due := noDue
	for _, id := range c.Ctrl.ISR {
		if v := &b.lead.followers[id]; id != b.ID && v.fetchOffset != b.Log.LogEnd {
			due = min(due, c.viewCaughtUpAt(v).Add(c.Cfg.ReplicaLagTimeMax+1))
		}
	}
	return due
}

// retentionDue is the first instant applyRetention acts on b, the state
// staying as it is: now, or when the oldest segment breaches retention by
// time, or never (noDue). Time only adds breaches, and the walk stops at the first
// segment that does not go.
func (c *Cluster) retentionDue(b *Broker) sim.Time {
	if c.retentionActs(b, c.Now.Ms()) {
		return c.Now
	}
	_, limitMs := c.retentionLimits()
	if limitMs < 0 || len(b.Log.Segments) == 0 {
		return noDue
	}
	ms := sim.AddSat(sim.AddSat(b.Log.Segments[0].MaxTsMs, limitMs), 1)
	if t := sim.AtMs(ms); t > c.Now && c.retentionActs(b, ms) {
		return t
	}
	return noDue
}

// retentionActs reports whether applyRetention at nowMs would delete or
// roll a segment of b.
func (c *Cluster) retentionActs(b *Broker, nowMs int64) bool {
	newStart, _, roll := c.deletableSegmentsAt(b, nowMs)
	return newStart >= 0 || roll
}

// rlmSnap is what a run of an RLM task that does nothing leaves as it was.
type rlmSnap struct {
	logStart, localStart, hro, copied     int64
	seeded, checked, valid, task, pending bool
	expiring                              int
	deleteOp                              uint64
	cov                                   [NumGoals]int64
}

func (c *Cluster) rlmSnapOf(b *Broker) rlmSnap {
	l := &b.lead
	return rlmSnap{logStart: b.Log.LogStart, localStart: b.Log.LocalLogStart, hro: b.HighestRemote, copied: l.copiedOffset,
		seeded: l.copySeeded, checked: l.logStartChecked, valid: l.allSegmentsValid, task: l.copyTask, pending: l.unrefPending,
		expiring: len(l.expiring), deleteOp: l.deleteOp, cov: c.Coverage}
}

// fireRLM runs RLM task k of b and, in a fleet of many partitions, leaves
// it idle when the run did nothing.
func (c *Cluster) fireRLM(b *Broker, k TimerKind) {
	f := c.fleet
	if !c.multi() || f.tk.noElision {
		c.runRLM(b, k)
		return
	}
	snap, ev0, ef0, meta := c.rlmSnapOf(b), len(c.out.events), len(c.out.effects), len(c.metaLog)
	c.runRLM(b, k)
	ef := c.out.effects[ef0:]
	if len(ef) != 1 || ef[0].Kind != EffSetTimer || ef[0].Timer.Kind != k || ef[0].Timer.Broker != b.ID {
		return
	}
	quiet := len(c.out.events) == ev0 && c.rlmSnapOf(b) == snap
	if !quiet && !c.raisedHROOnly(b, k, snap, ev0) {
		return
	}
	every := ef[0].After
	c.out.effects = c.out.effects[:ef0]
	rt := c.ticksOf(b)
	t := &rt.idle[k-TimerRLMCopy]
	*t = idleTask{on: true, anchor: c.Now, every: every}
	if quiet {
		f.tk.idled = true
		rt.sig = c.taskSigOf(b) // the run may have folded metadata, which only RLM tasks read
	}
	if len(c.metaLog) != meta {
		f.pf[c.part].foldedOthers = true // and trimmed the log the others' signatures count
	}
	if due := c.rlmTimeDue(b, k); due < noDue && every > 0 {
		n := (due.Sub(c.Now) + every - 1) / every
		t.armed = c.Now.Add(max(n, 1) * every)
		c.armTimer(b, k, 0, t.armed.Sub(c.Now))
	}
}

// raisedHROOnly reports whether b's RLM task k's run, which re-armed its
// timer and nothing else, was a follower task's that only raised b's HRO
// (its events from ev0 on; snap its rlmSnap before): its next run, the
// partition unchanged, does nothing, so the task idles as after a run that
// did nothing. Unlike that run's, its step changed the partition (the HRO),
// which afterStep notes (noteHROOnly), waking the task for its grid.
func (c *Cluster) raisedHROOnly(b *Broker, k TimerKind, snap rlmSnap, ev0 int) bool {
	if k != TimerRLMFollower || len(c.out.events) == ev0 {
		return false
	}
	for i := ev0; i < len(c.out.events); i++ {
		if e := &c.out.events[i]; e.Kind != EvHighestRemote || e.Broker != b.ID {
			return false
		}
	}
	now := c.rlmSnapOf(b)
	now.hro = snap.hro
	return now == snap
}

func (c *Cluster) runRLM(b *Broker, k TimerKind) {
	switch k {
	case TimerRLMCopy:
		c.onRLMCopy(b)
	case TimerRLMExpire:
		c.onRLMExpire(b)
	default:
		c.onRLMFollower(b)
	}
}

// rlmTimeDue is the first instant after now at which time alone can make
// b's idle task k act: the metadata ready or its next event folded, a
// remote segment past retention.ms, a local one past the copy lag (noDue:
// none).
func (c *Cluster) rlmTimeDue(b *Broker, k TimerKind) sim.Time {
	due := noDue
	after := func(t sim.Time) {
		if t > c.Now {
			due = min(due, t)
		}
	}
	after(b.MetadataReadyAt)
	if k == TimerRLMCopy {
		if ms, _ := c.copyLag(); c.Profile.CopyLag() && ms > 0 {
			for i := range b.Log.Segments {
				after(sim.AtMs(sim.AddSat(b.Log.Segments[i].MaxTsMs, ms)))
			}
		}
		return due
	}
	if b.cache != nil && b.seen < len(c.metaLog) {
		after(c.metaLog[b.seen].at.Add(c.Cfg.RemoteMetadataLag))
	}
	if k == TimerRLMExpire && c.Cfg.RetentionMs >= 0 {
		after(sim.AtMs(c.Cfg.RetentionMs))
		r := c.view(b)
		for i := range r.Segments {
			after(sim.AtMs(sim.AddSat(sim.AddSat(r.Segments[i].MaxTsMs, c.Cfg.RetentionMs), 1)))
		}
	}
	return due
}

// wakeRLM arms b's idle RLM tasks of partition c, which changed, for the
// first point of their grid at which they can see the change: a point at
// this instant only when the harness runs it after the step's own input (a
// task timer of lower rank), else the next.
func (f *Fleet) wakeRLM(c *Cluster, b *Broker, rt *replicaTicks) {
	for i := range rt.idle {
		t := &rt.idle[i]
		if !t.on {
			continue
		}
		k := TimerRLMCopy + TimerKind(i)
		if !c.Tiered() || (k == TimerRLMFollower) != (b.Role == RoleFollower) || k == TimerRLMCopy && !b.lead.copyTask {
			*t = idleTask{}
			continue
		}
		n := max((c.Now.Sub(t.anchor)+t.every-1)/t.every, 1)
		g := t.anchor.Add(n * t.every)
		if g == c.Now {
			rank, _ := TimerKey{Broker: b.ID, Kind: k, Part: c.part}.TaskRank(f.nbrokers)
			if !f.tk.inTask || rank <= f.tk.inRank { // this task's own run: its next point
				g = g.Add(t.every)
			}
		}
		if k == TimerRLMFollower && f.foldRun(c, b, t, g) {
			continue
		}
		if t.armed == 0 || g < t.armed {
			c.armTimer(b, k, 0, g.Sub(c.Now))
		}
		*t = idleTask{}
	}
}

// afterStep notes what the step changed of the touched partitions: their
// due checks and their idle RLM tasks.
func (f *Fleet) afterStep() {
	if f.tk.noElision || f.tk.idled {
		f.tk.idled = false // the step was a task's run that changed nothing
		return
	}
	if b := f.tk.hroOnly; b >= 0 {
		p := f.touched[0]
		c := f.At(p)
		f.noteBrokerDue(c, p, c.Brokers[b], false)
		return
	}
	for _, p := range f.touched {
		f.noteDue(p, false)
	}
}

// foldRun decides, for broker b's idle RLM follower task t of partition c,
// which changed, what its run at g, the first point of its grid that sees
// the change, will do, and reports whether that run needs no step of its
// own: it does nothing (t stays idle), or it only raises b's HRO, which
// nothing reads before the partition's next step (t keeps the run as its
// fold). The run (onRLMFollower) reads b's log and the remote metadata,
// both as they are now until the partition's next step, and the time only
// through the metadata's readiness; so its answer can be taken now when b
// reads the shared metadata (no fold lag: Cluster.view is c.Remote), the
// metadata is ready, no time-based wake is set, and the raise would not
// move b's retention check, the one broker tick that reads the HRO. Any
// other run keeps its timer (false).
//
// With the flag off these runs are what grows as partitions x horizon in
// a broker replacement: the rebuilt replica's log grows from below the
// highest tiered offset for the whole restore, every run raises its HRO,
// and each was a step. Folded, the raise is applied by the partition's
// next step, with the event EvHighestRemoteRun saying how long before it
// the run was: every partition's states and checks are those of the runs
// stepped (TestElisionIsInvisible; TestElisionMatchesReference in the
// harness), one step fewer each.
func (f *Fleet) foldRun(c *Cluster, b *Broker, t *idleTask, g sim.Time) bool {
	t.fold = false
	// A changed task interval is taken by the run at g, when it re-arms:
	// that run keeps its timer.
	if f.tk.noElision || t.armed != 0 || b.cache != nil || c.Now < b.MetadataReadyAt || b.ID >= 64 ||
		t.every != c.Cfg.RLMTaskInterval {
		return false
	}
	h := c.Remote.FindHighestRemoteOffset(&b.Log, c.Cfg.Mutants.Has(MutantHROWithoutEpochEnd))
	if h <= b.HighestRemote {
		return true // the run does nothing: t stays idle on its grid
	}
	now, hro := c.Now, b.HighestRemote
	c.Now = g
	before := c.retentionDue(b)
	b.HighestRemote = h
	after := c.retentionDue(b)
	c.Now, b.HighestRemote = now, hro
	if before != after {
		return false
	}
	t.fold, t.foldAt, t.foldHRO = true, g, h
	if c.folds == 0 {
		c.nextFold = g
	}
	c.folds |= 1 << b.ID
	c.nextFold = min(c.nextFold, g)
	return true
}

// dueFold reports whether broker b's fold t of partition p comes before
// the step's input: its run was earlier, or at this instant ahead of it
// (the harness runs task timers before every other input of their
// instant, by TaskRank).
func (f *Fleet) dueFold(p PartID, b int, t *idleTask) bool {
	if t.foldAt != f.Now {
		return t.foldAt < f.Now
	}
	rank, _ := TimerKey{Broker: b, Kind: TimerRLMFollower, Part: p}.TaskRank(f.nbrokers)
	return !f.tk.inTask || rank < f.tk.inRank
}

// settleFolds applies partition p's folds that come before the step's
// input (dueFold), before the step reads or changes p: each raises its
// broker's HRO and leaves its task idle on its grid, as the run would have
// (its next run, the partition unchanged, did nothing). It appends their
// events (EvHighestRemoteRun) to buf and returns it, with the time of the
// last of their runs (-1: none).
func (f *Fleet) settleFolds(p PartID, buf []Event) ([]Event, sim.Time) {
	c := f.Parts[p]
	if c.folds == 0 || c.nextFold > f.Now {
		return buf, -1
	}
	// The due folds in the order their runs were: by time, then broker
	// (TaskRank at one instant).
	var due [64]*idleTask
	var ids [64]int
	n := 0
	c.nextFold = noDue
	for m := c.folds; m != 0; m &= m - 1 {
		id := bits.TrailingZeros64(m)
		t := &f.tk.rt[int(p)*f.nbrokers+id].idle[TimerRLMFollower-TimerRLMCopy]
		if !t.fold {
			c.folds &^= 1 << id // dropped since (unidle, a reset)
			continue
		}
		if !f.dueFold(p, id, t) {
			c.nextFold = min(c.nextFold, t.foldAt)
			continue
		}
		i := n
		for ; i > 0 && due[i-1].foldAt > t.foldAt; i-- {
			due[i], ids[i] = due[i-1], ids[i-1]
		}
		due[i], ids[i] = t, id
		n++
	}
	last := sim.Time(-1)
	for i, t := range due[:n] {
		id := ids[i]
		b := c.Brokers[id]
		e := brokerEv(EvHighestRemoteRun, id)
		e.Part, e.HRO, e.PrevHRO, e.Ms = p, t.foldHRO, b.HighestRemote, int64(f.Now.Sub(t.foldAt)/sim.Millisecond)
		b.HighestRemote = t.foldHRO
		t.fold, t.anchor, last = false, t.foldAt, t.foldAt
		c.folds &^= 1 << id
		c.stepBrokers |= 1 << id
		buf = append(buf, e)
	}
	return buf, last
}

// emitFolds is settleFolds within a step under way: the folds' events
// follow the step's so far. It returns the time of the last of their runs
// (-1: none).
func (f *Fleet) emitFolds(p PartID) sim.Time {
	evs, last := f.settleFolds(p, f.foldBuf[:0])
	c := f.Parts[p]
	for i := range evs {
		c.emit(evs[i])
	}
	f.foldBuf = evs[:0]
	return last
}

// SettleFolds applies every fold whose run was at or before end, the end
// of the run (task timers come before the end at its instant), as the
// partitions' steps would have: the harness calls it once, then takes
// Ready as after a step. The fleet's time becomes the latest of those
// runs, as if they had been steps.
func (f *Fleet) SettleFolds(end sim.Time) {
	if !f.multi || end < f.Now {
		return
	}
	last := f.Now
	f.Now = end
	f.tk.inTask = false
	f.Now = max(last, f.settleAll())
	f.afterStep()
}

// SettleDue applies every fold whose run came before the last step's input
// (dueFold), as the partitions' steps would have: a run that stops after
// that step (a violation in the partitions it touched) leaves the others
// as the runs stepped one by one would have. The harness takes Ready as
// after a step; the fleet's time stays the step's.
func (f *Fleet) SettleDue() {
	if !f.multi {
		return
	}
	f.settleAll()
	f.afterStep()
}

// settleAll applies every partition's folds that come before the step's
// input (settleFolds) and returns the time of the last of their runs (-1:
// none).
func (f *Fleet) settleAll() sim.Time {
	f.tk.hroOnly = -1
	last := sim.Time(-1)
	for i := range f.Parts {
		p := PartID(i)
		if f.Parts[p].folds == 0 {
			continue
		}
		f.At(p)
		if at := f.emitFolds(p); at >= 0 {
			f.touch(p)
			last = max(last, at)
		}
	}
	return last
}
