package model

import (
	"fmt"
	"slices"
	"sort"
)

// onRLMCopy is one run of the leader's RLM copy task
// (RLMCopyTask.copyLogSegmentsToRemote, RemoteLogManager.java:998-1079
// @025293cb): on the task's first run with metadata ready, raise the log
// start offset from the remote metadata (KAFKA-15351) and seed the copied
// offset and HRO from it (maybeUpdateCopiedOffset, 904-913, which predates
// KIP-1023); then upload the next eligible segment. Kafka's run uploads, in
// turn, the candidates it found when it began (1015-1058) and the next run
// comes remote.log.manager.task.interval.ms after it ends (2183); here the
// next upload starts when one ends (onUploadDone), from the log as it is
// then, and the next run is an interval after this one began.
func (c *Cluster) onRLMCopy(b *Broker) {
	if b.Role != RoleLeader || !c.Tiered() || !b.lead.copyTask {
		return
	}
	c.setTimer(b, TimerRLMCopy, 0, c.Cfg.RLMTaskInterval)
	if c.Now < b.MetadataReadyAt {
		c.emit(brokerEv(EvRLMCopySkipped, b.ID))
		return
	}
	c.maybeUpdateLogStartOnBecomingLeader(b)
	if !b.lead.copySeeded {
		b.lead.copySeeded = true
		c.maybeSeedHighestRemote(b)
	}
	c.maybeUpload(b)
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
	start := b.Log.LocalLogStartOffset()
	v := c.view(b)
	for _, e := range b.Log.Epochs {
		if s, ok := c.firstRemoteOffset(v, e.Epoch); ok {
			start = s
			break
		}
	}
	if b.Log.IncrementLogStart(start) {
		e := brokerEv(EvLogStartFromRemote, b.ID)
		e.LogStart = b.Log.LogStart
		c.emit(e)
	}
}

// maybeSeedHighestRemote sets the copy task's copied offset from the
// remote metadata (Kafka's maybeUpdateCopiedOffset) and raises HRO to it.
func (c *Cluster) maybeSeedHighestRemote(b *Broker) {
	h := c.view(b).FindHighestRemoteOffset(&b.Log, c.Cfg.Mutants.Has(MutantHROWithoutEpochEnd))
	b.lead.copiedOffset = h
	if !c.Cfg.Mutants.Has(MutantHROOnlyFromUpload) {
		c.raiseHighestRemote(b, h)
	}
}

// raiseHighestRemote raises b's HRO to h; HRO never goes down.
func (c *Cluster) raiseHighestRemote(b *Broker, h int64) bool {
	if h <= b.HighestRemote {
		return false
	}
	e := brokerEv(EvHighestRemote, b.ID)
	e.HRO, e.PrevHRO = h, b.HighestRemote
	c.emit(e)
	b.HighestRemote = h
	return true
}

// maybeUpload starts uploading the first inactive segment past the copied
// offset whose next segment starts at or below the last stable offset (= HW
// here), when KIP-1241's copy lag lets it go (candidateLogSegments,
// RemoteLogManager.java:927-949 @025293cb).
func (c *Cluster) maybeUpload(b *Broker) bool {
	if b.copyOp != 0 || !b.lead.copySeeded {
		return false
	}
	l := &b.Log
	from := max(b.lead.copiedOffset+1, l.LocalLogStart)
	first := sort.Search(len(l.Segments), func(i int) bool { return l.Segments[i].End >= from })
	var total, cumulative int64
	if c.Profile.CopyLag() {
		for i := first; i < len(l.Segments); i++ {
			total += l.Segments[i].Bytes
		}
	}
	for i := first; i+1 < len(l.Segments); i++ {
		seg := &l.Segments[i]
		if l.Segments[i+1].Base > l.HighWatermark && !c.Cfg.Mutants.Has(MutantUploadAboveHW) {
			return false
		}
		cumulative += seg.Bytes
		if seg.Bytes == 0 {
			continue
		}
		if c.Profile.CopyLag() && !c.eligibleForUpload(seg, total, cumulative) {
			return false
		}
		c.startUpload(b, seg)
		return true
	}
	return false
}

