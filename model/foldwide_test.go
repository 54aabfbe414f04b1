package model

import (
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"tierfetch/sim"
)

// drawWideFleet is drawTickFleet on a fleet of 66 to 72 brokers whose
// replicas are on brokers with IDs around 64 (some below, some at or
// above: no bit in the step masks, no folds), with more inputs at the
// points of the RLM tasks' grid (the task interval changed, retention
// changed, a broker crashed or restarted, a leader elected at a multiple
// of the interval), where a folded run's instant and the input's meet.
func drawWideFleet(seed uint64) (sf sessionFleet, remLat sim.Duration) {
	sf, remLat = drawTickFleet(seed)
	r := rand.New(rand.NewPCG(seed, 96))
	n := 66 + r.IntN(7)
	// The brokers 0..sf.n-1 go to distinct IDs in [60, n).
	ids := r.Perm(n - 60)[:sf.n]
	for i := range ids {
		ids[i] += 60
	}
	if r.IntN(3) == 0 { // some fleets keep a low broker too
		ids[r.IntN(len(ids))] = r.IntN(5)
	}
	id := func(b int) int {
		if b < 0 {
			return b
		}
		return ids[b]
	}
	parts := slices.Clone(sf.parts)
	for i := range parts {
		reps := make([]int, len(parts[i].Replicas))
		for j, b := range parts[i].Replicas {
			reps[j] = id(b)
		}
		parts[i].Replicas = reps
	}
	sf.parts = parts
	inputs := make([]timedInput, 0, len(sf.inputs)+8)
	for _, x := range sf.inputs {
		x.in.Broker = id(x.in.Broker)
		if x.in.Brokers != nil {
			bs := make([]int, len(x.in.Brokers))
			for j, b := range x.in.Brokers {
				bs[j] = id(b)
			}
			x.in.Brokers = bs
		}
		inputs = append(inputs, x)
	}
	orig := sf.n
	sf.n = n
	grid := func() sim.Time {
		every := []int{3, 5, 15}[r.IntN(3)]
		return sim.Time(sim.Duration(every*(1+r.IntN(200/every))) * sim.Second)
	}
	for range 1 + r.IntN(3) {
		switch r.IntN(5) {
		case 0:
			ms := []int64{2000, 3000, 5000, 7000}[r.IntN(4)]
			inputs = append(inputs, timedInput{grid(), Input{Kind: EvSetConfig, Broker: -1, Part: -1, Key: "remote_log_manager_task_interval_ms", Value: ms}})
		case 1:
			ms := []int64{-1, 30_000, 60_000}[r.IntN(3)]
			inputs = append(inputs, timedInput{grid(), Input{Kind: EvSetConfig, Broker: -1, Part: PartID(r.IntN(len(parts))), Key: "retention_ms", Value: ms}})
		case 2:
			b, at := ids[r.IntN(orig)], grid()
			inputs = append(inputs, timedInput{at, Input{Kind: EvCrash, Broker: b, Part: -1}},
				timedInput{at.Add(sim.Duration(1+r.IntN(30)) * sim.Second), Input{Kind: EvRestart, Broker: b, Part: -1}})
		case 3:
			inputs = append(inputs, timedInput{grid(), Input{Kind: EvElectLeader, Part: PartID(r.IntN(len(parts))), Broker: ids[r.IntN(orig)]}})
		case 4:
			inputs = append(inputs, timedInput{grid(), Input{Kind: EvProduce, Part: PartID(r.IntN(len(parts))), Count: 7, Records: 7}})
		}
	}
	slices.SortStableFunc(inputs, func(a, b timedInput) int { return int(min(max(a.at-b.at, -1), 1)) })
	sf.inputs = inputs
	return sf, remLat
}

