package harness

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"tierfetch/config"
	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// multiRun is what a run of a broker-scale file (scenario partitions) keeps
// per partition: its checker, its view of the events and the state its last
// change showed. Each partition's events go to its own view and checker; an
// input of the whole fleet (a scenario event of every partition, a crash)
// to every view.
type multiRun struct {
	checkers []*invariants.Checker
	views    []*runView
	states   []partState
	// outcomes is each partition's outcome (OutcomeOK until a check fails).
	outcomes []string
	// dirty are the partitions the step touched, taken before Advance;
	// hroOnly the broker whose HRO alone the step changed of the one it
	// touched (model.Fleet.HROOnly, -1: none).
	dirty   []model.PartID
	hroOnly int
	// violation is the first violation the step's touched partitions
	// showed, in Dirty order, violated its partition (recordStateChanges
	// checks each as it records it).
	violation *invariants.Violation
	violated  model.PartID
	// timed lists the partitions whose checker has a time-based check
	// pending (Checker.TimeBound): they are checked after every step, as a
	// one-partition run checks its partition, touched or not.
	timed   []model.PartID
	isTimed []bool
	// byName finds a partition by topic and partition id.
	byName map[model.TopicPartition]model.PartID
	// bs folds the events into the run's broker-scale statistics.
	bs *brokerScaleView
	// traceOnly is the partition the text trace is limited to
	// (Options.TracePartition; -1: every partition).
	traceOnly model.PartID
}

// newMulti builds the fleet of a broker-scale file: each partition with its
// entry's initial log (built once an entry) and config, and a view each.
func (r *runner) newMulti(sc *scenarios.Scenario, opt Options, lastTiered bool) {
	m := &multiRun{byName: map[model.TopicPartition]model.PartID{}, traceOnly: -1}
	inits := make([]*model.Initial, len(sc.Partitions))
	var parts []model.PartitionInit
	for id, p := range sc.EachPartition() {
		if inits[p.Entry] == nil {
			in := scenarios.ModelInitialOf(p.Initial, p.Config.RecordBytes)
			inits[p.Entry] = &in
		}
		cfg := p.Config.ModelConfig()
		cfg.Mutants, cfg.Fixes = opt.Mutants, opt.Fixes
		tp := model.TopicPartition{Topic: p.Topic, Partition: p.Partition}
		m.byName[tp] = model.PartID(id)
		parts = append(parts, model.PartitionInit{TP: tp, Cfg: cfg, Replicas: p.Replicas, Init: *inits[p.Entry],
			LeaderThrottled:   throttledOf(p.Config.LeaderReplicationThrottledReplicas, p.Partition),
			FollowerThrottled: throttledOf(p.Config.FollowerReplicationThrottledReplicas, p.Partition)})
		m.views = append(m.views, newRunView(sc.Brokers, p.Replicas, cfg.RemoteStorageEnable, inits[p.Entry]))
	}
	n := len(parts)
	m.states, m.outcomes, m.isTimed = make([]partState, n), make([]string, n), make([]bool, n)
	for i := range m.outcomes {
		m.outcomes[i] = OutcomeOK
	}
	m.bs = newBrokerScaleView(sc, n)
	if opt.TracePartition != "" {
		tp, err := parseTopicPartition(opt.TracePartition)
		id, ok := m.byName[tp]
		if err != nil || !ok {
			panic(fmt.Sprintf("harness: Options.TracePartition %q not checked (CheckTracePartition): %v", opt.TracePartition, err))
		}
		m.traceOnly = id
	}
	r.mp = m
	start := model.NewEvent(model.EvRunStart, -1)
	start.Text = fmt.Sprintf("scenario=%q seed=%d strategy=%s profile=%s", sc.Name, opt.Seed, opt.Strategy, opt.Profile.Name())
	if opt.Fixes != 0 {
		start.Text += " fixes=" + opt.Fixes.String()
	}
	r.begin(start)
	fc := model.FleetConfig{NumReplicaFetchers: int(sc.Config.NumReplicaFetchers),
		ReplicaFetchResponseMaxBytes: sc.Config.ReplicaFetchResponseMaxBytes, ReplicaFetchMinBytes: sc.Config.ReplicaFetchMinBytes,
		LeaderThrottledRate: sc.Config.LeaderReplicationThrottledRate, FollowerThrottledRate: sc.Config.FollowerReplicationThrottledRate,
		NoElision: opt.noElision}
	r.f = model.NewFleet(fc, opt.Profile, sc.Brokers, lastTiered, parts)
	r.c = r.f.Parts[0]
	for _, c := range r.f.Parts {
		k := invariants.New(c)
		k.TrimLazily()
		m.checkers = append(m.checkers, k)
	}
	r.checker, r.view = m.checkers[0], m.views[0]
	fetchers := max(1, int(sc.Config.NumReplicaFetchers))
	r.timers = make([]sim.Timer, (n+fetchers)*sc.Brokers*int(model.NumTimerKinds)*sc.Brokers)
}

