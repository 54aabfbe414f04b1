package main

import (
	"os"
	"runtime/debug"
	"testing"

	"tierfetch/cliutil"
	"tierfetch/plan"
)

// TestBrokerScaleRaisesMemoryLimit: running a broker-scale scenario raises
// the memory limit by partitionHeap a partition (run: one run at a time),
// up to three quarters of the machine's memory; a one-partition one leaves
// it; compare counts the most partitions of its scenarios, and plan those
// of the topics file.
func TestBrokerScaleRaisesMemoryLimit(t *testing.T) {
	m := cliutil.Memory(os.ReadFile)
	if m <= 0 {
		t.Skip("this machine's memory is unknown")
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	if env, had := os.LookupEnv("GOMEMLIMIT"); had {
		os.Unsetenv("GOMEMLIMIT")
		defer os.Setenv("GOMEMLIMIT", env)
	}
	want := func(partitions, inFlight int64) int64 {
		return min(memoryLimit+partitions*inFlight*partitionHeap, m/4*3)
	}

	debug.SetMemoryLimit(memoryLimit)
	if code, _, stderr := simrun(t, "run", "--scenario", "leader-knows-hro", "--profile", "kip"); code != exitOK {
		t.Fatalf("run leader-knows-hro: exit %d: %s", code, stderr)
	}
	if got := debug.SetMemoryLimit(-1); got != memoryLimit {
		t.Errorf("a one-partition run: limit %d, want %d", got, memoryLimit)
	}
	if code, _, stderr := simrun(t, "run", "--scenario", "finding-fetcher-threads-idle", "--profile", "kip"); code == exitBadInput {
		t.Fatalf("run finding-fetcher-threads-idle: exit %d: %s", code, stderr)
	}
	if got := debug.SetMemoryLimit(-1); got != want(60, 1) {
		t.Errorf("a 60-partition run: limit %d, want %d", got, want(60, 1))
	}

	s, err := parseCompare([]string{"--scenario", "finding-fetcher-threads-idle", "--vary", "num_replica_fetchers=1,2", "--workers", "3"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if s.Partitions() != 60 || s.Workers() != 3 {
		t.Errorf("compare: %d partitions, %d workers; want 60, 3", s.Partitions(), s.Workers())
	}
	if d, err := os.ReadFile("../../plan/testdata/broker/topics.txt"); err != nil {
		t.Fatal(err)
	} else if f, err := plan.ParseTopics("topics.txt", d); err != nil {
		t.Fatal(err)
	} else if n := f.PartitionCount(); n < 300 {
		t.Errorf("plan: the topics file counts %d partitions, fewer than broker 2's 300", n)
	}
}
