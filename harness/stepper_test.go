package harness_test

import (
	"testing"

	"tierfetch/gen"
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
	scs := append(scenarios.Named(), gen.Generate(11), gen.Generate(12))
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

// TestForkIntoMatchesClone: a fork made in the memory of a dropped run
// (ForkInto; the dropped run is another scenario's) steps through the same
// states to the same outcome as a clone, and a copy taken of the dropped
// run before it was reused still ends as it would have: the fork writes
// nothing the dropped run shared.
func TestForkIntoMatchesClone(t *testing.T) {
	scs := append(scenarios.Named(), gen.Generate(11), gen.Generate(12), gen.Generate(13))
	compared := 0
	var spare, keep, ref *harness.Run // the dropped run, a copy of it, how the copy must end
	for _, sc := range scs {
		st := harness.LastTiered
		want := harness.Execute(sc, harness.Options{Strategy: st, Chooser: &harness.Script{}})
		if want.Steps > 5_000 || want.Steps < 8 {
			continue
		}
		for _, at := range []int64{1, want.Steps / 2} {
			x := harness.Start(sc, harness.Options{Strategy: st, Chooser: &harness.Script{}, StateHash: true})
			for x.Done() == nil && x.Steps() < at {
				x.Step()
			}
			if x.Done() != nil {
				continue
			}
			c := x.Clone(&harness.Script{})
			f := x.ForkInto(spare, &harness.Script{})
			next := x.Fork(&harness.Script{}) // the next scenario's spare
			for c.Done() == nil || f.Done() == nil {
				if c.Hash() != f.Hash() {
					t.Fatalf("%s from step %d: the fork's state differs from the clone's at step %d", sc.Name, at, c.Steps())
				}
				c.Step()
				f.Step()
			}
			if a, b := c.Done(), f.Done(); a.Outcome != b.Outcome || a.Steps != b.Steps || a.StateHash != b.StateHash {
				t.Fatalf("%s from step %d: clone %s at %d, fork %s at %d", sc.Name, at, a.Outcome, a.Steps, b.Outcome, b.Steps)
			}
			if keep != nil {
				for keep.Done() == nil {
					keep.Step()
				}
				if a, b := ref.Done(), keep.Done(); a.Outcome != b.Outcome || a.Steps != b.Steps || a.StateHash != b.StateHash {
					t.Fatalf("%s from step %d: a copy of the reused run ended %s at %d, before the reuse %s at %d", sc.Name, at,
						b.Outcome, b.Steps, a.Outcome, a.Steps)
				}
				compared++
			}
			spare, keep, ref = next, next.Clone(&harness.Script{}), next.Clone(&harness.Script{})
			for ref.Done() == nil { // how keep must end: run before spare is reused
				ref.Step()
			}
		}
	}
	if compared < 10 {
		t.Fatalf("only %d forks compared", compared)
	}
	t.Logf("%d forks compared", compared)
}
