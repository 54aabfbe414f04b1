package model

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"tierfetch/sim"
)

// drawTickFleet is drawSessionFleet with retention that acts (local
// retention by time or size, remote retention by time), a metadata fold
// lag on some partitions and a shorter replica lag on some fleets, so that
// ISR expiry, local retention, copies, remote deletions and the metadata's
// readiness all happen while tasks idle.
func drawTickFleet(seed uint64) (sf sessionFleet, remLat sim.Duration) {
	sf = drawSessionFleet(seed)
	r := rand.New(rand.NewPCG(seed, 94))
	lag := []sim.Duration{10 * sim.Second, 30 * sim.Second}[r.IntN(2)]
	for i := range sf.parts {
		cfg := &sf.parts[i].Cfg
		cfg.ReplicaLagTimeMax = lag
		cfg.LocalRetentionMs = []int64{-2, 20_000, 45_000}[r.IntN(3)]
		cfg.LocalRetentionBytes = []int64{-2, 1_500}[r.IntN(2)]
		cfg.RetentionMs = []int64{-1, 60_000, 120_000}[r.IntN(3)]
		cfg.RemoteMetadataLag = []sim.Duration{0, 0, 2 * sim.Second}[r.IntN(3)]
		cfg.RemoteMetadataReady = []sim.Duration{0, 7 * sim.Second}[r.IntN(2)]
		cfg.RLMTaskInterval = []sim.Duration{5 * sim.Second, 3 * sim.Second}[r.IntN(2)]
	}
	// A broker down long enough for its partitions' leaders to drop it
	// while records come in.
	b := r.IntN(sf.n)
	at := func(s int) sim.Time { return sim.Time(sim.Duration(s*1000+r.IntN(1000)) * sim.Millisecond) }
	sf.inputs = append(sf.inputs, timedInput{at(100), Input{Kind: EvCrash, Broker: b, Part: -1}},
		timedInput{at(110), Input{Kind: EvProduce, Part: -1, Count: 5, Records: 5}},
		timedInput{at(170), Input{Kind: EvRestart, Broker: b, Part: -1}})
	// On some, tiering is turned off and on again (every task stops and
	// starts anew), or a partition's leader is elected anew (its followers'
	// tasks stop and start), while runs are folded.
	if r.IntN(3) == 0 {
		off := 50 + r.IntN(100)
		sf.inputs = append(sf.inputs,
			timedInput{at(off), Input{Kind: EvSetConfig, Broker: -1, Part: -1, Key: "remote_storage_enable", Bool: true, On: false}},
			timedInput{at(off + 5 + r.IntN(30)), Input{Kind: EvSetConfig, Broker: -1, Part: -1, Key: "remote_storage_enable", Bool: true, On: true}})
	}
	for range r.IntN(3) {
		sf.inputs = append(sf.inputs, timedInput{at(40 + r.IntN(160)), Input{Kind: EvElectLeader, Part: PartID(r.IntN(len(sf.parts))), Broker: r.IntN(sf.n)}})
	}
	// On some, a partition moves to other brokers: its reassignment
	// completes in the step whose fetch grows the ISR it waits for.
	// (Its own stream: the draws above and below stay as they were.)
	if q := rand.New(rand.NewPCG(seed, 95)); q.IntN(2) == 0 {
		sf.inputs = append(sf.inputs, timedInput{sim.Time(sim.Duration(20_000+q.IntN(100_000)) * sim.Millisecond),
			Input{Kind: EvReassign, Part: PartID(q.IntN(len(sf.parts))), Brokers: q.Perm(sf.n)[:min(3, sf.n)]}})
	}
	// On some, the RLM tasks' interval changes while tasks idle and runs
	// are folded: the next run after the change re-arms with the new one.
	if r.IntN(3) == 0 {
		ms := []int64{2000, 7000}[r.IntN(2)]
		sf.inputs = append(sf.inputs, timedInput{at(60 + r.IntN(80)), Input{Kind: EvSetConfig, Broker: -1, Part: -1,
			Key: "remote_log_manager_task_interval_ms", Value: ms}})
	}
	slices.SortStableFunc(sf.inputs, func(a, b timedInput) int { return int(min(max(a.at-b.at, -1), 1)) })
	// Slow remote reads on some: a thread blocked in a tiered bootstrap
	// holds its other partitions' fetches past the replica lag.
	return sf, []sim.Duration{100 * sim.Millisecond, 12 * sim.Second, 25 * sim.Second}[r.IntN(3)]
}

// runTicks runs the fleet to end, with or without elision.
func (sf *sessionFleet) runTicks(t *testing.T, noElision bool, remLat sim.Duration, end sim.Time) *fleetHarness {
	f := NewFleet(sf.cfg, KIP, sf.n, sf.tiered, slices.Clone(sf.parts))
	f.tk.noElision = noElision
	h := newFleetHarness(t, f)
	h.remLat = remLat
	h.play(sf.inputs, end)
	return h
}

