package scenarios

import (
	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/sim"
)

// Strategy is the follower protocol a run uses: the initial value of
// follower.fetch.last.tiered.offset.enable on every broker.
type Strategy string

// Strategies.
const (
	LocalLogStart Strategy = "local-log-start" // KIP-405: the flag off
	LastTiered    Strategy = "last-tiered"     // KIP-1023: the flag on
)

// Strategies lists both, in the order runs report them.
var Strategies = []Strategy{LocalLogStart, LastTiered}

// Outcomes of a run.
const (
	OutcomeOK       = "ok"
	OutcomeSafety   = "safety-violation"
	OutcomeLiveness = "liveness-violation"
)

// Options says how to run a scenario.
type Options struct {
	Seed     uint64
	Strategy Strategy
	Profile  model.Profile
	// TraceSink, when set, receives every trace line as it is written.
	TraceSink func(line string)
	// StopAfter, when > 0, stops the run after that many steps, when < 0
	// before the first (used to capture the state around a failing step).
	StopAfter int64
	// Observe, when set, is called after every step with the step's event
	// line and the cluster (read it, never change it): for timelines and
	// traces drawn from a run.
	Observe func(now sim.Time, line string, c *model.Cluster)
	// Mutants switches on deliberate bugs (never on by default).
	Mutants model.Mutants
	// StateDigests, when set, records a digest of the compact state after
	// every step (RunResult.StateDigests), to find where two runs part.
	StateDigests bool
}

// RunResult is what one run of one strategy gives.
type RunResult struct {
	Strategy  Strategy
	Outcome   string
	Violation *Failure
	Digest    string
	Steps     int64
	SimMs     int64
	Cluster   *model.Cluster
	// EgressBytes is the bytes each broker sent to other brokers.
	EgressBytes []int64
	TraceLines  int64
	// Coverage counts how often the run reached each model.Goal.
	Coverage [model.NumGoals]int64
	// StateDigests holds one digest per step (index 0: before the first)
	// when Options.StateDigests is set.
	StateDigests []uint64
}

// Failure is a broken invariant with where it broke.
type Failure struct {
	Invariant string
	Kind      string // the known cause, when the checker can name it
	Message   string
	Step      int64
	AtMs      int64
	Event     string   // the trace line of the step's event
	TraceTail []string // the last trace lines, oldest first
}

type evKind uint8

const (
	evScenario evKind = iota
	evProduceChunk
	evDeliver
	evTimer
	evRemoteDone
	evPartitionEnd
	evHeal
	evEnd
)

// event is what the scheduler holds: one input for the cluster.
type event struct {
	kind      evKind
	idx       int
	msg       model.Message
	senderInc uint32
	timer     model.TimerKey
	op        model.RemoteOp
	failed    bool
	records   int64
	chunks    int64
	interval  sim.Duration
}

type partition struct {
	brokers []int
	until   sim.Time
}

// runner wires one cluster onto one scheduler.
type runner struct {
	sc           *Scenario
	opt          Options
	c            *model.Cluster
	sched        sim.Scheduler[event]
	trace        *sim.Trace
	checker      *invariants.Checker
	timers       []sim.Timer // by timerSlot; the zero Timer: none pending
	workload     *sim.Stream
	network      *sim.Stream
	remote       *sim.Stream
	cuts         []partition
	egress       []sim.Time // when each broker's link is free
	sent         []int64
	steps        int64
	line         []byte // the current step's event line (reused buffer)
	noteLine     []byte // scratch for the trace lines of notes
	stateDigests []uint64
}

// TraceKeep is how many trace lines a failure report shows.
const TraceKeep = 40

