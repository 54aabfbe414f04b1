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
		c.notef("b%d rlm-copy skipped: remote metadata not ready", b.ID)
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
		c.notef("b%d raises log start offset to %d from remote metadata", b.ID, b.Log.LogStart)
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
	c.notef("b%d highest remote offset %d (was %d)", b.ID, h, b.HighestRemote)
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
		c.notef("b%d uploads segment [%d..%d] (%d bytes)", b.ID, seg.Base, seg.End, seg.Bytes)
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
		return
	}
	b.lead.uploading = 0
	if failed {
		c.Remote.Remove(op.Segment)
		c.reached(GoalUploadFailed)
		c.notef("b%d upload of remote segment %d failed; retried on a later run", b.ID, op.Segment)
		return
	}
	c.Remote.SetState(op.Segment, CopyFinished)
	seg := c.Remote.Segments[c.Remote.Find(op.Segment)]
	b.lead.copiedOffset = max(b.lead.copiedOffset, seg.End)
	c.notef("b%d uploaded [%d..%d]", b.ID, seg.Base, seg.End)
	c.raiseHighestRemote(b, seg.End)
	c.maybeUpload(b)
}

// onRLMExpire is one run of the leader's RLM expiration task: remote
// segments past retention, or wholly below the log start offset, are
// deleted, raising the log start offset first (KAFKA-15352).
func (c *Cluster) onRLMExpire(b *Broker) {
	if b.Role != RoleLeader || !c.Tiered() {
		return
	}
	c.setTimer(b, TimerRLMExpire, 0, c.Cfg.RLMTaskInterval)
	if c.Now < b.MetadataReadyAt {
		return
	}
	total := c.Remote.Bytes() + c.localOnlyBytes(b)
	nowMs := c.Now.Ms()
	for i := range c.Remote.Segments {
		s := &c.Remote.Segments[i]
		if s.State != CopyFinished {
			continue
		}
		below := s.End < b.Log.LogStart
		byTime := c.Cfg.RetentionMs >= 0 && s.MaxTsMs < nowMs-c.Cfg.RetentionMs
		bySize := c.Cfg.RetentionBytes >= 0 && total-s.Bytes >= c.Cfg.RetentionBytes
		if !below && !byTime && !bySize {
			break
		}
		if s.End >= b.Log.HighWatermark {
			break
		}
		total -= s.Bytes
		if byTime || bySize {
			c.reached(GoalRemoteRetention)
		}
		if !c.Mutants.Has(MutantLSOAfterRemoteDelete) {
			b.Log.IncrementLogStart(s.End + 1)
		}
		s.State = DeleteStarted
		c.Remote.Version++
		c.notef("b%d expires remote segment [%d..%d] lso=%d", b.ID, s.Base, s.End, b.Log.LogStart)
		c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteDelete, Segment: s.ID})
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
	if failed {
		c.Remote.SetState(op.Segment, CopyFinished)
		return
	}
	if i := c.Remote.Find(op.Segment); i >= 0 && c.Mutants.Has(MutantLSOAfterRemoteDelete) {
		if l := c.Leader(); l != nil {
			l.Log.IncrementLogStart(c.Remote.Segments[i].End + 1)
		}
	}
	c.Remote.Remove(op.Segment)
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

// onRetentionCheck applies local retention: with copying on, a segment goes
// only once it is uploaded (or below the log start offset) and the local log
// start offset moves first; otherwise retention.* applies and the log start
// offset moves with it.
func (c *Cluster) onRetentionCheck(b *Broker) {
	if b.Role == RoleNone {
		return
	}
	c.setTimer(b, TimerRetention, 0, c.Cfg.RetentionCheckInterval)
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
	newStart, uploadedOnly := int64(-1), true
	for i := 0; i+1 < len(l.Segments); i++ {
		s := &l.Segments[i]
		breach := (limitMs >= 0 && s.MaxTsMs < nowMs-limitMs) || (limitBytes >= 0 && size-s.Bytes >= limitBytes)
		uploaded := s.End <= b.HighestRemote || s.End < l.LogStart || c.Mutants.Has(MutantRetentionBeforeUpload)
		if !breach || s.End >= l.HighWatermark || (copying && !uploaded) {
			break
		}
		size -= s.Bytes
		newStart = s.End + 1
		uploadedOnly = uploadedOnly && uploaded && c.Tiered()
	}
	if newStart < 0 {
		return
	}
	switch {
	case uploadedOnly && c.Mutants.Has(MutantLLSOAfterLocalDelete):
		l.DropSegmentsBelow(newStart) // the offset is left behind
	case uploadedOnly:
		l.IncrementLocalLogStart(newStart)
	default:
		l.IncrementLogStart(newStart)
	}
	c.notef("b%d local retention: lso=%d llso=%d", b.ID, l.LogStart, l.LocalLogStart)
}
