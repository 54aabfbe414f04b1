package explore

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/cespare/xxhash/v2"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// The brute-force reference: every path of a tiny configuration to a small
// depth, stepped one by one with a chooser of its own and no state merging,
// collecting every state it passes through. The search, however it merges,
// reduces, rebuilds or shards, must visit exactly that set of states. The
// reference knows nothing of the search's chooser (harness.Script), of its
// fault candidates (Candidates) or of its state hash: it names a state by
// the cluster's and the checker's encodings themselves.

// refChooser is the reference's harness.Chooser: it follows picks, one per
// choice point with two or more alternatives, then takes alternative 0 and
// records how many alternatives each further point had.
type refChooser struct {
	picks []int
	lost  bool
	next  int
	met   []int // alternatives of the points met past picks
}

func (c *refChooser) choose(n int) int {
	if n < 2 {
		return 0
	}
	c.next++
	if c.next <= len(c.picks) {
		return c.picks[c.next-1]
	}
	c.met = append(c.met, n)
	return 0
}

// Fault: none, or any one of the n candidates.
func (c *refChooser) Fault(n int, _ int64) int { return c.choose(n+1) - 1 }

// Tie: any of the events due now.
func (c *refChooser) Tie(n int) int { return c.choose(n) }

// Network: the range's low end, its high end (when it has one), lost.
func (c *refChooser) Network(lo, hi int64) (int64, bool) {
	alts := []int64{lo}
	if hi > lo {
		alts = append(alts, hi)
	}
	if c.lost {
		alts = append(alts, -1)
	}
	if ms := alts[c.choose(len(alts))]; ms >= 0 {
		return ms, false
	}
	return hi, true
}

// Remote: the range's low or high end, then failed or not when
// operations can fail.
func (c *refChooser) Remote(lo, hi int64, errRate float64) (int64, bool) {
	ms := lo
	if hi > lo && c.choose(2) == 1 {
		ms = hi
	}
	return ms, errRate > 0 && c.choose(2) == 1
}

// Producer: any of them.
func (c *refChooser) Producer(n int) int { return c.choose(n) }

// refFaults are the faults the reference injects: every kind asked for,
// on every broker that is ever a replica (those of the scenario's start and
// those its add_replica events add).
func refFaults(sc *scenarios.Scenario, kinds []string, faultMs int64) []scenarios.Event {
	var brokers []int
	for b := range sc.Brokers {
		ever := slices.Contains(sc.Replicas, b)
		for _, e := range sc.Events {
			ever = ever || e.Type == scenarios.EventAddReplica && *e.Broker == b
		}
		if ever {
			brokers = append(brokers, b)
		}
	}
	var out []scenarios.Event
	for _, k := range kinds {
		for _, b := range brokers {
			switch k {
			case "crash":
				out = append(out, scenarios.Event{Type: scenarios.EventCrash, Broker: &b})
			case "restart":
				out = append(out, scenarios.Event{Type: scenarios.EventRestart, Broker: &b})
			case "elect":
				out = append(out, scenarios.Event{Type: scenarios.EventElectLeader, Broker: &b})
			case "partition":
				out = append(out, scenarios.Event{Type: scenarios.EventNetworkPartition, Brokers: []int{b}, DurationMs: faultMs})
			}
		}
		if k == "remote-outage" {
			out = append(out, scenarios.Event{Type: scenarios.EventRemoteOutage, DurationMs: faultMs})
		}
	}
	return out
}

// refID names a state by the cluster's and the checker's encodings and,
// for the rest (pending events, partitions, links), the run's state hash.
func refID(run *harness.Run) uint64 {
	var p harness.Parts
	run.Parts(&p)
	now := sim.Time(p.NowUs)
	buf := run.Cluster().AppendState(nil, now)
	buf = run.Checker().AppendState(buf, run.Cluster(), now)
	buf = binary.BigEndian.AppendUint64(buf, p.Hash)
	return xxhash.Sum64(buf)
}

