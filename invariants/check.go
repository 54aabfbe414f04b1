package invariants

import (
	"fmt"
	"slices"
	"sort"

	"tierfetch/model"
	"tierfetch/sim"
)

// Check observes c after a step taken at now and returns the first broken
// invariant. now is the caller's time, not c.Now: the cluster's clock is
// the time of its last input, and a step the environment takes alone (a
// network partition ending, a message dropped) moves the run's time but
// gives the cluster no input.
func (k *Checker) Check(c *model.Cluster, now sim.Time) *Violation {
	k.now = now
	k.markReplicas(c)
	k.observe(c)
	if v := k.checkOffsets(c); v != nil {
		return v
	}
	if v := k.checkISR(c); v != nil {
		return v
	}
	if l := c.Leader(); l != nil {
		if v := k.checkLeader(c, l); v != nil {
			return v
		}
	}
	if v := k.checkRemote(c); v != nil {
		return v
	}
	for _, b := range c.Brokers {
		if v := k.checkReplica(c, b); v != nil {
			return v
		}
	}
	k.trimHistory(c)
	return nil
}

// CheckBroker is Check after a step whose only change to the partition
// since the last Check was broker b's HRO (and its fold of the remote
// metadata, which no check reads): every other check reads what it read
// then and answers as it did, so only b's replica check can answer
// differently, and its answer is Check's. Not for a partition whose checks
// are TimeBound: the stale log start check reads the time.
func (k *Checker) CheckBroker(c *model.Cluster, b *model.Broker, now sim.Time) *Violation {
	k.now = now
	k.markReplicas(c)
	return k.checkReplica(c, b)
}

// markReplicas notes, for this step, which brokers are assigned a
// replica: three checks ask it of every broker, and the replica list is
// read once instead of scanned for each.
func (k *Checker) markReplicas(c *model.Cluster) {
	k.replicaMask = 0
	for _, r := range c.Ctrl.Replicas {
		if r >= 0 && r < 64 {
			k.replicaMask |= 1 << uint(r)
		}
	}
}

// isReplica is c.Ctrl.IsReplica(b) after markReplicas(c).
func (k *Checker) isReplica(c *model.Cluster, b int) bool {
	if b >= 0 && b < 64 {
		return k.replicaMask&(1<<uint(b)) != 0
	}
	return c.Ctrl.IsReplica(b)
}

// TrimLazily makes the checker trim its committed history only once the
// history has doubled since the last trim (trimHistory), not at every
// Check: a broker-scale run's checkers, where the trim's look at every
// broker's first local segment and at the remote segment list is, at
// thousands of partitions, a few cache misses a partition a step. Every
// check answers as before (trimHistory says why); the history holds at
// most twice the pieces. Call it before the first Check.
func (k *Checker) TrimLazily() { k.lazyTrim = true }

// HistoryLen is how many pieces the committed history holds (tests).
func (k *Checker) HistoryLen() int { return len(k.history) }

// trimHistory is trim, at every Check, or with TrimLazily only once the
// history holds trimAt pieces (then trimAt is twice what the trim left).
// Trimming later gives the same answers. trim drops the pieces below the
// lowest offset anything holds, and no comparison after it reaches below
// that offset (trim says why): each starts at or above a replica's local
// log start, a leader's, or a remote segment's base, all at or above it.
// So the pieces a lazy checker still keeps there are never read; its
// histStart, lower than trimming would have left it, is only a lower
// bound on where a comparison starts, and each starts where it would
// have, finding the same pieces. (Were that premise, which trimming at
// every Check rests on too, ever false, the lazy checker would compare
// more, never less.) A later trim drops the pieces, and AppendState trims
// first, so the encoded state is what trimming at every Check leaves
// (TestLazyTrimIsEager compares the two, step by step).
func (k *Checker) trimHistory(c *model.Cluster) {
	if k.lazyTrim && len(k.history) < k.trimAt {
		return
	}
	k.trim(c)
	k.trimAt = max(2*len(k.history), minTrimAt)
}

