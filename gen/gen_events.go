package gen

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"tierfetch/scenarios"
)

// faultKinds are the fault kinds a generated scenario draws a subset of, in
// the order they are drawn (the order is part of every generated scenario;
// scenarios.Faults names them).
var faultKinds = []scenarios.FaultKind{scenarios.FaultElect, scenarios.FaultCrash, scenarios.FaultTiering, scenarios.FaultCopy,
	scenarios.FaultDeleteRecords, scenarios.FaultPartition, scenarios.FaultRemoteOutage, scenarios.FaultFlag,
	scenarios.FaultRetention, scenarios.FaultRemoteRetention}

func (g *generator) events(sc *scenarios.Scenario) {
	for _, k := range faultKinds {
		if g.r.Chance(0.35) {
			g.faults = append(g.faults, k)
		}
	}
	if sc.Config.UncleanLeaderElectionEnable && len(sc.Replicas) > 1 {
		g.faults = append(g.faults, scenarios.FaultUnclean)
	}
	var added []int
	for b := 0; b < sc.Brokers; b++ {
		if !slices.Contains(sc.Replicas, b) && (len(added) == 0 || g.r.Chance(0.3)) {
			added = append(added, b)
			sc.Events = append(sc.Events, scenarios.Event{AtMs: g.r.Int64Range(0, sc.DurationMs/2), Type: scenarios.EventAddReplica, Broker: ptr(b)})
		}
	}
	for i := 0; i < 1+g.r.IntN(6); i++ {
		at := g.r.Int64Range(0, sc.DurationMs-1)
		sc.Events = append(sc.Events, scenarios.Event{AtMs: at, Type: scenarios.EventProduce, Records: g.r.Int64Range(1, 5000),
			OverMs: g.r.Int64Range(0, min(60_000, sc.DurationMs-at))})
	}
	all := append(slices.Clone(sc.Replicas), added...)
	sort.Ints(all)
	for _, k := range g.faults {
		for i := 0; i < 1+g.r.IntN(3); i++ {
			g.fault(sc, k, all)
		}
	}
	if g.r.Chance(0.3) {
		sc.Events = append(sc.Events, scenarios.Event{AtMs: g.r.Int64Range(0, sc.DurationMs), Type: scenarios.EventConsume, FromOffset: 0})
	}
}

func (g *generator) fault(sc *scenarios.Scenario, kind scenarios.FaultKind, brokers []int) {
	at := g.r.Int64Range(0, sc.DurationMs-1)
	pick := func() *int { return ptr(brokers[g.r.IntN(len(brokers))]) }
	add := func(e scenarios.Event) { e.AtMs = at; sc.Events = append(sc.Events, e) }
	f := kind.Fault()
	switch kind {
	case scenarios.FaultElect, scenarios.FaultCrash:
		b := pick()
		add(scenarios.Event{Type: f.Event, Broker: b})
		if kind == scenarios.FaultCrash && g.r.Chance(0.8) {
			sc.Events = append(sc.Events, scenarios.Event{AtMs: min(sc.DurationMs, at+g.r.Int64Range(100, 60_000)), Type: scenarios.EventRestart, Broker: b})
		}
	case scenarios.FaultTiering, scenarios.FaultCopy:
		add(scenarios.Event{Type: f.Event, Key: f.Key, Value: jsonBool(g.r.Chance(0.5))})
	case scenarios.FaultDeleteRecords:
		add(scenarios.Event{Type: f.Event, BeforeOffset: g.r.Int64Range(0, 20_000)})
	case scenarios.FaultPartition:
		add(scenarios.Event{Type: f.Event, Brokers: []int{*pick()}, DurationMs: g.r.Int64Range(100, 60_000)})
	case scenarios.FaultRemoteOutage:
		add(scenarios.Event{Type: f.Event, DurationMs: g.r.Int64Range(100, 60_000)})
	case scenarios.FaultFlag:
		add(scenarios.Event{Type: f.Event, Key: f.Key, Value: jsonBool(g.r.Chance(0.5)), Broker: pick()})
	case scenarios.FaultRetention:
		add(scenarios.Event{Type: f.Event, Key: f.Key, Value: json.RawMessage("0")})
	case scenarios.FaultUnclean:
		// The followers fall out of the ISR while the leader writes on,
		// then the leader dies: the controller elects a lagging replica.
		at = min(at, sc.DurationMs-70_000)
		if at < 0 {
			return
		}
		add(scenarios.Event{Type: scenarios.EventNetworkPartition, Brokers: slices.Clone(sc.Replicas[1:]), DurationMs: 60_000})
		sc.Events = append(sc.Events,
			scenarios.Event{AtMs: at + 1_000, Type: scenarios.EventProduce, Records: g.r.Int64Range(100, 3000), OverMs: 20_000},
			scenarios.Event{AtMs: at + 45_000, Type: scenarios.EventCrash, Broker: ptr(sc.Replicas[0])},
			scenarios.Event{AtMs: at + 65_000, Type: scenarios.EventRestart, Broker: ptr(sc.Replicas[0])})
	case scenarios.FaultRemoteRetention:
		// Expire remote segments while a new follower may be reading them.
		for _, e := range sc.Events {
			if e.Type == scenarios.EventAddReplica && g.r.Chance(0.7) {
				at = min(sc.DurationMs, e.AtMs+g.r.Int64Range(10, 300))
				break
			}
		}
		add(scenarios.Event{Type: f.Event, Key: f.Key, Value: json.RawMessage(fmt.Sprint(sc.Config.SegmentBytes * g.r.Int64Range(1, 4)))})
	default:
		panic(fmt.Sprintf("fuzz: the generator draws fault %s but cannot build it", kind))
	}
}

func ptr(v int) *int { return &v }

func jsonBool(v bool) json.RawMessage {
	if v {
		return json.RawMessage("true")
	}
	return json.RawMessage("false")
}
