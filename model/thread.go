package model

import (
	"fmt"
	"slices"

	"tierfetch/sim"
)

// Replica fetcher threads, in a Fleet of more than one partition (Kafka's
// AbstractFetcherThread; line numbers @1eb7644349cb, under core/src/main/scala/kafka/server
// unless said). A follower broker runs one thread per (leader, fetcher id)
// it fetches from; a partition goes to fetcher FetcherID(topic, partition,
// num.replica.fetchers) (AbstractFetcherManager.getFetcherId,
// AbstractFetcherManager.scala:107-111). A thread has one fetch request in
// flight for all its ready partitions (maxInFlightRequestsPerConnection 1,
// BrokerBlockingSender.scala:87), in its order (PartitionStates); it
// processes the answer partition by partition, in the answer's order, using
// a part only if its partition is still on the thread at the offset it
// asked (AbstractFetcherThread.scala:330-337). A partition that got records
// (:353-374), backed off (delayPartitions, :785-799) or joined
// (addPartitions, :505-519) goes to the end of the order
// (PartitionStates.updateAndMoveToEnd), so a response cap rotates over the
// partitions. A fetch that fails as a whole backs off every partition it
// asked for (:314-325). A partition whose answer starts a tiered bootstrap
// blocks the thread until the bootstrap fetches again or backs off: the
// rest of the answer waits, and no request is sent (the TierStateMachine
// runs inside the response loop, :757-783, and each of its ListOffsets,
// OffsetsForLeaderEpoch and RemoteStorageManager.fetchIndex calls blocks,
// core/src/main/java/kafka/server/TierStateMachine.java:94-128, :153, :168).
//
// Requests and answers go through an incremental fetch session
// (session.go): after a full request, a request carries only the
// partitions whose fetch state changed, and an answer only those with
// something to say. The leader (threadio.go) reads the session's
// partitions in the session's order within the response limit, the first partition with records at least one record
// (ReplicaManager.readFromLog, ReplicaManager.scala:1904-1916), and parks
// the whole request below replica.fetch.min.bytes until records arrive on
// any of its partitions or replica.fetch.wait.max.ms passes
// (ReplicaManager.scala:1723-1736, :1756-1773; DelayedFetch.scala:107-112,
// :147-151).
//
// A partition's own fetcher state (the phase machine of follower.go) stays
// in its Cluster; its fetch phase is then phaseThread: it waits for its
// thread's next request (reqID 0) or for the answer to the one in flight
// (reqID that request's id). The partition's bootstrap requests are its
// own messages, under its own request timeout, as in a one-partition run.
//
// Simplifications, said where the model is described: a thread with nothing ready waits
// until a partition is ready rather than sleeping replica.fetch.backoff.ms,
// the leader's fetcher lock (a leader change waits for a bootstrap) is not
// modelled, and a parked request whose partition's leader resigns is
// answered when it next completes (Kafka's DelayedFetch completes it at
// once, DelayedFetch.scala:92-144). A one-partition Fleet never uses
// threads: its follower fetches as before.

// threadKey names a fetcher thread: the follower running it, the leader
// it fetches from and its fetcher id.
type threadKey struct {
	follower, leader, fetcher int
}

// fetcherThread is one replica fetcher thread of a follower broker.
//
// Invariant (checkThread): a thread is blocked only on one of its own
// partitions, and then has no request in flight; it holds unprocessed
// response parts only while blocked.
type fetcherThread struct {
	key threadKey
	ix  int32 // its index in Fleet.threads
	// order is the thread's partitions, in fetch order (PartitionStates),
	// among stale items (orderOf); count is how many partitions it holds.
	order []orderItem
	count int
	// inflight is the request in flight (0: none).
	inflight uint64
	// held are the answer's parts not processed yet (while blocked).
	held    []FetchPart
	heldReq uint64
	// blockedOn is the partition whose bootstrap blocks the thread (-1:
	// none), since blockedAt; shown says an EvThreadBlocked was emitted.
	blockedOn PartID
	blockedAt sim.Time
	shown     bool
	// parked is the thread's fetch the leader holds until records arrive
	// or replica.fetch.wait.max.ms passes (Kafka's DelayedFetch).
	parked   Message
	isParked bool
	// pending: the thread is to be run at the end of the step (settle).
	pending bool
	// sess is the thread's fetch session: the leader's and the
	// follower's books of it.
	sess fetchSession
}

