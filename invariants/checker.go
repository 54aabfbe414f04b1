package invariants

import (
	"fmt"
	"slices"
	"sort"

	"tierfetch/model"
	"tierfetch/sim"
)

// Violation is one broken invariant.
type Violation struct {
	Invariant string // a stable name, e.g. "offset-order"
	Message   string // what was wrong, with the offsets involved
	// Kind names the cause when the checker can tell it from the state, so
	// sweeps can group a known finding: "stale-hro" is a hole made by local
	// retention trusting an HRO that remote storage no longer backs.
	Kind string
}

// Known finding kinds.
const (
	KindStaleHRO = "stale-hro"
	// KindUncleanElection: data the unclean election lost (the scenario
	// enabled unclean.leader.election.enable).
	KindUncleanElection = "unclean-election"
	// KindHROAfterTruncation: local retention deleted records of the lineage
	// an unclean election began, trusting an HRO the replica learned in the
	// lineage the election ended (it survives the truncation).
	KindHROAfterTruncation = "hro-after-truncation"
	// KindStaleLogStartCopyDisabled: with remote.log.copy.disable there is no
	// copy task, so a new leader never raises a lagging log start offset.
	KindStaleLogStartCopyDisabled = "stale-log-start-copy-disabled"
	// KindStaleLogStartTieringOff: the same with tiering disabled (no RLM
	// tasks at all).
	KindStaleLogStartTieringOff = "stale-log-start-tiering-off"
	// KindStaleLogStartUnfinishedSegment: the new leader's copy task raised
	// its log start offset to a remote segment that was being deleted (or
	// uploaded) when the old leader died; the deletion finishes and the
	// records below the old leader's log start offset are advertised again.
	KindStaleLogStartUnfinishedSegment = "stale-log-start-unfinished-segment"
	// KindTieredFollowerAfterDisable: a follower that bootstrapped from the
	// tiered offset (KIP-1023) holds nothing below it locally; once tiering
	// is disabled with delete-on-disable the remote copy is gone, and if it
	// becomes leader the records between the old leader's local log start
	// and its own exist on no live leader.
	KindTieredFollowerAfterDisable = "tiered-follower-after-disable"
	// KindFollowerGapAfterDisable: the same for any follower whose local log
	// started above the leader's when tiering was disabled (its own local
	// retention ran further): the disable deleted the only other copy.
	KindFollowerGapAfterDisable = "follower-gap-after-disable"
	// KindKafka43EPUOUnknownStall: under Kafka 4.3's code a flag-on follower
	// retries forever while the leader answers -6 with -1 and its local log
	// start differs from its log start (a fully tiered idle partition, or a
	// restarted leader whose HRO nothing seeds because copying is disabled).
	KindKafka43EPUOUnknownStall = "kafka43-epuo-unknown-stall"
	// KindStaleLocalLogStart: a leader whose log start offset rose while
	// tiering was off keeps UnifiedLog's old local log start offset (it
	// moves only with remote storage enabled); once tiering is on again and
	// -6 is -1 (nothing tiered and HRO unknown, or, in Kafka's code, an EPUO
	// at the log end), -4 answers that old offset, not the log start, so a
	// flag-on follower retries until a restart or a tiered log start raise
	// moves it (every profile).
	KindStaleLocalLogStart = "stale-local-log-start"
	// KindKafka43AuxStateStall: under Kafka 4.3's code the auxiliary-state
	// build needs a remote segment holding start-1 even when start is the
	// log start offset; with nothing tiered below it that never exists.
	KindKafka43AuxStateStall = "kafka43-aux-state-stall"
)

func (v *Violation) Error() string { return v.Invariant + ": " + v.Message }

// Invariant names.
const (
	OffsetOrder      = "offset-order"      // LSO <= LLSO <= HW <= LEO on every replica
	RemoteCommitted  = "remote-committed"  // HW >= remote end >= remote start: only committed data is tiered
	NoHole           = "no-hole"           // every offset in [LSO, LEO) of the leader is local or remote
	ReplicaAgreement = "replica-agreement" // replicas agree with the committed log below their HW
	RemoteAgreement  = "remote-agreement"  // remote copies agree with the committed log
	NoCommittedLoss  = "no-committed-loss" // the leader holds every committed record above LSO
	EpochLineage     = "epoch-lineage"     // a follower's epoch cache agrees with the leader's
	HighestRemote    = "highest-remote"    // HRO names an offset that really was uploaded
	StaleLogStart    = "stale-log-start"   // a leader advertises a log start offset whose data is gone, past its first copy-task run
	ISRMembership    = "isr-membership"    // the leader is in the ISR, the ISR is within the replicas
	Liveness         = "liveness"          // after healing every replica is in the ISR
)

