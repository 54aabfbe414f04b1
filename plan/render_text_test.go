package plan

import (
	"errors"
	"strings"
	"testing"
)

// renderFixture is a plan as WriteText meets it: fixes, a known leader,
// the earliest pending upload and copying disabled, runs the work budget
// cut short, a saved scenario; two profiles that agree (their hazards
// printed once, the replay for the others named) with summaries that
// differ, a third that agrees with them (its summary the first's, its
// fastest seed the fastest), and a fourth alone, its flag-off replica never
// joining and its flag-on one extrapolated in some seeds and not in one;
// text long enough to wrap.
func renderFixture() *Result {
	epuo := int64(70656)
	later := Hazard{ID: HazardDisableTieringLater, Severity: "later", Explanation: "keep leadership off flag-on replicas until they hold the leader's local log", Command: "simrun run --scenario finding-tiered-follower-after-disable"}
	stall := Hazard{ID: HazardHROUnknown, Severity: "stall", Explanation: strings.Repeat("the leader does not know its highest uploaded offset ", 3), Command: "simrun run --scenario leader-hro-unknown --profile kafka-4.3",
		Seen: "flag on: 5 of 5 seeds joined, median 6.0 s", Replay: "simrun run --scenario plan.json --profile kafka-4.3 --seed 2"}
	stallTrunk := stall
	stallTrunk.Replay = "simrun run --scenario plan.json --profile kafka-trunk --seed 2"
	k43 := answerOf("kafka-4.3", "on", 300_000, 6_000, 6_800, stall, later)
	trunk := answerOf("kafka-trunk", "on", 300_000, 6_000, 7_100, stallTrunk, later)
	k42 := answerOf("kafka-4.2", "on", 300_000, 6_000, 6_800, stall, later)
	k42.Strategies = append([]StrategyPlan(nil), k42.Strategies...)
	k42.Strategies[1].CatchUpMs = &Distribution{N: 5, Min: 5_000, Median: 6_000, Max: 6_800}
	k42.Hazards = []Hazard{stall, later}
	k42.Hazards[0].Replay = "simrun run --scenario plan.json --profile kafka-4.2 --seed 2"
	kip := answerOf("kip", "off", 300_000, 6_000, 6_800, Hazard{ID: HazardEPUOBelowLogStart, Severity: "slower", Explanation: "falls back",
		Command: "simrun run --scenario tiering-toggle-epuo-below-lso --profile kip", Replay: "simrun run --scenario plan.json --profile kip --seed 1"})
	kip.Strategies = append([]StrategyPlan(nil), kip.Strategies...)
	on := &kip.Strategies[1]
	on.Joined, on.Extrapolated, on.Paths = 4, 1, map[string]int{"earliest-pending-upload": 4, "not-joined": 1}
	on.PriceRemoteBytes = &Distribution{Median: 70 << 20}
	off := &kip.Strategies[0]
	off.Joined, off.CatchUpMs, off.BytesFromLeader, off.Paths = 0, nil, nil, map[string]int{"not-joined": 5}
	kip.Summary = "With the flag it joins."
	for _, pp := range []*ProfilePlan{&k43, &trunk, &k42, &kip} {
		pp.Strategies[0].SimulatedMs, pp.Strategies[1].SimulatedMs = 200_000, 150_000
	}
	trunk.Summary = "The flag-on replica joins the ISR 50.1x faster."
	return &Result{Topic: "orders", Partition: 2, Fixes: []string{"stale-hro", "idle-fully-tiered-stall"},
		State: State{LogStartOffset: 0, LocalLogStartOffset: 20480, HighWatermark: 71680, HighestRemoteOffset: 70655, EarliestPendingUploadOffset: &epuo,
			RecordBytes: 1024, SegmentBytes: 1 << 20, LogBytes: 70 << 20, LocalBytes: 50 << 20, RemoteOnlyBytes: 20 << 20, PendingUploadBytes: 1 << 20,
			RemoteStorageEnable: true, RemoteLogCopyDisable: true, Leader: 3, InSync: []int32{3, 1, 2}},
		Scenario: ScenarioInfo{Name: "plan-orders-2", SavedTo: "plan.json", Brokers: 4, NewBroker: 3, DurationMs: 300_000, SeedFrom: 1, SeedTo: 5, Runs: 30, Steps: 123456},
		Profiles: []ProfilePlan{k43, trunk, k42, kip}, Recommendation: strings.Repeat("Recommendation: turn the flag on for this topic. ", 3),
		Assumptions: []string{strings.Repeat("an assumption long enough to wrap onto a second line ", 2), "short"}, Notes: []string{"a note"},
		names: func(f string) string { return "--" + strings.ToLower(f) }}
}