// threads reports whether the cluster's followers fetch through fetcher
// threads: it is a partition of a Fleet of more than one.
func (c *Cluster) threads() bool { return c.fleet != nil && c.fleet.multi }

// blocking reports whether a partition in phase p blocks its thread: it is
// in a tiered bootstrap's blocking call.
func (p fetchPhase) blocking() bool {
	return p == phaseListOffsets || p == phaseEpochEnd || p == phaseAuxRead || p == phaseLagProbe
}

// fetchers returns num.replica.fetchers.
func (f *Fleet) fetchers() int { return max(1, f.Cfg.NumReplicaFetchers) }

// responseMax returns replica.fetch.response.max.bytes.
func (f *Fleet) responseMax() int64 {
	if f.Cfg.ReplicaFetchResponseMaxBytes > 0 {
		return f.Cfg.ReplicaFetchResponseMaxBytes
	}
	return 10 << 20
}

// minBytes returns replica.fetch.min.bytes.
func (f *Fleet) minBytes() int64 { return max(1, f.Cfg.ReplicaFetchMinBytes) }

// brokers returns how many brokers the fleet has.
func (f *Fleet) brokers() int { return f.nbrokers }

// threadFor returns thread key's thread, made when it has none yet.
func (f *Fleet) threadFor(k threadKey) *fetcherThread {
	n := f.brokers()
	i := (k.follower*n+k.leader)*f.fetchers() + k.fetcher
	if f.threadIx == nil {
		f.threadIx = make([]int32, n*n*f.fetchers())
	}
	if f.threadIx[i] == 0 {
		t := &fetcherThread{key: k, ix: int32(len(f.threads)), blockedOn: -1, sess: fetchSession{full: true}}
		f.threads = append(f.threads, t)
		f.threadIx[i] = t.ix + 1
	}
	return f.threads[f.threadIx[i]-1]
}

// at readies partition p for a call within the step: its time is the
// fleet's and it is touched.
//
// A thread's step changes partition p's brokers x and y only (its follower
// and leader), unless a lagging broker's fold of the metadata, which every
// broker's due checks count, is under way: noteDue looks at those.
func (f *Fleet) at(p PartID, x, y int) *Cluster {
	c := f.Parts[p]
	c.Now = f.Now
	f.touch(p)
	if f.multi {
		if x >= 64 || y >= 64 || len(c.metaLog) > 0 {
			c.stepAll = true
		}
		c.stepBrokers |= 1<<x | 1<<y // 0 for a broker above 63, which stepAll covers
		f.emitFolds(p)
	}
	return c
}

// mark has thread t run at the end of the step (settle).
func (f *Fleet) mark(t *fetcherThread) {
	if !t.pending {
		t.pending = true
		f.pending = append(f.pending, t.ix)
	}
}

// join puts b's fetcher of partition c on its thread, at the end of the
// thread's order if it was not on it (addPartitions), and has the thread
// run: b is ready to fetch.
func (f *Fleet) join(c *Cluster, b *Broker) {
	if b.fetch.thread == 0 {
		tp := f.TPs[c.part]
		t := f.threadFor(threadKey{b.ID, b.Leader, FetcherID(tp.Topic, tp.Partition, f.fetchers())})
		b.fetch.thread = t.ix + 1
		t.count++
		f.toEnd(t, b, c.part)
		f.joined(c.part, b.ID)
	}
	t := f.threads[b.fetch.thread-1]
	t.markDirty(c.part)
	f.mark(t)
}

