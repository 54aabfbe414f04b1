package model

import "slices"

// onRLMExpire begins one run of the leader's RLM expiration task (Kafka's
// RLMExpirationTask.cleanupExpiredRemoteLogSegments,
// RemoteLogManager.java:1426-1593 @025293cb; 4.3's version of the file at
// c4342d76 reads the same but for KAFKA-20732's seeding). With no segment
// listed the run ends there (1441-1448). Otherwise it walks the leader's
// epochs (expirationWalk), raises the log start offset past what it
// deletes by time or size before deleting anything (1529), then deletes
// the segments one at a time (1542-1550) and last the segments of epochs
// that all precede the leader's earliest (1555-1592). The whole run is
// abandoned when the new log start offset would pass HW (the log start
// update throws OffsetOutOfRangeException: UnifiedLog.java:1338-1341
// @004b2276) or a remote deletion fails (deleteRemoteLogSegment rethrows,
// 1716-1723). The task runs again remote_log_manager_task_interval_ms after
// a run ends (scheduleWithFixedDelay, 2191). Under every profile: KIP-405
// states retention's goal, not this task's steps, so Kafka's task is the
// protocol; only what seeds HRO here is the profile's.
func (c *Cluster) onRLMExpire(b *Broker) {
	if b.Role != RoleLeader || !c.Tiered() {
		return
	}
	r := c.view(b)
	if c.Now < b.MetadataReadyAt {
		c.endExpiration(b)
		return
	}
	if c.Cfg.Fixes.Has(FixStaleLogStartCopyDisabled) {
		// The copy task's KAFKA-15351 step, from this task too: it runs
		// with copying disabled.
		c.maybeUpdateLogStartOnBecomingLeader(b)
	}
	// The KIP text has the leader know its HRO whatever copying is; with no
	// copy task the model lets this task seed it, listed segments or not.
	if c.Cfg.RemoteLogCopyDisable && c.Profile.SeedWhenCopyDisabled() && !b.lead.copySeeded {
		b.lead.copySeeded = true
		c.maybeSeedHighestRemote(b)
	}
	if len(r.Segments) == 0 {
		c.endExpiration(b)
		return
	}
	if c.ExpirationSeedsHighestRemote() {
		c.maybeSeedHighestRemoteOnExpiration(b)
	}
	remoteEpochs := listedEpochs(r)
	w := c.expirationWalk(b)
	if w.logStart > b.Log.HighWatermark {
		e := brokerEv(EvExpirationAborted, b.ID)
		e.LogStart, e.End = w.logStart, b.Log.HighWatermark
		c.emit(e)
		c.endExpiration(b)
		return
	}
	if w.logStart >= 0 && !c.Cfg.Mutants.Has(MutantLSOAfterRemoteDelete) {
		b.Log.IncrementLogStart(w.logStart)
	}
	b.lead.expiring, b.lead.remoteEpochs, b.lead.unrefPending = w.ids, remoteEpochs, true
	c.continueExpiration(b)
}

// expireWalk is the state of one expiration run's walk: the bytes still
// over retention.bytes (Kafka's remainingBreachedSize), the clock, whether
// the walk stopped, the segments to delete in order and the log start
// offset past the last one deleted by time or size (-1: none).
type expireWalk struct {
	remaining int64
	nowMs     int64
	stop      bool
	ids       []uint64
	picked    map[uint64]bool
	logStart  int64
}

func (w *expireWalk) add(id uint64) {
	if w.picked[id] {
		return
	}
	w.picked[id] = true
	w.ids = append(w.ids, id)
}

// expirationWalk walks the leader's epochs from the oldest (its cache when
// the run began, epochs with no records left out) and, for each, the
// remote segments listed under it (RemoteLogManager.java:1473-1526
// @025293cb), deciding each with expireSegment until one stops the walk.
func (c *Cluster) expirationWalk(b *Broker) expireWalk {
	r := c.view(b)
	epochs, logStart := filteredEpochs(b.Log.Epochs), b.Log.LogStart
	w := expireWalk{remaining: c.retentionBreach(b), nowMs: c.Now.Ms(), picked: map[uint64]bool{}, logStart: -1}
	for _, e := range epochs {
		for i := 0; i < len(r.Segments) && !w.stop; i++ {
			if s := &r.Segments[i]; s.listedUnder(e.Epoch) {
				c.expireSegment(b, s, epochs, logStart, &w)
			}
		}
		if w.stop {
			break
		}
	}
	return w
}