// TestWriteTextWordForWord: the plan for people, line for line: the
// header, each group of agreeing profiles (table, summaries, hazards), the
// recommendation, assumptions and notes wrapped; and a plan with tiering off,
// the leader unknown and nothing saved.
func TestWriteTextWordForWord(t *testing.T) {
	var b strings.Builder
	if err := renderFixture().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != wantText {
		t.Errorf("got\n%s\nwant\n%s", got, wantText)
	}
	r := &Result{Topic: "t", Partition: 0, State: State{HighWatermark: 10, RecordBytes: 100, SegmentBytes: 1000, LogBytes: 1000, Leader: 0, HighestRemoteOffset: -1, InSync: []int32{0, 2}},
		Scenario: ScenarioInfo{Name: "s", NewBroker: 1, DurationMs: 1000, SeedFrom: 1, SeedTo: 1, Runs: 2, Steps: 9},
		Profiles: []ProfilePlan{answerOf("kip", "no-difference", 1000, 1000, 1000)}, Recommendation: "r"}
	r.Profiles[0].Strategies[0].SimulatedMs, r.Profiles[0].Strategies[1].SimulatedMs = 1000, 1000
	b.Reset()
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != wantTieringOff {
		t.Errorf("got\n%s\nwant\n%s", got, wantTieringOff)
	}
	r.State.Leader = -1
	b.Reset()
	r.writeHeader(&b)
	if !strings.Contains(b.String(), "\n  leader broker unknown, in sync 0,2;") {
		t.Errorf("leader -1:\n%s", b.String())
	}
}

