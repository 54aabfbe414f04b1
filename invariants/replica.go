package invariants

import (
	"fmt"

	"tierfetch/model"
)

// checkReplica checks one broker: its records below its HW against the
// committed history (only what is new since the last step), its epoch
// cache against the leader's, and its HRO.
func (k *Checker) checkReplica(c *model.Cluster, b *model.Broker) *Violation {
	if !k.isReplica(c, b.ID) {
		return nil
	}
	if l := c.Leader(); l != nil && b != l && b.InSyncEpoch != l.LeaderEpoch && k.unclean > 0 {
		// After an unclean election a replica holds the lost lineage until
		// its first fetch from the new leader truncates it.
		return k.checkHighestRemote(b)
	}
	cur := &k.cursors[b.ID]
	if cur.gen != b.Log.Gen {
		cur.gen, cur.checked = b.Log.Gen, b.Log.LocalLogStart
	}
	cur.checked = max(cur.checked, b.Log.LocalLogStart, k.histStart)
	to := min(b.Log.HighWatermark, k.histEnd)
	if cur.checked < to {
		if v := k.compareLocal(b, cur.checked, to, ReplicaAgreement); v != nil {
			return v
		}
		cur.checked = to
	}
	if v := k.checkLineage(c, b); v != nil {
		return v
	}
	return k.checkHighestRemote(b)
}

// checkLineage compares a follower's epoch cache with the leader's over the
// offsets both have committed: every offset must map to the same epoch.
func (k *Checker) checkLineage(c *model.Cluster, f *model.Broker) *Violation {
	l := c.Leader()
	if l == nil || f == l || !f.Up || len(f.Log.Epochs) == 0 || len(l.Log.Epochs) == 0 {
		return nil
	}
	if k.unclean > 0 && f.InSyncEpoch != l.LeaderEpoch {
		return nil // still holds the lineage the unclean election lost
	}
	fe, le := f.Log.Epochs, l.Log.Epochs
	hot, ends := &k.cursors[f.ID].lin, &k.cold[f.ID].ends
	if sameLineage(hot, ends, f, l) {
		return nil
	}
	*hot, *ends = lineageKeyOf(f, l)
	lo := max(fe[0].StartOffset, le[0].StartOffset, f.Log.LogStart, l.Log.LogStart)
	hi := min(f.Log.HighWatermark, l.Log.HighWatermark, f.Log.LogEnd)
	check := func(o int64) *Violation {
		if o < lo || o >= hi {
			return nil
		}
		if a, b := f.Log.EpochAt(o), l.Log.EpochAt(o); a != b {
			return &Violation{Invariant: EpochLineage, Message: fmt.Sprintf("offset %d: follower b%d says epoch %d, leader b%d says %d (follower %v, leader %v)",
				o, f.ID, a, l.ID, b, fe, le)}
		}
		return nil
	}
	if v := check(lo); v != nil {
		return v
	}
	for _, e := range fe {
		if v := check(e.StartOffset); v != nil {
			return v
		}
	}
	for _, e := range le {
		if v := check(e.StartOffset); v != nil {
			return v
		}
	}
	return nil
}

// lineageKeyOf is what checkLineage last compared for follower f and
// leader l, when it is the same the comparison is skipped. The lengths
// are kept as int32s and sameLineage compares them as ints, so an epoch
// cache longer than an int32 holds (2^31 epochs) never matches: it is
// compared again, never skipped.
func lineageKeyOf(f, l *model.Broker) (lineageHot, lineageEnds) {
	fe, le := f.Log.Epochs, l.Log.Epochs
	return lineageHot{f.Log.HighWatermark, l.Log.HighWatermark, f.Log.Gen, l.Log.Gen, int32(len(fe)), int32(len(le))},
		lineageEnds{fe[len(fe)-1], le[len(le)-1], fe[0], le[0]}
}

// sameLineage reports whether lineageKeyOf(f, l) == (*hot, *ends), field
// by field in place, the high watermarks (what changes most) first:
// building the key and the comparison the compiler generates for it cost
// more. ends, in another cache line, is read only when hot matches.
func sameLineage(hot *lineageHot, ends *lineageEnds, f, l *model.Broker) bool {
	fe, le := f.Log.Epochs, l.Log.Epochs
	return hot.fHW == f.Log.HighWatermark && hot.lHW == l.Log.HighWatermark &&
		hot.fGen == f.Log.Gen && hot.lGen == l.Log.Gen &&
		int(hot.fLen) == len(fe) && int(hot.lLen) == len(le) &&
		ends.fLast == fe[len(fe)-1] && ends.lLast == le[len(le)-1] &&
		ends.fFirst == fe[0] && ends.lFirst == le[0]
}

// checkHighestRemote checks that a known HRO was really uploaded at some
// point, or lies below data deleted on purpose: Kafka's
// findHighestRemoteOffset clamps to the replica's own epoch end, which on a
// lagging follower can name an offset inside a range that was deleted
// (below the log start offset) rather than uploaded. That claims nothing
// that must exist.
func (k *Checker) checkHighestRemote(b *model.Broker) *Violation {
	if cur := &k.cursors[b.ID]; b.HighestRemote == cur.hro {
		return nil
	} else {
		cur.hro = b.HighestRemote
	}
	if b.HighestRemote >= k.maxLogStart && !k.wasUploaded(b.HighestRemote) {
		return &Violation{Invariant: HighestRemote, Message: fmt.Sprintf("b%d highest remote offset %d was never uploaded (uploaded %v)",
			b.ID, b.HighestRemote, k.uploaded)}
	}
	return nil
}

// CheckLiveness checks, at the end of the healed period, that the partition has a
// leader and every assigned replica is in the ISR. A reassignment in
// progress must have completed: every target replica in the ISR (the
// replicas it removes do not count), and the message says it is not.
func (k *Checker) CheckLiveness(c *model.Cluster) *Violation {
	if c.Ctrl.Leader < 0 {
		return &Violation{Invariant: Liveness, Message: fmt.Sprintf("partition offline (ISR %v, ELR %v)", c.Ctrl.ISR, c.Ctrl.ELR)}
	}
	for _, r := range c.Ctrl.Target() {
		if !c.Ctrl.InISR(r) {
			b := c.Brokers[r]
			l := c.Leader()
			msg := fmt.Sprintf("b%d not in ISR %v after healing: leo=%d llso=%d, leader b%d hw=%d leo=%d llso=%d hro=%d",
				r, c.Ctrl.ISR, b.Log.LogEnd, b.Log.LocalLogStart, l.ID, l.Log.HighWatermark, l.Log.LogEnd, l.Log.LocalLogStart, l.HighestRemote)
			if c.Ctrl.Reassigning() {
				msg = fmt.Sprintf("reassignment to %v not complete: removing %v still assigned; %s", c.Ctrl.Target(), c.Ctrl.Removing, msg)
			}
			return &Violation{Invariant: Liveness, Kind: k.livenessKind(c, b, l), Message: msg}
		}
	}
	return nil
}
