package model

import (
	"fmt"

	"tierfetch/sim"
)

// EventKind says what an Event records. The set is closed: every view of a
// run (the text trace, the digest, the Chrome trace, the timeline, the
// metrics a comparison takes) is built from events of these kinds and
// nothing else; nothing reads an event's text to learn what happened.
//
// Each step of a run begins with exactly one input event; the model's
// answers to it follow, then the broker and remote-storage state changes
// the step made. One table (kinds, in event_kinds.go) says of each kind its
// name, whether it is an input, the fields it sets (and so encodes), when
// the text trace shows it and its text form.
type EventKind uint8

// Event kinds: inputs first (what a step starts with), then outcomes. The
// table (kinds) says which fields each sets and what they mean for it.
const (
	EvRunStart EventKind = iota
	EvAddReplica
	EvProduce
	EvProduceChunk
	EvElectLeader
	EvCrash
	EvRestart
	EvSetConfig
	EvDeleteRecords
	EvNetworkPartition
	EvPartitionEnd
	EvRemoteOutage
	EvConsume
	EvHeal
	EvDeliver
	EvTimer
	EvRemoteDone

	EvSkipped
	EvDropped
	EvSend
	EvBecomeLeader
	EvBecomeFollower
	EvUncleanElection
	EvOffline
	EvAppend
	EvFetched
	EvBootstrapped
	EvISRJoin
	EvISRShrink
	EvBackoff
	EvFallback
	EvTruncate
	EvStartAt
	EvAuxBuildStart
	EvAuxBuildEnd
	EvRLMCopySkipped
	EvLogStartFromRemote
	EvHighestRemote
	EvUploadStart
	EvUploadEnd
	EvRemoteExpire
	EvRemoteDeleted
	EvLocalRetention
	EvRollForRetention
	EvTieringDisabled
	EvLoadLog
	EvDeleteRecordsDone
	EvConsumed
	EvBrokerState
	EvRemoteState
	EvRemoteDeleteRetry
	EvExpirationSeedsHRO
	EvExpirationAborted
	EvThreadBlocked
	EvThreadUnblocked
	EvReplaceBroker
	EvReassign
	EvReassignStart
	EvReassignDone
	// EvHighestRemoteRun is EvHighestRemote set by an RLM follower task's run
	// that a fleet of many partitions folded into the partition's next step
	// (Fleet.settleFolds).
	EvHighestRemoteRun
	NumEventKinds
)

func (k EventKind) String() string { return kinds[k].name }

// IsInput reports whether k begins a step.
func (k EventKind) IsInput() bool { return kinds[k].input }

// Cause refines an event: why a message was dropped, how a follower
// truncated or started, how an auxiliary-state build or an upload ended.
type Cause uint8

// Causes, by the events that use them.
const (
	CauseNone Cause = iota
	// EvDropped.
	DropPartition
	DropSenderRestarted
	DropReceiverDown
	// EvTruncate.
	TruncateDivergence
	TruncateLeaderEnd
	// EvStartAt.
	StartTruncate // OUT_OF_RANGE: truncated fully and restarted at the leader's log start offset
	StartTrivial  // aux state for [LSO, start) with start == LSO: nothing to rebuild
	// EvAuxBuildEnd.
	AuxBuilt
	AuxNoSegment        // no finished remote segment holds start-1 in its epoch
	AuxSegmentGone      // the segment was deleted while it was read
	AuxMetadataNotReady // the follower's remote log metadata is not ready
	AuxRemoteError      // remote storage failed the read
	AuxAborted          // the fetcher stopped (leader change, crash) mid-build
	// EvUploadEnd.
	UploadDone
	UploadFailed
	UploadAbandoned // the broker crashed while the upload ran: nobody publishes its end
	// EvDropped (explored runs only): the chooser lost the message.
	DropLost
	numCauses
)

var causeNames = [...]string{"", "network partition", "sender restarted", "receiver down", "divergence", "leader end",
	"truncate", "nothing to rebuild", "built", "no segment", "segment gone", "metadata not ready", "remote error",
	"aborted", "done", "failed", "abandoned", "lost"}

