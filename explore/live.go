package explore

import "tierfetch/harness"

// Liveness continuations, memoized: from a state a bound cut, the run goes
// on with alternative 0 at every choice through the heal to the end, and
// its verdict (no violation, or the known finding it ran into) is recorded
// for the states it went through. A later continuation that reaches one of
// them takes that verdict and stops: the rest of the run is a function of
// the state (the hash covers everything a later step reads, the checker's
// record included).

// memoFirst is how many first steps of a continuation are hashed (two
// continuations from siblings tend to meet within a few steps); after
// those, the state is hashed at the first step of every period of
// simulated time that a seeded run takes about memoEvery steps to cross
// (continuations that met stay together, so they meet again at those
// instants; a hash costs tens of steps on a long scenario's large states).
const (
	memoFirst = 8
	memoEvery = 64
)

// memoOff, set by tests and benchmarks, runs every continuation to its
// end (to measure what the memo saves and check it changes no verdict).
var memoOff bool

// continuation runs n's path on to the end with alternative 0 at every
// later choice (no further faults, fast network, no remote failure).
func (x *explorer) continuation(n *node, budget int64) {
	x.res.LivenessChecked++
	if memoryHook != nil {
		memoryHook(x)
	}
	if v, ok := x.memo[n.hash]; ok && !memoOff {
		x.memoHit(v)
		return
	}
	if x.res.ContinuationSteps >= budget {
		x.res.LivenessCut++ // spent before it began (a memoized verdict is still taken, above)
		x.res.LivenessChecked--
		return
	}
	c := x.continued(n)
	defer x.drop(c)
	period := max(1, x.res.ScenarioMs*memoEvery/max(1, x.res.ScenarioSteps))
	mark := c.NowMs()/period + 1
	hashes := []uint64{n.hash}
	steps := 0
	for c.Done() == nil {
		if steps%stopEvery == 0 && x.interrupted() {
			x.res.LivenessChecked-- // cut short: not checked
			return
		}
		if x.res.ContinuationSteps >= budget {
			x.res.LivenessCut++ // the budget ran out inside it: not checked
			x.res.LivenessChecked--
			return
		}
		c.Step()
		steps++
		x.res.ContinuationSteps++
		if c.Done() != nil {
			break
		}
		if memoOff || steps > memoFirst && c.NowMs() < mark*period {
			continue
		}
		mark = c.NowMs()/period + 1
		h := c.Hash()
		if v, ok := x.memo[h]; ok {
			x.remember(hashes, v)
			x.memoHit(v)
			return
		}
		hashes = append(hashes, h)
	}
	r := c.Done()
	switch {
	case r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness:
		x.violation(n.path.all(), r)
		if x.stop || r.Violation.Kind == "" {
			return
		}
		x.remember(hashes, memoKnown)
	case r.Outcome != harness.OutcomeOK:
		x.res.BudgetCut++ // the run's work budget cut it: a path cut, not a verdict
		x.res.LivenessStepsCut++
		x.res.LivenessChecked--
	default:
		x.remember(hashes, memoOK)
	}
}

// continued is the run a continuation from n steps: n's state itself
// when it is a fork (the search is done with it: nothing reads a cut
// state after its continuation), else a fork of it, and n's state is
// rebuilt first if the memory budget dropped it. Its steps do not note
// their inputs: the reduction is done.
func (x *explorer) continued(n *node) *harness.Run {
	s := &harness.Script{Lost: x.cfg.Lost}
	run := n.run
	if run == nil {
		run = x.rebuild(n, int(n.depth))
	} else {
		n.run = nil
	}
	c := run
	if !run.Forked() {
		c = x.fork(run, s)
		x.drop(run)
	}
	c.Continue(s)
	return c
}

// remember records verdict v for the states hashes, while the memory
// budget allows.
func (x *explorer) remember(hashes []uint64, v int) {
	for _, h := range hashes {
		if x.mem.fixed+x.mem.clones+memoBytes > x.mem.budget {
			return
		}
		if _, ok := x.memo[h]; !ok {
			x.memo[h] = v
			x.mem.fixed += memoBytes
			x.mem.note()
		}
	}
}

// memoHit takes a memoized verdict: a known finding's counts once more.
func (x *explorer) memoHit(v int) {
	x.res.MemoHits++
	if v != memoOK {
		x.res.KnownCount++
	}
}
