package model

import (
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
	// deleting is set while a deletion of the segment is in flight; a
	// DeleteStarted segment without one is dangling and is retried by the
	// leader's expiration task.
	deleting bool
	// uncopied is set when the deletion of a copy that never finished
	// starts: Kafka's metadata cache raises an epoch's highest offset only
	// when a copy finishes (RemoteLogLeaderEpochState), so such a segment
	// never counts for it.
	uncopied bool
}

// RemoteState is the lifecycle state of a remote segment's metadata.
type RemoteState uint8

// Remote segment states, as in Kafka's RemoteLogSegmentState. What each
// state makes visible follows Kafka's RemoteLogMetadataCache: every state is
// listed (findLogStartOffset and the expiration task see it); only
// CopyFinished is readable (reads and the auxiliary-state build find it by
// epoch and offset); CopyFinished and DeleteStarted count for the highest
// offset of an epoch (findHighestRemoteOffset), which the cache raises when
// a copy finishes and never lowers while the segment is listed.
// CopyFinished is the zero value: a segment given without a state (a
// fixture, a test) is a finished copy.
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

// copied reports whether the segment's copy finished at some point: its
// offsets count for the highest offset of its epochs.
func (s *RemoteSegment) copied() bool {
	return s.State == CopyFinished || (s.State == DeleteStarted && !s.uncopied)
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

// Remote is remote storage and its metadata for the partition. It is shared
// by every broker; the metadata view is the same everywhere once a broker's
// metadata is ready.
type Remote struct {
	Segments      []RemoteSegment // sorted by (Base, ID)
	NextID        uint64
	OutageUntilUs int64 // remote operations fail until then
	// Version rises on every change, so observers can skip unchanged state.
	Version uint64
	idx     remoteIndex // rebuilt on demand after a change (remote_index.go)
}

// Start records a new upload (COPY_SEGMENT_STARTED) and returns its id.
func (r *Remote) Start(seg RemoteSegment) uint64 {
	r.NextID++
	seg.ID, seg.State = r.NextID, CopyStarted
	i := sort.Search(len(r.Segments), func(i int) bool {
		x := &r.Segments[i]
		return x.Base > seg.Base || (x.Base == seg.Base && x.ID > seg.ID)
	})
	r.Segments = append(r.Segments, RemoteSegment{})
	copy(r.Segments[i+1:], r.Segments[i:])
	r.Segments[i] = seg
	r.Version++
	return seg.ID
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

// SetState moves segment id to state st and reports whether it exists.
func (r *Remote) SetState(id uint64, st RemoteState) bool {
	i := r.Find(id)
	if i < 0 {
		return false
	}
	r.Segments[i].State = st
	r.Version++
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
	if n := len(r.Segments); i < n/2 {
		copy(r.Segments[1:i+1], r.Segments[:i])
		r.Segments[0] = RemoteSegment{} // keeps no references
		r.Segments = r.Segments[1:]
	} else {
		r.Segments = slices.Delete(r.Segments, i, i+1)
	}
	r.Version++
}

// Lookup finds a finished segment that holds offset o in leader epoch epoch
// (Kafka's fetchRemoteLogSegmentMetadata).
func (r *Remote) Lookup(epoch int32, o int64) (*RemoteSegment, bool) {
	for i := r.FirstEndingAtOrAfter(o); i < len(r.Segments) && r.Segments[i].Base <= o; i++ {
		s := &r.Segments[i]
		if s.State == CopyFinished && s.Base <= o && o <= s.End && s.EpochAt(o) == epoch {
			return s, true
		}
	}
	return nil, false
}

// Finished returns the range [start, end] of finished remote segments, ok
// false when there are none.
func (r *Remote) Finished() (start, end int64, ok bool) {
	x := r.index(false)
	return x.finStart, x.finEnd, x.finOK
}

// HighestOffsetFor returns the highest offset of epoch over the segments
// whose copy finished and that are still listed (Kafka's
// highestOffsetForEpoch: a segment being deleted still counts), -1 when
// none holds it.
func (r *Remote) HighestOffsetFor(epoch int32) int64 {
	e, _ := r.index(true).epoch(epoch)
	return e.highest
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

// FirstOffsetFor returns the lowest base offset of a segment (in any state)
// holding epoch, ok false when none does.
func (r *Remote) FirstOffsetFor(epoch int32) (int64, bool) {
	e, _ := r.index(true).epoch(epoch)
	if !e.firstOK {
		return 0, false
	}
	return e.firstBase, true
}
