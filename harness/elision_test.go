package harness

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tierfetch/invariants"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// elisionFleet is a broker-scale file where retention, copies, remote
// deletions, ISR changes and a slow remote storage all happen: 12 tiered
// partitions on 4 brokers with short local and remote retention, records
// coming in, a broker crashed and restarted, another replaced empty.
const elisionFleet = `{"name": "elision-fleet", "seed": 1, "brokers": 4,
 "config": {"segment_bytes": 65536, "record_bytes": 1024, "remote_storage_enable": true,
   "local_retention_ms": 20000, "retention_ms": 90000, "remote_log_manager_task_interval_ms": 5000,
   "log_retention_check_interval_ms": 7000, "replica_lag_time_max_ms": 10000, "remote_fetch_ms": [200, 9000]},
 "partitions": [{"topic": "t", "partition": 0, "count": 12, "replicas": [0, 1, 2],
   "initial": {"high_watermark": 512, "highest_remote_offset": 255,
     "remote_segments": [{"base_offset": 0, "end_offset": 63, "epoch": 0, "count": 4}],
     "local_segments": [{"base_offset": 256, "end_offset": 319, "epoch": 0, "count": 4}]}}],
 "events": [
   {"at_ms": 0, "type": "produce", "records": 600, "over_ms": 120000},
   {"at_ms": 15000, "type": "crash", "broker": 1},
   {"at_ms": 40000, "type": "restart", "broker": 1},
   {"at_ms": 60000, "type": "replace_broker", "broker": 3}],
 "duration_ms": 150000, "heal_ms": 60000}`

// elisionToggle is elisionFleet on 8 partitions where RLM follower runs
// are folded while a broker is replaced, the task interval changed, a
// leader elected anew and tiering turned off and on again. It ends at 65 s
// in the reenable-stale-hro finding (both ways alike).
var elisionToggle = strings.NewReplacer(
	`"elision-fleet"`, `"elision-toggle"`,
	`"remote_storage_enable": true,`, `"remote_storage_enable": true, "remote_log_delete_on_disable": true,`,
	`, "remote_fetch_ms": [200, 9000]`, ``,
	`"count": 12`, `"count": 8`,
	`{"at_ms": 15000, "type": "crash", "broker": 1},
   {"at_ms": 40000, "type": "restart", "broker": 1},
   {"at_ms": 60000, "type": "replace_broker", "broker": 3}],`,
	`{"at_ms": 10000, "type": "replace_broker", "broker": 3},
   {"at_ms": 25000, "type": "set_config", "key": "remote_log_manager_task_interval_ms", "value": 3000},
   {"at_ms": 35000, "type": "elect_leader", "broker": 2, "topic": "t", "partition": 1},
   {"at_ms": 50000, "type": "set_config", "key": "remote_storage_enable", "value": false},
   {"at_ms": 65000, "type": "set_config", "key": "remote_storage_enable", "value": true}],`).Replace(elisionFleet)

// elisionQuiet is elisionFleet whose records all come in within 30 s,
// before the broker is replaced: the rebuilt replicas' RLM follower runs
// are folded while no step of every partition (a produce chunk, a
// broker's input) applies them.
var elisionQuiet = strings.NewReplacer(`"elision-fleet"`, `"elision-quiet"`, `"over_ms": 120000`, `"over_ms": 30000`).Replace(elisionFleet)

// elisionRun is what TestElisionMatchesReference compares of a run.
type elisionRun struct {
	res *RunResult
	// events is every event but the RLM task timers' inputs and the HRO
	// events, with its time; hro each partition's HRO events (a fold's,
	// model.EvHighestRemoteRun, as the EvHighestRemote its run would have
	// given), with where and when they were.
	events []byte
	hro    [][]hroEvent
	// brokerStates is per partition and broker its state events
	// (model.EvBrokerState, which the harness records after a step that
	// changed a broker) without the HRO and without repeats: a fold's step
	// shows the raise with its own change, the run's step showed it alone.
	brokerStates map[[2]int][]string
	states       [][]byte
	folds        int // fold events (model.EvHighestRemoteRun)
}