// observe passes an event to its partition's view and checker, an input of
// the whole fleet to every view, and every event to the broker-scale view.
func (m *multiRun) observe(now sim.Time, e *model.Event) {
	switch {
	case e.Part >= 0:
		m.views[e.Part].Event(now, e)
		if m.checkers != nil {
			m.checkers[e.Part].Event(now, e)
		}
		if e.Kind == model.EvFetched && m.views[e.Part].replicas[e.Broker].Added {
			m.bs.fromLeader(e)
		}
	case e.Kind.IsInput() && e.Kind != model.EvDeliver && e.Kind != model.EvTimer && e.Kind != model.EvRemoteDone:
		for _, v := range m.views {
			v.Event(now, e)
		}
	}
	m.bs.Event(now, e)
}

// check fails the run at the first violation of the partitions the step
// touched (checked in Dirty order as they were recorded:
// recordStateChanges), or else runs the invariants on those with a
// time-based check pending.
func (m *multiRun) check(r *runner) *Failure {
	if m.violation != nil {
		return m.fail(r, m.violated, m.violation)
	}
	timed := m.timed[:0]
	for _, p := range m.timed {
		if !m.checkers[p].TimeBound() {
			m.isTimed[p] = false
			continue
		}
		timed = append(timed, p)
	}
	m.timed = timed
	for _, p := range m.timed {
		if v := m.checkPart(r, p, -1); v != nil {
			return m.fail(r, p, v)
		}
	}
	return nil
}

// checkPart checks partition p; only >= 0 is the one broker whose HRO
// alone the step changed of it (Checker.CheckBroker: a partition whose
// checks are time-bound is checked whole).
func (m *multiRun) checkPart(r *runner, p model.PartID, only int) *invariants.Violation {
	var v *invariants.Violation
	if c := r.f.At(p); only >= 0 && !m.isTimed[p] {
		v = m.checkers[p].CheckBroker(c, c.Brokers[only], r.sched.Now())
	} else {
		v = m.checkers[p].Check(c, r.sched.Now())
	}
	if !m.isTimed[p] && m.checkers[p].TimeBound() {
		m.isTimed[p] = true
		m.timed = append(m.timed, p)
	}
	return v
}

// fail is the run's failure at partition p's violation v.
func (m *multiRun) fail(r *runner, p model.PartID, v *invariants.Violation) *Failure {
	m.outcomes[p] = OutcomeSafety
	return r.failure(named(r.f.TPs[p], v))
}

// liveness checks every partition at the end of the run; the first
// violation, in PartID order, is the run's.
func (m *multiRun) liveness(r *runner) *Failure {
	var first *Failure
	for p, k := range m.checkers {
		if v := k.CheckLiveness(r.f.At(model.PartID(p))); v != nil {
			m.outcomes[p] = OutcomeLiveness
			if first == nil {
				first = r.failure(named(r.f.TPs[p], v))
			}
		}
	}
	return first
}

// named prefixes a violation's message with its partition's name.
func named(tp model.TopicPartition, v *invariants.Violation) *invariants.Violation {
	n := *v
	n.Message = tp.String() + ": " + v.Message
	return &n
}

// clone returns an independent copy (Run.Clone).
func (m *multiRun) clone() *multiRun {
	n := *m
	n.checkers, n.views = make([]*invariants.Checker, len(m.checkers)), make([]*runView, len(m.views))
	for i := range m.checkers {
		n.checkers[i], n.views[i] = m.checkers[i].Clone(), m.views[i].clone()
	}
	n.states = make([]partState, len(m.states))
	for i, s := range m.states {
		n.states[i] = s
		n.states[i].brokers = append([]brokerView(nil), s.brokers...)
	}
	n.outcomes = append([]string(nil), m.outcomes...)
	n.timed, n.isTimed = append([]model.PartID(nil), m.timed...), append([]bool(nil), m.isTimed...)
	n.bs = m.bs.clone()
	return &n
}

