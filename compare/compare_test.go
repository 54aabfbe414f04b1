package compare

import (
	"fmt"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

func newSetup(t *testing.T, f Config) *Setup {
	t.Helper()
	if f.Seeds == "" {
		f.Seeds = "1..2"
	}
	if f.Profiles == "" {
		f.Profiles = DefaultProfiles
	}
	f.Workers, f.Out, f.MaxSteps, f.MaxInput, f.Names = 1, "out", harness.DefaultMaxSteps, scenarios.DefaultMaxInputBytes, flagNames
	s, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestJobsCountTheSummarysUnit: the default comparison's jobs are its
// scenario-seed pairs under every profile, without fixes and with every
// fix, plus the default sweep's, and JobsText says so in the unit progress
// counts. With --fix every pair runs once, with those fixes.
func TestJobsCountTheSummarysUnit(t *testing.T) {
	s := newSetup(t, Config{})
	pairs, sweep, held := s.Jobs()
	per := len(DefaultSet()) * 2
	if pairs != per*3*2 || sweep != 6*2 || held != pairs+sweep {
		t.Fatalf("jobs %d+%d (held %d), want %d+12", pairs, sweep, held, per*3*2)
	}
	want := fmt.Sprintf("%d pairs = %d scenario-seed pairs x 3 profiles x 2 (without fixes, and with --fix all) + 12 of the default sweep",
		pairs+sweep, per)
	if got := s.JobsText(); got != want {
		t.Errorf("JobsText %q, want %q", got, want)
	}
	fixed := newSetup(t, Config{Fix: "stale-hro"})
	if pairs, _, _ := fixed.Jobs(); pairs != per*3 || !strings.Contains(fixed.command(), "--fix stale-hro") {
		t.Errorf("--fix stale-hro: %d pairs, command %q; want %d and the flag in the command", pairs, fixed.command(), per*3)
	}
	if _, err := New(Config{Fix: "nope", Seeds: "1..2", Profiles: DefaultProfiles, Workers: 1, Out: "out"}); err == nil ||
		!strings.Contains(err.Error(), "Fix: unknown fix") {
		t.Errorf("--fix nope: %v, want refused naming Fix", err)
	}
	shard := newSetup(t, Config{Shard: "1/3", JSONL: "x.jsonl"})
	if _, _, held := shard.Jobs(); held != (pairs+sweep+1)/3 {
		t.Errorf("shard 1/3 holds %d of %d jobs", held, pairs+sweep)
	}
}

// TestVary: --vary sets a config field or scales produce events, and bad
// keys and values are refused naming them.
func TestVary(t *testing.T) {
	key, values, err := parseVary("local_retention_bytes=1048576, 2097152")
	if err != nil || key != "local_retention_bytes" || len(values) != 2 {
		t.Fatalf("parseVary: %q %v %v", key, values, err)
	}
	for _, bad := range []string{"nope=1", "local_retention_bytes=", "produce_scale=0", "local_retention_bytes=1,1", "local_retention_bytes=x"} {
		if _, _, err := parseVary(bad); err == nil {
			t.Errorf("parseVary(%q) accepted", bad)
		}
	}
	sc, _ := scenarios.Lookup("leader-knows-hro")
	varied, err := applyVary(sc, "local_retention_bytes", "2097152")
	if err != nil || varied.Config.LocalRetentionBytes != 2097152 {
		t.Errorf("applyVary: %v, local retention %d", err, varied.Config.LocalRetentionBytes)
	}
}
