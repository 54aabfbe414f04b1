package model

import "slices"

// Clone returns an independent copy of the cluster: stepping either never
// changes the other. Batches and the slices events and messages hold are
// shared, because the model never writes them once made (it copies on
// write, see Segment); everything it writes in place is copied. The
// current step's Out and Events must be drained (they are not copied): the
// copy reuses their arrays, which a step fills and its caller drains, so
// step a cluster and its copies from one goroutine at a time.
func (c *Cluster) Clone() *Cluster {
	n := *c
	n.Out, n.Events = c.Out[:0], c.Events[:0]
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
	n.Remote.Segments = slices.Clone(c.Remote.Segments)
	n.producers = slices.Clone(c.producers)
	n.metaLog = slices.Clip(c.metaLog)
	n.ISRChanges = slices.Clip(c.ISRChanges)
	return &n
}
