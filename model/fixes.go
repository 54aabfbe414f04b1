package model

import (
	"fmt"
	"sort"
	"strings"
)

// Fix is one upstream report's suggested fix of Kafka's code (the report
// of the same name in docs/upstream), modelled the way the report
// proposes it. Fixes compose; none is on by default, and a run without
// fixes is byte for byte what it was before fixes existed. Each fix is
// checked at the one decision point of the model it changes.
type Fix uint8

// Fixes, named after the upstream reports they validate.
const (
	// FixIdleFullyTieredStall: ReplicaManager answers ListOffsets -6 with
	// an earliest pending upload offset equal to the log end offset
	// (only offsets beyond it are unfetchable), instead of -1.
	FixIdleFullyTieredStall Fix = iota
	// FixAuxStateAtLogStart: TierStateMachine builds no auxiliary state
	// from remote storage when the follower starts at the leader's log
	// start offset: it truncates fully and starts there.
	FixAuxStateAtLogStart
	// FixRestartedLeaderCopyDisabled: KAFKA-20732 backported: the RLM
	// expiration task seeds an unknown highest uploaded offset from the
	// remote metadata (trunk has it already).
	FixRestartedLeaderCopyDisabled
	// FixStaleHRO: the metadata cache lowers an epoch's highest offset when
	// its segments are deleted (RemoteLogLeaderEpochState recomputes it from
	// the segments still referenced), and every replica resets its
	// in-memory highest uploaded offset when tiering is disabled with the
	// remote data deleted.
	FixStaleHRO
	// FixStaleLocalLogStart: UnifiedLog raises its local log start offset
	// with the log start offset whether remote storage is enabled or not.
	FixStaleLocalLogStart
	// FixStaleLogStartCopyDisabled: the RLM expiration task raises a new
	// leader's log start offset from the remote metadata as the copy task
	// does (KAFKA-15351), so it happens with copying disabled; with
	// tiering off a new leader raises its log start offset to its local
	// log start offset.
	FixStaleLogStartCopyDisabled
	// FixStaleLogStartUnfinishedSegment: findLogStartOffset takes the first
	// offset of the epoch a read can find: it skips segments being copied
	// or deleted, and takes where the epoch begins within a finished
	// segment (its segmentLeaderEpochs entry), not the segment's start
	// offset, below which it may hold records of an earlier epoch.
	FixStaleLogStartUnfinishedSegment
	// FixFollowerGapAfterDisable: disabling remote storage with
	// remote.log.delete.on.disable is refused while a replica's local log
	// starts above the leader's: the remote copy is that replica's only
	// other copy of what lies between.
	FixFollowerGapAfterDisable
	// FixHROAfterTruncation: truncating a log below its highest uploaded
	// offset lowers that offset to the truncation point.
	FixHROAfterTruncation
	// NumFixes counts the validated fixes; the ones after it were tried
	// first and replaced (fixInfo.replacedBy says by which, and the
	// report why).
	NumFixes
	// FixStaleHROResetOnly is stale-hro's first proposal alone: reset the
	// in-memory highest uploaded offset on disable. Replaced by FixStaleHRO:
	// the remote metadata seeds the stale offset again.
	FixStaleHROResetOnly = NumFixes
	// FixStaleHROMetadataOnly is stale-hro's metadata half alone: the
	// cache lowers an epoch's highest offset on deletion, but the replicas
	// keep their in-memory offset. Replaced by FixStaleHRO: a replica that
	// did not restart still trusts the stale offset it holds.
	FixStaleHROMetadataOnly = NumFixes + 1
	// FixUnfinishedSegmentSkipOnly is stale-log-start-unfinished-segment's
	// first proposal: findLogStartOffset skips segments whose copy or
	// deletion is unfinished and takes the first finished one's start
	// offset. Replaced by FixStaleLogStartUnfinishedSegment: a finished
	// segment whose start offset holds records of an earlier epoch (a
	// leader's divergent records kept below its log start offset, uploaded
	// whole) gives an offset no read under the epoch finds (seed 8261).
	FixUnfinishedSegmentSkipOnly = NumFixes + 2
	numAllFixes                  = NumFixes + 3
)

// fixInfo is what simrun fixes says of a fix: its name, the finding kinds
// it closes (invariants' Kind names) and, for a fix that was replaced, the
// fix that replaced it.
type fixInfo struct {
	name       string
	kinds      []string
	replacedBy Fix
}

