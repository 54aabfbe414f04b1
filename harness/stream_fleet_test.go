package harness

import (
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// fleetFile is a broker-scale run of two partitions of topic t on two
// brokers in which a network partition cuts b1 off while a fetch answer
// is in flight.
const fleetFile = `{"brokers": 2, "duration_ms": 400, "heal_ms": 400,
  "config": {"network_latency_ms": [1, 1]},
  "partitions": [{"topic": "t", "partition": 0, "replicas": [0, 1]}, {"topic": "t", "partition": 1, "replicas": [0, 1]}],
  "events": [{"at_ms": 0, "type": "produce", "records": 20, "over_ms": 100},
             {"at_ms": 2, "type": "network_partition", "brokers": [1], "duration_ms": 100}]}`

// runFleet runs fleetFile, its trace limited to partition only ("" none),
// and returns the result, the events the observers saw and the trace lines.
func runFleet(t *testing.T, only string) (*RunResult, []model.Event, []string) {
	t.Helper()
	return runFleetWith(t, only, 0)
}

// runFleetWith is runFleet with fixes.
func runFleetWith(t *testing.T, only string, fixes model.Fixes) (*RunResult, []model.Event, []string) {
	t.Helper()
	sc, err := scenarios.Parse([]byte(fleetFile))
	if err != nil {
		t.Fatal(err)
	}
	var evs []model.Event
	var lines []string
	obs := model.ObserverFunc(func(_ sim.Time, e *model.Event) { evs = append(evs, *e) })
	res := Execute(sc, Options{Seed: 1, Strategy: LastTiered, Profile: model.KIP, TracePartition: only, Fixes: fixes,
		Observers: []model.Observer{obs}, TraceSink: func(l string) { lines = append(lines, l) }})
	if res.Outcome != OutcomeOK {
		t.Fatalf("outcome %s: %+v", res.Outcome, res.Violation)
	}
	return res, evs, lines
}

// TestFleetEventsNameTheirPartition: in a run of many partitions the
// environment's own events of the whole fleet (the run's start, a network
// partition and its end) belong to no partition, while a message the
// network drops belongs to its message's; the run counts every event.
func TestFleetEventsNameTheirPartition(t *testing.T) {
	res, evs, _ := runFleet(t, "")
	fleet, drops := map[model.EventKind]int{}, 0
	for _, e := range evs {
		switch e.Kind {
		case model.EvRunStart, model.EvNetworkPartition, model.EvPartitionEnd:
			if e.Part != -1 {
				t.Errorf("%s of the whole fleet names partition %d", e.Kind, e.Part)
			}
			if e.Kind == model.EvRunStart && (e.Broker != -1 || strings.Contains(e.Text, "fixes=")) {
				t.Errorf("the run's start, without fixes, names broker %d: %q", e.Broker, e.Text)
			}
			fleet[e.Kind]++
		case model.EvDropped:
			if e.Part != e.Msg.Part {
				t.Errorf("a dropped message of partition %d names partition %d", e.Msg.Part, e.Part)
			}
			drops++
		}
	}
	if fleet[model.EvRunStart] != 1 || fleet[model.EvNetworkPartition] != 1 || fleet[model.EvPartitionEnd] != 1 {
		t.Errorf("fleet-wide events %v, want one run start, partition and partition end", fleet)
	}
	if drops == 0 {
		t.Errorf("the network partition dropped no message")
	}
	if res.Events != int64(len(evs)) {
		t.Errorf("the run counted %d events, its observers saw %d", res.Events, len(evs))
	}
}

// TestFleetTraceOfOnePartition: a trace limited to one partition shows its
// lines and the whole fleet's, not another partition's; unlimited, it
// shows every partition's.
func TestFleetTraceOfOnePartition(t *testing.T) {
	count := func(lines []string) (t0, t1, fleet int) {
		for _, l := range lines {
			switch {
			case strings.Contains(l, "t-0"):
				t0++
			case strings.Contains(l, "t-1"):
				t1++
			default:
				fleet++
			}
		}
		return
	}
	_, _, all := runFleet(t, "")
	a0, a1, af := count(all)
	if a0 == 0 || a1 == 0 || af == 0 {
		t.Errorf("the whole trace: %d lines of t-0, %d of t-1, %d of the fleet", a0, a1, af)
	}
	_, _, one := runFleet(t, "t-1")
	if o0, o1, of := count(one); o0 != 0 || o1 != a1 || of != af {
		t.Errorf("the trace of t-1: %d lines of t-0, %d of t-1, %d of the fleet; want 0, %d, %d", o0, o1, of, a1, af)
	}
	_, _, zero := runFleet(t, "t-0")
	if o0, o1, of := count(zero); o0 != a0 || o1 != 0 || of != af {
		t.Errorf("the trace of t-0: %d lines of t-0, %d of t-1, %d of the fleet; want %d, 0, %d", o0, o1, of, a0, af)
	}
}

// TestFleetStartNamesItsFixes: the run's start line names the fixes the
// run has on, and none when it has none.
func TestFleetStartNamesItsFixes(t *testing.T) {
	fix := model.Fixes(0).With(model.FixIdleFullyTieredStall)
	_, _, lines := runFleetWith(t, "", fix)
	if want := "fixes=" + fix.String(); !strings.Contains(lines[0], want) {
		t.Errorf("the start line %q, want %q", lines[0], want)
	}
}
