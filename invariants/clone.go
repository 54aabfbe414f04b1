package invariants

import (
	"slices"
)

// Clone returns an independent copy of the checker, for a copy of the
// cluster it checks (model.Cluster.Clone): simrun explore steps both apart.
func (k *Checker) Clone() *Checker {
	n := *k
	// Shared, copy on write: the history is only appended to (a clipped
	// slice reallocates), trimmed by reslicing or into a new array, and
	// replaced by a new one on rebase; span lists are rebuilt by addSpan.
	n.history = slices.Clip(k.history)
	n.uploaded = slices.Clip(k.uploaded)
	n.f.unfinished = slices.Clip(k.f.unfinished)
	n.cursors = slices.Clone(k.cursors)
	n.checkedSeg = slices.Clone(k.checkedSeg)
	n.changeScratch, n.segScratch = nil, nil
	n.hro = slices.Clone(k.hro)
	n.lineage = slices.Clone(k.lineage)
	n.f.hroAtDisable = slices.Clone(k.f.hroAtDisable)
	n.f.llsoAtDisable = slices.Clone(k.f.llsoAtDisable)
	n.f.hroAtUnclean = slices.Clone(k.f.hroAtUnclean)
	n.f.lastRetry = slices.Clone(k.f.lastRetry)
	return &n
}
