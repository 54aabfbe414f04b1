package plan

import (
	"strings"
	"testing"

	"tierfetch/harness"
)

// TestNeverCatchesUpIsAVerdict: when the new replica cannot catch up
// (produce above what it can copy, a tiny replica.fetch.max.bytes, little
// replication bandwidth) the plan does not panic (it did: no follower in a
// run refused before its first step); under every profile the verdict is
// never-catches-up, no seed joins either way, and the hazard is named.
func TestNeverCatchesUpIsAVerdict(t *testing.T) {
	for _, c := range []struct {
		name    string
		configs func(string) string
		env     func(*Env)
	}{
		{"produce above replication", nil, func(e *Env) { e.ProduceBytesPerSec, e.Given[FieldProduce] = 150<<20, true }},
		{"small replica.fetch.max.bytes", func(s string) string {
			return strings.Replace(s, "replica.fetch.max.bytes=1048576 ", "replica.fetch.max.bytes=1 ", 1)
		}, nil},
		{"low replication bandwidth", nil, func(e *Env) { e.ReplicationBytesPerSec, e.Given[FieldReplication] = 1024, true }},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := clusterFiles(t)
			if c.configs != nil {
				fs.configs = c.configs(fs.configs)
			}
			in := fs.input(t, 2)
			in.SeedTo, in.StepBudget = 1, 300_000
			if c.env != nil {
				c.env(&in.Env)
			}
			r, _ := mustPlan(t, in)
			if len(r.Profiles) != len(AllProfiles()) {
				t.Fatalf("%d profiles", len(r.Profiles))
			}
			for _, pp := range r.Profiles {
				if pp.Verdict != "never-catches-up" || !strings.Contains(pp.Summary, "never catches up") {
					t.Errorf("%s: verdict %s (%s), want never-catches-up", pp.Profile, pp.Verdict, pp.Summary)
				}
				for _, sp := range pp.Strategies {
					if sp.Joined != 0 || sp.Paths["not-joined"] != sp.Seeds {
						t.Errorf("%s %s: %d of %d joined", pp.Profile, sp.Strategy, sp.Joined, sp.Seeds)
					}
				}
				if !strings.Contains(strings.Join(hazardIDs(&pp), " "), HazardCannotCatchUp) {
					t.Errorf("%s: hazards %v, want %s", pp.Profile, hazardIDs(&pp), HazardCannotCatchUp)
				}
			}
		})
	}
}

// TestWorkBudgetIsEnforced: the plan's runs together never take more than
// its work budget, even when its estimate of a run's cost is far off
// (1 ms fetch waits, task and retention intervals: 130 million events and
// 123 s against a budget of 12 million before): each run stops at its share,
// the plan says so, and a flag-off replica still copying is extrapolated.
func TestWorkBudgetIsEnforced(t *testing.T) {
	fs := clusterFiles(t)
	for _, kv := range [][2]string{{"replica.fetch.wait.max.ms=500 ", "replica.fetch.wait.max.ms=1 "},
		{"remote.log.manager.task.interval.ms=30000 ", "remote.log.manager.task.interval.ms=1 "},
		{"log.retention.check.interval.ms=300000 ", "log.retention.check.interval.ms=1 "}} {
		if !strings.Contains(fs.configs, kv[0]) {
			t.Fatalf("configs.txt has no %q", kv[0])
		}
		fs.configs = strings.Replace(fs.configs, kv[0], kv[1], 1)
	}
	in := fs.input(t, 2)
	const budget = 400_000
	in.SeedTo, in.StepBudget = 2, budget
	r, _ := mustPlan(t, in)
	var steps int64
	for _, pp := range r.Profiles {
		for _, sp := range pp.Strategies {
			for _, o := range sp.Runs {
				steps += o.Steps
				if o.Outcome != harness.OutcomeOK || o.SimulatedMs < sp.SimulatedMs || o.SimulatedMs >= r.Scenario.DurationMs {
					t.Errorf("%s %s seed %d: %s, simulated %d ms (strategy %d ms of %d)", pp.Profile, sp.Strategy, o.Seed, o.Outcome, o.SimulatedMs, sp.SimulatedMs, r.Scenario.DurationMs)
				}
			}
		}
		if off := pp.Strategies[0]; off.Extrapolated != off.Seeds || off.SimulatedMs >= r.Scenario.DurationMs {
			t.Errorf("%s flag off: %d of %d extrapolated, simulated %d of %d ms", pp.Profile, off.Extrapolated, off.Seeds, off.SimulatedMs, r.Scenario.DurationMs)
		}
	}
	if steps > budget || steps != r.Scenario.Steps {
		t.Errorf("the runs took %d steps (the plan says %d), budget %d", steps, r.Scenario.Steps, budget)
	}
	if !anyContains(r.Notes, "the work budget (400000 simulated events over all runs) stopped") {
		t.Errorf("notes %q: want the runs the budget stopped named", r.Notes)
	}
}

// TestToolOutputMessages: a UTF-8 byte order mark before a tool's output
// (a file saved by a Windows editor) is skipped; an error about the record
// size names where it came from (it blamed --record-bytes, which the user
// never gave, when it came from --log-dirs).
func TestToolOutputMessages(t *testing.T) {
	fs := clusterFiles(t)
	for tm, text := range fs.offsets {
		fs.offsets[tm] = "\ufeff" + text
	}
	fs.configs, fs.logDirs, fs.topics = "\ufeff"+fs.configs, "\ufeff"+fs.logDirs, "\ufeff"+fs.topics
	in := fs.input(t, 2)
	if in.Configs == nil || in.LogDirs == nil || in.Topics == nil || len(in.Offsets) != len(Times) {
		t.Fatalf("files with a byte order mark not read: %+v", in)
	}
	fs = clusterFiles(t)
	huge := strings.Replace(fs.logDirs, `"orders-2","offsetLag":0,"size":21308801024`, `"orders-2","offsetLag":0,"size":9000000000000000000`, 1)
	if huge == fs.logDirs {
		t.Fatal("log-dirs.txt has no orders-2 size to change")
	}
	fs.logDirs = huge
	_, _, _, err := Make(fs.input(t, 2))
	if err == nil || strings.Contains(err.Error(), "RecordBytes") || !strings.Contains(err.Error(), "LogDirs (log-dirs.txt: broker 1's local size, 9000000000000000000 bytes") {
		t.Errorf("%v: want the record size blamed on LogDirs", err)
	}
}
