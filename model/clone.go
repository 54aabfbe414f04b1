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
func (c *Cluster) Clone() *Cluster { return c.CloneInto(nil) }

// CloneInto is Clone into dst, a cluster nothing uses any more (nil: a new
// one): its Cluster and Broker structures, its broker list and the arrays
// only it ever holds (the remote segment list, each broker's segment list
// and follower views, the array its producer states were packed into,
// each broker's pending ListOffsets query: Clone copies them, the model
// never shares them) are reused; nothing else they point to (copies of dst
// share it).
func (c *Cluster) CloneInto(dst *Cluster) *Cluster {
	if len(c.out.events) != 0 || len(c.out.effects) != 0 {
		panic(fmt.Sprintf("model: Clone with %d events and %d effects not acknowledged (Advance)", len(c.out.events), len(c.out.effects)))
	}
	if dst == c {
		panic("model: CloneInto a cluster into itself")
	}
	var spare []*Broker
	var remote []RemoteSegment
	var prods []ProducerEntry
	if dst == nil {
		dst = new(Cluster)
	} else {
		spare, remote, prods = dst.Brokers, dst.Remote.Segments, dst.prods
	}
	*dst = *c
	n := dst
	n.Brokers = spare[:0]
	var fresh []Broker // the brokers spare lacks, in one allocation
	if k := len(c.Brokers) - len(spare); k > 0 {
		fresh = make([]Broker, k)
		if cap(spare) < len(c.Brokers) {
			n.Brokers = make([]*Broker, 0, len(c.Brokers))
		}
	}
	for i, b := range c.Brokers {
		var nb *Broker
		var segs []Segment
		var followers []followerView
		var query *TierQuery
		if i < len(spare) {
			nb = spare[i]
			segs, followers, query = nb.Log.Segments, nb.lead.followers, nb.fetch.query
		} else {
			nb = &fresh[i-len(spare)]
		}
		*nb = *b
		n.Brokers = append(n.Brokers, nb)
		nb.Log = cloneSegmentsInto(segs, b.Log)
		nb.lead.followers = Reuse(followers, b.lead.followers)
		nb.deleteOps = slices.Clone(b.deleteOps)
		nb.cancelledCopies = slices.Clone(b.cancelledCopies)
		if b.cache != nil {
			nb.cache = b.cache.clone()
		}
		if b.fetch.query != nil {
			if query == nil { // else the dropped copy's own (each copy makes its own)
				query = new(TierQuery)
			}
			*query = *b.fetch.query
			nb.fetch.query = query
		}
	}
	n.prods = packLogs(n.Brokers, prods)
	// Shared, copy on write: the model replaces the controller's lists
	// (a clone, then its changes), never writes one in place; appends
	// to a clipped slice reallocate.
	ctl := &n.Ctrl
	ctl.Replicas, ctl.ISR, ctl.ELR = slices.Clip(ctl.Replicas), slices.Clip(ctl.ISR), slices.Clip(ctl.ELR)
	ctl.Adding, ctl.Removing = slices.Clip(ctl.Adding), slices.Clip(ctl.Removing)
	n.Remote.Segments = Reuse(remote, c.Remote.Segments)
	// Appended to in place: the copy's own appends must reallocate.
	n.Remote.changed = slices.Clip(c.Remote.changed)
	n.Remote.idx.maxEnd = slices.Clip(c.Remote.idx.maxEnd)
	n.metaLog = slices.Clip(c.metaLog)
	return n
}

// Pack copies the slices ps point to, one after the other, into one new
// array: each keeps its length and nil-ness and gets no spare capacity, so
// an append to one reallocates instead of writing the next one's slots.
// One allocation instead of one a slice: a copy of a cluster or checker
// makes many small ones, and simrun explore makes a copy at each step.
func Pack[T any](ps ...*[]T) {
	n := 0
	for _, p := range ps {
		n += len(*p)
	}
	buf := make([]T, 0, n)
	for _, p := range ps {
		buf, *p = packInto(buf, *p)
	}
}

// packInto copies s to the end of buf, which has room for it, and returns
// buf and the copy: clipped, nil for nil (Pack).
func packInto[T any](buf, s []T) ([]T, []T) {
	if s == nil {
		return buf, nil
	}
	i := len(buf)
	buf = append(buf, s...)
	return buf, buf[i:len(buf):len(buf)]
}

// Reuse returns a copy of src in dst's array (slices.Clone when dst has
// none): nil for nil. A copy into the memory of a dropped state (model's,
// the checker's and the harness's CloneInto) makes its slices with it.
func Reuse[T any](dst, src []T) []T {
	if src == nil {
		return nil
	}
	if dst == nil {
		return slices.Clone(src)
	}
	return append(dst[:0], src...)
}