// leave takes b's fetcher of partition c off its thread
// (removeFetcherForPartitions).
func (f *Fleet) leave(c *Cluster, b *Broker) {
	if b.fetch.thread == 0 {
		return
	}
	t := f.threads[b.fetch.thread-1]
	b.fetch.thread, b.fetch.pos = 0, 0
	t.count--
	t.markDirty(c.part)
	f.mark(t)
}

// delay moves b's partition c to the end of its thread's order: it backed
// off (delayPartitions).
func (f *Fleet) delay(c *Cluster, b *Broker) {
	if b.fetch.thread == 0 {
		return
	}
	t := f.threads[b.fetch.thread-1]
	f.toEnd(t, b, c.part)
	t.markDirty(c.part)
	f.mark(t)
}

// orderItem is partition p in a thread's order, while p's follower on the
// thread has position pos (Broker.fetch.pos); a partition that moves gets
// a new position and a new item, the old one goes stale.
type orderItem struct {
	p   PartID
	pos uint64
}

// toEnd moves follower b's partition p to the end of thread t's order.
func (f *Fleet) toEnd(t *fetcherThread, b *Broker, p PartID) {
	if b.fetch.thread != t.ix+1 {
		panic(fmt.Sprintf("model: partition %d moved to the end of thread %+v, which does not hold it", p, t.key))
	}
	f.nextPos++
	b.fetch.pos = f.nextPos
	t.order = append(t.order, orderItem{p, f.nextPos})
	if len(t.order) > 2*t.count+32 {
		f.orderOf(t)
	}
}

// current reports whether order item it is its partition's place on t.
func (f *Fleet) current(t *fetcherThread, it orderItem) bool {
	b := f.Parts[it.p].Brokers[t.key.follower]
	return b.fetch.thread == t.ix+1 && b.fetch.pos == it.pos
}

// orderOf returns thread t's partitions in its order, dropping the
// order's stale items.
func (f *Fleet) orderOf(t *fetcherThread) []PartID {
	t.order = slices.DeleteFunc(t.order, func(it orderItem) bool { return !f.current(t, it) })
	ps := make([]PartID, len(t.order))
	for i, it := range t.order {
		ps[i] = it.p
	}
	return ps
}

// settle runs the threads the step marked: each unblocks if its bootstrap
// ended, processes what it holds of its last answer and fetches again.
func (f *Fleet) settle() {
	for i := 0; i < len(f.pending); i++ {
		t := f.threads[f.pending[i]]
		t.pending = false
		f.run(t)
	}
	f.pending = f.pending[:0]
	for _, t := range f.threads {
		f.checkThread(t)
	}
	if f.tk != nil && f.tk.hroOnly >= 0 {
		return // only a follower's HRO changed (noteHROOnly)
	}
	for _, p := range f.touched {
		for _, b := range f.Parts[p].Brokers {
			// A broker without a role has the idle fetcher the step that
			// took its role left and checked (Cluster.step): no thread
			// changes a role.
			if b.Role != RoleNone {
				b.checkFetcher()
			}
		}
		f.noteLeader(p)
	}
}

// run unblocks thread t if the partition that blocked it is out of its
// bootstrap, processes its held parts and fetches when it can.
func (f *Fleet) run(t *fetcherThread) {
	if t.blockedOn >= 0 {
		b := f.Parts[t.blockedOn].Brokers[t.key.follower]
		if b.fetch.thread == t.ix+1 && b.fetch.phase.blocking() {
			return
		}
		f.unblock(t)
	}
	f.processHeld(t)
	if t.blockedOn < 0 {
		f.maybeFetch(t)
	}
}

// block stops thread t for partition p's bootstrap.
func (f *Fleet) block(t *fetcherThread, p PartID) {
	t.blockedOn, t.blockedAt, t.shown = p, f.Now, t.count > 1
	if t.shown {
		e := t.event(EvThreadBlocked, p)
		e.Count = int64(t.count - 1)
		f.emit(e)
	}
}

// unblock resumes thread t: the bootstrap that blocked it ended.
func (f *Fleet) unblock(t *fetcherThread) {
	if t.shown {
		e := t.event(EvThreadUnblocked, t.blockedOn)
		e.Ms = f.Now.Sub(t.blockedAt).Ms()
		f.emit(e)
	}
	t.blockedOn, t.shown = -1, false
}

