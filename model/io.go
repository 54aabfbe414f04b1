package model

import (
	"strconv"

	"tierfetch/sim"
)

// Config is the partition's topic configuration, the brokers' replication
// settings and the environment, with durations in virtual time.
type Config struct {
	SegmentBytes           int64
	RecordBytes            int64
	ReplicaFetchMaxBytes   int64
	ReplicaFetchBackoff    sim.Duration
	ReplicaFetchWaitMax    sim.Duration
	ReplicaLagTimeMax      sim.Duration
	RLMTaskInterval        sim.Duration
	ReplicaSocketTimeout   sim.Duration
	RetentionCheckInterval sim.Duration
	RemoteMetadataReady    sim.Duration
	// RemoteMetadataLag is how long after another broker publishes a remote
	// log metadata event a broker's metadata cache folds it (0: at once).
	RemoteMetadataLag sim.Duration

	RemoteStorageEnable         bool
	RemoteLogCopyDisable        bool
	RemoteLogDeleteOnDisable    bool
	UncleanLeaderElectionEnable bool
	// MinInsyncReplicas is min.insync.replicas (Kafka's default 1; 0 reads
	// as 1): elections and the high watermark follow it (election.go).
	MinInsyncReplicas int

	LocalRetentionBytes int64 // -2: same as RetentionBytes
	LocalRetentionMs    int64 // -2: same as RetentionMs
	RetentionBytes      int64 // -1: unlimited
	RetentionMs         int64 // -1: unlimited
	// RemoteCopyLagMs and RemoteCopyLagBytes are KIP-1241's remote.copy.lag.ms
	// (default 0: no delay) and remote.copy.lag.bytes (default -1: the local
	// retention), read only by profiles that have it (Profile.CopyLag).
	RemoteCopyLagMs    int64
	RemoteCopyLagBytes int64

	// Mutants are the deliberate bugs switched on (none by default).
	Mutants Mutants
	// Fixes are the upstream reports' suggested fixes switched on (none
	// by default), from the end of NewCluster on (setFixes).
	Fixes Fixes
}

// ErrCode is a protocol error code carried by a response.
type ErrCode uint8

// Error codes, named as Kafka names them.
const (
	ErrNone ErrCode = iota
	ErrOffsetOutOfRange
	ErrOffsetMovedToTieredStorage
	ErrNotLeader
	ErrFencedLeaderEpoch
	ErrUnknownLeaderEpoch
)

var errNames = [...]string{"NONE", "OOR", "OMTS", "NOT_LEADER", "FENCED_EPOCH", "UNKNOWN_EPOCH"}

func (e ErrCode) String() string { return errNames[e] }

// MsgKind says what a Message is.
type MsgKind uint8

// Message kinds: requests a follower sends its leader, and their answers.
const (
	MsgFetch MsgKind = iota
	MsgFetchResp
	MsgListOffsets
	MsgListOffsetsResp
	MsgEpochEnd // OffsetsForLeaderEpoch
	MsgEpochEndResp
)

var msgNames = [...]string{"fetch", "fetch-resp", "list-offsets", "list-offsets-resp", "epoch-end", "epoch-end-resp"}

func (k MsgKind) String() string { return msgNames[k] }

// ListOffsets timestamps.
const (
	ListLatest                int64 = -1 // log end offset
	ListEarliest              int64 = -2 // log start offset
	ListEarliestLocal         int64 = -4 // local log start offset
	ListEarliestPendingUpload int64 = -6 // first offset not yet tiered
)

