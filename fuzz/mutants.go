package fuzz

import (
	"path/filepath"

	"tierfetch/campaign"
	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/scenarios"
)

// HarmlessMutants names the mutants no invariant can catch, with why: each
// would be a finding about the KIP, not a gap in the checks. There is none.
var HarmlessMutants = map[model.Mutant]string{}

// HuntProfiles names the profile a mutant is hunted under when it is not the
// KIP text's. There is none: every mutant is caught under the KIP text.
// empty-again (a follower that holds no records treats its LEO as 0) was
// once hunted under Kafka 4.3's rules: under the KIP text it bites only when
// an empty follower's LEO is above the leader's and the leader's log starts
// at 0 (KIP-405 truncates it; the mutant fetches on past the leader's end
// forever), which seeds 1..300 reached only when the generator's emptied
// tail (gen_emptied.go, coverage goal empty-follower-above-leader-end) was
// added.
var HuntProfiles = map[model.Mutant]model.Profile{}

// HuntProfile is the profile mutant m is hunted under: its own if it has
// one, else def.
func HuntProfile(m model.Mutant, def model.Profile) model.Profile {
	if p, ok := HuntProfiles[m]; ok {
		return p
	}
	return def
}

// MutantHunt is what a hunt for one mutant found.
type MutantHunt struct {
	Mutant   model.Mutant
	Caught   bool
	Seed     uint64
	Strategy harness.Strategy
	Run      harness.RunSummary
	// Shrunk is the failing scenario reduced, recording how it fails;
	// Before/After its sizes.
	Shrunk        *scenarios.Scenario
	Before, After Size
	Harmless      string
}

// SaveFile is the file the shrunk case of the hunt saves to in dir.
func (h MutantHunt) SaveFile(dir string) string { return filepath.Join(dir, h.Mutant.String()+".json") }

// Save writes the shrunk case of a hunt that caught its mutant to
// SaveFile(dir), whole, listed in the directory's manifest m first.
func (h MutantHunt) Save(dir string, m *outfile.Manifest) error {
	if err := m.Add(h.SaveFile(dir)); err != nil {
		return err
	}
	return WriteScenario(h.SaveFile(dir), h.Shrunk)
}

// Baseline caches unmutated runs so hunts compare against them once.
type Baseline struct {
	ok map[baselineKey]bool
	// MaxSteps is the work budget of every run of the hunts (0: the default).
	MaxSteps int64
	// Fixes are switched on in every run of the hunts (simrun mutants --fix).
	Fixes model.Fixes
}

type baselineKey struct {
	seed     uint64
	strategy harness.Strategy
}

// NewBaseline returns an empty cache.
func NewBaseline() *Baseline { return &Baseline{ok: map[baselineKey]bool{}} }

// OK reports whether the unmutated model passes seed under strategy.
func (b *Baseline) OK(sc *scenarios.Scenario, seed uint64, st harness.Strategy, p model.Profile) bool {
	k := baselineKey{seed, st}
	ok, seen := b.ok[k]
	if !seen {
		ok = harness.Execute(sc, harness.Options{Seed: seed, Strategy: st, Profile: p, Fixes: b.Fixes, MaxSteps: b.MaxSteps}).Outcome == harness.OutcomeOK
		b.ok[k] = ok
	}
	return ok
}

// HuntMutant runs generated seeds from..to with mutant m until a run fails
// with an unknown failure (one no known finding's mechanism explains) on a
// seed and strategy the unmutated model passes, then shrinks that scenario
// (at most shrinkRuns runs; 0 skips shrinking). A failure labelled with a
// known kind does not catch a mutant: a deliberate bug must never pass for a
// finding.
func HuntMutant(m model.Mutant, from, to uint64, strategies []harness.Strategy, p model.Profile, base *Baseline, shrinkRuns int) MutantHunt {
	h := MutantHunt{Mutant: m, Harmless: HarmlessMutants[m]}
	for seed := range campaign.SeedRange(from, to) {
		sc := gen.Generate(seed)
		for _, st := range strategies {
			if !base.OK(sc, seed, st, p) {
				continue
			}
			opt := harness.Options{Seed: seed, Strategy: st, Profile: p, Mutants: model.Mutants(0).With(m), Fixes: base.Fixes, MaxSteps: base.MaxSteps}
			r := harness.Execute(sc, opt)
			if r.Outcome == harness.OutcomeOK || r.Violation.Kind != "" {
				continue
			}
			h.Caught, h.Seed, h.Strategy, h.Run = true, seed, st, harness.Summarize(r)
			h.Before = SizeOf(sc)
			h.Shrunk, h.After = harness.WithRecord(sc, opt, h.Run), h.Before
			if shrinkRuns > 0 {
				s := ShrinkRun(sc, opt, shrinkRuns)
				h.Shrunk, h.After = s.Scenario, s.After
			}
			return h
		}
	}
	return h
}

// HuntAll hunts every mutant in turn (HuntMutant) on seeds from..to under
// both strategies, each under profile, or, unless explicit, under its own
// hunt profile (HuntProfile), every run with fixes. The unmutated baselines
// are shared by profile. done is told of each hunt, with the profile it ran
// under, as it ends.
func HuntAll(from, to uint64, profile model.Profile, explicit bool, fixes model.Fixes, maxSteps int64, shrinkRuns int,
	done func(MutantHunt, model.Profile)) {
	bases := map[string]*Baseline{}
	for m := model.Mutant(0); m < model.NumMutants; m++ {
		p := profile
		if !explicit {
			p = HuntProfile(m, profile)
		}
		if bases[p.Name()] == nil {
			bases[p.Name()] = NewBaseline()
			bases[p.Name()].MaxSteps, bases[p.Name()].Fixes = maxSteps, fixes
		}
		done(HuntMutant(m, from, to, harness.Strategies, p, bases[p.Name()], shrinkRuns), p)
	}
}
