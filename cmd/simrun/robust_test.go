package main

import (
	"strings"
	"testing"
)

// TestWorkBudget: a scenario predicted to exceed the budget is refused before
// it runs, a run that reaches the budget stops with exit 4 and says how to
// raise it, and every command that runs simulations takes --max-steps.
func TestWorkBudget(t *testing.T) {
	huge := writeTemp(t, "huge.json", `{"brokers": 2, "duration_ms": 1000000000000,
	  "events": [{"at_ms": 0, "type": "produce", "records": 1000000000, "over_ms": 1000000000000}]}`)
	code, stdout, stderr := simrun(t, "run", "--scenario", huge)
	if code != exitBudget || stdout != "" || !strings.Contains(stderr, "predicted") || !strings.Contains(stderr, "--max-steps") {
		t.Errorf("predicted cost: exit %d, stdout %q, stderr %q; want exit 4 naming the prediction and --max-steps", code, stdout, stderr)
	}
	code, stdout, _ = simrun(t, "run", "--scenario", "omts-local-deleted", "--max-steps", "1000")
	if code != exitBudget || !strings.Contains(stdout, "budget-exceeded") || !strings.Contains(stdout, "WORK BUDGET") ||
		!strings.Contains(stdout, "--max-steps 2000") {
		t.Errorf("a run at its budget: exit %d, want 4 with the outcome and the command with a larger budget:\n%s", code, stdout)
	}
	code, stdout, _ = simrun(t, "run", "--scenario", "omts-local-deleted", "--max-steps", "1000", "--json")
	if code != exitBudget || !strings.Contains(stdout, `"outcome": "budget-exceeded"`) || !strings.Contains(stdout, `"invariant": "work-budget"`) {
		t.Errorf("--json at the budget: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = simrun(t, "sweep", "--seeds", "1..2", "--max-steps", "300", "--out", t.TempDir(), "--workers", "1")
	if code != exitBudget || !strings.Contains(stdout, "work-budget") || !strings.Contains(stdout, "--max-steps 300") {
		t.Errorf("sweep at its budget: exit %d, want 4 naming work-budget, with --max-steps in the replay commands:\n%s", code, stdout)
	}
	code, stdout, _ = simrun(t, "compare", "--scenario", "omts-local-deleted", "--seeds", "1", "--profile", "kip", "--max-steps", "1000", "--out", t.TempDir())
	if code != exitBudget || !strings.Contains(stdout, "work budget") {
		t.Errorf("compare at its budget: exit %d, want 4:\n%s", code, stdout)
	}
	if code, _, stderr := simrun(t, "compare", "--scenario", huge, "--seeds", "1", "--out", t.TempDir()); code != exitBudget || !strings.Contains(stderr, "predicted") {
		t.Errorf("compare on a scenario predicted too costly: exit %d, stderr %q", code, stderr)
	}
	for _, bad := range []string{"0", "-5", "1e6", "5abc", "+5", "0x10", "99999999999999"} {
		for _, cmd := range [][]string{{"run", "--scenario", "tiering-off"}, {"sweep", "--seeds", "1"}, {"compare", "--seeds", "1"}, {"mutants", "--seeds", "1"}} {
			if code, _, stderr := simrun(t, append(cmd, "--max-steps", bad)...); code != exitBadInput || !strings.Contains(stderr, "max-steps") {
				t.Errorf("%v --max-steps %s: exit %d, stderr %q; want 2 naming the flag", cmd, bad, code, stderr)
			}
		}
	}
}

// TestSeedsAreStrict: seeds are decimal digits and nothing else, on every
// command, and a range ending at the largest seed does not wrap.
func TestSeedsAreStrict(t *testing.T) {
	for _, bad := range []string{"5abc", "1e3", "1.5", "0x10", "0b1", "1_000", "-1", "+1", " 5", "5 ", "", "18446744073709551616"} {
		for _, args := range [][]string{
			{"run", "--scenario", "tiering-off", "--seed", bad},
			{"gen", "--seed", bad},
			{"sweep", "--seeds", bad},
			{"sweep", "--seeds", "1.." + bad},
			{"compare", "--seeds", bad},
			{"mutants", "--seeds", bad},
		} {
			if code, _, stderr := simrun(t, args...); code != exitBadInput || stderr == "" {
				t.Errorf("simrun %q: exit %d, stderr %q; want 2 with a message", args, code, stderr)
			}
		}
	}
	code, stdout, _ := simrun(t, "run", "--scenario", "tiering-off", "--seed", "18446744073709551615", "--strategy", "last-tiered")
	if code != exitOK || !strings.Contains(stdout, "seed 18446744073709551615") {
		t.Errorf("the largest seed: exit %d\n%s", code, stdout)
	}
	code, stdout, stderr := simrun(t, "compare", "--scenario", "tiering-off", "--seeds", "18446744073709551614..18446744073709551615",
		"--profile", "kip", "--workers", "1", "--out", t.TempDir())
	if code != exitOK || !strings.Contains(stdout, "compare: 2 pairs") {
		t.Errorf("compare up to the largest seed: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	code, stdout, _ = simrun(t, "sweep", "--seeds", "18446744073709551614..18446744073709551615", "--workers", "1", "--shrink", "0", "--out", t.TempDir())
	if code != exitOK || !strings.Contains(stdout, ": 2 seeds, 4 runs") {
		t.Errorf("sweep up to the largest seed: exit %d\n%s", code, stdout)
	}
}