// hroEvent is an HRO event of a partition: its encoding without its time,
// how many of the partition's other events came before it, and when it
// set its HRO: [lo, hi] (model.Event.SetWithin); run: a fold's.
type hroEvent struct {
	enc    string
	before int
	lo, hi sim.Time
	run    bool
}

func runElision(t *testing.T, sc *scenarios.Scenario, seed uint64, st Strategy, noElision bool) elisionRun {
	return runElisionWith(t, sc, Options{Seed: seed, Strategy: st}, noElision)
}

// runElisionWith is runElision with options (opt's observers and
// noElision are runElision's).
func runElisionWith(t *testing.T, sc *scenarios.Scenario, opt Options, noElision bool) elisionRun {
	out := elisionRun{brokerStates: map[[2]int][]string{}}
	var count []int        // each partition's other events so far
	var inputAt []sim.Time // when a partition's last event was its step's input (-1: it was not)
	obs := model.ObserverFunc(func(at sim.Time, e *model.Event) {
		if e.Kind == model.EvTimer && e.Part >= 0 {
			return // an RLM task's run: elision leaves out those that do nothing
		}
		if e.Part >= 0 && int(e.Part) >= len(count) {
			n := int(e.Part) + 1
			count, inputAt = append(count, make([]int, n-len(count))...), append(inputAt, make([]sim.Time, n-len(inputAt))...)
			out.hro = append(out.hro, make([][]hroEvent, n-len(out.hro))...)
		}
		if e.Part >= 0 && (e.Kind == model.EvHighestRemote || e.Kind == model.EvHighestRemoteRun) {
			n := *e
			n.Kind, n.Ms = model.EvHighestRemote, 0
			h := hroEvent{enc: string(n.AppendBinaryPart(nil, 0)), before: count[e.Part], run: e.Kind == model.EvHighestRemoteRun}
			h.lo, h.hi = e.SetWithin(at)
			if h.run && inputAt[e.Part] == at {
				h.before-- // applied by the step of that input, its run was before it (model.Fleet.stepPart)
			}
			out.hro[e.Part] = append(out.hro[e.Part], h)
			if h.run {
				out.folds++
			}
			return
		}
		if e.Part >= 0 && e.Kind == model.EvBrokerState {
			n := *e
			n.HRO = 0
			k, enc := [2]int{int(e.Part), e.Broker}, string(n.AppendBinaryPart(nil, 0))
			if l := out.brokerStates[k]; len(l) == 0 || l[len(l)-1] != enc {
				out.brokerStates[k] = append(l, enc)
			}
			return
		}
		if e.Part >= 0 {
			count[e.Part]++
			inputAt[e.Part] = -1
			if e.Kind.IsInput() {
				inputAt[e.Part] = at
			}
		}
		out.events = fmt.Appendf(out.events, "%d:", at)
		out.events = append(e.AppendBinaryPart(out.events, at), '\n')
	})
	opt.Observers, opt.noElision = []model.Observer{obs}, noElision
	out.res = Execute(sc, opt)
	for p := range out.res.Fleet.Parts {
		out.states = append(out.states, out.res.Fleet.At(model.PartID(p)).AppendState(nil, out.res.End))
	}
	return out
}