// taskFirings counts the RLM task timers that fired and drops their input
// events from h (what elision may leave out).
func taskFirings(h *fleetHarness) int {
	n := len(h.events)
	h.events = slices.DeleteFunc(h.events, func(x timed) bool { return x.e.Kind == EvTimer && x.e.Part >= 0 })
	return n - len(h.events)
}

// TestElisionIsInvisible is the reference test of the broker ticks' due
// checks and of idle RLM tasks. The rule: a tick visits only the
// partitions whose check can act at its time, and an RLM task that ran
// and did nothing is left without a timer until the first point of its
// grid at which its partition changed or time alone can make it act;
// every run left out would have done nothing. So over random fleets run
// with every partition visited at every tick and every task run at every
// point of its grid (noElision) and with elision, each partition's events
// but the task timers' own inputs (with their times), the threads'
// events, the requests and each partition's final state and views must be
// equal, and elision must leave task runs out.
func TestElisionIsInvisible(t *testing.T) {
	end := sim.Time(240 * sim.Second)
	elided, shrinks, folds := 0, 0, 0
	for seed := uint64(1); seed <= 40; seed++ {
		sf, remLat := drawTickFleet(seed)
		hr, he := sf.runTicks(t, true, remLat, end), sf.runTicks(t, false, remLat, end)
		nr, ne := taskFirings(hr), taskFirings(he)
		ref, opt := summarize(hr), summarize(he)
		for _, x := range he.events {
			switch x.e.Kind {
			case EvISRShrink:
				shrinks++
			case EvHighestRemoteRun:
				folds++
			}
		}
		sameRun(t, seed, "reference", ref, "elided", opt)
		if ref.requests != opt.requests || ref.answers != opt.answers {
			t.Fatalf("seed %d: the threads differ: %d/%d requests, %d/%d answers", seed, ref.requests, opt.requests, ref.answers, opt.answers)
		}
		t.Logf("seed %d: %d task runs, %d elided", seed, nr, nr-ne)
		if ne > nr {
			t.Fatalf("seed %d: %d task runs with elision, %d without", seed, ne, nr)
		}
		if ne < nr {
			elided++
		}
	}
	if shrinks < 10 {
		t.Fatalf("%d ISR shrinks in 40 runs: the fleets do not exercise the ISR expiry", shrinks)
	}
	if elided < 10 {
		t.Fatalf("elision left task runs out in %d runs of 40: the fleets do not exercise it", elided)
	}
	if folds < 100 {
		t.Fatalf("%d folded RLM follower runs in 40 runs: the fleets do not exercise folding", folds)
	}
	t.Logf("%d folded RLM follower runs", folds)
}

// stepTaskRuns steps the random tick fleet of seed with elision to end,
// calling each after every step whose input is an RLM task's timer, before
// the step's outbox is taken, with a copy of the fleet from before it.
func stepTaskRuns(t *testing.T, seed uint64, end sim.Time, each func(before, f *Fleet, in *Input, at sim.Time)) {
	task := func(f *Fleet, in *Input) bool {
		_, ok := in.Timer.TaskRank(f.nbrokers)
		return in.Kind == EvTimer && ok
	}
	stepTickFleet(t, seed, end, func(f *Fleet, in *Input, at sim.Time, step func()) {
		if !task(f, in) {
			step()
			return
		}
		before := f.Clone()
		step()
		each(before, f, in, at)
	})
}

// stepTickFleet steps the random tick fleet of seed with elision to end,
// every input (the scenario's and the harness's messages, timers and
// remote operations) through around, which takes the step (step) and
// looks at the fleet before or after it, before its outbox is taken.
func stepTickFleet(t *testing.T, seed uint64, end sim.Time, around func(f *Fleet, in *Input, at sim.Time, step func())) {
	sf, remLat := drawTickFleet(seed)
	f := NewFleet(sf.cfg, KIP, sf.n, sf.tiered, slices.Clone(sf.parts))
	h := newFleetHarness(t, f)
	h.remLat = remLat
	runTo := func(until sim.Time) {
		for steps := 0; len(h.queue) > 0 && h.queue[0].at <= until; steps++ {
			if steps > maxHarnessSteps {
				t.Fatalf("seed %d: more than %d steps", seed, maxHarnessSteps)
			}
			at, in := h.pop()
			around(f, &in, at, func() { f.Step(at, &in) })
			h.drain()
		}
	}
	for _, x := range sf.inputs {
		runTo(x.at)
		in, at := x.in, max(x.at, f.Now)
		around(f, &in, at, func() { f.Step(at, &in) })
		h.drain()
	}
	runTo(end)
}

// TestForgottenIdleRunsChangeNothing: the partition of an RLM task's run
// that did nothing, which the step leaves out of Fleet.Dirty
// (forgetIdleRun) so that the harness neither records nor checks it, is
// after the step as it was before, but for its brokers' fold of the
// metadata, which RLM tasks alone read and which both sides are brought to
// the step's time for the comparison; and such runs happen.
func TestForgottenIdleRunsChangeNothing(t *testing.T) {
	forgot := 0
	for seed := uint64(1); seed <= 20; seed++ {
		stepTaskRuns(t, seed, sim.Time(240*sim.Second), func(before, f *Fleet, in *Input, at sim.Time) {
			p := in.Timer.Part
			if slices.Contains(f.Dirty(), p) {
				return
			}
			forgot++
			if was, is := foldedState(before, p, at), foldedState(f.cloneOut(), p, at); !bytes.Equal(was, is) {
				t.Fatalf("seed %d, %v: the %s run of partition %d on b%d left it out of Dirty but changed it", seed, at, in.Timer.Kind, p, in.Timer.Broker)
			}
		})
	}
	if forgot < 100 {
		t.Fatalf("%d RLM task runs left their partition out of Dirty: the fleets do not exercise it", forgot)
	}
}