// bruteForce returns the states of every path of cfg to cfg.Depth steps
// (the initial states at depth 0, or the state at cfg.FromMs), and how
// many paths it took.
func bruteForce(t *testing.T, cfg Config) (map[uint64]bool, int) {
	sc := *cfg.Scenario
	sc.Explore = &scenarios.Schedule{Faults: refFaults(cfg.Scenario, cfg.Faults, DefaultFaultMs), Lost: cfg.Lost, Choices: []int{}}
	opt := harness.Options{Strategy: cfg.Strategy, Profile: model.KIP, Mutants: cfg.Mutants, StateHash: true}
	states := map[uint64]bool{}
	paths := 0
	var walk func(run *harness.Run, depth int)
	// each calls f with every alternative of one step: picks varied from
	// the last point back, each point over every alternative it offered.
	each := func(step func(c *refChooser) *harness.Run, f func(*harness.Run)) {
		var picks, alts []int
		for {
			c := &refChooser{picks: picks, lost: cfg.Lost}
			child := step(c)
			alts = append(alts[:len(picks)], c.met...)
			picks = append(picks, make([]int, len(c.met))...)
			f(child)
			j := len(picks) - 1
			for j >= 0 && picks[j]+1 >= alts[j] {
				j--
			}
			if j < 0 {
				return
			}
			picks, alts = append(picks[:j], picks[j]+1), alts[:j+1]
		}
	}
	visit := func(child *harness.Run, depth int) {
		paths++
		switch done := child.Done(); {
		case done == nil:
			walk(child, depth)
		case done.Outcome == harness.OutcomeOK:
			states[refID(child)] = true
		}
	}
	walk = func(run *harness.Run, depth int) {
		states[refID(run)] = true
		if depth == cfg.Depth {
			return
		}
		each(func(c *refChooser) *harness.Run {
			child := run.Fork(c) // as the search copies: the state, outcome and violation are Clone's
			child.Step()
			return child
		}, func(child *harness.Run) { visit(child, depth+1) })
	}
	if cfg.FromMs > 0 {
		// The root is where alternative 0 at every choice (no fault, the
		// low end of each range, the event scheduled first) first reaches
		// FromMs (Config.FromMs); the prefix's alternatives are not taken.
		o := opt
		o.Chooser = &refChooser{lost: cfg.Lost}
		run := harness.Start(&sc, o)
		for run.Done() == nil && run.NowMs() < cfg.FromMs {
			run.Step()
		}
		visit(run, 0)
		return states, paths
	}
	each(func(c *refChooser) *harness.Run {
		o := opt
		o.Chooser = c
		return harness.Start(&sc, o)
	}, func(run *harness.Run) { visit(run, 0) })
	return states, paths
}

// searched returns the states the search visits and its result.
func searched(t *testing.T, cfg Config) (map[uint64]bool, []uint64, *Result) {
	t.Helper()
	states := map[uint64]bool{}
	var order []uint64
	visitHook = func(run *harness.Run) {
		id := refID(run)
		if states[id] {
			t.Errorf("%+v: state visited twice", cfg)
		}
		states[id] = true
		order = append(order, id)
	}
	defer func() { visitHook = nil }()
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return states, order, res
}

// referenceConfigs are the tiny configurations the search is compared
// with the brute force on: without faults, with every fault kind and lost
// messages, and with a third broker under crash, restart and elect (where
// paths that commit by different routes meet: the checker's record tells
// them apart).
func referenceConfigs(t *testing.T) []SmallConfig {
	tiny, three := fixture(t, "tiny-join"), fixture(t, "tiny-three")
	// At depth 4 (183,256 paths, about 10 s) 24 states of tiny-three are
	// told apart by the checker's record alone; depth 3 has none.
	deep := 4
	if testing.Short() {
		deep = 3
	}
	return []SmallConfig{
		{"tiny-join/no-faults/depth-12", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 12}},
		{"tiny-join/local-log-start/no-faults/depth-12", Config{Scenario: tiny, Strategy: harness.LocalLogStart, Depth: 12}},
		{"tiny-join/all-faults-lost/depth-3", Config{Scenario: tiny, Strategy: harness.LastTiered, Depth: 3, Faults: FaultKinds, Lost: true}},
		{fmt.Sprintf("tiny-three/crash-restart-elect/depth-%d", deep), Config{Scenario: three, Strategy: harness.LastTiered, Depth: deep,
			Faults: []string{"crash", "restart", "elect"}}},
	}
}

