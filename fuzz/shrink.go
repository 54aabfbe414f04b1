package fuzz

import (
	"cmp"
	"fmt"
	"slices"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// ShrinkResult is a minimal scenario that still fails the same way.
type ShrinkResult struct {
	Scenario *scenarios.Scenario
	Runs     int // how many candidate runs the shrink took
	// Before and After measure the input and the result.
	Before, After Size
}

// Size measures a scenario for "before/after" reports.
type Size struct {
	Events  int // every event
	Faults  int // events other than add_replica, produce and consume
	Brokers int
	// Records counts the initial log, [log_start_offset, log end offset), plus
	// every produced record.
	Records int64
	// DurationMs is the simulated time: the fault phase plus the healed period.
	DurationMs int64
	Segments   int // initial remote and local segments
}

// SizeOf measures sc.
func SizeOf(s *scenarios.Scenario) Size {
	z := Size{Events: len(s.Events), Brokers: s.Brokers, DurationMs: s.DurationMs + s.HealMs}
	for _, e := range s.Events {
		switch e.Type {
		case scenarios.EventAddReplica, scenarios.EventConsume:
		case scenarios.EventProduce:
			z.Records += e.Records
		default:
			z.Faults++
		}
	}
	if in := s.Initial; in != nil {
		z.Segments = len(in.RemoteSegments) + len(in.LocalSegments)
		if n := len(in.LocalSegments); n > 0 {
			z.Records += max(0, in.LocalSegments[n-1].EndOffset+1-in.LogStartOffset)
		}
	}
	return z
}

// String prints a size on one line, e.g.
// "14 events (6 faults), 4 brokers, 12034 records, 8 segments, 265.2s" or
// "1 event (0 faults), 2 brokers, 1000 records, 2 segments, 30.0s".
func (s Size) String() string {
	return fmt.Sprintf("%s (%s), %s, %s, %s, %.1fs", Plural(int64(s.Events), "event"), Plural(int64(s.Faults), "fault"),
		Plural(int64(s.Brokers), "broker"), Plural(s.Records, "record"), Plural(int64(s.Segments), "segment"), float64(s.DurationMs)/1000)
}

// Shrink reduces sc while stillFails(candidate) stays true, and returns the smallest
// candidate found, named sc.Name + "-min" with sc's Seed. sc itself must fail; it is
// never changed, and a copy of it is returned if no smaller candidate fails.
//
// Each round runs five passes, each keeping a change only if the changed copy still
// fails: remove events (chunks, then single events, add_replica last, a crash with its
// restart), lower numbers (records, over_ms, event durations, at_ms, duration_ms;
// never heal_ms, the liveness contract), shrink the cluster (followers no event names, then brokers), shrink the
// initial fixture (drop it, or its first segments), and set numeric config to its
// defaults. Rounds repeat until one makes no progress.
//
// stillFails is called only on candidates that pass Validate, never twice on the same
// candidate, and at most maxRuns times. Shrink is deterministic: the same input and
// predicate give the same result.
func Shrink(sc *scenarios.Scenario, stillFails func(*scenarios.Scenario) bool, maxRuns int) ShrinkResult {
	s := &shrinker{cur: cloneScenario(sc), stillFails: stillFails, maxRuns: maxRuns, tried: map[string]bool{}}
	s.cur.Name = sc.Name + "-min"
	s.tried[s.key(s.cur)] = true
	passes := []func() bool{s.removeEvents, s.shrinkNumbers, s.shrinkCluster, s.shrinkInitial, s.shrinkConfig}
	for !s.exhausted() {
		progress := false
		for _, pass := range passes {
			progress = pass() || progress
		}
		if !progress {
			break
		}
	}
	out := s.cur
	if !s.shrunk {
		out = cloneScenario(sc)
	}
	return ShrinkResult{Scenario: out, Runs: s.runs, Before: SizeOf(sc), After: SizeOf(out)}
}

// SameFailure returns a stillFails predicate for Shrink: it runs the candidate with opt
// and reports whether the run ends with want's outcome, invariant and kind. The
// predicate runs without opt's TraceSink and StopAfter, so a shrink does not write
// hundreds of traces nor stop before the failure.
func SameFailure(opt harness.Options, want *harness.RunResult) func(*scenarios.Scenario) bool {
	opt.TraceSink, opt.StopAfter = nil, 0
	return func(sc *scenarios.Scenario) bool {
		got := harness.Execute(sc, opt)
		if got.Outcome != want.Outcome || (got.Violation == nil) != (want.Violation == nil) {
			return false
		}
		return got.Violation == nil ||
			got.Violation.Invariant == want.Violation.Invariant && got.Violation.Kind == want.Violation.Kind
	}
}

// shrinker is one shrink: the smallest failing scenario so far and the run budget.
//
// Invariant: stillFails(cur) (for the input, by the caller's word); runs <= maxRuns;
// tried holds cur and every candidate run.
type shrinker struct {
	cur        *scenarios.Scenario
	stillFails func(*scenarios.Scenario) bool
	runs       int
	maxRuns    int
	tried      map[string]bool // a candidate's Marshal output -> it was run (looked up, never ranged)
	shrunk     bool            // cur is a kept candidate, not the input
}

func (s *shrinker) exhausted() bool { return s.runs >= s.maxRuns }

func (s *shrinker) key(sc *scenarios.Scenario) string {
	data, err := sc.Marshal()
	if err != nil {
		panic(fmt.Sprintf("scenarios: shrink candidate %q does not marshal: %v", sc.Name, err))
	}
	return string(data)
}

// try runs cand, if it is non-nil, valid, not run before and within the budget, and
// keeps it if it still fails. It reports whether cand was kept.
func (s *shrinker) try(cand *scenarios.Scenario) bool {
	if cand == nil || s.exhausted() || cand.Validate() != nil {
		return false
	}
	k := s.key(cand)
	if s.tried[k] {
		return false // cur itself, or a candidate that did not fail
	}
	s.tried[k] = true
	s.runs++
	if !s.stillFails(cand) {
		return false
	}
	s.cur, s.shrunk = cand, true
	return true
}

// Pass 1: remove events.

// removeEvents removes chunks of events, halving the chunk size down to 2, then single
// events from the last, add_replica events after all others.
func (s *shrinker) removeEvents() bool {
	progress := false
	for chunk := len(s.cur.Events) / 2; chunk >= 2; chunk /= 2 {
		for start := 0; start < len(s.cur.Events); {
			end := min(start+chunk, len(s.cur.Events))
			if s.try(s.without(indexRange(start, end)...)) {
				progress = true
			} else {
				start = end
			}
		}
	}
	for _, addReplica := range []bool{false, true} {
		for i := len(s.cur.Events) - 1; i >= 0; i-- {
			if (s.cur.Events[i].Type == scenarios.EventAddReplica) == addReplica {
				progress = s.removeEvent(i) || progress
			}
		}
	}
	return progress
}

// removeEvent removes event i; a crash goes first together with the broker's next
// restart, then alone. Events after i may move; events before it do not.
func (s *shrinker) removeEvent(i int) bool {
	e := s.cur.Events[i]
	if e.Type == scenarios.EventCrash {
		if j := s.restartAfter(i); j >= 0 && s.try(s.without(i, j)) {
			return true
		}
	}
	return s.try(s.without(i))
}

// restartAfter returns the index of the first restart of crash i's broker after it,
// before any later crash of that broker, or -1.
func (s *shrinker) restartAfter(i int) int {
	b := *s.cur.Events[i].Broker
	for j := i + 1; j < len(s.cur.Events); j++ {
		e := s.cur.Events[j]
		if e.Broker == nil || *e.Broker != b {
			continue
		}
		switch e.Type {
		case scenarios.EventRestart:
			return j
		case scenarios.EventCrash:
			return -1
		}
	}
	return -1
}

// without returns a copy of cur without the events at the given indexes.
func (s *shrinker) without(idx ...int) *scenarios.Scenario {
	c := cloneScenario(s.cur)
	c.Events = make([]scenarios.Event, 0, len(s.cur.Events))
	for i, e := range s.cur.Events {
		if !slices.Contains(idx, i) {
			c.Events = append(c.Events, cloneEvent(e))
		}
	}
	return c
}

func indexRange(from, to int) []int {
	idx := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		idx = append(idx, i)
	}
	return idx
}