// targets returns the partitions a scenario event names: one (topic and
// partition), a reassign's list, a topic's, or nil for every partition.
func (m *multiRun) targets(f *model.Fleet, e *scenarios.Event) []model.PartID {
	if e.Topic == "" {
		return nil
	}
	if e.Partition != nil {
		return []model.PartID{m.byName[model.TopicPartition{Topic: e.Topic, Partition: *e.Partition}]}
	}
	if e.Partitions != nil {
		out := make([]model.PartID, len(e.Partitions))
		for i, p := range e.Partitions {
			out[i] = m.byName[model.TopicPartition{Topic: e.Topic, Partition: p}]
		}
		return out
	}
	var out []model.PartID
	for i, tp := range f.TPs {
		if tp.Topic == e.Topic {
			out = append(out, model.PartID(i))
		}
	}
	return out
}

// PartitionResult is one partition's result in a broker-scale run.
type PartitionResult struct {
	TP       model.TopicPartition
	Outcome  string
	Replicas []ReplicaStats
}

// finish fills the run's per-partition results and statistics.
func (m *multiRun) finish(r *runner, res *RunResult) {
	res.Coverage = [model.NumGoals]int64{}
	res.Partitions = make([]PartitionResult, len(m.views))
	for p, v := range m.views {
		if p > 0 {
			v.end()
		}
		for g, n := range v.coverage {
			res.Coverage[g] += n
		}
		for g, n := range r.f.Parts[p].Coverage {
			res.Coverage[g] += n
		}
		res.Partitions[p] = PartitionResult{TP: r.f.TPs[p], Outcome: m.outcomes[p], Replicas: v.replicas}
	}
	res.BrokerScale = m.bs.stats(r.sched.Now(), m.views)
}

// CheckTracePartition returns why name cannot limit sc's trace
// (Options.TracePartition), nil if it can: sc must hold many partitions, one
// of them named name ("topic-partition").
func CheckTracePartition(sc *scenarios.Scenario, name string) error {
	if !sc.BrokerScale() {
		return config.Errorf("TracePartition", "%q: the scenario holds one partition (no partitions list); {Trace} shows all of it", name)
	}
	tp, err := parseTopicPartition(name)
	if err != nil {
		return err
	}
	var first, last model.TopicPartition
	for id, p := range sc.EachPartition() {
		if p.Topic == tp.Topic && p.Partition == tp.Partition {
			return nil
		}
		if id == 0 {
			first = model.TopicPartition{Topic: p.Topic, Partition: p.Partition}
		}
		last = model.TopicPartition{Topic: p.Topic, Partition: p.Partition}
	}
	return fmt.Errorf("%q: no such partition in the scenario (its partitions run from %s to %s)", name, first, last)
}

// parseTopicPartition reads Kafka's name of a partition, "topic-partition":
// the partition is the number after the last '-' (a topic may hold '-').
func parseTopicPartition(name string) (model.TopicPartition, error) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return model.TopicPartition{}, fmt.Errorf("%q: want topic-partition, such as orders-3", name)
	}
	n, err := strconv.ParseInt(name[i+1:], 10, 32)
	if err != nil || n < 0 {
		return model.TopicPartition{}, fmt.Errorf("%q: the partition after the last '-' must be a number from 0 to %d", name, math.MaxInt32)
	}
	return model.TopicPartition{Topic: name[:i], Partition: int32(n)}, nil
}

// throttledOf returns the replicas of partition number p a throttled-replica
// list names (validated when the scenario was parsed).
func throttledOf(list string, p int32) model.Throttled {
	t, _ := scenarios.ParseThrottledReplicas(list)
	out := model.Throttled{All: t.All}
	for _, r := range t.Replicas {
		if r.Partition == p && !slices.Contains(out.Brokers, r.Broker) {
			out.Brokers = append(out.Brokers, r.Broker)
		}
	}
	return out
}
