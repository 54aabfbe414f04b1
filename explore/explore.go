package explore

import (
	"fmt"
	"slices"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// Fault kinds --faults names.
const (
	FaultCrash        = "crash"
	FaultRestart      = "restart"
	FaultElect        = "elect"
	FaultPartition    = "partition"
	FaultRemoteOutage = "remote-outage"
)

// FaultKinds lists them in the order candidates are built.
var FaultKinds = []string{FaultCrash, FaultRestart, FaultElect, FaultPartition, FaultRemoteOutage}

// DefaultFaultMs is how long an injected partition or remote outage lasts.
const DefaultFaultMs = 1000

// Config says what to explore and how far.
type Config struct {
	Scenario *scenarios.Scenario
	Strategy harness.Strategy
	Profile  model.Profile
	Mutants  model.Mutants
	// Depth bounds the steps of a path (0: DefaultDepth).
	Depth int
	// MaxStates stops the search after that many distinct states (0:
	// DefaultMaxStates): the work budget.
	MaxStates int
	// Faults are the kinds of fault that may be injected before any step
	// until the heal, on any replica (FaultKinds); FaultMs is how long an
	// injected partition or outage lasts (0: DefaultFaultMs).
	Faults  []string
	FaultMs int64
	// Lost adds a third network latency class: the message is lost.
	Lost bool
	// Liveness runs, from every state the depth bound cuts, the
	// continuation that takes alternative 0 at every later choice (no more
	// faults, fast network, no remote failure) through the heal to the end,
	// and checks that every replica joins the ISR.
	Liveness bool
	// Shard, with N > 1, keeps only the part of the search below the
	// states of the first level holding at least splitStates*N states
	// whose hash is K mod N.
	Shard Shard
	// MaxSteps is each run's work budget (0: the harness default).
	MaxSteps int64
	// FromMs, when > 0, starts the search at the first step at or after
	// that simulated time, reached by taking alternative 0 at every choice
	// before (no fault, fast network, the event scheduled first): the
	// search explores around a point of a long scenario. Every state it
	// visits is still reachable by simrun run (the prefix is part of the
	// counterexample's schedule); the prefix's alternatives are not
	// explored.
	FromMs int64
	// Stopped, when set, is asked before each state is expanded: true
	// stops the search (Result.Interrupted), e.g. on a signal.
	Stopped func() bool
	// Progress, when set, is called after each level with the depth
	// reached, the distinct states so far and the level's size.
	Progress func(depth int, states int64, level int)
	// Reexecute re-runs every path from the start instead of stepping
	// clones of the parent state (slower; kept to measure and to cross-check).
	Reexecute bool
}

// Shard is K of N.
type Shard struct{ K, N uint64 }

// Defaults.
const (
	DefaultDepth     = 12
	DefaultMaxStates = 1_000_000
	splitStates      = 4
)

// Result is what a search found.
type Result struct {
	States      int64 // distinct states visited
	Transitions int64 // steps taken from a visited state (duplicates included)
	Runs        int64 // harness runs (re-executions from the start)
	StepsRun    int64 // steps those runs took
	Depth       int   // the deepest level reached
	Frontier    int   // states at the last level, not expanded further
	Ended       int64 // paths that reached the end of the scenario within the bound
	// Exhausted: every state within the depth bound was visited (the
	// search was not cut by MaxStates); Complete: and no path was cut by
	// the depth bound either (the whole state space is explored).
	Exhausted, Complete bool
	LivenessChecked     int64 // continuations run from the frontier
	// SharedStates (sharded searches) counts the states every shard
	// visits before the frontier is split: merge counts them once.
	SharedStates int64
	// Violation is the first violation no known finding explains (a
	// shortest path to it); the search stops there. nil when none.
	Violation *Counterexample
	// Known holds, per known-finding kind (invariants.Kind*), the first
	// (shortest) path to it; the search goes on past them without
	// expanding the violating state.
	Known []*Counterexample
	// KnownCount counts the violations a known finding explains.
	KnownCount int64
	// Interrupted: Config.Stopped stopped the search; the figures are
	// those of the part done.
	Interrupted bool
	// BudgetCut counts paths a run's work budget (MaxSteps) cut: the
	// search is then not exhausted.
	BudgetCut int64
}

// Counterexample is a path to a violation, as a scenario file that simrun
// run replays (its Explore schedule), with what broke.
type Counterexample struct {
	Scenario *scenarios.Scenario
	Outcome  string
	Failure  *harness.Failure
	Steps    int64 // the step that broke (for liveness: where the continuation began)
	Faults   []Injected
	Choices  int // picks in the schedule
}

// Injected is a fault the path injected.
type Injected struct {
	AtMs  int64
	Event scenarios.Event
}

// node is a state in the frontier: the picks that reach it, and the state
// itself unless the search re-executes (or the frontier outgrew
// maxClonedFrontier).
type node struct {
	picks []int
	hash  uint64
	run   *harness.Run
}

// maxClonedFrontier bounds how many states of a level are kept as clones
// (about 16 KiB each on the tiny fixtures); the rest keep only their
// picks and are re-executed.
var maxClonedFrontier = 20_000 // a variable for tests

// Candidates returns the faults kinds allow on sc's brokers, durations
// faultMs, in a fixed order.
func Candidates(sc *scenarios.Scenario, kinds []string, faultMs int64) ([]scenarios.Event, error) {
	if faultMs <= 0 {
		faultMs = DefaultFaultMs
	}
	brokers := slices.Clone(sc.Replicas)
	for _, e := range sc.Events {
		if e.Type == scenarios.EventAddReplica && !slices.Contains(brokers, *e.Broker) {
			brokers = append(brokers, *e.Broker)
		}
	}
	slices.Sort(brokers)
	var out []scenarios.Event
	one := func(typ string, b int) scenarios.Event { return scenarios.Event{Type: typ, Broker: &b} }
	for _, k := range kinds {
		switch k {
		case FaultCrash, FaultRestart, FaultElect:
			typ := map[string]string{FaultCrash: scenarios.EventCrash, FaultRestart: scenarios.EventRestart,
				FaultElect: scenarios.EventElectLeader}[k]
			for _, b := range brokers {
				out = append(out, one(typ, b))
			}
		case FaultPartition:
			for _, b := range brokers {
				out = append(out, scenarios.Event{Type: scenarios.EventNetworkPartition, Brokers: []int{b}, DurationMs: faultMs})
			}
		case FaultRemoteOutage:
			out = append(out, scenarios.Event{Type: scenarios.EventRemoteOutage, DurationMs: faultMs})
		default:
			return nil, fmt.Errorf("unknown fault %q (want some of %v)", k, FaultKinds)
		}
	}
	return out, nil
}

// explorer is one search.
type explorer struct {
	cfg    Config
	sc     *scenarios.Scenario // with the candidate faults in its schedule
	seen   map[uint64]struct{}
	res    Result
	script harness.Script
	next   []node
	stop   bool // a violation or the state budget ended the search
	// baseSteps is the steps of the prefix (FromMs) below the root.
	baseSteps int64
	// nondet is set when re-running a path did not give what the search
	// saw; it ends the search.
	nondet *NondeterminismError
}

// NondeterminismError is what Run returns when re-running a path from the
// start does not end in the violation the search saw at the end of that
// path: the model or the harness is not deterministic (a bug of tierfetch,
// not of the protocol), so no counterexample can be trusted. The Result
// Run returns beside it holds the figures of the part searched.
type NondeterminismError struct {
	Picks    []int  // the path's picks
	Explored string // what the search saw at its end
	Rerun    string // what re-running it from the start gave
}

func (e *NondeterminismError) Error() string {
	return fmt.Sprintf("NONDETERMINISM: re-running the path %v from the start gives %s, the search saw %s "+
		"(the model or harness depends on something besides the schedule: a bug of tierfetch)", e.Picks, e.Rerun, e.Explored)
}

// describe prints a run's outcome and violation for NondeterminismError.
func describe(r *harness.RunResult) string {
	if r.Violation == nil {
		return fmt.Sprintf("%s at step %d", r.Outcome, r.Steps)
	}
	return fmt.Sprintf("%s %s at step %d (t=%d ms)", r.Outcome, r.Violation.Invariant, r.Steps, r.Violation.AtMs)
}

// rerunHook, set by tests, alters the result of re-running a violating
// path (to inject nondeterminism).
var rerunHook func(*harness.RunResult)

// Run explores cfg's scenario breadth first.
func Run(cfg Config) (*Result, error) {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultDepth
	}
	if cfg.MaxStates <= 0 {
		cfg.MaxStates = DefaultMaxStates
	}
	if cfg.Profile == nil {
		cfg.Profile = model.KIP
	}
	if cfg.Shard.N == 0 {
		cfg.Shard = Shard{0, 1}
	}
	if cfg.Shard.K >= cfg.Shard.N {
		return nil, fmt.Errorf("shard %d/%d: want K < N", cfg.Shard.K, cfg.Shard.N)
	}
	faults, err := Candidates(cfg.Scenario, cfg.Faults, cfg.FaultMs)
	if err != nil {
		return nil, err
	}
	sc := *cfg.Scenario
	sc.Explore = &scenarios.Schedule{Faults: faults, Lost: cfg.Lost, Choices: []int{}}
	x := &explorer{cfg: cfg, sc: &sc, seen: map[uint64]struct{}{}}
	x.search()
	if x.res.BudgetCut > 0 || x.nondet != nil {
		x.res.Exhausted, x.res.Complete = false, false
	}
	if x.nondet != nil {
		return &x.res, x.nondet
	}
	return &x.res, nil
}

