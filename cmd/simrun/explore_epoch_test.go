package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestExploreAtTheMaximumLeaderEpoch: a valid scenario at the documented
// maximum initial.leader_epoch explored with elections, crashes and
// restarts (each may elect) ends normally: no panic ("leader epoch would
// wrap"), the elections past the maximum refused as the model refuses
// other impossible inputs.
func TestExploreAtTheMaximumLeaderEpoch(t *testing.T) {
	// One broker and no events: the documented maximum leaves room for one
	// election (the heal's restart); crash and restart twice ask for two.
	sc := fmt.Sprintf(`{"name": "max-epoch", "brokers": 1, "replicas": [0], "duration_ms": 300, "heal_ms": 2000,
  "initial": {"leader_epoch": %d, "high_watermark": 10, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 0}]}}`,
		math.MaxInt32-1)
	path := writeTemp(t, "max-epoch.json", sc)
	code, stdout, stderr := simrun(t, "explore", "--scenario", path, "--depth", "5", "--faults", "elect,crash,restart",
		"--out", filepath.Join(t.TempDir(), "cx.json"))
	if code != exitOK || strings.Contains(stderr, "panic") || !strings.Contains(stdout, "exhausted") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}
