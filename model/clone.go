package model

import (
	"fmt"
	"slices"
)

// Clone returns an independent copy of the cluster: stepping either never
// changes the other. Batches and the slices events and messages hold are
// shared, because the model never writes them once made (it copies on
// write, see Segment); everything it writes in place is copied. The copy
// shares the outbox, which must be empty (Advance): step a cluster and its
// copies from one goroutine at a time, acknowledging each step's Ready.
func (c *Cluster) Clone() *Cluster {
	if len(c.out.events) != 0 || len(c.out.effects) != 0 {
		panic(fmt.Sprintf("model: Clone with %d events and %d effects not acknowledged (Advance)", len(c.out.events), len(c.out.effects)))
	}
	n := *c
	n.Brokers = make([]*Broker, len(c.Brokers))
	for i, b := range c.Brokers {
		nb := *b
		nb.Log = cloneLog(b.Log)
		nb.lead.followers = slices.Clone(b.lead.followers)
		nb.deleteOps = slices.Clone(b.deleteOps)
		nb.cancelledCopies = slices.Clone(b.cancelledCopies)
		if b.cache != nil {
			nb.cache = b.cache.clone()
		}
		if b.fetch.query != nil {
			q := *b.fetch.query
			nb.fetch.query = &q
		}
		n.Brokers[i] = &nb
	}
	n.Ctrl.Replicas = slices.Clone(c.Ctrl.Replicas)
	n.Ctrl.ISR = slices.Clone(c.Ctrl.ISR)
	n.Ctrl.ELR = slices.Clone(c.Ctrl.ELR)
	n.Ctrl.Adding, n.Ctrl.Removing = slices.Clone(c.Ctrl.Adding), slices.Clone(c.Ctrl.Removing)
	n.Remote.Segments = slices.Clone(c.Remote.Segments)
	// Appended to in place: the copy's own appends must reallocate.
	n.Remote.changed = slices.Clip(c.Remote.changed)
	n.Remote.idx.maxEnd = slices.Clip(c.Remote.idx.maxEnd)
	n.producers = slices.Clone(c.producers)
	n.metaLog = slices.Clip(c.metaLog)
	return &n
}
