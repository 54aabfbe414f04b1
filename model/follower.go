package model

import "fmt"

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
	// phaseThread: the partition fetches through its fetcher thread (a
	// Fleet of many partitions, thread.go): it waits for the thread's next
	// request (reqID 0) or for the answer to the one in flight (reqID).
	phaseThread
)

var phaseNames = [...]string{"idle", "fetch", "list-offsets", "epoch-end", "aux-read", "lag-probe", "backoff", "thread"}

func (p fetchPhase) String() string { return phaseNames[p] }

func (t fetchTimer) String() string { return fetchTimerNames[t] }

// awaitsAnswer reports whether the fetcher waits for the answer to a
// request in phase p.
func (p fetchPhase) awaitsAnswer() bool {
	return p == phaseFetch || p == phaseListOffsets || p == phaseEpochEnd || p == phaseLagProbe
}

// answer is the kind of the answer awaited in request phase p.
func (p fetchPhase) answer() MsgKind {
	switch p {
	case phaseFetch:
		return MsgFetchResp
	case phaseEpochEnd:
		return MsgEpochEndResp
	}
	return MsgListOffsetsResp
}

// checkFetcher asserts the fetcher invariant (see fetcher).
func (b *Broker) checkFetcher() {
	f := &b.fetch
	var ok bool
	switch f.phase {
	case phaseFetch, phaseListOffsets, phaseEpochEnd, phaseLagProbe:
		ok = f.armed == armedRequest && f.reqID != 0 && (f.phase != phaseEpochEnd || f.aux.active) &&
			(f.phase != phaseListOffsets || f.query != nil)
	case phaseAuxRead:
		ok = f.armed == armedNone && f.auxOp != 0 && f.aux.active
	case phaseBackoff:
		ok = f.armed == armedBackoff && !f.aux.active && f.query == nil
	case phaseIdle:
		ok = f.armed == armedNone && !f.aux.active
	case phaseThread:
		ok = f.armed == armedNone && !f.aux.active && f.query == nil && f.thread != 0
	}
	ok = ok && (f.thread == 0 || b.Role == RoleFollower && b.Up)
	if !ok {
		panic(fmt.Sprintf("model: b%d (%s, up %v) fetcher in phase %s with its %s timer armed, request %d, aux read %d, build under way %v, query %v",
			b.ID, b.Role, b.Up, f.phase, f.armed, f.reqID, f.auxOp, f.aux.active, f.query != nil))
	}
}

// fetchTimer is the one timer a fetcher has armed.
type fetchTimer uint8

const (
	armedNone    fetchTimer = iota
	armedRequest            // TimerRequest: the request awaited times out
	armedBackoff            // TimerFetchBackoff: the retry is due
)

var fetchTimerNames = [...]string{"none", "request-timeout", "fetch-backoff"}

// fetcher is a follower's replica fetcher for the partition.
//
// Invariant (checkFetcher, after every step): the phase says what the
// fetcher waits for, and so which one timer it has armed. In a request
// phase (fetch, list-offsets, epoch-end, lag-probe) it waits for the
// answer to request reqID (not 0), under the request timeout; in
// aux-read for remote operation auxOp (not 0) of the build under way, with
// no timer (remote storage has no socket timeout); in backoff for its
// backoff timer, with no build under way and no query; idle, for nothing,
// with no timer and no build. An epoch-end request belongs to a build
// under way; a list-offsets request to a query.
type fetcher struct {
	phase fetchPhase
	armed fetchTimer
	reqID uint64     // the last request sent (0: none since the fetcher stopped)
	query *TierQuery // set while deciding after OOR/OMTS
	aux   auxBuild
	auxOp uint64 // the last aux-state read started
	// bootstrapping is true for an added replica until it first receives records.
	bootstrapping bool
	// path is how the bootstrap positioned the follower, its
	// EvBootstrapped's Path: set while bootstrapping, kept after.
	path Path
	// thread is the fetcher thread the partition is on (index+1 in its
	// Fleet's threads; 0: none, or a one-partition run).
	thread int32
	// sent is the fetch state the thread's session holds for the
	// partition, as last sent (session.go).
	sent partState
	// pos is the partition's place in its thread's order (orderItem).
	pos uint64
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
	// snapshot: the epoch checkpoint was read (readBytes), the producer
	// snapshot's read is the one in flight.
	snapshot  bool
	readBytes int64
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
	if !b.Up || c.Ctrl.Leader < 0 || c.Ctrl.Leader == b.ID || !c.Ctrl.IsReplica(b.ID) {
		panic(fmt.Sprintf("model: b%d (up %v, replica %v) follows b%d", b.ID, b.Up, c.Ctrl.IsReplica(b.ID), c.Ctrl.Leader))
	}
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
	if !c.multi() { // else the broker's retention tick (ticks.go)
		c.setTimer(b, TimerRetention, 0, c.Cfg.RetentionCheckInterval)
	}
	c.sendFetch(b)
}

