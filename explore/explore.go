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
	// Violation is the first violation found (a shortest path to it), nil
	// when none.
	Violation *Counterexample
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

// node is a state in the frontier: the picks that reach it.
type node struct {
	picks []int
	hash  uint64
	run   *harness.Run // the state itself (nil when re-executing)
}

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
}

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
	faults, err := Candidates(cfg.Scenario, cfg.Faults, cfg.FaultMs)
	if err != nil {
		return nil, err
	}
	sc := *cfg.Scenario
	sc.Explore = &scenarios.Schedule{Faults: faults, Lost: cfg.Lost, Choices: []int{}}
	x := &explorer{cfg: cfg, sc: &sc, seen: map[uint64]struct{}{}}
	x.search()
	return &x.res, nil
}

// run re-executes the path picks from the start for stop steps (-1: the
// initial state only; 0: to the end) and returns the result with every
// choice point it met.
func (x *explorer) run(picks []int, stop int64, record bool) *harness.RunResult {
	x.script = harness.Script{Picks: picks, Lost: x.cfg.Lost, Record: record, Points: x.script.Points[:0]}
	r := harness.Execute(x.sc, harness.Options{Strategy: x.cfg.Strategy, Profile: x.cfg.Profile, Mutants: x.cfg.Mutants,
		Chooser: &x.script, StopAfter: stop, StateHash: true, MaxSteps: x.cfg.MaxSteps})
	x.res.Runs++
	x.res.StepsRun += r.Steps
	return r
}

func (x *explorer) search() {
	level := []node{{}}
	first := true // level holds the virtual root: its children are the initial states
	sharded := x.cfg.Shard.N <= 1
	for depth := 0; ; depth++ {
		var next []node
		stop := int64(depth)
		if first {
			stop = -1
		}
		for i, n := range level {
			var ok bool
			if x.cfg.Reexecute || first {
				ok = x.expand(n, stop, &next)
			} else {
				ok = x.expandClone(n, &next)
			}
			level[i].run = nil // let the parent state go
			if !ok {
				return // a violation or the state budget
			}
		}
		if !first {
			x.res.Depth = depth
		}
		if !sharded && len(next) >= splitStates*int(x.cfg.Shard.N) {
			next, sharded = x.keepShard(next), true
		}
		first = false
		if len(next) == 0 {
			x.res.Exhausted, x.res.Complete = true, true
			return
		}
		if depth == x.cfg.Depth {
			x.res.Frontier = len(next)
			x.res.Exhausted = true
			if x.cfg.Liveness {
				for _, n := range next {
					if !x.continuation(n) {
						return
					}
				}
			}
			return
		}
		level = next
	}
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

// expand runs every alternative of the step after n (stop: the steps to
// take, -1 for the initial state), adding new states to next. It returns
// false when the search must stop.
func (x *explorer) expand(n node, stop int64, next *[]node) bool {
	base := len(n.picks)
	picks := slices.Clone(n.picks)
	for {
		r := x.run(picks, stop, true)
		pts := x.script.Points
		x.res.Transitions++
		full := make([]int, len(pts))
		for i, p := range pts {
			full[i] = p.Pick
		}
		if r.Outcome != harness.OutcomeOK {
			if r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
				x.res.Violation = x.counterexample(full, r, pts)
				x.countState(r.StateHash)
				return false
			}
			// Budget: the path is cut, not a violation.
		} else if _, dup := x.seen[r.StateHash]; !dup {
			x.countState(r.StateHash)
			if stop > 0 && r.Steps < stop {
				x.res.Ended++ // reached the end of the scenario: a leaf
			} else {
				nd := node{picks: full, hash: r.StateHash}
				if !x.cfg.Reexecute { // the first level of a cloning search: keep the state
					nd.run = x.start(full)
				}
				*next = append(*next, nd)
			}
			if x.res.States >= int64(x.cfg.MaxStates) {
				return false
			}
		}
		// The next alternative: the last point of this step not at its last
		// alternative moves on; the points after it start again at 0.
		j := len(pts) - 1
		for j >= base && pts[j].Pick+1 >= pts[j].N {
			j--
		}
		if j < base {
			return true
		}
		picks = append(full[:j:j], pts[j].Pick+1)
	}
}

