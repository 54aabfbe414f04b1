package model

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
)

// RemoteSegment is one segment in remote storage with the metadata the
// remote log metadata manager keeps for it, including the leader-epoch
// checkpoint and producer snapshot uploaded with it.
type RemoteSegment struct {
	ID       uint64
	Base     int64
	End      int64
	Bytes    int64
	MaxTsMs  int64
	Epochs   []EpochEntry // leader epochs that begin within the segment (the first at Base)
	Batches  []Batch      // shared with the uploading leader's segment; immutable
	Checkpt  []EpochEntry // the leader's epoch cache up to End, uploaded with the segment
	Snapshot []ProducerEntry
	State    RemoteState
	// unref lists the epochs in which a later copy of the same range took
	// this finished segment's place: Kafka's RemoteLogLeaderEpochState moves
	// it to unreferencedSegmentIds, so no read finds it under that epoch
	// but the epoch still lists it. unlisted lists the epochs in which a
	// later copy starting at the same offset replaced its entry
	// (offsetToId.put): it is then neither read nor listed under that
	// epoch. Both are kept apart (marks, nil unless copies of one range
	// overlapped) so that a segment stays small: fixtures hold millions.
	marks *segMarks
}

// segMarks are a segment's unref and unlisted epochs. A segMarks is never
// changed once set: mark replaces it (clones of a cluster share it).
type segMarks struct {
	unref, unlisted []int32
}

func (s *RemoteSegment) unref() []int32 {
	if s.marks == nil {
		return nil
	}
	return s.marks.unref
}

func (s *RemoteSegment) unlisted() []int32 {
	if s.marks == nil {
		return nil
	}
	return s.marks.unlisted
}

// RemoteState is the lifecycle state of a remote segment's metadata.
type RemoteState uint8

// Remote segment states, as in Kafka's RemoteLogSegmentState. What each
// state makes visible follows Kafka's RemoteLogMetadataCache
// (RemoteLogMetadataCache.java:76-92 @120e6887): every state is listed
// (findLogStartOffset and the expiration task see it); only CopyFinished is
// readable (reads and the auxiliary-state build find it by epoch and
// offset). The highest offset of an epoch is not a property of the listed
// segments: see Remote.HighestOffsetFor. CopyFinished is the zero value: a
// segment given without a state (a fixture, a test) is a finished copy.
const (
	CopyFinished RemoteState = iota
	CopyStarted
	DeleteStarted
)

var remoteStateNames = [...]string{"copy-finished", "copy-started", "delete-started"}

func (s RemoteState) String() string { return remoteStateNames[s] }

// RemoteStateByName returns the state called name ("copy-finished", ...).
func RemoteStateByName(name string) (RemoteState, bool) {
	for i, n := range remoteStateNames {
		if n == name {
			return RemoteState(i), true
		}
	}
	return 0, false
}

// referenced reports whether a read may find s under epoch: its copy
// finished and no later copy took its place in the epoch (Kafka's
// offsetToId).
func (s *RemoteSegment) referenced(epoch int32) bool {
	return s.State == CopyFinished && (s.marks == nil || !slices.Contains(s.marks.unref, epoch) && !slices.Contains(s.marks.unlisted, epoch))
}

// listedUnder reports whether the metadata cache lists s under epoch
// (RemoteLogMetadataCache.listRemoteLogSegments(epoch)): epoch begins
// within s and no later copy replaced s's entry for it.
func (s *RemoteSegment) listedUnder(epoch int32) bool {
	return s.holdsEpoch(epoch) && (s.marks == nil || !slices.Contains(s.marks.unlisted, epoch))
}

// epochStart returns the offset where epoch begins within s, ok false
// when it does not (the segment's segmentLeaderEpochs entry).
func (s *RemoteSegment) epochStart(epoch int32) (int64, bool) {
	for _, e := range s.Epochs {
		if e.Epoch == epoch {
			return e.StartOffset, true
		}
	}
	return 0, false
}

