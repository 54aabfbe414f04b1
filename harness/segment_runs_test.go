package harness_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// segmentRunsFile is a scenario file whose fixture lists its segments
// explicitly (count 1 each) or, with runs, as runs of uniform segments
// ("count"): remote [0, 600) in 6 segments of 100 (the last
// copy-started), local [500, 800) in 3 and an empty active one.
func segmentRunsFile(runs bool) string {
	var remote, local []string
	if runs {
		remote = []string{`{"base_offset": 0, "end_offset": 99, "epoch": 0, "count": 2}`,
			`{"base_offset": 200, "end_offset": 299, "epoch": 1, "count": 2}`,
			`{"base_offset": 400, "end_offset": 499, "epoch": 1}`,
			`{"base_offset": 500, "end_offset": 599, "epoch": 1, "count": 1, "state": "copy-started"}`}
		local = []string{`{"base_offset": 500, "end_offset": 599, "epoch": 1, "count": 3}`}
	} else {
		for i := 0; i < 6; i++ {
			epoch, state := min(i/2, 1), ""
			if i == 5 {
				state = `, "state": "copy-started"`
			}
			remote = append(remote, fmt.Sprintf(`{"base_offset": %d, "end_offset": %d, "epoch": %d%s}`, i*100, i*100+99, epoch, state))
		}
		for i := 5; i < 8; i++ {
			local = append(local, fmt.Sprintf(`{"base_offset": %d, "end_offset": %d, "epoch": 1}`, i*100, i*100+99))
		}
	}
	local = append(local, `{"base_offset": 800, "end_offset": 799, "epoch": 1}`)
	return `{"brokers": 3, "replicas": [0, 1], "duration_ms": 120000,
  "config": {"remote_storage_enable": true, "segment_bytes": 102400, "record_bytes": 1024, "local_retention_bytes": 204800},
  "initial": {"leader_epoch": 1, "highest_remote_offset": 499,
    "remote_segments": [` + strings.Join(remote, ", ") + `],
    "local_segments": [` + strings.Join(local, ", ") + `]},
  "events": [{"at_ms": 0, "type": "add_replica", "broker": 2}, {"at_ms": 1000, "type": "produce", "records": 500, "over_ms": 60000}]}`
}

// TestSegmentRunsAreTheExplicitList: a fixture given as runs parses to the
// same scenario as its explicit list and runs to the same digest under
// each protocol.
func TestSegmentRunsAreTheExplicitList(t *testing.T) {
	explicit, err := scenarios.Parse([]byte(segmentRunsFile(false)))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := scenarios.Parse([]byte(segmentRunsFile(true)))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(explicit, runs); d != "" {
		t.Fatalf("runs parse differently from the explicit list (-explicit +runs):\n%s", d)
	}
	for _, st := range harness.Strategies {
		a := harness.Execute(explicit, harness.Options{Seed: 1, Strategy: st})
		b := harness.Execute(runs, harness.Options{Seed: 1, Strategy: st})
		if a.Digest != b.Digest || a.Steps != b.Steps {
			t.Errorf("%s: explicit list %s (%d steps), runs %s (%d steps)", st, a.Digest, a.Steps, b.Digest, b.Steps)
		}
		if a.Steps < 100 {
			t.Errorf("%s: only %d steps: the run does too little to compare", st, a.Steps)
		}
	}
	// The big fixture of the benchmarks: a million segments in a small file.
	data := fmt.Sprintf(`{"brokers": 2, "duration_ms": 1000, "config": {"remote_storage_enable": true},
  "initial": {"highest_remote_offset": %d, "remote_segments": [{"base_offset": 0, "end_offset": 1048575, "count": 1000000}],
    "local_segments": [{"base_offset": %d, "end_offset": %d}]}}`, int64(1_000_000)<<20-1, int64(1_000_000)<<20, int64(1_000_000)<<20-1)
	if len(data) > 400 {
		t.Fatalf("the file is %d bytes", len(data))
	}
	sc, err := scenarios.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sc.Initial.RemoteSegments); n != 1_000_000 {
		t.Fatalf("%d remote segments, want 1000000", n)
	}
	if last := sc.Initial.RemoteSegments[999_999]; last.BaseOffset != 999_999<<20 || last.EndOffset != 1_000_000<<20-1 || last.Count != 0 {
		t.Fatalf("last segment %+v", last)
	}
}
