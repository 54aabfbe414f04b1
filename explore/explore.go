package explore

import (
	"fmt"
	"slices"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// FaultKinds are the names --faults lists (scenarios.ExploreFaultNames: the
// fault table owns them), in the order candidates are built.
var FaultKinds = scenarios.ExploreFaultNames()

// DefaultFaultMs is how long an injected partition or remote outage lasts.
const DefaultFaultMs = 1000

// Config says what to explore and how far.
type Config struct {
	Scenario *scenarios.Scenario
	Strategy harness.Strategy
	Profile  model.Profile
	Mutants  model.Mutants
	Fixes    model.Fixes
	// Depth bounds the steps of a path (0: none, to the scenario's end).
	Depth int
	// MaxStates stops the search after that many distinct states (0:
	// DefaultMaxStates): the work budget.
	MaxStates int
	// MaxMemoryMiB is the memory of the process running the search (0:
	// DefaultMaxMemoryMiB; memory.go): the search's estimate of what it
	// keeps, made from the states' sizes, stays within three quarters of
	// RuntimeLimit: past it a frontier state keeps only its path and is
	// rebuilt when expanded, and when the visited set and the levels alone
	// would pass it the search stops (StopMemory). The estimate is a
	// function of the search, not of the machine: the same search stops at
	// the same state everywhere.
	MaxMemoryMiB int
	// Faults are the kinds of fault that may be injected before any step
	// until the heal, on any replica (FaultKinds); FaultMs is how long an
	// injected partition or outage lasts (0: DefaultFaultMs).
	Faults  []string
	FaultMs int64
	// Lost adds a third network latency class: the message is lost.
	Lost bool
	// Liveness runs, from every state a bound cuts (the depth, the state
	// budget), the continuation that takes alternative 0 at every later
	// choice (no more faults, fast network, no remote failure) through the
	// heal to the end, and checks that every replica joins the ISR.
	// Continuations that reach a state an earlier one went through take its
	// verdict (memoized by state hash).
	Liveness bool
	// NoReduction turns the partial-order reduction off: every
	// alternative is taken from every state (the full search).
	NoReduction bool
	// Shard, with N > 1, keeps only the part of the search below the
	// states of the first level holding at least splitStates*N states
	// whose hash is K mod N.
	Shard campaign.Shard
	// MaxSteps is each run's work budget (0: the harness default).
	MaxSteps int64
	// Budget is the caller's passed check of Scenario against MaxSteps
	// (harness.Budget): the runs under the search's schedules take it
	// rather than predicting their cost again. The zero value: each run
	// checks.
	Budget harness.Budgeted
	// FromMs, when > 0, starts the search at the first step at or after
	// that simulated time, reached by taking alternative 0 at every choice
	// before (no fault, fast network, the event scheduled first): the
	// search explores around a point of a long scenario. Every state it
	// visits is still reachable by simrun run (the prefix is part of the
	// counterexample's schedule); the prefix's alternatives are not
	// explored. It must be before the scenario's end.
	FromMs int64
	// Stopped, when set, is asked before each state is expanded and
	// every stopEvery steps of a long run (a liveness continuation, the
	// --from-ms prefix): true stops the search (Result.Interrupted), e.g.
	// on a signal.
	Stopped func() bool
	// Progress, when set, is called after each level with the depth
	// reached, the distinct states so far and the level's size.
	Progress func(depth int, states int64, level int)
	// Reexecute re-runs every path from the start instead of stepping
	// clones of the parent state (slower; kept to measure and to cross-check).
	Reexecute bool
}

// Defaults.
const (
	DefaultMaxStates    = 1_000_000
	DefaultMaxMemoryMiB = 2048
	splitStates         = 4
)

// Why a search stopped (Result.Stop).
const (
	StopComplete    = "complete"    // every path ended: at the scenario's end or a violation
	StopDepth       = "depth"       // the depth bound: every state within it visited
	StopStates      = "max-states"  // the state budget
	StopMemory      = "max-memory"  // the memory budget
	StopSteps       = "max-steps"   // a run's work budget cut a path
	StopViolation   = "violation"   // an unknown violation
	StopInterrupted = "interrupted" // Config.Stopped
)

// The parts of a search Config.Stopped can cut short (Result.InterruptedIn).
const (
	PartPrefix   = "prefix"   // the run to --from-ms
	PartSearch   = "search"   // the breadth-first search
	PartLiveness = "liveness" // the continuations from the cut states
)

// Result is what a search found.
type Result struct {
	States      int64 // distinct states visited
	Transitions int64 // steps taken from a visited state (duplicates included)
	// Skipped counts the steps the partial-order reduction did not take
	// (their states are reached by the other order); Reexpanded the states
	// expanded again because a later path reached them with fewer steps
	// asleep.
	Skipped, Reexpanded int64
	Runs                int64 // harness runs (re-executions from the start)
	StepsRun            int64 // steps those runs and the clones took
	Depth               int   // the deepest level reached
	// Covered is the depth of the last level whose every state was
	// visited (every state within Covered steps of the root is visited).
	Covered  int
	Frontier int   // states cut by the bound, not expanded further
	Ended    int64 // paths that reached the end of the scenario
	// Exhausted: the search stopped at its depth bound or at the end of
	// every path, with every state within visited (not cut by a budget);
	// Complete: every path ended (the whole state space is explored).
	Exhausted, Complete bool
	// Stop says why the search stopped (Stop*).
	Stop string
	// ReachedMinMs and ReachedMaxMs are the simulated times of the states
	// of level Covered: every path is explored at least to ReachedMinMs.
	ReachedMinMs, ReachedMaxMs int64
	// ScenarioSteps and ScenarioMs are the length of the scenario: the
	// steps of a seeded run (its seed, strategy, profile and mutants) and
	// its simulated time (duration plus heal). SeededOutcome is that run's
	// outcome (a violation ends it early). BaseSteps and BaseMs are where
	// the search's root is (FromMs: the prefix's end; else 0).
	ScenarioSteps, ScenarioMs int64
	SeededOutcome             string
	BaseSteps, BaseMs         int64
	// LivenessChecked counts continuations run from cut states;
	// MemoHits those that reached a state an earlier continuation went
	// through and took its verdict; ContinuationSteps the steps they took.
	LivenessChecked, MemoHits, ContinuationSteps int64
	// LivenessCut counts cut states whose continuation the continuation
	// budget (MaxStates*64 steps in all) left unchecked: the search is
	// then not exhausted.
	LivenessCut int64
	// LivenessStepsCut counts continuations a run's work budget
	// (MaxSteps) cut before their verdict: not checked either, and
	// counted in BudgetCut too.
	LivenessStepsCut int64
	// MemoryMiB is the search's peak memory estimate; Rebuilt counts
	// frontier states kept as paths only (past the memory budget), each
	// rebuilt if it is expanded: those at the depth bound never are.
	MemoryMiB float64
	Rebuilt   int64
	// InPlace counts the steps taken on the state itself, not a copy,
	// because they were likely the state's last (lastPicks); Restored the
	// states rebuilt because the guess was wrong. Measures of the search's
	// speed, not of what it covered: not reported.
	InPlace, Restored int64
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
	// InterruptedIn says which part Stopped cut short: PartPrefix,
	// PartSearch or PartLiveness.
	InterruptedIn string
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
	for _, name := range kinds {
		k, err := scenarios.ParseExploreFault(name)
		if err != nil {
			return nil, fmt.Errorf("unknown fault %q (want some of %v)", name, FaultKinds)
		}
		typ := k.Fault().Event
		switch k {
		case scenarios.FaultCrash, scenarios.FaultRestart, scenarios.FaultElect:
			for _, b := range brokers {
				out = append(out, one(typ, b))
			}
		case scenarios.FaultPartition:
			for _, b := range brokers {
				out = append(out, scenarios.Event{Type: typ, Brokers: []int{b}, DurationMs: faultMs})
			}
		case scenarios.FaultRemoteOutage:
			out = append(out, scenarios.Event{Type: typ, DurationMs: faultMs})
		default:
			panic(fmt.Sprintf("explore: the fault table names %s an explore fault, but Candidates cannot build it", k))
		}
	}
	return out, nil
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
	// The failure record, as sweep's saved failures carry: 'simrun replay
	// FILE' reruns the path with this strategy, profile, mutants, fixes and
	// work budget and says whether it failed the same way.
	sc.Failure = harness.Record(harness.Options{Strategy: x.cfg.Strategy, Profile: x.cfg.Profile, Mutants: x.cfg.Mutants,
		Fixes: x.cfg.Fixes, MaxSteps: x.cfg.MaxSteps}, harness.Summarize(r))
	if used == nil {
		sc.Explore.Faults = []scenarios.Event{}
	}
	cx.Scenario, cx.Choices = &sc, len(out)
	return cx
}

// Replay runs a counterexample's scenario the way simrun run does.
func Replay(cx *Counterexample, cfg Config) *harness.RunResult {
	return harness.Execute(cx.Scenario, harness.Options{Strategy: cfg.Strategy, Profile: cfg.Profile, Mutants: cfg.Mutants,
		Fixes: cfg.Fixes, MaxSteps: cfg.MaxSteps, Budget: cfg.Budget.Scheduled(cx.Scenario)})
}
