package gen

import (
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// emptiedChance is how often an eligible generated scenario (below) ends its
// fault phase with an emptied log and an unclean election.
const emptiedChance = 0.2

// emptied, drawn from its own stream so that the other draws of a seed do not
// move, makes some scenarios end their fault phase the way KIP-405's
// truncation rule is tested: once every other fault is over, deleteRecords
// deletes every record (bounded by the high watermark), so the followers hold
// no records while their log end offset is far above 0; then a new broker is
// added and, before it fetches anything, elected (an unclean election: it is
// outside the ISR). Its log ends at 0, below every follower's, and a follower
// must truncate to it although it holds no records: its LEO is not 0 (the
// path a follower that took "no records" for "LEO 0" gets wrong,
// model.MutantEmptyAgain).
//
// Only scenarios that do not allow unclean elections and have no election,
// crash or restart are eligible: allowing unclean elections changes nothing
// before the tail then, and the scenarios whose unclean elections other
// mutants and findings need stay as they were. The tail ends the run in a
// new, empty lineage, so what such a run would have failed to heal is gone.
func emptied(sc *scenarios.Scenario) {
	r := sim.NewStream(sc.Seed, "emptied")
	if sc.Config.UncleanLeaderElectionEnable || !r.Chance(emptiedChance) {
		return
	}
	for _, e := range sc.Events {
		switch e.Type {
		case scenarios.EventElectLeader, scenarios.EventCrash, scenarios.EventRestart:
			return
		}
	}
	sc.Config.UncleanLeaderElectionEnable = true
	// The tail starts once every event is over: produces have ended,
	// partitions and outages healed.
	at := sc.DurationMs
	for _, e := range sc.Events {
		at = max(at, e.AtMs+e.DurationMs, e.AtMs+e.OverMs)
	}
	at += r.Int64Range(1_000, 10_000)
	spare := sc.Brokers
	sc.Brokers++
	// The followers learn the new log start offset within a fetch wait
	// (replica_fetch_wait_max_ms) and a round trip; the new broker's first
	// fetch answer takes at least two network latencies, so an election 1 ms
	// after it is added finds it holding nothing.
	added := at + sc.Config.ReplicaFetchWaitMaxMs + r.Int64Range(1_000, 5_000)
	sc.Events = append(sc.Events,
		scenarios.Event{AtMs: at, Type: scenarios.EventDeleteRecords, BeforeOffset: deleteEverything},
		scenarios.Event{AtMs: added, Type: scenarios.EventAddReplica, Broker: ptr(spare)},
		scenarios.Event{AtMs: added + 1, Type: scenarios.EventElectLeader, Broker: ptr(spare)})
	sc.DurationMs = added + 1
}

// deleteEverything is a delete_records offset above any log end a generated
// scenario reaches: the leader bounds it by its high watermark.
const deleteEverything = 1 << 40