// minTrimAt is the fewest pieces a lazily trimmed history is trimmed at.
const minTrimAt = 16

// trim drops the committed history below the lowest offset anything
// still holds (any broker's log that holds records, any listed remote
// segment): nothing below it can be compared again, since whatever a
// replica or remote storage gets later comes from what is held now. So a
// long run's memory follows what is retained, not the simulated time.
func (k *Checker) trim(c *model.Cluster) {
	low := k.histEnd
	for _, b := range c.Brokers {
		if l := &b.Log; len(l.Segments) > 0 && l.LogEnd > l.Segments[0].Base {
			low = min(low, l.Segments[0].Base)
		}
	}
	if len(c.Remote.Segments) > 0 {
		low = min(low, c.Remote.Segments[0].Base) // sorted by base
	}
	if low <= k.histStart || len(k.history) == 0 || k.history[0].Last() >= low {
		return
	}
	k.hot = model.Batch{} // it may be among the pieces dropped (historyAt)
	j := sort.Search(len(k.history), func(j int) bool { return k.history[j].Last() >= low })
	if j == len(k.history) {
		k.history, k.histStart = nil, k.histEnd // not [:0]: clones may share the array
		return
	}
	k.histStart = max(k.histStart, k.history[j].Base)
	if 2*j >= len(k.history) { // copy, so the dropped prefix is freed
		k.history = append(make([]model.Batch, 0, 2*(len(k.history)-j)), k.history[j:]...)
	} else {
		k.history = k.history[j:]
	}
}

func (k *Checker) checkOffsets(c *model.Cluster) *Violation {
	for _, b := range c.Brokers {
		if !k.isReplica(c, b.ID) {
			continue
		}
		l := &b.Log
		if !(l.LogStart <= l.LocalLogStart && l.LocalLogStart <= l.HighWatermark && l.HighWatermark <= l.LogEnd) {
			return &Violation{Invariant: OffsetOrder, Message: fmt.Sprintf("b%d: want lso <= llso <= hw <= leo, got lso=%d llso=%d hw=%d leo=%d",
				b.ID, l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd)}
		}
		// The local log start offset names data on disk: it lies in the
		// first local segment (or at the log end when that is empty).
		if first := &l.Segments[0]; l.LocalLogStart < first.Base || l.LocalLogStart > first.End+1 {
			return &Violation{Invariant: OffsetOrder, Message: fmt.Sprintf("b%d: llso=%d outside its first local segment [%d..%d]",
				b.ID, l.LocalLogStart, first.Base, first.End)}
		}
	}
	return nil
}

func (k *Checker) checkISR(c *model.Cluster) *Violation {
	for _, r := range c.Ctrl.ISR {
		if !k.isReplica(c, r) {
			return &Violation{Invariant: ISRMembership, Message: fmt.Sprintf("ISR %v holds b%d, not a replica %v", c.Ctrl.ISR, r, c.Ctrl.Replicas)}
		}
	}
	if c.Ctrl.Leader >= 0 && !c.Ctrl.InISR(c.Ctrl.Leader) {
		return &Violation{Invariant: ISRMembership, Message: fmt.Sprintf("leader b%d not in ISR %v", c.Ctrl.Leader, c.Ctrl.ISR)}
	}
	return nil
}

// checkLeader keeps the committed history and checks that the leader holds
// all of it: on a leader change, the records it holds above its HW too.
func (k *Checker) checkLeader(c *model.Cluster, l *model.Broker) *Violation {
	if c.Ctrl.Unclean != k.unclean {
		k.rebase(c, l)
	}
	changed := l.ID != k.leader || l.LeaderEpoch != k.leaderEpoch
	k.leader, k.leaderEpoch = l.ID, l.LeaderEpoch
	if l.Log.LogEnd < k.histEnd {
		return &Violation{Invariant: NoCommittedLoss, Message: fmt.Sprintf("leader b%d (epoch %d) ends at %d but offsets below %d were committed",
			l.ID, l.LeaderEpoch, l.Log.LogEnd, k.histEnd)}
	}
	if changed {
		from := max(l.Log.HighWatermark, l.Log.LocalLogStart, k.histStart)
		if v := k.compareLocal(l, from, k.histEnd, NoCommittedLoss); v != nil {
			return v
		}
	}
	return k.extendHistory(c, l)
}

