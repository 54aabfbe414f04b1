package harness

import (
	"encoding/hex"
	"fmt"
	"strings"

	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// RunSummary is what a sweep keeps of one run: enough to count, group and
// replay it, without the cluster.
type RunSummary struct {
	Strategy  Strategy
	Outcome   string
	Invariant string
	Kind      string
	Message   string
	Step      int64
	AtMs      int64
	Steps     int64
	Digest    string
	Coverage  [model.NumGoals]int64
}

// Known reports whether the run failed with a known finding.
func (r RunSummary) Known() bool { return r.Outcome != OutcomeOK && r.Kind != "" }

// Unknown reports whether the run failed in a way no known finding explains.
func (r RunSummary) Unknown() bool { return r.Outcome != OutcomeOK && r.Kind == "" }

// Summarize keeps what a sweep needs of a run.
func Summarize(r *RunResult) RunSummary {
	s := RunSummary{Strategy: r.Strategy, Outcome: r.Outcome, Steps: r.Steps, Digest: r.Digest, Coverage: r.Coverage}
	if f := r.Violation; f != nil {
		s.Invariant, s.Kind, s.Message, s.Step, s.AtMs = f.Invariant, f.Kind, f.Message, f.Step, f.AtMs
	}
	return s
}

// Record is the failure record of a run (its summary s), run with opt:
// its strategy, profile, mutants, fixes and work budget, its outcome and
// violation. nil for a run that passed.
func Record(opt Options, s RunSummary) *scenarios.Failure {
	if s.Outcome == OutcomeOK {
		return nil
	}
	p := opt.Profile
	if p == nil {
		p = model.KIP
	}
	f := &scenarios.Failure{Strategy: string(s.Strategy), Profile: p.Name(), Mutants: mutantList(opt.Mutants),
		Fixes: opt.Fixes.Names(), Outcome: s.Outcome,
		Violation: scenarios.FailureViolation{Invariant: s.Invariant, Kind: s.Kind, AtMs: s.AtMs, Step: s.Step, Message: s.Message}}
	if opt.MaxSteps != 0 && opt.MaxSteps != DefaultMaxSteps {
		f.MaxSteps = opt.MaxSteps
	}
	return f
}

// WithRecord is a copy of sc (sharing all but the record) that records
// how a run (its summary s), run with opt, failed.
func WithRecord(sc *scenarios.Scenario, opt Options, s RunSummary) *scenarios.Scenario {
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
	Strategy Strategy
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
	if f.MaxSteps > MaxStepsLimit {
		return r, fmt.Errorf("failure.max_steps: at most %d, got %d", int64(MaxStepsLimit), f.MaxSteps)
	}
	r.MaxSteps = f.MaxSteps
	switch f.Outcome {
	case OutcomeSafety, OutcomeLiveness, OutcomeBudget:
	default:
		return r, fmt.Errorf("failure.outcome: want %s, %s or %s, got %q", OutcomeSafety, OutcomeLiveness,
			OutcomeBudget, f.Outcome)
	}
	return r, nil
}

// KnownInvariants are the invariant names a run can report, and KnownKinds
// the known findings' kinds (TestKnownNamesAreComplete keeps both in step
// with package invariants). Shard files naming others are refused: those
// names become file names.
var (
	KnownInvariants = []string{invariants.OffsetOrder, invariants.RemoteCommitted, invariants.NoHole,
		invariants.ReplicaAgreement, invariants.RemoteAgreement, invariants.NoCommittedLoss, invariants.EpochLineage,
		invariants.HighestRemote, invariants.StaleLogStart, invariants.ISRMembership, invariants.Liveness, InvariantBudget}
	KnownKinds = []string{invariants.KindStaleHRO, invariants.KindUncleanElection, invariants.KindHROAfterTruncation, invariants.KindStaleLogStartCopyDisabled,
		invariants.KindStaleLogStartTieringOff, invariants.KindStaleLogStartUnfinishedSegment,
		invariants.KindTieredFollowerAfterDisable, invariants.KindFollowerGapAfterDisable,
		invariants.KindKafka43EPUOUnknownStall, invariants.KindKafka43AuxStateStall, invariants.KindStaleLocalLogStart}
)

// DigestLen is the length of a run's digest (digestString).
const DigestLen = 16

// ValidDigest reports whether s has the form of a run's digest.
func ValidDigest(s string) bool { return len(s) == DigestLen && isHex(s) }

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}
