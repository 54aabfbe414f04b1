package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// SweepSummary writes a sweep's totals: runs and steps, unknown failures
// by invariant and strategy (the first ListedFailures with the command that
// replays each), known findings by kind, what was saved in --out and what
// was shrunk, and how many runs reached each coverage goal; a goal no run
// of a sweep of GoalSeeds or more seeds reached is called out.
func SweepSummary(w io.Writer, s *fuzz.Sweeper, seedRange string) {
	t, cfg := s.Totals, s.Config()
	profile := cfg.Profile.Name()
	fmt.Fprintf(w, "sweep seeds %s, profile %s: %d seeds, %d runs, %d steps\n", seedRange, profile, t.Seeds, t.Runs, t.Steps)
	unknown := t.UnknownFailures()
	fmt.Fprintf(w, "\nunknown failures: %d\n", unknown)
	writeCounts(w, t.Failures, t.Strategies)
	for _, f := range t.FirstFailures[:min(len(t.FirstFailures), fuzz.ListedFailures)] {
		fmt.Fprintf(w, "  seed %d %s: %s: %s\n    %s\n", f.Seed, f.Run.Strategy, f.Run.Invariant, f.Run.Message, replayLine(s, f))
	}
	if unknown > fuzz.ListedFailures {
		fmt.Fprintf(w, "  ... %d more (the first %d are listed)\n", unknown-fuzz.ListedFailures, fuzz.ListedFailures)
	}
	fmt.Fprintf(w, "\nknown findings (by kind): %s\n", fuzz.Plural(int64(len(t.Findings)), "kind"))
	writeCounts(w, t.Findings, t.Strategies)
	for _, kind := range sortedMapKeys(t.Findings) {
		f := t.FirstFindings[kind]
		fmt.Fprintf(w, "  %s first at seed %d: %s\n", kind, f.Seed, replayLine(s, f))
	}
	writeSaved(w, s, unknown)
	writeCoverage(w, t, profile)
}

// replayLine is the command that replays a failure from the file the sweep
// saved (which records how it failed), or, when it was not saved, the
// command that generates its scenario.
func replayLine(s *fuzz.Sweeper, f fuzz.Failed) string {
	if s.SavedFile(f) {
		return "replay: " + ReplayCommand(s.Config().Out, f)
	}
	cfg := s.Config()
	return cfg.Names.Sprintf("not saved ({MaxSaved} %d); its scenario: simrun gen {Seed} %d {Out} FILE, then simrun run {Scenario} FILE {Strategy} %s%s",
		cfg.MaxSaved, f.Seed, f.Run.Strategy, cfg.ReplayFlags)
}

// writeSaved says what the sweep saved in its Out and what it shrunk, with
// the caps that decided it.
func writeSaved(w io.Writer, s *fuzz.Sweeper, unknown int64) {
	cfg, saved := s.Config(), s.Saved()
	n := cfg.Names
	var parts []string
	switch unsaved := unknown - int64(saved.Unknown); {
	case unknown == 0:
	case unsaved == 0:
		parts = append(parts, n.Sprintf("every unknown failure (%d; {MaxSaved} %d)", unknown, cfg.MaxSaved))
	default:
		parts = append(parts, n.Sprintf("the first %d of the %d unknown failures ({MaxSaved} %d; %d not saved)", saved.Unknown, unknown,
			cfg.MaxSaved, unsaved))
	}
	if saved.Known > 0 {
		parts = append(parts, fmt.Sprintf("the first seed of each known kind (%d)", saved.Known))
	}
	if len(parts) == 0 {
		fmt.Fprintf(w, "\nsaved in %s: nothing (no run failed)\n", cfg.Out)
		return
	}
	how := n.Sprintf("shrunk: %d of the %d saved ({MaxShrunk} %d, at most %d runs each: {Shrink}), each to a -min.json beside it",
		len(s.Shrunk()), saved.Unknown+saved.Known, cfg.MaxShrunk, cfg.Shrink)
	if cfg.Shrink == 0 {
		how = n.Sprintf("shrunk: none ({Shrink} 0)")
	}
	text := fmt.Sprintf("saved in %s: %s, each file recording how its run failed (simrun replay FILE reruns it); %s.", cfg.Out,
		strings.Join(parts, " and "), how)
	fmt.Fprintf(w, "\n%s\n", wrap(text, "", 100))
}

func writeCoverage(w io.Writer, t *fuzz.SweepTotals, profile string) {
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
	switch {
	case len(missed) == 0:
	case t.Seeds >= fuzz.GoalSeeds:
		fmt.Fprintf(w, "  FINDING: no run reached %s\n", strings.Join(missed, ", "))
	default:
		fmt.Fprintf(w, "  %s\n", wrap(fmt.Sprintf("not reached in %d seeds: %d goals (seeds 1..%d reach every goal; a shorter sweep need not)",
			t.Seeds, len(missed), fuzz.GoalSeeds), "  ", 100)[2:])
	}
}

// unreachable reports whether goal g is not a path of the profile at all:
// Kafka (4.3 and trunk) clamps EPUO to the log start offset, so it never
// falls back.
func unreachable(profile string, g model.Goal) bool {
	return (profile == "kafka-4.3" || profile == "kafka-trunk") && g == model.GoalEPUOBelowLSOFallback
}

// ReplayCommand is the command that replays one failing run of a sweep
// from the scenario file the sweep saved for it, which records the run's
// strategy, profile, mutants and work budget.
func ReplayCommand(outDir string, f fuzz.Failed) string {
	return "simrun replay " + fuzz.FailureFile(outDir, f)
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
	SweepSummary(w, s, seedRange)
	SweepDetails(w, s.Shrunk(), cfg.CheckDeterminism, s.Totals.Runs, s.Mismatches())
}

// SweepDetails writes what follows a sweep's summary: the shrunk cases, what
// --check-determinism checked (runs: how many) and each mismatch it found.
func SweepDetails(w io.Writer, shrunk []string, determinism bool, runs int64, mismatches []string) {
	if len(shrunk) > 0 {
		fmt.Fprintf(w, "\nshrunk cases (saved beside the originals as -min.json, each recording how it fails):\n")
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