// start builds the run of the path picks (its initial step only), for
// cloning.
func (x *explorer) start(picks []int) *harness.Run {
	x.res.Runs++
	return harness.Start(x.sc, x.options(&harness.Script{Picks: picks, Lost: x.cfg.Lost}))
}

func (x *explorer) options(ch harness.Chooser) harness.Options {
	return harness.Options{Strategy: x.cfg.Strategy, Profile: x.cfg.Profile, Mutants: x.cfg.Mutants,
		Chooser: ch, StateHash: true, MaxSteps: x.cfg.MaxSteps}
}

// expandClone steps a copy of n's state down every alternative of its next
// step.
func (x *explorer) expandClone(n node, next *[]node) bool {
	var suffix []int
	base := len(n.picks)
	for {
		s := &harness.Script{Picks: suffix, Lost: x.cfg.Lost, Record: true}
		c := n.run.Clone(s)
		c.Step()
		x.res.Transitions++
		x.res.StepsRun++
		full := append(slices.Clip(n.picks), make([]int, len(s.Points))...)
		for i, p := range s.Points {
			full[base+i] = p.Pick
		}
		done := c.Done()
		switch {
		case done != nil && (done.Outcome == harness.OutcomeSafety || done.Outcome == harness.OutcomeLiveness):
			x.violation(full, done)
			x.res.States++
			return false
		case done != nil && done.Outcome == harness.OutcomeOK:
			h := c.Hash()
			if _, dup := x.seen[h]; !dup {
				x.countState(h)
				x.res.Ended++
			}
		case done != nil: // the work budget: the path is cut
		default:
			h := c.Hash()
			if _, dup := x.seen[h]; !dup {
				x.countState(h)
				*next = append(*next, node{picks: full, hash: h, run: c})
			}
		}
		if x.res.States >= int64(x.cfg.MaxStates) {
			return false
		}
		j := len(s.Points) - 1
		for j >= 0 && s.Points[j].Pick+1 >= s.Points[j].N {
			j--
		}
		if j < 0 {
			return true
		}
		suffix = append(full[base:base+j:base+j], s.Points[j].Pick+1)
	}
}

// violation records the counterexample of the path picks, re-running it
// from the start to learn every choice point's kind (and to confirm it).
func (x *explorer) violation(picks []int, done *harness.RunResult) {
	r := x.run(picks, 0, true)
	if r.Outcome != done.Outcome || r.Violation == nil || r.Violation.Invariant != done.Violation.Invariant {
		panic(fmt.Sprintf("explore: the path re-run gives %s %+v, the cloned state %s %+v", r.Outcome, r.Violation, done.Outcome, done.Violation))
	}
	x.res.Violation = x.counterexample(picks, r, x.script.Points)
}

func (x *explorer) countState(h uint64) {
	x.seen[h] = struct{}{}
	x.res.States++
}

// continuation runs n's path on to the end with alternative 0 at every
// later choice; it returns false on a violation.
func (x *explorer) continuation(n node) bool {
	if n.run != nil {
		c := n.run.Clone(&harness.Script{Lost: x.cfg.Lost})
		for c.Done() == nil {
			c.Step()
			x.res.StepsRun++
		}
		x.res.LivenessChecked++
		if r := c.Done(); r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
			x.violation(n.picks, r)
			return false
		}
		return true
	}
	r := x.run(n.picks, 0, true)
	x.res.LivenessChecked++
	if r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
		pts := x.script.Points
		full := make([]int, len(pts))
		for i, p := range pts {
			full[i] = p.Pick
		}
		x.res.Violation = x.counterexample(full, r, pts)
		return false
	}
	return true
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
		pick := picks[i]
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