// TestWideFleetElisionIsInvisible is TestElisionIsInvisible's comparison
// over the wide fleets (drawWideFleet), and after every step of them
// TestStepsLeaveBrokersNoted's check: brokers at and above 64, which the
// step masks (stepBrokers, ticked) have no bit for and which never fold,
// beside brokers below it that do, and inputs at the instants of folded
// runs. TIERFETCH_FOLD_SEEDS=n runs n fleets instead of 20.
func TestWideFleetElisionIsInvisible(t *testing.T) {
	lo, hi := uint64(1), uint64(20)
	if n, err := strconv.ParseUint(os.Getenv("TIERFETCH_FOLD_SEEDS"), 10, 64); err == nil && n > 0 {
		hi = n // more fleets, by hand: 2,000 passed
	}
	end := sim.Time(240 * sim.Second)
	folds, high := 0, 0
	for seed := lo; seed <= hi; seed++ {
		sf, remLat := drawWideFleet(seed)
		hr, he := sf.runTicks(t, true, remLat, end), sf.runTicks(t, false, remLat, end)
		nr, ne := taskFirings(hr), taskFirings(he)
		ref, opt := summarize(hr), summarize(he)
		for _, x := range he.events {
			if x.e.Kind == EvHighestRemoteRun {
				folds++
				if x.e.Broker >= 64 {
					t.Fatalf("seed %d: b%d's run folded: no fold above 63", seed, x.e.Broker)
				}
			}
			if x.e.Broker >= 64 && x.e.Kind == EvHighestRemote {
				high++
			}
		}
		sameRun(t, seed, "reference", ref, "elided", opt)
		if ref.requests != opt.requests || ref.answers != opt.answers {
			t.Fatalf("seed %d: the threads differ", seed)
		}
		if ne > nr {
			t.Fatalf("seed %d: %d task runs with elision, %d without", seed, ne, nr)
		}
		checkWideNoted(t, seed, sf, remLat, end)
	}
	if folds < 20 || high < 100 {
		t.Fatalf("%d folds, %d HRO raises of brokers above 63: the fleets do not exercise them", folds, high)
	}
	t.Logf("%d folds, %d HRO raises of brokers above 63", folds, high)
}

// checkWideNoted steps the wide fleet with elision and checks after every
// step that every broker with a role of each touched partition reads as
// its due checks noted it.
func checkWideNoted(t *testing.T, seed uint64, sf sessionFleet, remLat sim.Duration, end sim.Time) {
	f := NewFleet(sf.cfg, KIP, sf.n, sf.tiered, slices.Clone(sf.parts))
	h := newFleetHarness(t, f)
	h.remLat = remLat
	check := func(at sim.Time, in *Input) { checkNoted(t, f, seed, at, in) }
	runTo := func(until sim.Time) {
		for steps := 0; len(h.queue) > 0 && h.queue[0].at <= until; steps++ {
			if steps > maxHarnessSteps {
				t.Fatalf("seed %d: more than %d steps", seed, maxHarnessSteps)
			}
			at, in := h.pop()
			f.Step(at, &in)
			check(at, &in)
			h.drain()
		}
	}
	for _, x := range sf.inputs {
		runTo(x.at)
		in, at := x.in, max(x.at, f.Now)
		f.Step(at, &in)
		check(at, &in)
		h.drain()
	}
	runTo(end)
}

// TestElisionEndsOffTheTicks is TestElisionIsInvisible's comparison of
// runs that end at an instant no broker tick is at (239.993 s): the
// reference's last step is a task's run, the elided run's an earlier one,
// so the fleets' clocks differ unless the harness sets them to the end
// (play), and the folds SettleFolds applies, whose Ms counts back from the
// end, are recorded at the end.
func TestElisionEndsOffTheTicks(t *testing.T) {
	end := sim.Time(240*sim.Second - 7*sim.Millisecond)
	folds := 0
	for seed := uint64(1); seed <= 12; seed++ {
		sf, remLat := drawTickFleet(seed)
		hr, he := sf.runTicks(t, true, remLat, end), sf.runTicks(t, false, remLat, end)
		taskFirings(hr)
		taskFirings(he)
		for _, x := range he.events {
			if x.e.Kind == EvHighestRemoteRun && x.at == end {
				folds++
			}
		}
		sameRun(t, seed, "reference", summarize(hr), "elided", summarize(he))
	}
	if folds == 0 {
		t.Fatal("no fold applied at the end: the runs do not exercise SettleFolds")
	}
}
