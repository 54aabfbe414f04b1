package reports

import (
	"fmt"
	"io"
	"sort"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// SweepSummary writes a sweep's totals: runs and steps, unknown failures by
// invariant and strategy (with the command that replays each of the first),
// known findings by kind, and how many runs reached each coverage goal; a
// goal no run reached is called out.
// extraFlags (such as " --mutant NAME") is appended to every replay command.
func SweepSummary(w io.Writer, t *fuzz.SweepTotals, seedRange, profile, outDir, extraFlags string) {
	fmt.Fprintf(w, "sweep seeds %s, profile %s: %d seeds, %d runs, %d steps\n", seedRange, profile, t.Seeds, t.Runs, t.Steps)
	fmt.Fprintf(w, "\nunknown failures: %d\n", t.UnknownFailures())
	writeCounts(w, t.Failures, t.Strategies)
	for i, f := range t.FirstFailures {
		if i == 10 {
			fmt.Fprintf(w, "  ... %d more, all saved in %s\n", len(t.FirstFailures)-10, outDir)
			break
		}
		fmt.Fprintf(w, "  seed %d %s: %s: %s\n    replay: %s\n", f.Seed, f.Run.Strategy, f.Run.Invariant, f.Run.Message, ReplayCommand(outDir, f, extraFlags))
	}
	fmt.Fprintf(w, "\nknown findings (by kind): %d kinds\n", len(t.Findings))
	writeCounts(w, t.Findings, t.Strategies)
	for _, kind := range sortedMapKeys(t.Findings) {
		f := t.FirstFindings[kind]
		fmt.Fprintf(w, "  %s first at seed %d: %s\n", kind, f.Seed, ReplayCommand(outDir, f, extraFlags))
	}
	fmt.Fprintf(w, "\ncoverage goals (runs that reached each):\n  %-32s", "goal")
	for _, st := range t.Strategies {
		fmt.Fprintf(w, " %16s", st)
	}
	fmt.Fprintln(w)
	var missed []string
	for g := model.Goal(0); g < model.NumGoals; g++ {
		fmt.Fprintf(w, "  %-32s", g)
		total := int64(0)
		for _, st := range t.Strategies {
			n := t.Coverage[st][g]
			total += n
			fmt.Fprintf(w, " %16d", n)
		}
		switch {
		case total == 0 && unreachable(profile, g):
			fmt.Fprintf(w, "  (not a path of %s)\n", profile)
		case total == 0:
			fmt.Fprintln(w)
			missed = append(missed, g.String())
		default:
			fmt.Fprintln(w)
		}
	}
	if len(missed) > 0 {
		fmt.Fprintf(w, "  FINDING: no run reached %v\n", missed)
	}
}

// unreachable reports whether goal g is not a path of the profile at all:
// Kafka (4.3 and trunk) clamps EPUO to the log start offset, so it never
// falls back.
func unreachable(profile string, g model.Goal) bool {
	return (profile == "kafka-4.3" || profile == "kafka-trunk") && g == model.GoalEPUOBelowLSOFallback
}

// ReplayCommand is the command that replays one failing run of a sweep from
// the scenario file the sweep saved for it.
func ReplayCommand(outDir string, f fuzz.Failed, extraFlags string) string {
	return fmt.Sprintf("simrun run --scenario %s --strategy %s%s --trace", fuzz.FailureFile(outDir, f), f.Run.Strategy, extraFlags)
}

func writeCounts(w io.Writer, m map[string]map[harness.Strategy]int64, strategies []harness.Strategy) {
	for _, key := range sortedMapKeys(m) {
		fmt.Fprintf(w, "  %-36s", key)
		for _, st := range strategies {
			fmt.Fprintf(w, " %s=%d", st, m[key][st])
		}
		fmt.Fprintln(w)
	}
}

func sortedMapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SweepReport writes the summary of the seeds s folded (seedRange names
// them), the shrunk cases and what the determinism check found: what
// 'simrun sweep' and 'simrun merge' both print.
func SweepReport(w io.Writer, s *fuzz.Sweeper, seedRange string) {
	cfg := s.Config()
	SweepSummary(w, s.Totals, seedRange, cfg.Profile.Name(), cfg.Out, cfg.ReplayFlags)
	SweepDetails(w, s.Shrunk(), cfg.CheckDeterminism, s.Totals.Runs, s.Mismatches())
}

// SweepDetails writes what follows a sweep's summary: the shrunk cases, what
// --check-determinism checked (runs: how many) and each mismatch it found.
func SweepDetails(w io.Writer, shrunk []string, determinism bool, runs int64, mismatches []string) {
	if len(shrunk) > 0 {
		fmt.Fprintf(w, "\nshrunk cases (saved beside the originals as -min.json):\n")
		for _, line := range shrunk {
			fmt.Fprintln(w, line)
		}
	}
	if determinism {
		verdict := "every pair identical"
		if n := len(mismatches); n > 0 {
			verdict = fmt.Sprintf("%d seeds diverged (below)", n)
		}
		fmt.Fprintf(w, "determinism: %d runs each run twice, state digests compared after every step: %s\n", runs, verdict)
	}
	for _, m := range mismatches {
		fmt.Fprintln(w, m)
	}
}
