package model

import (
	"fmt"
	"math"
	"slices"

	"tierfetch/sim"
)

// leaderState is what a leader keeps in memory about its followers and its
// RLM tasks; it is rebuilt on every becomeLeader.
type leaderState struct {
	// The fields a fleet's step reads of every broker it notes come first
	// (taskSigOf).
	//
	// copy task (Kafka's RLMCopyTask): copyTask is set while one exists;
	// copying disabled cancels it and enabled again creates a fresh one.
	copyTask   bool
	copySeeded bool // the task's first run has set copiedOffset from remote metadata
	// logStartChecked is set once the copy task has raised the log start
	// offset from the remote metadata (KAFKA-15351).
	logStartChecked bool
	// expiration task
	// allSegmentsValid caches that every finished remote segment lay within
	// this leader's epoch lineage when the size retention last counted them
	// (Kafka's RLMExpirationTask.isAllSegmentsValid); from then on the size
	// counts every finished segment without checking. Kafka's flag is the
	// expiration task's: false in a new task and reset when the task is
	// cancelled (RemoteLogManager.java:1202, 1240-1253 @025293cb), so this
	// one is false when the broker becomes leader and when tiering is
	// disabled (setRemoteStorageEnable).
	allSegmentsValid bool
	// The expiration run under way: whether its deletion of unreferenced
	// segments is still to come, with the epochs remote storage held when
	// it began (remoteEpochs); the deletion in flight (0: none); the
	// segments it still deletes, in order.
	unrefPending bool
	// copiedOffset is the copy task's own record of the last offset it knows
	// is uploaded (Kafka's copiedOffsetOption): a new task starts from the
	// remote metadata, not from the log's HRO.
	copiedOffset int64
	deleteOp     uint64
	expiring     []uint64

	followers []followerView // indexed by broker id
	// epochStart is the offset where this leader's epoch began.
	epochStart   int64
	remoteEpochs []int32
}

type followerView struct {
	fetchOffset        int64 // the follower's LEO as its last fetch said
	lastCaughtUpAt     sim.Time
	lastFetchLeaderEnd int64
	lastFetchAt        sim.Time
	parked             Message // the fetch waiting for records, when isParked
	isParked           bool
	// sess is the fetcher thread (index+1) whose session's requests the
	// view follows lazily since its session request seq (session.go; 0:
	// none): read lastCaughtUpAt and lastFetchAt through viewCaughtUpAt
	// and viewFetchAt.
	sess int32
	seq  uint64
}

// becomeLeader makes b the leader in the controller's current epoch.
func (c *Cluster) becomeLeader(b *Broker) {
	if !b.Up || c.Ctrl.Leader != b.ID || c.Ctrl.LeaderEpoch < b.LeaderEpoch {
		panic(fmt.Sprintf("model: b%d (up %v, epoch %d) becomes leader; the controller's leader b%d, epoch %d",
			b.ID, b.Up, b.LeaderEpoch, c.Ctrl.Leader, c.Ctrl.LeaderEpoch))
	}
	c.stopFetcher(b)
	b.Role, b.Leader, b.LeaderEpoch = RoleLeader, b.ID, c.Ctrl.LeaderEpoch
	b.Log.AssignEpoch(c.Ctrl.LeaderEpoch)
	if !c.Tiered() && c.Cfg.Fixes.Has(FixStaleLogStartCopyDisabled) && c.Cfg.Fixes.Has(FixFollowerGapAfterDisable) {
		// With tiering off no RLM task raises a lagging log start offset:
		// the new leader raises it to its local log start offset, as
		// loading the log does (UnifiedLog.java:232-234 @004b2276). Only
		// with FixFollowerGapAfterDisable: without it a replica whose local
		// log started above the old leader's at the disable holds the same
		// gap, and raising its log start offset would delete, silently,
		// committed records only the old leader holds.
		c.incrementLogStart(&b.Log, b.Log.LocalLogStartOffset())
	}
	b.lead = leaderState{followers: make([]followerView, len(c.Brokers)), epochStart: b.Log.LogEnd}
	for i := range b.lead.followers {
		b.lead.followers[i] = followerView{fetchOffset: -1, lastCaughtUpAt: c.Now, lastFetchLeaderEnd: math.MaxInt64}
	}
	// Readiness stays: a follower that becomes leader keeps its metadata
	// (TopicBasedRemoteLogMetadataManager.onPartitionLeadershipChanges
	// assigns the partition again, and ConsumerTask.updateAssignments keeps
	// the existing, initialized entry: putIfAbsent,
	// ConsumerTask.java:300 @36006682).
	e := brokerEv(EvBecomeLeader, b.ID)
	e.Epoch, e.Log, e.HRO = b.LeaderEpoch, OffsetsOf(&b.Log), b.HighestRemote
	c.emit(e)
	c.cancelTimer(b, TimerRLMFollower, 0)
	if !c.multi() { // else the broker's ticks (ticks.go)
		c.setTimer(b, TimerISRExpire, 0, c.Cfg.ReplicaLagTimeMax/2)
	}
	c.startTieringTasks(b)
	if !c.multi() {
		c.setTimer(b, TimerRetention, 0, c.Cfg.RetentionCheckInterval)
	}
	c.maybeAdvanceHighWatermark(b)
}

