package model

import (
	"cmp"
	"fmt"
	"slices"

	"tierfetch/sim"
)

// Incremental fetch sessions (KIP-227), between a fetcher thread and its
// leader (line numbers @1eb7644349cb). The follower's FetchSessionHandler
// sends a full request first (every ready partition, in the thread's
// order), then incremental ones: only the partitions added to the session
// or whose fetch state changed (offset, last fetched epoch, leader epoch,
// limit), and the ones no longer ready as forgotten
// (clients/src/main/java/org/apache/kafka/clients/FetchSessionHandler.java:275-362);
// it sends nothing while the session is empty and nothing is to be
// forgotten (core/src/main/scala/kafka/server/RemoteLeaderEndPoint.scala:209-211).
// The leader's session (core/src/main/scala/kafka/server/FetchSession.scala)
// caches each partition's request and what it last answered: an
// incremental request updates the cached partitions in place, appends the
// new ones and drops the forgotten ones (FetchSession.update, :274-296);
// the leader reads the session's partitions in the session's order
// (IncrementalFetchContext.foreachPartition, :472-481) and answers only
// those that must respond: records, a changed high watermark or log start
// offset, an error or a diverging epoch (CachedPartition.maybeUpdateResponseData,
// :138-173); a partition that got records goes to the end of the session
// (:499-504).
//
// The leader's work per request is proportional to the partitions it
// touches, not to the session: it visits the partitions whose request
// changed or whose leader changed (their log end, high watermark, log
// start, ISR, role or epoch; Fleet.noteLeader), the ones that erred last
// time, and, while the response has room, the ones with records to read.
// What Kafka's read (ReplicaManager.readFromLog, updateFollowerFetchState)
// does for a partition the model does not visit is only to record the
// follower's unchanged fetch at the request's time: its lastFetchAt, and
// its lastCaughtUpAt when the follower is at the leader's log end. Those
// follow lazily from the session's last request (viewCaughtUpAt,
// viewFetchAt), through which the ISR expiry and the state encoding read
// them. Fleet.eager visits and answers every partition of the session at
// every request instead (the reference the tests compare against).
//
// Simplifications: a leader that lost its sessions (it crashed) and the
// follower's thread after a request timeout start a full session at the
// next request (Kafka's FETCH_SESSION_ID_NOT_FOUND round trip and
// FetchSessionHandler.handleError); an incremental request older than the
// last one the leader took (it was overtaken on the network) is dropped
// unanswered, where Kafka answers INVALID_FETCH_SESSION_EPOCH; sessions are
// never evicted (followers' sessions are privileged).

// sessEntry is one partition of a leader's fetch session (Kafka's
// CachedPartition).
type sessEntry struct {
	part PartID
	// req is the partition's cached request.
	req FetchPart
	// hw and lso are the high watermark and log start offset last
	// answered (-1: never, or an error since).
	hw, lso int64
	// stamp orders the session: smaller first.
	stamp uint64
	live  bool
	// stale: the request or the leader changed since the last visit that
	// recorded the follower's fetch; erred: the last visit answered an
	// error or a divergence; pending: the last visit's high watermark or
	// log start offset is not answered yet. Any of them puts the entry on
	// the session's work list.
	stale, erred, pending bool
	inWork                bool
	// heaped: the ready heap holds the entry at its stamp.
	heaped bool
	// visit is the read that last visited the entry.
	visit uint64
}

// readyItem is an entry of the ready heap: the slot of an entry that may
// have records to read, at its stamp.
type readyItem struct {
	stamp uint64
	slot  int32
}

// visitRec is what one visit of a read found.
type visitRec struct {
	slot         int32
	hw, lso, n   int64
	erred, built bool
}

// fetchSession is a leader's fetch session for one fetcher thread, and
// the thread's own bookkeeping of it (FetchSessionHandler).
type fetchSession struct {
	ents      []sessEntry
	free      []int32
	live      int
	nextStamp uint64
	ready     []readyItem
	work      []int32
	// open: the leader holds the session; lastReq is the last request it
	// took.
	open    bool
	lastReq uint64
	// seq counts the requests the leader took; lastAt is the last one's
	// time, prevAt the one's before.
	seq            uint64
	lastAt, prevAt sim.Time
	reads          uint64
	vis            []visitRec
	// Follower side: full says the next request is a full one; dirty are
	// the partitions whose fetch state may have changed since the last
	// request; members counts the partitions the follower has in the
	// session.
	full    bool
	dirty   []PartID
	members int
}