// Message is one request or response between two brokers. Only the fields of
// its Kind are set.
type Message struct {
	Kind MsgKind
	// Fetcher is the fetcher thread of a thread's fetch and its answer.
	Fetcher int16
	// Part is the partition of a one-partition message (its Fleet index;
	// a thread's fetch of many partitions says them in Parts).
	Part        PartID
	From, To    int
	ReqID       uint64
	LeaderEpoch int32 // the sender's current leader epoch
	Err         ErrCode
	Diverging   bool // fetch-resp: Epoch/Offset give the leader's end of the follower's last epoch

	FetchOffset      int64 // fetch
	LastFetchedEpoch int32 // fetch
	Epoch            int32 // list-offsets-resp, epoch-end, epoch-end-resp, diverging
	MaxBytes         int64 // fetch
	Batches          []Batch
	HighWatermark    int64 // fetch-resp
	LogStart         int64 // fetch-resp
	Timestamp        int64 // list-offsets
	Offset           int64 // list-offsets-resp, epoch-end-resp, diverging
	// Parts are the partitions of a fetcher thread's fetch (Part -1): every
	// ready one in the thread's order when Full, else those added to its
	// session or altered (session.go); and of its answer, those that must
	// respond, in the session's order. MaxBytes is then the response's
	// limit (replica.fetch.response.max.bytes).
	Parts []FetchPart
	// Forget are the partitions a thread's incremental fetch takes out of
	// its session; Full says the fetch starts a new session.
	Forget []PartID
	Full   bool
}

// FetchPart is one partition of a fetcher thread's fetch, or of its answer.
type FetchPart struct {
	Part PartID
	// The request: where the follower fetches from, its last fetched
	// epoch and current leader epoch, and the partition's limit
	// (replica.fetch.max.bytes).
	FetchOffset      int64
	LastFetchedEpoch int32
	LeaderEpoch      int32
	MaxBytes         int64
	// The answer: the leader's error, or its records, high watermark and
	// log start offset, or where the follower's last epoch ends (Diverging:
	// Epoch and Offset).
	Err           ErrCode
	Diverging     bool
	Epoch         int32
	Offset        int64
	HighWatermark int64
	LogStart      int64
	Batches       []Batch
}

// bytes is the size of the part's records.
func (p *FetchPart) bytes() int64 {
	var n int64
	for _, b := range p.Batches {
		n += b.Bytes
	}
	return n
}

// MessageHeaderBytes is the fixed part of every message's size on the wire
// (WireBytes): what is not records.
const MessageHeaderBytes = 64

// WireBytes is the message's size on the wire: records plus a fixed header.
func (m *Message) WireBytes() int64 {
	n := int64(MessageHeaderBytes)
	for _, b := range m.Batches {
		n += b.Bytes
	}
	for i := range m.Parts {
		n += m.Parts[i].bytes()
	}
	return n
}

// String prints the message on one line.
func (m *Message) String() string {
	var buf [128]byte
	return string(m.AppendTo(buf[:0]))
}

// AppendTo appends the line String prints to dst and returns the extended
// slice (trace lines are built without an allocation per message).
func (m *Message) AppendTo(dst []byte) []byte {
	dst = appendBroker(dst, m.From)
	dst = appendBroker(append(dst, "->"...), m.To)
	dst = append(append(dst, ' '), m.Kind.String()...)
	if m.Part < 0 {
		return m.appendThreadTo(dst)
	}
	switch m.Kind {
	case MsgFetch:
		dst = appendInt(append(dst, '('), m.FetchOffset)
		dst = appendInt(append(dst, ") lastEpoch="...), int64(m.LastFetchedEpoch))
	case MsgFetchResp:
		if m.Err != ErrNone {
			return append(append(dst, ' '), m.Err.String()...)
		}
		if m.Diverging {
			dst = appendInt(append(dst, " diverging epoch="...), int64(m.Epoch))
			return appendInt(append(dst, " end="...), m.Offset)
		}
		n := int64(0)
		if len(m.Batches) > 0 {
			n = m.Batches[len(m.Batches)-1].Last() + 1 - m.Batches[0].Base
		}
		dst = appendInt(append(dst, " records="...), n)
		dst = appendInt(append(dst, " hw="...), m.HighWatermark)
		dst = appendInt(append(dst, " lso="...), m.LogStart)
	case MsgListOffsets:
		dst = append(appendInt(append(dst, '('), m.Timestamp), ')')
	case MsgListOffsetsResp:
		dst = appendInt(append(dst, '('), m.Timestamp)
		dst = appendInt(append(dst, ") offset="...), m.Offset)
		dst = appendInt(append(dst, " epoch="...), int64(m.Epoch))
	case MsgEpochEnd:
		dst = append(appendInt(append(dst, "(epoch="...), int64(m.Epoch)), ')')
	case MsgEpochEndResp:
		dst = appendInt(append(dst, " epoch="...), int64(m.Epoch))
		dst = appendInt(append(dst, " end="...), m.Offset)
	}
	if m.Err != ErrNone {
		dst = append(append(dst, ' '), m.Err.String()...)
	}
	return dst
}