// event returns an event of kind k about thread t and partition p.
func (t *fetcherThread) event(k EventKind, p PartID) Event {
	e := brokerEv(k, t.key.follower)
	e.Peer, e.Fetcher, e.Part = t.key.leader, int16(t.key.fetcher), p
	return e
}

// processHeld processes the held parts of the thread's answer in order,
// until one starts a bootstrap (which blocks the thread). A part counts
// only if its partition is still on the thread and in the session at the
// fetch state the request had (AbstractFetcherThread.processFetchRequest):
// its fetch state has not changed since it was sent (reqID not 0).
func (f *Fleet) processHeld(t *fetcherThread) {
	for len(t.held) > 0 {
		part := &t.held[0]
		t.held = t.held[1:]
		b := f.Parts[part.Part].Brokers[t.key.follower]
		if b.fetch.thread != t.ix+1 || b.fetch.phase != phaseThread || b.fetch.reqID == 0 {
			continue
		}
		c := f.at(part.Part, t.key.follower, t.key.leader)
		c.takeFetchPart(b, t.answer(part))
		f.tookPart(part.Part, b, part)
		switch {
		case b.fetch.thread != t.ix+1:
		case b.fetch.phase.blocking():
			f.block(t, part.Part)
			return
		case len(part.Batches) > 0:
			f.toEnd(t, b, part.Part)
		}
	}
	t.held, t.heldReq = nil, 0
}

// answer is the one-partition answer a held part is to its partition.
func (t *fetcherThread) answer(p *FetchPart) Message {
	return Message{Kind: MsgFetchResp, From: t.key.leader, To: t.key.follower, Part: p.Part, ReqID: t.heldReq,
		LeaderEpoch: p.LeaderEpoch, Err: p.Err, Batches: p.Batches, HighWatermark: p.HighWatermark, LogStart: p.LogStart,
		Diverging: p.Diverging, Epoch: p.Epoch, Offset: p.Offset}
}

// maybeFetch sends the thread's next request, of its session's partitions
// (AbstractFetcherThread.maybeFetch, RemoteLeaderEndPoint.buildFetch,
// buildFetch); with none it waits.
func (f *Fleet) maybeFetch(t *fetcherThread) {
	if t.inflight != 0 || t.blockedOn >= 0 || len(t.held) > 0 {
		return
	}
	m, ok, throttled := f.buildFetch(t, f.nextReq+1)
	if !ok {
		if throttled { // nothing to send but throttled partitions: wait replica.fetch.backoff.ms
			f.setTimer(t.timer(TimerFetchBackoff, t.key.follower, t.key.leader), f.Parts[0].Cfg.ReplicaFetchBackoff)
		}
		return
	}
	f.nextReq++
	t.inflight = f.nextReq
	f.send(m)
	f.setTimer(t.timer(TimerRequest, t.key.follower, t.key.leader), f.Parts[0].Cfg.ReplicaSocketTimeout)
}

// timer returns the key of the thread's timer of kind k on broker b.
func (t *fetcherThread) timer(k TimerKind, b, peer int) TimerKey {
	return TimerKey{Broker: b, Kind: k, Fetcher: int16(t.key.fetcher), Part: -1, Peer: peer}
}

// checkThread asserts the thread invariant (see fetcherThread).
func (f *Fleet) checkThread(t *fetcherThread) {
	ok := t.blockedOn < 0 || f.Parts[t.blockedOn].Brokers[t.key.follower].fetch.thread == t.ix+1 && t.inflight == 0
	ok = ok && (len(t.held) == 0 || t.blockedOn >= 0)
	if !ok {
		panic(fmt.Sprintf("model: fetcher thread b%d<-b%d#%d blocked on %d (order %v), request %d in flight, %d parts held",
			t.key.follower, t.key.leader, t.key.fetcher, t.blockedOn, f.orderOf(t), t.inflight, len(t.held)))
	}
}
