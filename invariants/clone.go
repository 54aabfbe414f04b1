package invariants

import (
	"slices"

	"tierfetch/model"
)

// Clone returns an independent copy of the checker, for a copy of the
// cluster it checks (model.Cluster.Clone): simrun explore steps both apart.
func (k *Checker) Clone() *Checker { return k.CloneInto(nil) }

// CloneInto is Clone into dst, a checker nothing uses any more (nil: a new
// one): its structure and its per-broker and per-segment records' arrays
// are reused (no copy of dst shares them).
func (k *Checker) CloneInto(dst *Checker) *Checker {
	if dst == k {
		panic("invariants: CloneInto a checker into itself")
	}
	var old Checker
	if dst == nil {
		dst = new(Checker)
	} else {
		old = *dst
	}
	*dst = *k
	n := dst
	// Shared, copy on write: the history is only appended to (a clipped
	// slice reallocates), trimmed by reslicing or into a new array, and
	// replaced by a new one on rebase; span lists are rebuilt by addSpan.
	n.history = slices.Clip(k.history)
	n.uploaded = slices.Clip(k.uploaded)
	n.f.unfinished = slices.Clip(k.f.unfinished)
	n.cursors = model.Reuse(old.cursors, k.cursors)
	n.cold = model.Reuse(old.cold, k.cold)
	n.checkedSeg = model.Reuse(old.checkedSeg, k.checkedSeg)
	n.changeScratch, n.segScratch = old.changeScratch, old.segScratch // scratch: not shared with k
	k.f.shared, n.f.shared = true, true                               // facts.mine
	return n
}