// startTieringTasks creates a leader's RLM tasks, each scheduled with no
// initial delay (doHandleLeaderPartition, RemoteLogManager.java:2170-2194
// @025293cb): a copy task unless copying is disabled, and the expiration
// task.
func (c *Cluster) startTieringTasks(b *Broker) {
	if !c.Tiered() {
		return
	}
	if !c.Cfg.RemoteLogCopyDisable {
		c.startCopyTask(b)
	}
	c.setTimer(b, TimerRLMExpire, 0, 0)
}

// cancelCopyTask cancels the copy task's upload in flight, if any: the task
// is cancelled and its thread interrupted (RLMTaskWithFuture.cancel,
// RemoteLogManager.java:2227-2234 @025293cb), but the copy goes on
// (onUploadDone) while a new task may start its own.
func (b *Broker) cancelCopyTask() {
	if b.copyOp != 0 {
		b.cancelledCopies = append(b.cancelledCopies, copyInFlight{op: b.copyOp, seg: b.copySeg, base: b.copyBase, end: b.copyEnd})
		b.copyOp, b.copySeg, b.copyBase, b.copyEnd = 0, 0, 0, 0
	}
}

// copying reports whether segment id is being copied by b, by its copy task
// or a cancelled one (RemoteLogManager's segmentIdsBeingCopied).
func (b *Broker) copying(id uint64) bool {
	if b.copyOp != 0 && b.copySeg == id {
		return true
	}
	for _, x := range b.cancelledCopies {
		if x.seg == id {
			return true
		}
	}
	return false
}

// startCopyTask creates a fresh copy task, which runs at once: its copied
// offset and the log start offset are found anew from the metadata on its
// first run (RLMCopyTask's copiedOffsetOption and isLogStartOffsetUpdated
// start empty, RemoteLogManager.java:870-875 @025293cb).
func (c *Cluster) startCopyTask(b *Broker) {
	b.lead.copyTask, b.lead.copySeeded, b.lead.copiedOffset, b.lead.logStartChecked = true, false, -1, false
	c.setTimer(b, TimerRLMCopy, 0, 0)
}

// stopCopyTask cancels the leader's copy task (stopLeaderCopyRLMTasks,
// RemoteLogManager.java:502-516 @025293cb). An upload in flight runs on to
// its end (onUploadDone).
func (c *Cluster) stopCopyTask(b *Broker) {
	b.cancelCopyTask()
	b.lead.copyTask = false
	c.cancelTimer(b, TimerRLMCopy, 0)
}

// resignLeadership ends b's leader role: parked fetches and leader timers go.
func (c *Cluster) resignLeadership(b *Broker) {
	if b.Role != RoleLeader {
		return
	}
	for id := range b.lead.followers {
		if b.lead.followers[id].isParked {
			c.cancelTimer(b, TimerParkedFetch, id)
		}
	}
	b.cancelCopyTask()
	b.lead = leaderState{}
	for _, k := range []TimerKind{TimerISRExpire, TimerRLMCopy, TimerRLMExpire} {
		c.cancelTimer(b, k, 0)
	}
	b.Role = RoleNone
}