// sessRef names one session's entry of a partition.
type sessRef struct {
	thread, slot int32
}

// leaderSnap is what of a partition's leadership a session's answer
// depends on; a change of it has every session entry of the partition
// visited at its next request.
type leaderSnap struct {
	leader, ctrlEpoch, epoch   int32
	leaders, isr, replicas     uint64
	epochs                     int64
	leo, hw, lso, lls, epStart int64
	flags                      uint8
}

// clone returns an independent copy of the session.
func (s *fetchSession) clone() fetchSession {
	x := *s
	x.ents, x.free, x.ready = slices.Clone(s.ents), slices.Clone(s.free), slices.Clone(s.ready)
	x.work, x.vis, x.dirty = slices.Clone(s.work), nil, slices.Clone(s.dirty)
	return x
}

// sessSlot returns the slot of partition p in thread t's session (-1:
// not in it).
func (f *Fleet) sessSlot(t *fetcherThread, p PartID) int32 {
	if !f.sessions {
		return -1
	}
	for _, r := range f.pf[p].sessOf {
		if r.thread == t.ix {
			return r.slot
		}
	}
	return -1
}

// snapOf returns partition p's leader snapshot.
func (f *Fleet) snapOf(p PartID) leaderSnap {
	c := f.Parts[p]
	s := leaderSnap{leader: int32(c.Ctrl.Leader), ctrlEpoch: c.Ctrl.LeaderEpoch, epoch: -1}
	for _, b := range c.Brokers {
		if b.Role == RoleLeader {
			s.leaders |= 1 << uint(b.ID)
			s.epochs += int64(b.LeaderEpoch) << 8
			s.epochs += int64(b.ID)
		}
	}
	for _, id := range c.Ctrl.ISR {
		s.isr |= 1 << uint(id)
	}
	for _, id := range c.Ctrl.Replicas {
		s.replicas |= 1 << uint(id)
	}
	if c.Ctrl.Leader >= 0 {
		b := c.Brokers[c.Ctrl.Leader]
		l := &b.Log
		s.epoch, s.leo, s.hw, s.lso, s.lls, s.epStart = b.LeaderEpoch, l.LogEnd, l.HighWatermark, l.LogStart, l.LocalLogStart, b.lead.epochStart
	}
	if c.Tiered() {
		s.flags |= 1
	}
	if c.UnderMinISR() {
		s.flags |= 2
	}
	return s
}

// noteLeader has every session entry of partition p visited at its next
// request if p's leadership changed since it was last noted; the views of
// the followers are first brought to the sessions' last requests
// (settleView), whose lazy rule holds only while the leader's log end does
// not move.
func (f *Fleet) noteLeader(p PartID) {
	pf := &f.pf[p]
	if len(pf.sessOf) == 0 {
		return
	}
	s := f.snapOf(p)
	if s == pf.lsnap {
		return
	}
	pf.lsnap = s
	for _, r := range pf.sessOf {
		t := f.threads[r.thread]
		f.settleEntryView(t, p, t.sess.seq, t.sess.lastAt)
		e := &t.sess.ents[r.slot]
		e.stale = true
		t.sess.addWork(r.slot)
	}
}

// addWork lists entry slot on the session's work list.
func (s *fetchSession) addWork(slot int32) {
	if e := &s.ents[slot]; !e.inWork {
		e.inWork = true
		s.work = append(s.work, slot)
	}
}

// settleEntryView brings leader's view of thread t's follower for
// partition p to the session's request seq at time at.
func (f *Fleet) settleEntryView(t *fetcherThread, p PartID, seq uint64, at sim.Time) {
	b := f.Parts[p].Brokers[t.key.leader]
	if b.Role != RoleLeader || len(b.lead.followers) <= t.key.follower {
		return
	}
	settleView(&b.lead.followers[t.key.follower], seq, at)
}

// settleView writes into v what the requests of its session up to seq,
// the last at time at, recorded of the follower's unchanged fetch
// (updateFollowerFetch with the same offset and the same leader log end).
func settleView(v *followerView, seq uint64, at sim.Time) {
	if v.sess == 0 || v.seq >= seq {
		return
	}
	if v.fetchOffset >= v.lastFetchLeaderEnd {
		v.lastCaughtUpAt = max(v.lastCaughtUpAt, at)
	}
	v.lastFetchAt, v.seq = at, seq
}

