package fuzz

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"tierfetch/harness"
)

// TestFixAgainstPinned accounts for a fix's sweep against the pinned known
// findings (testdata/known-findings.tsv, found without fixes): it lists
// every run whose verdict the fix changed, counts each kind before and
// with the fix, and fails on an unknown failure or on a kind the pinned
// set does not hold for the profile (a fix must gain no new kind of
// failure). Opt in: TIERFETCH_FIX (--fix's value) and TIERFETCH_FIX_PROFILE
// (one profile); the seeds are TIERFETCH_SWEEP_SEEDS (1..N, 300 by
// default) run here, or those of the shard file of a sweep run with that
// fix, TIERFETCH_FIX_JSONL (simrun sweep --seeds 1..10000 --profile P --fix
// F --jsonl FILE), so that a sweep's figures are re-derived without
// running it again. The upstream reports' "Fix, validated" sections quote
// its output.
func TestFixAgainstPinned(t *testing.T) {
	fix, name := os.Getenv("TIERFETCH_FIX"), os.Getenv("TIERFETCH_FIX_PROFILE")
	if fix == "" || name == "" {
		t.Skip("set TIERFETCH_FIX and TIERFETCH_FIX_PROFILE (and TIERFETCH_SWEEP_SEEDS or TIERFETCH_FIX_JSONL)")
	}
	fixes, err := harness.ParseFixes(fix)
	if err != nil {
		t.Fatal(err)
	}
	p, err := harness.ParseProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	pinned, pinnedTo := readKnownFindings(t)
	var results []SeedResult
	if file := os.Getenv("TIERFETCH_FIX_JSONL"); file != "" {
		h, err := MergeShardFiles([]string{file}, func(r SeedResult, _ string) { results = append(results, r) })
		if err != nil {
			t.Fatal(err)
		}
		if h.Profile != name || h.Fix != fix {
			t.Fatalf("%s: a sweep of profile %q with --fix %q, not %q with %q", file, h.Profile, h.Fix, name, fix)
		}
	} else {
		for seed := uint64(1); seed <= sweepSeeds(); seed++ {
			results = append(results, SweepSeedWith(seed, harness.Strategies, harness.Options{Profile: p, Fixes: fixes}))
		}
	}
	text, problems := fixAccounting(p.Name(), results, pinned, pinnedTo)
	t.Log(text)
	for _, e := range problems {
		t.Error(e)
	}
}

// fixAccounting compares results with the pinned findings of profile and
// returns the accounting, and the problems: unknown failures, new kinds.
func fixAccounting(profile string, results []SeedResult, pinned map[finding]bool, pinnedTo uint64) (string, []string) {
	var problems []string
	pinnedKinds := map[string]bool{}
	pinnedOf := map[[2]string]string{} // seed, strategy -> kind
	for f := range pinned {
		if f.profile == profile {
			pinnedKinds[f.kind] = true
			pinnedOf[[2]string{fmt.Sprint(f.seed), f.strategy}] = f.kind
		}
	}
	before, after := map[string]int{}, map[string]int{}
	changes := map[string][]string{} // "old -> new" -> "seed strategy"
	var last uint64
	for _, r := range results {
		last = max(last, r.Seed)
		for _, run := range r.Runs {
			old := pinnedOf[[2]string{fmt.Sprint(r.Seed), string(run.Strategy)}]
			now := run.Kind
			if run.Outcome == harness.OutcomeOK {
				now = ""
			} else if now == "" {
				problems = append(problems, fmt.Sprintf("seed %d %s: unknown failure %s %s: %s", r.Seed, run.Strategy, run.Outcome, run.Invariant, run.Message))
				now = "UNKNOWN"
			} else if !pinnedKinds[now] {
				problems = append(problems, fmt.Sprintf("seed %d %s: kind %s, which no pinned %s run has: a new kind of failure", r.Seed, run.Strategy, now, profile))
			}
			if old != "" {
				before[old]++
			}
			if now != "" {
				after[now]++
			}
			if old != now {
				key := or(old, "clean") + " -> " + or(now, "clean")
				changes[key] = append(changes[key], fmt.Sprintf("%d %s", r.Seed, strings.TrimSuffix(string(run.Strategy), "-start")))
			}
		}
	}
	if last > pinnedTo {
		problems = append(problems, fmt.Sprintf("seeds up to %d, the pinned set covers 1..%d", last, pinnedTo))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s, seeds 1..%d, %d runs\nkind: runs pinned without fixes -> runs with the fix\n", profile, last, 2*len(results))
	kinds := slices.Sorted(func(yield func(string) bool) {
		seen := map[string]bool{}
		for _, m := range []map[string]int{before, after} {
			for k := range m {
				if !seen[k] && !yield(k) {
					return
				}
				seen[k] = true
			}
		}
	})
	for _, k := range kinds {
		fmt.Fprintf(&b, "  %-36s %4d -> %4d\n", k, before[k], after[k])
	}
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "changed verdicts (seed strategy; local-log = local-log-start):\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s (%d): %s\n", k, len(changes[k]), strings.Join(changes[k], ", "))
	}
	return b.String(), problems
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// TestFixAccounting: the accounting counts kinds before and after, lists
// each changed verdict, and fails on an unknown failure or a new kind.
func TestFixAccounting(t *testing.T) {
	pinned := map[finding]bool{{"kip", 1, "last-tiered", "stale-hro"}: true, {"kip", 2, "local-log-start", "unclean-election"}: true}
	results := []SeedResult{
		{Seed: 1, Runs: []harness.RunSummary{{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeOK},
			{Strategy: harness.LastTiered, Outcome: harness.OutcomeOK}}},
		{Seed: 2, Runs: []harness.RunSummary{{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeSafety, Kind: "unclean-election"},
			{Strategy: harness.LastTiered, Outcome: harness.OutcomeOK}}},
	}
	got, problems := fixAccounting("kip", results, pinned, 2)
	if len(problems) > 0 {
		t.Errorf("problems %v", problems)
	}
	for _, want := range []string{"stale-hro                               1 ->    0", "unclean-election                        1 ->    1",
		"stale-hro -> clean (1): 1 last-tiered"} {
		if !strings.Contains(got, want) {
			t.Errorf("accounting lacks %q:\n%s", want, got)
		}
	}
	results[1].Runs[1] = harness.RunSummary{Strategy: harness.LastTiered, Outcome: harness.OutcomeLiveness, Kind: "kafka43-aux-state-stall"}
	results[0].Runs[0] = harness.RunSummary{Strategy: harness.LocalLogStart, Outcome: harness.OutcomeSafety, Invariant: "no-hole"}
	if _, problems := fixAccounting("kip", results, pinned, 2); len(problems) != 2 {
		t.Errorf("problems %q: want the new kind and the unknown failure", problems)
	}
}