// compareLocal compares b's local records in [from, to) with the history.
func (k *Checker) compareLocal(b *model.Broker, from, to int64, name string) *Violation {
	pos := &k.cold[b.ID].pos
	for o := from; o < to; {
		bt, ok := batchAt(&b.Log, o, pos)
		if !ok {
			return &Violation{Invariant: name, Message: fmt.Sprintf("b%d lacks committed offset %d (local [%d,%d))", b.ID, o, b.Log.LocalLogStart, b.Log.LogEnd)}
		}
		if at, h := k.agree(bt, o, to); at >= 0 {
			return &Violation{Invariant: name, Message: fmt.Sprintf("b%d offset %d holds %v, committed %v", b.ID, at, bt, h)}
		}
		o = bt.Last() + 1
	}
	return nil
}

// checkRemote checks new remote segments once, the uploaded ranges, and that
// the leader's log has no hole between remote and local.
func (k *Checker) checkRemote(c *model.Cluster) *Violation {
	l := c.Leader()
	if c.Remote.Version != k.remoteVer {
		if v := k.checkSegments(c, l); v != nil {
			return v
		}
	}
	if l == nil {
		// The stale clock stops while no broker leads; forgetting the hole
		// key makes the check run, and the clock start again, when a leader
		// returns, even the same one with the same offsets.
		k.staleSince = -1
		k.holeKey = holeKey{leader: -1}
		return nil
	}
	k.maxLogStart = max(k.maxLogStart, l.Log.LogStart)
	key := holeKey{l.ID, l.Log.LogStart, l.Log.LocalLogStart, c.Remote.Version, c.Tiered()}
	if key != k.holeKey {
		k.holeKey = key
		if v := k.checkHole(c, l); v != nil {
			return v
		}
	}
	return k.checkStaleLogStart(c, l)
}

// checkSegments checks the remote segments after the list changed. A
// segment checkSegment has seen at its present state gives nothing new
// (what it records only grows), so only the segments changed since the
// last look and still listed are looked at (Remote.Changes), in list
// order, as a walk of the whole list would meet them: the same first
// violation, at the cost of the changes. The whole list is walked the
// first time (the initial segments), when the journal does not reach back
// far enough or names more than an eighth of the list (a walk costs no
// more then), and after a walk that stopped at a violation (the segments
// after it were not looked at).
func (k *Checker) checkSegments(c *model.Cluster, l *model.Broker) *Violation {
	r := &c.Remote
	changes, ok := r.Changes(k.remoteVer)
	k.remoteVer = r.Version
	if !ok || !k.remoteWalked || 8*len(changes) > len(r.Segments) || k.fullRemoteWalks {
		k.remoteWalked = true
		for i := range r.Segments {
			if v := k.checkSegment(c, l, &r.Segments[i]); v != nil {
				k.remoteWalked = false
				return v
			}
		}
		return nil
	}
	// By id, a removal last among an id's changes (an id is never used
	// again): the segments still listed, found by id.
	byID := append(k.changeScratch[:0], changes...)
	slices.Sort(byID)
	at := k.segScratch[:0]
	for j, ch := range byID {
		if j+1 < len(byID) && byID[j+1].ID() == ch.ID() || ch.Removed() {
			continue
		}
		if i := r.Find(ch.ID()); i >= 0 {
			at = append(at, i)
		}
	}
	slices.Sort(at)
	k.changeScratch, k.segScratch = byID, at
	for _, i := range at {
		if v := k.checkSegment(c, l, &r.Segments[i]); v != nil {
			k.remoteWalked = false
			return v
		}
	}
	return nil
}

