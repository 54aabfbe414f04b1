package scenarios

import (
	"slices"
	"strings"
	"testing"
)

// TestFaultTableNamesEachKindOnce: every fault kind has a canonical name
// no other kind uses in any vocabulary, a scenario event of the format
// (with a set_config key the format takes), and a model event.
func TestFaultTableNamesEachKindOnce(t *testing.T) {
	owner := map[string]FaultKind{}
	claim := func(k FaultKind, name string) {
		if name == "" {
			return
		}
		if o, ok := owner[name]; ok && o != k {
			t.Errorf("%q names both %s and %s", name, o, k)
		}
		owner[name] = k
	}
	for _, k := range Faults() {
		f := k.Fault()
		if f.Name == "" || f.Model.String() == "" {
			t.Errorf("fault %d: no canonical name or model event: %+v", k, f)
		}
		claim(k, f.Name)
		claim(k, f.Gen)
		claim(k, f.Explore)
		if f.Event != "" && !slices.Contains(eventTypes, f.Event) {
			t.Errorf("%s: event %q is not a scenario event type", k, f.Event)
		}
		if (f.Key != "") != (f.Event == EventSetConfig) {
			t.Errorf("%s: key %q with event %q (a set_config fault has a key, no other does)", k, f.Key, f.Event)
		}
		if f.Key != "" && !SetConfigBool(f.Key) && !SetConfigInt(f.Key) {
			t.Errorf("%s: %q is not a set_config key", k, f.Key)
		}
		if f.Event != "" && f.Event != EventSetConfig && f.Name != f.Event {
			t.Errorf("%s: canonical name %q is not its event type %q", k, f.Name, f.Event)
		}
	}
}

// TestExploreFaultSpellings: explore's --faults names are the contract
// (crash, restart, elect, partition, remote-outage, in candidate order), each
// also spelled as its scenario event type; other names are refused, naming
// the list.
func TestExploreFaultSpellings(t *testing.T) {
	if got := strings.Join(ExploreFaultNames(), ","); got != "crash,restart,elect,partition,remote-outage" {
		t.Errorf("explore fault names %s", got)
	}
	for name, want := range map[string]FaultKind{
		"crash": FaultCrash, "restart": FaultRestart, "elect": FaultElect, "elect_leader": FaultElect,
		"partition": FaultPartition, "network_partition": FaultPartition,
		"remote-outage": FaultRemoteOutage, "remote_outage": FaultRemoteOutage,
	} {
		if k, err := ParseExploreFault(name); err != nil || k != want {
			t.Errorf("ParseExploreFault(%q) = %v, %v; want %v", name, k, err, want)
		}
	}
	for _, name := range []string{"outage", "tiering", "delete_records", "unclean", "Crash", ""} {
		_, err := ParseExploreFault(name)
		if err == nil || !strings.Contains(err.Error(), `"`+name+`"`) || !strings.Contains(err.Error(), "remote-outage") {
			t.Errorf("ParseExploreFault(%q): %v, want an error naming it and the list", name, err)
		}
	}
}

// TestScheduleInjectsExploreFaultsOnly: a schedule's faults are the event
// types explore injects; any other event is refused naming the field.
func TestScheduleInjectsExploreFaultsOnly(t *testing.T) {
	base := `{"brokers": 2, "duration_ms": 1000, "explore": {"faults": [%s]}}`
	for _, k := range Faults() {
		f := k.Fault()
		var ev string
		switch f.Event {
		case "":
			continue
		case EventSetConfig:
			ev = `{"at_ms": 0, "type": "set_config", "key": "` + f.Key + `", "value": true}`
			if SetConfigInt(f.Key) {
				ev = `{"at_ms": 0, "type": "set_config", "key": "` + f.Key + `", "value": 0}`
			}
		case EventNetworkPartition:
			ev = `{"at_ms": 0, "type": "network_partition", "brokers": [1], "duration_ms": 5}`
		case EventRemoteOutage:
			ev = `{"at_ms": 0, "type": "remote_outage", "duration_ms": 5}`
		case EventDeleteRecords:
			ev = `{"at_ms": 0, "type": "delete_records", "before_offset": 0}`
		default:
			ev = `{"at_ms": 0, "type": "` + f.Event + `", "broker": 1}`
		}
		_, err := Parse([]byte(strings.Replace(base, "%s", ev, 1)))
		if injects := f.Explore != ""; injects != (err == nil) {
			t.Errorf("%s: explore injects it: %v; a schedule with it: %v", k, injects, err)
		}
		if err != nil && !strings.Contains(err.Error(), "explore.faults[0].type") {
			t.Errorf("%s: %v, want an error naming explore.faults[0].type", k, err)
		}
	}
}

// TestFaultOf: each single-event fault kind is what its own event injects
// (the harness applies a scenario event by this lookup), a set_config of a
// key no kind owns and the other event types inject none; and the model
// kind the table names is the event's own (the model spells it with '-'),
// so the table cannot tell the run to record a crash as a restart.
func TestFaultOf(t *testing.T) {
	for _, k := range Faults() {
		f := k.Fault()
		if f.Event == "" {
			continue
		}
		if got, ok := FaultOf(&Event{Type: f.Event, Key: f.Key}); !ok || got != k {
			t.Errorf("FaultOf(%s %s) = %v, %v; want %v", f.Event, f.Key, got, ok, k)
		}
		if want := strings.ReplaceAll(f.Event, "_", "-"); f.Model.String() != want {
			t.Errorf("%s: the table's model event %s is not its scenario event %s", k, f.Model, f.Event)
		}
	}
	for _, e := range []Event{{Type: EventSetConfig, Key: "retention_ms"}, {Type: EventAddReplica}, {Type: EventProduce},
		{Type: EventConsume}, {Type: EventReassign}, {Type: EventReplaceBroker}, {Type: EventRollingRestart}} {
		if k, ok := FaultOf(&e); ok {
			t.Errorf("FaultOf(%s %s) = %v: no fault", e.Type, e.Key, k)
		}
	}
}
