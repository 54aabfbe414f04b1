package model

// fetchPhase is where a follower's fetcher is.
type fetchPhase uint8

const (
	phaseIdle fetchPhase = iota
	phaseFetch
	phaseListOffsets
	phaseEpochEnd
	phaseAuxRead
	phaseLagProbe // ListOffsets -1 after an aux build (Kafka's TierStateMachine.start)
	phaseBackoff
)

// fetcher is a follower's replica fetcher for the partition.
type fetcher struct {
	phase fetchPhase
	reqID uint64
	query *TierQuery // set while deciding after OOR/OMTS
	aux   auxBuild
	auxOp uint64
	// bootstrapping is true for an added replica until it first receives records.
	bootstrapping bool
	// path is how the bootstrap positioned the follower, its
	// EvBootstrapped's Path: set while bootstrapping, kept after.
	path Path
}

// auxBuild is an auxiliary-state build in progress.
type auxBuild struct {
	start    int64
	epoch    int32
	logStart int64
	path     Path
	target   int32 // leader epoch of start-1
	segment  uint64
	active   bool // a build is under way: begun by EvAuxBuildStart, ended by EvAuxBuildEnd
}

// BootstrapPath returns how b's bootstrap as an added replica positioned
// it (PathFromZero for a replica that never bootstrapped).
func (b *Broker) BootstrapPath() Path { return b.fetch.path }

// AuxBuildTarget returns the start offset and the leader's log start offset
// of b's latest auxiliary-state build (zeros before the first), for
// observers that explain a follower's stall.
func (b *Broker) AuxBuildTarget() (start, leaderLogStart int64) {
	return b.fetch.aux.start, b.fetch.aux.logStart
}

// becomeFollower makes b follow the controller's current leader.
func (c *Cluster) becomeFollower(b *Broker) {
	c.resignLeadership(b)
	c.stopFetcher(b)
	b.Role, b.Leader, b.LeaderEpoch = RoleFollower, c.Ctrl.Leader, c.Ctrl.LeaderEpoch
	b.InSyncEpoch = -1
	e := brokerEv(EvBecomeFollower, b.ID)
	e.Peer, e.Epoch = b.Leader, b.LeaderEpoch
	c.emit(e)
	if c.Tiered() {
		c.setTimer(b, TimerRLMFollower, 0, 0)
	}
	c.setTimer(b, TimerRetention, 0, c.Cfg.RetentionCheckInterval)
	c.sendFetch(b)
}

func (c *Cluster) stopFetcher(b *Broker) {
	c.endAux(b, AuxAborted)
	if b.fetch.phase == phaseBackoff {
		c.cancelTimer(b, TimerFetchBackoff, 0)
	} else if b.fetch.phase != phaseIdle {
		c.cancelTimer(b, TimerRequest, 0)
	}
	b.fetch.phase, b.fetch.query, b.fetch.reqID, b.fetch.auxOp = phaseIdle, nil, 0, 0
}

// sendRequest sends m to the leader and arms the request timeout.
func (c *Cluster) sendRequest(b *Broker, m Message, phase fetchPhase) {
	c.nextReq++
	m.From, m.To, m.ReqID, m.LeaderEpoch = b.ID, b.Leader, c.nextReq, b.LeaderEpoch
	b.fetch.phase, b.fetch.reqID = phase, m.ReqID
	c.send(m)
	c.setTimer(b, TimerRequest, 0, c.Cfg.ReplicaSocketTimeout)
}

// sendFetch fetches from the follower's LEO.
func (c *Cluster) sendFetch(b *Broker) {
	if b.Role != RoleFollower || b.Leader < 0 {
		b.fetch.phase = phaseIdle
		return
	}
	b.fetch.query = nil
	epoch := b.Log.LatestEpoch()
	c.sendRequest(b, Message{Kind: MsgFetch, FetchOffset: b.Log.LogEnd, LastFetchedEpoch: epoch,
		MaxBytes: c.Cfg.ReplicaFetchMaxBytes}, phaseFetch)
}

