package model

import "strconv"

// field names one field of Event in a kind's entry.
type field uint8

// Event's fields (a message counts twice: whole, and as its head without
// its batches, which is what a sent message's event encodes).
const (
	fBroker field = iota
	fPeer
	fEpoch
	fOffset
	fLast
	fEnd
	fLogStart
	fCount
	fBytes
	fRemoteBytes
	fMs
	fHRO
	fPrevHRO
	fValue
	fOp
	fLog
	fRole
	fUp
	fOn
	fBool
	fFailed
	fPath
	fRetry
	fCause
	fTimer
	fSegment
	fRemote
	fBatch
	fMsg
	fMsgHead
	fBrokers
	fDropped
	fKey
	fText
	numFields
)

var fieldNames = [numFields]string{"Broker", "Peer", "Epoch", "Offset", "Last", "End", "LogStart", "Count", "Bytes",
	"RemoteBytes", "Ms", "HRO", "PrevHRO", "Value", "Op", "Log", "Role", "Up", "On", "Bool", "Failed", "Path", "Retry",
	"Cause", "Timer", "Segment", "Remote", "Batch", "Msg", "MsgHead", "Brokers", "Dropped", "Key", "Text"}

// kindInfo is everything about one event kind.
type kindInfo struct {
	name  string
	input bool // the kind begins a step
	// fields are the fields its events set, in the order its binary
	// encoding writes them (AppendBinary): set and encoded are one list.
	fields []field
	// shown is the set of causes (as bits) with which the text trace
	// prints the event: always, never, or for some causes only.
	shown uint64
	// text appends the event's trace line, without its time.
	text func(dst []byte, e *Event) []byte
}

// Text-trace visibility.
const (
	always uint64 = 1<<numCauses - 1
	never  uint64 = 0
)

// causes is the set of the given causes, for a kind's shown.
func causes(cs ...Cause) uint64 {
	var set uint64
	for _, c := range cs {
		set |= 1 << c
	}
	return set
}

func fields(fs ...field) []field { return fs }

