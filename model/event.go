package model

import (
	"encoding/binary"
	"math/bits"
	"strconv"

	"tierfetch/sim"
)

// EventKind says what an Event records. The set is closed: every view of a
// run (the text trace, the digest, the Chrome trace, the timeline, the
// metrics a comparison takes) is built from events of these kinds and
// nothing else; nothing reads an event's text to learn what happened.
//
// Each step of a run begins with exactly one input event (recorded by the
// harness that drives the cluster); the model's answers to it follow, then
// the broker and remote-storage state changes the step made.
type EventKind uint8

// Event kinds. Beside each, the fields it sets (Broker and Peer default to
// -1 where unused).
const (
	// Inputs: what a step starts with.
	EvRunStart         EventKind = iota // Text: the run's scenario, seed, strategy and profile
	EvAddReplica                        // Broker
	EvProduce                           // Count: records, Ms: spread over
	EvProduceChunk                      // Count: records
	EvElectLeader                       // Broker
	EvCrash                             // Broker
	EvRestart                           // Broker
	EvSetConfig                         // Text: key, Count: integer value, On: boolean value, Bool: whether the key is boolean, Broker (-1: all)
	EvDeleteRecords                     // Offset: before
	EvNetworkPartition                  // Brokers, Ms: duration
	EvPartitionEnd                      // Brokers
	EvRemoteOutage                      // Ms: duration
	EvConsume                           // Offset: the offset asked for
	EvHeal                              // the fault phase is over
	EvDeliver                           // Msg: the message arriving
	EvTimer                             // Broker, Timer, Peer (parked fetch)
	EvRemoteDone                        // Broker, Remote: the operation's kind, Segment (ID only), Count: the operation's id, Bytes, Failed

	// Outcomes.
	EvSkipped            // Text: why the step's input did not happen (the model's refusal)
	EvDropped            // Msg, Cause: DropPartition, DropSenderRestarted or DropReceiverDown
	EvSend               // Msg: a message sent (requests and answers)
	EvBecomeLeader       // Broker, Epoch, Log, HRO
	EvBecomeFollower     // Broker, Peer: the leader, Epoch
	EvUncleanElection    // Broker
	EvOffline            // Brokers: the ELR (the ISR is empty), none of it alive
	EvAppend             // Broker, Batch, Offset: LEO after
	EvFetched            // Broker, Peer: leader, Offset..End: records appended, Bytes
	EvBootstrapped       // Broker, Path, Offset: its local log start when it first received records
	EvISRJoin            // Broker: the follower, Peer: the leader, Brokers: the ISR, Offset: leader HW, Log: the follower's offsets, Bytes: its local bytes
	EvISRShrink          // Broker: the leader, Brokers: the ISR, Dropped
	EvBackoff            // Broker, Retry
	EvFallback           // Broker: KIP-1023 found EPUO < LSO and falls back
	EvTruncate           // Broker, Offset: to, Cause: TruncateDivergence (Epoch, End: the leader's end of it) or TruncateLeaderEnd
	EvStartAt            // Broker, Offset: the new start, Path, Cause: StartTruncate (OUT_OF_RANGE) or StartTrivial (aux state with nothing to rebuild)
	EvAuxBuildStart      // Broker, Offset: the start, End: the leader's log start, Epoch: the start's epoch, Path
	EvAuxBuildEnd        // Broker, Cause: AuxBuilt (Offset: the new start, Segment, Path, Bytes: remote bytes read) or why it ended unbuilt (Offset, Epoch for AuxNoSegment)
	EvRLMCopySkipped     // Broker: the copy task skipped its run, remote metadata not ready
	EvLogStartFromRemote // Broker, Offset: its log start offset raised from remote metadata
	EvHighestRemote      // Broker, Offset: HRO, End: the previous HRO
	EvUploadStart        // Broker, Segment
	EvUploadEnd          // Broker, Segment, Cause: UploadDone, UploadFailed or UploadAbandoned
	EvRemoteExpire       // Broker, Segment, Offset: the log start offset after
	EvRemoteDeleted      // Segment (ID only)
	EvLocalRetention     // Broker, Log
	EvRollForRetention   // Broker, Segment (Base..End): the active segment rolled to be tiered and deleted (KAFKA-15047)
	EvTieringDisabled    // Broker: the leader that deleted the remote data (-1: none did), Offset: its log start after
	EvLoadLog            // Broker, Offset: log start after loading a log with tiering off
	EvDeleteRecordsDone  // Broker, Log
	EvConsumed           // Broker, Offset..End: [from, to), Count: local bytes, Bytes: remote bytes
	EvBrokerState        // Broker, Role, Up, Epoch, Log, HRO: one broker's state after a step that changed it
	EvRemoteState        // Offset..End: the finished remote range after a step that changed it (End < Offset: none)
	EvRemoteDeleteRetry  // Broker, Segment: the expiration task deletes again a segment left DELETE_SEGMENT_STARTED
	EvExpirationSeedsHRO // Broker: the expiration task seeds an unknown HRO from remote metadata (KAFKA-20732)
	EvExpirationAborted  // Broker: an expiration run was abandoned: Offset, End: the log start it would set above HW, or Segment: the deletion that failed
	NumEventKinds
)