// appendThreadTo appends the line of a fetcher thread's fetch or answer:
// the thread, its partitions and the records' bytes.
func (m *Message) appendThreadTo(dst []byte) []byte {
	dst = appendInt(append(dst, '#'), int64(m.Fetcher))
	dst = appendInt(append(append(append(dst, ' '), m.Kind.String()...), " parts="...), int64(len(m.Parts)))
	if m.Kind == MsgFetch {
		if m.Full {
			dst = append(dst, " full"...)
		}
		if len(m.Forget) > 0 {
			dst = appendInt(append(dst, " forget="...), int64(len(m.Forget)))
		}
	}
	if m.Kind == MsgFetchResp {
		var n int64
		for i := range m.Parts {
			n += m.Parts[i].bytes()
		}
		dst = appendInt(append(dst, " bytes="...), n)
	}
	return dst
}

// appendBroker appends "b<id>", the way trace lines name a broker.
func appendBroker(dst []byte, id int) []byte { return appendInt(append(dst, 'b'), int64(id)) }

func appendInt(dst []byte, v int64) []byte { return strconv.AppendInt(dst, v, 10) }

// TimerKind names one timer of a broker; a broker has at most one timer of
// each (kind, peer) pending.
type TimerKind uint8

// Timers.
const (
	TimerFetchBackoff TimerKind = iota // follower: retry after replica.fetch.backoff.ms
	TimerRequest                       // follower: the pending request timed out
	TimerParkedFetch                   // leader: a parked fetch from Peer waited long enough
	TimerISRExpire                     // leader: check for lagging ISR members
	TimerRLMCopy                       // leader: RLM copy task run
	TimerRLMExpire                     // leader: RLM expiration task run
	TimerRLMFollower                   // follower: refresh highest remote offset
	TimerRetention                     // any replica: local retention check
	NumTimerKinds
)

var timerNames = [...]string{"fetch-backoff", "request-timeout", "parked-fetch", "isr-expire", "rlm-copy", "rlm-expire", "rlm-follower", "retention"}

func (k TimerKind) String() string { return timerNames[k] }

// TimerKey names a timer.
type TimerKey struct {
	Broker int
	Kind   TimerKind
	// Fetcher is the fetcher thread of a thread's timer (Part -1).
	Fetcher int16
	// Part is the partition whose timer it is (its Fleet index), -1 for a
	// fetcher thread's.
	Part PartID
	Peer int // only for TimerParkedFetch, and a thread's leader
}

// RemoteOpKind says what a remote-storage operation does.
type RemoteOpKind uint8

// Remote operations.
const (
	RemoteUpload  RemoteOpKind = iota // copy a segment with its metadata
	RemoteReadAux                     // read a segment's epoch checkpoint, or its producer snapshot (two reads a build)
	RemoteRead                        // a consumer reads records from a remote segment
	RemoteDelete                      // delete an expired segment
)

var remoteOpNames = [...]string{"upload", "read-aux", "read", "delete"}

func (k RemoteOpKind) String() string { return remoteOpNames[k] }

// RemoteOp is one operation against remote storage; its completion comes
// back as Cluster.RemoteDone with the same ID.
type RemoteOp struct {
	ID     uint64
	Broker int
	Kind   RemoteOpKind
	// Part is the partition the operation is for (its Fleet index).
	Part    PartID
	Segment uint64 // remote segment id
	Bytes   int64
}

// EffectKind says what an Effect asks of the caller.
type EffectKind uint8

// Effects.
const (
	EffSend EffectKind = iota
	EffSetTimer
	EffCancelTimer
	EffRemote
)

// Effect is one output of a step: a message to send, a timer to set (replacing
// any pending timer with the same key) or cancel, or a remote operation to
// start. The caller takes a step's effects with Cluster.Ready.
type Effect struct {
	Kind   EffectKind
	Msg    Message
	Timer  TimerKey
	After  sim.Duration
	Remote RemoteOp
}
