package model

// onRLMCopy is one run of the leader's RLM copy task: seed HRO from remote
// metadata on the task's first run (KIP-1023), then upload the next
// eligible segment.
func (c *Cluster) onRLMCopy(b *Broker) {
	if b.Role != RoleLeader || !c.Tiered() {
		return
	}
	c.setTimer(b, TimerRLMCopy, 0, c.Cfg.RLMTaskInterval)
	if c.Now < b.MetadataReadyAt {
		c.emit(brokerEv(EvRLMCopySkipped, b.ID))
		return
	}
	copyDisabled := c.Cfg.RemoteLogCopyDisable
	if !b.lead.copySeeded && (!copyDisabled || c.Profile.SeedWhenCopyDisabled()) {
		b.lead.copySeeded = true
		c.maybeSeedHighestRemote(b)
	}
	if !copyDisabled {
		c.maybeUpdateLogStartOnBecomingLeader(b)
		c.maybeUpload(b)
	}
}

// maybeUpdateLogStartOnBecomingLeader raises a new leader's log start offset
// to the first offset remote storage still holds for its earliest epoch, or
// to its local log start offset when remote storage holds none (Kafka's
// findLogStartOffset, KAFKA-15351): a follower's log start offset can lag the
// old leader's, whose data below it may be gone everywhere. Once per task.
func (c *Cluster) maybeUpdateLogStartOnBecomingLeader(b *Broker) {
	if b.lead.logStartChecked {
		return
	}
	b.lead.logStartChecked = true
	start := b.Log.LocalLogStart
	for _, e := range b.Log.Epochs {
		if s, ok := c.Remote.FirstOffsetFor(e.Epoch); ok {
			start = s
			break
		}
	}
	if b.Log.IncrementLogStart(start) {
		e := brokerEv(EvLogStartFromRemote, b.ID)
		e.Offset = b.Log.LogStart
		c.emit(e)
	}
}

// maybeSeedHighestRemote sets the copy task's copied offset from the
// remote metadata (Kafka's maybeUpdateCopiedOffset) and raises HRO to it.
func (c *Cluster) maybeSeedHighestRemote(b *Broker) {
	h := c.Remote.FindHighestRemoteOffset(&b.Log, c.Mutants.Has(MutantHROWithoutEpochEnd))
	b.lead.copiedOffset = h
	if !c.Mutants.Has(MutantHROOnlyFromUpload) {
		c.raiseHighestRemote(b, h)
	}
}

// raiseHighestRemote raises b's HRO to h; HRO never goes down.
func (c *Cluster) raiseHighestRemote(b *Broker, h int64) bool {
	if h <= b.HighestRemote {
		return false
	}
	e := brokerEv(EvHighestRemote, b.ID)
	e.Offset, e.End = h, b.HighestRemote
	c.emit(e)
	b.HighestRemote = h
	return true
}

// maybeUpload starts uploading the first inactive segment past HRO whose
// next segment starts at or below the last stable offset (= HW here).
func (c *Cluster) maybeUpload(b *Broker) bool {
	if b.lead.uploading != 0 || !b.lead.copySeeded {
		return false
	}
	l := &b.Log
	from := max(b.lead.copiedOffset+1, l.LocalLogStart)
	for i := 0; i+1 < len(l.Segments); i++ {
		seg := &l.Segments[i]
		if seg.End < from || seg.Bytes == 0 {
			continue
		}
		if l.Segments[i+1].Base > l.HighWatermark && !c.Mutants.Has(MutantUploadAboveHW) {
			return false
		}
		rs := RemoteSegment{Base: seg.Base, End: seg.End, Bytes: seg.Bytes, MaxTsMs: seg.MaxTsMs,
			Epochs: segmentEpochs(seg), Batches: seg.Batches, Checkpt: l.EpochsUpTo(seg.End), Snapshot: seg.Snapshot}
		id := c.Remote.Start(rs)
		b.lead.uploadSeg = id
		b.lead.uploading = c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteUpload, Segment: id, Bytes: seg.Bytes})
		e := brokerEv(EvUploadStart, b.ID)
		e.Segment = SegmentRef{ID: id, Base: seg.Base, End: seg.End, Bytes: seg.Bytes}
		c.emit(e)
		return true
	}
	return false
}