// startUpload copies seg to remote storage, publishing COPY_SEGMENT_STARTED.
func (c *Cluster) startUpload(b *Broker, seg *Segment) {
	if b.Role != RoleLeader || b.copyOp != 0 || seg.Bytes <= 0 || seg.End < seg.Base {
		panic(fmt.Sprintf("model: b%d (%s, upload %d in flight) uploads segment [%d..%d] of %d bytes", b.ID, b.Role, b.copyOp,
			seg.Base, seg.End, seg.Bytes))
	}
	l := &b.Log
	rs := RemoteSegment{Base: seg.Base, End: seg.End, Bytes: seg.Bytes, MaxTsMs: seg.MaxTsMs,
		Epochs: segmentEpochs(seg), Batches: seg.Batches, Checkpt: l.EpochsUpTo(seg.End), Snapshot: seg.Snapshot}
	id := c.publish(b, metaCopyStarted, rs)
	b.copySeg, b.copyBase, b.copyEnd = id, seg.Base, seg.End
	b.copyOp = c.startRemote(RemoteOp{Broker: b.ID, Kind: RemoteUpload, Segment: id, Bytes: seg.Bytes})
	e := brokerEv(EvUploadStart, b.ID)
	e.Segment = SegmentRef{ID: id, Base: seg.Base, End: seg.End, Bytes: seg.Bytes}
	c.emit(e)
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

// onUploadDone ends an upload (RLMCopyTask.copyLogSegment,
// RemoteLogManager.java:1081-1165 @025293cb). Nothing between the copy to
// remote storage and COPY_SEGMENT_FINISHED checks whether the task was
// cancelled (1151): a copy that completes after its broker lost leadership,
// or after copying or tiering was disabled, is still published. But a
// cancelled task's thread was interrupted (RLMTaskWithFuture.cancel:
// future.cancel(true), 2230), so the wait for the publish to be consumed
// (the .get() at 1151) throws InterruptedException and the broker's HRO is
// not raised (1162) nor does the task go on: HRO comes from the metadata
// then. The model takes the remote storage manager's copy itself to be
// deaf to the interrupt; one that fails on it leaves the same dangling
// COPY_SEGMENT_STARTED a crash leaves (its cleanup is skipped once
// cancelled, 1119). A broker that died meanwhile publishes nothing: its
// COPY_SEGMENT_STARTED metadata stays, dangling, until an expiration task
// deletes it.
func (c *Cluster) onUploadDone(b *Broker, op RemoteOp, failed bool) {
	cancelled := slices.IndexFunc(b.cancelledCopies, func(x copyInFlight) bool { return x.op == op.ID })
	if !b.Up || b.copyOp != op.ID && cancelled < 0 {
		c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: op.Segment}, Cause: UploadAbandoned})
		return
	}
	if seg := b.copySeg; cancelled >= 0 && b.cancelledCopies[cancelled].seg != op.Segment || cancelled < 0 && seg != op.Segment {
		panic(fmt.Sprintf("model: b%d's upload %d of remote segment %d done; its copy task uploads segment %d, cancelled copies %v",
			b.ID, op.ID, op.Segment, seg, b.cancelledCopies))
	}
	base, end := b.copyBase, b.copyEnd
	if cancelled >= 0 {
		base, end = b.cancelledCopies[cancelled].base, b.cancelledCopies[cancelled].end
		b.cancelledCopies = slices.Delete(slices.Clone(b.cancelledCopies), cancelled, cancelled+1)
	} else {
		b.copyOp, b.copySeg, b.copyBase, b.copyEnd = 0, 0, 0, 0
	}
	i := c.Remote.Find(op.Segment)
	if failed {
		// The copy's cleanup deletes what was written (deleteRemoteLogSegment
		// of the COPY_SEGMENT_STARTED metadata, 1116-1125), unless the task
		// was cancelled (its predicate is !isCancelled(), 1119): that copy's
		// COPY_SEGMENT_STARTED stays, dangling. (A RetriableRemoteStorageException
		// skips the cleanup too, 1113-1115; a failure here is the other kind.)
		if i >= 0 && c.Remote.Segments[i].State == CopyStarted && cancelled < 0 {
			c.publish(b, metaDeleteFinished, RemoteSegment{ID: op.Segment})
		}
		c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: SegmentRef{ID: op.Segment}, Cause: UploadFailed})
		return
	}
	ref := SegmentRef{ID: op.Segment, Base: base, End: end, Bytes: op.Bytes}
	if i >= 0 {
		s := &c.Remote.Segments[i]
		ref = SegmentRef{ID: s.ID, Base: s.Base, End: s.End, Bytes: s.Bytes}
	}
	// A segment another broker deleted meanwhile (a dangling copy it took
	// for abandoned) cannot move to COPY_SEGMENT_FINISHED: the cache does
	// not apply the event (RemoteLogMetadataCache.java:153-174 @120e6887;
	// the store logs the exception, RemotePartitionMetadataStore.java:86-91
	// @095cfaee).
	c.publish(b, metaCopyFinished, RemoteSegment{ID: op.Segment})
	c.emit(Event{Kind: EvUploadEnd, Broker: b.ID, Peer: -1, Segment: ref, Cause: UploadDone})
	if cancelled >= 0 {
		return
	}
	if c.Tiered() {
		c.raiseHighestRemote(b, end)
	}
	if b.Role == RoleLeader && b.lead.copyTask {
		b.lead.copiedOffset = max(b.lead.copiedOffset, end)
		c.maybeUpload(b)
	}
}