// sameHRO fails the test unless two runs' partitions had the same HRO
// events at the same places among their other events, at times that can
// be one: equal, or within the millisecond a fold gives.
func sameHRO(t *testing.T, name string, ref, opt elisionRun) {
	t.Helper()
	if len(ref.hro) != len(opt.hro) {
		t.Fatalf("%s: HRO events in %d partitions, %d with elision", name, len(ref.hro), len(opt.hro))
	}
	for p := range ref.hro {
		if len(ref.hro[p]) != len(opt.hro[p]) {
			t.Fatalf("%s: partition %d has %d HRO events, %d with elision", name, p, len(ref.hro[p]), len(opt.hro[p]))
		}
		for i, a := range ref.hro[p] {
			b := opt.hro[p][i]
			if a.enc != b.enc || a.before != b.before || a.lo > b.hi || b.lo > a.hi {
				t.Fatalf("%s: partition %d's HRO event %d differs: %+v, with elision %+v", name, p, i, a, b)
			}
		}
	}
}

// TestElisionMatchesReference runs broker-scale files (the named ones, the
// replace-six fixture and elisionFleet) over seeds and both strategies with
// the model's elision of idle checks and without (every partition visited
// at every broker tick, every RLM task run at every point of its grid):
// every event but the task timers' own inputs, with its time, the
// per-partition results, the broker-scale statistics, the bytes sent and
// every partition's final state must be equal, and elision must take fewer
// steps.
func TestElisionMatchesReference(t *testing.T) {
	fixture, err := os.ReadFile("testdata/replace-six.json")
	if err != nil {
		t.Fatal(err)
	}
	files := scenarios.NamedBrokerScale()
	for _, text := range [][]byte{fixture, []byte(elisionFleet), []byte(elisionToggle)} {
		sc, err := scenarios.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, sc)
	}
	fewer, folds := 0, 0
	for _, sc := range files {
		for seed := uint64(1); seed <= 3; seed++ {
			for _, st := range Strategies {
				ref, opt := runElision(t, sc, seed, st, true), runElision(t, sc, seed, st, false)
				name := fmt.Sprintf("%s seed %d %s", sc.Name, seed, st)
				sameElision(t, name, ref, opt)
				a, b := ref.res, opt.res
				if b.Steps > a.Steps {
					t.Fatalf("%s: %d steps with elision, %d without", name, b.Steps, a.Steps)
				}
				if b.Steps < a.Steps {
					fewer++
				}
				if ref.folds != 0 {
					t.Fatalf("%s: %d folds without elision", name, ref.folds)
				}
				folds += opt.folds
				t.Logf("%s: %s, %d steps, %d with elision", name, a.Outcome, a.Steps, b.Steps)
			}
		}
	}
	if fewer < len(files)*3 {
		t.Fatalf("elision took fewer steps in %d runs of %d", fewer, len(files)*6)
	}
	if folds < 100 {
		t.Fatalf("%d folded RLM follower runs: the files do not exercise folding", folds)
	}
	t.Logf("%d folded RLM follower runs", folds)
}

// sameElision fails the test unless a run with elision (opt) gave what
// its reference (ref) gave: every event but the task timers' inputs and
// the HRO events, with its time; the HRO events by place and time
// (sameHRO); the brokers' states; the outcome, the violation, the
// per-partition results, the broker-scale statistics, the bytes sent, the
// skipped events and the end; every partition's final state.
func sameElision(t *testing.T, name string, ref, opt elisionRun) {
	t.Helper()
	if i := firstByteDiff(ref.events, opt.events); i >= 0 {
		t.Fatalf("%s: events differ from byte %d:\nreference: %q\nelided:    %q", name, i, around(ref.events, i), around(opt.events, i))
	}
	sameHRO(t, name, ref, opt)
	if !reflect.DeepEqual(ref.brokerStates, opt.brokerStates) {
		t.Fatalf("%s: the brokers' states differ", name)
	}
	a, b := ref.res, opt.res
	if a.Outcome != b.Outcome || !reflect.DeepEqual(a.Partitions, b.Partitions) || !reflect.DeepEqual(a.BrokerScale, b.BrokerScale) ||
		!reflect.DeepEqual(a.EgressBytes, b.EgressBytes) || !reflect.DeepEqual(a.Skipped, b.Skipped) || a.End != b.End {
		t.Fatalf("%s: results differ: %s/%s, end %v/%v", name, a.Outcome, b.Outcome, a.End, b.End)
	}
	if (a.Violation == nil) != (b.Violation == nil) || a.Violation != nil &&
		(a.Violation.Invariant != b.Violation.Invariant || a.Violation.Message != b.Violation.Message || a.Violation.AtMs != b.Violation.AtMs) {
		t.Fatalf("%s: violations differ: %+v, with elision %+v", name, a.Violation, b.Violation)
	}
	for p := range ref.states {
		if !bytes.Equal(ref.states[p], opt.states[p]) {
			t.Fatalf("%s: partition %d's final state differs", name, p)
		}
	}
}