func segmentEpochs(seg *Segment) []EpochEntry {
	var out []EpochEntry
	for _, bt := range seg.Batches {
		if n := len(out); n == 0 || out[n-1].Epoch != bt.Epoch {
			out = append(out, EpochEntry{Epoch: bt.Epoch, StartOffset: bt.Base})
		}
	}
	return out
}

func (c *Cluster) onUploadDone(b *Broker, op RemoteOp, failed bool) {
	if !b.Up || b.Role != RoleLeader || b.lead.uploading != op.ID {
		// Leadership or the broker was lost meanwhile: the copy is abandoned.
		if i := c.Remote.Find(op.Segment); i >= 0 && c.Remote.Segments[i].State == CopyStarted {
			c.Remote.Remove(op.Segment)
		}
		c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: op.Segment}, Cause: UploadAbandoned})
		return
	}
	b.lead.uploading = 0
	if i := c.Remote.Find(op.Segment); i < 0 || c.Remote.Segments[i].State != CopyStarted {
		// The segment was deleted as unreferenced while it was copied (the
		// unreferenced deletion, unlike the walk, does not skip a segment
		// being copied): the copy does not count.
		c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: op.Segment}, Cause: UploadAbandoned})
		return
	}
	if failed {
		c.Remote.Remove(op.Segment)
		c.reached(GoalUploadFailed)
		c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: op.Segment}, Cause: UploadFailed})
		return
	}
	c.Remote.SetState(op.Segment, CopyFinished)
	seg := c.Remote.Segments[c.Remote.Find(op.Segment)]
	b.lead.copiedOffset = max(b.lead.copiedOffset, seg.End)
	c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: seg.ID, Base: seg.Base, End: seg.End, Bytes: seg.Bytes},
		Cause: UploadDone})
	c.raiseHighestRemote(b, seg.End)
	c.maybeUpload(b)
}

// onRLMExpire is one run of the leader's RLM expiration task (Kafka's
// RLMExpirationTask.cleanupExpiredRemoteLogSegments,
// RemoteLogManager.java:1426-1593 @025293cb). It walks the leader's epochs from the oldest and, for each,
// the remote segments holding that epoch (listRemoteLogSegments(tp, epoch),
// 1475-1526): a segment wholly below the log start offset whose epochs are
// all at or before the leader's first epoch is deleted
// (isSegmentBreachByLogStartOffset); otherwise a segment within the
// leader's epoch lineage (isRemoteSegmentWithinLeaderEpochs) is deleted
// when past retention.ms or retention.bytes, raising the log start offset
// past it first (KAFKA-15352), and the walk stops at the first one kept; a
// segment outside the lineage is skipped. Segments whose deletion started
// but did not finish are deleted again (Kafka retries dangling
// DELETE_SEGMENT_STARTED segments on every run); a copy still in flight
// stops the walk, a copy that was abandoned is deleted once it lies below
// the log start offset. Last, the segments whose epochs all precede the
// leader's earliest epoch (an ended lineage, after an unclean election)
// are deleted as unreferenced without moving the log start offset
// (1555-1592).
func (c *Cluster) onRLMExpire(b *Broker) {
	if b.Role != RoleLeader || !c.Tiered() {
		return
	}
	c.setTimer(b, TimerRLMExpire, 0, c.Cfg.RLMTaskInterval)
	if c.Now < b.MetadataReadyAt {
		return
	}
	if c.Profile.ExpirationSeedsHighestRemote() {
		c.maybeSeedHighestRemoteOnExpiration(b)
	}
	// Kafka reads the log start offset and the epoch cache (its epochs with
	// records) once, before the walk; raising the log start offset gives
	// l.Epochs a new slice (truncateEpochsFromStart), so epochs keeps the
	// cache the walk began with.
	l := &b.Log
	epochs, logStart := filteredEpochs(l.Epochs), l.LogStart
	w := expireWalk{remaining: c.retentionBreach(b), nowMs: c.Now.Ms()}
	for _, e := range epochs {
		for i := 0; i < len(c.Remote.Segments) && !w.stop; i++ {
			if s := &c.Remote.Segments[i]; s.holdsEpoch(e.Epoch) {
				c.expireSegment(b, s, epochs, logStart, &w)
			}
		}
		if w.stop {
			break
		}
	}
	c.deleteUnreferenced(b)
}