// kinds is the one table of event kinds. Each entry's comment says what
// its fields hold for the kind; a field it does not list is zero (Broker
// and Peer -1). The order of an entry's fields is its encoding's.
var kinds = [NumEventKinds]kindInfo{
	// Text: the run's scenario, seed, strategy and profile.
	EvRunStart: {name: "run-start", input: true, fields: fields(fText), shown: always,
		text: func(d []byte, e *Event) []byte { return append(append(d, "start "...), e.Text...) }},
	// Broker: the broker given a new, empty replica.
	EvAddReplica: {name: "add-replica", input: true, fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte { return appendBroker(append(d, "add_replica "...), e.Broker) }},
	// Count: the records of the whole produce event, Ms: the time they are spread over.
	EvProduce: {name: "produce", input: true, fields: fields(fCount, fMs), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(d, "produce "...), e.Count)
			return append(appendInt(append(d, " records over "...), e.Ms), "ms"...)
		}},
	// Count: the records of this chunk of a spread produce.
	EvProduceChunk: {name: "produce-chunk", input: true, fields: fields(fCount), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendInt(append(d, "produce chunk "...), e.Count), " records"...)
		}},
	// Broker: the broker to elect.
	EvElectLeader: {name: "elect-leader", input: true, fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte { return appendBroker(append(d, "elect_leader "...), e.Broker) }},
	// Broker: the broker that crashes.
	EvCrash: {name: "crash", input: true, fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte { return appendBroker(append(d, "crash "...), e.Broker) }},
	// Broker: the broker that restarts.
	EvRestart: {name: "restart", input: true, fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte { return appendBroker(append(d, "restart "...), e.Broker) }},
	// Broker: the broker whose setting changes (-1: the topic's, on all),
	// Key, and On (a boolean key, Bool) or Value.
	EvSetConfig: {name: "set-config", input: true, fields: fields(fBroker, fValue, fOn, fBool, fKey), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = append(append(append(d, "set_config "...), e.Key...), '=')
			if e.Bool {
				d = strconv.AppendBool(d, e.On)
			} else {
				d = appendInt(d, e.Value)
			}
			return appendInt(append(d, " broker="...), int64(e.Broker))
		}},
	// Offset: the offset records are deleted before.
	EvDeleteRecords: {name: "delete-records", input: true, fields: fields(fOffset), shown: always,
		text: func(d []byte, e *Event) []byte { return appendInt(append(d, "delete_records before "...), e.Offset) }},
	// Brokers: the brokers cut off from the others, Ms: for how long.
	EvNetworkPartition: {name: "network-partition", input: true, fields: fields(fMs, fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInts(append(d, "network_partition "...), e.Brokers)
			return append(appendInt(append(d, " for "...), e.Ms), "ms"...)
		}},
	// Brokers: the brokers whose partition ends.
	EvPartitionEnd: {name: "partition-end", input: true, fields: fields(fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendInts(append(d, "network partition of "...), e.Brokers), " ends"...)
		}},
	// Ms: how long remote storage fails every operation.
	EvRemoteOutage: {name: "remote-outage", input: true, fields: fields(fMs), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendInt(append(d, "remote_outage for "...), e.Ms), "ms"...)
		}},
	// Offset: the offset the consumer asks for.
	EvConsume: {name: "consume", input: true, fields: fields(fOffset), shown: always,
		text: func(d []byte, e *Event) []byte { return appendInt(append(d, "consume from "...), e.Offset) }},
	// The fault phase is over.
	EvHeal: {name: "heal", input: true, fields: fields(), shown: always,
		text: func(d []byte, e *Event) []byte { return append(d, "heal: fault phase over"...) }},
	// Broker: the receiver, Peer: the sender, Msg: the message arriving.
	EvDeliver: {name: "deliver", input: true, fields: fields(fBroker, fPeer, fMsg), shown: always,
		text: func(d []byte, e *Event) []byte { return e.Msg.AppendTo(append(d, "deliver "...)) }},
	// Broker, Timer: the timer that fires, Peer: the parked follower (TimerParkedFetch only).
	EvTimer: {name: "timer", input: true, fields: fields(fBroker, fPeer, fTimer), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(append(appendBroker(d, e.Broker), " timer "...), e.Timer.String()...)
		}},
	// Broker: the broker that started it, Op, Remote: the operation's id
	// and kind, Bytes, Segment (ID only), Failed: it failed (drawn, or
	// during an outage).
	EvRemoteDone: {name: "remote-done", input: true, fields: fields(fBroker, fOp, fBytes, fFailed, fSegment, fRemote), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = append(append(appendBroker(d, e.Broker), " remote "...), e.Remote.String()...)
			d = strconv.AppendUint(append(d, " #"...), e.Segment.ID, 10)
			if e.Failed {
				return append(d, " failed"...)
			}
			return append(d, " ok"...)
		}},

	// Text: why the step's input did not happen (the model's refusal).
	EvSkipped: {name: "skipped", fields: fields(fText), shown: always,
		text: func(d []byte, e *Event) []byte { return append(append(d, "skipped: "...), e.Text...) }},
	// Broker: the receiver, Peer: the sender, Msg, Cause: DropPartition,
	// DropSenderRestarted, DropReceiverDown or DropLost.
	EvDropped: {name: "dropped", fields: fields(fBroker, fPeer, fCause, fMsg), shown: always,
		text: func(d []byte, e *Event) []byte {
			switch e.Cause {
			case DropReceiverDown:
				return e.Msg.AppendTo(append(appendBroker(d, e.Msg.To), " down: dropped "...))
			case DropSenderRestarted:
				return append(appendBroker(append(d, "dropped: "...), e.Msg.From), " restarted since sending"...)
			}
			return append(d, "dropped: network partition"...)
		}},
	// Broker: the sender, Peer: the receiver, Msg: a request or answer sent (its head).
	EvSend: {name: "send", fields: fields(fBroker, fPeer, fMsgHead), shown: never,
		text: func(d []byte, e *Event) []byte { return e.Msg.AppendTo(append(d, "send "...)) }},
	// Broker, Epoch: the new leader epoch, Log, HRO: its log and highest remote offset.
	EvBecomeLeader: {name: "become-leader", fields: fields(fBroker, fEpoch, fHRO, fLog), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "becomes leader epoch="...), int64(e.Epoch))
			return appendInt(append(appendLog(d, e.Log), " hro="...), e.HRO)
		}},
	// Broker, Peer: the leader it follows, Epoch: the leader's epoch.
	EvBecomeFollower: {name: "become-follower", fields: fields(fBroker, fPeer, fEpoch), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendBroker(append(appendSubject(d, e), "follows "...), e.Peer)
			return appendInt(append(d, " epoch="...), int64(e.Epoch))
		}},
	// Broker: the replica outside the ISR that is elected; the ISR is it alone.
	EvUncleanElection: {name: "unclean-election", fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte { return appendBroker(append(d, "unclean election of "...), e.Broker) }},
	// Brokers: the ELR (the ISR is empty), none of it alive.
	EvOffline: {name: "offline", fields: fields(fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendInts(append(d, "partition offline: no live ISR or ELR member (ELR "...), e.Brokers), ')')
		}},
	// Broker: the leader, Batch: the batch produced, Offset: its log end offset after.
	EvAppend: {name: "append", fields: fields(fBroker, fOffset, fBatch), shown: always,
		text: func(d []byte, e *Event) []byte {
			return appendInt(append(e.Batch.AppendTo(append(appendSubject(d, e), "append "...)), " leo="...), e.Offset)
		}},
	// Broker: the follower, Peer: its leader, [Offset, Last]: the records
	// it appended from a fetch, Bytes: theirs.
	EvFetched: {name: "fetched", fields: fields(fBroker, fPeer, fOffset, fLast, fBytes), shown: never,
		text: func(d []byte, e *Event) []byte {
			d = appendRange(append(appendSubject(d, e), "appends "...), e.Offset, e.Last)
			return append(appendInt(append(appendBroker(append(d, " from "...), e.Peer), " ("...), e.Bytes), " bytes)"...)
		}},
	// Broker: an added replica receiving its first records from leader
	// Peer, Offset: its local log start offset then, Path: how it was positioned.
	EvBootstrapped: {name: "bootstrapped", fields: fields(fBroker, fPeer, fOffset, fPath), shown: never,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "first records: bootstrapped at "...), e.Offset)
			return appendPath(d, e.Path)
		}},
	// Broker: the follower that joins, Peer: the leader, Brokers: the ISR
	// after, Offset: the leader's high watermark, Log: the follower's
	// offsets, Bytes: its local bytes.
	EvISRJoin: {name: "isr-join", fields: fields(fBroker, fPeer, fOffset, fBytes, fLog, fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInts(append(appendSubject(d, e), "joins ISR "...), e.Brokers)
			return append(appendInt(append(appendBroker(append(d, " (leader "...), e.Peer), " hw="...), e.Offset), ')')
		}},
	// Broker: the leader, Brokers: the ISR after, Dropped: the followers that left it.
	EvISRShrink: {name: "isr-shrink", fields: fields(fBroker, fBrokers, fDropped), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInts(append(appendSubject(d, e), "shrinks ISR to "...), e.Brokers)
			return append(appendInts(append(d, " (dropped "...), e.Dropped), ')')
		}},
	// Broker: the follower, Retry: why it backs off.
	EvBackoff: {name: "backoff", fields: fields(fBroker, fRetry), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(append(append(appendSubject(d, e), "backs off ("...), e.Retry.String()...), ')')
		}},
	// Broker: a KIP-1023 follower that found EPUO < LSO and falls back.
	EvFallback: {name: "fallback", fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendSubject(d, e), "EPUO below log start: falls back to the local-log-start rules"...)
		}},
	// Broker: the follower, Offset: the offset it truncates to, Cause:
	// TruncateDivergence (Epoch and End: the leader's end offset of that
	// epoch) or TruncateLeaderEnd.
	EvTruncate: {name: "truncate", fields: fields(fBroker, fEpoch, fOffset, fEnd, fCause), shown: always,
		text: func(d []byte, e *Event) []byte {
			if e.Cause == TruncateLeaderEnd {
				return appendInt(append(appendSubject(d, e), "truncates to leader end "...), e.Offset)
			}
			d = appendInt(append(appendSubject(d, e), "truncates to "...), e.Offset)
			d = appendInt(append(d, " (leader: epoch "...), int64(e.Epoch))
			return append(appendInt(append(d, " ends at "...), e.End), ')')
		}},
	// Broker: the follower, Offset: where its log starts now, Path, Cause:
	// StartTruncate (OUT_OF_RANGE) or StartTrivial (aux state with nothing
	// to rebuild).
	EvStartAt: {name: "start-at", fields: fields(fBroker, fOffset, fPath, fCause), shown: always,
		text: func(d []byte, e *Event) []byte {
			if e.Cause == StartTrivial {
				d = appendInt(append(appendSubject(d, e), "starts at "...), e.Offset)
				return append(append(append(d, " ("...), e.Path.String()...), ", nothing to rebuild)"...)
			}
			d = appendInt(append(appendSubject(d, e), "truncates fully, starts at "...), e.Offset)
			return appendPath(d, e.Path)
		}},
	// Broker: the follower, Offset: where it will start, Epoch: that
	// offset's leader epoch, LogStart: the leader's log start offset, Path.
	EvAuxBuildStart: {name: "aux-build-start", fields: fields(fBroker, fEpoch, fOffset, fLogStart, fPath), shown: never,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "builds aux state for ["...), e.LogStart)
			d = appendInt(append(d, ", "...), e.Offset)
			return append(append(append(d, ") ("...), e.Path.String()...), ')')
		}},
	// Broker: the follower, Path, Cause: AuxBuilt (Offset: where it starts
	// now, Segment: the remote segment read, RemoteBytes: what the read
	// took) or why it ended unbuilt (AuxNoSegment: Offset and Epoch looked
	// for; AuxSegmentGone: Segment, ID only).
	EvAuxBuildEnd: {name: "aux-build-end", fields: fields(fBroker, fEpoch, fOffset, fRemoteBytes, fPath, fCause, fSegment),
		shown: causes(AuxBuilt, AuxNoSegment, AuxSegmentGone),
		text: func(d []byte, e *Event) []byte {
			switch e.Cause {
			case AuxBuilt:
				d = appendSegment(append(appendSubject(d, e), "built aux state from remote segment "...), e.Segment)
				return appendPath(appendInt(append(d, ", starts at "...), e.Offset), e.Path)
			case AuxNoSegment:
				d = appendInt(append(appendSubject(d, e), "no remote segment holds offset "...), e.Offset)
				return appendInt(append(d, " in epoch "...), int64(e.Epoch))
			case AuxSegmentGone:
				d = strconv.AppendUint(append(appendSubject(d, e), "remote segment "...), e.Segment.ID, 10)
				return append(d, " was deleted during the build"...)
			}
			return append(append(appendSubject(d, e), "aux state build ended: "...), e.Cause.String()...)
		}},
	// Broker: the leader whose copy task skipped its run, remote metadata not ready.
	EvRLMCopySkipped: {name: "rlm-copy-skipped", fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendSubject(d, e), "rlm-copy skipped: remote metadata not ready"...)
		}},
	// Broker: the leader, LogStart: its log start offset, raised from remote metadata.
	EvLogStartFromRemote: {name: "log-start-from-remote", fields: fields(fBroker, fLogStart), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendInt(append(appendSubject(d, e), "raises log start offset to "...), e.LogStart), " from remote metadata"...)
		}},
	// Broker, HRO: its highest remote offset now, PrevHRO: before.
	EvHighestRemote: {name: "highest-remote", fields: fields(fBroker, fHRO, fPrevHRO), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "highest remote offset "...), e.HRO)
			return append(appendInt(append(d, " (was "...), e.PrevHRO), ')')
		}},
	// Broker: the leader, Segment: the segment it starts uploading.
	EvUploadStart: {name: "upload-start", fields: fields(fBroker, fSegment), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendSegment(append(appendSubject(d, e), "uploads segment "...), e.Segment)
			return append(appendInt(append(d, " ("...), e.Segment.Bytes), " bytes)"...)
		}},
	// Broker: the leader, Segment (ID only unless UploadDone), Cause:
	// UploadDone, UploadFailed or UploadAbandoned.
	EvUploadEnd: {name: "upload-end", fields: fields(fBroker, fCause, fSegment), shown: always &^ causes(UploadAbandoned),
		text: func(d []byte, e *Event) []byte {
			switch e.Cause {
			case UploadDone:
				return appendSegment(append(appendSubject(d, e), "uploaded "...), e.Segment)
			case UploadFailed:
				d = strconv.AppendUint(append(appendSubject(d, e), "upload of remote segment "...), e.Segment.ID, 10)
				return append(d, " failed; retried on a later run"...)
			}
			d = strconv.AppendUint(append(appendSubject(d, e), "upload of remote segment "...), e.Segment.ID, 10)
			return append(d, " abandoned: its broker crashed meanwhile"...)
		}},
	// Broker: the leader, Segment: the remote segment it expires,
	// LogStart: its log start offset after.
	EvRemoteExpire: {name: "remote-expire", fields: fields(fBroker, fLogStart, fSegment), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendSegment(append(appendSubject(d, e), "expires remote segment "...), e.Segment)
			return appendInt(append(d, " lso="...), e.LogStart)
		}},
	// Segment (ID only): a remote segment deleted.
	EvRemoteDeleted: {name: "remote-deleted", fields: fields(fSegment), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(strconv.AppendUint(append(d, "remote segment "...), e.Segment.ID, 10), " deleted"...)
		}},
	// Broker, Log: its offsets after local retention deleted segments.
	EvLocalRetention: {name: "local-retention", fields: fields(fBroker, fLog), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "local retention: lso="...), e.Log.LogStart)
			return appendInt(append(d, " llso="...), e.Log.LocalLogStart)
		}},
	// Broker, Segment: the active segment it rolled to be tiered and deleted (KAFKA-15047).
	EvRollForRetention: {name: "roll-for-retention", fields: fields(fBroker, fSegment), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendSegment(append(appendSubject(d, e), "rolls its active segment "...), e.Segment)
			return append(d, ": it breaches retention (KAFKA-15047)"...)
		}},
	// Broker: the leader that deleted the remote data (-1: none did),
	// LogStart: its log start offset after.
	EvTieringDisabled: {name: "tiering-disabled", fields: fields(fBroker, fLogStart), shown: always,
		text: func(d []byte, e *Event) []byte {
			if e.Broker < 0 {
				return append(d, "tiering disabled with no leader: remote data left in place"...)
			}
			d = appendBroker(append(d, "tiering disabled: remote data deleted, "...), e.Broker)
			return appendInt(append(d, " lso="...), e.LogStart)
		}},
	// Broker, LogStart: its log start offset after loading its log with tiering off.
	EvLoadLog: {name: "load-log", fields: fields(fBroker, fLogStart), shown: always,
		text: func(d []byte, e *Event) []byte {
			return appendInt(append(appendSubject(d, e), "loads its log with tiering off: lso="...), e.LogStart)
		}},
	// Broker: the leader, Log: its offsets after delete-records.
	EvDeleteRecordsDone: {name: "delete-records-done", fields: fields(fBroker, fLog), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "delete-records: lso="...), e.Log.LogStart)
			return appendInt(append(d, " llso="...), e.Log.LocalLogStart)
		}},
	// Broker: the leader read, [Offset, End): what the consumer read,
	// Bytes: from the leader's disk, RemoteBytes: from remote storage.
	EvConsumed: {name: "consumed", fields: fields(fBroker, fOffset, fEnd, fBytes, fRemoteBytes), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendBroker(append(d, "consumed on "...), e.Broker), ": ["...), e.Offset)
			d = appendInt(append(d, ","...), e.End)
			d = appendInt(append(d, ") local="...), e.Bytes)
			return append(appendInt(append(d, "B remote="...), e.RemoteBytes), 'B')
		}},
	// Broker, Role, Up, Epoch: its leader epoch, Log, HRO: one broker's
	// state after a step that changed it.
	EvBrokerState: {name: "broker-state", fields: fields(fBroker, fEpoch, fHRO, fLog, fRole, fUp), shown: never,
		text: func(d []byte, e *Event) []byte {
			d = append(append(appendSubject(d, e), e.Role.String()...), ' ')
			if !e.Up {
				d = append(d, "down "...)
			}
			d = appendInt(append(d, "epoch="...), int64(e.Epoch))
			return appendInt(append(appendLog(d, e.Log), " hro="...), e.HRO)
		}},
	// [Offset, Last]: the finished remote range after a step that changed
	// it (Last < Offset: none).
	EvRemoteState: {name: "remote-state", fields: fields(fOffset, fLast), shown: never,
		text: func(d []byte, e *Event) []byte {
			if e.Last < e.Offset {
				return append(d, "remote: none"...)
			}
			return appendRange(append(d, "remote: "...), e.Offset, e.Last)
		}},
	// Broker: the leader, Segment: a segment left DELETE_SEGMENT_STARTED
	// that its expiration task deletes again.
	EvRemoteDeleteRetry: {name: "remote-delete-retry", fields: fields(fBroker, fSegment), shown: always,
		text: func(d []byte, e *Event) []byte {
			return appendSegment(append(appendSubject(d, e), "retries deleting remote segment "...), e.Segment)
		}},
	// Broker: the leader whose expiration task seeds an unknown HRO from
	// remote metadata (KAFKA-20732).
	EvExpirationSeedsHRO: {name: "expiration-seeds-hro", fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte {
			return append(appendSubject(d, e), "rlm-expire seeds the highest remote offset"...)
		}},
	// Broker: the leader whose expiration run was abandoned: LogStart, End:
	// the log start offset it would set above its high watermark, or
	// Segment (ID only): the deletion that failed.
	EvExpirationAborted: {name: "expiration-aborted", fields: fields(fBroker, fLogStart, fEnd, fSegment), shown: always,
		text: func(d []byte, e *Event) []byte {
			if e.Segment.ID != 0 {
				d = strconv.AppendUint(append(appendSubject(d, e), "rlm-expire run abandoned: deleting remote segment "...), e.Segment.ID, 10)
				return append(d, " failed"...)
			}
			d = appendInt(append(appendSubject(d, e), "rlm-expire run abandoned: lso "...), e.LogStart)
			return appendInt(append(d, " would pass hw "...), e.End)
		}},
	// Broker: the follower whose fetcher thread (Fetcher) from leader Peer
	// stops for a tiered bootstrap of partition Part, Count: the other
	// partitions of the thread that wait meanwhile (many-partition runs only).
	EvThreadBlocked: {name: "thread-blocked", fields: fields(fBroker, fPeer, fCount), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendBroker(append(appendSubject(d, e), "fetcher thread "...), e.Peer)
			d = appendInt(append(d, '#'), int64(e.Fetcher))
			d = appendInt(append(d, " blocked in a tiered bootstrap, "...), e.Count)
			if e.Count == 1 {
				return append(d, " other partition waits"...)
			}
			return append(d, " other partitions wait"...)
		}},
	// Broker, Peer, Fetcher: the thread, Part: the partition whose
	// bootstrap blocked it, Ms: for how long.
	EvThreadUnblocked: {name: "thread-unblocked", fields: fields(fBroker, fPeer, fMs), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendBroker(append(appendSubject(d, e), "fetcher thread "...), e.Peer)
			d = appendInt(append(d, '#'), int64(e.Fetcher))
			return append(appendInt(append(d, " unblocked after "...), e.Ms), "ms"...)
		}},
	// Broker: the broker whose disk is replaced: it restarts empty, every
	// replica it held re-added (an input, appended after the last kind).
	EvReplaceBroker: {name: "replace-broker", input: true, fields: fields(fBroker), shown: always,
		text: func(d []byte, e *Event) []byte { return appendBroker(append(d, "replace_broker "...), e.Broker) }},
	// Brokers: the replicas a reassignment moves the partition to, in
	// order, the first preferred (an input).
	EvReassign: {name: "reassign", input: true, fields: fields(fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte { return appendInts(append(d, "reassign to "...), e.Brokers) }},
	// Brokers: the target replicas of the reassignment that starts (the
	// replicas it adds are those not assigned before, the ones it removes
	// those assigned and not in it).
	EvReassignStart: {name: "reassign-start", fields: fields(fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte {
			return appendInts(append(d, "reassignment starts, to "...), e.Brokers)
		}},
	// Brokers: the replicas once the reassignment completed (its target;
	// the removed replicas left the replicas and the ISR).
	EvReassignDone: {name: "reassign-done", fields: fields(fBrokers), shown: always,
		text: func(d []byte, e *Event) []byte {
			return appendInts(append(d, "reassignment completes: replicas "...), e.Brokers)
		}},
	// Broker, HRO, PrevHRO as EvHighestRemote; Ms: how long before the step
	// the follower task's run that set it was (floored to the millisecond).
	EvHighestRemoteRun: {name: "highest-remote-run", fields: fields(fBroker, fHRO, fPrevHRO, fMs), shown: always,
		text: func(d []byte, e *Event) []byte {
			d = appendInt(append(appendSubject(d, e), "highest remote offset "...), e.HRO)
			d = appendInt(append(d, " (was "...), e.PrevHRO)
			if e.Ms == 0 {
				return append(d, "), by its RLM follower task's run at this instant, folded into this step"...)
			}
			return append(appendInt(append(d, "), by its RLM follower task's run "...), e.Ms), " ms earlier, folded into this step"...)
		}},
}
