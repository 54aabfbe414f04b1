package scenarios

import (
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
