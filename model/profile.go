package model

import "fmt"

// Path is how a new follower was positioned before it first received
// records (the result object's bootstrap.path).
type Path uint8

// Bootstrap paths.
const (
	PathFromZero              Path = iota // no error: copied from its own LEO
	PathTruncateToLogStart                // OOR: truncated to the leader's log start offset
	PathLocalLogStart                     // started at the leader's local log start offset
	PathEarliestPendingUpload             // started at the leader's earliest pending upload offset
)

var pathNames = [...]string{"from-zero", "truncate-to-log-start", "local-log-start", "earliest-pending-upload"}

func (p Path) String() string { return pathNames[p] }

// RetryReason says why a follower backed off.
type RetryReason uint8

// Retry reasons.
const (
	RetryEPUOUnknown      RetryReason = iota // the leader does not know its highest uploaded offset
	RetryAuxUnavailable                      // no remote segment holds start-1 (yet, or any more)
	RetryMetadataNotReady                    // remote log metadata not ready on the follower
	RetryRemoteError                         // remote storage failed the read
	RetryLeaderError                         // not leader, fenced or unknown epoch
	RetryTimeout                             // the request got no answer in time
	NumRetryReasons
)

var retryNames = [...]string{"epuo-unknown", "aux-unavailable", "metadata-not-ready", "remote-error", "leader-error", "timeout"}

func (r RetryReason) String() string { return retryNames[r] }

// RetryReasonNames lists every retry reason's name, in order.
func RetryReasonNames() []string { return retryNames[:] }

// DecisionKind says what a follower does after OOR or OMTS.
type DecisionKind uint8

// Decisions.
const (
	DecideAsk      DecisionKind = iota // ask the leader ListOffsets(Ts) first
	DecideRetry                        // fail; back off and decide afresh
	DecideTruncate                     // truncate to Offset (follower ahead of the leader)
	DecideStartAt                      // truncate fully and start at Offset
	DecideBuildAux                     // build auxiliary state for [LogStart, Offset) and start there
	DecideContinue                     // fetch again from the follower's own LEO
)

// Decision is a profile's answer to a TierQuery.
type Decision struct {
	Kind     DecisionKind
	Ts       int64
	Offset   int64
	Epoch    int32 // leader epoch of Offset
	LogStart int64
	Path     Path
	Reason   RetryReason
	// Fallback is set when KIP-1023 found EPUO < LSO and fell back to the
	// local-log-start-offset rules.
	Fallback bool
}

// TierQuery is what a follower knows while it decides what to do after the
// leader answered a fetch with OOR or OMTS: its own state and the leader's
// ListOffsets answers so far.
type TierQuery struct {
	Err        ErrCode
	LogEnd     int64 // the follower's LEO
	LastTiered bool  // follower.fetch.last.tiered.offset.enable on this broker
	Tiered     bool  // the topic has remote storage enabled
	Compacted  bool
	answers    [7]listAnswer // by -timestamp
	fellBack   bool          // the fallback was counted
}

type listAnswer struct {
	known  bool
	offset int64
	epoch  int32
}

// Answer returns the leader's answer to ListOffsets(ts), ok false if not asked yet.
func (q *TierQuery) Answer(ts int64) (offset int64, epoch int32, ok bool) {
	if ts > 0 || -ts >= int64(len(q.answers)) {
		panic(fmt.Sprintf("model: ListOffsets answer for timestamp %d", ts))
	}
	a := q.answers[-ts]
	return a.offset, a.epoch, a.known
}

func (q *TierQuery) setAnswer(ts, offset int64, epoch int32) {
	if ts > 0 || -ts >= int64(len(q.answers)) {
		panic(fmt.Sprintf("model: ListOffsets answer %d for timestamp %d", offset, ts))
	}
	q.answers[-ts] = listAnswer{known: true, offset: offset, epoch: epoch}
}

// Profile is a behaviour profile: the parts of the protocol where the KIP text
// and a Kafka release differ. The leader's ListOffsets -6 answer, the
// follower's decision after OOR/OMTS and the auxiliary-state rules are
// replaceable through it.
type Profile interface {
	// Name is the profile's name in results ("kip").
	Name() string
	// EarliestPendingUploadOffset is the leader's ListOffsets -6 answer, -1 unknown.
	EarliestPendingUploadOffset(c *Cluster, leader *Broker) int64
	// Decide returns the follower's next step after OOR or OMTS.
	Decide(q *TierQuery) Decision
	// AuxStateTrivial reports whether building auxiliary state up to start
	// needs nothing from remote storage.
	AuxStateTrivial(start, leaderLogStart int64) bool
	// AskPreviousEpoch reports whether the auxiliary-state build asks the
	// leader where epoch-1 ended, to find the epoch of start-1.
	AskPreviousEpoch(epoch int32) bool
	// SeedWhenCopyDisabled reports whether the RLM task still seeds an
	// unknown HRO from remote metadata while copying is disabled.
	SeedWhenCopyDisabled() bool
	// ExpirationSeedsHighestRemote reports whether the leader's RLM
	// expiration task seeds an unknown HRO from remote metadata
	// (KAFKA-20732).
	ExpirationSeedsHighestRemote() bool
	// ProbeLatestAfterAux reports whether the follower asks the leader's
	// LEO (ListOffsets -1) after building auxiliary state, before fetching.
	ProbeLatestAfterAux() bool
	// CopyLag reports whether the copy task holds segments back by
	// KIP-1241's remote.copy.lag.ms and remote.copy.lag.bytes.
	CopyLag() bool
}