var fixTable = [numAllFixes]fixInfo{
	FixIdleFullyTieredStall:           {name: "idle-fully-tiered-stall", kinds: []string{"kafka43-epuo-unknown-stall"}},
	FixAuxStateAtLogStart:             {name: "aux-state-at-log-start", kinds: []string{"kafka43-aux-state-stall"}},
	FixRestartedLeaderCopyDisabled:    {name: "restarted-leader-copy-disabled", kinds: []string{"kafka43-epuo-unknown-stall", "kafka43-aux-state-stall"}},
	FixStaleHRO:                       {name: "stale-hro", kinds: []string{"stale-hro"}},
	FixStaleLocalLogStart:             {name: "stale-local-log-start", kinds: []string{"stale-local-log-start"}},
	FixStaleLogStartCopyDisabled:      {name: "stale-log-start-copy-disabled", kinds: []string{"stale-log-start-copy-disabled", "stale-log-start-tiering-off"}},
	FixStaleLogStartUnfinishedSegment: {name: "stale-log-start-unfinished-segment", kinds: []string{"stale-log-start-unfinished-segment"}},
	FixFollowerGapAfterDisable:        {name: "follower-gap-after-disable", kinds: []string{"follower-gap-after-disable", "tiered-follower-after-disable"}},
	FixHROAfterTruncation:             {name: "hro-after-truncation", kinds: []string{"hro-after-truncation"}},
	FixStaleHROResetOnly:              {name: "stale-hro-reset-only", replacedBy: FixStaleHRO},
	FixStaleHROMetadataOnly:           {name: "stale-hro-metadata-only", replacedBy: FixStaleHRO},
	FixUnfinishedSegmentSkipOnly:      {name: "stale-log-start-unfinished-segment-skip-only", replacedBy: FixStaleLogStartUnfinishedSegment},
}

func (f Fix) String() string { return fixTable[f].name }

// Kinds returns the finding kinds f closes (none for a replaced fix).
func (f Fix) Kinds() []string { return fixTable[f].kinds }

// Replaced reports whether f was tried and replaced, and by which fix.
func (f Fix) Replaced() (Fix, bool) { return fixTable[f].replacedBy, f >= NumFixes }

// FixByName returns the fix called name, replaced ones included.
func FixByName(name string) (Fix, bool) {
	for i := range fixTable {
		if fixTable[i].name == name {
			return Fix(i), true
		}
	}
	return 0, false
}

// FixNames lists the validated fixes' names, sorted.
func FixNames() []string {
	var out []string
	for f := Fix(0); f < NumFixes; f++ {
		out = append(out, f.String())
	}
	sort.Strings(out)
	return out
}

// ReplacedFixes lists the fixes tried first and replaced, in order.
func ReplacedFixes() []Fix {
	var out []Fix
	for f := NumFixes; f < numAllFixes; f++ {
		out = append(out, f)
	}
	return out
}

// Fixes is a set of fixes.
type Fixes uint32

// AllFixes is every validated fix.
const AllFixes = Fixes(1<<NumFixes - 1)

// With returns the set plus f.
func (s Fixes) With(f Fix) Fixes { return s | 1<<f }

// Has reports whether f is in the set.
func (s Fixes) Has(f Fix) bool { return s&(1<<f) != 0 }

