package explore

import (
	"fmt"
	"slices"

	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// node is a state waiting in a level: its path, its hash, the state itself
// unless the search re-executes (or the memory budget is spent), and its
// sleep set. A node with only set is a state expanded before, reached
// again with fewer steps asleep: only those steps are taken from it.
type node struct {
	path  *path
	hash  uint64
	run   *harness.Run
	bytes int64 // the memory estimate of run
	depth int32 // steps from the root
	nowMs int64
	sleep []asleep
	only  []uint64
	// parts are the state's parts, taken when it was visited (nil
	// Brokers: not taken), for the footprints of the steps from it.
	parts harness.Parts
}

// explorer is one search.
type explorer struct {
	cfg Config
	sc  *scenarios.Scenario // with the candidate faults in its schedule
	// budget is the caller's passed budget check, for sc (Config.Budget).
	budget harness.Budgeted
	// seen maps a visited state's hash to its stored sleep set (a
	// reference into sleeps: offset<<24 | length).
	seen   hashMap
	sleeps []uint64
	res    Result
	script harness.Script
	// level is being expanded, next is being filled; their indexes map a
	// hash to its node (levelIdx's past expanded are expanded already).
	level, next       []node
	levelIdx, nextIdx map[uint64]int
	// expanded is the last node of level taken out to expand: levelIdx
	// holds those up to it too, which are not pending any more (deleting
	// each from the map as it was taken cost 1% of the CPU).
	expanded int
	stop     bool
	// root is the prefix's end (FromMs), kept to rebuild states from;
	// rootPath its path. With no prefix both are nil and states are
	// rebuilt from the start.
	root      *harness.Run
	rootPath  *path
	baseSteps int64
	// starts holds, with no prefix, a copy of each initial state the
	// search kept, by the first link of the paths from it: states are
	// rebuilt from there rather than from the start (a run's start costs
	// as much as tens of steps). Not with Reexecute, which re-runs every
	// path from the start.
	starts map[*path]*harness.Run
	// nondet is set when re-running a path did not give what the search
	// saw; it ends the search.
	nondet *NondeterminismError
	// memo maps a state a liveness continuation went through to the
	// verdict of the rest of it (memoOK, or a known finding's index+1).
	memo map[uint64]int
	mem  memory
	// depth is the level being expanded (-1: the root's).
	depth int
	// shedNext and shedLevel: see shed; cur is the index in level of the
	// state being expanded.
	shedNext, shedLevel, cur int
	// child: scratch for the state parts; stepScript and picks for a
	// step's script and its picks (expand).
	child      harness.Parts
	stepScript harness.Script
	picks      []int
	// suffixes are two arrays expand's next picks alternate between (the
	// script of the step before holds the other): not one allocation a step.
	suffixes [2][]int
	suffixAt int
	// slab holds nodes' broker fingerprints (keepBrokers).
	slab []uint64
	// audited collects, when auditReduction is set, the states of the
	// steps the reduction skipped.
	audited []uint64
	// part is the part of the search under way (PartSearch, ...).
	part string
	// spare holds states the search dropped, at most spareMax: the next
	// copies are made in their memory (fork, drop).
	spare    []*harness.Run
	spareMax int
}

// spareRuns bounds how many dropped states the search keeps for reuse,
// between 8 and 256 by the memory budget: one a 4 MiB of the search's
// budget (a state of omts-local-deleted 40 steps in holds tens of KiB),
// so that they stay a small part of the collector's quarter
// (RuntimeLimit). Copies are made and dropped in bursts (a state's
// steps, the states a level kept, each a copy, then expanded and dropped
// one by one): of tiny-join's 6,327 copies to depth 24, 8 spares left
// 2,339 to fresh memory, 256 left 1,587, for a tenth to a fifth less CPU
// (docs/contributing/BENCHMARKS.md). Which memory a copy is made in
// never changes the search.
func spareRuns(budget int64) int { return int(min(256, max(8, budget>>22))) }

// fork copies run for the step s picks, in the memory of a dropped state
// when there is one.
func (x *explorer) fork(run *harness.Run, s harness.Chooser) *harness.Run {
	n := len(x.spare)
	if n == 0 {
		return run.Fork(s)
	}
	spare := x.spare[n-1]
	x.spare = x.spare[:n-1]
	return run.ForkInto(spare, s)
}

// drop gives back a state nothing refers to any more (nil: none).
func (x *explorer) drop(run *harness.Run) {
	if run != nil && len(x.spare) < x.spareMax {
		x.spare = append(x.spare, run)
	}
}

// Memoized verdicts: a continuation that ended with no violation, or in
// a known finding (counted again at every hit).
const (
	memoOK = iota
	memoKnown
)

// memoryHook, set by tests, sees the search after each new state's
// memory estimate.
var memoryHook func(x *explorer)

// visitHook, set by tests, sees every new state the search visits.
var visitHook func(run *harness.Run)

// auditMissing, after an audited search, holds the states of skipped
// steps the search did not visit: each is a step the reduction skipped
// wrongly.
var auditMissing []uint64

// auditCount, after an audited search, is how many steps the audit took
// that the reduction skips: a test checks it covers every skip, so that
// an audit that records nothing cannot pass.
var auditCount int

// auditReduction, set by tests, takes every step the reduction skips
// anyway (without visiting its state) and records the state it leads to
// in explorer.audited, so that a test can check the search visited it.
var auditReduction bool

// Run explores cfg's scenario breadth first.
func Run(cfg Config) (*Result, error) {
	if cfg.MaxStates <= 0 {
		cfg.MaxStates = DefaultMaxStates
	}
	if cfg.MaxMemoryMiB <= 0 {
		cfg.MaxMemoryMiB = DefaultMaxMemoryMiB
	}
	if cfg.Profile == nil {
		cfg.Profile = model.KIP
	}
	if cfg.Shard.N == 0 {
		cfg.Shard = campaign.Whole
	}
	if cfg.Shard.K >= cfg.Shard.N {
		return nil, fmt.Errorf("shard %d/%d: want K < N", cfg.Shard.K, cfg.Shard.N)
	}
	end := cfg.Scenario.DurationMs + cfg.Scenario.HealMs
	if cfg.FromMs >= end {
		return nil, config.Errorf("FromMs", "{FromMs}: %d is at or past the scenario's end (%d ms: duration_ms %d + heal_ms %d)",
			cfg.FromMs, end, cfg.Scenario.DurationMs, cfg.Scenario.HealMs)
	}
	faults, err := Candidates(cfg.Scenario, cfg.Faults, cfg.FaultMs)
	if err != nil {
		return nil, err
	}
	sc := *cfg.Scenario
	sc.Explore = &scenarios.Schedule{Faults: faults, Lost: cfg.Lost, Choices: []int{}}
	x := &explorer{cfg: cfg, sc: &sc, sleeps: []uint64{0}, memo: map[uint64]int{},
		mem: memory{budget: searchBudget(cfg.MaxMemoryMiB)}, depth: -1, expanded: -1}
	x.budget = cfg.Budget.Scheduled(x.sc)
	x.spareMax = spareRuns(x.mem.budget)
	x.measureScenario()
	x.search()
	if auditReduction {
		auditMissing = auditMissing[:0]
		auditCount = len(x.audited)
		for _, h := range x.audited {
			if _, ok := x.seen.get(h); !ok {
				auditMissing = append(auditMissing, h)
			}
		}
	}
	x.res.MemoryMiB = float64(x.mem.peak) / (1 << 20)
	if x.res.BudgetCut > 0 && (x.res.Stop == StopComplete || x.res.Stop == StopDepth) {
		x.res.Stop = StopSteps
	}
	x.res.Exhausted = x.res.Stop == StopComplete || x.res.Stop == StopDepth
	x.res.Complete = x.res.Stop == StopComplete
	if x.nondet != nil {
		x.res.Exhausted, x.res.Complete = false, false
		return &x.res, x.nondet
	}
	return &x.res, nil
}

// measureScenario runs the scenario once as simrun run does (its seed)
// to say how long it is.
func (x *explorer) measureScenario() {
	sc := *x.cfg.Scenario
	sc.Explore = nil
	r := harness.Execute(&sc, harness.Options{Seed: sc.Seed, Strategy: x.cfg.Strategy, Profile: x.cfg.Profile,
		Mutants: x.cfg.Mutants, Fixes: x.cfg.Fixes, MaxSteps: x.cfg.MaxSteps, Budget: x.cfg.Budget.Scheduled(&sc)})
	x.res.ScenarioSteps, x.res.SeededOutcome = r.Steps, r.Outcome
	x.res.ScenarioMs = sc.DurationMs + sc.HealMs
}

func (x *explorer) options(ch harness.Chooser, stop int64) harness.Options {
	return harness.Options{Strategy: x.cfg.Strategy, Profile: x.cfg.Profile, Mutants: x.cfg.Mutants, Fixes: x.cfg.Fixes,
		Chooser: ch, StopAfter: stop, StateHash: true, MaxSteps: x.cfg.MaxSteps, Budget: x.budget}
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

// search is the breadth-first loop: level holds the states depth steps
// from the root.
func (x *explorer) search() {
	x.levelIdx, x.nextIdx = map[uint64]int{}, map[uint64]int{}
	x.part = PartPrefix
	if x.cfg.FromMs > 0 {
		if !x.prefix() {
			return
		}
	} else {
		x.expandRoot()
	}
	x.part = PartSearch
	split := x.cfg.Shard.N <= 1
	for depth := 0; ; depth++ {
		// The level expanded gives its array and its index (emptied as
		// its states were expanded) to the next level.
		done, doneIdx := x.level, x.levelIdx
		x.level, x.levelIdx = x.next, x.nextIdx
		x.expanded = -1
		clear(done)
		clear(doneIdx)
		x.next, x.nextIdx = done[:0], doneIdx
		x.mem.nodes -= x.mem.levelNodes // the level expanded is dropped
		x.mem.levelNodes = x.mem.nodes
		x.shedLevel, x.shedNext = len(x.level), 0
		if x.stop {
			x.cut(0)
			return
		}
		if !split && len(x.level) >= splitStates*int(x.cfg.Shard.N) {
			x.res.SharedStates = x.res.States
			x.keepShard()
			split = true
		}
		x.covered(depth)
		if len(x.level) == 0 {
			x.res.Stop = StopComplete
			return
		}
		if x.cfg.Depth > 0 && depth == x.cfg.Depth {
			x.res.Stop = StopDepth
			x.cut(0)
			return
		}
		x.depth = depth
		for i := range x.level {
			x.cur = i
			n := &x.level[i]
			x.expanded = i
			if x.interrupted() {
				x.cut(i)
				return
			}
			x.expand(n, depth)
			x.mem.release(n.bytes)
			x.drop(n.run)
			n.run, n.bytes = nil, 0
			if x.stop {
				x.cut(i + 1)
				return
			}
		}
		if x.cfg.Progress != nil {
			x.cfg.Progress(x.res.Depth, x.res.States, len(x.next))
		}
	}
}

// covered records that every state depth steps from the root is in
// x.level.
func (x *explorer) covered(depth int) {
	if len(x.level) == 0 {
		return
	}
	x.res.Covered = depth
	x.res.ReachedMinMs, x.res.ReachedMaxMs = x.level[0].nowMs, x.level[0].nowMs
	for _, n := range x.level {
		x.res.ReachedMinMs = min(x.res.ReachedMinMs, n.nowMs)
		x.res.ReachedMaxMs = max(x.res.ReachedMaxMs, n.nowMs)
	}
}

// cut ends the search with the states not expanded (x.level[from:] and
// x.next) as its frontier: with liveness on, the continuation runs from
// each unless the search stopped at a violation or a signal.
func (x *explorer) cut(from int) {
	if x.res.Stop == "" {
		x.res.Stop = StopStates
		if x.mem.over {
			x.res.Stop = StopMemory
		}
	}
	if x.res.Violation != nil {
		x.res.Stop = StopViolation
	}
	if x.res.Interrupted {
		x.res.Stop = StopInterrupted
	}
	// The frontier, in two parts (not copied into one: it may hold
	// millions of nodes).
	frontier := [2][]node{x.level[from:], x.next}
	for _, part := range frontier {
		for i := range part {
			if part[i].only == nil {
				x.res.Frontier++
			}
		}
	}
	if !x.cfg.Liveness || x.res.Stop == StopViolation || x.res.Stop == StopInterrupted || x.nondet != nil {
		return
	}
	x.stop = false
	x.part = PartLiveness
	budget := int64(x.cfg.MaxStates) * continuationSteps
	for _, part := range frontier {
		for i := range part {
			if part[i].only != nil {
				continue // a state expanded before: its continuation ran or will
			}
			if x.interrupted() {
				x.res.Stop = StopInterrupted
				return
			}
			if x.continuation(&part[i], budget); x.stop {
				switch {
				case x.res.Violation != nil:
					x.res.Stop = StopViolation
				case x.res.Interrupted:
					x.res.Stop = StopInterrupted
				}
				return
			}
		}
	}
	if x.res.LivenessCut > 0 && (x.res.Stop == StopDepth || x.res.Stop == StopComplete) {
		x.res.Stop = StopStates
	}
}

// continuationSteps is how many continuation steps each state of
// --max-states allows: the continuations from the cut states take at
// most MaxStates*continuationSteps steps in all (a continuation hashes
// about one state every memoEvery steps, so they record about as many
// states as the search visits).
const continuationSteps = memoEvery

// prefix runs alternative 0 at every choice up to FromMs and makes the
// state there the search's root (level 0); false when the run ended (or
// broke an invariant) before.
func (x *explorer) prefix() bool {
	s := &harness.Script{Lost: x.cfg.Lost, Record: true}
	run := harness.Start(x.sc, x.options(s, 0))
	x.res.Runs++
	for run.Done() == nil && run.NowMs() < x.cfg.FromMs {
		if run.Steps()%stopEvery == 0 && x.interrupted() {
			x.res.Stop = StopInterrupted
			return false
		}
		run.Step()
		x.res.StepsRun++
	}
	picks := make([]int, len(s.Points))
	if r := run.Done(); r != nil {
		if r.Outcome == harness.OutcomeSafety || r.Outcome == harness.OutcomeLiveness {
			x.violation(picks, r)
			x.res.Stop = StopViolation
		} else {
			x.res.Stop = StopComplete
		}
		return false
	}
	x.baseSteps = run.Steps()
	x.res.BaseSteps, x.res.BaseMs = run.Steps(), run.NowMs()
	x.rootPath = (*path)(nil).extend(picks)
	x.root = run.Fork(&harness.Script{Lost: x.cfg.Lost})
	x.root.Parts(&x.child)
	x.seen.put(x.child.Hash, 0)
	x.res.States++
	if visitHook != nil {
		visitHook(x.root)
	}
	x.add(node{path: x.rootPath, hash: x.child.Hash, run: run.Fork(&harness.Script{Lost: x.cfg.Lost}), nowMs: run.NowMs()},
		x.child.Size)
	return true
}

// expandRoot visits the initial states: one for each alternative of the
// choices the cluster's first effects make.
func (x *explorer) expandRoot() {
	var suffix []int
	for !x.stop {
		s := &harness.Script{Picks: suffix, Lost: x.cfg.Lost, Record: true}
		run := harness.Start(x.sc, x.options(s, 0))
		x.res.Runs++
		picks := pointPicks(s.Points)
		x.res.Transitions++
		if done := run.Done(); done != nil {
			x.ended(nil, picks, done, run)
		} else {
			run.Parts(&x.child)
			x.visitStart(picks, run)
		}
		next, ok := nextPicks(s.Points, 0)
		if !ok {
			return
		}
		suffix = next
	}
}

// visitStart visits an initial state, keeping a copy to rebuild the
// states after it from when the search keeps it.
func (x *explorer) visitStart(picks []int, run *harness.Run) {
	var start *harness.Run
	if !x.cfg.Reexecute {
		start = run.Fork(&harness.Script{Lost: x.cfg.Lost}) // before the level takes run
	}
	if !x.visit(nil, picks, run, nil) {
		x.drop(start) // a state seen before: its copy goes to the spares
		return
	}
	if start == nil {
		return
	}
	if x.starts == nil {
		x.starts = map[*path]*harness.Run{}
	}
	x.starts[x.next[len(x.next)-1].path] = start
}

// pointPicks returns the picks a script took.
func pointPicks(pts []harness.Point) []int {
	return appendPicks(make([]int, 0, len(pts)), pts)
}

// appendPicks appends the picks a script took to dst.
func appendPicks(dst []int, pts []harness.Point) []int {
	for _, p := range pts {
		dst = append(dst, p.Pick)
	}
	return dst
}

// nextPicks returns the picks of the next alternative after the one that
// met pts, varying the last point with alternatives left at or after from;
// false when none is left.
func nextPicks(pts []harness.Point, from int) ([]int, bool) {
	return nextPicksInto(nil, pts, from)
}

// nextPicksInto is nextPicks appending to dst[:0].
func nextPicksInto(dst []int, pts []harness.Point, from int) ([]int, bool) {
	j := len(pts) - 1
	for j >= from && pts[j].Pick+1 >= pts[j].N {
		j--
	}
	if j < from {
		return nil, false
	}
	if dst == nil {
		dst = make([]int, 0, j+1)
	}
	out := appendPicks(dst[:0], pts[:j+1])
	out[j]++
	return out, true
}

// nextSuffix is nextPicks from 0 into the one of x.suffixes the step
// before did not use.
func (x *explorer) nextSuffix(pts []harness.Point) ([]int, bool) {
	x.suffixAt ^= 1
	out, ok := nextPicksInto(x.suffixes[x.suffixAt], pts, 0)
	if ok {
		x.suffixes[x.suffixAt] = out
	}
	return out, ok
}

// stopEvery is how many steps of one run (a liveness continuation, the
// --from-ms prefix) go between two questions to Config.Stopped: a signal
// stops a long run within a fraction of a second, not at its end.
const stopEvery = 256

// interrupted asks Config.Stopped.
func (x *explorer) interrupted() bool {
	if !x.res.Interrupted && x.cfg.Stopped != nil && x.cfg.Stopped() {
		x.res.Interrupted, x.stop = true, true
		x.res.InterruptedIn = x.part
	}
	return x.res.Interrupted
}

// keepShard keeps the states of x.level this shard owns.
func (x *explorer) keepShard() {
	var out []node
	for _, n := range x.level {
		if n.hash%x.cfg.Shard.N == x.cfg.Shard.K {
			out = append(out, n)
		} else {
			x.mem.release(n.bytes)
			x.drop(n.run)
		}
	}
	x.level, x.levelIdx = out, map[uint64]int{}
	x.mem.nodes, x.mem.levelNodes = 0, 0
	for i := range out {
		x.levelIdx[out[i].hash] = i
		x.mem.nodes += nodeBytes(&out[i])
	}
	x.mem.levelNodes = x.mem.nodes
}

// ended takes a step that ended its run (from parent, nil for the initial
// step): a violation, the work budget, or the end of the scenario.
func (x *explorer) ended(parent *path, picks []int, done *harness.RunResult, run *harness.Run) {
	switch {
	case done.Outcome == harness.OutcomeSafety || done.Outcome == harness.OutcomeLiveness:
		x.violation(parent.extend(picks).all(), done)
		return
	case done.Outcome != harness.OutcomeOK:
		x.res.BudgetCut++ // the work budget: the path is cut
		return
	}
	h := done.StateHash
	if run != nil {
		h = run.Hash()
	}
	if _, dup := x.seen.get(h); dup {
		return
	}
	x.seen.put(h, 0)
	x.res.States++
	x.res.Ended++ // the scenario ended: a leaf
	x.res.Depth = max(x.res.Depth, x.depth+1)
	if visitHook != nil && run != nil {
		visitHook(run)
	}
	x.checkBudgets()
}

// visit takes a state a step led to (its parts in x.child): new, or
// reached before with a sleep set that may leave steps to take. kept: run
// went into the next level.
func (x *explorer) visit(parent *path, picks []int, run *harness.Run, sleep []asleep) (kept bool) {
	ref, dup := x.seen.get(x.child.Hash)
	return x.visitSeen(parent, picks, run, sleep, ref, dup)
}

// visitSeen is visit with the state's entry in the visited set looked up;
// kept as revisit's.
func (x *explorer) visitSeen(parent *path, picks []int, run *harness.Run, sleep []asleep, ref uint64, dup bool) (kept bool) {
	h := x.child.Hash
	if dup {
		return x.revisit(parent, picks, run, sleep, ref)
	}
	x.seen.put(h, x.store(ids(sleep)))
	x.res.States++
	if visitHook != nil {
		visitHook(run)
	}
	n := node{path: parent.extend(picks), hash: h, run: run, nowMs: x.child.NowUs / 1000, sleep: sleep}
	if !x.cfg.NoReduction {
		n.parts = x.child
		n.parts.Brokers = x.keepBrokers(x.child.Brokers)
	}
	x.add(n, x.child.Size)
	x.checkBudgets()
	return true
}

// keepBrokers copies a state's broker fingerprints for its node, into a
// slab that the nodes of about a level share: one allocation for hundreds
// of nodes, not one a node. The copy is clipped (an append reallocates).
func (x *explorer) keepBrokers(b []uint64) []uint64 {
	if x.slab == nil || cap(x.slab)-len(x.slab) < len(b) {
		x.slab = make([]uint64, 0, max(slabWords, len(b)))
	}
	i := len(x.slab)
	x.slab = append(x.slab, b...)
	return x.slab[i:len(x.slab):len(x.slab)]
}

// slabWords is the size of keepBrokers's slabs: 4 KiB.
const slabWords = 512

// add puts n in the next level, keeping its state if the memory budget
// allows (size: its encoding's bytes).
func (x *explorer) add(n node, size int) {
	if x.cfg.Reexecute || !x.mem.keep(cloneBytes(size)) {
		if n.run != nil {
			x.res.Rebuilt++
		}
		x.drop(n.run)
		n.run = nil
	} else {
		n.bytes = cloneBytes(size)
		if x.unread() {
			// Counted as kept (the estimate and shed see what they would),
			// its memory handed to the next copy: fresh memory for a copy
			// costs its allocation and the collector's work.
			x.drop(n.run)
			n.run = nil
		}
	}
	n.depth = int32(x.depth + 1)
	x.mem.nodes += nodeBytes(&n)
	x.res.Depth = max(x.res.Depth, int(n.depth))
	x.nextIdx[n.hash] = len(x.next)
	x.next = append(x.next, n)
	x.shedNext = len(x.next)
}

// unread reports whether the states of the next level are never read: the
// level at the depth bound, with no liveness continuation to run from it
// (search stops there; cut reads the nodes, not their states).
func (x *explorer) unread() bool {
	return !x.cfg.Liveness && x.cfg.Depth > 0 && x.depth+1 == x.cfg.Depth
}

// checkBudgets stops the search at the state budget or when the visited
// states alone pass the memory budget, and sheds kept states while the
// estimate is over it.
func (x *explorer) checkBudgets() {
	x.mem.fixed = x.res.States*stateBytes + int64(len(x.memo))*memoBytes + int64(len(x.sleeps))*sleepWordBytes + x.mem.nodes
	x.shed()
	x.mem.note()
	if memoryHook != nil {
		memoryHook(x)
	}
	if x.stop {
		return
	}
	switch {
	case x.res.States >= int64(x.cfg.MaxStates):
		x.stop = true
		x.res.Stop = StopStates
	case x.mem.fixed > x.mem.budget:
		x.stop, x.mem.over = true, true
		x.res.Stop = StopMemory
	}
}

// shed drops kept states, the last added first, while the estimate is
// over the budget: they are rebuilt from their paths when expanded.
// x.shedNext and x.shedLevel are how far down the levels it has gone.
func (x *explorer) shed() {
	for x.mem.fixed+x.mem.clones > x.mem.budget {
		var n *node
		switch {
		case x.shedNext > 0:
			x.shedNext--
			n = &x.next[x.shedNext]
		case x.shedLevel > x.cur+1: // never the state being expanded
			x.shedLevel--
			n = &x.level[x.shedLevel]
		default:
			return
		}
		if n.bytes > 0 { // kept (its run nil if unread)
			x.mem.release(n.bytes)
			x.drop(n.run)
			n.run, n.bytes = nil, 0
			x.res.Rebuilt++
		}
	}
}

// store keeps a sorted set of step identities and returns its reference
// (0: empty).
func (x *explorer) store(set []uint64) uint64 {
	if len(set) == 0 {
		return 0
	}
	ref := uint64(len(x.sleeps))<<24 | uint64(len(set))
	x.sleeps = append(x.sleeps, set...)
	return ref
}

// stored returns the set ref names.
func (x *explorer) stored(ref uint64) []uint64 {
	if ref == 0 {
		return nil
	}
	off, n := ref>>24, ref&(1<<24-1)
	return x.sleeps[off : off+n]
}

// revisit takes a state seen before, reached again with sleep set sleep:
// the steps it had asleep that are awake now must still be taken from it.
// A state not expanded yet keeps only the steps asleep on both paths; one
// expanded already is expanded again for the awake steps. kept: run went
// into the next level (add keeps it or drops it).
func (x *explorer) revisit(parent *path, picks []int, run *harness.Run, sleep []asleep, ref uint64) (kept bool) {
	h := x.child.Hash
	old := x.stored(ref)
	if len(old) == 0 {
		return false // nothing was asleep: every step was or will be taken
	}
	var keep, awake []uint64
	for _, id := range old {
		if asleepIn(sleep, id) {
			keep = append(keep, id)
		} else {
			awake = append(awake, id)
		}
	}
	if len(awake) == 0 {
		return false
	}
	x.seen.put(h, x.store(keep))
	if n := x.pending(h); n != nil {
		n.sleep = slices.DeleteFunc(n.sleep, func(a asleep) bool { return !slices.Contains(keep, a.id) })
		if n.only != nil {
			n.only = append(n.only, awake...)
		}
		return false
	}
	x.res.Reexpanded++
	x.add(node{path: parent.extend(picks), hash: h, run: run, nowMs: x.child.NowUs / 1000,
		sleep: slices.DeleteFunc(slices.Clone(sleep), func(a asleep) bool { return !slices.Contains(keep, a.id) }),
		only:  awake}, x.child.Size)
	return true
}

// pending returns the node of state h not expanded yet, in this level or
// the next, nil when none.
func (x *explorer) pending(h uint64) *node {
	if i, ok := x.nextIdx[h]; ok {
		return &x.next[i]
	}
	if i, ok := x.levelIdx[h]; ok && i > x.expanded {
		return &x.level[i]
	}
	return nil
}

// expand takes every step from n (depth steps from the root) that its
// sleep set does not hold, grouped by input: the alternatives of one input
// (its latencies, failures, producers) are taken or skipped together.
func (x *explorer) expand(n *node, depth int) {
	if n.run == nil {
		n.run = x.rebuild(n, depth)
	}
	parent := n.parts
	if parent.Brokers == nil && !x.cfg.NoReduction {
		n.run.Parts(&parent)
	}
	var taken []asleep // the inputs taken before, with their footprints
	var group asleep   // the input being taken
	var groupPicks []int
	groupAsleep, first, faultPoint := false, true, false
	var suffix []int
	last := false // the step of suffix is likely n's last (lastPicks)
	for !x.stop {
		if faultPoint && len(suffix) == 1 && suffix[0] > 0 && !auditReduction && x.asleep(n, harness.FaultInputID(suffix[0]-1)) {
			// An injected fault asleep: skipped without taking it.
			x.res.Skipped += boolInt(n.only == nil)
			if suffix[0]+1 >= x.faultAlternatives() {
				return
			}
			suffix, last = []int{suffix[0] + 1}, false
			continue
		}
		// One script for every step: the step's run never reads it after
		// the step (each later step from that state is given its own).
		s := &x.stepScript
		*s = harness.Script{Picks: suffix, Lost: x.cfg.Lost, Record: true, Points: s.Points[:0]}
		c := x.step(n, depth, s, last)
		x.picks = appendPicks(x.picks[:0], s.Points)
		picks := x.picks
		if first {
			faultPoint, first = len(s.Points) > 0 && s.Points[0].Kind == harness.ChoiceFault, false
		}
		key := groupKey(s.Points)
		if group.id == 0 || !slices.Equal(picks[:key+1], groupPicks) {
			if group.id != 0 && !groupAsleep {
				taken = append(taken, group)
			}
			group, groupPicks = asleep{id: c.Input().ID}, slices.Clone(picks[:key+1])
			groupAsleep = x.asleep(n, group.id)
			if groupAsleep && n.only == nil {
				x.res.Skipped++
			}
		}
		if groupAsleep {
			if !auditReduction {
				x.drop(c)
				next, ok := x.nextSuffix(s.Points[:key+1])
				if !ok {
					return
				}
				suffix, last = next, lastPicks(s.Points[:key+1], next)
				continue
			}
			if n.only == nil && c.Done() == nil {
				x.audited = append(x.audited, c.Hash())
			}
			x.drop(c)
		} else {
			x.take(n, &parent, &group, taken, picks, c)
		}
		next, ok := x.nextSuffix(s.Points)
		if !ok {
			return
		}
		suffix, last = next, lastPicks(s.Points, next)
	}
}

// copyEveryStep, set by tests, takes every step on a copy.
var copyEveryStep bool

// lastPicks reports whether next, the picks nextPicks made from the points
// pts of the step before, likely take the last alternative: every point up
// to the one it varies has none left after it, and the step before met no
// choice after that point (the same step usually meets the same ones).
// expand takes that step on the state itself instead of a copy; when the
// guess was wrong, step rebuilds the state for the steps left.
func lastPicks(pts []harness.Point, next []int) bool {
	j := len(next) - 1
	if next[j]+1 < pts[j].N {
		return false
	}
	for i, p := range pts {
		if i < j && p.Pick+1 < p.N || i > j && p.N > 1 {
			return false
		}
	}
	return true
}

// take visits the state step c from n led to, its sleep set made from n's
// and the inputs taken before (taken), and adds the step's footprint to
// its input's (group).
func (x *explorer) take(n *node, parent *harness.Parts, group *asleep, taken []asleep, picks []int, c *harness.Run) {
	x.res.Transitions++
	if in := c.Input(); in.Refused && c.Done() == nil {
		// A refused fault changed nothing: the state is n's own, taken
		// already (its steps are those of n). It read its broker, which a
		// later step may change so that it is refused no more.
		group.fp = union(group.fp, footprintOf(parent, parent, in))
		if auditReduction && c.Hash() != n.hash {
			x.audited = append(x.audited, c.Hash())
		}
		x.drop(c)
		return
	}
	if done := c.Done(); done != nil {
		group.fp.global = true // a step that ends its run is never asleep
		x.ended(n.path, picks, done, c)
		x.drop(c)
		return
	}
	c.Parts(&x.child)
	fp := footprintOf(parent, &x.child, c.Input())
	group.fp = union(group.fp, fp)
	ref, dup := x.seen.get(x.child.Hash)
	if dup && ref == 0 {
		x.drop(c)
		return // seen with nothing asleep: every step from it is taken
	}
	var sleep []asleep
	switch {
	case x.cfg.NoReduction:
	case n.only != nil:
		sleep = sleepAfter(n.sleep, nil, fp) // expanded again: the inputs taken before are not known here
	default:
		sleep = sleepAfter(n.sleep, taken, fp)
	}
	if !x.visitSeen(n.path, picks, c, sleep, ref, dup) {
		x.drop(c)
	}
}

// asleep reports whether the input id is not to be taken from n: asleep,
// or, for a state expanded again, not among those to take.
func (x *explorer) asleep(n *node, id uint64) bool {
	if n.only != nil {
		return !slices.Contains(n.only, id)
	}
	return !x.cfg.NoReduction && asleepIn(n.sleep, id)
}

// faultAlternatives is the number of alternatives of a fault point: no
// fault, or one of the candidates.
func (x *explorer) faultAlternatives() int { return len(x.sc.Explore.Faults) + 1 }

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// groupKey is the index of the point that chose the step's input (the
// fault or tie point; -1 when there was no choice of input): the steps
// that share the picks up to it take the same input.
func groupKey(pts []harness.Point) int {
	k := -1
	for i, p := range pts {
		if p.Kind == harness.ChoiceFault {
			k = i
			if p.Pick > 0 {
				return k
			}
			continue
		}
		if p.Kind == harness.ChoiceTie {
			return i
		}
		break
	}
	return k
}

// union is the footprint of several steps taken as one.
func union(a, b footprint) footprint {
	return footprint{brokers: a.brokers | b.brokers, global: a.global || b.global, advances: a.advances || b.advances,
		readsTime: a.readsTime || b.readsTime}
}

// step takes the step of n picked by s: on a copy of n's state, on the
// state itself when it is likely n's last (the caller then owns n.run and
// n.run is nil), or re-running the path from the start.
func (x *explorer) step(n *node, depth int, s *harness.Script, last bool) *harness.Run {
	if !x.cfg.Reexecute {
		if n.run == nil { // the step before was taken on the state itself: it was not the last
			x.res.Restored++
			runs, steps := x.res.Runs, x.res.StepsRun
			n.run = x.rebuild(n, depth)
			x.res.Runs, x.res.StepsRun = runs, steps // not the search's work: the same as a kept state's
		}
		var c *harness.Run
		if last && !copyEveryStep {
			x.res.InPlace++
			c, n.run = n.run, nil
			c.Rechoose(s)
		} else {
			c = x.fork(n.run, s)
		}
		c.Step()
		x.res.StepsRun++
		return c
	}
	base := n.path.all()
	full := &harness.Script{Picks: append(base, s.Picks...), Lost: x.cfg.Lost, Record: true}
	run := harness.Start(x.sc, x.options(full, 0))
	x.res.Runs++
	target := x.baseSteps + int64(depth) + 1
	for run.Done() == nil && run.Steps() < target {
		run.Step()
		x.res.StepsRun++
	}
	s.Points = append(s.Points[:0], full.Points[len(base):]...)
	return run
}

// rebuild re-runs n's path to its state, depth steps from the root: from
// the root's state with a prefix, else from its initial state's copy
// (starts), else from the start.
func (x *explorer) rebuild(n *node, depth int) *harness.Run {
	x.res.Runs++
	picks := n.path.all()
	var run *harness.Run
	first := n.path
	for first != nil && first.parent != nil {
		first = first.parent
	}
	if x.root != nil {
		run = x.root.Fork(&harness.Script{Picks: picks[x.rootPath.n:], Lost: x.cfg.Lost})
	} else if start := x.starts[first]; start != nil {
		run = x.fork(start, &harness.Script{Picks: picks[first.n:], Lost: x.cfg.Lost})
	} else {
		run = harness.Start(x.sc, x.options(&harness.Script{Picks: picks, Lost: x.cfg.Lost}, 0))
	}
	for run.Done() == nil && run.Steps() < x.baseSteps+int64(depth) {
		run.Step()
		x.res.StepsRun++
	}
	return run
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

// rerunHook, set by tests, alters the result of re-running a violating
// path (to inject nondeterminism).
var rerunHook func(*harness.RunResult)