// TestElisionStopsAsReference: a broker-scale run that stops at a
// violation in a step that did not touch every partition leaves every
// partition as its reference does. elisionQuiet with a deliberate bug
// stops so, at 30 s to 95 s, while rebuilt replicas' RLM follower runs
// are folded into partitions the failing step did not touch: the runs of
// those before the step's input are applied before the run ends
// (Fleet.SettleDue), as the reference stepped them.
func TestElisionStopsAsReference(t *testing.T) {
	sc, err := scenarios.Parse([]byte(elisionQuiet))
	if err != nil {
		t.Fatal(err)
	}
	folds := 0
	for _, m := range []model.Mutant{model.MutantRetentionBeforeUpload, model.MutantLSOAfterRemoteDelete, model.MutantLLSOAfterLocalDelete} {
		for seed := uint64(1); seed <= 2; seed++ {
			for _, st := range Strategies {
				o := Options{Seed: seed, Strategy: st, Mutants: model.Mutants(0).With(m)}
				ref, opt := runElisionWith(t, sc, o, true), runElisionWith(t, sc, o, false)
				name := fmt.Sprintf("%s mutant %d seed %d %s", sc.Name, m, seed, st)
				if ref.res.Outcome != OutcomeSafety || ref.res.End >= sim.AtMs(sc.DurationMs) {
					t.Fatalf("%s: %s at %v: the run does not stop at a violation", name, ref.res.Outcome, ref.res.End)
				}
				sameElision(t, name, ref, opt)
				folds += opt.folds
			}
		}
	}
	if folds < 100 {
		t.Fatalf("%d folded RLM follower runs: the runs do not exercise folding", folds)
	}
}

// firstByteDiff returns the first index where a and b differ, -1 if equal.
func firstByteDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func around(b []byte, i int) []byte { return b[max(0, i-80):min(len(b), i+80)] }

// TestCheckBrokerIsCheck steps broker-scale runs and, after each step
// that only raised one broker's HRO (model.Fleet.HROOnly, where the run
// checks that broker alone: Checker.CheckBroker), checks the partition
// both ways on copies of its checker: as it is, and with that broker's HRO
// set to an offset never uploaded. The two must answer alike, and the
// second must find the violation.
func TestCheckBrokerIsCheck(t *testing.T) {
	fixture, err := os.ReadFile("testdata/replace-six.json")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, text := range [][]byte{fixture, []byte(elisionFleet)} {
		sc, err := scenarios.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 3; seed++ {
			checkBrokerRun(t, sc, seed, &seen)
		}
	}
	if seen < 50 {
		t.Fatalf("%d steps only raised an HRO: the runs do not exercise CheckBroker", seen)
	}
	t.Logf("%d steps only raised an HRO", seen)
}