// checkHole checks that [LSO, LLSO) of the leader is covered by finished
// remote segments. A gap below maxLogStart is data deleted on purpose that a
// new leader's lagging log start offset still claims: a stale log start
// offset, timed by checkStaleLogStart. A gap above it is lost data: no-hole
// while tiering is on, no-committed-loss when it is off (nothing may be
// missing from [LSO, LEO) then either).
func (k *Checker) checkHole(c *model.Cluster, l *model.Broker) *Violation {
	pos := coveredFrom(c, l, l.Log.LogStart, l.Log.LocalLogStart)
	if pos < l.Log.LocalLogStart && pos < k.maxLogStart {
		if k.staleSince < 0 {
			k.staleSince = k.now
			k.observeStale(c, true)
		}
		k.f.stalePos = pos
		pos = coveredFrom(c, l, k.maxLogStart, l.Log.LocalLogStart)
	} else {
		k.staleSince = -1
	}
	if pos < l.Log.LocalLogStart {
		v := &Violation{Invariant: NoHole, Message: fmt.Sprintf("leader b%d: offset %d in [lso=%d, llso=%d) is neither local nor remote (hro=%d, tiering %s)",
			l.ID, pos, l.Log.LogStart, l.Log.LocalLogStart, l.HighestRemote, onOff(c.Tiered()))}
		if !c.Tiered() {
			v.Invariant = NoCommittedLoss
		}
		v.Kind = k.holeKind(c, l, pos)
		return v
	}
	return nil
}

