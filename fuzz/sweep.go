package fuzz

import (
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
)

// SeedResult is one seed of a sweep: its generated scenario run under each
// strategy.
type SeedResult struct {
	Seed uint64
	Runs []harness.RunSummary
}

// SweepSeed generates seed's scenario and runs it under each strategy.
func SweepSeed(seed uint64, strategies []harness.Strategy, p model.Profile) SeedResult {
	return SweepSeedWith(seed, strategies, harness.Options{Profile: p})
}

// SweepSeedWith is SweepSeed with base options (profile, mutants); the seed
// and strategy of opt are set per run.
func SweepSeedWith(seed uint64, strategies []harness.Strategy, opt harness.Options) SeedResult {
	sc := gen.Generate(seed)
	out := SeedResult{Seed: seed}
	for _, st := range strategies {
		opt.Seed, opt.Strategy = seed, st
		out.Runs = append(out.Runs, harness.Summarize(harness.Execute(sc, opt)))
	}
	return out
}

// SweepTotals aggregates seed results. Add them in seed order and the totals
// do not depend on how many workers produced them.
type SweepTotals struct {
	Seeds, Runs, Steps int64
	Strategies         []harness.Strategy
	// Unknown failures by invariant, then by strategy.
	Failures map[string]map[harness.Strategy]int64
	// Known findings by kind, then by strategy.
	Findings map[string]map[harness.Strategy]int64
	// Coverage per strategy, per goal: how many runs reached it.
	Coverage map[harness.Strategy]*[model.NumGoals]int64
	// FirstFailures holds the first Keep unknown failures, in seed order.
	FirstFailures []Failed
	// Keep bounds FirstFailures (NewSweepTotals: DefaultMaxSaved).
	Keep int
	// UnknownOutcomes counts the unknown failures by outcome, all of them.
	UnknownOutcomes map[string]int64
	// FirstFindings holds the first seed of each known kind.
	FirstFindings map[string]Failed
}

// Failed names one failing run of a sweep.
type Failed struct {
	Seed uint64
	Run  harness.RunSummary
}

// NewSweepTotals returns empty totals for the given strategies.
func NewSweepTotals(strategies []harness.Strategy) *SweepTotals {
	t := &SweepTotals{Strategies: strategies, Failures: map[string]map[harness.Strategy]int64{},
		Findings: map[string]map[harness.Strategy]int64{}, Coverage: map[harness.Strategy]*[model.NumGoals]int64{},
		FirstFindings: map[string]Failed{}, Keep: DefaultMaxSaved, UnknownOutcomes: map[string]int64{}}
	for _, st := range strategies {
		t.Coverage[st] = &[model.NumGoals]int64{}
	}
	return t
}

// DefaultMaxSaved is how many unknown failures a sweep saves as scenario
// files, the first in seed order (--max-saved); DefaultMaxShrunk how many
// saved failures it shrinks (--max-shrunk); ListedFailures how many its
// summary lists with their replay commands.
const (
	DefaultMaxSaved  = 1000
	DefaultMaxShrunk = 20
	ListedFailures   = 10
)

// Add folds one seed's result in.
func (t *SweepTotals) Add(r SeedResult) {
	t.Seeds++
	for _, run := range r.Runs {
		t.Runs++
		t.Steps += run.Steps
		cov := t.Coverage[run.Strategy]
		for g, n := range run.Coverage {
			if n > 0 {
				cov[g]++
			}
		}
		switch {
		case run.Known():
			count(t.Findings, run.Kind, run.Strategy)
			if _, ok := t.FirstFindings[run.Kind]; !ok {
				t.FirstFindings[run.Kind] = Failed{r.Seed, run}
			}
		case run.Unknown():
			count(t.Failures, run.Invariant, run.Strategy)
			t.UnknownOutcomes[run.Outcome]++
			if len(t.FirstFailures) < t.Keep {
				t.FirstFailures = append(t.FirstFailures, Failed{r.Seed, run})
			}
		}
	}
}

func count(m map[string]map[harness.Strategy]int64, key string, st harness.Strategy) {
	if m[key] == nil {
		m[key] = map[harness.Strategy]int64{}
	}
	m[key][st]++
}

// UnknownFailures returns how many runs failed with no known finding.
func (t *SweepTotals) UnknownFailures() int64 {
	var n int64
	for _, by := range t.Failures {
		for _, c := range by {
			n += c
		}
	}
	return n
}

// GoalSeeds is the sweep size that reaches every coverage goal: seeds
// 1..GoalSeeds do (TestGeneratedScenariosReachEveryGoal), so a goal a sweep
// of that many seeds misses is worth a look, and one a shorter sweep
// misses is not.
const GoalSeeds = 300
