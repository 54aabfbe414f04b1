package model

import (
	"cmp"
	"slices"
	"sort"
)

// remoteIndex summarises the segment list for the lookups the RLM tasks
// make on every run (the first offset of an epoch, the finished bytes and
// range), so that a run costs a binary search instead of a pass over every
// segment. It is rebuilt, in one pass,
// the first time it is asked after the list changed (Remote.Version, or the
// length for a list built without one). A rebuild allocates afresh: a copy
// of a Remote shares the old index, never a half-rebuilt one.
type remoteIndex struct {
	built bool
	ver   uint64
	n     int
	// maxEnd is the running maximum of the segments' ends in list order
	// (by base): segments may overlap, so their ends alone are not sorted.
	maxEnd      []int64
	epochs      []epochIndex // sorted by epoch
	epochsBuilt bool
	// finished segments: their bytes and the range they span
	finBytes         int64
	finStart, finEnd int64
	finOK            bool
	// overlap is set when two segments share an offset, or a copy took an
	// earlier one's place (a segment carries unref or unlisted epochs):
	// lookups then take Kafka's floor entry exactly (Remote.Lookup).
	overlap bool
}

// epochIndex is what the list says about one leader epoch.
type epochIndex struct {
	epoch int32
	// firstBase is the base of the first segment in the list (any state)
	// listed under the epoch, ok false when none is.
	firstBase int64
	firstOK   bool
	// maxRefStart is the highest start of the epoch in a segment a read
	// may find under it (RemoteSegment.referenced), -1 when none.
	maxRefStart int64
}

// index returns the index with its ends and sums built; byEpoch builds the
// per-epoch part too (only the RLM tasks' lookups need it).
func (r *Remote) index(byEpoch bool) *remoteIndex {
	x := &r.idx
	if !x.built || x.ver != r.Version || x.n != len(r.Segments) {
		*x = remoteIndex{built: true, ver: r.Version, n: len(r.Segments), maxEnd: make([]int64, len(r.Segments))}
		m := int64(-1 << 63)
		for i := range r.Segments {
			s := &r.Segments[i]
			if s.Base <= m || s.marks != nil {
				x.overlap = true
			}
			m = max(m, s.End)
			x.maxEnd[i] = m
			if s.State == CopyFinished {
				x.finBytes += s.Bytes
				if !x.finOK {
					x.finStart, x.finEnd, x.finOK = s.Base, s.End, true
				} else {
					x.finStart, x.finEnd = min(x.finStart, s.Base), max(x.finEnd, s.End)
				}
			}
		}
	}
	if byEpoch && !x.epochsBuilt {
		x.buildEpochs(r)
	}
	return x
}

// buildEpochs makes one pass over the list in its order (by base), so an
// epoch's first listed segment is the first met; the epochs are few, kept
// sorted, and nothing is allocated per segment.
func (x *remoteIndex) buildEpochs(r *Remote) {
	x.epochsBuilt = true
	x.epochs = nil
	for i := range r.Segments {
		s := &r.Segments[i]
		for j, e := range s.Epochs {
			if slices.ContainsFunc(s.Epochs[:j], func(p EpochEntry) bool { return p.Epoch == e.Epoch }) {
				continue // HighestOffsetFor answers from the first entry
			}
			k, ok := slices.BinarySearchFunc(x.epochs, e.Epoch, func(a epochIndex, t int32) int { return cmp.Compare(a.epoch, t) })
			if !ok {
				x.epochs = slices.Insert(x.epochs, k, epochIndex{epoch: e.Epoch, maxRefStart: -1})
			}
			ei := &x.epochs[k]
			if !ei.firstOK && s.listedUnder(e.Epoch) {
				ei.firstBase, ei.firstOK = s.Base, true
			}
			if s.referenced(e.Epoch) {
				ei.maxRefStart = max(ei.maxRefStart, e.StartOffset)
			}
		}
	}
}

func (x *remoteIndex) epoch(epoch int32) (epochIndex, bool) {
	i, ok := slices.BinarySearchFunc(x.epochs, epoch, func(e epochIndex, t int32) int { return cmp.Compare(e.epoch, t) })
	if !ok {
		return epochIndex{epoch: epoch, maxRefStart: -1}, false
	}
	return x.epochs[i], true
}

// maxReferencedStart returns the highest start of epoch in a segment a
// read may find under it, -1 when none.
func (r *Remote) maxReferencedStart(epoch int32) int64 {
	e, _ := r.index(true).epoch(epoch)
	return e.maxRefStart
}

// FirstEndingAtOrAfter returns the index of the first segment in the list
// whose end is at or after o: every segment before it ends below o, so the
// segments holding o are found from there on, up to the first whose base
// is above o.
func (r *Remote) FirstEndingAtOrAfter(o int64) int {
	x := r.index(false)
	return sort.Search(len(x.maxEnd), func(i int) bool { return x.maxEnd[i] >= o })
}
