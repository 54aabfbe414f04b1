package harness_test

import (
	"testing"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestCloneIsIndependent: a run cloned mid-way and both copies stepped to
// the end, the original first, give Execute's digest: the clone shares
// nothing the original writes. The fixed script (alternative 0 everywhere)
// makes the continuation the same whichever copy takes it.
func TestCloneIsIndependent(t *testing.T) {
	compared := 0
	defer func() { t.Logf("%d clones compared", compared) }()
	scs := append(scenarios.Named(), fuzz.Generate(11), fuzz.Generate(12))
	for _, sc := range scs {
		for _, st := range harness.Strategies {
			opt := harness.Options{Strategy: st, Chooser: &harness.Script{}}
			want := harness.Execute(sc, opt)
			if want.Steps > 200_000 {
				continue
			}
			for _, at := range []int64{1, want.Steps / 3, want.Steps - 1} {
				x := harness.Start(sc, harness.Options{Strategy: st, Chooser: &harness.Script{}})
				for x.Done() == nil && x.Steps() < at {
					x.Step()
				}
				if x.Done() != nil {
					continue
				}
				compared++
				h := x.Hash()
				c := x.Clone(&harness.Script{})
				if c.Hash() != h {
					t.Fatalf("%s/%s: clone's state hash differs at step %d", sc.Name, st, at)
				}
				for x.Done() == nil {
					x.Step()
				}
				for c.Done() == nil {
					c.Step()
				}
				for i, got := range []*harness.RunResult{x.Done(), c.Done()} {
					if got.Digest != want.Digest || got.Outcome != want.Outcome || got.Steps != want.Steps {
						t.Errorf("%s/%s cloned at step %d, copy %d: %s %s %d steps, Execute %s %s %d", sc.Name, st, at, i,
							got.Digest, got.Outcome, got.Steps, want.Digest, want.Outcome, want.Steps)
					}
				}
			}
		}
	}
}
