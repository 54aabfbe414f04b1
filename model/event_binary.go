package model

import (
	"encoding/binary"

	"tierfetch/sim"
)

// EncodingVersion names the canonical binary encoding of events that run
// digests hash (AppendBinary); it changes whenever the encoding does.
const EncodingVersion = 1

// AppendBinary appends the event's canonical binary encoding at time now:
// the digest of a run is the XXH64 hash of its events' encodings, in order.
//
// The encoding is the time (signed varint, microseconds), the kind (one
// byte), then the fields of the kind's entry (kinds), in its order:
// integers (Op included) as signed varints, booleans and small enums as one
// byte, Log as its four offsets, Segment as its ID, base, end and bytes,
// Batch as its eight fields, Msg as its kind, error, sender, receiver,
// request id, leader epoch, fetch offset, last fetched epoch, max bytes,
// HW, log start, timestamp, epoch, offset and diverging flag, then its
// batches (a count, then base, count and origin of each: they identify the
// records; a sent message, whose delivery carries the same batches, gives
// only the count), Brokers and Dropped as a count then the ids, Key and
// Text as a length then their bytes. Version: EncodingVersion.
func (e *Event) AppendBinary(dst []byte, now sim.Time) []byte {
	dst = binary.AppendVarint(dst, int64(now))
	dst = append(dst, byte(e.Kind))
	for _, f := range kinds[e.Kind].fields {
		switch f { // dense: a jump table
		case fBroker:
			dst = binary.AppendVarint(dst, int64(e.Broker))
		case fPeer:
			dst = binary.AppendVarint(dst, int64(e.Peer))
		case fEpoch:
			dst = binary.AppendVarint(dst, int64(e.Epoch))
		case fOffset:
			dst = binary.AppendVarint(dst, e.Offset)
		case fLast:
			dst = binary.AppendVarint(dst, e.Last)
		case fEnd:
			dst = binary.AppendVarint(dst, e.End)
		case fLogStart:
			dst = binary.AppendVarint(dst, e.LogStart)
		case fCount:
			dst = binary.AppendVarint(dst, e.Count)
		case fBytes:
			dst = binary.AppendVarint(dst, e.Bytes)
		case fRemoteBytes:
			dst = binary.AppendVarint(dst, e.RemoteBytes)
		case fMs:
			dst = binary.AppendVarint(dst, e.Ms)
		case fHRO:
			dst = binary.AppendVarint(dst, e.HRO)
		case fPrevHRO:
			dst = binary.AppendVarint(dst, e.PrevHRO)
		case fValue:
			dst = binary.AppendVarint(dst, e.Value)
		case fOp:
			dst = binary.AppendVarint(dst, int64(e.Op))
		case fLog:
			dst = binary.AppendVarint(dst, e.Log.LogStart)
			dst = binary.AppendVarint(dst, e.Log.LocalLogStart)
			dst = binary.AppendVarint(dst, e.Log.HighWatermark)
			dst = binary.AppendVarint(dst, e.Log.LogEnd)
		case fRole:
			dst = append(dst, byte(e.Role))
		case fUp:
			dst = appendFlag(dst, e.Up)
		case fOn:
			dst = appendFlag(dst, e.On)
		case fBool:
			dst = appendFlag(dst, e.Bool)
		case fFailed:
			dst = appendFlag(dst, e.Failed)
		case fPath:
			dst = append(dst, byte(e.Path))
		case fRetry:
			dst = append(dst, byte(e.Retry))
		case fCause:
			dst = append(dst, byte(e.Cause))
		case fTimer:
			dst = append(dst, byte(e.Timer))
		case fSegment:
			dst = binary.AppendUvarint(dst, e.Segment.ID)
			dst = binary.AppendVarint(dst, e.Segment.Base)
			dst = binary.AppendVarint(dst, e.Segment.End)
			dst = binary.AppendVarint(dst, e.Segment.Bytes)
		case fRemote:
			dst = append(dst, byte(e.Remote))
		case fBatch:
			dst = appendBatchBinary(dst, &e.Batch)
		case fMsg:
			dst = e.Msg.appendBinary(dst, true)
		case fMsgHead:
			dst = e.Msg.appendBinary(dst, false)
		case fBrokers:
			dst = appendIDs(dst, e.Brokers)
		case fDropped:
			dst = appendIDs(dst, e.Dropped)
		case fKey:
			dst = binary.AppendUvarint(dst, uint64(len(e.Key)))
			dst = append(dst, e.Key...)
		case fText:
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

// fieldSet is a set of fields, as bits.
type fieldSet uint64

// kindFieldSet returns the set of the fields of kind k's entry; a whole
// message includes its head.
func kindFieldSet(k EventKind) fieldSet {
	var set fieldSet
	for _, f := range kinds[k].fields {
		set |= 1 << f
		if f == fMsg {
			set |= 1 << fMsgHead
		}
	}
	return set
}

// FieldsOutsideKind names the fields e holds a value in that its kind's
// entry does not list (none for every event the model and the harness
// emit; a test checks it on real runs): such a value would be missing from
// the digest.
func (e *Event) FieldsOutsideKind() []string {
	return e.usedFields().names(kindFieldSet(e.Kind))
}

// usedFields returns the set of fields e holds a value in (Broker and Peer:
// other than -1; a message counts as its head).
func (e *Event) usedFields() fieldSet {
	var set fieldSet
	for f := field(0); f < numFields; f++ {
		if e.holds(f) {
			set |= 1 << f
		}
	}
	return set
}

// holds reports whether e holds a value in field f.
func (e *Event) holds(f field) bool {
	switch f {
	case fBroker:
		return e.Broker != -1
	case fPeer:
		return e.Peer != -1
	case fEpoch:
		return e.Epoch != 0
	case fOffset:
		return e.Offset != 0
	case fLast:
		return e.Last != 0
	case fEnd:
		return e.End != 0
	case fLogStart:
		return e.LogStart != 0
	case fCount:
		return e.Count != 0
	case fBytes:
		return e.Bytes != 0
	case fRemoteBytes:
		return e.RemoteBytes != 0
	case fMs:
		return e.Ms != 0
	case fHRO:
		return e.HRO != 0
	case fPrevHRO:
		return e.PrevHRO != 0
	case fValue:
		return e.Value != 0
	case fOp:
		return e.Op != 0
	case fLog:
		return e.Log != (LogOffsets{})
	case fRole:
		return e.Role != 0
	case fUp:
		return e.Up
	case fOn:
		return e.On
	case fBool:
		return e.Bool
	case fFailed:
		return e.Failed
	case fPath:
		return e.Path != 0
	case fRetry:
		return e.Retry != 0
	case fCause:
		return e.Cause != 0
	case fTimer:
		return e.Timer != 0
	case fSegment:
		return e.Segment != (SegmentRef{})
	case fRemote:
		return e.Remote != 0
	case fBatch:
		return e.Batch != (Batch{})
	case fMsgHead:
		return e.Msg.Kind != 0 || e.Msg.From != 0 || e.Msg.To != 0 || e.Msg.ReqID != 0
	case fBrokers:
		return len(e.Brokers) > 0
	case fDropped:
		return len(e.Dropped) > 0
	case fKey:
		return e.Key != ""
	case fText:
		return e.Text != ""
	}
	return false // fMsg: counted as its head
}

// names names the fields of s outside allowed, in field order.
func (s fieldSet) names(allowed fieldSet) []string {
	var out []string
	for f := field(0); f < numFields; f++ {
		if s&^allowed&(1<<f) != 0 {
			out = append(out, fieldNames[f])
		}
	}
	return out
}

// AppendBinaryPart is AppendBinary for a run of more than one partition
// (Fleet.Multi): the kind byte has bit 7 set (kinds are below 128) and the
// fields are followed by the event's partition, then, for an event with a
// message, the message's partition. One-partition runs use AppendBinary,
// so their digests do not depend on the fields only many partitions have.
func (e *Event) AppendBinaryPart(dst []byte, now sim.Time) []byte {
	start := len(dst)
	dst = e.AppendBinary(dst, now)
	k := start + varintLen(int64(now))
	dst[k] |= 0x80
	dst = binary.AppendVarint(dst, int64(e.Part))
	dst = binary.AppendVarint(dst, int64(e.Fetcher))
	if set := kindFieldSet(e.Kind); set&(1<<fMsgHead) != 0 {
		dst = e.Msg.appendParts(dst, set&(1<<fMsg) != 0)
	}
	return dst
}

// appendParts appends what a message of a many-partition run adds: its
// partition and fetcher thread, then each part of a thread's fetch or
// answer (its partition, the request's fields, the answer's, and its
// records as a count then the base, count and origin of each batch when
// withBatches, as for a message's own batches).
func (m *Message) appendParts(dst []byte, withBatches bool) []byte {
	dst = binary.AppendVarint(dst, int64(m.Part))
	dst = binary.AppendVarint(dst, int64(m.Fetcher))
	dst = binary.AppendUvarint(dst, uint64(len(m.Parts)))
	for i := range m.Parts {
		p := &m.Parts[i]
		for _, v := range [...]int64{int64(p.Part), p.FetchOffset, int64(p.LastFetchedEpoch), int64(p.LeaderEpoch), p.MaxBytes,
			int64(p.Err), int64(p.Epoch), p.Offset, p.HighWatermark, p.LogStart} {
			dst = binary.AppendVarint(dst, v)
		}
		dst = appendFlag(dst, p.Diverging)
		dst = binary.AppendUvarint(dst, uint64(len(p.Batches)))
		if withBatches {
			for _, b := range p.Batches {
				dst = binary.AppendVarint(dst, b.Base)
				dst = binary.AppendVarint(dst, b.Count)
				dst = binary.AppendUvarint(dst, b.Origin)
			}
		}
	}
	dst = appendFlag(dst, m.Full)
	dst = binary.AppendUvarint(dst, uint64(len(m.Forget)))
	for _, p := range m.Forget {
		dst = binary.AppendVarint(dst, int64(p))
	}
	return dst
}

// varintLen is the length of v's signed varint encoding.
func varintLen(v int64) int {
	var buf [binary.MaxVarintLen64]byte
	return binary.PutVarint(buf[:], v)
}