// HighestOffsetFor returns the last offset of epoch inside the segment, -1
// when the segment holds none of it.
func (s *RemoteSegment) HighestOffsetFor(epoch int32) int64 {
	for i, e := range s.Epochs {
		if e.Epoch == epoch {
			if i+1 < len(s.Epochs) {
				return s.Epochs[i+1].StartOffset - 1
			}
			return s.End
		}
	}
	return -1
}

// EpochAt returns the epoch of offset o inside the segment.
func (s *RemoteSegment) EpochAt(o int64) int32 {
	e := int32(-1)
	for _, en := range s.Epochs {
		if en.StartOffset > o {
			break
		}
		e = en.Epoch
	}
	return e
}

// Remote is remote storage and the partition's remote log metadata as
// Kafka's RemoteLogMetadataCache folds it from the metadata topic
// (__remote_log_metadata): the segments not yet DELETE_SEGMENT_FINISHED and
// each leader epoch's highest copied offset. It is the fold of every event
// published so far; a broker whose metadata cache lags (Cluster.view) sees
// an earlier fold.
type Remote struct {
	Segments      []RemoteSegment // sorted by (Base, ID)
	NextID        uint64
	OutageUntilUs int64 // remote operations fail until then
	// Version rises on every change, so observers can skip unchanged state.
	Version uint64
	// highest is each leader epoch's highest offset over every segment whose
	// copy ever finished, sorted by epoch (Kafka's
	// RemoteLogLeaderEpochState.highestLogOffset): raised on
	// COPY_SEGMENT_FINISHED, lowered by nothing, and kept when the segments
	// go (the cache never drops an epoch's entry, KAFKA-12641).
	highest []EpochEntry // StartOffset holds the highest offset
	idx     remoteIndex  // kept up to date by the common changes, else rebuilt on demand (remote_index.go)
	// changed journals the id of the segment each change touched, in
	// order: changed[i] made version changedFrom+i+1 (Changes). Started
	// afresh, never trimmed in place (copies of a cluster share its
	// array), once it outgrows the list.
	changed     []RemoteChange
	changedFrom uint64
	// lowerHighestOnDelete is FixStaleHRO's cache: a deletion lowers the
	// highest offset of each epoch the segment held (lowerHighest).
	lowerHighestOnDelete bool
}

// Start records a new upload (COPY_SEGMENT_STARTED) and returns its id.
func (r *Remote) Start(seg RemoteSegment) uint64 {
	r.NextID++
	seg.ID, seg.State = r.NextID, CopyStarted
	r.insert(seg)
	return seg.ID
}

// clone returns a copy of r that shares nothing r writes.
func (r *Remote) clone() *Remote {
	n := &Remote{Segments: slices.Clone(r.Segments), NextID: r.NextID, Version: r.Version, highest: slices.Clip(r.highest),
		lowerHighestOnDelete: r.lowerHighestOnDelete, changedFrom: r.Version}
	return n
}

// changedBy records a change to segment id (removed: its removal): the
// version rises and the journal (Changes) names the segment.
func (r *Remote) changedBy(id uint64, removed bool) {
	if r.changedFrom+uint64(len(r.changed)) != r.Version || len(r.changed) >= 2*len(r.Segments)+64 {
		// Version was raised by hand (tests corrupt states), or the
		// journal outgrew the list: start it afresh, here. An observer
		// further behind walks the whole list once.
		r.changed, r.changedFrom = nil, r.Version
	}
	ch := RemoteChange(id << 1)
	if removed {
		ch |= 1
	}
	r.changed = append(r.changed, ch)
	r.Version++
}

// RemoteChange is one change to the segment list: the segment's id, and
// whether the change removed it.
type RemoteChange uint64

// ID is the id of the segment changed.
func (ch RemoteChange) ID() uint64 { return uint64(ch) >> 1 }