func (c Cause) String() string { return causeNames[c] }

// LogOffsets are one replica's offsets.
type LogOffsets struct {
	LogStart, LocalLogStart, HighWatermark, LogEnd int64
}

// OffsetsOf returns l's offsets.
func OffsetsOf(l *Log) LogOffsets {
	return LogOffsets{l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd}
}

// SegmentRef names a remote (or local) segment in an event.
type SegmentRef struct {
	ID        uint64
	Base, End int64
	Bytes     int64
}

// Event is one thing that happened in a run. A field means one thing,
// whatever the kind; which fields a kind sets, and which offset or bytes
// they are for it, is in the kind's entry of the table (kinds). The fields
// a kind does not set are zero (Broker and Peer: -1). Events are values: a
// view may keep them (the batches and slices they hold are never written
// again).
type Event struct {
	Kind EventKind
	// Fetcher is the fetcher thread an event of a thread is about (its
	// fetcher id; Broker the follower, Peer the leader). Encoded only in
	// runs of more than one partition, as Part is.
	Fetcher int16
	// Part is the partition the event is about, its index in the Fleet
	// (-1: the whole fleet, a broker-wide input). Encoded only in runs of
	// more than one partition (AppendBinaryPart).
	Part        PartID
	Broker      int          // the broker the event is about (-1: none)
	Peer        int          // the other broker: a leader, a sender, a parked follower (-1: none)
	Epoch       int32        // a leader epoch
	Offset      int64        // the offset the event is about; the first of a range
	Last        int64        // the last offset of the range [Offset, Last]
	End         int64        // an end offset, exclusive: of the range [Offset, End), of an epoch, or of the committed log (a high watermark)
	LogStart    int64        // a log start offset
	Count       int64        // records
	Bytes       int64        // bytes
	RemoteBytes int64        // bytes read from remote storage
	Ms          int64        // a duration, in milliseconds
	HRO         int64        // a highest remote offset
	PrevHRO     int64        // the highest remote offset before the event
	Value       int64        // an integer configuration value
	Op          uint64       // a remote operation's id
	Log         LogOffsets   // a broker's offsets
	Role        Role         // a broker's role
	Up          bool         // a broker is up
	On          bool         // a boolean configuration value
	Bool        bool         // the configuration key is boolean (On holds its value, else Value)
	Failed      bool         // the remote operation failed
	Path        Path         // how a follower was positioned
	Retry       RetryReason  // why a follower backed off
	Cause       Cause        // how the event came about (per kind)
	Timer       TimerKind    // the timer that fired
	Segment     SegmentRef   // a segment
	Remote      RemoteOpKind // a remote operation's kind
	Batch       Batch        // a batch appended
	Msg         Message      // a message
	Brokers     []int        // a set of brokers: an ISR, the brokers cut off
	Dropped     []int        // the brokers that left the ISR
	Key         string       // a configuration key
	Text        string       // words for a person: the run's scenario and seed, a refusal's reason
}

// Observer sees every event of a run, in order, with the virtual time of
// the step it belongs to. Views of a run (trace text, digest, Chrome trace,
// timeline, metrics) are observers; they read events, never change them.
// e is valid only during the call: an observer that keeps an event copies
// it (the batches and slices it holds are never written again).
type Observer interface {
	Event(now sim.Time, e *Event)
}

// ObserverFunc is a function that is an Observer.
type ObserverFunc func(now sim.Time, e *Event)

// Event calls f.
func (f ObserverFunc) Event(now sim.Time, e *Event) { f(now, e) }

// ev returns an event of kind k with no broker and no peer.
func ev(k EventKind) Event { return Event{Kind: k, Broker: -1, Peer: -1} }

// brokerEv returns an event of kind k about broker b.
func brokerEv(k EventKind, b int) Event { return Event{Kind: k, Broker: b, Peer: -1} }

