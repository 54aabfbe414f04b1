package invariants

import (
	"encoding/binary"

	"tierfetch/model"
	"tierfetch/sim"
)

// AppendState appends a canonical encoding of everything the checker keeps
// beyond the cluster c it checks, for simrun explore's state hash, so that
// two paths to the same cluster state merge only when the checker would
// judge every continuation alike: the committed history as it is kept
// (trimmed to what is still held: its bounds and each batch's identity), the
// unclean-election and leader bookkeeping, every offset ever uploaded, the
// highest log start offset, the stale-log-start clock (relative to now, the
// instant the cluster's encoding is relative to)
// and the facts the known-finding labels read. The memos (per-replica
// cursors, last HROs, lineage and hole keys) are kept too, since a rebase
// after an unclean election can make a memo skip a check that would now
// fail; the observer counters they are keyed on (Log.Gen, Remote.Version),
// which the cluster's encoding leaves out, are written as whether the memo
// is current. Checked remote segments are left out: every listed segment
// was checked at its present state (a segment changes the version).
func (k *Checker) AppendState(dst []byte, c *model.Cluster, now sim.Time) []byte {
	if k.lazyTrim && k.trimAt > 0 {
		// As trimming at every Check would have left it (trimHistory).
		k.trim(c)
	}
	for _, v := range [...]int64{k.histStart, k.histEnd, int64(k.unclean), int64(k.uncleanEpoch), int64(k.leader),
		int64(k.leaderEpoch), k.maxLogStart} {
		dst = binary.AppendVarint(dst, v)
	}
	// The history is most of the checker's part: its varints are written
	// into room made once (model.PutVarint).
	out, n := model.Room(dst, (1+6*len(k.history))*binary.MaxVarintLen64)
	n = model.PutUvarint(out, n, uint64(len(k.history)))
	for i := range k.history {
		b := &k.history[i]
		n = model.PutVarint(out, n, b.Base)
		n = model.PutVarint(out, n, b.Count)
		n = model.PutVarint(out, n, int64(b.Epoch))
		n = model.PutVarint(out, n, b.ProducerID)
		n = model.PutVarint(out, n, b.Seq)
		n = model.PutVarint(out, n, int64(b.Origin))
	}
	dst = out[:n]
	dst = appendSpans(dst, k.uploaded)
	for i, b := range c.Brokers[:len(k.cursors)] {
		cur := k.cursors[i]
		if cur.gen == b.Log.Gen {
			dst = binary.AppendVarint(append(dst, 1), cur.checked)
		} else {
			dst = append(dst, 0)
		}
		dst = binary.AppendVarint(dst, cur.hro)
		l := c.Leader()
		current := false
		if l != nil && l != b && len(b.Log.Epochs) > 0 && len(l.Log.Epochs) > 0 {
			hot, ends := lineageKeyOf(b, l)
			current = cur.lin == hot && k.cold[i].ends == ends
		}
		dst = append(dst, boolByte(current))
	}
	h := k.holeKey
	dst = append(dst, boolByte(h.remoteVer == c.Remote.Version), boolByte(h.tiered))
	for _, v := range [...]int64{int64(h.leader), h.lso, h.llso} {
		dst = binary.AppendVarint(dst, v)
	}
	f := &k.f
	dst = append(dst, boolByte(f.tiered), boolByte(f.disabled))
	for _, v := range [...]int64{int64(f.disableLeader), f.disableLeaderLLSO, f.uncleanGapLo, f.uncleanGapHi, f.metaHighAtDisable} {
		dst = binary.AppendVarint(dst, v)
	}
	for _, list := range [...][]int64{f.hroAtDisable, f.llsoAtDisable, f.hroAtUnclean} {
		dst = binary.AppendUvarint(dst, uint64(len(list)))
		for _, v := range list {
			dst = binary.AppendVarint(dst, v)
		}
	}
	dst = appendSpans(dst, f.unfinished)
	if k.staleSince < 0 { // the stale clock and its facts are read only while it runs
		return append(dst, 0)
	}
	dst = append(dst, 1, boolByte(k.copyingBefore), boolByte(f.staleCopyingSeen))
	dst = binary.AppendVarint(dst, f.stalePos)
	dst = binary.AppendVarint(dst, int64(now.Sub(k.staleSince)))
	return binary.AppendVarint(dst, int64(now.Sub(f.staleCopyingSince)))
}

func appendSpans(dst []byte, spans []span) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(spans)))
	for _, s := range spans {
		dst = binary.AppendVarint(dst, s.lo)
		dst = binary.AppendVarint(dst, s.hi)
	}
	return dst
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}