// Removed reports whether the change removed the segment (ids are never
// used again).
func (ch RemoteChange) Removed() bool { return ch&1 != 0 }

// Changes returns the changes made since version since, in order, ok false
// when the journal does not reach back that far: the caller then looks at
// every segment.
func (r *Remote) Changes(since uint64) (changes []RemoteChange, ok bool) {
	if since < r.changedFrom || since > r.Version || r.changedFrom+uint64(len(r.changed)) != r.Version {
		return nil, false
	}
	return r.changed[since-r.changedFrom:], true
}

// insert adds segment seg, its id set, in list order.
func (r *Remote) insert(seg RemoteSegment) {
	if seg.ID == 0 {
		panic(fmt.Sprintf("model: insert remote segment [%d..%d] with no id", seg.Base, seg.End))
	}
	i := sort.Search(len(r.Segments), func(i int) bool {
		x := &r.Segments[i]
		return x.Base > seg.Base || (x.Base == seg.Base && x.ID > seg.ID)
	})
	current := r.idx.current(r)
	r.Segments = append(r.Segments, RemoteSegment{})
	copy(r.Segments[i+1:], r.Segments[i:])
	r.Segments[i] = seg
	r.changedBy(seg.ID, false)
	if current {
		r.idx.inserted(r, i)
	}
}

// Find returns the index of segment id, -1 if gone.
func (r *Remote) Find(id uint64) int {
	// From both ends at once: the segments uploaded, expired and deleted
	// are the newest and the oldest, so this is short whatever the length.
	for i, j := 0, len(r.Segments)-1; i <= j; i, j = i+1, j-1 {
		if r.Segments[i].ID == id {
			return i
		}
		if r.Segments[j].ID == id {
			return j
		}
	}
	return -1
}

// SetState moves segment id to state st and reports whether it exists. A
// move to CopyFinished is COPY_SEGMENT_FINISHED (finishCopy); a move to
// DeleteStarted takes the segment out of reads.
func (r *Remote) SetState(id uint64, st RemoteState) bool {
	i := r.Find(id)
	if i < 0 {
		return false
	}
	if cur := r.Segments[i].State; st == CopyStarted || st == CopyFinished && cur == DeleteStarted {
		panic(fmt.Sprintf("model: remote segment %d moves from %s to %s", id, cur, st))
	}
	if st == CopyFinished && r.Segments[i].State != CopyFinished {
		r.finishCopy(i)
	}
	current, was := r.idx.current(r), r.Segments[i].State
	r.Segments[i].State = st
	r.changedBy(id, false)
	if current {
		r.idx.stateSet(r, i, was)
	}
	if st == DeleteStarted && r.lowerHighestOnDelete {
		r.lowerHighest(r.Segments[i].Epochs)
	}
	return true
}

// Remove drops segment id's metadata (COPY failed or DELETE finished), in
// place (Clone copies the list, so no copy of the Remote shares it). The
// segments on the shorter side of it move by one, so dropping one near
// either end, as retention and uploads do, never copies the whole list.
func (r *Remote) Remove(id uint64) {
	i := r.Find(id)
	if i < 0 {
		return
	}
	epochs := r.Segments[i].Epochs
	defer func() {
		if r.lowerHighestOnDelete {
			r.lowerHighest(epochs)
		}
	}()
	current, gone := r.idx.current(r), r.Segments[i]
	current = current && r.idx.removing(r, i)
	if n := len(r.Segments); i < n/2 {
		copy(r.Segments[1:i+1], r.Segments[:i])
		r.Segments[0] = RemoteSegment{} // keeps no references
		r.Segments = r.Segments[1:]
	} else {
		r.Segments = slices.Delete(r.Segments, i, i+1)
	}
	r.changedBy(id, true)
	if current {
		r.idx.removed(r, &gone)
	}
}