// Execute runs the scenario once with one strategy and checks invariants
// after every step.
func Execute(sc *Scenario, opt Options) *RunResult {
	if opt.Profile == nil {
		opt.Profile = model.KIP
	}
	r := &runner{sc: sc, opt: opt, timers: make([]sim.Timer, sc.Brokers*int(model.NumTimerKinds)*sc.Brokers),
		workload: sim.NewStream(opt.Seed, "workload"), network: sim.NewStream(opt.Seed, "network"),
		remote: sim.NewStream(opt.Seed, "remote"), trace: sim.NewTrace(TraceKeep, opt.TraceSink),
		egress: make([]sim.Time, sc.Brokers), sent: make([]int64, sc.Brokers)}
	lastTiered := opt.Strategy == LastTiered
	if f := sc.Config.FollowerFetchLastTieredOffsetEnable; f != nil {
		lastTiered = *f
	}
	r.note("start scenario=%q seed=%d strategy=%s profile=%s", sc.Name, opt.Seed, opt.Strategy, opt.Profile.Name())
	r.c = model.NewCluster(sc.Config.ModelConfig(), opt.Profile, sc.Brokers, sc.Replicas, lastTiered, sc.ModelInitial())
	r.c.Mutants = opt.Mutants
	r.checker = invariants.New(r.c)
	for i := range sc.Events {
		r.sched.At(sim.AtMs(sc.Events[i].AtMs), event{kind: evScenario, idx: i})
	}
	r.sched.At(sim.AtMs(sc.DurationMs), event{kind: evHeal})
	r.sched.At(sim.AtMs(sc.DurationMs+sc.HealMs), event{kind: evEnd})
	res := &RunResult{Strategy: opt.Strategy, Outcome: OutcomeOK, Cluster: r.c}
	if f := r.afterStep(); f != nil {
		return r.finish(res, f, OutcomeSafety)
	}
	if opt.StopAfter < 0 {
		return r.finish(res, nil, OutcomeOK)
	}
	for {
		ev, ok := r.sched.Next()
		if !ok || ev.kind == evEnd {
			break
		}
		r.steps++
		r.c.Now = r.sched.Now()
		r.apply(ev)
		if f := r.afterStep(); f != nil {
			return r.finish(res, f, OutcomeSafety)
		}
		if opt.StopAfter > 0 && r.steps >= opt.StopAfter {
			return r.finish(res, nil, OutcomeOK)
		}
	}
	r.c.Now = r.sched.Now()
	if v := r.checker.CheckLiveness(r.c); v != nil {
		return r.finish(res, r.failure(v), OutcomeLiveness)
	}
	return r.finish(res, nil, OutcomeOK)
}

func (r *runner) finish(res *RunResult, f *Failure, outcome string) *RunResult {
	res.Outcome, res.Violation = outcome, f
	res.Digest, res.Steps, res.SimMs = r.trace.Digest(), r.steps, r.sched.Now().Ms()
	res.EgressBytes, res.TraceLines, res.Coverage = r.sent, r.trace.Lines(), r.c.Coverage
	res.StateDigests = r.stateDigests
	return res
}

func (r *runner) failure(v *invariants.Violation) *Failure {
	return &Failure{Invariant: v.Invariant, Kind: v.Kind, Message: v.Message, Step: r.steps, AtMs: r.sched.Now().Ms(),
		Event: string(r.line), TraceTail: r.trace.Last(TraceKeep)}
}

// afterStep drains the cluster's notes and effects, then checks invariants.
func (r *runner) afterStep() *Failure {
	now := r.sched.Now()
	for _, n := range r.c.Notes {
		r.noteLine = append(append(now.AppendTo(r.noteLine[:0]), "   "...), n...)
		r.trace.AddBytes(r.noteLine)
	}
	r.c.Notes = r.c.Notes[:0]
	for i := range r.c.Out {
		r.effect(&r.c.Out[i])
	}
	r.c.Out = r.c.Out[:0]
	if r.opt.StateDigests {
		r.stateDigests = append(r.stateDigests, StateOf(r.c).Digest())
	}
	if r.opt.Observe != nil {
		r.opt.Observe(now, string(r.line), r.c)
	}
	if v := r.checker.Check(r.c); v != nil {
		return r.failure(v)
	}
	return nil
}
