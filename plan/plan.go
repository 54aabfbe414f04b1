package plan

import (
	"slices"
	"tierfetch/config"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// Result is the plan: the documented object simrun plan --json prints
// (docs/reference/result.md, "Plan object").
type Result struct {
	SchemaVersion int           `json:"schema_version"`
	Topic         string        `json:"topic"`
	Partition     int32         `json:"partition"`
	State         State         `json:"state"`
	Scenario      ScenarioInfo  `json:"scenario"`
	Profiles      []ProfilePlan `json:"profiles"`
	// Fixes (extension) names the fixes of Kafka's code every run had on
	// (--fix); absent for Kafka as it is.
	Fixes          []string `json:"fixes,omitempty"`
	Recommendation string   `json:"recommendation"`
	Assumptions    []string `json:"assumptions"`
	Notes          []string `json:"notes"`
	// names spells the fields WriteText names (Input.Names).
	names config.Names
}

// ScenarioInfo says what was simulated.
type ScenarioInfo struct {
	Name       string   `json:"name"`
	SavedTo    string   `json:"saved_to,omitempty"`
	Brokers    int      `json:"brokers"`
	NewBroker  int      `json:"new_broker"`
	DurationMs int64    `json:"duration_ms"`
	Horizon    []string `json:"horizon"` // what the duration covers
	SeedFrom   uint64   `json:"seed_from"`
	SeedTo     uint64   `json:"seed_to"`
	Runs       int      `json:"runs"`
	Steps      int64    `json:"steps"` // simulated events, all runs
}

// ResultSchemaVersion is the plan object's schema_version.
const ResultSchemaVersion = 1

// Make builds the plan: the scenario of the partition (to save with
// scenarios.Scenario.Marshal, or as the returned bytes, which are exactly
// what the runs used) and the result. Errors are *ToolError (bad tool
// output) or *InputError (a bad choice or value).
func Make(in Input) (*Result, *scenarios.Scenario, []byte, error) {
	if err := in.Env.validate(); err != nil {
		return nil, nil, nil, err
	}
	if in.SeedFrom == 0 && in.SeedTo == 0 {
		in.SeedFrom, in.SeedTo = DefaultSeedFrom, DefaultSeedTo
	}
	if in.SeedTo < in.SeedFrom || in.SeedTo-in.SeedFrom >= 10_000 {
		return nil, nil, nil, inputErr("Seeds", "want A..B with A <= B and at most 10000 seeds, got %d..%d", in.SeedFrom, in.SeedTo)
	}
	f, err := gather(&in)
	if err != nil {
		return nil, nil, nil, err
	}
	b := &builder{in: &in, f: f}
	sc, data, err := b.build()
	if err != nil {
		return nil, nil, nil, err
	}
	profiles := in.Profiles
	if len(profiles) == 0 {
		profiles = AllProfiles()
	}
	seeds := int(in.SeedTo - in.SeedFrom + 1)
	runOn, runOff := *sc, *sc
	runOn.DurationMs, runOff.DurationMs = b.runHorizons(len(profiles) * seeds)
	capOn, capOff := b.runCaps(runOn.DurationMs, runOff.DurationMs, len(profiles)*seeds)
	caps := map[harness.Strategy]int64{harness.LastTiered: capOn, harness.LocalLogStart: capOff}
	var jobs []job
	for _, p := range profiles {
		for seed := range campaign.SeedRange(in.SeedFrom, in.SeedTo) { // never wraps at 2^64-1
			for _, st := range harness.Strategies {
				jobs = append(jobs, job{profile: p, fixes: in.Fixes, seed: seed, strategy: st, maxSteps: caps[st], extrapolate: !b.neverCatchesUp})
			}
		}
	}
	outcomes := runAll(map[harness.Strategy]*scenarios.Scenario{harness.LastTiered: &runOn, harness.LocalLogStart: &runOff}, jobs, in.Workers)
	b.noteStopped(outcomes, capOn, capOff)
	r := &Result{SchemaVersion: ResultSchemaVersion, Topic: f.TP.Topic, Partition: f.TP.Partition, State: b.st,
		Scenario: ScenarioInfo{Name: sc.Name, SavedTo: in.SavePath, Brokers: sc.Brokers, NewBroker: sc.Brokers - 1,
			DurationMs: sc.DurationMs, Horizon: b.reasons, SeedFrom: in.SeedFrom, SeedTo: in.SeedTo,
			Runs: len(jobs)}}
	for _, o := range outcomes {
		r.Scenario.Steps += o.Steps
	}
	r.Fixes, r.names = in.Fixes.Names(), in.Names
	r.Profiles = summarize(b, sc, profiles, jobs, outcomes, map[harness.Strategy]int64{harness.LastTiered: runOn.DurationMs, harness.LocalLogStart: runOff.DurationMs})
	r.Recommendation = recommend(b, r)
	r.Assumptions, r.Notes = nonNil(b.assume), nonNil(b.notes)
	return r, sc, data, nil
}

// AllProfiles returns every behaviour profile, by name.
func AllProfiles() []model.Profile {
	var names []string
	for name := range model.Profiles {
		names = append(names, name)
	}
	slices.Sort(names)
	var out []model.Profile
	for _, name := range names {
		out = append(out, model.Profiles[name])
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
