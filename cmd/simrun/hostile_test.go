package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// Tests of the hostile cases of issue 25: inputs and environments a
// careless or hostile user gives, each of which must end with its
// documented exit code, within its work budget, without a panic, a hang or
// a lost or overwritten file.

// epochScenario is a two-broker scenario at the documented maximum
// initial.leader_epoch (2^31-1 less one per event and per broker) whose
// explore schedule crashes and restarts the leader again and again: every
// restart of the lone replica elects it, so the schedule asks for more
// elections than the maximum leaves room for.
func epochScenario() string {
	epoch := math.MaxInt32 - 1 - 2
	return fmt.Sprintf(`{"name": "max-epoch", "brokers": 2, "replicas": [0], "duration_ms": 300, "heal_ms": 2000,
  "config": {"replica_fetch_wait_max_ms": 50, "replica_lag_time_max_ms": 1000},
  "initial": {"leader_epoch": %d, "high_watermark": 10, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": 0}]},
  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}],
  "explore": {"faults": [{"at_ms": 0, "type": "crash", "broker": 0}, {"at_ms": 0, "type": "restart", "broker": 0},
    {"at_ms": 0, "type": "elect_leader", "broker": 1}], "lost": false, "choices": [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 3, 3, 1, 2]}}`, epoch)
}

// TestMaxLeaderEpochSkipsElections: run of an explore schedule that asks
// for more elections than a scenario at the documented maximum leader
// epoch leaves room for does not panic ("leader epoch would wrap"): the
// elections past the maximum are skipped, each with the model's reason and
// the schedule's fault it came from, and the run goes on.
func TestMaxLeaderEpochSkipsElections(t *testing.T) {
	path := writeTemp(t, "max-epoch.json", epochScenario())
	code, stdout, stderr := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered", "--json")
	if code != exitOK {
		t.Fatalf("exit %d, want 0\nstderr: %s\n%s", code, stderr, stdout)
	}
	var res struct {
		Runs []struct {
			Leader  struct{ Broker int }
			Skipped []struct {
				Event  *int   `json:"event"`
				Fault  *int   `json:"fault"`
				Type   string `json:"type"`
				Reason string `json:"reason"`
			} `json:"skipped"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	maxed := 0
	for _, sk := range res.Runs[0].Skipped {
		if strings.Contains(sk.Reason, fmt.Sprintf("the leader epoch is at its maximum (%d)", math.MaxInt32)) {
			maxed++
			if sk.Event != nil || sk.Fault == nil || (sk.Type != "crash" && sk.Type != "elect_leader") {
				t.Errorf("skipped %+v: want an injected crash or elect_leader named by its explore.faults index", sk)
			}
		}
	}
	if maxed == 0 {
		t.Errorf("no election was skipped at the maximum epoch: %+v", res.Runs[0].Skipped)
	}
	_, text, _ := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered")
	if !strings.Contains(text, "(explore.faults[0]): b0 leads and the leader epoch is at its maximum") {
		t.Errorf("the summary does not name the skipped fault:\n%s", text)
	}
}

// TestPlanNeverCatchesUp: the README's plan example with produce above what
// a new replica can copy answers with the verdict never-catches-up, exit 0
// (it panicked: index out of range in the run loop).
func TestPlanNeverCatchesUp(t *testing.T) {
	code, stdout, stderr := simrun(t, append(clusterArgs(), "--produce-bytes-per-sec", "150MiB", "--seeds", "1..1", "--profile", "kip")...)
	if code != exitOK || stderr != "" || !strings.Contains(stdout, "profile kip (verdict: never-catches-up)") {
		t.Fatalf("exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
}