func (c *Cluster) stopFetcher(b *Broker) {
	c.endAux(b, AuxAborted)
	if b.fetch.phase == phaseBackoff {
		c.cancelTimer(b, TimerFetchBackoff, 0)
	} else if b.fetch.phase != phaseIdle {
		c.cancelTimer(b, TimerRequest, 0)
	}
	b.fetch.phase, b.fetch.armed, b.fetch.query, b.fetch.reqID, b.fetch.auxOp = phaseIdle, armedNone, nil, 0, 0
	if c.threads() {
		c.fleet.leave(c, b)
	}
}

// sendRequest sends m to the leader and arms the request timeout.
func (c *Cluster) sendRequest(b *Broker, m Message, phase fetchPhase) {
	if b.Role != RoleFollower || b.Leader < 0 || b.fetch.armed != armedNone || !phase.awaitsAnswer() {
		panic(fmt.Sprintf("model: b%d (%s of b%d) sends %s in phase %s with its %s timer armed", b.ID, b.Role, b.Leader,
			m.Kind, phase, b.fetch.armed))
	}
	m.From, m.To, m.ReqID, m.LeaderEpoch = b.ID, b.Leader, c.newReqID(), b.LeaderEpoch
	b.fetch.phase, b.fetch.reqID, b.fetch.armed = phase, m.ReqID, armedRequest
	c.send(m)
	c.setTimer(b, TimerRequest, 0, c.Cfg.ReplicaSocketTimeout)
}

// newReqID returns a new request id: the cluster's own sequence, or its
// Fleet's when the Fleet holds more than one partition (a fetcher thread's
// requests and its partitions' share one connection).
func (c *Cluster) newReqID() uint64 {
	if c.fleet != nil && c.fleet.multi {
		c.fleet.nextReq++
		return c.fleet.nextReq
	}
	c.nextReq++
	return c.nextReq
}

// sendFetch fetches from the follower's LEO.
func (c *Cluster) sendFetch(b *Broker) {
	if b.Role != RoleFollower || b.Leader < 0 {
		b.fetch.phase = phaseIdle
		return
	}
	b.fetch.query = nil
	if c.threads() {
		b.fetch.phase, b.fetch.reqID = phaseThread, 0
		c.fleet.join(c, b)
		return
	}
	epoch := b.Log.LatestEpoch()
	c.sendRequest(b, Message{Kind: MsgFetch, FetchOffset: b.Log.LogEnd, LastFetchedEpoch: epoch,
		MaxBytes: c.Cfg.ReplicaFetchMaxBytes}, phaseFetch)
}

// backoff fails the current attempt; the fetcher retries after
// replica.fetch.backoff.ms and decides afresh.
func (c *Cluster) backoff(b *Broker, why RetryReason) {
	if b.Role != RoleFollower || b.fetch.phase == phaseIdle || b.fetch.phase == phaseBackoff {
		panic(fmt.Sprintf("model: b%d (%s) backs off (%s) in phase %s", b.ID, b.Role, why, b.fetch.phase))
	}
	c.cancelTimer(b, TimerRequest, 0) // armed or not (an aux read has none)
	c.endAux(b, AuxAborted)           // a build a more specific end has not ended: a leader error or a timeout stopped it
	b.fetch.phase, b.fetch.query, b.fetch.armed = phaseBackoff, nil, armedBackoff
	e := brokerEv(EvBackoff, b.ID)
	e.Retry = why
	c.emit(e)
	c.setTimer(b, TimerFetchBackoff, 0, c.Cfg.ReplicaFetchBackoff)
	if c.threads() {
		c.fleet.delay(c, b)
	}
}

// onBackoffDone retries: the backoff timer fired.
func (c *Cluster) onBackoffDone(b *Broker) {
	if b.fetch.phase != phaseBackoff || b.fetch.armed != armedBackoff {
		panic(fmt.Sprintf("model: b%d's backoff timer fired in phase %s with its %s timer armed", b.ID, b.fetch.phase, b.fetch.armed))
	}
	b.fetch.armed = armedNone
	c.sendFetch(b)
}

