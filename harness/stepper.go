package harness

import (
	"fmt"
	"slices"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// Run is a run driven one step at a time that can be cloned: simrun explore
// steps copies of one state down each alternative instead of re-running the
// path from the start. Execute is a loop over Step, so a Run stepped to its
// end gives Execute's result.
type Run struct {
	r        *runner
	res      *RunResult
	done     *RunResult
	maxSteps int64
}

// Start builds the run and takes its initial step (Execute's setup).
func Start(sc *scenarios.Scenario, opt Options) *Run { return newRun(sc, opt, true) }

// Done returns the run's result once it is over (an invariant broke, the
// scenario ended, the work budget ran out), nil before.
func (x *Run) Done() *RunResult { return x.done }

// Steps returns how many steps the run took.
func (x *Run) Steps() int64 { return x.r.steps }

// NowMs returns the run's simulated time, in milliseconds.
func (x *Run) NowMs() int64 { return x.r.sched.Now().Ms() }

// Hash returns the hash of the run's state (Options.StateHash).
func (x *Run) Hash() uint64 { return x.r.stateHash() }

// Stop ends the run where it is, with outcome ok, and returns its result.
func (x *Run) Stop() *RunResult {
	if x.done == nil {
		x.done = x.r.finish(x.res, nil, OutcomeOK)
	}
	return x.done
}

// Step takes one step: the input the chooser takes among those due, the
// model's answer, the views and the checks; the run is over after it when
// an invariant broke, the scenario ended, the work budget ran out or
// Options.StopAfter steps were taken. A no-op once the run is over.
func (x *Run) Step() {
	r := x.r
	if x.done != nil {
		return
	}
	ev, ok := r.next()
	if !ok || ev.kind == evEnd {
		if r.mp != nil {
			// The runs of RLM follower tasks the fleet folded into their
			// partitions' next steps, up to the end, are applied as a step's.
			r.f.SettleFolds(r.sched.Now())
			if f := r.afterStep(); f != nil {
				x.done = r.finish(x.res, f, OutcomeSafety)
				return
			}
			f := r.mp.liveness(r)
			if f != nil {
				x.done = r.finish(x.res, f, OutcomeLiveness)
				return
			}
			x.done = r.finish(x.res, nil, OutcomeOK)
			return
		}
		if v := r.checker.CheckLiveness(r.c); v != nil {
			x.done = r.finish(x.res, r.failure(v), OutcomeLiveness)
			return
		}
		x.done = r.finish(x.res, nil, OutcomeOK)
		return
	}
	if r.steps == x.maxSteps {
		left := sim.AtMs(r.sc.DurationMs + r.sc.HealMs).Sub(r.sched.Now()).Ms()
		x.done = r.finish(x.res, r.budgetFailure(fmt.Sprintf("stopped after %d steps at %s with %d ms of simulated time left: the work budget",
			r.steps, r.sched.Now(), left)), OutcomeBudget)
		return
	}
	r.steps++
	skipped := len(r.skipped)
	if r.opt.StateHash {
		r.noteInput(&ev)
	}
	r.apply(&ev)
	f := r.afterStep() // notes the model's refusal (EvSkipped) of the step's input
	r.rollOn()
	r.s.in.Refused = r.opt.StateHash && ev.kind == evFault && len(r.skipped) > skipped
	if f != nil {
		if r.mp != nil {
			// The partitions the step did not touch may hold RLM follower
			// runs folded before its input: they are applied as a step's,
			// so that every partition ends as the runs stepped one by one
			// left it. The run's violation stays the step's.
			r.f.SettleDue()
			r.afterStep()
		}
		x.done = r.finish(x.res, f, OutcomeSafety)
		return
	}
	if r.opt.StopAfter > 0 && r.steps >= r.opt.StopAfter {
		x.done = r.finish(x.res, nil, OutcomeOK)
	}
}

// Forked reports whether the run is a fork (Fork, ForkInto) or a copy
// of one: stepped after Rechoose, it steps as a fork of it would, so that
// a search done with the state can spare the copy.
func (x *Run) Forked() bool { return x.r.lean }

// Rechoose makes ch take the run's later choices, as Fork(ch) would for
// a copy: a search takes the last step from a state it drops afterwards on
// the state itself, saving the copy.
func (x *Run) Rechoose(ch Chooser) { x.r.opt.Chooser, x.r.choose = ch, ch }

// Continue is Rechoose for a run nobody copies or asks the input of any
// more (a search's liveness continuation): its steps no longer note their
// input (Input), nor its end the state's hash (RunResult.StateHash).
func (x *Run) Continue(ch Chooser) {
	x.Rechoose(ch)
	x.r.opt.StateHash = false
}

// Clone returns an independent copy of a run that is not over, whose later
// choices ch makes. Observers and the trace sink are not carried over, and
// the copy's failure report shows only the last trace line of its own last
// step (re-run the path for the whole tail): copying the tail of every
// state would cost more than the rest of the copy. A fork's (and a copy of
// a fork's) shows no trace line and no input event. The copy shares the
// original's step scratch (scratch): step and hash a run and its copies
// from one goroutine at a time.
func (x *Run) Clone(ch Chooser) *Run { return x.clone(ch, x.r.lean, nil) }

// Fork is Clone for a search, which reads of a copy's result only the
// outcome, the violation, the steps and the state: the copy keeps neither
// the event digest nor the built-in view (its result's Digest is empty,
// its Coverage, Replicas, Consumes and ISRChanges nil), nor the trace tail
// and input event of a failure report (its Violation's TraceTail and Event
// are empty), and its copies neither. The checker, the step and the state
// are Clone's: a fork steps to the same states, outcomes and violations. A
// many-partition run's fork is its Clone.
func (x *Run) Fork(ch Chooser) *Run { return x.clone(ch, x.r.mp == nil, nil) }

// ForkInto is Fork into spare, a run its owner drops (nil: a new one),
// whose memory the fork reuses: its run, cluster, broker and checker
// structures and the arrays only it holds (the harness's, the cluster's
// broker, segment and follower lists, the checker's per-broker and
// per-segment records). Nothing may use spare or its result afterwards;
// copies of spare are not touched (they share none of what is reused). A
// search that drops many states saves most of the allocation a copy
// makes. A many-partition run's is its Clone.
func (x *Run) ForkInto(spare *Run, ch Chooser) *Run {
	if spare == x {
		panic("harness: ForkInto a run into itself")
	}
	if x.r.mp != nil || spare != nil && spare.r.mp != nil {
		return x.clone(ch, false, nil)
	}
	return x.clone(ch, true, spare)
}

func (x *Run) clone(ch Chooser, lean bool, spare *Run) *Run {
	r := x.r
	if !r.lean {
		r.digest.Write(r.enc) // hashing in other chunks gives the same digest
		r.enc = r.enc[:0]
	}
	var n *runner
	var res *RunResult
	var old runner // the spare's arrays and structures
	out := spare
	if spare != nil {
		n, res, old = spare.r, spare.res, *spare.r
	} else {
		m := new(runMem)
		n, res, out = &m.r, &m.res, &m.run
	}
	*n = *r
	n.opt.Chooser, n.choose = ch, ch
	n.opt.Observers, n.opt.TraceSink = nil, nil
	n.sched = r.sched.CloneInto(&old.sched)
	n.msgs, n.ops = r.msgs.cloneInto(&old.msgs), r.ops.cloneInto(&old.ops)
	n.f = r.f.CloneInto(old.f)
	n.c = n.f.Parts[0]
	n.checker = r.checker.CloneInto(old.checker)
	n.timers = model.Reuse(old.timers, r.timers)
	n.cuts = model.Reuse(old.cuts, r.cuts)
	n.rolling = make([]rollingWait, len(r.rolling))
	for i, w := range r.rolling {
		n.rolling[i] = w
		n.rolling[i].parts = slices.Clone(w.parts)
	}
	n.egress = model.Reuse(old.egress, r.egress)
	n.res = r.res.clone()
	n.sent = model.Reuse(old.sent, r.sent)
	n.enc, n.line = nil, nil
	if n.lean = lean; lean {
		// A fork keeps no tail, nor the input of its step: its failure
		// report names neither (a search re-runs a failing path for them),
		// and copying each shown event for it cost 2-3% of a search's CPU.
		n.digest, n.view, n.keepTail = nil, nil, false
	} else {
		d := *r.digest
		n.digest = &d
		n.view = r.view.clone()
	}
	if !r.s.tailMade {
		r.s.cloneTail, r.s.tailMade = sim.NewRing[timedEvent](1), true
	}
	n.tail = r.s.cloneTail
	n.skipped = slices.Clip(r.skipped)
	n.stateDigests = slices.Clip(r.stateDigests)
	n.st.brokers = model.Reuse(old.st.brokers, r.st.brokers)
	if r.mp != nil {
		n.mp = r.mp.clone()
		n.checker, n.view = n.mp.checkers[0], n.mp.views[0]
	}
	*res = *x.res
	res.Fleet, res.Cluster = n.f, n.c
	*out = Run{r: n, res: res, maxSteps: x.maxSteps}
	return out
}

// runMem is a copy's run, runner and result, made in one allocation (a
// search makes copies at every step, many in fresh memory).
type runMem struct {
	run Run
	r   runner
	res RunResult
}