// expireSegment is one step of the walk over segment s, listed under one of
// epochs. A segment this broker is copying stops the walk; one whose
// deletion started is deleted again (a failed deletion is retried); one
// wholly below the log start offset whose epochs all precede the leader's
// first is deleted (isSegmentBreachByLogStartOffset, 1321-1338), leaving
// the size to delete alone; otherwise one within the leader's lineage
// (isRemoteSegmentWithinLeaderEpochs) is deleted past retention.ms, which
// takes its bytes off the size to delete, or when the size to delete still
// covers it (1279-1319). A segment of the lineage that is kept stops the
// walk. A copy another broker started and never finished is judged as any
// other segment.
func (c *Cluster) expireSegment(b *Broker, s *RemoteSegment, epochs []EpochEntry, logStart int64, w *expireWalk) {
	switch {
	case s.State == CopyStarted && b.copying(s.ID):
		w.stop = true
		return
	case s.State == DeleteStarted:
		w.add(s.ID)
		return
	case w.picked[s.ID]:
		return
	}
	below := s.End < logStart && s.epochsAtMost(epochs[0].Epoch)
	valid, byTime, bySize := false, false, false
	if !below {
		valid = withinLineage(s, b.Log.LogEnd, epochs)
		if valid {
			byTime = c.Cfg.RetentionMs >= 0 && w.nowMs >= c.Cfg.RetentionMs && s.MaxTsMs < w.nowMs-c.Cfg.RetentionMs
			bySize = !byTime && w.remaining > 0 && w.remaining-s.Bytes >= 0
		}
	}
	switch {
	case byTime:
		w.remaining = max(0, w.remaining-s.Bytes)
	case bySize:
		w.remaining -= s.Bytes
	}
	if byTime || bySize {
		c.reached(GoalRemoteRetention)
		w.logStart = max(w.logStart, s.End+1)
	}
	if below || byTime || bySize {
		w.add(s.ID)
		return
	}
	w.stop = valid
}

// continueExpiration deletes the next segment of the run under way, or,
// once they are all gone, lists the segments of the epochs that precede the
// leader's earliest (deleteLogSegmentsDueToLeaderEpochCacheTruncation,
// 1555-1592: the epochs remote storage held when the run began, the
// segments listed under them now, those whose epochs all precede it) and
// deletes them; last it ends the run.
func (c *Cluster) continueExpiration(b *Broker) {
	for {
		for len(b.lead.expiring) > 0 {
			id := b.lead.expiring[0]
			b.lead.expiring = b.lead.expiring[1:]
			if c.Remote.Find(id) >= 0 {
				c.deleteRemoteLogSegment(b, id)
				return
			}
		}
		if !b.lead.unrefPending {
			c.endExpiration(b)
			return
		}
		b.lead.unrefPending = false
		b.lead.expiring = c.unreferencedSegments(b)
	}
}

// endExpiration ends a run and schedules the next.
func (c *Cluster) endExpiration(b *Broker) {
	b.lead.expiring, b.lead.remoteEpochs, b.lead.unrefPending = nil, nil, false
	c.setTimer(b, TimerRLMExpire, 0, c.Cfg.RLMTaskInterval)
}

// unreferencedSegments returns the segments the run deletes as unreferenced:
// those listed under an epoch remote storage held when the run began that
// precedes the leader's earliest epoch, whose epochs all precede it.
func (c *Cluster) unreferencedSegments(b *Broker) []uint64 {
	if len(b.Log.Epochs) == 0 {
		return nil
	}
	r, earliest := c.view(b), b.Log.Epochs[0].Epoch
	var out []uint64
	for _, e := range b.lead.remoteEpochs {
		if e >= earliest {
			break
		}
		for i := range r.Segments {
			if s := &r.Segments[i]; s.listedUnder(e) && s.epochsAtMost(earliest-1) && !slices.Contains(out, s.ID) {
				out = append(out, s.ID)
			}
		}
	}
	return out
}

// listedEpochs returns the epochs of every segment r lists, sorted.
func listedEpochs(r *Remote) []int32 {
	var out []int32 // few: a partition has few leader epochs
	for i := range r.Segments {
		for _, e := range r.Segments[i].Epochs {
			if j, found := slices.BinarySearch(out, e.Epoch); !found {
				out = slices.Insert(out, j, e.Epoch)
			}
		}
	}
	return out
}