// onRequestTimeout gives up on the request awaited: its timer fired. (An
// auxiliary-state read has no timeout: its timer is not armed.)
func (c *Cluster) onRequestTimeout(b *Broker) {
	if !b.fetch.phase.awaitsAnswer() || b.fetch.armed != armedRequest {
		panic(fmt.Sprintf("model: b%d's request timeout fired in phase %s with its %s timer armed", b.ID, b.fetch.phase, b.fetch.armed))
	}
	b.fetch.armed = armedNone
	c.backoff(b, RetryTimeout)
}

// handleResponse routes a leader's answer to the fetcher; answers to a
// request the fetcher no longer waits for are dropped.
func (c *Cluster) handleResponse(b *Broker, m Message) {
	if b.Role != RoleFollower || m.ReqID != b.fetch.reqID || b.fetch.phase == phaseBackoff {
		return
	}
	if !b.fetch.phase.awaitsAnswer() || m.Kind != b.fetch.phase.answer() {
		panic(fmt.Sprintf("model: b%d in phase %s takes %s answering its request %d", b.ID, b.fetch.phase, m.Kind, m.ReqID))
	}
	c.cancelTimer(b, TimerRequest, 0)
	b.fetch.armed = armedNone
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

// takeFetchPart takes partition c's part of its fetcher thread's answer
// (m, as a one-partition answer): handleResponse for a fetch the thread
// sent, whose timer is the thread's.
func (c *Cluster) takeFetchPart(b *Broker, m Message) {
	b.fetch.reqID = 0
	if m.Err == ErrNotLeader || m.Err == ErrFencedLeaderEpoch || m.Err == ErrUnknownLeaderEpoch {
		c.backoff(b, RetryLeaderError)
		return
	}
	c.onFetchResponse(b, m)
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
	if q == nil || b.fetch.armed != armedNone || b.fetch.aux.active {
		panic(fmt.Sprintf("model: b%d decides in phase %s with query %v, its %s timer armed, a build under way %v",
			b.ID, b.fetch.phase, q != nil, b.fetch.armed, b.fetch.aux.active))
	}
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
	default:
		panic(fmt.Sprintf("model: b%d: profile %s decided %+v on %+v", b.ID, c.Profile.Name(), d, *q))
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
	if b.fetch.aux.active || d.Kind != DecideBuildAux {
		panic(fmt.Sprintf("model: b%d starts an aux build %+v with one under way %v", b.ID, d, b.fetch.aux.active))
	}
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
	if !b.fetch.aux.active || b.fetch.phase != phaseEpochEnd {
		panic(fmt.Sprintf("model: b%d takes an epoch-end answer in phase %s, a build under way %v", b.ID, b.fetch.phase, b.fetch.aux.active))
	}
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
	if !a.active || b.fetch.armed != armedNone {
		panic(fmt.Sprintf("model: b%d reads aux state in phase %s, a build under way %v, its %s timer armed", b.ID, b.fetch.phase, a.active, b.fetch.armed))
	}
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
	a.segment, a.snapshot, a.readBytes = seg.ID, false, 0
	b.fetch.phase = phaseAuxRead
	b.fetch.auxOp = c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteReadAux, Segment: seg.ID, Bytes: auxIndexBytes(len(seg.Checkpt))})
}

// auxIndexBytes is the size of a remote segment's index of n entries (its
// leader-epoch checkpoint or producer snapshot) as the model reads it.
func auxIndexBytes(n int) int64 { return int64(512 + 16*n) }

func (c *Cluster) onAuxReadDone(b *Broker, op RemoteOp, failed bool) {
	if !b.Up || b.fetch.phase != phaseAuxRead || op.ID != b.fetch.auxOp {
		return
	}
	if !b.fetch.aux.active || op.Segment != b.fetch.aux.segment {
		panic(fmt.Sprintf("model: b%d's aux read %d of segment %d done, the build (under way %v) reads segment %d",
			b.ID, op.ID, op.Segment, b.fetch.aux.active, b.fetch.aux.segment))
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
	if !b.fetch.aux.snapshot {
		// The epoch checkpoint is read; the producer snapshot is read next,
		// by a second fetchIndex call in the same thread
		// (TierStateMachine.buildRemoteLogAuxState, TierStateMachine.java:253,
		// :260, the reads at :153 and :168 @1eb7644349cb).
		b.fetch.aux.snapshot, b.fetch.aux.readBytes = true, op.Bytes
		b.fetch.auxOp = c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteReadAux, Segment: seg.ID, Bytes: auxIndexBytes(len(seg.Snapshot))})
		return
	}
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
	e.Cause, e.Offset, e.Path, e.RemoteBytes = AuxBuilt, next, a.path, a.readBytes+op.Bytes
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