// viewCaughtUpAt returns the leader's lastCaughtUpAt of a follower (v):
// as recorded, or as its session's requests since would have recorded it.
func (c *Cluster) viewCaughtUpAt(v *followerView) sim.Time {
	if s := c.viewSession(v); s != nil && v.fetchOffset >= v.lastFetchLeaderEnd {
		return max(v.lastCaughtUpAt, s.lastAt)
	}
	return v.lastCaughtUpAt
}

// viewFetchAt returns the leader's lastFetchAt of a follower (v), as
// viewCaughtUpAt.
func (c *Cluster) viewFetchAt(v *followerView) sim.Time {
	if s := c.viewSession(v); s != nil {
		return s.lastAt
	}
	return v.lastFetchAt
}

// viewSession returns the session whose requests since v was written
// count for it (nil: none).
func (c *Cluster) viewSession(v *followerView) *fetchSession {
	if v.sess == 0 || c.fleet == nil {
		return nil
	}
	if s := &c.fleet.threads[v.sess-1].sess; s.seq > v.seq {
		return s
	}
	return nil
}

// addEntry appends partition part's request q to thread t's session.
func (f *Fleet) addEntry(t *fetcherThread, q FetchPart) {
	s := &t.sess
	var slot int32
	if n := len(s.free); n > 0 {
		slot, s.free = s.free[n-1], s.free[:n-1]
	} else {
		slot = int32(len(s.ents))
		s.ents = append(s.ents, sessEntry{})
	}
	s.nextStamp++
	s.ents[slot] = sessEntry{part: q.Part, req: q, hw: -1, lso: -1, stamp: s.nextStamp, live: true, stale: true}
	s.live++
	s.addWork(slot)
	f.sessions = true
	pf := &f.pf[q.Part]
	if len(pf.sessOf) == 0 {
		pf.lsnap = f.snapOf(q.Part)
	}
	pf.sessOf = append(pf.sessOf, sessRef{t.ix, slot})
}

// dropEntry takes entry slot out of thread t's session: the follower's
// view is brought to the session's last request and no longer follows it.
func (f *Fleet) dropEntry(t *fetcherThread, slot int32) {
	s := &t.sess
	e := &s.ents[slot]
	p := e.part
	f.settleEntryView(t, p, s.seq, s.lastAt)
	if b := f.Parts[p].Brokers[t.key.leader]; len(b.lead.followers) > t.key.follower {
		if v := &b.lead.followers[t.key.follower]; v.sess == t.ix+1 {
			v.sess = 0
		}
	}
	*e = sessEntry{}
	s.live--
	s.free = append(s.free, slot)
	f.pf[p].sessOf = slices.DeleteFunc(f.pf[p].sessOf, func(r sessRef) bool { return r.thread == t.ix })
}

// dropSession empties thread t's leader session.
func (f *Fleet) dropSession(t *fetcherThread) {
	s := &t.sess
	for i := range s.ents {
		if s.ents[i].live {
			f.dropEntry(t, int32(i))
		}
	}
	s.ents, s.free, s.ready, s.work, s.live, s.open = s.ents[:0], s.free[:0], s.ready[:0], s.work[:0], 0, false
}

// applyRequest updates thread t's session with its request m
// (FetchSession.update; a full request starts a new session in its
// order). It reports false for a request the leader drops: older than
// the last it took, or incremental on no session.
func (f *Fleet) applyRequest(t *fetcherThread, m *Message) bool {
	s := &t.sess
	if m.ReqID <= s.lastReq || !m.Full && !s.open {
		return false
	}
	s.lastReq = m.ReqID
	if m.Full {
		f.dropSession(t)
		s.open = true
	}
	for i := range m.Parts {
		q := m.Parts[i]
		if slot := f.sessSlot(t, q.Part); slot >= 0 {
			e := &s.ents[slot]
			e.req, e.stale = q, true
			s.addWork(slot)
			continue
		}
		f.addEntry(t, q)
	}
	for _, p := range m.Forget {
		if slot := f.sessSlot(t, p); slot >= 0 {
			f.dropEntry(t, slot)
		}
	}
	return true
}