// Pass 2: lower numbers.

func (s *shrinker) shrinkNumbers() bool {
	progress := false
	for i := 0; i < len(s.cur.Events); i++ {
		progress = s.shrinkEventNumbers(i) || progress
	}
	last := int64(0)
	if n := len(s.cur.Events); n > 0 {
		last = s.cur.Events[n-1].AtMs // sorted by at_ms
	}
	progress = s.shrinkNum(s.cur.DurationMs, last+1, false, func(c *scenarios.Scenario, v int64) { c.DurationMs = v }) || progress
	// heal_ms is left alone: the healed period is the liveness contract, and
	// cutting it would make any liveness failure "reproduce" trivially.
	return progress
}

// shrinkEventNumbers lowers event i's numbers, at_ms last: moving the event earlier
// moves it to an index <= i, and leaves the events after i where they were.
func (s *shrinker) shrinkEventNumbers(i int) bool {
	progress := false
	switch s.cur.Events[i].Type {
	case scenarios.EventProduce:
		progress = s.shrinkNum(s.cur.Events[i].Records, 1, true, func(c *scenarios.Scenario, v int64) { c.Events[i].Records = v }) || progress
		progress = s.shrinkNum(s.cur.Events[i].OverMs, 0, false, func(c *scenarios.Scenario, v int64) { c.Events[i].OverMs = v }) || progress
	case scenarios.EventNetworkPartition, scenarios.EventRemoteOutage:
		progress = s.shrinkNum(s.cur.Events[i].DurationMs, 1, false, func(c *scenarios.Scenario, v int64) { c.Events[i].DurationMs = v }) || progress
	}
	return s.shrinkNum(s.cur.Events[i].AtMs, 0, false, func(c *scenarios.Scenario, v int64) {
		c.Events[i].AtMs = v
		sortEvents(c)
	}) || progress
}