// TestHROOnlyRunsChangeOneBroker: after an RLM follower task's run that
// the fleet took as raising its broker's HRO alone (noteHROOnly: settle
// and the due checks look at that broker only), every other broker of the
// partition reads as its due checks last noted it (taskSig), the
// partition's leadership is as the fetch sessions last noted it, and the
// partition's state but for that broker's HRO and its fold of the metadata
// is as before the step.
func TestHROOnlyRunsChangeOneBroker(t *testing.T) {
	only := 0
	for seed := uint64(1); seed <= 20; seed++ {
		stepTaskRuns(t, seed, sim.Time(240*sim.Second), func(before, f *Fleet, in *Input, at sim.Time) {
			b := f.tk.hroOnly
			if b < 0 {
				return
			}
			only++
			p := in.Timer.Part
			c := f.At(p)
			for _, o := range c.Brokers {
				if o.ID != b && o.Up && o.Role != RoleNone && c.taskSigOf(o) != c.ticksOf(o).sig {
					bc := before.At(p)
					t.Fatalf("seed %d, %v: the %s run of partition %d on b%d changed b%d's task signature\nbefore %+v\nafter  %+v\nnoted  %+v", seed, at, in.Timer.Kind, p, b, o.ID, bc.taskSigOf(bc.Brokers[o.ID]), c.taskSigOf(o), c.ticksOf(o).sig)
				}
			}
			if len(f.pf[p].sessOf) > 0 && f.snapOf(p) != f.pf[p].lsnap {
				t.Fatalf("seed %d, %v: the %s run of partition %d on b%d changed its leadership", seed, at, in.Timer.Kind, p, b)
			}
			after := f.cloneOut()
			after.Parts[p].Brokers[b].HighestRemote = before.Parts[p].Brokers[b].HighestRemote
			if was, is := foldedState(before, p, at), foldedState(after, p, at); !bytes.Equal(was, is) {
				t.Fatalf("seed %d, %v: the %s run of partition %d on b%d changed more than its HRO", seed, at, in.Timer.Kind, p, b)
			}
		})
	}
	if only < 100 {
		t.Fatalf("%d RLM follower task runs raised their HRO alone: the fleets do not exercise it", only)
	}
}

// cloneOut is a copy of f taken before its outbox is: Clone, with the
// outbox set aside.
func (f *Fleet) cloneOut() *Fleet {
	out := *f.out
	*f.out = outbox{}
	c := f.Clone()
	*f.out = out
	return c
}

// foldedState is partition p's state at now, every broker's fold of the
// metadata brought to now first (on f, a copy).
func foldedState(f *Fleet, p PartID, now sim.Time) []byte {
	c := f.Parts[p]
	c.Now = now
	for _, b := range c.Brokers {
		c.view(b)
	}
	return c.AppendState(nil, now)
}

// TestStepsLeaveBrokersNoted: after every step of the random tick fleets,
// every broker with a role of each partition the step touched reads as its
// due checks noted it (taskSig), unless a task's run that did nothing
// trimmed the metadata log the others' signatures count (foldedOthers):
// the due checks and idle tasks follow every change a step makes.
func TestStepsLeaveBrokersNoted(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed <= 60; seed++ {
		stepTickFleet(t, seed, sim.Time(240*sim.Second), func(f *Fleet, in *Input, at sim.Time, step func()) {
			step()
			checked += checkNoted(t, f, seed, at, in)
		})
	}
	if checked < 10000 {
		t.Fatalf("%d brokers checked: the fleets do not exercise the due checks", checked)
	}
	t.Logf("%d brokers checked", checked)
}

// checkNoted fails the test unless every broker with a role of each
// partition the step just taken (in, at) touched reads as its due checks
// noted it (taskSig), but a partition whose task run trimmed the metadata
// log the others' signatures count (foldedOthers); it returns how many
// brokers it checked.
func checkNoted(t *testing.T, f *Fleet, seed uint64, at sim.Time, in *Input) int {
	t.Helper()
	checked := 0
	for _, p := range f.Dirty() {
		if f.pf[p].foldedOthers {
			continue
		}
		c := f.At(p)
		for _, o := range c.Brokers {
			if o.Up && o.Role != RoleNone {
				checked++
				if s := c.taskSigOf(o); s != c.ticksOf(o).sig {
					t.Fatalf("seed %d, %v, after %s: partition %d's b%d reads\n%+v\nnoted\n%+v", seed, at, in.Kind, p, o.ID, s, c.ticksOf(o).sig)
				}
			}
		}
	}
	return checked
}
