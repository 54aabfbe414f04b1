package harness

import (
	"fmt"
	"testing"
	"tierfetch/scenarios"

	"tierfetch/model"
)

// stateExpect is what one strategy does with an accepted state under one
// profile: its outcome and known kind, or the path it took, where it started
// and how long it took to join the ISR.
type stateExpect struct {
	outcome, kind string
	path          string
	start         int64
	joinMs        [2]int64 // [min, max]
}

func joined(path string, start, lo, hi int64) stateExpect {
	return stateExpect{outcome: OutcomeOK, path: path, start: start, joinMs: [2]int64{lo, hi}}
}

func stalled(kind string) stateExpect { return stateExpect{outcome: OutcomeLiveness, kind: kind} }

// acceptedState is a state real brokers reach that the loader accepts, with
// what each strategy does with it under each profile.
type acceptedState struct {
	name    string
	why     string // which Kafka state it restates, and what happens
	initial string // the "config" and "initial" members
	// want[profile][0] is local-log-start, [1] last-tiered.
	want map[string][2]stateExpect
}

const (
	pathLLS  = "local-log-start"
	pathEPUO = "earliest-pending-upload"
	pathLSO  = "truncate-to-log-start"
)

var acceptedStates = []acceptedState{
	{
		name: "stale upload offset, empty log",
		why: "AbstractFetcherThreadTest.testLastTieredOffsetWithEmptyLeaderLogStaleUploadOffset: LSO = LLSO = LEO = 10, " +
			"HRO 4 (EPUO 5) ends no listed segment. KIP: EPUO 5 < LSO falls back to the log start. Kafka: " +
			"EPUO = max(5, 10) = LEO is answered -1, -4 = LSO, and the build for 10 needs a segment holding 9: never.",
		initial: `"config": {"remote_storage_enable": true},
			"initial": {"log_start_offset": 10, "high_watermark": 10, "highest_remote_offset": 4,
			"local_segments": [{"base_offset": 10, "end_offset": 9}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLSO, 10, 0, 500), joined(pathLSO, 10, 0, 500)},
			"kafka-4.3":   {joined(pathLSO, 10, 0, 500), stalled("kafka43-aux-state-stall")},
			"kafka-trunk": {joined(pathLSO, 10, 0, 500), stalled("kafka43-aux-state-stall")},
		},
	},
	{
		name: "stale upload offset, non-zero log start",
		why: "testLastTieredOffsetWithNonZeroLSOStaleUploadOffset: LSO = LLSO = 10, LEO 200, HRO 4. KIP: falls back to " +
			"10. Kafka: EPUO = max(5, 10) = 10 = LSO, and the build needs a segment holding 9: never.",
		initial: `"config": {"remote_storage_enable": true},
			"initial": {"log_start_offset": 10, "high_watermark": 199, "highest_remote_offset": 4,
			"local_segments": [{"base_offset": 10, "end_offset": 199}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLSO, 10, 0, 500), joined(pathLSO, 10, 0, 500)},
			"kafka-4.3":   {joined(pathLSO, 10, 0, 500), stalled("kafka43-aux-state-stall")},
			"kafka-trunk": {joined(pathLSO, 10, 0, 500), stalled("kafka43-aux-state-stall")},
		},
	},
	{
		name: "stale upload offset, remote segment above HRO+1",
		why: "testLastTieredOffsetWithPartialUploadAndStaleUploadOffset: LSO 10, LLSO 100, HRO 4, [10, 99] listed (it " +
			"starts above HRO+1); remote metadata ready at 5 s, the copy task's next run at 30 s. KIP: EPUO 5 < LSO falls " +
			"back and the follower builds up to LLSO 100. Kafka: EPUO 10 = LSO, no segment holds 9, until the copy " +
			"task's run at 30 s raises HRO to 99 from the metadata: then EPUO 100.",
		initial: `"config": {"remote_storage_enable": true, "remote_metadata_ready_ms": 5000},
			"initial": {"log_start_offset": 10, "high_watermark": 199, "highest_remote_offset": 4,
			"remote_segments": [{"base_offset": 10, "end_offset": 99}], "local_segments": [{"base_offset": 100, "end_offset": 199}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLLS, 100, 5000, 6000), joined(pathLLS, 100, 5000, 6000)},
			"kafka-4.3":   {joined(pathLLS, 100, 5000, 6000), joined(pathEPUO, 100, 30_000, 32_000)},
			"kafka-trunk": {joined(pathLLS, 100, 5000, 6000), joined(pathEPUO, 100, 30_000, 32_000)},
		},
	},
	{
		name: "remote segment wholly below the log start offset",
		why: "[0, 9] is still listed below LSO 10 (the expiration task deletes it on its run): nothing reads it; " +
			"both protocols build from [10, 99].",
		initial: `"config": {"remote_storage_enable": true},
			"initial": {"log_start_offset": 10, "high_watermark": 199, "highest_remote_offset": 99,
			"remote_segments": [{"base_offset": 0, "end_offset": 9}, {"base_offset": 10, "end_offset": 99}],
			"local_segments": [{"base_offset": 100, "end_offset": 199}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
			"kafka-4.3":   {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
			"kafka-trunk": {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
		},
	},
	{
		name: "a deletion left unfinished below the log start offset",
		why:  "[0, 9] is delete-started: listed, not readable; the leader's expiration task deletes it again.",
		initial: `"config": {"remote_storage_enable": true},
			"initial": {"log_start_offset": 10, "high_watermark": 199, "highest_remote_offset": 99,
			"remote_segments": [{"base_offset": 0, "end_offset": 9, "state": "delete-started"}, {"base_offset": 10, "end_offset": 99}],
			"local_segments": [{"base_offset": 100, "end_offset": 199}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
			"kafka-4.3":   {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
			"kafka-trunk": {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
		},
	},
	{
		name: "HRO lagging the listed segments",
		why: "HRO 99 while [100, 149] is listed too (HRO moves with the RLM tasks, not the metadata); metadata ready at " +
			"5 s, the copy task's next run at 30 s: the flag-on follower starts at EPUO 100, not 150.",
		initial: `"config": {"remote_storage_enable": true, "remote_metadata_ready_ms": 5000},
			"initial": {"high_watermark": 199, "highest_remote_offset": 99,
			"remote_segments": [{"base_offset": 0, "end_offset": 99}, {"base_offset": 100, "end_offset": 149}],
			"local_segments": [{"base_offset": 100, "end_offset": 149}, {"base_offset": 150, "end_offset": 199}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLLS, 100, 5000, 6000), joined(pathEPUO, 100, 5000, 6000)},
			"kafka-4.3":   {joined(pathLLS, 100, 5000, 6000), joined(pathEPUO, 100, 5000, 6000)},
			"kafka-trunk": {joined(pathLLS, 100, 5000, 6000), joined(pathEPUO, 100, 5000, 6000)},
		},
	},
	{
		name: "an unfinished copy above HRO",
		why:  "[100, 149] is copy-started (not readable, not counted by HRO): EPUO is 100, and the build for 99 uses [0, 99].",
		initial: `"config": {"remote_storage_enable": true},
			"initial": {"high_watermark": 199, "highest_remote_offset": 99,
			"remote_segments": [{"base_offset": 0, "end_offset": 99}, {"base_offset": 100, "end_offset": 149, "state": "copy-started"}],
			"local_segments": [{"base_offset": 100, "end_offset": 149}, {"base_offset": 150, "end_offset": 199}]}`,
		want: map[string][2]stateExpect{
			"kip":         {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
			"kafka-4.3":   {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
			"kafka-trunk": {joined(pathLLS, 100, 0, 500), joined(pathEPUO, 100, 0, 500)},
		},
	},
}

// TestAcceptedStates: each state real brokers reach loads, and each strategy
// does with it what Kafka's code (or the KIP text, under kip) says, under
// every profile.
func TestAcceptedStates(t *testing.T) {
	for _, st := range acceptedStates {
		data := fmt.Sprintf(`{"name": "state", "brokers": 2, %s,
			"events": [{"at_ms": 0, "type": "add_replica", "broker": 1}], "duration_ms": 60000}`, st.initial)
		sc, err := scenarios.Parse([]byte(data))
		if err != nil {
			t.Errorf("%s: rejected: %v", st.name, err)
			continue
		}
		for _, name := range model.ProfileNames() {
			res, _ := RunAll(sc, 1, Strategies, model.Profiles[name], nil)
			for i, r := range res.Runs {
				checkStateRun(t, fmt.Sprintf("%s: %s %s", st.name, name, r.Strategy), r, st.want[name][i])
			}
		}
	}
}

func checkStateRun(t *testing.T, what string, r RunJSON, want stateExpect) {
	t.Helper()
	if r.Outcome != want.outcome {
		t.Errorf("%s: outcome %s %+v, want %s", what, r.Outcome, r.Violation, want.outcome)
		return
	}
	if want.outcome != OutcomeOK {
		if r.Violation.Kind != want.kind {
			t.Errorf("%s: kind %q, want %q", what, r.Violation.Kind, want.kind)
		}
		return
	}
	f := r.Followers[0]
	if f.Bootstrap.Path != want.path || f.Bootstrap.StartOffset != want.start || f.CaughtUpMs == nil ||
		*f.CaughtUpMs < want.joinMs[0] || *f.CaughtUpMs > want.joinMs[1] {
		t.Errorf("%s: %s from %d, joined %v; want %s from %d within %v ms", what, f.Bootstrap.Path, f.Bootstrap.StartOffset,
			f.CaughtUpMs, want.path, want.start, want.joinMs)
	}
}

func TestWorseOutcome(t *testing.T) {
	order := []string{"", OutcomeOK, OutcomeBudget, OutcomeLiveness, OutcomeSafety}
	for i, a := range order {
		for j, b := range order {
			want := a
			if j > i && !(a == "" && b == OutcomeOK) {
				want = b
			}
			if got := WorseOutcome(a, b); got != want {
				t.Errorf("WorseOutcome(%q, %q) = %q, want %q", a, b, got, want)
			}
		}
	}
}
