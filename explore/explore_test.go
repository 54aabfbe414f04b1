package explore

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
)

func fixture(t testing.TB, name string) *scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Load("testdata/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// checkReplays: the counterexample, written as a file and parsed back, makes
// simrun run's harness break the same invariant at the same step, with the
// same known-finding kind.
func checkReplays(t *testing.T, cfg Config, cx *Counterexample) {
	t.Helper()
	data, err := cx.Scenario.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenarios.Parse(data)
	if err != nil {
		t.Fatalf("counterexample does not parse: %v\n%s", err, data)
	}
	r := harness.Execute(back, harness.Options{Strategy: cfg.Strategy, Profile: cfg.Profile, Mutants: cfg.Mutants})
	if r.Outcome != cx.Outcome || r.Violation == nil || r.Violation.Invariant != cx.Failure.Invariant ||
		r.Violation.Kind != cx.Failure.Kind || (cx.Outcome == harness.OutcomeSafety && r.Steps != cx.Steps) {
		t.Fatalf("replay: %s %+v at step %d, explore found %s %+v at step %d\n%s", r.Outcome, r.Violation, r.Steps,
			cx.Outcome, cx.Failure, cx.Steps, data)
	}
}

// TestUnmutatedSmallConfigs: on the unmutated model the documented small
// configurations (README, "Exhaustive exploration") are explored to their
// bound with no violation; the reduced search skips only steps whose
// states it visits (an audit takes them anyway) and visits as many states
// as the full one, whose transitions the log compares.
func TestUnmutatedSmallConfigs(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: exhausts the six small configurations (about a minute); the clone and re-execution tests' small runs stay")
	}
	auditReduction = true
	defer func() { auditReduction = false }()
	for _, c := range SmallConfigs(t) {
		res, err := Run(c.Config)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil {
			t.Errorf("%s: %s at step %d: %s", c.Name, res.Violation.Failure.Invariant, res.Violation.Steps, res.Violation.Failure.Message)
		}
		if !res.Exhausted {
			t.Errorf("%s: bound not exhausted: %+v", c.Name, *res)
		}
		if len(auditMissing) > 0 || int64(auditCount) < res.Skipped {
			t.Errorf("%s: %d skipped steps lead to states the search never visited (%d audited of %d skipped)", c.Name,
				len(auditMissing), auditCount, res.Skipped)
		}
		cfg := c.Config
		cfg.NoReduction, cfg.Liveness = true, false
		full, _ := Run(cfg)
		if full.States != res.States || full.Stop != res.Stop {
			t.Errorf("%s: full %d states (%s), reduced %d (%s)", c.Name, full.States, full.Stop, res.States, res.Stop)
		}
		t.Logf("%s: %d states, depth %d, frontier %d; transitions %d full, %d reduced (%.3fx), %d inputs skipped", c.Name,
			res.States, res.Depth, res.Frontier, full.Transitions, res.Transitions,
			float64(full.Transitions)/float64(res.Transitions), res.Skipped)
	}
}

// SmallConfig is a documented bounded configuration.
type SmallConfig struct {
	Name string
	Config
}

// SmallConfigs are the configurations the README documents.
func SmallConfigs(t testing.TB) []SmallConfig {
	tiny := fixture(t, "tiny-join")
	var out []SmallConfig
	for _, st := range harness.Strategies {
		out = append(out,
			SmallConfig{"tiny-join/" + string(st) + "/depth-24", Config{Scenario: tiny, Strategy: st, Depth: 24, Liveness: true}},
			SmallConfig{"tiny-join/" + string(st) + "/crash-restart-elect/depth-7", Config{Scenario: tiny, Strategy: st, Depth: 7,
				Faults: []string{"crash", "restart", "elect"}, Liveness: true}},
		)
	}
	three := fixture(t, "tiny-three")
	for _, st := range harness.Strategies {
		out = append(out, SmallConfig{"tiny-three/" + string(st) + "/depth-16", Config{Scenario: three, Strategy: st, Depth: 16, Liveness: true}})
	}
	out = append(out,
		SmallConfig{"tiny-three/last-tiered/crash-restart-elect/depth-4", Config{Scenario: three, Strategy: harness.LastTiered,
			Depth: 4, Faults: []string{"crash", "restart", "elect"}, Liveness: true}},
		SmallConfig{"tiny-join/last-tiered/all-faults-lost/depth-5", Config{Scenario: tiny, Strategy: harness.LastTiered,
			Depth: 5, Faults: FaultKinds, Lost: true, Liveness: true}},
	)
	return out
}

