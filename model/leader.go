package model

import (
	"math"
	"slices"

	"tierfetch/sim"
)

// leaderState is what a leader keeps in memory about its followers and its
// RLM tasks; it is rebuilt on every becomeLeader.
type leaderState struct {
	followers []followerView // indexed by broker id
	// copy task
	copySeeded bool // the task's first run has set copiedOffset from remote metadata
	// copiedOffset is the copy task's own record of the last offset it knows
	// is uploaded (Kafka's copiedOffsetOption): a new task starts from the
	// remote metadata, not from the log's HRO.
	copiedOffset int64
	// logStartChecked is set once the copy task has raised the log start
	// offset from the remote metadata after this broker became leader
	// (KAFKA-15351).
	logStartChecked bool
	uploading       uint64 // remote op id of the upload in flight, 0 when none
	uploadSeg       uint64 // remote segment id being uploaded
	// epochStart is the offset where this leader's epoch began.
	epochStart int64
	// expiration task
	// allSegmentsValid caches that every finished remote segment lay within
	// this leader's epoch lineage when the size retention last counted them
	// (Kafka's RLMExpirationTask.isAllSegmentsValid); from then on the size
	// counts every finished segment without checking.
	allSegmentsValid bool
}

type followerView struct {
	fetchOffset        int64 // the follower's LEO as its last fetch said
	lastCaughtUpAt     sim.Time
	lastFetchLeaderEnd int64
	lastFetchAt        sim.Time
	parked             Message // the fetch waiting for records, when isParked
	isParked           bool
}

// becomeLeader makes b the leader in the controller's current epoch.
func (c *Cluster) becomeLeader(b *Broker) {
	c.stopFetcher(b)
	if b.Stats.Path == PathEarliestPendingUpload && b.Stats.StartSet {
		c.reached(GoalTieredFollowerBecameLeader)
	}
	b.Role, b.Leader, b.LeaderEpoch = RoleLeader, b.ID, c.Ctrl.LeaderEpoch
	b.Log.AssignEpoch(c.Ctrl.LeaderEpoch)
	b.lead = leaderState{followers: make([]followerView, len(c.Brokers)), epochStart: b.Log.LogEnd}
	for i := range b.lead.followers {
		b.lead.followers[i] = followerView{fetchOffset: -1, lastCaughtUpAt: c.Now, lastFetchLeaderEnd: math.MaxInt64}
	}
	b.MetadataReadyAt = c.Now.Add(c.Cfg.RemoteMetadataReady)
	e := brokerEv(EvBecomeLeader, b.ID)
	e.Epoch, e.Log, e.HRO = b.LeaderEpoch, OffsetsOf(&b.Log), b.HighestRemote
	c.emit(e)
	c.cancelTimer(b, TimerRLMFollower, 0)
	c.setTimer(b, TimerISRExpire, 0, c.Cfg.ReplicaLagTimeMax/2)
	c.startTieringTasks(b)
	c.setTimer(b, TimerRetention, 0, c.Cfg.RetentionCheckInterval)
	c.maybeAdvanceHighWatermark(b)
}

// startTieringTasks schedules the RLM copy and expiration tasks of a leader
// (Kafka schedules them with no initial delay).
func (c *Cluster) startTieringTasks(b *Broker) {
	if !c.Tiered() {
		return
	}
	b.lead.copySeeded, b.lead.copiedOffset, b.lead.logStartChecked = false, -1, false
	c.setTimer(b, TimerRLMCopy, 0, 0)
	c.setTimer(b, TimerRLMExpire, 0, 0)
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
	v.parked, v.isParked = Message{}, false
	c.answerFetch(b, m)
}

// wakeParked answers every parked fetch after new records arrived.
func (c *Cluster) wakeParked(b *Broker) {
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
	isr := append(slices.Clone(c.Ctrl.ISR), f)
	slices.Sort(isr)
	c.changeISR(isr, -1)
	fb := c.Brokers[f]
	c.emit(Event{Kind: EvISRJoin, Broker: f, Peer: b.ID, Brokers: slices.Clone(c.Ctrl.ISR), Offset: b.Log.HighWatermark,
		Log: OffsetsOf(&fb.Log), Bytes: fb.Log.LocalBytes()})
	st := &fb.Stats
	if st.Added && !st.CaughtUp {
		st.CaughtUp, st.CaughtUpAt = true, c.Now
		if !st.StartSet {
			st.StartOffset, st.StartSet = c.Brokers[f].Log.LocalLogStart, true
		}
	}
}

// onISRExpire drops followers that have not caught up within
// replica.lag.time.max.ms.
func (c *Cluster) onISRExpire(b *Broker) {
	c.setTimer(b, TimerISRExpire, 0, c.Cfg.ReplicaLagTimeMax/2)
	var out []int
	for _, id := range c.Ctrl.ISR {
		if id != b.ID && c.Now.Sub(b.lead.followers[id].lastCaughtUpAt) > c.Cfg.ReplicaLagTimeMax {
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
		o = l.LocalLogStart
		if !c.Tiered() {
			o = l.LogStart
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

// Produce appends records to the leader with acks=all as one batch from one
// of the workload's producers (chosen by the caller). It reports false when
// the partition has no leader, or its ISR is below min.insync.replicas
// (NOT_ENOUGH_REPLICAS: UnderMinISR).
func (c *Cluster) Produce(records int64, producer int) bool {
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
