package scenarios

import (
	"fmt"
	"strings"

	"tierfetch/model"
)

// FaultKind is one kind of fault the simulator injects. FaultKind.Fault
// says every name it goes by: this file is the one place that names them
// (docs/reference/scenario-format.md, "Fault kinds").
type FaultKind int

// The fault kinds, in the order explore builds its candidates and the
// reference lists them.
const (
	FaultCrash FaultKind = iota
	FaultRestart
	FaultElect
	FaultPartition
	FaultRemoteOutage
	FaultDeleteRecords
	FaultTiering
	FaultCopy
	FaultFlag
	FaultRetention
	FaultRemoteRetention
	FaultUnclean
	faultKinds // the number of kinds
)

// Fault names one fault kind in every vocabulary that speaks of it.
type Fault struct {
	// Name is its canonical name: the scenario event type that injects it,
	// or, for a fault that is a set_config key or a sequence of events,
	// the generator's name.
	Name string
	// Event is the scenario event type that injects it ("" for a sequence
	// of events: FaultUnclean); Key, for a set_config event, the key it sets.
	Event, Key string
	// Gen is the name sweep's scenario generator draws it by (internal:
	// it names no output).
	Gen string
	// Explore is the name explore's --faults takes ("": explore does not
	// inject it); explore also takes Name.
	Explore string
	// Model is the kind of the event the model records when the fault
	// happens (its name in traces and JSON is the model's, Model.String()).
	Model model.EventKind
}

// faults is the table, indexed by FaultKind.
var faults = [faultKinds]Fault{
	FaultCrash:        {Name: EventCrash, Event: EventCrash, Gen: "crash", Explore: "crash", Model: model.EvCrash},
	FaultRestart:      {Name: EventRestart, Event: EventRestart, Explore: "restart", Model: model.EvRestart},
	FaultElect:        {Name: EventElectLeader, Event: EventElectLeader, Gen: "elect", Explore: "elect", Model: model.EvElectLeader},
	FaultPartition:    {Name: EventNetworkPartition, Event: EventNetworkPartition, Gen: "partition", Explore: "partition", Model: model.EvNetworkPartition},
	FaultRemoteOutage: {Name: EventRemoteOutage, Event: EventRemoteOutage, Gen: "outage", Explore: "remote-outage", Model: model.EvRemoteOutage},
	FaultDeleteRecords: {Name: EventDeleteRecords, Event: EventDeleteRecords, Gen: "delete_records",
		Model: model.EvDeleteRecords},
	FaultTiering:         {Name: "tiering", Event: EventSetConfig, Key: "remote_storage_enable", Gen: "tiering", Model: model.EvSetConfig},
	FaultCopy:            {Name: "copy", Event: EventSetConfig, Key: "remote_log_copy_disable", Gen: "copy", Model: model.EvSetConfig},
	FaultFlag:            {Name: "flag", Event: EventSetConfig, Key: "follower_fetch_last_tiered_offset_enable", Gen: "flag", Model: model.EvSetConfig},
	FaultRetention:       {Name: "retention", Event: EventSetConfig, Key: "local_retention_bytes", Gen: "retention", Model: model.EvSetConfig},
	FaultRemoteRetention: {Name: "remote_retention", Event: EventSetConfig, Key: "retention_bytes", Gen: "remote_retention", Model: model.EvSetConfig},
	// A network partition of the followers, produce, then the leader's
	// crash and restart: the controller elects a lagging replica.
	FaultUnclean: {Name: "unclean", Gen: "unclean", Model: model.EvUncleanElection},
}

// Fault returns the names of k.
func (k FaultKind) Fault() Fault { return faults[k] }

// String is k's canonical name.
func (k FaultKind) String() string { return faults[k].Name }

// FaultOf returns the fault kind event e injects: the kind whose Event is
// e's type and, for set_config, whose Key is e's key. ok is false for an
// event that injects no fault (add_replica, produce, ..., a set_config of
// another key).
func FaultOf(e *Event) (k FaultKind, ok bool) {
	for k, f := range faults {
		if f.Event != "" && f.Event == e.Type && (f.Key == "" || f.Key == e.Key) {
			return FaultKind(k), true
		}
	}
	return 0, false
}

// Faults returns every fault kind, in table order.
func Faults() []FaultKind {
	out := make([]FaultKind, faultKinds)
	for k := range out {
		out[k] = FaultKind(k)
	}
	return out
}

// ExploreFaults returns the kinds explore injects, in the order it builds
// their candidates.
func ExploreFaults() []FaultKind {
	var out []FaultKind
	for _, k := range Faults() {
		if faults[k].Explore != "" {
			out = append(out, k)
		}
	}
	return out
}

// ExploreFaultNames returns the names explore's --faults lists (Explore), in
// candidate order.
func ExploreFaultNames() []string {
	var out []string
	for _, k := range ExploreFaults() {
		out = append(out, faults[k].Explore)
	}
	return out
}

// ParseExploreFault returns the kind explore's --faults name stands for: its
// Explore name or its canonical Name (remote-outage or remote_outage).
func ParseExploreFault(name string) (FaultKind, error) {
	for _, k := range ExploreFaults() {
		if name == faults[k].Explore || name == faults[k].Name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown fault %q (want some of %s)", name, strings.Join(ExploreFaultNames(), ", "))
}

// FaultTypes are the event types a schedule may inject: those of the kinds
// explore injects.
var FaultTypes = faultTypes()

func faultTypes() []string {
	var out []string
	for _, k := range ExploreFaults() {
		out = append(out, faults[k].Event)
	}
	return out
}
