package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// TestSegmentRunErrors: a bad count is refused with a message naming the
// field of the entry that holds it.
func TestSegmentRunErrors(t *testing.T) {
	file := func(remote, local string) string {
		return `{"brokers": 2, "duration_ms": 1000, "config": {"remote_storage_enable": true},
  "initial": {"remote_segments": [` + remote + `], "local_segments": [` + local + `]}}`
	}
	active := `{"base_offset": 400, "end_offset": 399}`
	for _, c := range []struct{ data, want string }{
		{file(`{"base_offset": 0, "end_offset": 99, "count": 0}`, active), "initial.remote_segments[0].count: must be in 1..2097152, got 0"},
		{file(`{"base_offset": 0, "end_offset": 99, "count": -3}`, active), "initial.remote_segments[0].count: must be in 1..2097152, got -3"},
		{file(`{"base_offset": 0, "end_offset": 99, "count": 4}`, `{"base_offset": 400, "end_offset": 399, "count": 2}`),
			"initial.local_segments[0].count: only a non-empty segment can repeat"},
		{file(`{"base_offset": 0, "end_offset": 99, "count": 4}`, `{"base_offset": 400, "end_offset": 499, "count": 1}, {"base_offset": 400, "end_offset": 399, "count": "x"}`),
			"initial.local_segments[1].count: expected"},
		{file(`{"base_offset": 0, "end_offset": 8796093022207, "count": 1048576}`, active), "initial.remote_segments[0].count: 1048576 segments of 8796093022208 offsets from 0 would end at"},
		{file(`{"base_offset": 0, "end_offset": 0, "count": 2097152}`, `{"base_offset": 2097152, "end_offset": 2097151}`),
			"initial.local_segments[0].count: the fixture would hold more than 2097152 segments"},
		{file(`{"base_offset": 0, "end_offset": 99, "count": 3}`, active), "initial: hole between remote and local"},
	} {
		_, err := Parse([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// A validated scenario lists every segment: a code-built one with a run
	// is refused, not misread.
	s, err := Parse([]byte(file(`{"base_offset": 0, "end_offset": 99, "count": 4}`, active)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Initial.RemoteSegments) != 4 || s.Initial.RemoteSegments[3].BaseOffset != 300 {
		t.Fatalf("expanded to %+v", s.Initial.RemoteSegments)
	}
	s.Initial.RemoteSegments[1].Count = 2
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "initial.remote_segments[1].count") {
		t.Fatalf("code-built run: %v", err)
	}
}

// TestSegmentCopiesAreBounded: every initial replica holds its own copy of
// the local segments, so they count once per replica toward
// MaxFixtureSegments (64 replicas of 2^21 local segments took 11 GiB); the
// largest fixture that fits is accepted.
func TestSegmentCopiesAreBounded(t *testing.T) {
	file := func(replicas, local int) string {
		ids := "0"
		for i := 1; i < replicas; i++ {
			ids += fmt.Sprintf(", %d", i)
		}
		return fmt.Sprintf(`{"brokers": 64, "replicas": [%s], "duration_ms": 1000, "config": {"remote_storage_enable": true},
  "initial": {"remote_segments": [{"base_offset": 0, "end_offset": 0, "count": 1024}],
    "local_segments": [{"base_offset": 1024, "end_offset": 1024, "count": %d}, {"base_offset": %d, "end_offset": %d}]}}`,
			ids, local-1, 1024+local-1, 1024+local-2)
	}
	fits := (MaxFixtureSegments - 1024) / 64 // local segments, the active one included
	if _, err := Parse([]byte(file(64, fits))); err != nil {
		t.Fatalf("%d local segments on 64 replicas: %v", fits, err)
	}
	_, err := Parse([]byte(file(64, fits+1)))
	want := fmt.Sprintf("initial.local_segments: %d local segments on each of the 64 replicas and 1024 remote ones make %d segments in memory, more than %d",
		fits+1, (fits+1)*64+1024, MaxFixtureSegments)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	if _, err := Parse([]byte(file(1, fits+1))); err != nil {
		t.Fatalf("one replica: %v", err)
	}
}
