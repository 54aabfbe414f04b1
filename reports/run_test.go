package reports

import (
	"strings"
	"testing"

	"tierfetch/harness"
)

// TestSummary: the one-partition run report: per strategy the outcome, the
// simulated time and what made it, the violation, the leader (or that the
// partition is offline), each follower's path, catch-up (or never), bytes
// and retries by reason, the consumes, and the skipped events with where
// they came from.
func TestSummary(t *testing.T) {
	ev, fault := 2, 0
	res := harness.Result{Scenario: "s", Seed: 3, Profile: "kafka", Runs: []harness.RunJSON{{
		Strategy: "local-log-start", Outcome: "ok", Steps: 10, SimMs: 61500, Digest: "d1",
		Leader: &harness.LeaderJSON{Broker: 0, LogStartOffset: 1, LocalLogStartOffset: 2, HighWatermark: 3, LogEndOffset: 4, HighestRemoteOffset: 5},
		Followers: []harness.FollowerJSON{
			{Broker: 1, CaughtUpMs: i64(1500), BytesFromLeader: 2048, LocalLogStartOffset: 6, LogEndOffset: 7,
				Bootstrap: harness.BootstrapJSON{Path: "last-tiered", StartOffset: 8, Retries: 3, AuxStateBuilds: 1,
					RetriesByReason: map[string]int{"z": 1, "a": 2}}},
			{Broker: 2, Bootstrap: harness.BootstrapJSON{Path: "none"}},
		},
		Consumes: []harness.ConsumeJSON{{AtMs: 2500, Broker: 1, FromOffset: 9, LocalBytes: 10, RemoteBytes: 11}},
		Skipped: []harness.SkippedJSON{{AtMs: 100, Event: &ev, Type: "crash", Reason: "down"},
			{AtMs: 200, Fault: &fault, Type: "restart", Reason: "up"}, {AtMs: 61000, Type: "restart", Reason: "up"}},
	}, {
		Strategy: "last-tiered", Outcome: "violation", Steps: 4, SimMs: 1499, Digest: "d2",
		Violation: &harness.ViolationJSON{Invariant: "no-loss", AtMs: 1250, Step: 4, Message: "lost"},
	}}}
	var b strings.Builder
	Summary(&b, res, 1500, 60000)
	want := `scenario s  seed 3  profile kafka
  local-log-start  ok                 steps=10 sim=61.5s (1.5 s + 60 s healed) digest=d1
    leader b0: lso=1 llso=2 hw=3 leo=4 hro=5
    b1: path=last-tiered start=8 caught up in 1500 ms, 2.0 KiB from leader, retries=3, aux builds=1, llso=6 leo=7 (a=2 z=1)
    b2: path=none start=0 never caught up, 0 B from leader, retries=0, aux builds=0, llso=0 leo=0
    consume from 9 on b1 at 2.500s: 10 B local, 11 B remote
    skipped crash at 0.100s (events[2]): down
    skipped restart at 0.200s (explore.faults[0]): up
    skipped restart at 61.000s (the heal): up
  last-tiered      violation          steps=4 sim=1.5s (stopped early; of 1.5 s + 60 s healed) digest=d2
    violation no-loss at 1.250s step 4: lost
    no leader: partition offline
`
	if got := b.String(); got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
}

// TestSimParts: a run to its end, one stopped early, and a file without a
// healing period.
func TestSimParts(t *testing.T) {
	for _, c := range []struct {
		sim, dur, heal int64
		want           string
	}{
		{120000, 60000, 60000, "(60 s + 60 s healed)"},
		{119999, 60000, 60000, "(stopped early; of 60 s + 60 s healed)"},
		{2500, 2500, 0, "(2.5 s, no healing period)"},
		{2400, 2500, 0, "(stopped early; of 2.5 s, no healing period)"},
	} {
		if got := simParts(c.sim, c.dur, c.heal); got != c.want {
			t.Errorf("simParts(%d, %d, %d) = %q, want %q", c.sim, c.dur, c.heal, got, c.want)
		}
	}
}

// TestFailureReport: the failure report's step time in seconds, the known
// finding, and the state diff (or that the step changed nothing).
func TestFailureReport(t *testing.T) {
	in := FailureInput{Seed: 5, Scenario: "s", Strategy: "last-tiered", Profile: "kafka", Repro: "simrun run s",
		Failure: &harness.Failure{Invariant: "no-loss", Kind: "stale-hro", Message: "m", Step: 9, AtMs: 1750, Event: "ev", TraceTail: []string{"t1", "t2"}}}
	var b strings.Builder
	Failure(&b, in)
	want := `VIOLATION no-loss (known finding: stale-hro)
  seed:     5 (scenario s, strategy last-tiered, profile kafka)
  step:     9 at 1.750s
  event:    ev
  offsets:  m
  state diff across the step (-before +after):
    (no change in the compact state)
  last trace lines:
    t1
    t2
  reproduce: simrun run s
`
	if got := b.String(); got != want {
		t.Errorf("failure report:\n%s\nwant:\n%s", got, want)
	}
	in.Failure.Kind = ""
	in.After.Controller.Leader = 2
	b.Reset()
	Failure(&b, in)
	got := b.String()
	if !strings.HasPrefix(got, "VIOLATION no-loss\n") || strings.Contains(got, "no change") || !strings.Contains(got, "Leader:") {
		t.Errorf("failure report with a state change:\n%s", got)
	}
}