// readSession reads thread t's session on its leader, in the session's
// order, within replica.fetch.response.max.bytes: each partition at most
// its own limit, the first with records at least one record whatever the
// limits (minOneMessage), the later ones nothing once the response is
// full (ReplicaManager.readFromLog, ReplicaManager.scala:1904-1916). The
// answer holds the partitions that must respond (every one, eager).
// update says whether the leader records each follower's fetch (not when
// a delayed fetch completes). It reports whether the answer is due now:
// a partition erred or diverged, or the records reach
// replica.fetch.min.bytes. finishRead must follow.
func (f *Fleet) readSession(t *fetcherThread, m *Message, update bool) (Message, bool) {
	s := &t.sess
	if update {
		s.seq++
		s.prevAt, s.lastAt = s.lastAt, f.Now
	}
	s.reads++
	resp := Message{Kind: MsgFetchResp, Part: -1, Fetcher: m.Fetcher, From: m.To, To: m.From, ReqID: m.ReqID}
	cand := f.candidates(s)
	limit, minOne, total, due := f.responseMax(), true, int64(0), false
	s.vis = s.vis[:0]
	for wi := 0; ; {
		slot := int32(-1)
		if !f.eager && limit > 0 && (minOne || limit >= f.minRecord) {
			slot = s.readyTop()
		}
		if wi < len(cand) && (slot < 0 || s.ents[cand[wi]].stamp <= s.ents[slot].stamp) {
			slot = cand[wi]
			wi++
		} else if slot >= 0 {
			s.popReady()
		} else {
			break
		}
		e := &s.ents[slot]
		if e.visit == s.reads {
			continue
		}
		e.visit = s.reads
		r, n := f.visit(t, e, limit, minOne, update)
		if n > 0 {
			minOne, limit, total = false, max(0, limit-n), total+n
		}
		v := visitRec{slot: slot, hw: r.HighWatermark, lso: r.LogStart, n: n, erred: r.Err != ErrNone || r.Diverging}
		due = due || v.erred
		if f.eager || n > 0 || v.erred || v.hw != e.hw || v.lso != e.lso {
			resp.Parts = append(resp.Parts, r)
			v.built = true
		}
		s.vis = append(s.vis, v)
	}
	return resp, due || total >= f.minBytes()
}

// minRecordBytes returns a lower bound of the bytes of one record in any
// log of the fleet, now and later: the smallest record_bytes (produced
// batches) and bytes per record of an initial batch (a read's pieces and
// a follower's merged pieces have at least their batch's). A partition
// that comes after the response has less room than that left gets no
// records (readForFollower), so a read stops visiting partitions for
// records there.
func (f *Fleet) minRecordBytes() int64 {
	least := int64(1) << 62
	for _, c := range f.Parts {
		least = min(least, c.Cfg.RecordBytes)
		for _, b := range c.Brokers {
			for i := range b.Log.Segments {
				for _, bt := range b.Log.Segments[i].Batches {
					least = min(least, bt.Bytes/max(bt.Count, 1))
				}
			}
		}
	}
	return max(least, 0)
}

// candidates returns the session's entries every read visits, in session
// order: those on the work list (eager: all), emptying the list.
func (f *Fleet) candidates(s *fetchSession) []int32 {
	var cand []int32
	if f.eager {
		for i := range s.ents {
			if s.ents[i].live {
				cand = append(cand, int32(i))
			}
		}
	} else {
		for _, slot := range s.work {
			e := &s.ents[slot]
			e.inWork = false
			if e.live && (e.stale || e.erred || e.pending) {
				cand = append(cand, slot)
			}
		}
	}
	s.work = s.work[:0]
	slices.SortFunc(cand, func(a, b int32) int { return cmp.Compare(s.ents[a].stamp, s.ents[b].stamp) })
	return cand
}

// visit reads entry e of thread t's session on the leader (Cluster.readForFollower),
// first bringing the follower's view to the session's requests before this
// one; a read that records the fetch has the view follow the session from
// here on.
func (f *Fleet) visit(t *fetcherThread, e *sessEntry, limit int64, minOne, update bool) (FetchPart, int64) {
	c := f.at(e.part, t.key.follower, t.key.leader)
	b := c.Brokers[t.key.leader]
	s := &t.sess
	if update {
		f.settleEntryView(t, e.part, s.seq-1, s.prevAt)
		e.stale = false
	}
	r, n := c.readForFollower(b, t.key.follower, &e.req, limit, minOne, update)
	if r.Err == ErrNone && f.leaderThrottled(e.part, t.key.leader, t.key.follower) {
		r.Batches, n = nil, 0 // shouldLeaderThrottle: no records while the quota is exceeded
	}
	if update && b.Role == RoleLeader && len(b.lead.followers) > t.key.follower {
		v := &b.lead.followers[t.key.follower]
		v.sess, v.seq = 0, 0
		if r.Err == ErrNone && !r.Diverging {
			v.sess, v.seq = t.ix+1, s.seq
		}
	}
	return r, n
}

