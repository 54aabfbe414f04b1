package harness

import (
	"fmt"
	"strconv"

	"github.com/cespare/xxhash/v2"

	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
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

// WorseOutcome is the worse of two outcomes: a safety violation outranks a
// liveness one, which outranks a run stopped by its work budget, which
// outranks ok (OutcomeOK or "").
func WorseOutcome(a, b string) string {
	rank := map[string]int{OutcomeBudget: 1, OutcomeLiveness: 2, OutcomeSafety: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// Options says how to run a scenario.
type Options struct {
	Seed     uint64
	Strategy Strategy
	Profile  model.Profile
	// TraceSink, when set, receives every line of the text trace as it is
	// written (the events Event.Shown lets through, as Event.AppendLine
	// prints them).
	TraceSink func(line string)
	// TracePartition, in a run of many partitions, limits the text trace to
	// the events of one partition ("topic-partition", as Kafka names it)
	// and of the whole fleet (inputs such as replace_broker, fetcher
	// threads' requests); "" traces every partition. Check it first with
	// CheckTracePartition.
	TracePartition string
	// StopAfter, when > 0, stops the run after that many steps, when < 0
	// before the first (used to capture the state around a failing step).
	StopAfter int64
	// Observers see every event of the run, in order (model.Observer):
	// timelines, Chrome traces and metrics are drawn from them. They read
	// events and never change the run.
	Observers []model.Observer
	// Mutants switches on deliberate bugs (never on by default).
	Mutants model.Mutants
	// Fixes switches on the upstream reports' suggested fixes of Kafka's
	// code (none by default; model.Fix).
	Fixes model.Fixes
	// StateDigests, when set, records a digest of the compact state after
	// every step (RunResult.StateDigests), to find where two runs part.
	StateDigests bool
	// MaxSteps is the run's work budget (0: DefaultMaxSteps): a run that
	// would take more steps, or is predicted to (CheckBudget, unless Budget
	// says the caller checked), stops with OutcomeBudget.
	MaxSteps int64
	// Chooser makes the run's nondeterministic choices (see Chooser). nil:
	// a Script when the scenario has an explore schedule, else draws from
	// Seed.
	Chooser Chooser
	// StateHash, when set, records the hash of the run's state where it
	// stopped (RunResult.StateHash): simrun explore's visited set.
	StateHash bool
	// Budget is the caller's passed budget check of the scenario
	// (harness.Budget): with the same scenario and MaxSteps the run does
	// not predict its cost again. The zero value: the run checks.
	Budget Budgeted
	// noElision (tests) runs a broker-scale file without the model's
	// elision of idle checks (model.FleetConfig.NoElision).
	noElision bool
}

// RunResult is what one run of one strategy gives.
type RunResult struct {
	Strategy  Strategy
	Outcome   string
	Violation *Failure
	Digest    string
	Steps     int64
	SimMs     int64
	// End is the virtual time the run ended at (SimMs in microseconds).
	End sim.Time
	// Fleet is the model where the run stopped; Cluster its first (in a
	// one-partition run, only) partition.
	Fleet   *model.Fleet
	Cluster *model.Cluster
	// EgressBytes is the bytes each broker sent to other brokers.
	EgressBytes []int64
	// Events counts every event of the run (the digest hashes them all).
	Events int64
	// Skipped lists the scenario events that did not happen, with why.
	Skipped []SkippedEvent
	// Coverage counts how often the run reached each model.Goal.
	Coverage [model.NumGoals]int64
	// Replicas is what the run's events showed of each broker's replica,
	// by broker id.
	Replicas []ReplicaStats
	// Consumes is what each consume event read, in order.
	Consumes []ConsumeStats
	// ISRChanges is every change of the ISR, in order.
	ISRChanges []ISRChange
	// StateDigests holds one digest per step (index 0: before the first)
	// when Options.StateDigests is set.
	StateDigests []uint64
	// StateHash is the hash of the state the run stopped in, when
	// Options.StateHash is set.
	StateHash uint64
	// Partitions, for a broker-scale file, is each partition's result, in
	// scenario order; BrokerScale the broker-scale statistics (both nil
	// for a one-partition file, whose Replicas, Consumes and ISRChanges
	// are its partition's).
	Partitions  []PartitionResult
	BrokerScale *BrokerScaleStats
	// Schedule, for a scenario with an explore schedule followed as is
	// (no Options.Chooser), says how well it fitted the run.
	Schedule *ScheduleFit
}

// ScheduleFit is how a scenario's explore schedule fitted the run that
// followed it. A schedule fits when every pick was in range and used: the
// run took the path explore found. Otherwise the model (or the strategy,
// profile or mutants) differs from the one it was written for, and the
// run diverged from that path.
type ScheduleFit struct {
	Picks   int `json:"picks"`   // picks in the schedule
	Used    int `json:"used"`    // picks the run took
	Clamped int `json:"clamped"` // picks out of range, replaced by the last alternative
}

// Fits reports whether the run followed the schedule exactly.
func (f *ScheduleFit) Fits() bool { return f.Clamped == 0 && f.Used == f.Picks }

// Failure is a broken invariant with where it broke.
type Failure struct {
	Invariant string
	Kind      string // the known cause, when the checker can name it
	Message   string
	Step      int64
	AtMs      int64
	Event     string   // the trace line of the step's input event
	TraceTail []string // the last trace lines, oldest first
}

// SkippedEvent is a scenario event that did not happen (an elect_leader of a
// broker outside the ISR, a crash of a broker already down, ...): where it
// was in the scenario, when, and the model's reason.
type SkippedEvent struct {
	Index  int    // in Scenario.Events; -1 for a produce chunk, an injected fault or the heal's restart
	Fault  int    // in the explore schedule's faults when injected; -1 otherwise
	AtMs   int64  // when it was due
	Type   string // its scenario type, e.g. "elect_leader"
	Reason string
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
	evFault // a fault the chooser injects: idx in runner.faults
	// evRolling is a step of the rolling_restart at idx: its broker at
	// position records stops (chunks 0) or starts again (chunks 1).
	evRolling
	evEnd
)

// event is what the scheduler holds: one input for the cluster.
//
// Messages and remote operations are kept in the runner's slabs and named
// here by handle (msg, op): a queued event is small, so the scheduler's pops
// move, and a clone copies, a few words per slot instead of a whole message.
type event struct {
	kind      evKind
	failed    bool
	msg       int32 // evDeliver: handle in runner.msgs
	op        int32 // evRemoteDone: handle in runner.ops
	senderInc uint32
	idx       int
	timer     model.TimerKey
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
	sc      *scenarios.Scenario
	opt     Options
	f       *model.Fleet
	c       *model.Cluster // f's first partition
	sched   sim.Scheduler[event]
	msgs    slab[model.Message]  // in-flight messages (event.msg)
	ops     slab[model.RemoteOp] // pending remote operations (event.op)
	checker *invariants.Checker
	timers  []sim.Timer // by timerSlot; the zero Timer: none pending
	choose  Chooser
	faults  []scenarios.Event // what the chooser may inject
	healed  bool
	cuts    []partition
	// rolling are the rolling restarts waiting for a restarted broker's
	// replicas to be back in their ISRs.
	rolling      []rollingWait
	egress       []sim.Time // when each broker's link is free
	res          *resources // the shared resources (nil: all unlimited)
	sent         []int64
	steps        int64
	stateDigests []uint64

	// The event stream's built-in views: the digest (XXH64 of every
	// event's canonical encoding), the last shown events for a failure
	// report, the text sink, and the step's input event.
	digest *xxhash.Digest
	enc    []byte // event encodings not yet hashed
	line   []byte // scratch for one text line
	events int64
	tail   sim.Ring[timedEvent]
	// keepTail: shown events go into tail (see Execute).
	keepTail bool
	skipped  []SkippedEvent
	// view folds the events into replica stats, consumes and coverage.
	view *runView
	// st is what the last step left, to emit broker and remote state
	// changes (a one-partition run's; mp holds a many-partition run's).
	st partState
	// mp is a many-partition run's own (nil: one partition).
	mp *multiRun
	// lean: a fork (Run.Fork), with neither the digest nor the view.
	lean bool
	// scIndex is the scenario event the step applies (-1: none);
	// faultIndex the explore fault it injects (-1: none); skipType and
	// skipIndex the scenario event type and index a refusal of the step's
	// input is noted as (SkippedEvent).
	scIndex, faultIndex int
	skipType            string
	skipIndex           int

	// s is the scratch one step uses (Clone shares it).
	s *scratch
}

// scratch is what a step and the state hash use only while they run: the
// step's input event (a failure report names it), the events the harness
// itself records, and the state hash's buffers. A Run and its clones share
// one (it is about 1.5 KiB, and explore copies a state for every
// transition): step and hash them from one goroutine at a time.
type scratch struct {
	input    timedEvent
	remoteEv model.Event // a remote-state change
	brokerEv model.Event // a broker-state change
	// brokerEvMade: brokerEv holds an EvBrokerState event.
	brokerEvMade bool
	lost         model.Event // the dropped event of a message the chooser lost
	dropped      model.Event // the dropped event of a message the network dropped
	// stateBuf, pendBuf and pend: the state hash's buffers.
	stateBuf, pendBuf []byte
	pend              []pendRef
	offs              stateOffsets
	// in and inBuf: explore's input identity.
	in    Input
	inBuf []byte
	// cloneTail is the empty one-line trace tail every clone starts with
	// (its array shared: a clone's failure report shows its last line).
	cloneTail sim.Ring[timedEvent]
	tailMade  bool
}

// timedEvent is an event with the time of its step.
type timedEvent struct {
	at sim.Time
	e  model.Event
}

// TraceKeep is how many trace lines a failure report shows.
const TraceKeep = 40

// Execute runs the scenario once with one strategy and checks invariants
// after every step.
//
// The trace lines a failure report shows (Failure.TraceTail) are not kept
// on the way when the run can be repeated (no chooser, trace sink or
// observer given): copying every shown event into the tail cost more than a
// tenth of a run. A run that fails is run again with the tail kept; it is
// deterministic, so the rerun is the same run and stops at the same step.
func Execute(sc *scenarios.Scenario, opt Options) *RunResult {
	keep := opt.Chooser != nil || opt.TraceSink != nil || len(opt.Observers) > 0
	res := execute(sc, opt, keep)
	if res.Violation != nil && !keep {
		res = execute(sc, opt, true)
	}
	return res
}

// execute is Execute, keeping the failure report's trace tail when keepTail:
// a loop over Run.Step, the one place a run's steps are taken.
func execute(sc *scenarios.Scenario, opt Options, keepTail bool) *RunResult {
	x := newRun(sc, opt, keepTail)
	for x.done == nil {
		x.Step()
	}
	return x.done
}

// newRun builds the run and takes its initial step (the cluster's first
// effects and checks); the run is over at once when the work budget
// refuses it, the initial state breaks an invariant or StopAfter < 0.
// keepTail says whether to keep the shown events a failure report ends
// with (without, Failure.TraceTail is empty).
func newRun(sc *scenarios.Scenario, opt Options, keepTail bool) *Run {
	if opt.Profile == nil {
		opt.Profile = model.KIP
	}
	r := &runner{sc: sc, opt: opt, timers: make([]sim.Timer, sc.Brokers*int(model.NumTimerKinds)*sc.Brokers),
		choose: opt.Chooser, digest: xxhash.New(), enc: make([]byte, 0, digestChunk+1024),
		egress: make([]sim.Time, sc.Brokers), res: newResources(&sc.Config, sc.Brokers), sent: make([]int64, sc.Brokers), scIndex: -1, faultIndex: -1, keepTail: keepTail, s: &scratch{}}
	if keepTail {
		r.tail = sim.NewRing[timedEvent](TraceKeep)
	}
	if sc.Explore != nil {
		r.faults = sc.Explore.Faults
		if r.choose == nil {
			r.choose = NewScript(sc.Explore)
		}
	}
	if r.choose == nil {
		r.choose = newSeeded(opt.Seed)
	}
	if err := checkStructure(sc); err != nil {
		panic(fmt.Sprintf("harness: scenario %s: %v (CheckRunnable refuses it before a run)", sc.Name, err))
	}
	lastTiered := opt.Strategy == LastTiered
	if f := sc.Config.FollowerFetchLastTieredOffsetEnable; f != nil {
		lastTiered = *f
	}
	if sc.BrokerScale() {
		r.newMulti(sc, opt, lastTiered)
	} else {
		cfg, init := sc.Config.ModelConfig(), sc.ModelInitial()
		r.view = newRunView(sc.Brokers, sc.Replicas, cfg.RemoteStorageEnable, &init)
		start := model.NewEvent(model.EvRunStart, -1)
		start.Text = fmt.Sprintf("scenario=%q seed=%d strategy=%s profile=%s", sc.Name, opt.Seed, opt.Strategy, opt.Profile.Name())
		if opt.Fixes != 0 {
			start.Text += " fixes=" + opt.Fixes.String() // a run without fixes keeps its digest
		}
		r.begin(start)
		cfg.Mutants, cfg.Fixes = opt.Mutants, opt.Fixes
		r.f = model.NewFleet(model.FleetConfig{}, opt.Profile, sc.Brokers, lastTiered,
			[]model.PartitionInit{{Cfg: cfg, Replicas: sc.Replicas, Init: init}})
		r.c = r.f.Parts[0]
		r.checker = invariants.New(r.c)
	}
	for i := range sc.Events {
		r.sched.At(sim.AtMs(sc.Events[i].AtMs), event{kind: evScenario, idx: i})
	}
	r.sched.At(sim.AtMs(sc.DurationMs), event{kind: evHeal})
	r.sched.At(sim.AtMs(sc.DurationMs+sc.HealMs), event{kind: evEnd})
	x := &Run{r: r, res: &RunResult{Strategy: opt.Strategy, Outcome: OutcomeOK, Fleet: r.f, Cluster: r.c}, maxSteps: opt.maxStepsFor(sc)}
	if !opt.Budget.covers(sc, x.maxSteps) {
		if err := CheckBudget(sc, x.maxSteps); err != nil {
			x.done = r.finish(x.res, r.budgetFailure(err.(*BudgetError).violation()), OutcomeBudget)
			return x
		}
	}
	if f := r.afterStep(); f != nil {
		x.done = r.finish(x.res, f, OutcomeSafety)
	} else if opt.StopAfter < 0 {
		x.done = r.finish(x.res, nil, OutcomeOK)
	}
	return x
}

// next is the step's input: a fault the chooser injects now, or the
// pending event it takes among those due first.
func (r *runner) next() (event, bool) {
	if len(r.faults) > 0 && !r.healed {
		if f := r.choose.Fault(len(r.faults), r.sched.Now().Ms()); f >= 0 {
			return event{kind: evFault, idx: f}, true
		}
	}
	// The seeded chooser always takes the first tie: Next is that tie, and
	// counting ties is skipped (it costs as many steps as there are ties,
	// thousands at broker scale where every partition's periodic tasks run
	// at one instant).
	if _, first := r.choose.(*seeded); first {
		return r.sched.Next()
	}
	if n := r.sched.Ties(); n > 1 {
		return r.sched.NextTie(r.choose.Tie(n))
	}
	return r.sched.Next()
}

func (r *runner) finish(res *RunResult, f *Failure, outcome string) *RunResult {
	res.Outcome, res.Violation = outcome, f
	res.Steps, res.SimMs, res.End = r.steps, r.sched.Now().Ms(), r.sched.Now()
	res.EgressBytes, res.Events = r.sent, r.events
	if !r.lean {
		r.digest.Write(r.enc)
		r.enc = r.enc[:0]
		res.Digest = digestString(r.digest.Sum64())
		r.view.end()
		res.Coverage = r.view.coverage
		for g, n := range r.c.Coverage { // the goals no event shows yet
			res.Coverage[g] += n
		}
		res.Replicas, res.Consumes, res.ISRChanges = r.view.replicas, r.view.consumes, r.view.isrChanges
		if r.mp != nil {
			r.mp.finish(r, res)
		}
	}
	res.StateDigests, res.Skipped = r.stateDigests, r.skipped
	if r.opt.StateHash {
		res.StateHash = r.stateHash()
	}
	if s, ok := r.choose.(*Script); ok && r.opt.Chooser == nil {
		res.Schedule = &ScheduleFit{Picks: len(s.Picks), Used: s.Used(), Clamped: s.Clamped}
	}
	return res
}

// withTrace adds to f the step's input event and the trace tail, as the
// run kept them (a fork keeps no input event: Run.Fork).
func (r *runner) withTrace(f *Failure) *Failure {
	if !r.lean || r.keepTail {
		f.Event = string(r.appendLine(nil, r.s.input.at, &r.s.input.e))
	}
	r.tail.Each(func(t *timedEvent) { f.TraceTail = append(f.TraceTail, string(r.appendLine(nil, t.at, &t.e))) })
	return f
}

func (r *runner) failure(v *invariants.Violation) *Failure {
	f := &Failure{Invariant: v.Invariant, Kind: v.Kind, Message: v.Message, Step: r.steps, AtMs: r.sched.Now().Ms()}
	return r.withTrace(f)
}

// afterStep takes what the step left ready: it records the step's events
// and the state changes it made, schedules its effects and acknowledges
// them (Advance), then checks invariants.
func (r *runner) afterStep() *Failure {
	rd := r.f.Ready()
	for i := range rd.Events {
		e := &rd.Events[i]
		switch {
		case e.Kind.IsInput() && r.keepTail:
			r.s.input = timedEvent{at: r.sched.Now(), e: *e}
			e = &r.s.input.e
		case e.Kind == model.EvSkipped && r.mp != nil && e.Part >= 0:
			r.skip(r.f.TPs[e.Part].String() + ": " + e.Text) // one partition of the event's
		case e.Kind == model.EvSkipped:
			r.skip(e.Text)
		}
		r.record(e)
	}
	r.recordStateChanges()
	for i := range rd.Effects {
		r.effect(&rd.Effects[i])
	}
	if r.mp != nil {
		r.mp.dirty, r.mp.hroOnly = append(r.mp.dirty[:0], r.f.Dirty()...), r.f.HROOnly()
	}
	r.f.Advance()
	if r.opt.StateDigests {
		r.stateDigests = append(r.stateDigests, StateOf(r.c).Digest())
	}
	if r.mp != nil {
		return r.mp.check(r)
	}
	if v := r.checker.Check(r.c, r.sched.Now()); v != nil {
		return r.failure(v)
	}
	return nil
}

// digestString prints a run digest: 16 hex digits.
func digestString(d uint64) string {
	s := strconv.FormatUint(d, 16)
	for len(s) < 16 {
		s = "0" + s
	}
	return s
}