var eventNames = [...]string{"run-start", "add-replica", "produce", "produce-chunk", "elect-leader", "crash", "restart",
	"set-config", "delete-records", "network-partition", "partition-end", "remote-outage", "consume", "heal", "deliver",
	"timer", "remote-done", "skipped", "dropped", "send", "become-leader", "become-follower", "unclean-election",
	"offline", "append", "fetched", "bootstrapped", "isr-join", "isr-shrink", "backoff", "fallback", "truncate",
	"start-at", "aux-build-start", "aux-build-end", "rlm-copy-skipped", "log-start-from-remote", "highest-remote",
	"upload-start", "upload-end", "remote-expire", "remote-deleted", "local-retention", "roll-for-retention",
	"tiering-disabled", "load-log", "delete-records-done", "consumed", "broker-state", "remote-state",
	"remote-delete-retry", "expiration-seeds-hro", "expiration-aborted"}

func (k EventKind) String() string { return eventNames[k] }

// IsInput reports whether k begins a step.
func (k EventKind) IsInput() bool { return k <= EvRemoteDone }

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

// Event is one thing that happened in a run. Which fields an event sets is
// listed beside its kind; the others are zero (Broker and Peer: -1).
// Events are values: a view may keep them (the batches and slices they
// hold are never written again).
type Event struct {
	Kind    EventKind
	Broker  int
	Peer    int
	Epoch   int32
	Offset  int64
	End     int64
	Count   int64
	Bytes   int64
	Ms      int64
	HRO     int64
	Log     LogOffsets
	Role    Role
	Up      bool
	On      bool
	Bool    bool
	Failed  bool
	Path    Path
	Retry   RetryReason
	Cause   Cause
	Timer   TimerKind
	Segment SegmentRef
	Remote  RemoteOpKind // EvRemoteDone: the operation's kind
	Batch   Batch
	Msg     Message
	Brokers []int
	Dropped []int
	Text    string
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
// harness's input events.
func NewEvent(k EventKind, b int) Event { return brokerEv(k, b) }

// emit records e in the step's outbox.
func (c *Cluster) emit(e Event) { c.Events = append(c.Events, e) }

// Shown reports whether the text trace prints the event: sends, fetched
// records and state snapshots are in every other view but would only
// repeat, in the text, what the lines around them say.
func (e *Event) Shown() bool {
	switch e.Kind {
	case EvSend, EvFetched, EvBrokerState, EvRemoteState, EvAuxBuildStart, EvBootstrapped:
		return false
	case EvAuxBuildEnd:
		return e.Cause == AuxBuilt || e.Cause == AuxNoSegment || e.Cause == AuxSegmentGone
	case EvUploadEnd:
		return e.Cause != UploadAbandoned
	}
	return true
}

// AppendText appends the event's trace line, without its time, to dst: the
// line a person reads in --trace output and in failure reports. Input
// events read like the scenario ("add_replica b1"); outcomes name the broker
// first ("b1 backs off (epuo-unknown)").
func (e *Event) AppendText(dst []byte) []byte {
	b := func(dst []byte, id int) []byte { return appendBroker(dst, id) }
	switch e.Kind {
	case EvRunStart:
		return append(append(dst, "start "...), e.Text...)
	case EvAddReplica, EvElectLeader, EvCrash, EvRestart:
		name := [...]string{EvAddReplica: "add_replica ", EvElectLeader: "elect_leader ", EvCrash: "crash ", EvRestart: "restart "}[e.Kind]
		return b(append(dst, name...), e.Broker)
	case EvProduce:
		dst = appendInt(append(dst, "produce "...), e.Count)
		return append(appendInt(append(dst, " records over "...), e.Ms), "ms"...)
	case EvProduceChunk:
		return append(appendInt(append(dst, "produce chunk "...), e.Count), " records"...)
	case EvSetConfig:
		dst = append(append(append(dst, "set_config "...), e.Text...), '=')
		if e.Bool {
			dst = strconv.AppendBool(dst, e.On)
		} else {
			dst = appendInt(dst, e.Count)
		}
		return appendInt(append(dst, " broker="...), int64(e.Broker))
	case EvDeleteRecords:
		return appendInt(append(dst, "delete_records before "...), e.Offset)
	case EvNetworkPartition:
		dst = appendInts(append(dst, "network_partition "...), e.Brokers)
		return append(appendInt(append(dst, " for "...), e.Ms), "ms"...)
	case EvPartitionEnd:
		return append(appendInts(append(dst, "network partition of "...), e.Brokers), " ends"...)
	case EvRemoteOutage:
		return append(appendInt(append(dst, "remote_outage for "...), e.Ms), "ms"...)
	case EvConsume:
		return appendInt(append(dst, "consume from "...), e.Offset)
	case EvHeal:
		return append(dst, "heal: fault phase over"...)
	case EvDeliver:
		return e.Msg.AppendTo(append(dst, "deliver "...))
	case EvTimer:
		return append(append(b(dst, e.Broker), " timer "...), e.Timer.String()...)
	case EvRemoteDone:
		dst = append(append(b(dst, e.Broker), " remote "...), e.Remote.String()...)
		dst = strconv.AppendUint(append(dst, " #"...), e.Segment.ID, 10)
		if e.Failed {
			return append(dst, " failed"...)
		}
		return append(dst, " ok"...)
	}
	return e.appendOutcome(dst)
}

// appendOutcome appends the line of an outcome event.
func (e *Event) appendOutcome(dst []byte) []byte {
	b := func(dst []byte, id int) []byte { return appendBroker(dst, id) }
	bb := func(dst []byte) []byte { return append(b(dst, e.Broker), ' ') }
	switch e.Kind {
	case EvSkipped:
		return append(append(dst, "skipped: "...), e.Text...)
	case EvDropped:
		switch e.Cause {
		case DropReceiverDown:
			return e.Msg.AppendTo(append(b(dst, e.Msg.To), " down: dropped "...))
		case DropSenderRestarted:
			return append(b(append(dst, "dropped: "...), e.Msg.From), " restarted since sending"...)
		}
		return append(dst, "dropped: network partition"...)
	case EvSend:
		return e.Msg.AppendTo(append(dst, "send "...))
	case EvBecomeLeader:
		dst = appendInt(append(bb(dst), "becomes leader epoch="...), int64(e.Epoch))
		return appendInt(append(appendLog(dst, e.Log), " hro="...), e.HRO)
	case EvBecomeFollower:
		dst = b(append(bb(dst), "follows "...), e.Peer)
		return appendInt(append(dst, " epoch="...), int64(e.Epoch))
	case EvUncleanElection:
		return b(append(dst, "unclean election of "...), e.Broker)
	case EvOffline:
		return append(appendInts(append(dst, "partition offline: no live ISR or ELR member (ELR "...), e.Brokers), ')')
	case EvAppend:
		return appendInt(append(e.Batch.AppendTo(append(bb(dst), "append "...)), " leo="...), e.Offset)
	case EvFetched:
		dst = appendRange(append(bb(dst), "appends "...), e.Offset, e.End)
		return append(appendInt(append(b(append(dst, " from "...), e.Peer), " ("...), e.Bytes), " bytes)"...)
	case EvBootstrapped:
		dst = appendInt(append(bb(dst), "first records: bootstrapped at "...), e.Offset)
		return append(append(append(dst, " ("...), e.Path.String()...), ')')
	case EvISRJoin:
		dst = appendInts(append(bb(dst), "joins ISR "...), e.Brokers)
		return append(appendInt(append(b(append(dst, " (leader "...), e.Peer), " hw="...), e.Offset), ')')
	case EvISRShrink:
		dst = appendInts(append(bb(dst), "shrinks ISR to "...), e.Brokers)
		return append(appendInts(append(dst, " (dropped "...), e.Dropped), ')')
	case EvBackoff:
		return append(append(append(bb(dst), "backs off ("...), e.Retry.String()...), ')')
	case EvFallback:
		return append(bb(dst), "EPUO below log start: falls back to the local-log-start rules"...)
	case EvTruncate:
		if e.Cause == TruncateLeaderEnd {
			return appendInt(append(bb(dst), "truncates to leader end "...), e.Offset)
		}
		dst = appendInt(append(bb(dst), "truncates to "...), e.Offset)
		dst = appendInt(append(dst, " (leader: epoch "...), int64(e.Epoch))
		return append(appendInt(append(dst, " ends at "...), e.End), ')')
	case EvStartAt:
		if e.Cause == StartTrivial {
			dst = appendInt(append(bb(dst), "starts at "...), e.Offset)
			return append(append(append(dst, " ("...), e.Path.String()...), ", nothing to rebuild)"...)
		}
		dst = appendInt(append(bb(dst), "truncates fully, starts at "...), e.Offset)
		return append(append(append(dst, " ("...), e.Path.String()...), ')')
	case EvAuxBuildStart:
		dst = appendInt(append(bb(dst), "builds aux state for ["...), e.End)
		dst = appendInt(append(dst, ", "...), e.Offset)
		return append(append(append(dst, ") ("...), e.Path.String()...), ')')
	}
	return e.appendTiering(dst)
}

// appendTiering appends the line of an auxiliary-state, RLM or retention
// event.
func (e *Event) appendTiering(dst []byte) []byte {
	bb := func(dst []byte) []byte { return append(appendBroker(dst, e.Broker), ' ') }
	seg := func(dst []byte) []byte { return appendRange(dst, e.Segment.Base, e.Segment.End) }
	switch e.Kind {
	case EvAuxBuildEnd:
		switch e.Cause {
		case AuxBuilt:
			dst = seg(append(bb(dst), "built aux state from remote segment "...))
			dst = appendInt(append(dst, ", starts at "...), e.Offset)
			return append(append(append(dst, " ("...), e.Path.String()...), ')')
		case AuxNoSegment:
			dst = appendInt(append(bb(dst), "no remote segment holds offset "...), e.Offset)
			return appendInt(append(dst, " in epoch "...), int64(e.Epoch))
		case AuxSegmentGone:
			dst = strconv.AppendUint(append(bb(dst), "remote segment "...), e.Segment.ID, 10)
			return append(dst, " was deleted during the build"...)
		}
		return append(append(bb(dst), "aux state build ended: "...), e.Cause.String()...)
	case EvRLMCopySkipped:
		return append(bb(dst), "rlm-copy skipped: remote metadata not ready"...)
	case EvLogStartFromRemote:
		return append(appendInt(append(bb(dst), "raises log start offset to "...), e.Offset), " from remote metadata"...)
	case EvHighestRemote:
		dst = appendInt(append(bb(dst), "highest remote offset "...), e.Offset)
		return append(appendInt(append(dst, " (was "...), e.End), ')')
	case EvUploadStart:
		dst = seg(append(bb(dst), "uploads segment "...))
		return append(appendInt(append(dst, " ("...), e.Segment.Bytes), " bytes)"...)
	case EvUploadEnd:
		switch e.Cause {
		case UploadDone:
			return seg(append(bb(dst), "uploaded "...))
		case UploadFailed:
			dst = strconv.AppendUint(append(bb(dst), "upload of remote segment "...), e.Segment.ID, 10)
			return append(dst, " failed; retried on a later run"...)
		}
		dst = strconv.AppendUint(append(bb(dst), "upload of remote segment "...), e.Segment.ID, 10)
		return append(dst, " abandoned: its broker crashed meanwhile"...)
	case EvRemoteExpire:
		dst = seg(append(bb(dst), "expires remote segment "...))
		return appendInt(append(dst, " lso="...), e.Offset)
	case EvRemoteDeleted:
		return append(strconv.AppendUint(append(dst, "remote segment "...), e.Segment.ID, 10), " deleted"...)
	case EvLocalRetention:
		dst = appendInt(append(bb(dst), "local retention: lso="...), e.Log.LogStart)
		return appendInt(append(dst, " llso="...), e.Log.LocalLogStart)
	case EvRollForRetention:
		return append(seg(append(bb(dst), "rolls its active segment "...)), ": it breaches retention (KAFKA-15047)"...)
	case EvRemoteDeleteRetry:
		return seg(append(bb(dst), "retries deleting remote segment "...))
	case EvExpirationSeedsHRO:
		return append(bb(dst), "rlm-expire seeds the highest remote offset"...)
	case EvExpirationAborted:
		if e.Segment.ID != 0 {
			dst = strconv.AppendUint(append(bb(dst), "rlm-expire run abandoned: deleting remote segment "...), e.Segment.ID, 10)
			return append(dst, " failed"...)
		}
		dst = appendInt(append(bb(dst), "rlm-expire run abandoned: lso "...), e.Offset)
		return appendInt(append(dst, " would pass hw "...), e.End)
	case EvTieringDisabled:
		if e.Broker < 0 {
			return append(dst, "tiering disabled with no leader: remote data left in place"...)
		}
		dst = appendBroker(append(dst, "tiering disabled: remote data deleted, "...), e.Broker)
		return appendInt(append(dst, " lso="...), e.Offset)
	case EvLoadLog:
		return appendInt(append(bb(dst), "loads its log with tiering off: lso="...), e.Offset)
	case EvDeleteRecordsDone:
		dst = appendInt(append(bb(dst), "delete-records: lso="...), e.Log.LogStart)
		return appendInt(append(dst, " llso="...), e.Log.LocalLogStart)
	case EvConsumed:
		dst = appendInt(append(appendBroker(append(dst, "consumed on "...), e.Broker), ": ["...), e.Offset)
		dst = appendInt(append(dst, ","...), e.End)
		dst = appendInt(append(dst, ") local="...), e.Count)
		return append(appendInt(append(dst, "B remote="...), e.Bytes), 'B')
	case EvBrokerState:
		dst = append(append(bb(dst), e.Role.String()...), ' ')
		if !e.Up {
			dst = append(dst, "down "...)
		}
		dst = appendInt(append(dst, "epoch="...), int64(e.Epoch))
		return appendInt(append(appendLog(dst, e.Log), " hro="...), e.HRO)
	case EvRemoteState:
		if e.End < e.Offset {
			return append(dst, "remote: none"...)
		}
		return appendRange(append(dst, "remote: "...), e.Offset, e.End)
	}
	panic("model: event kind without text: " + e.Kind.String())
}

// String prints the event's trace line without its time.
func (e *Event) String() string { return string(e.AppendText(nil)) }

// AppendLine appends the whole trace line of an event at time now: inputs
// as "t=1.250s add_replica b1", outcomes indented by three spaces.
func (e *Event) AppendLine(dst []byte, now sim.Time) []byte {
	dst = now.AppendTo(dst)
	if e.Kind.IsInput() {
		dst = append(dst, ' ')
	} else {
		dst = append(dst, "   "...)
	}
	return e.AppendText(dst)
}

func appendLog(dst []byte, l LogOffsets) []byte {
	dst = appendInt(append(dst, " lso="...), l.LogStart)
	dst = appendInt(append(dst, " llso="...), l.LocalLogStart)
	dst = appendInt(append(dst, " hw="...), l.HighWatermark)
	return appendInt(append(dst, " leo="...), l.LogEnd)
}

func appendRange(dst []byte, lo, hi int64) []byte {
	return append(appendInt(append(appendInt(append(dst, '['), lo), ".."...), hi), ']')
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

// EncodingVersion names the canonical binary encoding of events that run
// digests hash (AppendBinary); it changes whenever the encoding does.
const EncodingVersion = 1

// Event fields, as bits of a kind's field set (kindFields).
// The fields' bit positions in a kind's field set (AppendBinary switches on
// them: dense cases compile to a jump table).
const (
	iBroker = iota
	iPeer
	iEpoch
	iOffset
	iEnd
	iCount
	iBytes
	iMs
	iHRO
	iLog
	iRole
	iUp
	iOn
	iBool
	iFailed
	iPath
	iRetry
	iCause
	iTimer
	iSegment
	iRemote
	iBatch
	iMsg
	iMsgHead
	iBrokers
	iDropped
	iText
)

const (
	fBroker        uint32 = 1 << iBroker
	fPeer          uint32 = 1 << iPeer
	fEpoch         uint32 = 1 << iEpoch
	fOffset        uint32 = 1 << iOffset
	fEnd           uint32 = 1 << iEnd
	fCount         uint32 = 1 << iCount
	fBytes         uint32 = 1 << iBytes
	fMs            uint32 = 1 << iMs
	fHRO           uint32 = 1 << iHRO
	fLog           uint32 = 1 << iLog
	fRole          uint32 = 1 << iRole
	fUp            uint32 = 1 << iUp
	fOn            uint32 = 1 << iOn
	fBool          uint32 = 1 << iBool
	fFailed        uint32 = 1 << iFailed
	fPath          uint32 = 1 << iPath
	fRetry         uint32 = 1 << iRetry
	fCause         uint32 = 1 << iCause
	fTimer         uint32 = 1 << iTimer
	fSegment       uint32 = 1 << iSegment
	fRemote        uint32 = 1 << iRemote
	fBatch         uint32 = 1 << iBatch
	fMsg           uint32 = 1 << iMsg
	fMsgHead       uint32 = 1 << iMsgHead
	fBrokers       uint32 = 1 << iBrokers
	fDropped       uint32 = 1 << iDropped
	fText          uint32 = 1 << iText
	numEventFields        = iota
)

// kindFields lists, for each kind, the fields its events may set: the
// fields its binary encoding holds, in bit order. A test checks, on the
// events of real runs, that no event sets a field outside its kind's set.
var kindFields = [NumEventKinds]uint32{
	EvRunStart:           fText,
	EvAddReplica:         fBroker,
	EvProduce:            fCount | fMs,
	EvProduceChunk:       fCount,
	EvElectLeader:        fBroker,
	EvCrash:              fBroker,
	EvRestart:            fBroker,
	EvSetConfig:          fBroker | fCount | fOn | fBool | fText,
	EvDeleteRecords:      fOffset,
	EvNetworkPartition:   fMs | fBrokers,
	EvPartitionEnd:       fBrokers,
	EvRemoteOutage:       fMs,
	EvConsume:            fOffset,
	EvHeal:               0,
	EvDeliver:            fBroker | fPeer | fMsg,
	EvTimer:              fBroker | fPeer | fTimer,
	EvRemoteDone:         fBroker | fCount | fBytes | fFailed | fSegment | fRemote,
	EvSkipped:            fText,
	EvDropped:            fBroker | fPeer | fCause | fMsg,
	EvSend:               fBroker | fPeer | fMsgHead,
	EvBecomeLeader:       fBroker | fEpoch | fHRO | fLog,
	EvBecomeFollower:     fBroker | fPeer | fEpoch,
	EvUncleanElection:    fBroker,
	EvOffline:            fBrokers,
	EvAppend:             fBroker | fOffset | fBatch,
	EvFetched:            fBroker | fPeer | fOffset | fEnd | fBytes,
	EvBootstrapped:       fBroker | fPeer | fOffset | fPath,
	EvISRJoin:            fBroker | fPeer | fOffset | fBytes | fLog | fBrokers,
	EvISRShrink:          fBroker | fBrokers | fDropped,
	EvBackoff:            fBroker | fRetry,
	EvFallback:           fBroker,
	EvTruncate:           fBroker | fEpoch | fOffset | fEnd | fCause,
	EvStartAt:            fBroker | fOffset | fPath | fCause,
	EvAuxBuildStart:      fBroker | fEpoch | fOffset | fEnd | fPath,
	EvAuxBuildEnd:        fBroker | fEpoch | fOffset | fBytes | fPath | fCause | fSegment,
	EvRLMCopySkipped:     fBroker,
	EvLogStartFromRemote: fBroker | fOffset,
	EvHighestRemote:      fBroker | fOffset | fEnd,
	EvUploadStart:        fBroker | fSegment,
	EvUploadEnd:          fBroker | fCause | fSegment,
	EvRemoteExpire:       fBroker | fOffset | fSegment,
	EvRemoteDeleted:      fSegment,
	EvLocalRetention:     fBroker | fLog,
	EvRollForRetention:   fBroker | fSegment,
	EvTieringDisabled:    fBroker | fOffset,
	EvLoadLog:            fBroker | fOffset,
	EvDeleteRecordsDone:  fBroker | fLog,
	EvConsumed:           fBroker | fOffset | fEnd | fCount | fBytes,
	EvBrokerState:        fBroker | fEpoch | fHRO | fLog | fRole | fUp,
	EvRemoteState:        fOffset | fEnd,
	EvRemoteDeleteRetry:  fBroker | fSegment,
	EvExpirationSeedsHRO: fBroker,
	EvExpirationAborted:  fBroker | fOffset | fEnd | fSegment,
}

// AppendBinary appends the event's canonical binary encoding at time now:
// the digest of a run is the XXH64 hash of its events' encodings, in order.
//
// The encoding is the time (signed varint, microseconds), the kind (one
// byte), then the fields of the kind's set (kindFields), in the order of
// the Event struct: integers as signed varints, IDs as unsigned varints,
// booleans and small enums as one byte, Log as its four offsets, Segment as
// its ID, base, end and bytes, Batch as its eight fields, Msg as its kind,
// error, sender, receiver, request id, leader epoch, fetch offset, last
// fetched epoch, max bytes, HW, log start, timestamp, epoch, offset and
// diverging flag, then its batches (a count, then base, count and origin
// of each: they identify the records; a sent message, whose delivery
// carries the same batches, gives only the count), Brokers and Dropped as a
// count then the ids, Text as a length then its bytes. Version:
// EncodingVersion.
func (e *Event) AppendBinary(dst []byte, now sim.Time) []byte {
	dst = binary.AppendVarint(dst, int64(now))
	dst = append(dst, byte(e.Kind))
	for set := kindFields[e.Kind]; set != 0; set &= set - 1 {
		switch bits.TrailingZeros32(set) { // dense: a jump table
		case iBroker:
			dst = binary.AppendVarint(dst, int64(e.Broker))
		case iPeer:
			dst = binary.AppendVarint(dst, int64(e.Peer))
		case iEpoch:
			dst = binary.AppendVarint(dst, int64(e.Epoch))
		case iOffset:
			dst = binary.AppendVarint(dst, e.Offset)
		case iEnd:
			dst = binary.AppendVarint(dst, e.End)
		case iCount:
			dst = binary.AppendVarint(dst, e.Count)
		case iBytes:
			dst = binary.AppendVarint(dst, e.Bytes)
		case iMs:
			dst = binary.AppendVarint(dst, e.Ms)
		case iHRO:
			dst = binary.AppendVarint(dst, e.HRO)
		case iLog:
			dst = binary.AppendVarint(dst, e.Log.LogStart)
			dst = binary.AppendVarint(dst, e.Log.LocalLogStart)
			dst = binary.AppendVarint(dst, e.Log.HighWatermark)
			dst = binary.AppendVarint(dst, e.Log.LogEnd)
		case iRole:
			dst = append(dst, byte(e.Role))
		case iUp:
			dst = appendFlag(dst, e.Up)
		case iOn:
			dst = appendFlag(dst, e.On)
		case iBool:
			dst = appendFlag(dst, e.Bool)
		case iFailed:
			dst = appendFlag(dst, e.Failed)
		case iPath:
			dst = append(dst, byte(e.Path))
		case iRetry:
			dst = append(dst, byte(e.Retry))
		case iCause:
			dst = append(dst, byte(e.Cause))
		case iTimer:
			dst = append(dst, byte(e.Timer))
		case iSegment:
			dst = binary.AppendUvarint(dst, e.Segment.ID)
			dst = binary.AppendVarint(dst, e.Segment.Base)
			dst = binary.AppendVarint(dst, e.Segment.End)
			dst = binary.AppendVarint(dst, e.Segment.Bytes)
		case iRemote:
			dst = append(dst, byte(e.Remote))
		case iBatch:
			dst = appendBatchBinary(dst, &e.Batch)
		case iMsg:
			dst = e.Msg.appendBinary(dst, true)
		case iMsgHead:
			dst = e.Msg.appendBinary(dst, false)
		case iBrokers:
			dst = appendIDs(dst, e.Brokers)
		case iDropped:
			dst = appendIDs(dst, e.Dropped)
		case iText:
			dst = binary.AppendUvarint(dst, uint64(len(e.Text)))
			dst = append(dst, e.Text...)
		}
	}
	return dst
}

func appendFlag(dst []byte, on bool) []byte {
	if on {
		return append(dst, 1)
	}
	return append(dst, 0)
}

func appendIDs(dst []byte, ids []int) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(ids)))
	for _, id := range ids {
		dst = binary.AppendVarint(dst, int64(id))
	}
	return dst
}

