package plan

import (
	"fmt"
	"slices"
	"strings"

	"tierfetch/scenarios"
)

// topology picks the replicas the scenario holds: the leader first, then the
// other in-sync replicas; a new, empty broker is added after them.
func (b *builder) topology() error {
	st := &b.st
	if !b.f.HasTopicInfo {
		rf := b.in.Env.ReplicationFactor
		for i := 0; i < rf; i++ {
			st.InSync = append(st.InSync, int32(i))
		}
		st.Brokers = append(slices.Clone(st.InSync), -1)
		if !b.in.Env.Given[FieldReplicationFactor] {
			b.assumef("kafka-topics.sh output not given: %d replicas, all in sync ({ReplicationFactor}); brokers are numbered 0..%d", rf, rf-1)
		}
		return nil
	}
	f := b.f
	if f.Leader < 0 {
		return toolErr(b.in.Topics.Name, lineOf(f.TopicsFrom), "partition %s has no leader (Leader: none): a new replica has nothing to fetch from", f.TP)
	}
	st.Leader = f.Leader
	st.InSync = []int32{f.Leader}
	var out []string
	for _, r := range f.Replicas {
		switch {
		case r == f.Leader:
		case slices.Contains(f.ISR, r):
			st.InSync = append(st.InSync, r)
		default:
			out = append(out, fmt.Sprint(r))
		}
	}
	if len(out) > 0 {
		b.notef("replica(s) %s are not in the ISR (%s): the scenario leaves them out (it cannot start a replica part-way behind)", strings.Join(out, ", "), f.TopicsFrom)
	}
	if len(st.InSync) > 63 {
		return toolErr(b.in.Topics.Name, lineOf(f.TopicsFrom), "%d in-sync replicas: the simulator runs at most 63 and the new one", len(st.InSync))
	}
	st.Brokers = append(slices.Clone(st.InSync), -1)
	return nil
}

func lineOf(from string) int {
	var n int
	if i := strings.LastIndexByte(from, ':'); i >= 0 {
		fmt.Sscan(from[i+1:], &n)
	}
	return n
}

// pieces splits [from, to) into segments of at most size offsets each (the
// last may be shorter) when step is true, or else into the fewest pieces of
// equal length (within one) that are at most size long; never into more
// than limit pieces (merged says the limit applied).
func pieces(from, to, size int64, step bool, limit int64) (out []scenarios.SegmentSpec, merged bool) {
	length := to - from
	if length <= 0 {
		return nil, false
	}
	n := (length + size - 1) / size
	if n > limit {
		n, step, merged = limit, false, true
	}
	if step {
		for base := from; base < to; base += size {
			out = append(out, scenarios.SegmentSpec{BaseOffset: base, EndOffset: min(base+size, to) - 1})
		}
		return out, merged
	}
	q, r := length/n, length%n
	base := from
	for i := int64(0); i < n; i++ {
		end := base + q
		if i < r {
			end++
		}
		out = append(out, scenarios.SegmentSpec{BaseOffset: base, EndOffset: end - 1})
		base = end
	}
	return out, merged
}

// segments lays the log out: local segments over [LLSO, LEO), the last one
// active, and remote segments over [LSO, remote end], the same as the local
// ones where they overlap. Segment boundaries fall at LLSO and at HRO+1,
// where they lie in a real log.
func (b *builder) segments() (*scenarios.Initial, error) {
	st := &b.st
	lso, llso, hw, size := st.LogStartOffset, st.LocalLogStartOffset, st.HighWatermark, b.segRecords
	in := &scenarios.Initial{LogStartOffset: lso, HighWatermark: hw, HighestRemoteOffset: st.HighestRemoteOffset}
	uploaded := st.uploadedEnd()
	overlap, m1 := pieces(llso, uploaded, size, false, localSegmentsMax)
	pending, m2 := pieces(uploaded, hw, size, true, localSegmentsMax)
	in.LocalSegments = append(append(in.LocalSegments, overlap...), pending...)
	if uploaded == hw {
		in.LocalSegments = append(in.LocalSegments, scenarios.SegmentSpec{BaseOffset: hw, EndOffset: hw - 1})
	}
	var m3, m4 bool
	if st.RemoteEndOffset >= lso {
		below := min(llso, st.RemoteEndOffset+1)
		split := st.HighestRemoteOffset + 1
		if split <= lso || split >= below {
			split = below
		}
		var a, c []scenarios.SegmentSpec
		limit := int64(remoteOnlySegmentsMax)
		if split < below {
			limit /= 2
		}
		a, m3 = pieces(lso, split, size, false, limit)
		c, m4 = pieces(split, below, size, false, limit)
		in.RemoteSegments = append(append(append(in.RemoteSegments, a...), c...), overlap...)
	}
	if m1 || m2 || m3 || m4 {
		b.notef("the log has more segments than the scenario lists (%d on the leader's disk, %d only in remote storage): neighbouring segments are merged (scenario files have no compact form yet); this changes only how finely retention moves the log start offsets",
			localSegmentsMax, remoteOnlySegmentsMax)
	}
	return in, nil
}

// uploadedEnd is the offset below which the leader's local segments are in
// remote storage too.
func (st *State) uploadedEnd() int64 {
	return min(max(st.RemoteEndOffset+1, st.LocalLogStartOffset), st.HighWatermark)
}

// sizes fills in the byte counts of the state.
func (st *State) sizes() {
	rb := st.RecordBytes
	st.LogBytes = (st.HighWatermark - st.LogStartOffset) * rb
	st.LocalBytes = (st.HighWatermark - st.LocalLogStartOffset) * rb
	st.RemoteOnlyBytes = (st.LocalLogStartOffset - st.LogStartOffset) * rb
	st.PendingUploadBytes = (st.HighWatermark - st.uploadedEnd()) * rb
}