// handleFetch answers a follower's fetch (Kafka ReplicaManager.fetchMessages
// for a replica).
func (c *Cluster) handleFetch(b *Broker, m Message) {
	resp := Message{Kind: MsgFetchResp, From: b.ID, To: m.From, ReqID: m.ReqID, LeaderEpoch: b.LeaderEpoch}
	if err := c.checkLeaderEpoch(b, m.LeaderEpoch); err != ErrNone {
		resp.Err = err
		c.send(resp)
		return
	}
	if m.LastFetchedEpoch >= 0 {
		// KIP-320: the follower's last fetched epoch must end on the leader at
		// or after the fetch offset.
		epoch, end := b.Log.EndOffsetFor(m.LastFetchedEpoch)
		switch {
		case epoch < 0 || end < 0 || m.FetchOffset < b.Log.LogStart:
			resp.Err = ErrOffsetOutOfRange
			c.send(resp)
			return
		case epoch < m.LastFetchedEpoch || end < m.FetchOffset:
			resp.Diverging, resp.Epoch, resp.Offset = true, epoch, end
			c.send(resp)
			return
		}
	}
	l := &b.Log
	o := m.FetchOffset
	switch {
	case o > l.LogEnd || o < l.LogStart:
		resp.Err = ErrOffsetOutOfRange
	case o < l.LocalLogStart && c.Tiered():
		resp.Err = ErrOffsetMovedToTieredStorage
	case o < l.LocalLogStart:
		resp.Err = ErrOffsetOutOfRange
	}
	if resp.Err != ErrNone {
		c.send(resp)
		return
	}
	c.updateFollowerFetch(b, m.From, o)
	if o == l.LogEnd && c.Cfg.ReplicaFetchWaitMax > 0 {
		b.lead.followers[m.From].parked, b.lead.followers[m.From].isParked = m, true
		c.setTimer(b, TimerParkedFetch, m.From, c.Cfg.ReplicaFetchWaitMax)
		return
	}
	c.answerFetch(b, m)
}

// readForFollower reads partition part q of a fetcher thread's fetch from
// follower f on leader b (handleFetch's checks, then the read): at most
// min(q.MaxBytes, limit) bytes, but at least one record when minOne. It
// returns the answer's part and the bytes of its records. update records
// the follower's fetch (updateFollowerFetch): not when a delayed fetch
// completes.
func (c *Cluster) readForFollower(b *Broker, f int, q *FetchPart, limit int64, minOne, update bool) (FetchPart, int64) {
	r := FetchPart{Part: c.part, LeaderEpoch: b.LeaderEpoch, FetchOffset: q.FetchOffset}
	if r.Err = c.checkLeaderEpoch(b, q.LeaderEpoch); r.Err != ErrNone {
		return r, 0
	}
	l := &b.Log
	o := q.FetchOffset
	if q.LastFetchedEpoch >= 0 {
		epoch, end := l.EndOffsetFor(q.LastFetchedEpoch)
		switch {
		case epoch < 0 || end < 0 || o < l.LogStart:
			r.Err = ErrOffsetOutOfRange
			return r, 0
		case epoch < q.LastFetchedEpoch || end < o:
			r.Diverging, r.Epoch, r.Offset = true, epoch, end
			return r, 0
		}
	}
	switch {
	case o > l.LogEnd || o < l.LogStart:
		r.Err = ErrOffsetOutOfRange
	case o < l.LocalLogStart && c.Tiered():
		r.Err = ErrOffsetMovedToTieredStorage
	case o < l.LocalLogStart:
		r.Err = ErrOffsetOutOfRange
	}
	if r.Err != ErrNone {
		return r, 0
	}
	if update {
		c.updateFollowerFetch(b, f, o)
	}
	r.HighWatermark, r.LogStart = l.HighWatermark, l.LogStart
	most := min(q.MaxBytes, limit)
	if o == l.LogEnd || most <= 0 && !minOne {
		return r, 0
	}
	r.Batches = l.Read(o, most)
	n := r.bytes()
	if n > most && !minOne {
		r.Batches, n = nil, 0 // not even one record fits, and the response has one
	}
	return r, n
}

func (c *Cluster) checkLeaderEpoch(b *Broker, epoch int32) ErrCode {
	switch {
	case b.Role != RoleLeader:
		return ErrNotLeader
	case epoch < b.LeaderEpoch:
		return ErrFencedLeaderEpoch
	case epoch > b.LeaderEpoch:
		return ErrUnknownLeaderEpoch
	}
	return ErrNone
}

// answerFetch sends records from m.FetchOffset.
func (c *Cluster) answerFetch(b *Broker, m Message) {
	l := &b.Log
	resp := Message{Kind: MsgFetchResp, From: b.ID, To: m.From, ReqID: m.ReqID, LeaderEpoch: b.LeaderEpoch,
		HighWatermark: l.HighWatermark, LogStart: l.LogStart}
	if m.FetchOffset < l.LocalLogStart || m.FetchOffset > l.LogEnd {
		// The log moved while the fetch was parked: let the follower retry.
		resp.Err = ErrOffsetOutOfRange
		if m.FetchOffset >= l.LogStart && m.FetchOffset < l.LocalLogStart && c.Tiered() {
			resp.Err = ErrOffsetMovedToTieredStorage
		}
	} else if m.FetchOffset < l.LogEnd {
		resp.Batches = l.Read(m.FetchOffset, m.MaxBytes)
	}
	c.send(resp)
}