// backoff fails the current attempt; the fetcher retries after
// replica.fetch.backoff.ms and decides afresh.
func (c *Cluster) backoff(b *Broker, why RetryReason) {
	if b.fetch.phase != phaseIdle && b.fetch.phase != phaseBackoff {
		c.cancelTimer(b, TimerRequest, 0)
	}
	c.endAux(b, AuxAborted) // a build a more specific end has not ended: a leader error or a timeout stopped it
	b.fetch.phase, b.fetch.query = phaseBackoff, nil
	e := brokerEv(EvBackoff, b.ID)
	e.Retry = why
	c.emit(e)
	c.setTimer(b, TimerFetchBackoff, 0, c.Cfg.ReplicaFetchBackoff)
}

func (c *Cluster) onBackoffDone(b *Broker) {
	if b.fetch.phase == phaseBackoff {
		c.sendFetch(b)
	}
}

func (c *Cluster) onRequestTimeout(b *Broker) {
	if b.fetch.phase != phaseIdle && b.fetch.phase != phaseBackoff && b.fetch.phase != phaseAuxRead {
		c.backoff(b, RetryTimeout)
	}
}

// handleResponse routes a leader's answer to the fetcher; answers to a
// request the fetcher no longer waits for are dropped.
func (c *Cluster) handleResponse(b *Broker, m Message) {
	if b.Role != RoleFollower || m.ReqID != b.fetch.reqID || b.fetch.phase == phaseBackoff {
		return
	}
	c.cancelTimer(b, TimerRequest, 0)
	if m.Err == ErrNotLeader || m.Err == ErrFencedLeaderEpoch || m.Err == ErrUnknownLeaderEpoch {
		c.backoff(b, RetryLeaderError)
		return
	}
	switch m.Kind {
	case MsgFetchResp:
		c.onFetchResponse(b, m)
	case MsgListOffsetsResp:
		if b.fetch.phase == phaseLagProbe {
			c.sendFetch(b) // the answer only feeds a lag metric
			return
		}
		b.fetch.query.setAnswer(m.Timestamp, m.Offset, m.Epoch)
		c.decide(b)
	case MsgEpochEndResp:
		c.onEpochEnd(b, m)
	}
}

func (c *Cluster) onFetchResponse(b *Broker, m Message) {
	switch {
	case m.Err == ErrOffsetOutOfRange || m.Err == ErrOffsetMovedToTieredStorage:
		q := &TierQuery{Err: m.Err, LogEnd: b.Log.LogEnd, LastTiered: b.LastTieredEnable, Tiered: c.Tiered()}
		if c.Cfg.Mutants.Has(MutantEmptyAgain) && b.Log.Empty() {
			q.LogEnd = 0
		}
		b.fetch.query = q
		c.decide(b)
	case m.Diverging:
		c.truncateOnDivergence(b, m.Epoch, m.Offset)
		c.sendFetch(b)
	default:
		c.appendFetched(b, m)
		c.sendFetch(b)
	}
}

// truncateOnDivergence truncates to where the follower's and the leader's
// histories part (KIP-320, Kafka's getOffsetTruncationState).
func (c *Cluster) truncateOnDivergence(b *Broker, leaderEpoch int32, leaderEnd int64) {
	l := &b.Log
	to := min(leaderEnd, l.LogEnd)
	if epoch, end := l.EndOffsetFor(leaderEpoch); end >= 0 {
		if epoch == leaderEpoch {
			to = min(leaderEnd, end)
		} else {
			to = min(end, l.LogEnd) // an older epoch: the next fetch compares again
		}
	}
	e := brokerEv(EvTruncate, b.ID)
	e.Offset, e.Cause, e.Epoch, e.End = to, TruncateDivergence, leaderEpoch, leaderEnd
	c.emit(e)
	l.TruncateTo(to)
	c.truncatedTo(b, to)
}

// appendFetched appends the records of a fetch response and follows the
// leader's high watermark and log start offset.
func (c *Cluster) appendFetched(b *Broker, m Message) {
	b.InSyncEpoch = m.LeaderEpoch
	l := &b.Log
	from, bytes := l.LogEnd, int64(0)
	for _, bt := range m.Batches {
		if bt.Last() < l.LogEnd {
			continue
		}
		if bt.Base < l.LogEnd {
			if l.Empty() {
				// The leader's log start is inside this batch: start the log
				// at the batch (Kafka's UnexpectedAppendOffsetException path).
				l.TruncateFullyAndStartAt(bt.Base, bt.Base)
				c.truncatedTo(b, bt.Base)
			} else {
				bt = bt.Slice(l.LogEnd, bt.Last()+1)
			}
		}
		if bytes == 0 {
			from = bt.Base
		}
		l.Append(bt, c.Cfg.SegmentBytes)
		bytes += bt.Bytes
	}
	if bytes > 0 {
		c.emit(Event{Kind: EvFetched, Broker: b.ID, Peer: m.From, Offset: from, Last: l.LogEnd - 1, Bytes: bytes})
	}
	if len(m.Batches) > 0 && b.fetch.bootstrapping {
		b.fetch.bootstrapping = false
		c.emit(Event{Kind: EvBootstrapped, Broker: b.ID, Peer: m.From, Offset: l.LocalLogStart, Path: b.fetch.path})
	}
	if hw := min(m.HighWatermark, l.LogEnd); hw > l.HighWatermark {
		l.HighWatermark = hw
	}
	c.incrementLogStart(l, m.LogStart)
}