// TestWrapFillsToTheWidth: a line takes words up to exactly the width; a
// word longer than the width has a line of its own, with no empty line
// before it; a "- " item's continuation lines are indented two more.
func TestWrapFillsToTheWidth(t *testing.T) {
	for _, c := range []struct {
		text  string
		width int
		want  string
	}{
		{"aaa bbb", 9, "  aaa bbb"},
		{"aaa bbb", 8, "  aaa\n  bbb"},
		{"abcdefghijkl x", 5, "  abcdefghijkl\n  x"},
		{"- aaa bbb ccc", 9, "  - aaa\n    bbb\n    ccc"},
		{"- aaa bbb", 11, "  - aaa bbb"},
	} {
		if got := wrap(c.text, "  ", c.width); got != c.want {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
	}
}

// failAfter fails every write from the nth on.
type failAfter struct {
	n, writes int
}

func (f *failAfter) Write(p []byte) (int, error) {
	f.writes++
	if f.writes >= f.n {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestWriteTextReportsTheFirstWriteError: a write that fails part-way
// through the plan is the error WriteText returns.
func TestWriteTextReportsTheFirstWriteError(t *testing.T) {
	for _, n := range []int{1, 5} {
		if err := renderFixture().WriteText(&failAfter{n: n}); err == nil || err.Error() != "disk full" {
			t.Errorf("writes failing from the %dth: %v, want disk full", n, err)
		}
	}
	if err := renderFixture().WriteText(&failAfter{n: 1 << 30}); err != nil {
		t.Errorf("no failing write: %v", err)
	}
}

const wantText = `plan for orders-2
  every run with fixes of Kafka's code not in any release (--fix): stale-hro, idle-fully-tiered-stall
  leader broker 3, in sync 3,1,2; the new replica is b3 of the scenario
  log [0, 71680): 70.00 MiB, 1024-byte records, segments of 1.00 MiB
  local from 20480 (50.00 MiB), only in remote storage 20.00 MiB, not yet uploaded 1.00 MiB
  highest uploaded offset 70655, earliest pending upload 70656, copying disabled
  scenario plan-orders-2: 300.0 s (runs simulate 150.0 s flag on, 200.0 s flag off: the work budget), seeds 1..5, 30 runs, 123456 events
  saved to plan.json (simrun run --scenario plan.json --profile PROFILE --seed N replays a run)

kafka-4.3, kafka-trunk, kafka-4.2: turn the flag on (verdict: on)
                      joins the ISR (median)  min..max (3 profiles)  copied from leader  price: remote read from log start  path
  flag off (KIP-405)  300.0 s                 299.9 s..300.2 s       1.00 GiB            -                                  earliest-pending-upload
  flag on (KIP-1023)  6.0 s                   5.0 s..7.1 s           1.00 MiB            -                                  earliest-pending-upload
  kafka-4.3, kafka-4.2: The flag-on replica joins the ISR faster.
  kafka-trunk: The flag-on replica joins the ISR 50.1x faster.
  hazard hro-unknown (stall):
      the leader does not know its highest uploaded offset the leader does not know its highest
      uploaded offset the leader does not know its highest uploaded offset
      seen: flag on: 5 of 5 seeds joined, median 6.0 s
      shown by: simrun run --scenario leader-hro-unknown --profile kafka-4.3
      replay: simrun run --scenario plan.json --profile kafka-4.3 --seed 2
      (the same with --profile kafka-trunk or kafka-4.2)
  hazard disable-tiering-later (later):
      keep leadership off flag-on replicas until they hold the leader's local log
      shown by: simrun run --scenario finding-tiered-follower-after-disable

kip: leave the flag off (verdict: off)
                      joins the ISR (median)                min..max      copied from leader  price: remote read from log start  path
  flag off (KIP-405)  never (0 of 5)                        -             -                   -                                  not-joined
  flag on (KIP-1023)  6.0 s (extrapolated) (4 of 5 joined)  5.9 s..6.8 s  1.00 MiB            70.00 MiB                          earliest-pending-upload x4, not-joined x1
  With the flag it joins.
  hazard epuo-below-log-start (slower):
      falls back
      shown by: simrun run --scenario tiering-toggle-epuo-below-lso --profile kip
      replay: simrun run --scenario plan.json --profile kip --seed 1

recommendation:
  Recommendation: turn the flag on for this topic. Recommendation: turn the flag on for this
  topic. Recommendation: turn the flag on for this topic.

assumptions:
  - an assumption long enough to wrap onto a second line an assumption long enough to wrap onto
    a second line
  - short

notes:
  - a note
`

const wantTieringOff = `plan for t-0
  leader broker 0, in sync 0,2; the new replica is b1 of the scenario
  log [0, 10): 1000 B, 100-byte records, segments of 1000 B
  tiering off: all of it on the leader's disk
  scenario s: 1.0 s, seeds 1..1, 2 runs, 9 events

kip: the flag makes no difference (verdict: no-difference)
                      joins the ISR (median)  min..max       copied from leader  price: remote read from log start  path
  flag off (KIP-405)  1.0 s                   900 ms..1.2 s  1.00 GiB            -                                  earliest-pending-upload
  flag on (KIP-1023)  1.0 s                   900 ms..1.0 s  1.00 MiB            -                                  earliest-pending-upload
  The flag-on replica joins the ISR faster.
  hazards: none

recommendation:
  r
`