// localOnlyBytes is the size of local segments not yet in remote storage
// as Kafka counts them (UnifiedLog.onlyLocalLogSegmentsSize,
// UnifiedLog.scala:1640-1641 @1eb7644349cb, UnifiedLog.java:2079-2081
// @004b2276): those whose base offset is at least HRO, so a segment HRO
// falls inside (a new leader's segments need not end where the old
// leader's uploads did) is not counted.
func (c *Cluster) localOnlyBytes(b *Broker) int64 {
	var n int64
	for _, s := range b.Log.Segments {
		if s.Base >= b.HighestRemote {
			n += s.Bytes
		}
	}
	return n
}

// onRLMFollower refreshes a follower's HRO from the remote metadata.
func (c *Cluster) onRLMFollower(b *Broker) {
	if b.Role != RoleFollower || !c.Tiered() {
		return
	}
	c.setTimer(b, TimerRLMFollower, 0, c.Cfg.RLMTaskInterval)
	if c.Now >= b.MetadataReadyAt {
		c.raiseHighestRemote(b, c.view(b).FindHighestRemoteOffset(&b.Log, c.Cfg.Mutants.Has(MutantHROWithoutEpochEnd)))
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
	c.applyRetention(b)
}

// applyRetention is one retention check of b's log (UnifiedLog.deleteOldSegments).
func (c *Cluster) applyRetention(b *Broker) {
	l := &b.Log
	newStart, localOnly, roll := c.deletableSegmentsAt(b, c.Now.Ms())
	if roll {
		a := l.active()
		c.emit(Event{Kind: EvRollForRetention, Broker: b.ID, Peer: -1, Segment: SegmentRef{Base: a.Base, End: a.End, Bytes: a.Bytes}})
		l.roll()
	}
	if newStart < 0 {
		return
	}
	switch {
	case localOnly && c.Cfg.Mutants.Has(MutantLLSOAfterLocalDelete):
		l.DropSegmentsBelow(newStart) // the offset is left behind
	case localOnly:
		l.IncrementLocalLogStart(newStart)
	default:
		c.incrementLogStart(l, newStart)
	}
	e := brokerEv(EvLocalRetention, b.ID)
	e.Log = OffsetsOf(l)
	c.emit(e)
}

// retentionLimits returns the local log's retention limits: local.retention.*
// when copying to remote storage, else retention.* (-1: none).
func (c *Cluster) retentionLimits() (limitBytes, limitMs int64) {
	limitBytes, limitMs = c.Cfg.RetentionBytes, c.Cfg.RetentionMs
	if c.Tiered() && !c.Cfg.RemoteLogCopyDisable {
		if c.Cfg.LocalRetentionBytes != -2 {
			limitBytes = c.Cfg.LocalRetentionBytes
		}
		if c.Cfg.LocalRetentionMs != -2 {
			limitMs = c.Cfg.LocalRetentionMs
		}
	}
	return limitBytes, limitMs
}

// deletableSegmentsAt walks the local segments from the oldest while they
// breach retention at nowMs and may go, and returns the new local log start
// offset (-1: none goes), whether only the local log start offset moves,
// and whether the active segment must roll.
func (c *Cluster) deletableSegmentsAt(b *Broker, nowMs int64) (newStart int64, localOnly, roll bool) {
	l := &b.Log
	copying := c.Tiered() && !c.Cfg.RemoteLogCopyDisable
	limitBytes, limitMs := c.retentionLimits()
	size := l.LocalBytes()
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
		uploaded := upper-1 <= b.HighestRemote || (!active && upper <= l.LogStart) || c.Cfg.Mutants.Has(MutantRetentionBeforeUpload)
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

// listedUnderAnyOf reports whether s is listed under one of epochs.
func (s *RemoteSegment) listedUnderAnyOf(epochs []EpochEntry) bool {
	for _, e := range epochs {
		if s.listedUnder(e.Epoch) {
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