// Checker checks a cluster after every step. It keeps a copy of the
// committed log (every batch once the leader's HW passed it) as the oracle
// the replicas are compared with.
type Checker struct {
	// The fields every Check reads come first, then those it reads only
	// when something it checks changed: at thousands of partitions each
	// cache line of the checker a step reads is a miss, and these fit in
	// five.
	history   []model.Batch // committed batches (pieces), contiguous, sorted
	histStart int64
	histEnd   int64 // offsets below are committed
	histHint  int   // where historyAt looks first: a guess, checked
	// hot is a copy of the piece historyAt found last (Count 0: none),
	// beside the fields every comparison reads: looking there first
	// spares a load from the history's array, which at thousands of
	// partitions is a cache miss. A piece of the history holding o is the
	// one historyAt returns for o whichever way it is found (the pieces
	// are contiguous and never change), so only a piece that left the
	// history must not be there: trim and rebase clear it.
	hot         model.Batch
	replicaMask uint64 // bit b: broker b is a replica, this step (markReplicas)
	// cursors and cold are each broker's records, split by how often a
	// Check reads them (cursor, cursorCold).
	cursors     []cursor
	cold        []cursorCold
	leader      int
	leaderEpoch int32
	remoteVer   uint64
	unclean     int
	// lazyTrim (TrimLazily): trimHistory trims only once the history has
	// reached trimAt pieces, twice its length after the last trim.
	lazyTrim bool
	trimAt   int
	// now is the time of the step Check observes (the caller's).
	now sim.Time
	// staleSince is when the leader's log start offset fell below
	// maxLogStart's data (a follower elected with a lagging log start
	// offset), -1 when it is not.
	staleSince sim.Time
	// maxLogStart is the highest log start offset any leader had: offsets
	// below it were deleted on purpose (retention, deleteRecords).
	maxLogStart int64
	holeKey     holeKey
	// f holds what the known-finding labels need (kinds.go); observe
	// reads its first two fields at every Check.
	f facts

	// uncleanEpoch is the leader epoch an unclean election began (-1: none).
	uncleanEpoch int32
	// remoteWalked: every listed segment was looked at (checkSegments).
	remoteWalked bool
	// fullRemoteWalks, set by a test, makes every look at the remote
	// segments a walk of the whole list (the reference the incremental
	// look is compared with).
	fullRemoteWalks bool
	// copyingBefore: copying was on after the previous step (while stale).
	copyingBefore bool
	// checkSegments' scratch: the changes by id, their list positions.
	changeScratch []model.RemoteChange
	segScratch    []int
	checkedSeg    []uint8 // by remote segment id: segSeen, segChecked, segPriorLineage
	uploaded      []span  // offsets ever uploaded, merged, sorted
}

// cursor is what every Check reads of one replica, in one cache line (64
// bytes; the array's elements are aligned with the lines): where its
// comparison with the history got to, the HRO last checked, and the half
// of what checkLineage last compared that differs when anything does. At
// thousands of partitions every line a step reads of a partition is a
// cache miss; these were three arrays, four lines for three replicas'
// worth, and more.
type cursor struct {
	gen     uint64
	checked int64 // offsets below were compared with the history
	hro     int64 // the HRO checkHighestRemote last checked (-2: none)
	lin     lineageHot
}

// cursorCold is the rest of a broker's record: read when the broker's log
// is compared (pos), or when the hot half of the lineage key matches.
type cursorCold struct {
	pos  logPos // where batchAt last found a batch in this broker's log
	ends lineageEnds
}

// logPos names a batch in a log: Segments[si].Batches[bi].
type logPos struct{ si, bi int }