// zooCases are the bug zoo's mutants with the strategy of the hunt that
// caught them: testdata/zoo holds the scenario 'simrun mutants --seeds
// 1..300 --shrink 300' shrank for each (TestZooIsCurrent).
var zooCases = []struct {
	mutant   model.Mutant
	strategy harness.Strategy
}{
	{model.MutantHROOnlyFromUpload, harness.LastTiered},
	{model.MutantRetentionBeforeUpload, harness.LocalLogStart},
	{model.MutantUploadAboveHW, harness.LocalLogStart},
	{model.MutantLSOAfterRemoteDelete, harness.LocalLogStart},
	{model.MutantLLSOAfterLocalDelete, harness.LocalLogStart},
	{model.MutantStaleLLSOAfterAux, harness.LocalLogStart},
	{model.MutantHWNotReset, harness.LocalLogStart},
	{model.MutantHROWithoutEpochEnd, harness.LastTiered},
	{model.MutantEPUOBelowLSO, harness.LastTiered},
	{model.MutantEmptyAgain, harness.LocalLogStart},
}

// zooMaxStates is the state budget the issue asks the defaults to find
// every mutant within.
const zooMaxStates = 200_000

// TestRefindsEveryMutant: from each bug-zoo mutant's shrunk scenario, with
// simrun explore's defaults (no depth bound, no --from-ms, liveness on,
// the reduction on) and --max-states 200000, explore finds a violation no
// known finding explains, whose counterexample replays through the
// harness and is no longer than the shrunk scenario (its events plus the
// faults the path injected). TestReductionOnEveryMutant compares it with
// the full search.
func TestRefindsEveryMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("about a minute of one core: four mutants take the whole state budget")
	}
	if len(zooCases) != int(model.NumMutants) {
		t.Fatalf("%d zoo cases for %d mutants", len(zooCases), model.NumMutants)
	}
	for _, c := range zooCases {
		sc := fixture(t, "zoo/"+c.mutant.String())
		cfg := Config{Scenario: sc, Strategy: c.strategy, MaxStates: zooMaxStates, Liveness: true,
			Mutants: model.Mutants(0).With(c.mutant)}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cx := res.Violation
		if cx == nil {
			t.Errorf("%s: not found (%d states, depth %d, stopped: %s)", c.mutant, res.States, res.Depth, res.Stop)
			continue
		}
		checkReplays(t, cfg, cx)
		shrunk, found := fuzz.SizeOf(sc), fuzz.SizeOf(cx.Scenario)
		if found.Events+len(cx.Faults) > shrunk.Events {
			t.Errorf("%s: counterexample has %d events and %d injected faults, the shrunk scenario %d events", c.mutant,
				found.Events, len(cx.Faults), shrunk.Events)
		}
		t.Logf("%-24s %s %s at step %d, %d choices, %d states, depth %d, %d continuations", c.mutant, cx.Outcome,
			cx.Failure.Invariant, cx.Steps, cx.Choices, res.States, res.Depth, res.LivenessChecked)
	}
}

// TestReductionOnEveryMutant: from each bug-zoo mutant's shrunk
// scenario, within a small state budget (the full search of the 200,000
// states above would double a minute of test), the reduced search visits
// as many states as the full one, stops for the same reason, and finds the
// same violation (or none) at the same step; every step it skipped leads
// to a state it visited.
func TestReductionOnEveryMutant(t *testing.T) {
	auditReduction = true
	defer func() { auditReduction = false }()
	audited := 0
	defer func() {
		if audited == 0 {
			t.Error("the audit took no skipped step on any mutant: it checked nothing")
		}
	}()
	for _, c := range zooCases {
		cfg := Config{Scenario: fixture(t, "zoo/"+c.mutant.String()), Strategy: c.strategy, MaxStates: 5_000, Liveness: true,
			Mutants: model.Mutants(0).With(c.mutant)}
		red, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		audited += auditCount
		if len(auditMissing) > 0 || int64(auditCount) < red.Skipped {
			t.Errorf("%s: %d skipped steps lead to states the search never visited (%d audited of %d skipped)", c.mutant,
				len(auditMissing), auditCount, red.Skipped)
		}
		cfg.NoReduction = true
		full, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		same := full.States == red.States && full.Stop == red.Stop && (full.Violation == nil) == (red.Violation == nil)
		if same && full.Violation != nil {
			same = full.Violation.Failure.Invariant == red.Violation.Failure.Invariant && full.Violation.Steps == red.Violation.Steps
		}
		if !same {
			t.Errorf("%s: full %d states (%s, %v), reduced %d (%s, %v)", c.mutant, full.States, full.Stop, full.Violation,
				red.States, red.Stop, red.Violation)
		}
		t.Logf("%-24s %d states (%s); transitions %d full, %d reduced", c.mutant, red.States, red.Stop, full.Transitions,
			red.Transitions)
	}
}