// decide asks the profile what to do after OOR/OMTS and does it.
func (c *Cluster) decide(b *Broker) {
	q := b.fetch.query
	d := c.Profile.Decide(q)
	if d.Fallback && c.Cfg.Mutants.Has(MutantEPUOBelowLSO) {
		epuo, epoch, _ := q.Answer(ListEarliestPendingUpload)
		lso, _, _ := q.Answer(ListEarliest)
		d = Decision{Kind: DecideBuildAux, Offset: epuo, Epoch: epoch, LogStart: lso, Path: PathEarliestPendingUpload}
	}
	if d.Fallback && !q.fellBack {
		q.fellBack = true
		c.emit(brokerEv(EvFallback, b.ID))
	}
	switch d.Kind {
	case DecideAsk:
		c.sendRequest(b, Message{Kind: MsgListOffsets, Timestamp: d.Ts}, phaseListOffsets)
		b.fetch.query = q
	case DecideRetry:
		c.backoff(b, d.Reason)
	case DecideTruncate:
		// KIP-405's rule for a LEO above the leader's holds for a follower
		// with no records too (GoalEmptyFollowerAboveLeaderEnd): its LEO is
		// above the leader's, so not 0.
		e := brokerEv(EvTruncate, b.ID)
		e.Offset, e.Cause = d.Offset, TruncateLeaderEnd
		c.emit(e)
		b.Log.TruncateTo(d.Offset)
		c.truncatedTo(b, d.Offset)
		c.sendFetch(b)
	case DecideStartAt:
		c.position(b, d.Path)
		e := brokerEv(EvStartAt, b.ID)
		e.Offset, e.Path, e.Cause = d.Offset, d.Path, StartTruncate
		c.emit(e)
		c.restartLog(b, d.Offset, d.LogStart)
		c.sendFetch(b)
	case DecideBuildAux:
		c.startAuxBuild(b, d)
	case DecideContinue:
		c.sendFetch(b)
	}
}

// restartLog truncates the follower's log fully and starts it at start.
func (c *Cluster) restartLog(b *Broker, start, logStart int64) {
	hw := b.Log.HighWatermark
	b.Log.TruncateFullyAndStartAt(start, logStart)
	c.truncatedTo(b, start)
	if c.Cfg.Mutants.Has(MutantHWNotReset) {
		b.Log.HighWatermark = hw
	}
}

// position records how a bootstrapping follower was positioned.
func (c *Cluster) position(b *Broker, p Path) {
	if b.fetch.bootstrapping {
		b.fetch.path = p
	}
}

// startAuxBuild begins building the auxiliary state for [d.LogStart,
// d.Offset) (Kafka TierStateMachine.buildRemoteLogAuxState).
func (c *Cluster) startAuxBuild(b *Broker, d Decision) {
	b.fetch.aux = auxBuild{start: d.Offset, epoch: d.Epoch, logStart: d.LogStart, path: d.Path, target: d.Epoch}
	if c.AuxStateTrivial(d.Offset, d.LogStart) {
		c.position(b, d.Path)
		e := brokerEv(EvStartAt, b.ID)
		e.Offset, e.Path, e.Cause = d.Offset, d.Path, StartTrivial
		c.emit(e)
		c.restartLog(b, d.Offset, d.LogStart)
		c.sendFetch(b)
		return
	}
	b.fetch.aux.active = true
	e := brokerEv(EvAuxBuildStart, b.ID)
	e.Offset, e.LogStart, e.Epoch, e.Path = d.Offset, d.LogStart, d.Epoch, d.Path
	c.emit(e)
	if c.Profile.AskPreviousEpoch(d.Epoch) {
		// The epoch of start-1 may be an earlier one: ask where epoch-1 ended.
		c.sendRequest(b, Message{Kind: MsgEpochEnd, Epoch: d.Epoch - 1}, phaseEpochEnd)
		return
	}
	c.readAuxState(b)
}

