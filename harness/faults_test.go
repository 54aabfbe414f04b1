package harness

import (
	"fmt"
	"testing"

	"tierfetch/scenarios"
)

// TestFaultTableModelEvents: the scenario event of every fault kind the
// fault table gives one event makes the model record the table's model
// event (scenarios.Fault.Model), so the table's word for what a trace shows
// is the run's; a kind applyFault has no case for panics here.
func TestFaultTableModelEvents(t *testing.T) {
	for _, k := range scenarios.Faults() {
		f := k.Fault()
		var ev string
		switch f.Event {
		case "": // a sequence of events (unclean): its parts are the other rows
			continue
		case scenarios.EventSetConfig:
			value := "false"
			if scenarios.SetConfigInt(f.Key) {
				value = "0"
			}
			ev = fmt.Sprintf(`{"at_ms": 100, "type": "set_config", "key": %q, "value": %s}`, f.Key, value)
		case scenarios.EventNetworkPartition:
			ev = `{"at_ms": 100, "type": "network_partition", "brokers": [1], "duration_ms": 50}`
		case scenarios.EventRemoteOutage:
			ev = `{"at_ms": 100, "type": "remote_outage", "duration_ms": 50}`
		case scenarios.EventDeleteRecords:
			ev = `{"at_ms": 100, "type": "delete_records", "before_offset": 10}`
		default:
			ev = fmt.Sprintf(`{"at_ms": 100, "type": %q, "broker": 1}`, f.Event)
		}
		file := `{"name": "fault", "brokers": 2, "replicas": [0, 1], "duration_ms": 1000, "heal_ms": 1000, "events": [
			{"at_ms": 0, "type": "produce", "records": 100}, ` + ev + `]}`
		_, evs := runWith(t, file)
		seen := false
		for _, x := range evs {
			seen = seen || (x.e.Kind == f.Model && x.at >= 100_000)
		}
		if !seen {
			t.Errorf("%s (%s): the run records no %s event at or after 100 ms", k, ev, f.Model)
		}
	}
}