// TestSearchMatchesBruteForce: on each reference configuration the
// search visits exactly the states the brute force passes through, with
// the reduction on and off, whole and in shards (their union), and merge
// counts the shards' states with those before the split once.
func TestSearchMatchesBruteForce(t *testing.T) {
	for _, c := range referenceConfigs(t) {
		want, paths := bruteForce(t, c.Config)
		for _, reduce := range []bool{true, false} {
			cfg := c.Config
			cfg.NoReduction = !reduce
			got, _, res := searched(t, cfg)
			if diff := setDiff(want, got); diff != "" {
				t.Errorf("%s, reduction %v: %s", c.Name, reduce, diff)
			}
			if reduce {
				t.Logf("%s: %d paths, %d states; search: %d transitions, %d inputs skipped", c.Name, paths, len(want),
					res.Transitions, res.Skipped)
			}
		}
		for _, n := range []uint64{2, 3} {
			checkShards(t, c.Name, c.Config, n, want)
		}
	}
}

// checkShards runs cfg in n shards: their states together are want, each
// shard's first SharedStates states are the same states (those before the
// split), and the merged report counts those once.
func checkShards(t *testing.T, name string, cfg Config, n uint64, want map[uint64]bool) {
	union := map[uint64]bool{}
	var reports []Report
	var shards []campaign.Shard
	var shared []uint64
	sum := 0
	for k := range n {
		cfg.Shard = campaign.Shard{K: k, N: n}
		got, order, res := searched(t, cfg)
		for id := range got {
			union[id] = true
		}
		sum += len(got)
		if res.SharedStates == 0 {
			t.Fatalf("%s %d/%d: the search never split (make the configuration bigger)", name, k, n)
		}
		before := slices.Clone(order[:res.SharedStates])
		slices.Sort(before)
		if k == 0 {
			shared = before
		} else if !slices.Equal(before, shared) {
			t.Errorf("%s %d/%d: the states before the split differ from shard 0's", name, k, n)
		}
		r, _ := ReportOf(res)
		reports, shards = append(reports, r), append(shards, cfg.Shard)
	}
	if diff := setDiff(want, union); diff != "" {
		t.Errorf("%s in %d shards: %s", name, n, diff)
	}
	m, err := Merge(reports, shards)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(sum - int(n-1)*len(shared)); m.States != want {
		t.Errorf("%s in %d shards: merged states %d, want %d (the shards' %d with the %d before the split counted once)",
			name, n, m.States, want, sum, len(shared))
	}
}

// setDiff describes how got differs from want ("" when equal).
func setDiff(want, got map[uint64]bool) string {
	missing, extra := 0, 0
	for id := range want {
		if !got[id] {
			missing++
		}
	}
	for id := range got {
		if !want[id] {
			extra++
		}
	}
	if missing == 0 && extra == 0 {
		return ""
	}
	return fmt.Sprintf("%d states of the brute force not visited, %d visited it never reaches (of %d)", missing, extra, len(want))
}

// TestAsleepLastFaultsMatchBruteForce: crashes and restarts are the faults
// the reduction puts to sleep (elections, partitions and outages touch
// every broker, so in the reference configurations with every kind they
// come before candidates that never sleep). With crash and restart alone
// they are the last candidates, where the search, skipping an asleep one
// without taking it, must go on to those after it: it visits exactly the
// brute force's states to depth 4 (stopping at the skip lost one of 401).
func TestAsleepLastFaultsMatchBruteForce(t *testing.T) {
	cfg := Config{Scenario: fixture(t, "tiny-join"), Strategy: harness.LastTiered, Depth: 4, Faults: []string{"crash", "restart"}}
	want, _ := bruteForce(t, cfg)
	got, _, res := searched(t, cfg)
	if diff := setDiff(want, got); diff != "" {
		t.Error(diff)
	}
	if res.Skipped == 0 {
		t.Error("the reduction skipped nothing: no fault was asleep")
	}
}