// Lookup finds the finished segment that holds offset o in leader epoch
// epoch (Kafka's RemoteLogMetadataCache.remoteLogSegmentMetadata,
// RemoteLogMetadataCache.java:127-151 @120e6887): the referenced segment
// of the epoch starting latest at or before o in the epoch, if o lies
// within the epoch's range in it. When copies overlapped that segment may
// end before o although another holds it: the lookup then finds none.
func (r *Remote) Lookup(epoch int32, o int64) (*RemoteSegment, bool) {
	if r.index(false).overlap {
		return r.lookupOverlapping(epoch, o)
	}
	for i := r.FirstEndingAtOrAfter(o); i < len(r.Segments) && r.Segments[i].Base <= o; i++ {
		s := &r.Segments[i]
		if s.State == CopyFinished && s.Base <= o && o <= s.End && s.EpochAt(o) == epoch {
			return s, true
		}
	}
	return nil, false
}

// lookupOverlapping is Lookup when segments overlap or a copy took another's
// place: the floor entry of the epoch's referenced segments, by a scan.
func (r *Remote) lookupOverlapping(epoch int32, o int64) (*RemoteSegment, bool) {
	best, bestStart := -1, int64(-1)
	for j := range r.Segments {
		s := &r.Segments[j]
		if js, ok := s.epochStart(epoch); ok && js <= o && js > bestStart && s.referenced(epoch) {
			best, bestStart = j, js
		}
	}
	if best < 0 || o > r.Segments[best].HighestOffsetFor(epoch) {
		return nil, false
	}
	return &r.Segments[best], true
}

// Finished returns the range [start, end] of finished remote segments, ok
// false when there are none.
func (r *Remote) Finished() (start, end int64, ok bool) {
	x := r.index(false)
	return x.finStart, x.finEnd, x.finOK
}

// HighestOffsetFor returns the highest offset of epoch over every segment
// whose copy ever finished, -1 when none did (Kafka's
// RemoteLogMetadataCache.highestOffsetForEpoch,
// RemoteLogMetadataCache.java:286-289 @120e6887, which returns
// RemoteLogLeaderEpochState.highestLogOffset: set only on
// COPY_SEGMENT_FINISHED, RemoteLogLeaderEpochState.java:127-129
// @06a2dac2, and never lowered: the DELETE_SEGMENT_* handlers, 132-144,
// leave it). A segment deleted since, even every segment of the epoch,
// still counts: the metadata topic keeps its COPY_SEGMENT_FINISHED event
// and a cache rebuilt from it raises the offset again.
func (r *Remote) HighestOffsetFor(epoch int32) int64 {
	i, ok := slices.BinarySearchFunc(r.highest, epoch, func(e EpochEntry, t int32) int { return cmp.Compare(e.Epoch, t) })
	if !ok {
		return -1
	}
	return r.highest[i].StartOffset
}

// MaxHighestOffset returns the highest of every epoch's highest copied
// offset (HighestOffsetFor), -1 when no copy ever finished.
func (r *Remote) MaxHighestOffset() int64 {
	h := int64(-1)
	for _, e := range r.highest {
		h = max(h, e.StartOffset)
	}
	return h
}

// raiseHighest raises epoch's highest copied offset to h.
func (r *Remote) raiseHighest(epoch int32, h int64) {
	i, ok := slices.BinarySearchFunc(r.highest, epoch, func(e EpochEntry, t int32) int { return cmp.Compare(e.Epoch, t) })
	switch {
	case !ok:
		r.highest = slices.Insert(slices.Clip(r.highest), i, EpochEntry{Epoch: epoch, StartOffset: h})
	case h > r.highest[i].StartOffset:
		r.highest = slices.Clone(r.highest) // a clone of the cluster may share the old array
		r.highest[i].StartOffset = h
	}
}