// batchAt is l.BatchAt(o), looking first at the batch at *p and the few
// after it, then searching; it leaves *p at the batch found. A log is
// contiguous (Append panics on any other offset, truncation and retention
// cut it), so a batch there holding o is the one BatchAt would find, and
// a stale position only costs the search.
func batchAt(l *model.Log, o int64, p *logPos) (model.Batch, bool) {
	if o < l.LocalLogStart || o >= l.LogEnd {
		return model.Batch{}, false
	}
	si, bi := p.si, p.bi
	for try := 0; try < 4 && si < len(l.Segments); try++ {
		bs := l.Segments[si].Batches
		if bi >= len(bs) {
			si, bi = si+1, 0
			continue
		}
		if b := &bs[bi]; b.Base <= o && o <= b.Last() {
			p.si, p.bi = si, bi
			return *b, true
		}
		bi++
	}
	si = sort.Search(len(l.Segments), func(i int) bool { return l.Segments[i].End >= o })
	bs := l.Segments[si].Batches
	bi = sort.Search(len(bs), func(i int) bool { return bs[i].Last() >= o })
	if bi == len(bs) || bs[bi].Base > o {
		return model.Batch{}, false
	}
	p.si, p.bi = si, bi
	return bs[bi], true
}

type span struct{ lo, hi int64 } // [lo, hi]

// lineageHot and lineageEnds are what checkLineage last compared for a
// follower and the leader (lineageKeyOf): the high watermarks (what
// changes most), log generations and epoch cache lengths, and the epoch
// caches' first and last entries.
type lineageHot struct {
	fHW, lHW   int64
	fGen, lGen uint64
	fLen, lLen int32
}

type lineageEnds struct {
	fLast, lLast   model.EpochEntry
	fFirst, lFirst model.EpochEntry
}

type holeKey struct {
	leader    int
	lso, llso int64
	remoteVer uint64
	tiered    bool
}

// New returns a checker for c at time 0: the initial committed log is read
// from the leader's log and remote storage.
func New(c *model.Cluster) *Checker {
	k := &Checker{leader: -2, staleSince: -1, uncleanEpoch: -1, f: newFacts(c)}
	k.cursors = make([]cursor, len(c.Brokers))
	k.cold = make([]cursorCold, len(c.Brokers))
	for i := range k.cursors {
		k.cursors[i] = cursor{gen: ^uint64(0), hro: -2}
	}
	if l := c.Leader(); l != nil {
		k.rebase(c, l)
	}
	return k
}

// rebase restarts the committed history from the leader's current log (at
// time 0, and after an unclean election, where loss is allowed).
func (k *Checker) rebase(c *model.Cluster, l *model.Broker) {
	k.history = nil // a new array: clones may share the old one (Clone)
	k.trimAt, k.hot = 0, model.Batch{}
	// The new leader's log is the new lineage. What it cannot serve below
	// its local log was lost with the unclean election: the history starts
	// at its local log, and the hole check reports the gap by kind.
	k.maxLogStart = l.Log.LogStart
	k.histStart = l.Log.LogStart
	if coveredFrom(c, l, k.histStart, l.Log.LocalLogStart) < l.Log.LocalLogStart {
		k.histStart = l.Log.LocalLogStart
	}
	k.histEnd = k.histStart
	k.staleSince = -1
	k.unclean = c.Ctrl.Unclean
	k.uncleanEpoch = c.Ctrl.LeaderEpoch
	if c.Ctrl.Unclean > 0 {
		k.observeUnclean(c, l)
	}
	for i := range c.Remote.Segments {
		s := &c.Remote.Segments[i]
		if s.State != model.CopyStarted { // finished, or finished and being deleted
			k.addUploaded(s.Base, s.End)
		}
		// After an unclean election every listed segment not yet compared
		// (the initial ones, a copy still in flight) is the ended lineage's:
		// it must not be compared with the new one (checkSegment).
		if k.growCheckedSeg(s.ID); c.Ctrl.Unclean > 0 && k.checkedSeg[s.ID] != segChecked {
			k.checkedSeg[s.ID] = segPriorLineage
		}
	}
	k.extendHistory(c, l)
	if c.Ctrl.Unclean == 0 {
		k.uncleanEpoch = -1
	}
}

// extendHistory appends the leader's batches in [histEnd, HW) to the history.
func (k *Checker) extendHistory(c *model.Cluster, l *model.Broker) *Violation {
	hw := l.Log.HighWatermark
	for k.histEnd < hw {
		b, ok := batchAt(&l.Log, k.histEnd, &k.cold[l.ID].pos)
		if !ok {
			b, ok = k.remoteBatchAt(c, k.histEnd)
		}
		if !ok {
			return &Violation{Invariant: NoHole, Message: fmt.Sprintf("leader b%d holds committed offset %d neither locally [%d,%d) nor remotely",
				l.ID, k.histEnd, l.Log.LocalLogStart, l.Log.LogEnd)}
		}
		b = b.Slice(k.histEnd, min(b.Last()+1, hw))
		k.history = append(k.history, b)
		k.histEnd = b.Last() + 1
	}
	return nil
}