// answerParked completes follower peer's parked fetch.
func (c *Cluster) answerParked(b *Broker, peer int) {
	v := &b.lead.followers[peer]
	if b.Role != RoleLeader || !v.isParked {
		return
	}
	m := v.parked
	if m.Kind != MsgFetch || m.From != peer {
		panic(fmt.Sprintf("model: leader b%d's parked fetch of b%d is %s", b.ID, peer, m.String()))
	}
	v.parked, v.isParked = Message{}, false
	c.answerFetch(b, m)
}

// wakeParked answers every parked fetch after new records arrived.
func (c *Cluster) wakeParked(b *Broker) {
	if c.threads() {
		c.fleet.wakeParked(c.part, b.ID)
		return
	}
	for id := range b.lead.followers {
		if b.lead.followers[id].isParked {
			c.cancelTimer(b, TimerParkedFetch, id)
			c.answerParked(b, id)
		}
	}
}

// updateFollowerFetch records follower f's position, expands the ISR when it
// caught up and advances the high watermark.
func (c *Cluster) updateFollowerFetch(b *Broker, f int, offset int64) {
	if b.Role != RoleLeader || f == b.ID || offset < 0 {
		panic(fmt.Sprintf("model: b%d (%s) records a fetch of b%d at %d", b.ID, b.Role, f, offset))
	}
	v := &b.lead.followers[f]
	if offset >= b.Log.LogEnd {
		v.lastCaughtUpAt = max(v.lastCaughtUpAt, c.Now)
	} else if offset >= v.lastFetchLeaderEnd {
		v.lastCaughtUpAt = max(v.lastCaughtUpAt, v.lastFetchAt)
	}
	v.fetchOffset, v.lastFetchLeaderEnd, v.lastFetchAt = offset, b.Log.LogEnd, c.Now
	if !c.Ctrl.InISR(f) && offset >= b.Log.HighWatermark && offset >= b.lead.epochStart {
		c.expandISR(b, f)
	}
	c.maybeAdvanceHighWatermark(b)
}

// maybeAdvanceHighWatermark raises HW to the smallest LEO in the ISR and
// reports whether it moved; never while the ISR is below
// min.insync.replicas (UnderMinISR).
func (c *Cluster) maybeAdvanceHighWatermark(b *Broker) bool {
	if c.UnderMinISR() {
		return false
	}
	hw := b.Log.LogEnd
	for _, id := range c.Ctrl.ISR {
		if id == b.ID {
			continue
		}
		hw = min(hw, b.lead.followers[id].fetchOffset)
	}
	if hw <= b.Log.HighWatermark {
		return false
	}
	b.Log.HighWatermark = hw
	return true
}

func (c *Cluster) expandISR(b *Broker, f int) {
	if b.Role != RoleLeader || c.Ctrl.InISR(f) || f == b.ID || !c.Ctrl.IsReplica(f) {
		panic(fmt.Sprintf("model: leader b%d (%s) adds b%d (replica %v) to the ISR %v", b.ID, b.Role, f, c.Ctrl.IsReplica(f), c.Ctrl.ISR))
	}
	isr := append(slices.Clone(c.Ctrl.ISR), f)
	slices.Sort(isr)
	c.changeISR(isr, -1)
	fb := c.Brokers[f]
	c.emit(Event{Kind: EvISRJoin, Broker: f, Peer: b.ID, Brokers: slices.Clone(c.Ctrl.ISR), Offset: b.Log.HighWatermark,
		Log: OffsetsOf(&fb.Log), Bytes: fb.Log.LocalBytes()})
}

// onISRExpire drops followers that have not caught up within
// replica.lag.time.max.ms. A follower whose last fetch offset equals the
// leader's log end offset is caught up whatever its last caught-up time
// (ReplicaState.isCaughtUp, Replica.scala:67-73; Partition.getOutOfSyncReplicas,
// Partition.scala:1297-1325 @1eb7644349cb): an idle partition keeps a
// follower whose fetches stopped arriving, until the controller fences it.
func (c *Cluster) onISRExpire(b *Broker) {
	if b.Role != RoleLeader || len(b.lead.followers) != len(c.Brokers) {
		panic(fmt.Sprintf("model: b%d (%s) runs the ISR expiry with %d follower views", b.ID, b.Role, len(b.lead.followers)))
	}
	c.setTimer(b, TimerISRExpire, 0, c.Cfg.ReplicaLagTimeMax/2)
	c.maybeShrinkISR(b)
}