// TestZooIsCurrent: testdata/zoo holds, for every mutant, the scenario
// 'simrun mutants --seeds 1..300 --shrink 300' shrinks today (under the
// strategy zooCases names), so TestRefindsEveryMutant starts from what a
// user gets.
func TestZooIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("hunts every mutant: about 15 s")
	}
	strategy := map[model.Mutant]harness.Strategy{}
	for _, c := range zooCases {
		strategy[c.mutant] = c.strategy
	}
	fuzz.HuntAll(1, 300, model.KIP, false, 0, 0, 300, func(h fuzz.MutantHunt, _ model.Profile) {
		if !h.Caught {
			t.Errorf("%s: not caught", h.Mutant)
			return
		}
		want, err := h.Shrunk.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(h.SaveFile("testdata/zoo"))
		if err != nil || !bytes.Equal(got, want) || h.Strategy != strategy[h.Mutant] {
			t.Errorf("%s: testdata/zoo is stale (strategy %s, zooCases %s; %v): regenerate with "+
				"'simrun mutants --seeds 1..300 --shrink 300 --out explore/testdata/zoo'", h.Mutant, h.Strategy,
				strategy[h.Mutant], err)
		}
	})
}

// TestRefindsMutantsFromTinyJoin: the mutants whose trigger fits the
// 2-broker tiny-join fixture are found there too, under both strategies.
func TestRefindsMutantsFromTinyJoin(t *testing.T) {
	for _, m := range []model.Mutant{model.MutantStaleLLSOAfterAux, model.MutantHWNotReset} {
		for _, st := range harness.Strategies {
			cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: st, Depth: 40, MaxStates: 50_000,
				Mutants: model.Mutants(0).With(m)}
			res, err := Run(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Violation == nil || res.Violation.Failure.Invariant != invariants.OffsetOrder {
				t.Errorf("%s %s: want offset-order, got %+v", m, st, res.Violation)
				continue
			}
			checkReplays(t, cfg, res.Violation)
		}
	}
}

// TestRefindsKnownFindings: the named findings whose violation comes
// within a small bound are found again from their scenarios, with the
// kind the checker gives them, as known findings (the search goes on and
// exhausts the bound with no unknown violation); each replays.
func TestRefindsKnownFindings(t *testing.T) {
	for _, c := range []struct{ name, kind string }{
		{"finding-reenable-stale-hro", invariants.KindStaleHRO},
		{"finding-stale-log-start-copy-disabled", invariants.KindStaleLogStartCopyDisabled},
		{"finding-follower-gap-after-disable", invariants.KindFollowerGapAfterDisable},
		{"finding-tiered-follower-after-disable", invariants.KindTieredFollowerAfterDisable},
	} {
		sc, ok := scenarios.Lookup(c.name)
		if !ok {
			t.Fatalf("no scenario %s", c.name)
		}
		cfg := Config{Scenario: sc, Strategy: harness.LastTiered, Depth: 80, MaxStates: 100_000}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Violation != nil || !res.Exhausted || len(res.Known) != 1 || res.Known[0].Failure.Kind != c.kind {
			t.Errorf("%s: violation %+v, exhausted %v, known %d", c.name, res.Violation, res.Exhausted, len(res.Known))
			continue
		}
		checkReplays(t, cfg, res.Known[0])
		t.Logf("%s: %s at step %d, %d states", c.name, c.kind, res.Known[0].Steps, res.States)
	}
}

// TestExploreIsDeterministic: the same search twice gives the same result.
func TestExploreIsDeterministic(t *testing.T) {
	cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LocalLogStart, Depth: 5, Faults: FaultKinds, Lost: true}
	a, _ := Run(cfg)
	b, _ := Run(cfg)
	ra, _ := ReportOf(a)
	rb, _ := ReportOf(b)
	if fmt.Sprintf("%+v", ra) != fmt.Sprintf("%+v", rb) {
		t.Fatalf("two searches differ:\n%+v\n%+v", ra, rb)
	}
}