func (x *explorer) options(ch harness.Chooser, stop int64) harness.Options {
	return harness.Options{Strategy: x.cfg.Strategy, Profile: x.cfg.Profile, Mutants: x.cfg.Mutants,
		Chooser: ch, StopAfter: stop, StateHash: true, MaxSteps: x.cfg.MaxSteps}
}

// run re-executes the path picks from the start for stop steps (-1: the
// initial state only; 0: to the end); x.script.Points holds every choice
// point it met when record is set.
func (x *explorer) run(picks []int, stop int64, record bool) *harness.RunResult {
	x.script = harness.Script{Picks: picks, Lost: x.cfg.Lost, Record: record, Points: x.script.Points[:0]}
	r := harness.Execute(x.sc, x.options(&x.script, stop))
	x.res.Runs++
	x.res.StepsRun += r.Steps
	return r
}

func (x *explorer) search() {
	level := []node{{}} // the virtual root: its children are the initial states
	depth := -1
	if x.cfg.FromMs > 0 {
		root, ok := x.prefix()
		if !ok {
			return
		}
		level, depth = []node{root}, 0
	}
	split := x.cfg.Shard.N <= 1
	for ; ; depth++ {
		x.next = nil
		for i := range level {
			if x.interrupted() {
				return
			}
			if level[i].run == nil && depth >= 0 && !x.cfg.Reexecute {
				// Beyond maxClonedFrontier: rebuild the state once, then
				// step copies of it like the others.
				level[i].run = x.rebuild(level[i], x.baseSteps+int64(depth))
			}
			if level[i].run != nil {
				x.expandClone(level[i])
			} else {
				x.expand(level[i], x.baseSteps+int64(depth)+1)
			}
			level[i].run = nil // let the parent state go
			if x.stop {
				return
			}
		}
		if depth >= 0 {
			x.res.Depth = depth + 1
		}
		if x.cfg.Progress != nil {
			x.cfg.Progress(x.res.Depth, x.res.States, len(x.next))
		}
		if !split && len(x.next) >= splitStates*int(x.cfg.Shard.N) {
			x.res.SharedStates = x.res.States
			x.next, split = x.keepShard(x.next), true
		}
		if len(x.next) == 0 {
			x.res.Exhausted, x.res.Complete = true, true
			return
		}
		if depth+1 == x.cfg.Depth {
			x.res.Frontier = len(x.next)
			x.res.Exhausted = true
			if x.cfg.Liveness {
				for _, n := range x.next {
					if x.interrupted() {
						x.res.Exhausted = false
						return
					}
					if x.continuation(n); x.stop {
						x.res.Exhausted = false
						return
					}
				}
			}
			return
		}
		level = x.next
	}
}