// expireWalk is the state of one expiration run's walk: the bytes still
// over retention.bytes (Kafka's remainingBreachedSize), the clock and
// whether the walk stopped.
type expireWalk struct {
	remaining int64
	nowMs     int64
	stop      bool
}

// expireSegment is one step of the expiration walk over segment s, listed
// under one of epochs (the leader's cache when the run began).
func (c *Cluster) expireSegment(b *Broker, s *RemoteSegment, epochs []EpochEntry, logStart int64, w *expireWalk) {
	switch {
	case s.State == DeleteStarted:
		if !s.deleting {
			c.emit(Event{Kind: EvRemoteDeleteRetry, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: s.ID, Base: s.Base, End: s.End, Bytes: s.Bytes}})
			c.startRemoteDelete(b, s)
		}
		return
	case s.State == CopyStarted && b.lead.uploading != 0 && s.ID == b.lead.uploadSeg:
		w.stop = true // Kafka stops the walk at a segment being copied
		return
	case s.State == CopyStarted && s.End >= logStart:
		return
	}
	l := &b.Log
	below := s.End < logStart && s.epochsAtMost(epochs[0].Epoch)
	valid, byTime, bySize := false, false, false
	if !below {
		valid = withinLineage(s, l.LogEnd, epochs)
		if valid {
			byTime = c.Cfg.RetentionMs >= 0 && w.nowMs >= c.Cfg.RetentionMs && s.MaxTsMs < w.nowMs-c.Cfg.RetentionMs
			bySize = !byTime && w.remaining > 0 && w.remaining-s.Bytes >= 0
		}
	}
	if !below && !byTime && !bySize {
		w.stop = valid // a segment of the lineage that is kept ends the walk
		return
	}
	if s.End >= l.HighWatermark {
		w.stop = true
		return
	}
	switch {
	case byTime:
		w.remaining = max(0, w.remaining-s.Bytes)
	case bySize:
		w.remaining -= s.Bytes
	case s.State == CopyFinished:
		// Not Kafka's: its remainingBreachedSize keeps the bytes of a
		// segment deleted below the log start offset, so the same run can
		// delete a segment above it by size (seed 3753). The model still
		// subtracts them, as it did before the lineage rules; see FINDINGS.md.
		w.remaining = max(0, w.remaining-s.Bytes)
	}
	if byTime || bySize {
		c.reached(GoalRemoteRetention)
		if !c.Mutants.Has(MutantLSOAfterRemoteDelete) {
			l.IncrementLogStart(s.End + 1)
		}
	}
	c.expire(b, s)
}

// expire marks s DELETE_SEGMENT_STARTED and deletes it.
func (c *Cluster) expire(b *Broker, s *RemoteSegment) {
	s.uncopied = s.State == CopyStarted
	s.State = DeleteStarted
	c.Remote.Version++
	c.emit(Event{Kind: EvRemoteExpire, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: s.ID, Base: s.Base, End: s.End, Bytes: s.Bytes},
		Offset: b.Log.LogStart})
	c.startRemoteDelete(b, s)
}

