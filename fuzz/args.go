package fuzz

import (
	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/outfile"
)

// SweepArgs are a sweep's settings as 'simrun sweep' takes them.
type SweepArgs struct {
	Seeds, Strategy, Profile, Mutant, Fix, Shard, Out, JSONL string
	Workers, Shrink, MaxSaved, MaxShrunk                     int
	CheckDeterminism                                         bool
	MaxSteps                                                 int64
	ResumeFrom                                               *uint64 // nil: from the first seed
}

// MaxSweepSeeds bounds the seeds one sweep process runs: a billion seeds
// take about three months of one core; a larger sweep is sharded.
const MaxSweepSeeds = 1_000_000_000

// NewSweepConfig checks a sweep's settings, each error naming its field
// (config.Error),
// and makes the output directory.
func NewSweepConfig(a SweepArgs) (SweepConfig, error) {
	c := SweepConfig{Mutant: a.Mutant, Fix: a.Fix, CheckDeterminism: a.CheckDeterminism, Shrink: a.Shrink, MaxSteps: a.MaxSteps,
		Workers: a.Workers, Out: a.Out, JSONL: a.JSONL, MaxSaved: a.MaxSaved, MaxShrunk: a.MaxShrunk}
	var err error
	if c.From, c.To, err = campaign.ParseSeeds(a.Seeds); err != nil {
		return c, config.Errorf("Seeds", "{Seeds}: %v", err)
	}
	if c.Strategies, err = harness.ParseStrategies(a.Strategy); err != nil {
		return c, err
	}
	if c.Profile, err = harness.ParseProfile(a.Profile); err != nil {
		return c, err
	}
	if a.Workers < 1 || a.Workers > 1024 {
		return c, config.Errorf("Workers", "{Workers}: want 1..1024, got %d", a.Workers)
	}
	if c.Mutants, err = harness.ParseMutants(a.Mutant); err != nil {
		return c, err
	}
	if c.Fixes, err = harness.ParseFixes(a.Fix); err != nil {
		return c, err
	}
	if a.Shrink < 0 {
		return c, config.Errorf("Shrink", "{Shrink}: want >= 0, got %d", a.Shrink)
	}
	if err := CheckCaps(a.MaxSaved, a.MaxShrunk); err != nil {
		return c, err
	}
	if c.Shard, err = campaign.ParseShard(a.Shard); err != nil {
		return c, config.Errorf("Shard", "{Shard}: %v", err)
	}
	if err := outfile.EnsureDir(a.Out); err != nil {
		return c, config.Errorf("Out", "{Out}: %v", err)
	}
	c.Resume = c.From
	if r := a.ResumeFrom; r != nil {
		if *r < c.From || *r > c.To {
			return c, config.Errorf("ResumeFrom", "{ResumeFrom}: seed %d outside {Seeds} %d..%d", *r, c.From, c.To)
		}
		c.Resume = *r
	}
	c.Fresh = c.Shard == campaign.Whole && c.Resume == c.From
	if n := c.jobs().Count(); n > MaxSweepSeeds {
		return c, config.Errorf("Seeds", "{Seeds}: %d seeds for this process, at most %d: split the sweep with {Shard} K/N", n, MaxSweepSeeds)
	}
	return c, nil
}

// CheckCaps checks the caps MaxSaved and MaxShrunk.
func CheckCaps(maxSaved, maxShrunk int) error {
	if maxSaved < 0 || maxSaved > MaxSavedLimit {
		return config.Errorf("MaxSaved", "{MaxSaved}: want 0..%d, got %d", MaxSavedLimit, maxSaved)
	}
	if maxShrunk < 0 || maxShrunk > MaxSavedLimit {
		return config.Errorf("MaxShrunk", "{MaxShrunk}: want 0..%d, got %d", MaxSavedLimit, maxShrunk)
	}
	return nil
}

// MaxSavedLimit bounds MaxSaved: the failures saved are kept in memory
// until the sweep ends.
const MaxSavedLimit = 1_000_000
