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
		x.addEpochs(&r.Segments[i])
	}
}

// addEpochs adds segment s, listed after every segment the index holds,
// to the per-epoch part.
func (x *remoteIndex) addEpochs(s *RemoteSegment) {
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

// current reports whether the index describes r's list as it is.
func (x *remoteIndex) current(r *Remote) bool {
	return x.built && x.ver == r.Version && x.n == len(r.Segments)
}

// stamp records that the index describes r's list as it is now.
func (x *remoteIndex) stamp(r *Remote) { x.ver, x.n = r.Version, len(r.Segments) }

// inserted follows the insertion of segment i into a list the index was
// current for: kept up to date when i is the last (an upload), left
// behind otherwise.
func (x *remoteIndex) inserted(r *Remote, i int) {
	if i != len(r.Segments)-1 {
		return
	}
	s := &r.Segments[i]
	m := int64(-1 << 63)
	if i > 0 {
		m = x.maxEnd[i-1]
	}
	if s.Base <= m || s.marks != nil {
		x.overlap = true
	}
	x.maxEnd = append(x.maxEnd, max(m, s.End))
	if s.State == CopyFinished {
		x.addFinished(s)
	}
	if x.epochsBuilt {
		x.epochs = slices.Clone(x.epochs) // a copy of the Remote may share them
		x.addEpochs(s)
	}
	x.stamp(r)
}

// stateSet follows segment i's move from state was to its state now.
func (x *remoteIndex) stateSet(r *Remote, i int, was RemoteState) {
	s := &r.Segments[i]
	switch fin := s.State == CopyFinished; {
	case fin == (was == CopyFinished):
	case fin:
		x.addFinished(s)
		if x.epochsBuilt { // read under its epochs from now on
			x.epochs = slices.Clone(x.epochs)
			x.addEpochs(s)
		}
	case !x.dropFinished(r, s):
		return
	default:
		x.epochsBuilt = false // read no more: an epoch's highest start may fall; rebuilt when asked
	}
	x.stamp(r)
}

// removing prepares the removal of segment i, false when the index cannot
// follow it (it is then rebuilt when next asked): kept up to date when the
// first or the last segment goes and no two segments overlap (the ends
// then rise along the list, so each running maximum is its own end).
func (x *remoteIndex) removing(r *Remote, i int) bool {
	switch n := len(r.Segments); {
	case x.overlap: // the removal may end the overlap
		return false
	case i == n-1:
		x.maxEnd = slices.Clip(x.maxEnd[:n-1]) // appending in place would write what a copy reads
	case i == 0:
		x.maxEnd = x.maxEnd[1:]
	default:
		return false
	}
	x.epochsBuilt = false // the epoch's first listed segment may have gone: rebuilt when asked
	return true
}

// removed completes the removal of segment s (removing said yes).
func (x *remoteIndex) removed(r *Remote, s *RemoteSegment) {
	if s.State == CopyFinished && !x.dropFinished(r, s) {
		return
	}
	x.stamp(r)
}

// addFinished counts finished segment s.
func (x *remoteIndex) addFinished(s *RemoteSegment) {
	x.finBytes += s.Bytes
	if !x.finOK {
		x.finStart, x.finEnd, x.finOK = s.Base, s.End, true
	} else {
		x.finStart, x.finEnd = min(x.finStart, s.Base), max(x.finEnd, s.End)
	}
}

// dropFinished uncounts s, finished no more (moved or removed), false when
// the index cannot follow (segments overlap). With no overlap the bases
// and the ends rise along the list: the finished range starts at the
// first finished segment and ends at the last, which a scan finds from
// where the range started (resp. from the list's end) past the segments
// not finished: deletions go oldest first and uploads in flight are few.
func (x *remoteIndex) dropFinished(r *Remote, s *RemoteSegment) bool {
	if x.overlap {
		return false
	}
	x.finBytes -= s.Bytes
	segs := r.Segments
	if s.Base == x.finStart {
		i := sort.Search(len(segs), func(i int) bool { return segs[i].Base >= x.finStart })
		for i < len(segs) && segs[i].State != CopyFinished {
			i++
		}
		if i == len(segs) {
			x.finStart, x.finEnd, x.finOK = 0, 0, false
			return true
		}
		x.finStart = segs[i].Base
	}
	if s.End == x.finEnd {
		i := len(segs) - 1
		for segs[i].State != CopyFinished {
			i--
		}
		x.finEnd = segs[i].End
	}
	return true
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