// checkBrokerRun is TestCheckBrokerIsCheck's run of sc with the flag off
// and seed, counting in seen the steps that only raised an HRO.
func checkBrokerRun(t *testing.T, sc *scenarios.Scenario, seed uint64, seen *int) {
	{
		x := Start(sc, Options{Seed: seed, Strategy: LocalLogStart})
		for x.Done() == nil {
			x.Step()
			m := x.r.mp
			if m.hroOnly < 0 {
				continue
			}
			*seen++
			p := m.dirty[0]
			c, now := x.r.f.At(p), x.r.sched.Now()
			b := c.Brokers[m.hroOnly]
			for _, bogus := range []bool{false, true} {
				hro := b.HighestRemote
				if bogus {
					b.HighestRemote = 1 << 50
				}
				whole, one := m.checkers[p].Clone().Check(c, now), m.checkers[p].Clone().CheckBroker(c, b, now)
				b.HighestRemote = hro
				if !reflect.DeepEqual(whole, one) || bogus && whole == nil {
					t.Fatalf("%s seed %d, %v, partition %d, b%d HRO %v: Check says %+v, CheckBroker %+v", sc.Name, seed, now, p, b.ID,
						map[bool]string{false: "as run", true: "never uploaded"}[bogus], whole, one)
				}
			}
		}
		if r := x.Done(); r.Outcome == OutcomeSafety {
			t.Fatalf("%s seed %d: %s %v", sc.Name, seed, r.Outcome, r.Violation)
		}
	}
}

// TestLazyTrimIsEager runs broker-scale files (the named ones, the
// replace-six fixture and elisionFleet) over seeds and both strategies
// beside a checker per partition that trims its history at every Check
// (invariants.Checker.TrimLazily's reference): after every step each
// partition the run checked is checked whole by its reference too, which
// must find no violation where the run found none, and both checkers must
// encode the same state (AppendState trims a lazy checker first).
func TestLazyTrimIsEager(t *testing.T) {
	fixture, err := os.ReadFile("testdata/replace-six.json")
	if err != nil {
		t.Fatal(err)
	}
	files := scenarios.NamedBrokerScale()
	for _, text := range [][]byte{fixture, []byte(elisionFleet)} {
		sc, err := scenarios.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, sc)
	}
	lazy := 0
	for _, sc := range files {
		for seed := uint64(1); seed <= 2; seed++ {
			for _, st := range Strategies {
				lazy += lazyTrimRun(t, sc, seed, st)
			}
		}
	}
	if lazy < 100 {
		t.Fatalf("%d checks left the history untrimmed: the runs do not exercise TrimLazily", lazy)
	}
	t.Logf("%d checks left the history untrimmed", lazy)
}

// lazyTrimRun is TestLazyTrimIsEager's run of sc; it returns how many
// checks left a history longer than the reference's.
func lazyTrimRun(t *testing.T, sc *scenarios.Scenario, seed uint64, st Strategy) int {
	name := fmt.Sprintf("%s seed %d %s", sc.Name, seed, st)
	x := Start(sc, Options{Seed: seed, Strategy: st})
	m := x.r.mp
	ref := make([]*invariants.Checker, len(m.checkers))
	for p := range ref {
		ref[p] = invariants.New(x.r.f.At(model.PartID(p)))
	}
	lazy := 0
	var a, b []byte
	for x.Done() == nil {
		x.Step()
		now := x.r.sched.Now()
		for _, p := range append(slices.Clone(m.dirty), m.timed...) {
			c := x.r.f.At(p)
			if v := ref[p].Check(c, now); v != nil && m.outcomes[p] == OutcomeOK {
				t.Fatalf("%s, %v, partition %d: the reference finds %v, the run nothing", name, now, p, v)
			}
			k := m.checkers[p].Clone()
			if k.HistoryLen() > ref[p].HistoryLen() {
				lazy++
			}
			a, b = k.AppendState(a[:0], c, now), ref[p].AppendState(b[:0], c, now)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s, %v, partition %d: the lazily trimmed checker's state differs from the reference's", name, now, p)
			}
		}
	}
	if r := x.Done(); r.Outcome == OutcomeSafety {
		t.Fatalf("%s: %s %v", name, r.Outcome, r.Violation) // none of the files breaks one: the comparison above would not be step by step
	}
	return lazy
}