// lowerHighest is FixStaleHRO's change to RemoteLogLeaderEpochState
// (RemoteLogLeaderEpochState.java:132-139 @06a2dac2, the
// DELETE_SEGMENT_STARTED handler): once a segment's deletion starts, each
// epoch it held gets as highest offset the end, in the epoch, of the
// segments a read may still find under it (Kafka's offsetToId, which the
// handler has just left), and loses its entry when none is left
// (KAFKA-12641's TODO). Every cache folding the same events agrees, so a
// replay of the metadata topic rebuilds the same, lowered, offsets.
func (r *Remote) lowerHighest(epochs []EpochEntry) {
	for _, e := range epochs {
		i, ok := slices.BinarySearchFunc(r.highest, e.Epoch, func(x EpochEntry, t int32) int { return cmp.Compare(x.Epoch, t) })
		if !ok {
			continue
		}
		h := int64(-1)
		for j := range r.Segments {
			if s := &r.Segments[j]; s.holdsEpoch(e.Epoch) && s.referenced(e.Epoch) {
				h = max(h, s.HighestOffsetFor(e.Epoch))
			}
		}
		switch {
		case h < 0:
			r.highest = slices.Delete(slices.Clone(r.highest), i, i+1)
		case h < r.highest[i].StartOffset:
			r.highest = slices.Clone(r.highest) // a clone of the cluster may share the old array
			r.highest[i].StartOffset = h
		}
	}
}

// InitHighest raises every epoch's highest copied offset for the segments
// listed at the start of a run whose copy finished (CopyFinished, or
// DeleteStarted: a deletion starts only after the copy finished).
func (r *Remote) InitHighest() {
	for i := range r.Segments {
		s := &r.Segments[i]
		if s.State == CopyStarted {
			continue
		}
		for _, e := range s.Epochs {
			r.raiseHighest(e.Epoch, s.HighestOffsetFor(e.Epoch))
		}
	}
}

// finishCopy applies COPY_SEGMENT_FINISHED for segment i to every epoch it
// holds (RemoteLogMetadataCache.handleSegmentWithCopySegmentFinishedState,
// RemoteLogMetadataCache.java:196-206 @120e6887, and
// RemoteLogLeaderEpochState.handleSegmentWithCopySegmentFinishedState,
// RemoteLogLeaderEpochState.java:101-130 @06a2dac2): while the epoch's
// latest referenced segment starts at or after this one's start in the
// epoch and the epoch's highest offset is at most this one's end in it,
// that segment becomes unreferenced (a duplicate or an overlapped copy);
// then this segment takes the entry at its start (replacing one left
// there) and the epoch's highest offset rises to its end in the epoch.
func (r *Remote) finishCopy(i int) {
	s := &r.Segments[i]
	for _, e := range s.Epochs {
		start, end := e.StartOffset, s.HighestOffsetFor(e.Epoch)
		if r.maxReferencedStart(e.Epoch) >= start {
			r.unreferenceFrom(i, e.Epoch, start, end)
		}
		r.raiseHighest(e.Epoch, end)
	}
}

// unreferenceFrom is the slow path of finishCopy for one epoch, when a
// referenced segment of the epoch starts at or after start: segment i's
// copy overlaps an earlier one.
func (r *Remote) unreferenceFrom(i int, epoch int32, start, end int64) {
	for r.HighestOffsetFor(epoch) <= end {
		j := r.latestReferenced(epoch, i)
		if j < 0 {
			break
		}
		js, _ := r.Segments[j].epochStart(epoch)
		if js < start {
			break
		}
		r.mark(j, false, epoch)
	}
	for j := range r.Segments {
		if js, ok := r.Segments[j].epochStart(epoch); ok && j != i && js == start && r.Segments[j].referenced(epoch) {
			r.mark(j, false, epoch)
			r.mark(j, true, epoch)
		}
	}
}

// latestReferenced returns the index of the referenced segment of epoch
// with the highest start in the epoch, other than skip, -1 when none.
func (r *Remote) latestReferenced(epoch int32, skip int) int {
	best, bestStart := -1, int64(-1)
	for j := range r.Segments {
		if j == skip || !r.Segments[j].referenced(epoch) {
			continue
		}
		if js, ok := r.Segments[j].epochStart(epoch); ok && js > bestStart {
			best, bestStart = j, js
		}
	}
	return best
}