// deleteRemoteLogSegment publishes DELETE_SEGMENT_STARTED for segment id
// and deletes it from remote storage (RemoteLogManager.java:1697-1731
// @025293cb); DELETE_SEGMENT_FINISHED follows when the deletion succeeds.
func (c *Cluster) deleteRemoteLogSegment(b *Broker, id uint64) {
	s := &c.Remote.Segments[c.Remote.Find(id)]
	kind := EvRemoteExpire
	if s.State == DeleteStarted {
		kind = EvRemoteDeleteRetry
	}
	c.publish(b, metaDeleteStarted, RemoteSegment{ID: id})
	s = &c.Remote.Segments[c.Remote.Find(id)]
	e := Event{Kind: kind, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: s.ID, Base: s.Base, End: s.End, Bytes: s.Bytes}}
	if kind == EvRemoteExpire {
		e.LogStart = b.Log.LogStart
	}
	c.emit(e)
	op := c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteDelete, Segment: id})
	b.lead.deleteOp = op
	b.deleteOps = append(b.deleteOps, op)
}

// onRemoteDeleteDone ends a remote deletion. Its broker publishes
// DELETE_SEGMENT_FINISHED (whether it still leads or not: nothing checks);
// a failed deletion leaves the segment DELETE_SEGMENT_STARTED, dangling,
// and abandons the rest of the expiration run it belongs to. A broker that
// died meanwhile publishes nothing.
func (c *Cluster) onRemoteDeleteDone(op RemoteOp, failed bool) {
	b := c.Brokers[op.Broker]
	k := slices.Index(b.deleteOps, op.ID)
	if !b.Up || k < 0 {
		return
	}
	b.deleteOps = slices.Delete(b.deleteOps, k, k+1)
	chain := b.Role == RoleLeader && b.lead.deleteOp == op.ID
	if chain {
		b.lead.deleteOp = 0
	}
	if failed {
		if chain {
			e := brokerEv(EvExpirationAborted, b.ID)
			e.Segment = SegmentRef{ID: op.Segment}
			c.emit(e)
			c.endExpiration(b)
		}
		return
	}
	if c.Cfg.Mutants.Has(MutantLSOAfterRemoteDelete) {
		if i := c.Remote.Find(op.Segment); i >= 0 && b.Role == RoleLeader {
			b.Log.IncrementLogStart(c.Remote.Segments[i].End + 1)
		}
	}
	if c.Remote.Find(op.Segment) >= 0 {
		c.publish(b, metaDeleteFinished, RemoteSegment{ID: op.Segment})
		c.emit(Event{Kind: EvRemoteDeleted, Broker: -1, Peer: -1, Segment: SegmentRef{ID: op.Segment}})
	}
	if chain {
		c.continueExpiration(b)
	}
}

// retentionBreach is the number of bytes the partition exceeds
// retention.bytes by, 0 when it does not (Kafka's
// RLMExpirationTask.buildRetentionSizeData, RemoteLogManager.java:1614-1679
// @025293cb): the local segments not yet uploaded plus the finished remote
// segments (localOnlyBytes); when that exceeds the limit, only the finished
// segments within the leader's epoch lineage count, until one run finds
// them all within it.
func (c *Cluster) retentionBreach(b *Broker) int64 {
	limit := c.Cfg.RetentionBytes
	if limit < 0 {
		return 0
	}
	r := c.view(b)
	local, finished := c.localOnlyBytes(b), r.Bytes()
	if local+finished <= limit {
		return 0
	}
	remote := finished
	if !b.lead.allSegmentsValid {
		l := &b.Log
		epochs := filteredEpochs(l.Epochs)
		var valid int64
		all := true
		for i := range r.Segments {
			s := &r.Segments[i]
			if s.State != CopyFinished || !s.listedUnderAnyOf(epochs) {
				continue // not listed under the leader's epochs
			}
			if withinLineage(s, l.LogEnd, epochs) {
				valid += s.Bytes
			} else {
				all = false
			}
		}
		b.lead.allSegmentsValid = all && valid == finished
		remote = valid
	}
	return max(0, local+remote-limit)
}

// maybeSeedHighestRemoteOnExpiration seeds an unknown HRO from the remote
// metadata on an expiration-task run that lists at least one segment
// (KAFKA-20732, in trunk and the 4.3 branch: RemoteLogManager's
// maybeSeedHighestOffsetInRemoteStorage, RemoteLogManager.java:1414-1421
// @025293cb).
func (c *Cluster) maybeSeedHighestRemoteOnExpiration(b *Broker) {
	if b.HighestRemote != -1 {
		return
	}
	if h := c.view(b).FindHighestRemoteOffset(&b.Log, c.Cfg.Mutants.Has(MutantHROWithoutEpochEnd)); h >= 0 &&
		!c.Cfg.Mutants.Has(MutantHROOnlyFromUpload) {
		c.emit(brokerEv(EvExpirationSeedsHRO, b.ID))
		c.raiseHighestRemote(b, h)
	}
}