func appendBatchBinary(dst []byte, b *Batch) []byte {
	for _, x := range [...]int64{b.Base, b.Count, b.Bytes, int64(b.Epoch), b.ProducerID, b.Seq, b.TsMs} {
		dst = binary.AppendVarint(dst, x)
	}
	return binary.AppendUvarint(dst, b.Origin)
}

// appendBinary appends the message's fields (see Event.AppendBinary), its
// batches only when withBatches.
func (m *Message) appendBinary(dst []byte, withBatches bool) []byte {
	dst = append(dst, byte(m.Kind), byte(m.Err))
	dst = binary.AppendVarint(dst, int64(m.From))
	dst = binary.AppendVarint(dst, int64(m.To))
	dst = binary.AppendUvarint(dst, m.ReqID)
	dst = binary.AppendVarint(dst, int64(m.LeaderEpoch))
	dst = binary.AppendVarint(dst, m.FetchOffset)
	dst = binary.AppendVarint(dst, int64(m.LastFetchedEpoch))
	dst = binary.AppendVarint(dst, m.MaxBytes)
	dst = binary.AppendVarint(dst, m.HighWatermark)
	dst = binary.AppendVarint(dst, m.LogStart)
	dst = binary.AppendVarint(dst, m.Timestamp)
	dst = binary.AppendVarint(dst, int64(m.Epoch))
	dst = binary.AppendVarint(dst, m.Offset)
	dst = appendFlag(dst, m.Diverging)
	dst = binary.AppendUvarint(dst, uint64(len(m.Batches)))
	if !withBatches {
		return dst
	}
	for i := range m.Batches {
		b := &m.Batches[i]
		dst = binary.AppendVarint(dst, b.Base)
		dst = binary.AppendVarint(dst, b.Count)
		dst = binary.AppendUvarint(dst, b.Origin)
	}
	return dst
}