// remoteBatchAt returns the batch holding o in the first finished remote
// segment (in the list's order) that holds it.
func (k *Checker) remoteBatchAt(c *model.Cluster, o int64) (model.Batch, bool) {
	segs := c.Remote.Segments // sorted by base
	i := c.Remote.FirstEndingAtOrAfter(o)
	for ; i < len(segs) && segs[i].Base <= o; i++ {
		s := &segs[i]
		if s.State != model.CopyFinished || o > s.End {
			continue
		}
		j := sort.Search(len(s.Batches), func(j int) bool { return s.Batches[j].Last() >= o })
		if j < len(s.Batches) && s.Batches[j].Base <= o {
			return s.Batches[j], true
		}
	}
	return model.Batch{}, false
}

// historyAt returns the committed batch holding o. The history is
// contiguous (each piece starts where the one before ends), so the piece
// at the hint, when it holds o, is the one a search would find; the
// comparisons walk forward, and the next lookup is usually the piece after
// the last one found, or that piece again: a follower fetching a piece
// written as one large batch (an initial segment) a few records a step
// compares each step's records with the same piece. A search there reads
// a cache line per probe, which at thousands of partitions is a miss each.
func (k *Checker) historyAt(o int64) (model.Batch, bool) {
	if h := &k.hot; h.Count > 0 && h.Base <= o && o <= h.Last() {
		return *h, true
	}
	if j := k.histHint; j < len(k.history) && k.history[j].Base <= o && o <= k.history[j].Last() {
		k.histHint, k.hot = j+1, k.history[j]
		return k.hot, true
	}
	if j := k.histHint - 1; j >= 0 && j < len(k.history) && k.history[j].Base <= o && o <= k.history[j].Last() {
		k.hot = k.history[j]
		return k.hot, true
	}
	j := sort.Search(len(k.history), func(j int) bool { return k.history[j].Last() >= o })
	if j == len(k.history) || k.history[j].Base > o {
		return model.Batch{}, false
	}
	k.histHint, k.hot = j+1, k.history[j]
	return k.hot, true
}

// agree compares piece b, limited to offsets [max(b.Base, from), to), with
// the history and returns the first offset where they differ, -1 if none.
func (k *Checker) agree(b model.Batch, from, to int64) (int64, model.Batch) {
	o := max(b.Base, k.histStart, from)
	for o < min(b.Last()+1, to) {
		h, ok := k.historyAt(o)
		if !ok {
			return -1, model.Batch{}
		}
		if h.Origin != b.Origin || h.Epoch != b.Epoch || h.ProducerID != b.ProducerID || h.Seq-h.Base != b.Seq-b.Base {
			return o, h
		}
		o = h.Last() + 1
	}
	return -1, model.Batch{}
}

// A remote segment's state in checkedSeg (0: never seen).
const (
	segSeen         = 1 // its first look (nothing past the HW) done
	segChecked      = 2 // finished and compared with the history
	segPriorLineage = 3 // listed at an unclean election: never compared
)

// growCheckedSeg makes checkedSeg hold segment id.
func (k *Checker) growCheckedSeg(id uint64) {
	if id >= uint64(len(k.checkedSeg)) {
		k.checkedSeg = append(k.checkedSeg, make([]uint8, int(id)+1-len(k.checkedSeg))...)
	}
}

func (k *Checker) addUploaded(lo, hi int64) { k.uploaded = addSpan(k.uploaded, lo, hi) }

// addSpan adds [lo, hi] to the merged, sorted spans and returns them, in a
// new array (clones share the old one: Clone).
func addSpan(spans []span, lo, hi int64) []span {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].lo > lo })
	spans = append(slices.Clip(spans), span{})
	copy(spans[i+1:], spans[i:])
	spans[i] = span{lo, hi}
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.lo <= last.hi+1 {
			last.hi = max(last.hi, s.hi)
		} else {
			merged = append(merged, s)
		}
	}
	return merged
}

// inSpans reports whether o lies in one of the merged, sorted spans.
func inSpans(spans []span, o int64) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].hi >= o })
	return i < len(spans) && spans[i].lo <= o
}

func (k *Checker) wasUploaded(o int64) bool { return inSpans(k.uploaded, o) }