// maybeShrinkISR is the check of one ISR expiry (Partition.maybeShrinkIsr):
// it drops the followers that lag.
func (c *Cluster) maybeShrinkISR(b *Broker) {
	var out []int
	for _, id := range c.Ctrl.ISR {
		v := &b.lead.followers[id]
		if id != b.ID && v.fetchOffset != b.Log.LogEnd && c.Now.Sub(c.viewCaughtUpAt(v)) > c.Cfg.ReplicaLagTimeMax {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return
	}
	c.changeISR(slices.DeleteFunc(slices.Clone(c.Ctrl.ISR), func(id int) bool { return slices.Contains(out, id) }), -1)
	c.emit(Event{Kind: EvISRShrink, Broker: b.ID, Peer: -1, Brokers: slices.Clone(c.Ctrl.ISR), Dropped: out})
	c.maybeAdvanceHighWatermark(b)
}

// handleListOffsets answers ListOffsets for timestamps -1, -2, -4 and -6.
func (c *Cluster) handleListOffsets(b *Broker, m Message) {
	resp := Message{Kind: MsgListOffsetsResp, From: b.ID, To: m.From, ReqID: m.ReqID, LeaderEpoch: b.LeaderEpoch, Timestamp: m.Timestamp}
	if resp.Err = c.checkLeaderEpoch(b, m.LeaderEpoch); resp.Err == ErrNone {
		resp.Offset, resp.Epoch = c.listOffset(b, m.Timestamp)
	}
	c.send(resp)
}

// listOffset returns the leader's answer to one ListOffsets timestamp and the
// leader epoch of that offset.
func (c *Cluster) listOffset(b *Broker, ts int64) (int64, int32) {
	l := &b.Log
	var o int64
	switch ts {
	case ListLatest:
		return l.LogEnd, l.LatestEpoch()
	case ListEarliest:
		o = l.LogStart
	case ListEarliestLocal:
		// UnifiedLog's local log start offset with remote storage enabled,
		// its log start offset without (fetchOffsetByTimestamp,
		// UnifiedLog.java:1669-1688 @004b2276; UnifiedLog.scala:1286-1308
		// @1eb7644349cb).
		o = l.LogStart
		if c.Tiered() {
			o = l.LocalLogStartOffset()
		}
	case ListEarliestPendingUpload:
		o = c.Profile.EarliestPendingUploadOffset(c, b)
		if o >= 0 && o < l.active().Base && o < l.HighWatermark {
			c.reached(GoalUploadLagged)
		}
		if o < 0 {
			return -1, -1
		}
	default:
		panic("model: unknown ListOffsets timestamp")
	}
	if o >= l.LogEnd {
		return o, l.LatestEpoch()
	}
	return o, l.EpochAt(o)
}

// handleEpochEnd answers OffsetsForLeaderEpoch.
func (c *Cluster) handleEpochEnd(b *Broker, m Message) {
	resp := Message{Kind: MsgEpochEndResp, From: b.ID, To: m.From, ReqID: m.ReqID, LeaderEpoch: b.LeaderEpoch}
	if resp.Err = c.checkLeaderEpoch(b, m.LeaderEpoch); resp.Err == ErrNone {
		resp.Epoch, resp.Offset = b.Log.EndOffsetFor(m.Epoch)
	}
	c.send(resp)
}

// produce appends records to the leader with acks=all as one batch from one
// of the workload's producers (chosen by the caller). It reports false when
// the partition has no leader, or its ISR is below min.insync.replicas
// (NOT_ENOUGH_REPLICAS: UnderMinISR).
func (c *Cluster) produce(records int64, producer int) bool {
	b := c.Leader()
	if b == nil || !b.Up || records <= 0 || c.UnderMinISR() {
		return false
	}
	p := &c.producers[producer%len(c.producers)]
	c.nextOrigin++
	bt := Batch{Base: b.Log.LogEnd, Count: records, Bytes: records * c.Cfg.RecordBytes, Epoch: b.LeaderEpoch,
		ProducerID: p.id, Seq: p.nextSeq, Origin: c.nextOrigin, TsMs: c.Now.Ms()}
	p.nextSeq += records
	b.Log.Append(bt, c.Cfg.SegmentBytes)
	c.emit(Event{Kind: EvAppend, Broker: b.ID, Peer: -1, Batch: bt, Offset: b.Log.LogEnd})
	c.maybeAdvanceHighWatermark(b)
	c.wakeParked(b)
	return true
}