// deleteUnreferenced deletes the remote segments whose epochs all precede
// the leader's earliest epoch, which an unclean election leaves behind, and
// leaves the log start offset alone (Kafka's
// deleteLogSegmentsDueToLeaderEpochCacheTruncation, RemoteLogManager.java:1555-1592
// @025293cb, run after the walk on the cache as the walk left it). A segment
// holding an older and a later epoch is listed but kept.
func (c *Cluster) deleteUnreferenced(b *Broker) {
	if len(b.Log.Epochs) == 0 {
		return
	}
	earliest := b.Log.Epochs[0].Epoch
	for i := range c.Remote.Segments {
		s := &c.Remote.Segments[i]
		if len(s.Epochs) == 0 || s.Epochs[0].Epoch >= earliest || !s.epochsAtMost(earliest-1) {
			continue
		}
		if s.State == DeleteStarted {
			if !s.deleting {
				c.emit(Event{Kind: EvRemoteDeleteRetry, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: s.ID, Base: s.Base, End: s.End, Bytes: s.Bytes}})
				c.startRemoteDelete(b, s)
			}
			continue
		}
		c.expire(b, s)
	}
}

// retentionBreach is the number of bytes the partition exceeds
// retention.bytes by, 0 when it does not (Kafka's
// RLMExpirationTask.buildRetentionSizeData, RemoteLogManager.java @025293cb): the local segments not yet
// uploaded plus the finished remote segments; when that exceeds the limit,
// only the finished segments within the leader's epoch lineage count,
// until one run finds them all within it.
func (c *Cluster) retentionBreach(b *Broker) int64 {
	limit := c.Cfg.RetentionBytes
	if limit < 0 {
		return 0
	}
	local, finished := c.localOnlyBytes(b), c.Remote.Bytes()
	if local+finished <= limit {
		return 0
	}
	remote := finished
	if !b.lead.allSegmentsValid {
		l := &b.Log
		epochs := filteredEpochs(l.Epochs)
		var valid int64
		all := true
		for i := range c.Remote.Segments {
			s := &c.Remote.Segments[i]
			if s.State != CopyFinished || !s.holdsAnyEpochOf(epochs) {
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

// startRemoteDelete deletes segment s from remote storage.
func (c *Cluster) startRemoteDelete(b *Broker, s *RemoteSegment) {
	s.deleting = true
	c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteDelete, Segment: s.ID})
}

// maybeSeedHighestRemoteOnExpiration seeds an unknown HRO from the remote
// metadata on an expiration-task run that lists at least one segment
// (KAFKA-20732, in trunk and 4.3.2: RemoteLogManager's
// maybeSeedHighestOffsetInRemoteStorage).
func (c *Cluster) maybeSeedHighestRemoteOnExpiration(b *Broker) {
	if b.HighestRemote != -1 || len(c.Remote.Segments) == 0 {
		return
	}
	if h := c.Remote.FindHighestRemoteOffset(&b.Log, c.Mutants.Has(MutantHROWithoutEpochEnd)); h >= 0 &&
		!c.Mutants.Has(MutantHROOnlyFromUpload) {
		c.emit(brokerEv(EvExpirationSeedsHRO, b.ID))
		c.raiseHighestRemote(b, h)
	}
}

// localOnlyBytes is the size of local segments not yet in remote storage.
func (c *Cluster) localOnlyBytes(b *Broker) int64 {
	var n int64
	for _, s := range b.Log.Segments {
		if s.End > b.HighestRemote {
			n += s.Bytes
		}
	}
	return n
}

func (c *Cluster) onRemoteDeleteDone(op RemoteOp, failed bool) {
	i := c.Remote.Find(op.Segment)
	if i < 0 {
		return
	}
	if failed {
		// The metadata stays DELETE_SEGMENT_STARTED: the segment is no
		// longer readable, and the next expiration run deletes it again.
		c.Remote.Segments[i].deleting = false
		return
	}
	if c.Mutants.Has(MutantLSOAfterRemoteDelete) {
		if l := c.Leader(); l != nil {
			l.Log.IncrementLogStart(c.Remote.Segments[i].End + 1)
		}
	}
	c.Remote.Remove(op.Segment)
	c.emit(Event{Kind: EvRemoteDeleted, Broker: -1, Peer: -1, Segment: SegmentRef{ID: op.Segment}})
}

// onRLMFollower refreshes a follower's HRO from the remote metadata.
func (c *Cluster) onRLMFollower(b *Broker) {
	if b.Role != RoleFollower || !c.Tiered() {
		return
	}
	c.setTimer(b, TimerRLMFollower, 0, c.Cfg.RLMTaskInterval)
	if c.Now >= b.MetadataReadyAt {
		c.raiseHighestRemote(b, c.Remote.FindHighestRemoteOffset(&b.Log, c.Mutants.Has(MutantHROWithoutEpochEnd)))
	}
}

// onRetentionCheck applies local retention (Kafka's
// UnifiedLog.deletableSegments and deleteSegments): with copying on, a
// segment goes only once it is uploaded (or below the log start offset) and
// the local log start offset moves first; otherwise retention.* applies and
// the log start offset moves with it. Only segments wholly below HW go. A
// tiered partition's active segment that breaches retention is rolled
// (KAFKA-15047), so that it is uploaded and deleted like any other: an idle
// tiered partition ends fully tiered. An active segment that may go (copying
// off, or already uploaded) goes too, behind a new empty one.
func (c *Cluster) onRetentionCheck(b *Broker) {
	if b.Role == RoleNone {
		return
	}
	c.setTimer(b, TimerRetention, 0, c.Cfg.RetentionCheckInterval)
	l := &b.Log
	newStart, localOnly, roll := c.deletableSegments(b)
	if roll {
		a := l.active()
		c.emit(Event{Kind: EvRollForRetention, Broker: b.ID, Peer: -1, Segment: SegmentRef{Base: a.Base, End: a.End, Bytes: a.Bytes}})
		l.roll()
	}
	if newStart < 0 {
		return
	}
	switch {
	case localOnly && c.Mutants.Has(MutantLLSOAfterLocalDelete):
		l.DropSegmentsBelow(newStart) // the offset is left behind
	case localOnly:
		l.IncrementLocalLogStart(newStart)
	default:
		l.IncrementLogStart(newStart)
	}
	e := brokerEv(EvLocalRetention, b.ID)
	e.Log = OffsetsOf(l)
	c.emit(e)
	if b.Role == RoleLeader && c.Tiered() && l.Empty() && l.LogEnd > l.LogStart && b.HighestRemote == l.LogEnd-1 {
		c.reached(GoalIdleFullyTieredByRetention)
	}
}

// deletableSegments walks the local segments from the oldest while they
// breach retention and may go, and returns the new local log start offset
// (-1: none goes), whether only the local log start offset moves, and
// whether the active segment must roll.
func (c *Cluster) deletableSegments(b *Broker) (newStart int64, localOnly, roll bool) {
	l := &b.Log
	copying := c.Tiered() && !c.Cfg.RemoteLogCopyDisable
	limitBytes, limitMs := c.Cfg.RetentionBytes, c.Cfg.RetentionMs
	if copying {
		if c.Cfg.LocalRetentionBytes != -2 {
			limitBytes = c.Cfg.LocalRetentionBytes
		}
		if c.Cfg.LocalRetentionMs != -2 {
			limitMs = c.Cfg.LocalRetentionMs
		}
	}
	size := l.LocalBytes()
	nowMs := c.Now.Ms()
	// Kafka moves only the local log start offset when copying is on
	// (remoteLogEnabledAndRemoteCopyEnabled), else the log start offset
	// (maybeIncrementLogStartOffset, which raises the local one with it):
	// with copying disabled local retention is the log's retention.
	newStart, localOnly = -1, copying
	for i := range l.Segments {
		s := &l.Segments[i]
		active := i == len(l.Segments)-1
		upper := l.LogEnd // the segment's end + 1, as Kafka's upperBoundOffset
		if !active {
			upper = l.Segments[i+1].Base
		}
		breach := upper <= l.HighWatermark &&
			((limitMs >= 0 && s.MaxTsMs < nowMs-limitMs) || (limitBytes >= 0 && size-s.Bytes >= limitBytes))
		if breach && active && s.Bytes > 0 && c.Tiered() {
			roll = true
		}
		uploaded := upper-1 <= b.HighestRemote || (!active && upper <= l.LogStart) || c.Mutants.Has(MutantRetentionBeforeUpload)
		if !breach || (active && s.Bytes == 0) || (copying && !uploaded) {
			break
		}
		size -= s.Bytes
		newStart = upper
		if active {
			roll = true // a new empty active segment first: a log keeps one
		}
	}
	return newStart, localOnly, roll
}

// holdsEpoch reports whether epoch begins within s (s is listed under it:
// RemoteLogMetadataCache.listRemoteLogSegments(tp, epoch)).
func (s *RemoteSegment) holdsEpoch(epoch int32) bool {
	for _, e := range s.Epochs {
		if e.Epoch == epoch {
			return true
		}
	}
	return false
}

// holdsAnyEpochOf reports whether s is listed under one of epochs.
func (s *RemoteSegment) holdsAnyEpochOf(epochs []EpochEntry) bool {
	for _, e := range epochs {
		if s.holdsEpoch(e.Epoch) {
			return true
		}
	}
	return false
}

// epochsAtMost reports whether every epoch of s is at most epoch.
func (s *RemoteSegment) epochsAtMost(epoch int32) bool {
	for _, e := range s.Epochs {
		if e.Epoch > epoch {
			return false
		}
	}
	return true
}

// filteredEpochs drops the epochs that hold no record (an entry starting
// where the next one does), as Kafka's buildFilteredLeaderEpochMap
// (RemoteLogManager.java @025293cb); it returns epochs itself when
// none is dropped.
func filteredEpochs(epochs []EpochEntry) []EpochEntry {
	for i := 0; i+1 < len(epochs); i++ {
		if epochs[i].StartOffset == epochs[i+1].StartOffset {
			out := append([]EpochEntry(nil), epochs[:i]...)
			for j := i; j < len(epochs); j++ {
				if j+1 == len(epochs) || epochs[j].StartOffset != epochs[j+1].StartOffset {
					out = append(out, epochs[j])
				}
			}
			return out
		}
	}
	return epochs
}

// withinLineage reports whether remote segment s lies within the leader
// epoch lineage leader of a log ending at logEnd (Kafka's
// isRemoteSegmentWithinLeaderEpochs, RemoteLogManager.java @025293cb): its last epoch is within the leader's range; from its first
// epoch at or after the leader's first, every epoch is the leader's, starts
// no earlier than the leader's (but the leader's first), is followed by the
// leader's next epoch at the same offset, and the last ends before the
// leader's next epoch; and s ends below logEnd.
func withinLineage(s *RemoteSegment, logEnd int64, leader []EpochEntry) bool {
	seg, leader := filteredEpochs(s.Epochs), filteredEpochs(leader)
	if len(seg) == 0 || len(leader) == 0 {
		return false
	}
	segLast := seg[len(seg)-1].Epoch
	if segLast < leader[0].Epoch || segLast > leader[len(leader)-1].Epoch {
		return false
	}
	j := 0
	for seg[j].Epoch < leader[0].Epoch {
		j++
	}
	li := 0
	for k := j; k < len(seg); k++ {
		e := seg[k]
		for li < len(leader) && leader[li].Epoch < e.Epoch {
			li++
		}
		if li == len(leader) || leader[li].Epoch != e.Epoch {
			return false
		}
		if k == j && li > 0 && e.StartOffset < leader[li].StartOffset {
			return false
		}
		if k == len(seg)-1 {
			if li+1 < len(leader) && s.End > leader[li+1].StartOffset-1 {
				return false
			}
		} else if leader[li+1] != seg[k+1] {
			return false
		}
	}
	return s.End < logEnd
}