// finishRead ends the last read of thread t's session: when its answer
// is sent, each answered partition's high watermark and log start offset
// are the session's, and those that got records go to its end (an error
// leaves -1, so the partition answers again once the error is gone); then
// each visited entry is listed again as it needs: on the work list, in
// the ready heap when it may have records to read.
func (f *Fleet) finishRead(t *fetcherThread, sent bool) {
	s := &t.sess
	leo := func(p PartID) int64 { return f.Parts[p].Brokers[t.key.leader].Log.LogEnd }
	for _, v := range s.vis {
		e := &s.ents[v.slot]
		if sent && v.built {
			e.hw, e.lso = v.hw, v.lso
			if v.erred {
				e.hw = -1
			}
			if v.n > 0 {
				s.nextStamp++
				e.stamp, e.heaped = s.nextStamp, false
			}
		}
		e.erred, e.pending = v.erred, v.hw != e.hw || v.lso != e.lso
		if e.stale || e.erred || e.pending {
			s.addWork(v.slot)
		}
		if !e.heaped && !e.erred && e.req.FetchOffset < leo(e.part) {
			s.pushReady(v.slot)
		}
	}
	s.vis = s.vis[:0]
	if len(s.ready) > 2*s.live+64 {
		s.ready = slices.DeleteFunc(s.ready, func(it readyItem) bool { return !s.valid(it) })
		slices.SortFunc(s.ready, func(a, b readyItem) int { return cmp.Compare(a.stamp, b.stamp) })
	}
}

// valid reports whether the ready heap's item it is the entry's current
// one.
func (s *fetchSession) valid(it readyItem) bool {
	e := &s.ents[it.slot]
	return e.live && e.heaped && e.stamp == it.stamp
}

// readyTop returns the ready entry first in the session (-1: none),
// dropping stale heap items.
func (s *fetchSession) readyTop() int32 {
	for len(s.ready) > 0 {
		if it := s.ready[0]; s.valid(it) {
			return it.slot
		}
		s.popItem()
	}
	return -1
}

// popReady takes the first ready entry off the heap.
func (s *fetchSession) popReady() {
	s.ents[s.ready[0].slot].heaped = false
	s.popItem()
}

// pushReady puts entry slot in the ready heap.
func (s *fetchSession) pushReady(slot int32) {
	e := &s.ents[slot]
	e.heaped = true
	s.ready = append(s.ready, readyItem{e.stamp, slot})
	for i := len(s.ready) - 1; i > 0; {
		up := (i - 1) / 2
		if s.ready[up].stamp <= s.ready[i].stamp {
			break
		}
		s.ready[up], s.ready[i] = s.ready[i], s.ready[up]
		i = up
	}
}

