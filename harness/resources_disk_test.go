package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// TestMessageWithoutRecordsSkipsTheDisk: a message carrying no records
// (a fetch request, an empty answer) neither waits for a busy disk nor
// moves its free time; the next records wait for the disk still.
func TestMessageWithoutRecordsSkipsTheDisk(t *testing.T) {
	s := limited(t, 2, -1, 1000, -1)
	if _, end := s.transfer(0, 0, 0, 0, 1, 1064, 1000); end != sim.Time(sim.Second) {
		t.Fatalf("1000 records bytes through a 1000 B/s disk: end %v, want 1s", end)
	}
	at := sim.Time(sim.Second / 10)
	if start, end := s.transfer(at, 0, 0, 1, 0, 64, 0); start != at || end != at {
		t.Errorf("a request without records while the disk is busy: %v..%v, want %v..%v", start, end, at, at)
	}
	if start, _ := s.transfer(2*at, 0, 0, 0, 1, 164, 100); start != sim.Time(sim.Second) {
		t.Errorf("records behind the busy disk start at %v, want 1s", start)
	}
}

// TestDiskLimitLeavesRecordlessRunsAlone: a run that replicates no records
// sends only messages without any: a disk limit, however slow, leaves it
// as it is; with records to replicate it slows the run.
func TestDiskLimitLeavesRecordlessRunsAlone(t *testing.T) {
	run := func(disk, records int64) *RunResult {
		sc := scenarios.Scenario{Brokers: 2, DurationMs: 2000, HealMs: 2000, Seed: 1, Config: scenarios.DefaultConfig(),
			Replicas: []int{0, 1}}
		sc.Config.BrokerDiskBytesPerSec = disk
		if records > 0 {
			sc.Events = []scenarios.Event{{AtMs: 0, Type: scenarios.EventProduce, Records: records, OverMs: 10}}
		}
		if err := CheckRunnable(&sc); err != nil {
			t.Fatal(err)
		}
		return Execute(&sc, Options{Seed: 1, Strategy: LastTiered, Profile: model.KIP})
	}
	if a, b := run(-1, 0), run(64, 0); a.Digest != b.Digest || a.Steps != b.Steps {
		t.Errorf("no records: %d steps (%s) without a disk limit, %d (%s) at 64 B/s", a.Steps, a.Digest, b.Steps, b.Digest)
	}
	if a, b := run(-1, 100), run(64, 100); a.Digest == b.Digest {
		t.Errorf("100 records at 64 B/s of disk: the run is the unlimited one's")
	}
}