// FieldsOutsideKind names the fields e holds a value in that its kind's
// set does not list (none for every event the model and the harness emit;
// a test checks it on real runs): such a value would be missing from the
// digest.
func (e *Event) FieldsOutsideKind() []string {
	allowed := kindFields[e.Kind]
	if allowed&fMsg != 0 {
		allowed |= fMsgHead
	}
	return fieldNames(e.usedFields() &^ allowed)
}

// usedFields returns the set of fields e holds a value in (Broker and Peer:
// other than -1; a message counts as its head).
func (e *Event) usedFields() uint32 {
	var set uint32
	add := func(bit uint32, on bool) {
		if on {
			set |= bit
		}
	}
	add(fBroker, e.Broker != -1)
	add(fPeer, e.Peer != -1)
	add(fEpoch, e.Epoch != 0)
	add(fOffset, e.Offset != 0)
	add(fEnd, e.End != 0)
	add(fCount, e.Count != 0)
	add(fBytes, e.Bytes != 0)
	add(fMs, e.Ms != 0)
	add(fHRO, e.HRO != 0)
	add(fLog, e.Log != (LogOffsets{}))
	add(fRole, e.Role != 0)
	add(fUp, e.Up)
	add(fOn, e.On)
	add(fBool, e.Bool)
	add(fFailed, e.Failed)
	add(fPath, e.Path != 0)
	add(fRetry, e.Retry != 0)
	add(fCause, e.Cause != 0)
	add(fTimer, e.Timer != 0)
	add(fSegment, e.Segment != (SegmentRef{}))
	add(fRemote, e.Remote != 0)
	add(fBatch, e.Batch != (Batch{}))
	add(fMsgHead, e.Msg.Kind != 0 || e.Msg.From != 0 || e.Msg.To != 0 || e.Msg.ReqID != 0)
	add(fBrokers, len(e.Brokers) > 0)
	add(fDropped, len(e.Dropped) > 0)
	add(fText, e.Text != "")
	return set
}

// fieldNames names the bits of a field set, in order.
func fieldNames(set uint32) []string {
	names := [numEventFields]string{"Broker", "Peer", "Epoch", "Offset", "End", "Count", "Bytes", "Ms", "HRO", "Log", "Role",
		"Up", "On", "Bool", "Failed", "Path", "Retry", "Cause", "Timer", "Segment", "Remote", "Batch", "Msg", "MsgHead",
		"Brokers", "Dropped", "Text"}
	var out []string
	for i, n := range names {
		if set&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}