// mark adds epoch to the epoch list *l of segment j, copying the list (a
// clone of the cluster shares it).
func (r *Remote) mark(j int, unlisted bool, epoch int32) {
	s := &r.Segments[j]
	var m segMarks
	if s.marks != nil {
		m = *s.marks
	}
	l := &m.unref
	if unlisted {
		l = &m.unlisted
	}
	if !slices.Contains(*l, epoch) {
		*l = append(slices.Clip(*l), epoch)
		s.marks = &m
	}
	r.changedBy(s.ID, false) // the index is rebuilt: a mark may make lookups exact
}

// FindHighestRemoteOffset walks the leader-epoch cache from the newest epoch
// and returns min(highest remote offset of that epoch, epoch end offset - 1)
// for the first epoch remote storage holds, -1 when none (Kafka's
// RemoteLogManager.findHighestRemoteOffset).
// withoutEpochEnd drops the clamp to the epoch's end (MutantHROWithoutEpochEnd).
func (r *Remote) FindHighestRemoteOffset(l *Log, withoutEpochEnd bool) int64 {
	for i := len(l.Epochs) - 1; i >= 0; i-- {
		h := r.HighestOffsetFor(l.Epochs[i].Epoch)
		if h < 0 {
			continue
		}
		end := l.LogEnd
		if i+1 < len(l.Epochs) {
			end = l.Epochs[i+1].StartOffset
		}
		if withoutEpochEnd {
			return h
		}
		return min(h, end-1)
	}
	return -1
}

// Bytes returns the bytes held by finished remote segments.
func (r *Remote) Bytes() int64 { return r.index(false).finBytes }

// FirstFinishedOffsetFor is FirstOffsetFor over the segments whose copy
// finished (their deletion not started): findLogStartOffset as
// stale-log-start-unfinished-segment's report first proposed it
// (FixUnfinishedSegmentSkipOnly; RemoteLogManager.java:2151 @025293cb would
// skip the others, as reads do).
func (r *Remote) FirstFinishedOffsetFor(epoch int32) (int64, bool) {
	return r.firstFinished(epoch, false)
}

// FirstReadableOffsetFor is the first offset of epoch a read can find in
// remote storage: among the finished segments listed under epoch, the
// lowest offset where epoch begins within one (its segmentLeaderEpochs
// entry, the key RemoteLogMetadataCache indexes it by for reads,
// RemoteLogMetadataCache.java:237-243 and 127-147 @1eb7644349cb), not the
// segment's start offset, which may hold records of an earlier epoch no
// read under epoch finds. findLogStartOffset as
// FixStaleLogStartUnfinishedSegment has it.
func (r *Remote) FirstReadableOffsetFor(epoch int32) (int64, bool) {
	return r.firstFinished(epoch, true)
}

func (r *Remote) firstFinished(epoch int32, atEpochStart bool) (int64, bool) {
	first, ok := int64(0), false
	for i := range r.Segments {
		s := &r.Segments[i]
		if s.State != CopyFinished || !s.listedUnder(epoch) {
			continue
		}
		o := s.Base
		if atEpochStart {
			o, _ = s.epochStart(epoch)
		}
		if !ok || o < first {
			first, ok = o, true
		}
	}
	return first, ok
}

// FirstOffsetFor returns the lowest base offset of a segment (in any state)
// the metadata lists under epoch, ok false when none (the first segment of
// RemoteLogMetadataCache.listRemoteLogSegments(epoch), which
// RemoteLogManager.findLogStartOffset takes, RemoteLogManager.java:2141-2156
// @025293cb).
func (r *Remote) FirstOffsetFor(epoch int32) (int64, bool) {
	e, _ := r.index(true).epoch(epoch)
	if !e.firstOK {
		return 0, false
	}
	return e.firstBase, true
}