// NewEvent returns an event of kind k about broker b (-1: none), for the
// events the environment records (the run's start, network partitions,
// messages it drops, state changes).
func NewEvent(k EventKind, b int) Event { return brokerEv(k, b) }

// emit records e in the step's outbox: an input kind only as the step's
// first event (Step records it).
func (c *Cluster) emit(e Event) {
	e.Part = c.part
	if kinds[e.Kind].input && len(c.out.events) != 0 {
		if c.fleet != nil && c.fleet.fanning {
			return // the Fleet recorded the broker-wide input once
		}
		panic(fmt.Sprintf("model: input event %s after %d events of its step", e.Kind, len(c.out.events)))
	}
	c.out.events = append(c.out.events, e)
}

// SetWithin returns when the HRO event e, recorded at its step's time at,
// set its HRO: at, or for EvHighestRemoteRun within [lo, hi], its run
// having been e.Ms milliseconds (floored) before.
func (e *Event) SetWithin(at sim.Time) (lo, hi sim.Time) {
	if e.Kind != EvHighestRemoteRun {
		return at, at
	}
	hi = at - sim.Time(sim.Duration(e.Ms)*sim.Millisecond)
	return hi - sim.Time(sim.Millisecond) + 1, hi
}

// Shown reports whether the text trace prints the event: sends, fetched
// records and state snapshots are in every other view but would only
// repeat, in the text, what the lines around them say.
func (e *Event) Shown() bool { return kinds[e.Kind].shown&(1<<e.Cause) != 0 }

// AppendText appends the event's trace line, without its time, to dst: the
// line a person reads in --trace output and in failure reports. Input
// events read like the scenario ("add_replica b1"); outcomes name the broker
// first ("b1 backs off (epuo-unknown)").
func (e *Event) AppendText(dst []byte) []byte { return kinds[e.Kind].text(dst, e) }

// String prints the event's trace line without its time.
func (e *Event) String() string { return string(e.AppendText(nil)) }

// AppendLine appends the whole trace line of an event at time now: inputs
// as "t=1.250s add_replica b1", outcomes indented by three spaces.
func (e *Event) AppendLine(dst []byte, now sim.Time) []byte { return e.AppendLineIn(dst, now, "") }

// AppendLineIn appends the trace line of an event at time now, with the
// partition it is about in brackets after the time when part is not empty
// (a run of many partitions): "t=1.250s [orders-3]    b1 joins the ISR".
func (e *Event) AppendLineIn(dst []byte, now sim.Time, part string) []byte {
	dst = now.AppendTo(dst)
	if part != "" {
		dst = append(append(append(dst, " ["...), part...), ']')
	}
	if e.Kind.IsInput() {
		dst = append(dst, ' ')
	} else {
		dst = append(dst, "   "...)
	}
	return e.AppendText(dst)
}

// appendSubject appends the event's broker and a space: how an outcome's
// line begins.
func appendSubject(dst []byte, e *Event) []byte { return append(appendBroker(dst, e.Broker), ' ') }

func appendLog(dst []byte, l LogOffsets) []byte {
	dst = appendInt(append(dst, " lso="...), l.LogStart)
	dst = appendInt(append(dst, " llso="...), l.LocalLogStart)
	dst = appendInt(append(dst, " hw="...), l.HighWatermark)
	return appendInt(append(dst, " leo="...), l.LogEnd)
}

func appendRange(dst []byte, lo, hi int64) []byte {
	return append(appendInt(append(appendInt(append(dst, '['), lo), ".."...), hi), ']')
}

// appendSegment appends a segment's range "[base..end]".
func appendSegment(dst []byte, s SegmentRef) []byte { return appendRange(dst, s.Base, s.End) }

// appendPath appends " (path)".
func appendPath(dst []byte, p Path) []byte {
	return append(append(append(dst, " ("...), p.String()...), ')')
}

// appendInts appends ids as fmt prints a slice of ints: "[0 1 2]".
func appendInts(dst []byte, ids []int) []byte {
	dst = append(dst, '[')
	for i, id := range ids {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = appendInt(dst, int64(id))
	}
	return append(dst, ']')
}
