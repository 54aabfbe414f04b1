package invariants

import (
	"slices"
)

// Clone returns an independent copy of the checker, for a copy of the
// cluster it checks (model.Cluster.Clone): simrun explore steps both apart.
func (k *Checker) Clone() *Checker {
	n := *k
	n.history = slices.Clone(k.history) // rebase rewrites it in place
	n.cursors = slices.Clone(k.cursors)
	n.checkedSeg = slices.Clone(k.checkedSeg)
	n.uploaded = slices.Clone(k.uploaded)
	n.hro = slices.Clone(k.hro)
	n.lineage = slices.Clone(k.lineage)
	n.f.hroAtDisable = slices.Clone(k.f.hroAtDisable)
	n.f.llsoAtDisable = slices.Clone(k.f.llsoAtDisable)
	n.f.hroAtUnclean = slices.Clone(k.f.hroAtUnclean)
	n.f.unfinished = slices.Clone(k.f.unfinished)
	return &n
}