// prefix runs alternative 0 at every choice up to FromMs and returns the
// state there as the search's root; false when the run ended (or broke an
// invariant) before.
func (x *explorer) prefix() (node, bool) {
	s := &harness.Script{Lost: x.cfg.Lost, Record: true}
	run := harness.Start(x.sc, x.options(s, 0))
	for run.Done() == nil && run.NowMs() < x.cfg.FromMs {
		run.Step()
		x.res.StepsRun++
	}
	picks := make([]int, len(s.Points))
	if r := run.Done(); r != nil {
		if r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
			x.violation(picks, r)
		} else {
			x.res.Exhausted, x.res.Complete = true, true
		}
		return node{}, false
	}
	x.baseSteps = run.Steps()
	h := run.Hash()
	x.seen[h] = struct{}{}
	x.res.States++
	return node{picks: picks, hash: h, run: run.Clone(&harness.Script{Lost: x.cfg.Lost})}, true
}

// interrupted asks Config.Stopped.
func (x *explorer) interrupted() bool {
	if x.cfg.Stopped != nil && x.cfg.Stopped() {
		x.res.Interrupted, x.stop = true, true
	}
	return x.res.Interrupted
}

// keepShard keeps the states of level this shard owns.
func (x *explorer) keepShard(level []node) []node {
	var out []node
	for _, n := range level {
		if n.hash%x.cfg.Shard.N == x.cfg.Shard.K {
			out = append(out, n)
		}
	}
	return out
}

