package fuzz

import (
	"fmt"
	"strings"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// Record is the failure record of a run (its summary s), run with opt:
// its strategy, profile, mutants, fixes and work budget, its outcome and
// violation. nil for a run that passed.
func Record(opt harness.Options, s RunSummary) *scenarios.Failure {
	if s.Outcome == harness.OutcomeOK {
		return nil
	}
	p := opt.Profile
	if p == nil {
		p = model.KIP
	}
	f := &scenarios.Failure{Strategy: string(s.Strategy), Profile: p.Name(), Mutants: mutantList(opt.Mutants),
		Fixes: opt.Fixes.Names(), Outcome: s.Outcome,
		Violation: scenarios.FailureViolation{Invariant: s.Invariant, Kind: s.Kind, AtMs: s.AtMs, Step: s.Step, Message: s.Message}}
	if opt.MaxSteps != 0 && opt.MaxSteps != harness.DefaultMaxSteps {
		f.MaxSteps = opt.MaxSteps
	}
	return f
}

// WithRecord is a copy of sc (sharing all but the record) that records
// how a run (its summary s), run with opt, failed.
func WithRecord(sc *scenarios.Scenario, opt harness.Options, s RunSummary) *scenarios.Scenario {
	c := *sc
	c.Failure = Record(opt, s)
	return &c
}

func mutantList(m model.Mutants) []string {
	var names []string
	for i := model.Mutant(0); i < model.NumMutants; i++ {
		if m.Has(i) {
			names = append(names, i.String())
		}
	}
	return names
}

// Recorded is what a failure record asks a run to be: its strategy,
// profile, mutants and fixes (and both as --mutant and --fix take them)
// and work budget (0: the default).
type Recorded struct {
	Strategy harness.Strategy
	Profile  model.Profile
	Mutants  model.Mutants
	Mutant   string
	Fixes    model.Fixes
	Fix      string
	MaxSteps int64
}

// ReadRecord checks a failure record's names against what this simrun
// knows; errors name the member (failure.profile, ...).
func ReadRecord(f *scenarios.Failure) (Recorded, error) {
	var r Recorded
	st, err := ParseStrategies(f.Strategy)
	if err != nil || len(st) != 1 {
		return r, fmt.Errorf("failure.strategy: want local-log-start or last-tiered, got %q", f.Strategy)
	}
	r.Strategy = st[0]
	p, ok := model.Profiles[f.Profile]
	if !ok {
		return r, fmt.Errorf("failure.profile: want one of %s, got %q", ProfileNames(), f.Profile)
	}
	r.Profile = p
	for i, name := range f.Mutants {
		m, ok := model.MutantByName(name)
		if !ok {
			return r, fmt.Errorf("failure.mutants[%d]: unknown mutant %q (known: %s)", i, name, strings.Join(model.MutantNames(), ", "))
		}
		r.Mutants = r.Mutants.With(m)
	}
	r.Mutant = strings.Join(f.Mutants, ",")
	for i, name := range f.Fixes {
		x, ok := model.FixByName(name)
		if !ok {
			return r, fmt.Errorf("failure.fixes[%d]: unknown fix %q (known: %s)", i, name, strings.Join(model.FixNames(), ", "))
		}
		r.Fixes = r.Fixes.With(x)
	}
	r.Fix = strings.Join(f.Fixes, ",")
	if f.MaxSteps > harness.MaxStepsLimit {
		return r, fmt.Errorf("failure.max_steps: at most %d, got %d", int64(harness.MaxStepsLimit), f.MaxSteps)
	}
	r.MaxSteps = f.MaxSteps
	switch f.Outcome {
	case harness.OutcomeSafety, harness.OutcomeLiveness, harness.OutcomeBudget:
	default:
		return r, fmt.Errorf("failure.outcome: want %s, %s or %s, got %q", harness.OutcomeSafety, harness.OutcomeLiveness,
			harness.OutcomeBudget, f.Outcome)
	}
	return r, nil
}