// onEpochEnd picks the epoch of start-1: if the previous epoch ended after
// start-1, start-1 lies in it; otherwise start-1 lies in start's own epoch.
func (c *Cluster) onEpochEnd(b *Broker, m Message) {
	if m.Epoch >= 0 && m.Offset > b.fetch.aux.start-1 {
		b.fetch.aux.target = m.Epoch // GoalAuxEpochBeforeStart when not start's epoch
	} else {
		b.fetch.aux.target = b.fetch.aux.epoch
	}
	c.readAuxState(b)
}

// readAuxState finds the remote segment holding start-1 and reads its
// leader-epoch checkpoint and producer snapshot.
func (c *Cluster) readAuxState(b *Broker) {
	a := &b.fetch.aux
	if c.Now < b.MetadataReadyAt {
		c.endAux(b, AuxMetadataNotReady)
		c.backoff(b, RetryMetadataNotReady)
		return
	}
	seg, ok := c.view(b).Lookup(a.target, a.start-1)
	if !ok {
		e := brokerEv(EvAuxBuildEnd, b.ID)
		e.Cause, e.Offset, e.Epoch, e.Path = AuxNoSegment, a.start-1, a.target, a.path
		a.active = false
		c.emit(e)
		c.backoff(b, RetryAuxUnavailable)
		return
	}
	a.segment = seg.ID
	bytes := int64(1024 + 16*(len(seg.Checkpt)+len(seg.Snapshot)))
	b.fetch.phase = phaseAuxRead
	b.fetch.auxOp = c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteReadAux, Segment: seg.ID, Bytes: bytes})
}

func (c *Cluster) onAuxReadDone(b *Broker, op RemoteOp, failed bool) {
	if !b.Up || b.fetch.phase != phaseAuxRead || op.ID != b.fetch.auxOp {
		return
	}
	if failed {
		c.endAux(b, AuxRemoteError)
		c.backoff(b, RetryRemoteError)
		return
	}
	i := c.Remote.Find(op.Segment)
	if i < 0 || c.Remote.Segments[i].State != CopyFinished {
		e := brokerEv(EvAuxBuildEnd, b.ID)
		e.Cause, e.Segment, e.Path = AuxSegmentGone, SegmentRef{ID: op.Segment}, b.fetch.aux.path
		b.fetch.aux.active = false
		c.emit(e)
		c.backoff(b, RetryAuxUnavailable)
		return
	}
	seg := &c.Remote.Segments[i]
	a := b.fetch.aux
	next := seg.End + 1
	c.position(b, a.path)
	c.restartLog(b, next, a.logStart)
	if c.Cfg.Mutants.Has(MutantStaleLLSOAfterAux) {
		b.Log.LocalLogStart = a.logStart
	}
	for _, e := range seg.Checkpt {
		if e.StartOffset < next {
			b.Log.Epochs = append(b.Log.Epochs, e)
		}
	}
	b.Log.truncateEpochsFromStart(a.logStart)
	b.Log.Producers = append([]ProducerEntry(nil), seg.Snapshot...)
	b.fetch.aux.active = false
	e := brokerEv(EvAuxBuildEnd, b.ID)
	e.Cause, e.Offset, e.Path, e.RemoteBytes = AuxBuilt, next, a.path, op.Bytes
	e.Segment = SegmentRef{ID: seg.ID, Base: seg.Base, End: seg.End, Bytes: seg.Bytes}
	c.emit(e)
	if c.Profile.ProbeLatestAfterAux() {
		c.sendRequest(b, Message{Kind: MsgListOffsets, Timestamp: ListLatest}, phaseLagProbe)
		return
	}
	c.sendFetch(b)
}

// endAux ends an auxiliary-state build under way, if any, with cause.
func (c *Cluster) endAux(b *Broker, cause Cause) {
	if !b.fetch.aux.active {
		return
	}
	b.fetch.aux.active = false
	e := brokerEv(EvAuxBuildEnd, b.ID)
	e.Cause, e.Path = cause, b.fetch.aux.path
	c.emit(e)
}