// visit takes the state a step led to: a violation, the end of the
// scenario, the work budget, or a state new or already seen.
func (x *explorer) visit(picks []int, r *harness.RunResult, hash func() uint64, run *harness.Run) {
	x.res.Transitions++
	switch {
	case r != nil && (r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness):
		x.violation(picks, r)
		return
	case r != nil && r.Outcome != harness.OutcomeOK:
		x.res.BudgetCut++ // the work budget: the path is cut
		return
	}
	h := hash()
	if _, dup := x.seen[h]; dup {
		return
	}
	x.seen[h] = struct{}{}
	x.res.States++
	if r != nil {
		x.res.Ended++ // the scenario ended: a leaf
	} else {
		if run != nil && len(x.next) >= maxClonedFrontier {
			run = nil
		}
		x.next = append(x.next, node{picks: picks, hash: h, run: run})
	}
	if x.res.States >= int64(x.cfg.MaxStates) {
		x.stop = true
	}
}

// expand re-runs n's path with every alternative of its next step (stop:
// the steps that makes, 0 for the initial step).
func (x *explorer) expand(n node, stop int64) {
	base := len(n.picks)
	picks := slices.Clone(n.picks)
	run := stop
	if stop == 0 {
		run = -1 // harness: the initial step only
	}
	for !x.stop {
		r := x.run(picks, run, true)
		pts := slices.Clone(x.script.Points)
		full := make([]int, len(pts))
		for i, p := range pts {
			full[i] = p.Pick
		}
		ended := r
		if r.Outcome == harness.OutcomeOK && (run < 0 || r.Steps == run) {
			ended = nil // stopped where asked: not over
		}
		var state *harness.Run
		if ended == nil && !x.cfg.Reexecute {
			state = harness.Start(x.sc, x.options(&harness.Script{Picks: full, Lost: x.cfg.Lost}, 0))
			for state.Steps() < max(run, 0) && state.Done() == nil {
				state.Step()
			}
		}
		x.visit(full, ended, func() uint64 { return r.StateHash }, state)
		j := len(pts) - 1
		for j >= base && pts[j].Pick+1 >= pts[j].N {
			j--
		}
		if j < base {
			return
		}
		picks = append(full[:j:j], pts[j].Pick+1)
	}
}

// rebuild re-runs n's path from the start to its state, steps steps in.
func (x *explorer) rebuild(n node, steps int64) *harness.Run {
	x.res.Runs++
	run := harness.Start(x.sc, x.options(&harness.Script{Picks: n.picks, Lost: x.cfg.Lost}, 0))
	for run.Done() == nil && run.Steps() < steps {
		run.Step()
		x.res.StepsRun++
	}
	return run
}

