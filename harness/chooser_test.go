package harness_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

func brokerPtr(b int) *int { return &b }

// TestScheduleOffersEveryFault: an explore schedule's fault point offers
// "no fault" and each candidate: pick 0 injects nothing, pick i+1 injects
// candidate i, the last one too, and a pick past them is the last
// candidate, counted as clamped (a schedule written for another model). A
// recording script sees the point with every alternative and its time.
func TestScheduleOffersEveryFault(t *testing.T) {
	named, ok := scenarios.Lookup("leader-knows-hro")
	if !ok || named.Brokers != 3 {
		t.Fatal("leader-knows-hro: want a 3-broker scenario")
	}
	faults := []scenarios.Event{
		{Type: scenarios.EventCrash, Broker: brokerPtr(1)},
		{Type: scenarios.EventCrash, Broker: brokerPtr(2)},
		{Type: scenarios.EventCrash, Broker: brokerPtr(0)},
	}
	for pick := 0; pick <= len(faults)+1; pick++ {
		sc := *named
		sc.Explore = &scenarios.Schedule{Faults: faults, Choices: []int{pick}}
		r := harness.Execute(&sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, StopAfter: 1})
		var down []int
		for _, b := range r.Cluster.Brokers {
			if !b.Up {
				down = append(down, b.ID)
			}
		}
		var want []int
		clamped := 0
		switch {
		case pick > len(faults):
			want, clamped = []int{*faults[len(faults)-1].Broker}, 1
		case pick > 0:
			want = []int{*faults[pick-1].Broker}
		}
		if fmt.Sprint(down) != fmt.Sprint(want) {
			t.Errorf("pick %d of %d faults: brokers down %v after the first step, want %v", pick, len(faults), down, want)
		}
		if f := r.Schedule; f == nil || f.Picks != 1 || f.Used != 1 || f.Clamped != clamped || f.Fits() != (clamped == 0) {
			t.Errorf("pick %d: schedule fit %+v, want 1 pick used, %d clamped", pick, f, clamped)
		}

		script := &harness.Script{Picks: []int{pick}, Record: true}
		x := harness.Start(&sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, Chooser: script})
		x.Step()
		if len(script.Points) == 0 {
			t.Fatalf("pick %d: no choice point recorded", pick)
		}
		p := script.Points[0]
		if p.Kind != harness.ChoiceFault || p.N != len(faults)+1 || p.Pick != min(pick, len(faults)) || p.AtMs != x.NowMs() {
			t.Errorf("pick %d: first point %+v (%s), want a fault point of %d alternatives at %d ms", pick, p, p, len(faults)+1, x.NowMs())
		}
		if script.Used() != 1 || script.Clamped != clamped {
			t.Errorf("pick %d: used %d, clamped %d", pick, script.Used(), script.Clamped)
		}
	}
}

