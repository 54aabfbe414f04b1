package reports

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"tierfetch/harness"
)

// Summary writes a short human summary of a one-partition result (a
// broker-scale one: BrokerScaleSummary): per strategy, the
// outcome and each added follower's bootstrap path, start offset, catch-up
// time and bytes from the leader. durationMs and healMs are the scenario's
// (its events' window and the healing period after it), to say what the
// simulated time was made of.
func Summary(w io.Writer, res harness.Result, durationMs, healMs int64) {
	fmt.Fprintf(w, "scenario %s  seed %d  profile %s\n", res.Scenario, res.Seed, res.Profile)
	for _, r := range res.Runs {
		fmt.Fprintf(w, "  %-16s %-18s steps=%d sim=%.1fs %s digest=%s\n", r.Strategy, r.Outcome, r.Steps, float64(r.SimMs)/1000,
			simParts(r.SimMs, durationMs, healMs), r.Digest)
		if r.Violation != nil {
			fmt.Fprintf(w, "    violation %s at %.3fs step %d: %s\n", r.Violation.Invariant, float64(r.Violation.AtMs)/1000, r.Violation.Step, r.Violation.Message)
		}
		if l := r.Leader; l != nil {
			fmt.Fprintf(w, "    leader b%d: lso=%d llso=%d hw=%d leo=%d hro=%d\n", l.Broker, l.LogStartOffset, l.LocalLogStartOffset, l.HighWatermark, l.LogEndOffset, l.HighestRemoteOffset)
		} else {
			fmt.Fprintf(w, "    no leader: partition offline\n")
		}
		for _, f := range r.Followers {
			fmt.Fprintf(w, "    b%d: %s\n", f.Broker, followerLine(f))
		}
		for _, c := range r.Consumes {
			fmt.Fprintf(w, "    consume from %d on b%d at %.3fs: %d B local, %d B remote\n", c.FromOffset, c.Broker, float64(c.AtMs)/1000, c.LocalBytes, c.RemoteBytes)
		}
		for _, sk := range r.Skipped {
			where := "the heal"
			switch {
			case sk.Event != nil:
				where = fmt.Sprintf("events[%d]", *sk.Event)
			case sk.Fault != nil:
				where = fmt.Sprintf("explore.faults[%d]", *sk.Fault)
			}
			fmt.Fprintf(w, "    skipped %s at %.3fs (%s): %s\n", sk.Type, float64(sk.AtMs)/1000, where, sk.Reason)
		}
	}
}

func followerLine(f harness.FollowerJSON) string {
	b := f.Bootstrap
	caught := "never caught up"
	if f.CaughtUpMs != nil {
		caught = fmt.Sprintf("caught up in %s", ms(*f.CaughtUpMs))
	}
	s := fmt.Sprintf("path=%s start=%d %s, %s from leader, retries=%d, aux builds=%d, llso=%d leo=%d",
		b.Path, b.StartOffset, caught, bytes(f.BytesFromLeader), b.Retries, b.AuxStateBuilds, f.LocalLogStartOffset, f.LogEndOffset)
	if len(b.RetriesByReason) > 0 {
		var parts []string
		for _, name := range slices.Sorted(maps.Keys(b.RetriesByReason)) {
			parts = append(parts, fmt.Sprintf("%s=%d", name, b.RetriesByReason[name]))
		}
		s += " (" + strings.Join(parts, " ") + ")"
	}
	return s
}

// FailureInput is what a failure report needs.
type FailureInput struct {
	Seed     uint64
	Scenario string
	Strategy string
	Profile  string
	Failure  *harness.Failure
	Before   harness.State
	After    harness.State
	Repro    string // the command that reproduces it
}

// Failure writes a failure report in this order: the invariant, the seed,
// the step and virtual time, the event, the offsets involved, the state diff
// across the step, the last trace lines and the reproduce command.
func Failure(w io.Writer, in FailureInput) {
	f := in.Failure
	if f.Kind != "" {
		fmt.Fprintf(w, "VIOLATION %s (known finding: %s)\n", f.Invariant, f.Kind)
	} else {
		fmt.Fprintf(w, "VIOLATION %s\n", f.Invariant)
	}
	fmt.Fprintf(w, "  seed:     %d (scenario %s, strategy %s, profile %s)\n", in.Seed, in.Scenario, in.Strategy, in.Profile)
	fmt.Fprintf(w, "  step:     %d at %.3fs\n", f.Step, float64(f.AtMs)/1000)
	fmt.Fprintf(w, "  event:    %s\n", f.Event)
	fmt.Fprintf(w, "  offsets:  %s\n", f.Message)
	fmt.Fprintf(w, "  state diff across the step (-before +after):\n")
	diff := harness.StateDiff(in.Before, in.After)
	if diff == "" {
		diff = "(no change in the compact state)\n"
	}
	for _, line := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	fmt.Fprintf(w, "  last trace lines:\n")
	for _, line := range f.TraceTail {
		fmt.Fprintf(w, "    %s\n", line)
	}
	fmt.Fprintf(w, "  reproduce: %s\n", in.Repro)
}

// simParts says what a run's simulated time was made of: "(60 s + 60 s
// healed)" for a run to its end, "(stopped; of 60 s + 60 s healed)" for one
// that stopped early.
func simParts(simMs, durationMs, healMs int64) string {
	plan := secs(durationMs) + " + " + secs(healMs) + " healed"
	if healMs == 0 {
		plan = secs(durationMs) + ", no healing period"
	}
	if simMs < durationMs+healMs {
		return "(stopped early; of " + plan + ")"
	}
	return "(" + plan + ")"
}

func secs(v int64) string {
	if v%1000 == 0 {
		return fmt.Sprintf("%d s", v/1000)
	}
	return fmt.Sprintf("%.1f s", float64(v)/1000)
}