// List returns the fixes of the set, in the order of their constants.
func (s Fixes) List() []Fix {
	var out []Fix
	for f := Fix(0); f < numAllFixes; f++ {
		if s.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// Names returns the names of the set's fixes, in the order of List.
func (s Fixes) Names() []string {
	var out []string
	for _, f := range s.List() {
		out = append(out, f.String())
	}
	return out
}

// String is the set as --fix takes it: "all" for AllFixes, else names,
// comma-separated ("" for none).
func (s Fixes) String() string {
	if s == AllFixes {
		return "all"
	}
	return strings.Join(s.Names(), ",")
}

// setFixes switches fixes f on (Config.Fixes): NewCluster's last act, so
// that the initial leadership is taken without them, as when the harness
// switched them on after NewCluster.
func (c *Cluster) setFixes(f Fixes) {
	c.Cfg.Fixes = f
	c.Remote.lowerHighestOnDelete = f.Has(FixStaleHRO) || f.Has(FixStaleHROMetadataOnly)
	if c.Remote.lowerHighestOnDelete {
		// A fixture's segment being deleted had its DELETE_SEGMENT_STARTED
		// folded by every cache already.
		for i := range c.Remote.Segments {
			if s := &c.Remote.Segments[i]; s.State == DeleteStarted {
				c.Remote.lowerHighest(s.Epochs)
			}
		}
	}
}

// AuxStateTrivial reports whether building auxiliary state up to start
// needs nothing from remote storage: the profile says so, or
// FixAuxStateAtLogStart's start at the leader's log start offset
// (TierStateMachine.start would skip buildRemoteLogAuxState there,
// TierStateMachine.java:113 @30884080, as KIP-1023's text does).
func (c *Cluster) AuxStateTrivial(start, leaderLogStart int64) bool {
	return c.Profile.AuxStateTrivial(start, leaderLogStart) || c.Cfg.Fixes.Has(FixAuxStateAtLogStart) && start == leaderLogStart
}

// ExpirationSeedsHighestRemote reports whether the leader's RLM expiration
// task seeds an unknown HRO from remote metadata: the profile's (trunk's
// KAFKA-20732), or FixRestartedLeaderCopyDisabled's backport of it.
func (c *Cluster) ExpirationSeedsHighestRemote() bool {
	return c.Profile.ExpirationSeedsHighestRemote() || c.Cfg.Fixes.Has(FixRestartedLeaderCopyDisabled)
}

// checkDisableKeepsReplicas is FixFollowerGapAfterDisable: a disable that
// deletes the remote data is refused while a replica's local log starts
// above the leader's, since the remote copy is that replica's only copy,
// besides the leader's disk, of what lies between (the validation of the
// topic config, as KIP-950's guard rails refuse a local.retention.* above
// retention.*; it would need every replica's local log start offset). The
// report asks it of the ISR; a replica out of the ISR, or down, at the
// disable may catch up and be elected later with the same gap, so every
// assigned replica is asked.
func (c *Cluster) checkDisableKeepsReplicas(on bool) error {
	l := c.Leader()
	if on || l == nil || !c.Cfg.Fixes.Has(FixFollowerGapAfterDisable) {
		return nil
	}
	for _, id := range c.Ctrl.Replicas {
		if b := c.Brokers[id]; b.Log.LocalLogStart > l.Log.LocalLogStart {
			return fmt.Errorf("remote_storage_enable=false refused: b%d's local log starts at %d, above the leader b%d's %d",
				id, b.Log.LocalLogStart, l.ID, l.Log.LocalLogStart)
		}
	}
	return nil
}

// truncatedTo is FixHROAfterTruncation: a log truncated to offset to (its
// records at and above it gone) keeps no highest uploaded offset at or
// above it (UnifiedLog.truncateTo and truncateFullyAndStartAt would lower
// highestOffsetInRemoteStorage; today nothing but a restart does).
func (c *Cluster) truncatedTo(b *Broker, to int64) {
	if !c.Cfg.Fixes.Has(FixHROAfterTruncation) || b.HighestRemote < to {
		return
	}
	e := brokerEv(EvHighestRemote, b.ID)
	e.HRO, e.PrevHRO = to-1, b.HighestRemote
	c.emit(e)
	b.HighestRemote = to - 1
}

// LogStartFromRemoteTask reports whether a task of the leader raises a new
// leader's lagging log start offset from the remote metadata
// (findLogStartOffset, KAFKA-15351): the copy task, which exists with tiering
// on and copying not disabled, or with FixStaleLogStartCopyDisabled the
// expiration task, which exists with tiering on.
func (c *Cluster) LogStartFromRemoteTask() bool {
	return c.Tiered() && (!c.Cfg.RemoteLogCopyDisable || c.Cfg.Fixes.Has(FixStaleLogStartCopyDisabled))
}

// firstRemoteOffset is findLogStartOffset's answer for epoch from the
// metadata v (RemoteLogManager.java:2141-2156 @025293cb): the start offset
// of the first segment listed under epoch, whatever its state (2151); with
// FixUnfinishedSegmentSkipOnly the first whose copy finished; with
// FixStaleLogStartUnfinishedSegment the first offset of epoch a read finds
// in a finished segment (Remote.FirstReadableOffsetFor).
func (c *Cluster) firstRemoteOffset(v *Remote, epoch int32) (int64, bool) {
	switch {
	case c.Cfg.Fixes.Has(FixStaleLogStartUnfinishedSegment):
		return v.FirstReadableOffsetFor(epoch)
	case c.Cfg.Fixes.Has(FixUnfinishedSegmentSkipOnly):
		return v.FirstFinishedOffsetFor(epoch)
	}
	return v.FirstOffsetFor(epoch)
}

// resetHighestRemote is FixStaleHRO's (and FixStaleHROResetOnly's) change
// to the disable: every replica forgets its in-memory highest uploaded
// offset when remote storage is disabled with the remote data deleted
// (TopicConfigHandler.maybeUpdateRemoteLogComponents would reset it on
// each replica's log, as it moves the leader's log start offset;
// UnifiedLog.updateHighestOffsetInRemoteStorage, UnifiedLog.java:796-801
// @004b2276, can only raise it).
func (c *Cluster) resetHighestRemote() {
	if !c.Cfg.Fixes.Has(FixStaleHRO) && !c.Cfg.Fixes.Has(FixStaleHROResetOnly) {
		return
	}
	for _, b := range c.Brokers {
		if b.Up && b.HighestRemote >= 0 {
			e := brokerEv(EvHighestRemote, b.ID)
			e.HRO, e.PrevHRO = -1, b.HighestRemote
			c.emit(e)
			b.HighestRemote = -1
		}
	}
}