// TestScriptLatencyClasses: a script takes a latency's two ends (one when
// the range is a point) and, with Lost, a lost message; a remote operation
// its latency ends, then a failure only when operations can fail; a pick
// past a point's alternatives is the last, counted; a point of one
// alternative takes no pick; past the picks, alternative 0.
func TestScriptLatencyClasses(t *testing.T) {
	s := &harness.Script{Picks: []int{0, 1, 2, 1, 1, 0, 1, 1, 9, 4}, Lost: true, Record: true}
	type lat struct {
		ms   int64
		flag bool
	}
	var got []lat
	for range 3 {
		ms, lost := s.Network(2, 9)
		got = append(got, lat{ms, lost})
	}
	ms, failed := s.Remote(10, 50, 0.5)
	got = append(got, lat{ms, failed})
	ms, failed = s.Remote(10, 50, 0.5)
	got = append(got, lat{ms, failed})
	ms, failed = s.Remote(10, 50, 0) // latency pick 1; cannot fail: no pick
	got = append(got, lat{ms, failed})
	ms, failed = s.Remote(7, 7, 0) // one latency, cannot fail: no pick
	got = append(got, lat{ms, failed})
	want := []lat{{2, false}, {9, false}, {9, true}, {50, true}, {10, true}, {50, false}, {7, false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("latencies %v, want %v", got, want)
	}
	if p := s.Tie(3); p != 2 || s.Clamped != 1 {
		t.Errorf("tie pick 9 of 3: %d, clamped %d", p, s.Clamped)
	}
	if p := s.Producer(1); p != 0 || s.Used() != 9 {
		t.Errorf("one producer: pick %d, used %d picks, want 0 and 9", p, s.Used())
	}
	if p := s.Fault(0, 5); p != -1 || s.Used() != 9 {
		t.Errorf("no fault candidates: pick %d, used %d", p, s.Used())
	}
	if p := s.Producer(3); p != 2 || s.Used() != 10 || s.Clamped != 2 {
		t.Errorf("producer pick 4 of 3: %d, clamped %d", p, s.Clamped)
	}
	if p := s.Producer(3); p != 0 || s.Used() != 10 {
		t.Errorf("past the picks: %d, used %d", p, s.Used())
	}
	var kinds []string
	for _, p := range s.Points {
		kinds = append(kinds, p.String())
		if p.AtMs != 0 {
			t.Errorf("%s: a time (%d ms) on a point that is no fault", p, p.AtMs)
		}
	}
	if got, want := strings.Join(kinds, ", "), "network 0/3, network 1/3, network 2/3, remote-latency 1/2, remote-failure 1/2, remote-latency 0/2, remote-failure 1/2, remote-latency 1/2, tie 2/3, producer 2/3, producer 0/3"; got != want {
		t.Errorf("points %s\nwant   %s", got, want)
	}
	plain := &harness.Script{Picks: []int{1}}
	if ms, lost := plain.Network(3, 3); ms != 3 || lost || plain.Used() != 0 {
		t.Errorf("a fixed latency without loss: %d %v, used %d", ms, lost, plain.Used())
	}
	if ms, lost := plain.Network(3, 8); ms != 8 || lost || len(plain.Points) != 0 {
		t.Errorf("slow: %d %v; points %v recorded without Record", ms, lost, plain.Points)
	}
}

// TestPredictStepsCountsWhatItSays: the prediction is, as its doc says, a
// step per event and per produce chunk, a batch a chunk on each other
// replica holding the log, the leader's ISR-expiry and retention checks and
// each follower's fetches over duration_ms + heal_ms, and the RLM task runs
// when tiering is or turns on; an added replica fetches from its add on.
func TestPredictStepsCountsWhatItSays(t *testing.T) {
	parse := func(extra string) *scenarios.Scenario {
		sc, err := scenarios.Parse([]byte(`{"brokers": 3, "replicas": [0, 1], "duration_ms": 600000, "heal_ms": 60000,
		  "config": {"remote_storage_enable": false, "replica_fetch_wait_max_ms": 500, "replica_fetch_backoff_ms": 100,
		    "remote_log_manager_task_interval_ms": 30000, "replica_lag_time_max_ms": 30000, "log_retention_check_interval_ms": 300000},
		  "events": [` + extra + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	const span = 660000
	base, why := harness.PredictSteps(parse(""))
	if want := int64(span/15000 + span/300000 + span/500); base != want {
		t.Errorf("no events: %d steps, want %d (ISR expiry every 15 s, retention every 300 s, one follower's fetch every 500 ms)", base, want)
	}
	if !strings.Contains(why, "follower fetches") || !strings.Contains(why, "over 660000 ms of duration_ms + heal_ms") {
		t.Errorf("why %q", why)
	}
	added, _ := harness.PredictSteps(parse(`{"at_ms": 100000, "type": "add_replica", "broker": 2}`))
	if want := base + 1 + (span-100000)/500; added != want {
		t.Errorf("an add_replica at 100 s: %d steps, want %d (1 event and a fetch every 500 ms over the remaining 560 s)", added, want)
	}
	tiered, _ := harness.PredictSteps(parse(`{"at_ms": 0, "type": "set_config", "key": "remote_storage_enable", "value": true}`))
	if want := base + 1 + 2*span/30000; tiered != want {
		t.Errorf("tiering turned on: %d steps, want %d (1 event and 2 RLM task runs every 30 s)", tiered, want)
	}
	off, _ := harness.PredictSteps(parse(`{"at_ms": 0, "type": "set_config", "key": "remote_storage_enable", "value": false}`))
	if off != base+1 {
		t.Errorf("tiering turned off: %d steps, want %d", off, base+1)
	}
	chunks := int64(500000 / 100) // a batch every 100 ms
	produce, why := harness.PredictSteps(parse(`{"at_ms": 0, "type": "produce", "records": 1000000, "over_ms": 500000}`))
	if want := base + 1 + chunks + chunks; produce != want {
		t.Errorf("a produce of 1M records over 500 s: %d steps, want %d (1 event, %d chunks, a batch each on the follower)", produce, want, chunks)
	}
	// The chunks and the follower's batches tie: the first named drives it,
	// and a count of chunks is not a rate over the run's span.
	if why != "5000 produce chunks" {
		t.Errorf("a produce of 1M records over 500 s: why %q, want %q", why, "5000 produce chunks")
	}
	both, _ := harness.PredictSteps(parse(`{"at_ms": 0, "type": "produce", "records": 10, "over_ms": 500000}, {"at_ms": 100000, "type": "add_replica", "broker": 2}`))
	if want := base + 2 + 10 + 2*10 + (span-100000)/500; both != want {
		t.Errorf("10 records and an added replica: %d steps, want %d (10 chunks, a batch each on 2 followers)", both, want)
	}
}

// TestStatesAroundTheFailingStep: the states a failure report shows are
// the cluster just before its step and just after, where the run stopped;
// before the first step, the initial state.
func TestStatesAroundTheFailingStep(t *testing.T) {
	sc, _ := scenarios.Lookup("finding-reenable-stale-hro")
	opt := harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered}
	r := harness.Execute(sc, opt)
	if r.Violation == nil || r.Steps < 3 {
		t.Fatalf("%s: %s after %d steps, want a violation", sc.Name, r.Outcome, r.Steps)
	}
	before, after := harness.StatesAround(sc, opt, r.Steps)
	if !reflect.DeepEqual(after, harness.StateOf(r.Cluster)) {
		t.Error("the state after the failing step is not the failing run's")
	}
	o := opt
	o.StopAfter = r.Steps - 1
	if !reflect.DeepEqual(before, harness.StateOf(harness.Execute(sc, o).Cluster)) || reflect.DeepEqual(before, after) {
		t.Error("the state before the failing step is not the run's one step earlier")
	}
	initial := harness.StateOf(harness.Start(sc, opt).Stop().Cluster)
	before, after = harness.StatesAround(sc, opt, 1)
	o.StopAfter = 1
	if !reflect.DeepEqual(before, initial) || !reflect.DeepEqual(after, harness.StateOf(harness.Execute(sc, o).Cluster)) {
		t.Error("around the first step: not the initial state and the state after one step")
	}
}

// TestCheckRunnableRefusesThrottling: a throttled rate with a list of
// replicas runs in a broker-scale file and is refused in a one-partition
// file (whose follower fetches without a fetcher thread), naming both
// fields; a rate or a list alone changes nothing and runs.
func TestCheckRunnableRefusesThrottling(t *testing.T) {
	for _, side := range []string{"leader", "follower"} {
		for _, c := range []struct {
			cfg  string
			want string
		}{
			{`"` + side + `_replication_throttled_replicas": "*", "` + side + `_replication_throttled_rate": 1048576`,
				"config." + side + "_replication_throttled_replicas with config." + side + "_replication_throttled_rate: replication throttling is modelled only in broker-scale files"},
			{`"` + side + `_replication_throttled_replicas": "*"`, ""},
			{`"` + side + `_replication_throttled_rate": 1048576`, ""},
		} {
			for _, scale := range []bool{false, true} {
				file, want := `{"brokers": 2, "duration_ms": 1000, "config": {`+c.cfg+`}}`, c.want
				if scale {
					file, want = `{"brokers": 2, "duration_ms": 1000, "config": {`+c.cfg+`}, "partitions": [{"topic": "t", "count": 2, "replicas": [0, 1]}]}`, ""
				}
				sc, err := scenarios.Parse([]byte(file))
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				err = harness.CheckRunnable(sc)
				if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %v, want %q", file, err, want)
				}
			}
		}
	}
}

// TestLimitedResource: a file limiting a shared resource runs, with or
// without a recorded explore schedule, and LimitedResource names the key
// (explore's search refuses it); unlimited, it names none.
func TestLimitedResource(t *testing.T) {
	for _, key := range []string{"remote_fetch_concurrency", "broker_network_bytes_per_sec", "broker_disk_bytes_per_sec"} {
		sc, err := scenarios.Parse([]byte(`{"brokers": 2, "duration_ms": 1000, "config": {"` + key + `": 4}}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := harness.CheckRunnable(sc); err != nil {
			t.Errorf("%s: %v", key, err)
		}
		sc.Explore = &scenarios.Schedule{}
		if err := harness.CheckRunnable(sc); err != nil {
			t.Errorf("%s with an explore schedule: %v", key, err)
		}
		if got := harness.LimitedResource(sc); got != key {
			t.Errorf("LimitedResource: %q, want %q", got, key)
		}
	}
	sc, _ := scenarios.Parse([]byte(`{"brokers": 2, "duration_ms": 1000}`))
	if got := harness.LimitedResource(sc); got != "" {
		t.Errorf("defaults: LimitedResource %q", got)
	}
}

// TestRefusedFaultIsReported: a fault the model refuses (restarting a
// broker that is up) is skipped, and the result object names the fault by
// its index and no scenario event.
func TestRefusedFaultIsReported(t *testing.T) {
	sc, _ := scenarios.Lookup("leader-knows-hro")
	c := *sc
	c.Explore = &scenarios.Schedule{Faults: []scenarios.Event{{Type: scenarios.EventRestart, Broker: brokerPtr(1)}}, Choices: []int{1}}
	r := harness.Execute(&c, harness.Options{Seed: c.Seed, Strategy: harness.LastTiered, StopAfter: 1})
	if len(r.Skipped) != 1 || r.Skipped[0].Fault != 0 || r.Skipped[0].Index != -1 || !strings.Contains(r.Skipped[0].Reason, "already up") {
		t.Fatalf("skipped %+v", r.Skipped)
	}
	data, err := json.Marshal(r.JSON())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"fault":0`) || !strings.Contains(string(data), `"event":null`) {
		t.Errorf("the result object's skipped fault: %s", data)
	}
	// A refused scenario event, after a fault was injected: named by its
	// index, no fault.
	c.Events = append(slices.Clone(c.Events), scenarios.Event{AtMs: 0, Type: scenarios.EventRestart, Broker: brokerPtr(2)})
	c.Explore.Choices = []int{1, 0, 0}
	r = harness.Execute(&c, harness.Options{Seed: c.Seed, Strategy: harness.LastTiered, StopAfter: 3})
	var sk []harness.SkippedEvent
	for _, x := range r.Skipped {
		if x.Type == scenarios.EventRestart && x.Index == len(c.Events)-1 {
			sk = append(sk, x)
		}
	}
	if len(sk) != 1 || sk[0].Fault != -1 {
		t.Fatalf("the refused scenario restart: %+v (all skipped: %+v)", sk, r.Skipped)
	}
}

// TestCheckBudgetDefault: a budget of 0 is the default one, not none.
func TestCheckBudgetDefault(t *testing.T) {
	sc, _ := scenarios.Lookup("leader-knows-hro")
	if err := harness.CheckBudget(sc, 0); err != nil {
		t.Errorf("the default budget refuses %s: %v", sc.Name, err)
	}
	huge, err := scenarios.Parse([]byte(`{"brokers": 3, "duration_ms": 100000000000}`))
	if err != nil {
		t.Fatal(err)
	}
	var be *harness.BudgetError
	if err := harness.CheckBudget(huge, 0); err == nil || !asBudget(err, &be) || be.MaxSteps != harness.DefaultMaxSteps {
		t.Errorf("a scenario of 10^11 ms under the default budget: %v", err)
	}
}

// TestEventsCountsWhatObserversSee: a run's event count is the number of
// events its observers are shown.
func TestEventsCountsWhatObserversSee(t *testing.T) {
	sc, _ := scenarios.Lookup("leader-knows-hro")
	n := int64(0)
	count := model.ObserverFunc(func(sim.Time, *model.Event) { n++ })
	r := harness.Execute(sc, harness.Options{Seed: sc.Seed, Strategy: harness.LastTiered, Observers: []model.Observer{count}})
	if n == 0 || r.Events != n {
		t.Errorf("the run counts %d events, its observer saw %d", r.Events, n)
	}
}