// expandClone steps a copy of n's state down every alternative of its
// next step.
func (x *explorer) expandClone(n node) {
	var suffix []int
	base := len(n.picks)
	for !x.stop {
		s := &harness.Script{Picks: suffix, Lost: x.cfg.Lost, Record: true}
		c := n.run.Clone(s)
		c.Step()
		x.res.StepsRun++
		full := append(slices.Clip(n.picks), make([]int, len(s.Points))...)
		for i, p := range s.Points {
			full[base+i] = p.Pick
		}
		x.visit(full, c.Done(), c.Hash, c)
		j := len(s.Points) - 1
		for j >= 0 && s.Points[j].Pick+1 >= s.Points[j].N {
			j--
		}
		if j < 0 {
			return
		}
		suffix = append(full[base:base+j:base+j], s.Points[j].Pick+1)
	}
}

// violation records the path picks to a violation, re-running it from the
// start to learn every choice point's kind, the whole trace tail, and to
// confirm it. A known finding is kept (the first of its kind) and the
// search goes on; any other ends it.
func (x *explorer) violation(picks []int, done *harness.RunResult) {
	r := x.run(picks, 0, true)
	if rerunHook != nil {
		rerunHook(r)
	}
	if r.Outcome != done.Outcome || r.Violation == nil || r.Violation.Invariant != done.Violation.Invariant {
		x.nondet = &NondeterminismError{Picks: slices.Clone(picks), Explored: describe(done), Rerun: describe(r)}
		x.stop = true
		return
	}
	if k := r.Violation.Kind; k != "" {
		x.res.KnownCount++
		if !slices.ContainsFunc(x.res.Known, func(c *Counterexample) bool { return c.Failure.Kind == k }) {
			x.res.Known = append(x.res.Known, x.counterexample(picks, r, x.script.Points))
		}
		return
	}
	x.res.Violation = x.counterexample(picks, r, x.script.Points)
	x.stop = true
}

// continuation runs n's path on to the end with alternative 0 at every
// later choice (no further faults, fast network, no remote failure).
func (x *explorer) continuation(n node) {
	x.res.LivenessChecked++
	if n.run == nil {
		if r := x.run(n.picks, 0, false); r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
			x.violation(n.picks, r)
		}
		return
	}
	c := n.run.Clone(&harness.Script{Lost: x.cfg.Lost})
	for c.Done() == nil {
		c.Step()
		x.res.StepsRun++
	}
	if r := c.Done(); r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
		x.violation(n.picks, r)
	}
}

// counterexample writes the path as a scenario file: the scenario with a
// schedule holding only the faults the path injected.
func (x *explorer) counterexample(picks []int, r *harness.RunResult, pts []harness.Point) *Counterexample {
	cx := &Counterexample{Outcome: r.Outcome, Failure: r.Violation, Steps: r.Steps}
	faults := x.sc.Explore.Faults
	var used []scenarios.Event
	index := map[int]int{} // candidate -> index in used
	out := make([]int, 0, len(picks))
	for i, p := range pts {
		pick := 0 // past the path: the continuation's alternative 0
		if i < len(picks) {
			pick = picks[i]
		}
		if p.Kind == harness.ChoiceFault {
			if pick == 0 {
				out = append(out, 0)
				continue
			}
			k, ok := index[pick-1]
			if !ok {
				k = len(used)
				index[pick-1] = k
				e := faults[pick-1]
				e.AtMs = p.AtMs
				used = append(used, e)
			}
			cx.Faults = append(cx.Faults, Injected{AtMs: p.AtMs, Event: faults[pick-1]})
			out = append(out, k+1)
			continue
		}
		out = append(out, pick)
	}
	if len(used) == 0 { // no fault points at all in the replay
		kept := out[:0]
		for i, p := range pts {
			if p.Kind != harness.ChoiceFault {
				kept = append(kept, out[i])
			}
		}
		out = kept
	}
	for len(out) > 0 && out[len(out)-1] == 0 {
		out = out[:len(out)-1]
	}
	sc := *x.cfg.Scenario
	sc.Explore = &scenarios.Schedule{Faults: used, Lost: x.cfg.Lost, Choices: out}
	if used == nil {
		sc.Explore.Faults = []scenarios.Event{}
	}
	cx.Scenario, cx.Choices = &sc, len(out)
	return cx
}

// Replay runs a counterexample's scenario the way simrun run does.
func Replay(cx *Counterexample, cfg Config) *harness.RunResult {
	return harness.Execute(cx.Scenario, harness.Options{Strategy: cfg.Strategy, Profile: cfg.Profile, Mutants: cfg.Mutants,
		MaxSteps: cfg.MaxSteps})
}
