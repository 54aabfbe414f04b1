package plan

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"tierfetch/scenarios"
)

// TestTopologyWithoutTopicsFile: without kafka-topics.sh output the
// scenario holds ReplicationFactor replicas, all in sync, numbered from 0,
// and the new one; the assumption is said unless the factor was given.
func TestTopologyWithoutTopicsFile(t *testing.T) {
	for _, given := range []bool{false, true} {
		b := &builder{in: &Input{Env: DefaultEnv()}, f: &Facts{Leader: -1}}
		b.in.Env.ReplicationFactor, b.in.Env.Given[FieldReplicationFactor] = 3, given
		if err := b.topology(); err != nil {
			t.Fatal(err)
		}
		var want []string
		if !given {
			want = []string{"kafka-topics.sh output not given: 3 replicas, all in sync (ReplicationFactor); brokers are numbered 0..2"}
		}
		if !reflect.DeepEqual(b.st.InSync, []int32{0, 1, 2}) || !reflect.DeepEqual(b.st.Brokers, []int32{0, 1, 2, -1}) || !reflect.DeepEqual(b.assume, want) {
			t.Errorf("factor given %v: in sync %v, brokers %v, assumptions %q", given, b.st.InSync, b.st.Brokers, b.assume)
		}
	}
}

// TestTopologyFromTopicsFile: the leader first, then the other in-sync
// replicas in the tool's order; replicas out of the ISR are left out and
// named; broker 0 leads like any; no leader, or more than 63 in-sync replicas (with the new one, more brokers than a scenario holds), is
// refused at the partition's line.
func TestTopologyFromTopicsFile(t *testing.T) {
	topo := func(leader int32, replicas, isr []int32) (*builder, error) {
		b := &builder{in: &Input{Env: DefaultEnv(), Topics: &TopicsFile{Name: "topics.txt"}},
			f: &Facts{HasTopicInfo: true, TP: TopicPartition{"t", 0}, Leader: leader, Replicas: replicas, ISR: isr, TopicsFrom: "topics.txt:4"}}
		return b, b.topology()
	}
	b, err := topo(0, []int32{3, 0, 5, 1}, []int32{1, 0, 3})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.st.InSync, []int32{0, 3, 1}) || !reflect.DeepEqual(b.st.Brokers, []int32{0, 3, 1, -1}) || b.st.Leader != 0 ||
		!reflect.DeepEqual(b.notes, []string{"replica(s) 5 are not in the ISR (topics.txt:4): the scenario leaves them out (it cannot start a replica part-way behind)"}) {
		t.Errorf("in sync %v, brokers %v, leader %d, notes %q", b.st.InSync, b.st.Brokers, b.st.Leader, b.notes)
	}
	if b, err := topo(1, []int32{1, 2}, []int32{2, 1}); err != nil || len(b.notes) != 0 {
		t.Errorf("every replica in sync: %v, notes %q; want none", err, b.notes)
	}
	if _, err := topo(-1, []int32{1}, nil); err == nil || err.Error() != "topics.txt:4: partition t-0 has no leader (Leader: none): a new replica has nothing to fetch from" {
		t.Errorf("no leader: %v", err)
	}
	for _, n := range []int{63, 64} {
		var rs []int32
		for i := range n {
			rs = append(rs, int32(i))
		}
		_, err := topo(0, rs, rs)
		if refused := err != nil && strings.Contains(err.Error(), strconv.Itoa(n)+" in-sync replicas: the simulator runs at most 63 and the new one"); refused != (n > 63) || n <= 63 && err != nil {
			t.Errorf("%d in sync: %v", n, err)
		}
	}
}

// TestPiecesAtTheLimit: a range needing exactly limit segments is cut in
// steps of size (the last shorter), not merged; one more segment than the
// limit makes limit equal pieces, merged.
func TestPiecesAtTheLimit(t *testing.T) {
	out, merged := pieces(0, 25, 10, true, 3) // 3 segments: 10, 10, 5
	if merged || len(out) != 3 || out[2] != (scenarios.SegmentSpec{BaseOffset: 20, EndOffset: 24}) {
		t.Errorf("3 segments under a limit of 3: %+v, merged %v", out, merged)
	}
	if out, _ := pieces(0, 30, 10, true, 3); len(out) != 3 || out[2] != (scenarios.SegmentSpec{BaseOffset: 20, EndOffset: 29}) {
		t.Errorf("3 whole segments: %+v", out)
	}
	out, merged = pieces(0, 31, 10, true, 3) // 4 segments: merged into 3 of 11, 10, 10
	if !merged || len(out) != 3 || out[0] != (scenarios.SegmentSpec{BaseOffset: 0, EndOffset: 10}) || out[2] != (scenarios.SegmentSpec{BaseOffset: 21, EndOffset: 30}) {
		t.Errorf("4 segments under a limit of 3: %+v, merged %v", out, merged)
	}
}

// TestSegmentsSplitAtTheHighestUploadedOffset: the remote-only part of the
// log is cut at HRO+1, where a real log has a segment boundary, each side
// in equal pieces; the local segments start at the local log start, those
// below the remote end shared with remote storage, the rest cut in steps.
func TestSegmentsSplitAtTheHighestUploadedOffset(t *testing.T) {
	b := &builder{segRecords: 10, st: State{LogStartOffset: 0, LocalLogStartOffset: 50, HighWatermark: 100, HighestRemoteOffset: 24, RemoteEndOffset: 79}}
	in, err := b.segments()
	if err != nil {
		t.Fatal(err)
	}
	seg := func(pairs ...int64) []scenarios.SegmentSpec {
		var out []scenarios.SegmentSpec
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, scenarios.SegmentSpec{BaseOffset: pairs[i], EndOffset: pairs[i+1]})
		}
		return out
	}
	wantRemote := seg(0, 8, 9, 16, 17, 24, 25, 33, 34, 41, 42, 49, 50, 59, 60, 69, 70, 79)
	wantLocal := seg(50, 59, 60, 69, 70, 79, 80, 89, 90, 99)
	if !reflect.DeepEqual(in.RemoteSegments, wantRemote) || !reflect.DeepEqual(in.LocalSegments, wantLocal) {
		t.Errorf("remote %v\nlocal %v\nwant remote %v\nlocal %v", in.RemoteSegments, in.LocalSegments, wantRemote, wantLocal)
	}
}