// shrinkNum lowers one number from v toward target: target itself first, then halving
// steps while the candidate still fails, bisecting the last gap down to 1 when exact,
// else down to a sixteenth of the value (times need no millisecond precision). set
// writes the number into a copy of cur as it was on entry.
func (s *shrinker) shrinkNum(v, target int64, exact bool, set func(c *scenarios.Scenario, v int64)) bool {
	if v <= target {
		return false
	}
	base := s.cur
	candidate := func(x int64) *scenarios.Scenario {
		c := cloneScenario(base)
		set(c, x)
		return c
	}
	if s.try(candidate(target)) {
		return true
	}
	lo, hi := target, v // lo does not fail, hi does
	for !s.exhausted() {
		gap := int64(1)
		if !exact {
			gap = max(1, hi/16)
		}
		if hi-lo <= gap {
			break
		}
		mid := lo + (hi-lo)/2
		if s.try(candidate(mid)) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi < v
}

func sortEvents(c *scenarios.Scenario) {
	slices.SortStableFunc(c.Events, func(a, b scenarios.Event) int { return cmp.Compare(a.AtMs, b.AtMs) })
}

// Pass 3: shrink the cluster.

// shrinkCluster drops initial followers no event names, then lowers the broker count:
// straight to the fewest the replicas and events allow, else one at a time.
func (s *shrinker) shrinkCluster() bool {
	progress := false
	for i := len(s.cur.Replicas) - 1; i >= 1; i-- {
		if s.named(s.cur.Replicas[i]) {
			continue
		}
		c := cloneScenario(s.cur)
		c.Replicas = slices.Delete(c.Replicas, i, i+1)
		progress = s.try(c) || progress
	}
	brokers := func(n int) *scenarios.Scenario {
		c := cloneScenario(s.cur)
		c.Brokers = n
		return c
	}
	fewest := s.highestBroker() + 1
	if fewest >= s.cur.Brokers {
		return progress
	}
	if s.try(brokers(fewest)) {
		return true
	}
	for n := s.cur.Brokers - 1; n > fewest && s.try(brokers(n)); n-- {
		progress = true
	}
	return progress
}

// named reports whether an event names broker id.
func (s *shrinker) named(id int) bool {
	return slices.ContainsFunc(s.cur.Events, func(e scenarios.Event) bool {
		return e.Broker != nil && *e.Broker == id || slices.Contains(e.Brokers, id)
	})
}

// highestBroker returns the highest broker id the replicas or an event name.
func (s *shrinker) highestBroker() int {
	high := 0
	for _, b := range s.cur.Replicas {
		high = max(high, b)
	}
	for _, e := range s.cur.Events {
		if e.Broker != nil {
			high = max(high, *e.Broker)
		}
		for _, b := range e.Brokers {
			high = max(high, b)
		}
	}
	return high
}

// Pass 4: shrink the initial fixture.

// shrinkInitial drops the whole fixture, else its first remote segments, then its
// first local segments, as long as the fixture stays valid and the scenario fails.
func (s *shrinker) shrinkInitial() bool {
	if s.cur.Initial == nil {
		return false
	}
	c := cloneScenario(s.cur)
	c.Initial = nil
	if s.try(c) {
		return true
	}
	progress := false
	for s.try(dropFirstRemote(s.cur)) {
		progress = true
	}
	for s.try(dropFirstLocal(s.cur)) {
		progress = true
	}
	return progress
}

// dropFirstRemote returns a copy of sc whose log starts after its first remote
// segment: the log start offset rises to the next segment (remote, else local), and
// closed local segments wholly below it go too. It returns nil if there is none.
func dropFirstRemote(sc *scenarios.Scenario) *scenarios.Scenario {
	if len(sc.Initial.RemoteSegments) == 0 {
		return nil
	}
	c := cloneScenario(sc)
	in := c.Initial
	in.RemoteSegments = in.RemoteSegments[1:]
	start := in.LocalSegments[0].BaseOffset
	if len(in.RemoteSegments) > 0 {
		start = in.RemoteSegments[0].BaseOffset
	}
	in.LogStartOffset = max(in.LogStartOffset, start)
	for len(in.LocalSegments) > 1 && in.LocalSegments[0].EndOffset < in.LogStartOffset {
		in.LocalSegments = in.LocalSegments[1:]
	}
	return c
}

// dropFirstLocal returns a copy of sc without its first local segment (never the
// active one); with no remote segments the log start offset rises with it. It returns
// nil if there is only the active segment.
func dropFirstLocal(sc *scenarios.Scenario) *scenarios.Scenario {
	if len(sc.Initial.LocalSegments) < 2 {
		return nil
	}
	c := cloneScenario(sc)
	in := c.Initial
	in.LocalSegments = in.LocalSegments[1:]
	if len(in.RemoteSegments) == 0 {
		in.LogStartOffset = max(in.LogStartOffset, in.LocalSegments[0].BaseOffset)
	}
	return c
}

// Pass 5: numeric config toward the defaults.

// configNumbers copy one numeric config field each, from src to dst.
var configNumbers = []func(dst, src *scenarios.Config){
	func(d, s *scenarios.Config) { d.SegmentBytes = s.SegmentBytes },
	func(d, s *scenarios.Config) { d.RecordBytes = s.RecordBytes },
	func(d, s *scenarios.Config) { d.ReplicaFetchMaxBytes = s.ReplicaFetchMaxBytes },
	func(d, s *scenarios.Config) { d.ReplicaFetchBackoffMs = s.ReplicaFetchBackoffMs },
	func(d, s *scenarios.Config) { d.ReplicaFetchWaitMaxMs = s.ReplicaFetchWaitMaxMs },
	func(d, s *scenarios.Config) { d.ReplicaLagTimeMaxMs = s.ReplicaLagTimeMaxMs },
	func(d, s *scenarios.Config) { d.RemoteLogManagerTaskIntervalMs = s.RemoteLogManagerTaskIntervalMs },
	func(d, s *scenarios.Config) { d.LocalRetentionBytes = s.LocalRetentionBytes },
	func(d, s *scenarios.Config) { d.LocalRetentionMs = s.LocalRetentionMs },
	func(d, s *scenarios.Config) { d.RetentionBytes = s.RetentionBytes },
	func(d, s *scenarios.Config) { d.RetentionMs = s.RetentionMs },
	func(d, s *scenarios.Config) { d.NetworkLatencyMs = s.NetworkLatencyMs },
	func(d, s *scenarios.Config) { d.RemoteUploadMs = s.RemoteUploadMs },
	func(d, s *scenarios.Config) { d.RemoteFetchMs = s.RemoteFetchMs },
	func(d, s *scenarios.Config) { d.ReplicationBytesPerSec = s.ReplicationBytesPerSec },
	func(d, s *scenarios.Config) { d.RemoteMetadataReadyMs = s.RemoteMetadataReadyMs },
	func(d, s *scenarios.Config) { d.ReplicaSocketTimeoutMs = s.ReplicaSocketTimeoutMs },
	func(d, s *scenarios.Config) { d.LogRetentionCheckIntervalMs = s.LogRetentionCheckIntervalMs },
	func(d, s *scenarios.Config) { d.RemoteErrorRate = s.RemoteErrorRate },
}

// shrinkConfig sets numeric config fields to their defaults, one at a time. A field
// already at its default gives cur again, which try skips without a run.
func (s *shrinker) shrinkConfig() bool {
	def := scenarios.DefaultConfig()
	progress := false
	for _, set := range configNumbers {
		c := cloneScenario(s.cur)
		set(&c.Config, &def)
		progress = s.try(c) || progress
	}
	return progress
}

// Copies.

// cloneScenario returns a deep copy of sc: no slice or pointer is shared.
func cloneScenario(sc *scenarios.Scenario) *scenarios.Scenario {
	c := *sc
	c.Replicas = slices.Clone(sc.Replicas)
	if f := sc.Config.FollowerFetchLastTieredOffsetEnable; f != nil {
		v := *f
		c.Config.FollowerFetchLastTieredOffsetEnable = &v
	}
	if sc.Initial != nil {
		in := *sc.Initial
		in.RemoteSegments = slices.Clone(in.RemoteSegments)
		in.LocalSegments = slices.Clone(in.LocalSegments)
		c.Initial = &in
	}
	if sc.Events != nil {
		c.Events = make([]scenarios.Event, len(sc.Events))
		for i, e := range sc.Events {
			c.Events[i] = cloneEvent(e)
		}
	}
	return &c
}

func cloneEvent(e scenarios.Event) scenarios.Event {
	if e.Broker != nil {
		b := *e.Broker
		e.Broker = &b
	}
	e.Value = slices.Clone(e.Value)
	e.Brokers = slices.Clone(e.Brokers)
	return e
}

// ShrinkRun shrinks sc, whose run under opt fails, with at most maxRuns
// candidate runs (Shrink, keeping SameFailure), and records in the result
// how the smallest scenario fails: its own step and time.
func ShrinkRun(sc *scenarios.Scenario, opt harness.Options, maxRuns int) ShrinkResult {
	opt.TraceSink, opt.StopAfter = nil, 0
	res := Shrink(sc, SameFailure(opt, harness.Execute(sc, opt)), maxRuns)
	res.Scenario = harness.WithRecord(res.Scenario, opt, harness.Summarize(harness.Execute(res.Scenario, opt)))
	return res
}

// ShrunkLines are the two lines a shrunk case prints, in 'simrun sweep'
// and 'simrun shrink' alike: what failed, its size before and after and
// the runs it took, then the command that replays the file (which records
// the strategy, profile and mutants).
func ShrunkLines(what string, res ShrinkResult, file string) string {
	return fmt.Sprintf("  %s: %s -> %s (%s)\n    replay: simrun replay %s", what, res.Before, res.After, Plural(int64(res.Runs), "run"), file)
}

// Plural is "1 event", "2 events": n and the noun, in the plural unless n
// is 1.
func Plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
