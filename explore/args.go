package explore

import (
	"fmt"
	"slices"
	"strings"

	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// Args are a search's settings as given (simrun explore's flags), before
// Config checks them.
type Args struct {
	Scenario   string
	Strategy   string
	Profile    string
	Mutant     string
	Fix        string
	Depth      int
	MaxStates  int
	MaxMemory  int // MiB
	NoReduce   bool
	Faults     string // comma-separated FaultKinds
	FaultMs    int64
	Lost       bool
	NoLiveness bool
	Reexecute  bool
	FromMs     int64
	Out        string
	JSONL      string
	Shard      string // K/N
}

// Config checks the settings (an error names the field: config.Error) and
// builds the search and the header that names it; maxSteps is each run's work budget and
// maxInput the size limit of a scenario file.
func (a Args) Config(maxSteps, maxInput int64) (Config, Header, error) {
	var cfg Config
	if a.Scenario == "" {
		return cfg, Header{}, config.Errorf("Scenario", "{Scenario}: required (a named scenario or a file); see 'simrun scenarios'")
	}
	if a.Strategy != string(harness.LocalLogStart) && a.Strategy != string(harness.LastTiered) {
		return cfg, Header{}, config.Errorf("Strategy", "{Strategy}: want local-log-start or last-tiered, got %q", a.Strategy)
	}
	profile, err := harness.ParseProfile(a.Profile)
	if err != nil {
		return cfg, Header{}, err
	}
	mutants, err := harness.ParseMutants(a.Mutant)
	if err != nil {
		return cfg, Header{}, err
	}
	fixes, err := harness.ParseFixes(a.Fix)
	if err != nil {
		return cfg, Header{}, err
	}
	if a.Depth < 0 || a.Depth > 100_000 {
		return cfg, Header{}, config.Errorf("Depth", "{Depth}: want 0 (to the scenario's end) or 1..100000, got %d", a.Depth)
	}
	if a.MaxStates < 1 || a.MaxStates > 100_000_000 {
		return cfg, Header{}, config.Errorf("MaxStates", "{MaxStates}: want 1..100000000, got %d", a.MaxStates)
	}
	if a.MaxMemory < 64 || a.MaxMemory > 1<<20 {
		return cfg, Header{}, config.Errorf("MaxMemory", "{MaxMemory}: want 64..1048576 MiB, got %d", a.MaxMemory)
	}
	if a.FaultMs < 1 || a.FaultMs > 3_600_000 {
		return cfg, Header{}, config.Errorf("FaultMs", "{FaultMs}: want 1..3600000, got %d", a.FaultMs)
	}
	faults := []string{}
	if a.Faults != "" {
		for _, k := range strings.Split(a.Faults, ",") {
			k = strings.TrimSpace(k)
			kind, err := scenarios.ParseExploreFault(k)
			if err != nil {
				return cfg, Header{}, config.Errorf("Faults", "{Faults}: %v", err)
			}
			faults = append(faults, kind.Fault().Explore) // the header names it one way
		}
	}
	shard, err := campaign.ParseShard(a.Shard)
	if err != nil {
		return cfg, Header{}, config.Errorf("Shard", "{Shard}: %v", err)
	}
	if a.FromMs < 0 {
		return cfg, Header{}, config.Errorf("FromMs", "{FromMs}: want >= 0, got %d", a.FromMs)
	}
	if a.Out == "" {
		return cfg, Header{}, config.Errorf("Out", "{Out}: want a file name")
	}
	sc, err := scenarios.ResolveMax(a.Scenario, maxInput)
	if err != nil {
		return cfg, Header{}, err
	}
	if err := harness.CheckRunnable(sc); err != nil {
		return cfg, Header{}, fmt.Errorf("%s: %w", a.Scenario, err)
	}
	if sc.BrokerScale() {
		// A state's hash covers one partition's model (harness.appendState).
		return cfg, Header{}, fmt.Errorf("%s: broker-scale scenarios (partitions) cannot be explored in this build: simrun run and compare run them", a.Scenario)
	}
	if k := harness.LimitedResource(sc); k != "" {
		// A state's hash does not cover the shared resources' queues.
		return cfg, Header{}, fmt.Errorf("%s: config.%s: a limited shared resource cannot be explored in this build: simrun run and compare run it", a.Scenario, k)
	}
	if i := slices.IndexFunc(sc.Events, func(e scenarios.Event) bool { return e.Type == scenarios.EventRollingRestart }); i >= 0 {
		// A state's hash does not cover where a rolling restart is.
		return cfg, Header{}, fmt.Errorf("%s: events[%d]: rolling_restart cannot be explored in this build: simrun run runs it", a.Scenario, i)
	}
	if end := sc.DurationMs + sc.HealMs; a.FromMs >= end {
		return cfg, Header{}, config.Errorf("FromMs", "{FromMs}: %d is at or past the end of %s (%d ms: duration_ms %d + heal_ms %d)",
			a.FromMs, sc.Name, end, sc.DurationMs, sc.HealMs)
	}
	cfg = Config{Scenario: sc, Strategy: harness.Strategy(a.Strategy), Profile: profile, Mutants: mutants, Fixes: fixes,
		Depth: a.Depth, MaxStates: a.MaxStates, MaxMemoryMiB: a.MaxMemory, NoReduction: a.NoReduce, Faults: faults,
		FaultMs: a.FaultMs, Lost: a.Lost, Liveness: !a.NoLiveness, Shard: shard, MaxSteps: maxSteps, Reexecute: a.Reexecute,
		FromMs: a.FromMs}
	if len(faults) == 0 {
		cfg.Faults = nil
	}
	h := Header{Explore: HeaderVersion, Scenario: sc.Name, Strategy: a.Strategy, Profile: profile.Name(), Mutant: a.Mutant, Fix: a.Fix,
		Depth: a.Depth, FromMs: a.FromMs, MaxStates: a.MaxStates, MaxMemory: a.MaxMemory, Reduction: !a.NoReduce,
		Faults: faults, FaultMs: a.FaultMs, Lost: a.Lost, Liveness: !a.NoLiveness, MaxSteps: maxSteps, Shard: shard.String()}
	h.ContentDigest, err = ContentDigest(sc, h)
	return cfg, h, err
}

// Outcome is the harness outcome the search's exit code follows: an
// unknown violation's, harness.OutcomeBudget when the bound was not
// exhausted, "" otherwise.
func (r Report) Outcome() string {
	switch {
	case r.Violation != nil:
		return r.Violation.Outcome
	case !r.Exhausted:
		return harness.OutcomeBudget
	}
	return ""
}