// remoteHolds reports whether a remote segment in one of states holds o.
func remoteHolds(c *model.Cluster, o int64, states ...model.RemoteState) bool {
	for i := c.Remote.FirstEndingAtOrAfter(o); i < len(c.Remote.Segments) && c.Remote.Segments[i].Base <= o; i++ {
		s := &c.Remote.Segments[i]
		if s.Base <= o && o <= s.End && slices.Contains(states, s.State) {
			return true
		}
	}
	return false
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// coveredFrom returns the first offset at or after pos, below llso, that the
// leader could not serve from remote storage: no finished segment holds it
// in the leader epoch the leader's own cache gives it (Kafka finds remote
// segments by epoch and offset, so a segment from another lineage, left by
// an unclean election, does not count).
func coveredFrom(c *model.Cluster, l *model.Broker, pos, llso int64) int64 {
	segs := c.Remote.Segments // sorted by base
	first := 0                // segments before it end below pos: skip them for good
	for pos < llso {
		epoch := l.Log.EpochAt(pos)
		next := pos
		for first < len(segs) && segs[first].End < pos {
			first++
		}
		for i := first; i < len(segs) && segs[i].Base <= pos; i++ {
			s := &segs[i]
			if s.State == model.CopyFinished && s.End >= pos && s.EpochAt(pos) == epoch {
				next = max(next, min(s.End, s.HighestOffsetFor(epoch))+1)
			}
		}
		if next == pos {
			return pos
		}
		pos = min(next, epochEnd(&l.Log, epoch, next))
	}
	return pos
}

// epochEnd returns where epoch ends in the log's cache, or limit if later.
func epochEnd(l *model.Log, epoch int32, limit int64) int64 {
	for i, e := range l.Epochs {
		if e.Epoch == epoch && i+1 < len(l.Epochs) {
			return min(limit, l.Epochs[i+1].StartOffset)
		}
	}
	return limit
}

// TimeBound reports whether a check may fail later with no change to the
// partition, only because time passes (the leader's stale log start
// offset): a caller that checks only the partitions a step changed checks
// such a partition after every step.
func (k *Checker) TimeBound() bool { return k.staleSince >= 0 }

// checkStaleLogStart allows a new leader's lagging log start offset until its
// RLM copy task has had its first run with metadata ready (Kafka raises it
// there, KAFKA-15351), and no longer.
func (k *Checker) checkStaleLogStart(c *model.Cluster, l *model.Broker) *Violation {
	if k.staleSince < 0 {
		return nil
	}
	k.observeStale(c, false)
	since := k.staleSince
	if copying(c) {
		since = max(since, k.f.staleCopyingSince) // the copy task runs once copying is on
	}
	grace := c.Cfg.RemoteMetadataReady + c.Cfg.RLMTaskInterval + sim.Second
	if k.now.Sub(since) <= grace {
		return nil
	}
	return &Violation{Invariant: StaleLogStart, Kind: k.staleLogStartKind(c),
		Message: fmt.Sprintf("leader b%d has advertised log start offset %d for %.1fs, but offsets below %d were deleted (llso=%d, no remote data there)",
			l.ID, l.Log.LogStart, float64(k.now.Sub(k.staleSince))/float64(sim.Second), k.maxLogStart, l.Log.LocalLogStart)}
}

func (k *Checker) checkSegment(c *model.Cluster, l *model.Broker, s *model.RemoteSegment) *Violation {
	k.growCheckedSeg(s.ID)
	st := k.checkedSeg[s.ID]
	if st == 0 {
		k.checkedSeg[s.ID] = segSeen
		if l != nil && s.End >= l.Log.HighWatermark {
			return &Violation{Invariant: RemoteCommitted, Message: fmt.Sprintf("remote segment [%d..%d] reaches past leader b%d hw=%d",
				s.Base, s.End, l.ID, l.Log.HighWatermark)}
		}
	}
	if s.State != model.CopyFinished {
		if !inSpans(k.f.unfinished, s.Base) || !inSpans(k.f.unfinished, s.End) {
			k.f.unfinished = addSpan(k.f.unfinished, s.Base, s.End)
		}
		return nil
	}
	if st == segChecked {
		return nil
	}
	k.checkedSeg[s.ID] = segChecked
	if st == segPriorLineage {
		// Listed at an unclean election: the ended lineage's copy. Where the
		// new leader's epochs agree with it, the new history was read from
		// it; elsewhere Kafka does not serve it (RemoteLogManager.read looks
		// a segment up by the epoch the leader's own cache gives the
		// offset), and when every epoch it holds precedes the leader's
		// earliest the expiration task deletes it as unreferenced. It is
		// not compared with the new lineage.
		k.addUploaded(s.Base, s.End)
		return nil
	}
	if s.End >= k.histEnd {
		return &Violation{Invariant: RemoteCommitted, Message: fmt.Sprintf("remote segment [%d..%d] holds uncommitted offsets (committed below %d)",
			s.Base, s.End, k.histEnd)}
	}
	// Only offsets at or above the highest log start offset are compared: a
	// replica may keep divergent records below its leader's log start and
	// upload them once it leads. Kafka's follower truncates to the end
	// offset the leader gives for its last epoch, and a leader whose epoch
	// cache was truncated at its log start (truncateFromStart keeps only
	// the epochs from there on) answers an epoch older than its first with
	// that first entry's start offset (LeaderEpochFileCache.endOffsetFor,
	// LeaderEpochFileCache.java:301-314 and 369-395 in the 2024 snapshot,
	// commit 1eb7644349cb), the log start: the follower keeps what it has
	// below it. Remote storage then holds records no reader can fetch.
	for _, bt := range s.Batches {
		if at, h := k.agree(bt, k.maxLogStart, s.End+1); at >= 0 {
			return &Violation{Invariant: RemoteAgreement, Message: fmt.Sprintf("remote segment [%d..%d] offset %d holds %v, committed %v",
				s.Base, s.End, at, bt, h)}
		}
	}
	k.addUploaded(s.Base, s.End)
	return nil
}