// popItem removes the heap's first item.
func (s *fetchSession) popItem() {
	h := s.ready
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < n && h[l].stamp < h[small].stamp {
			small = l
		}
		if r := l + 1; r < n && h[r].stamp < h[small].stamp {
			small = r
		}
		if small == i {
			break
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
	s.ready = h
}

// buildFetch builds thread t's next request (FetchSessionHandler.build):
// full, every ready partition in the thread's order; or incremental, the
// partitions added or altered since the last request and those to
// forget. A partition the follower throttles is not ready
// (RemoteLeaderEndPoint.buildFetch, :185); with follower quotas every
// partition is looked at, as the quota changes with time. It reports
// false when there is nothing to send: no partition in the session and
// none to forget; and whether it left out throttled partitions.
func (f *Fleet) buildFetch(t *fetcherThread, id uint64) (Message, bool, bool) {
	s := &t.sess
	m := Message{Kind: MsgFetch, Part: -1, Fetcher: int16(t.key.fetcher), From: t.key.follower, To: t.key.leader,
		ReqID: id, MaxBytes: f.responseMax(), Full: s.full}
	var ready []PartID
	throttled := false
	if s.full {
		for _, p := range f.orderOf(t) {
			b := f.Parts[p].Brokers[t.key.follower]
			switch {
			case b.fetch.phase != phaseThread:
			case f.followerThrottled(p, t.key.follower):
				throttled = true
				f.unsend(p, b)
			default:
				ready = append(ready, p)
				m.Parts = append(m.Parts, f.fetchState(p, b))
			}
		}
		s.members = len(ready)
	} else {
		if f.quota != nil && f.quota.follower != nil {
			for _, p := range f.orderOf(t) {
				t.markDirty(p)
			}
		}
		for _, p := range f.dirtyInOrder(t) {
			b := f.Parts[p].Brokers[t.key.follower]
			in := f.sessSlot(t, p) >= 0
			on := b.fetch.thread == t.ix+1 && b.fetch.phase == phaseThread
			switch {
			case on && f.followerThrottled(p, t.key.follower):
				throttled = true
				f.unsend(p, b)
				if in {
					m.Forget = append(m.Forget, p)
					s.members--
				}
			case on && b.fetch.reqID == 0:
				ready = append(ready, p)
				if q := f.fetchState(p, b); !in || stateOf(&q) != b.fetch.sent {
					m.Parts = append(m.Parts, q)
				}
				if !in {
					s.members++
				}
			case in && !on:
				m.Forget = append(m.Forget, p)
				s.members--
			}
		}
	}
	if s.members == 0 && len(m.Forget) == 0 {
		return m, false, throttled
	}
	s.full, s.dirty = false, s.dirty[:0]
	for _, p := range ready {
		b := f.at(p, t.key.follower, t.key.follower).Brokers[t.key.follower]
		q := f.fetchState(p, b)
		b.fetch.reqID, b.fetch.sent = id, stateOf(&q)
	}
	return m, true, throttled
}

// unsend has follower b's partition p wait to be sent again: it is out
// of the session (throttled).
func (f *Fleet) unsend(p PartID, b *Broker) {
	if b.fetch.reqID != 0 {
		f.at(p, b.ID, b.ID).Brokers[b.ID].fetch.reqID = 0
	}
}

// fetchState is follower b's fetch state of partition p: what a request
// says of it.
func (f *Fleet) fetchState(p PartID, b *Broker) FetchPart {
	return FetchPart{Part: p, FetchOffset: b.Log.LogEnd, LastFetchedEpoch: b.Log.LatestEpoch(), LeaderEpoch: b.LeaderEpoch,
		MaxBytes: f.Parts[p].Cfg.ReplicaFetchMaxBytes}
}

// partState is what a request says of a partition's fetch state, as the
// follower last sent it (FetchRequest.PartitionData).
type partState struct {
	offset, maxBytes       int64
	lastEpoch, leaderEpoch int32
}

// stateOf returns the fetch state request part q says.
func stateOf(q *FetchPart) partState {
	return partState{q.FetchOffset, q.MaxBytes, q.LastFetchedEpoch, q.LeaderEpoch}
}

// dirtyInOrder returns the thread's dirty partitions once each: those on
// the thread in its order (the order added partitions join the session
// in), then those that left it.
func (f *Fleet) dirtyInOrder(t *fetcherThread) []PartID {
	d := t.sess.dirty
	slices.Sort(d)
	d = slices.Compact(d)
	pos := func(p PartID) uint64 {
		if b := f.Parts[p].Brokers[t.key.follower]; b.fetch.thread == t.ix+1 {
			return b.fetch.pos
		}
		return 1<<64 - 1
	}
	slices.SortStableFunc(d, func(a, b PartID) int { return cmp.Compare(pos(a), pos(b)) })
	return d
}

// markDirty notes that partition p's fetch state on thread t may have
// changed: the next request reconsiders it.
func (t *fetcherThread) markDirty(p PartID) {
	t.sess.dirty = append(t.sess.dirty, p)
}

// checkSession asserts that the thread's session lists each partition at
// most once and that the fleet's index of it agrees.
func (f *Fleet) checkSession(t *fetcherThread) {
	s := &t.sess
	n := 0
	for i := range s.ents {
		if e := &s.ents[i]; e.live {
			n++
			if f.sessSlot(t, e.part) != int32(i) {
				panic(fmt.Sprintf("model: thread b%d<-b%d#%d: session entry %d of partition %d not indexed", t.key.follower,
					t.key.leader, t.key.fetcher, i, e.part))
			}
		}
	}
	if n != s.live {
		panic(fmt.Sprintf("model: thread b%d<-b%d#%d: session of %d entries counts %d", t.key.follower, t.key.leader, t.key.fetcher, n, s.live))
	}
}