// KIP is the profile that follows the KIP-1023 text (docs/design/protocol.md).
var KIP Profile = kipProfile{}

// Profiles lists every profile by name.
var Profiles = map[string]Profile{"kip": KIP, "kafka-4.3": Kafka43, "kafka-trunk": KafkaTrunk}

// ProfileNames lists every profile's name, in the order reports show them:
// the KIP text, then Kafka releases from oldest to newest.
func ProfileNames() []string { return []string{"kip", "kafka-4.3", "kafka-trunk"} }

type kipProfile struct{}

func (kipProfile) Name() string { return "kip" }

func (kipProfile) EarliestPendingUploadOffset(c *Cluster, b *Broker) int64 {
	if !c.Tiered() || b.HighestRemote < 0 {
		return -1
	}
	return b.HighestRemote + 1
}

func (kipProfile) AuxStateTrivial(start, leaderLogStart int64) bool { return start == leaderLogStart }

func (kipProfile) SeedWhenCopyDisabled() bool { return true }

func (kipProfile) ExpirationSeedsHighestRemote() bool { return false }

func (kipProfile) AskPreviousEpoch(epoch int32) bool { return epoch > 0 }

func (kipProfile) ProbeLatestAfterAux() bool { return false }

func (kipProfile) CopyLag() bool { return false }

func ask(ts int64) Decision { return Decision{Kind: DecideAsk, Ts: ts} }

// askLogStartAndEPUO gets the leader's log start (-2) and EPUO (-6), in that
// order; while one is missing, asking is true and pending asks for it.
func askLogStartAndEPUO(q *TierQuery) (lso, epuo int64, epoch int32, pending Decision, asking bool) {
	for _, ts := range []int64{ListEarliest, ListEarliestPendingUpload} {
		if _, _, ok := q.Answer(ts); !ok {
			return 0, 0, 0, ask(ts), true
		}
	}
	lso, _, _ = q.Answer(ListEarliest)
	epuo, epoch, _ = q.Answer(ListEarliestPendingUpload)
	return lso, epuo, epoch, Decision{}, false
}

// decideEPUOUnknown is the answer to an unknown EPUO (-6 = -1): if the
// leader's local log start (-4) is its log start, nothing is tiered and the
// follower starts there; otherwise it fails and retries after the backoff.
func decideEPUOUnknown(q *TierQuery, lso int64) Decision {
	llso, epoch, ok := q.Answer(ListEarliestLocal)
	if !ok {
		return ask(ListEarliestLocal)
	}
	if llso == lso {
		return Decision{Kind: DecideBuildAux, Offset: llso, Epoch: epoch, LogStart: lso, Path: PathLocalLogStart}
	}
	return Decision{Kind: DecideRetry, Reason: RetryEPUOUnknown}
}

// decideOMTS is KIP-405's answer to OMTS: learn the leader's local log start
// (-4) and log start (-2), asked in the given order, and build the auxiliary
// state up to the local log start.
func decideOMTS(q *TierQuery, order ...int64) Decision {
	for _, ts := range order {
		if _, _, ok := q.Answer(ts); !ok {
			return ask(ts)
		}
	}
	llso, epoch, _ := q.Answer(ListEarliestLocal)
	lso, _, _ := q.Answer(ListEarliest)
	return Decision{Kind: DecideBuildAux, Offset: llso, Epoch: epoch, LogStart: lso, Path: PathLocalLogStart}
}

func (kipProfile) Decide(q *TierQuery) Decision {
	if q.LastTiered && q.LogEnd == 0 && q.Tiered && !q.Compacted {
		lso, epuo, epuoEpoch, pending, asking := askLogStartAndEPUO(q)
		switch {
		case asking:
			return pending
		case epuo < 0:
			return decideEPUOUnknown(q, lso)
		}
		if epuo >= lso {
			return Decision{Kind: DecideBuildAux, Offset: epuo, Epoch: epuoEpoch, LogStart: lso, Path: PathEarliestPendingUpload}
		}
		d := decideLocalLogStart(q)
		d.Fallback = true
		return d
	}
	return decideLocalLogStart(q)
}

// decideLocalLogStart is KIP-405's handling of OOR and OMTS (Kafka's
// AbstractFetcherThread with the flag off).
func decideLocalLogStart(q *TierQuery) Decision {
	if q.Err == ErrOffsetMovedToTieredStorage {
		return decideOMTS(q, ListEarliestLocal, ListEarliest)
	}
	leo, _, ok := q.Answer(ListLatest)
	if !ok {
		return ask(ListLatest)
	}
	if leo < q.LogEnd {
		return Decision{Kind: DecideTruncate, Offset: leo}
	}
	lso, _, ok := q.Answer(ListEarliest)
	if !ok {
		return ask(ListEarliest)
	}
	if lso > q.LogEnd {
		return Decision{Kind: DecideStartAt, Offset: lso, LogStart: lso, Path: PathTruncateToLogStart}
	}
	return Decision{Kind: DecideContinue}
}
