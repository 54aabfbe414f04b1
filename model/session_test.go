package model

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"tierfetch/sim"
)

// sessionFleet is a random small fleet and the inputs it is given: a
// seeded draw of brokers, partitions (tiered or not, records of 10 to 40
// bytes, some with followers from the start, some with a leader only),
// fetcher threads, limits that bind (a response holds two or three
// partitions' worth, and its last room may be less than a record), and at
// random
// times produces, replicas added empty, crashes and restarts.
type sessionFleet struct {
	cfg    FleetConfig
	n      int
	tiered bool
	parts  []PartitionInit
	inputs []timedInput
}

type timedInput struct {
	at sim.Time
	in Input
}

func drawSessionFleet(seed uint64) sessionFleet {
	r := rand.New(rand.NewPCG(seed, 21))
	sf := sessionFleet{n: 3 + r.IntN(2), tiered: r.IntN(2) == 0}
	sf.cfg = FleetConfig{NumReplicaFetchers: 1 + r.IntN(2), ReplicaFetchResponseMaxBytes: int64(600 + r.IntN(900))}
	np := 3 + r.IntN(5)
	for p := 0; p < np; p++ {
		cfg := testConfig()
		cfg.ReplicaFetchMaxBytes = int64(300 + r.IntN(300))
		cfg.RecordBytes = int64(10 + 10*r.IntN(4))
		fx := fixture{hw: 300, local: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 299, 0}}}
		if cfg.RemoteStorageEnable = r.IntN(3) != 0; cfg.RemoteStorageEnable {
			fx = tieredFixture()
		}
		leader := r.IntN(sf.n)
		reps := []int{leader}
		if r.IntN(2) == 0 {
			reps = append(reps, (leader+1+r.IntN(sf.n-1))%sf.n)
		}
		sf.parts = append(sf.parts, PartitionInit{TP: TopicPartition{"t", int32(p)}, Cfg: cfg, Replicas: reps,
			Init: fx.initial(cfg.RecordBytes)})
	}
	at := func(lo, hi int) sim.Time { return sim.Time(sim.Duration(lo+r.IntN(hi-lo)) * sim.Millisecond) }
	for i := 0; i < 2+r.IntN(4); i++ {
		p := r.IntN(np)
		sf.inputs = append(sf.inputs, timedInput{at(0, 20_000), Input{Kind: EvAddReplica, Part: PartID(p), Broker: r.IntN(sf.n)}})
	}
	if r.IntN(2) == 0 {
		sf.inputs = append(sf.inputs, timedInput{at(0, 30_000), Input{Kind: EvAddReplica, Part: -1, Broker: r.IntN(sf.n)}})
	}
	for i := 0; i < 10+r.IntN(30); i++ {
		k := int64(1 + r.IntN(30))
		sf.inputs = append(sf.inputs, timedInput{at(0, 90_000), Input{Kind: EvProduce, Part: PartID(r.IntN(np)), Count: k, Records: k}})
	}
	if r.IntN(2) == 0 {
		b, t := r.IntN(sf.n), at(5_000, 60_000)
		sf.inputs = append(sf.inputs, timedInput{t, Input{Kind: EvCrash, Broker: b, Part: -1}},
			timedInput{t.Add(sim.Duration(1+r.IntN(40)) * sim.Second), Input{Kind: EvRestart, Broker: b, Part: -1}})
	}
	slices.SortStableFunc(sf.inputs, func(a, b timedInput) int { return int(min(max(a.at-b.at, -1), 1)) })
	return sf
}

// play steps the harness's fleet through inputs, each at its time, and
// then to end.
func (h *fleetHarness) play(inputs []timedInput, end sim.Time) {
	for _, x := range inputs {
		h.runUntil(x.at)
		in := x.in
		h.f.Step(max(x.at, h.f.Now), &in)
		h.drain()
	}
	h.runUntil(end)
	// The clock at the end, as the harness's (harness/stepper.go): the
	// folds SettleFolds applies are recorded there (their Ms counts back
	// from end), and the final states are read there, whether a step was
	// at that instant or not (with elision, fewer are).
	h.f.Now = max(h.f.Now, end)
	h.f.SettleFolds(end)
	h.drain()
}

// run runs the fleet to end, eager or with incremental sessions.
func (sf *sessionFleet) run(t *testing.T, eager bool, end sim.Time) *fleetHarness {
	f := NewFleet(sf.cfg, KIP, sf.n, sf.tiered, slices.Clone(sf.parts))
	f.eager = eager
	h := newFleetHarness(t, f)
	h.play(sf.inputs, end)
	for _, th := range h.f.threads {
		h.f.checkSession(th)
	}
	return h
}

// sessionRun is what the reference test compares of one run.
type sessionRun struct {
	parts    [][]byte // per partition: its events, encoded, with times
	thread   []byte   // the threads' blocked and unblocked events
	requests int      // thread fetches sent
	answers  int
	reqParts int // partitions in them
	ansParts int
	states   [][]byte // per partition: its state at the end (Cluster.AppendState)
	views    []byte   // the leaders' views of their followers at the end, times absolute
	// hro is per partition the times of its HRO events, which parts holds
	// without their times: a fold's (EvHighestRemoteRun, as EvHighestRemote)
	// is known to the millisecond (sameHROTimes).
	hro [][]hroAt
}

// hroAt is when an HRO event set its HRO: [lo, hi] (Event.SetWithin).
type hroAt struct{ lo, hi sim.Time }

// sameHROTimes fails the test unless each partition's HRO events of two
// runs can have been at the same times: equal, or within the millisecond
// a fold gives.
func sameHROTimes(t *testing.T, seed uint64, ra, rb sessionRun) {
	t.Helper()
	for p := range ra.hro {
		for i, a := range ra.hro[p] {
			b := rb.hro[p][i]
			if a.lo > b.hi || b.lo > a.hi {
				t.Fatalf("seed %d: t-%d's HRO event %d: %+v and %+v cannot be at one time", seed, p, i, a, b)
			}
		}
	}
}

// sameRun fails the test unless two runs of one fleet (named a and b in
// the message) gave every partition the same events and final state, the
// leaders the same views and the threads the same blocked events.
func sameRun(t *testing.T, seed uint64, a string, ra sessionRun, b string, rb sessionRun) {
	t.Helper()
	for p := range ra.parts {
		if !bytes.Equal(ra.parts[p], rb.parts[p]) {
			t.Fatalf("seed %d: t-%d's events differ:\n%s:\n%s\n%s:\n%s", seed, p, a, firstDiff(ra.parts[p], rb.parts[p]),
				b, firstDiff(rb.parts[p], ra.parts[p]))
		}
		if !bytes.Equal(ra.states[p], rb.states[p]) {
			t.Fatalf("seed %d: t-%d's final state differs", seed, p)
		}
	}
	if !bytes.Equal(ra.views, rb.views) {
		t.Fatalf("seed %d: the leaders' views differ:\n%s:\n%s\n%s:\n%s", seed, a, firstDiff(ra.views, rb.views),
			b, firstDiff(rb.views, ra.views))
	}
	if !bytes.Equal(ra.thread, rb.thread) {
		t.Fatalf("seed %d: the threads' blocked events differ", seed)
	}
	sameHROTimes(t, seed, ra, rb)
}

func summarize(h *fleetHarness) sessionRun {
	var s sessionRun
	s.parts, s.hro = make([][]byte, len(h.f.Parts)), make([][]hroAt, len(h.f.Parts))
	// input is where each partition's last event was its step's input, and
	// when: a fold the step applied (Fleet.stepPart) follows that input, and
	// goes before it here, where the run it stands for was.
	type mark struct {
		off int
		at  sim.Time
	}
	input := make([]mark, len(h.f.Parts))
	for _, x := range h.events {
		e := &x.e
		switch {
		case e.Part >= 0 && (e.Kind == EvHighestRemote || e.Kind == EvHighestRemoteRun):
			n := *e
			n.Kind, n.Ms = EvHighestRemote, 0
			enc := binaryAt(nil, 0, &n)
			if m := input[e.Part]; e.Kind == EvHighestRemoteRun && m.off >= 0 && m.at == x.at {
				s.parts[e.Part] = slices.Insert(s.parts[e.Part], m.off, enc...)
				input[e.Part].off += len(enc)
			} else {
				s.parts[e.Part] = append(s.parts[e.Part], enc...)
				input[e.Part].off = -1
			}
			lo, hi := e.SetWithin(x.at)
			s.hro[e.Part] = append(s.hro[e.Part], hroAt{lo, hi})
		case e.Part >= 0:
			input[e.Part] = mark{-1, 0}
			if e.Kind.IsInput() {
				input[e.Part] = mark{len(s.parts[e.Part]), x.at}
			}
			s.parts[e.Part] = binaryAt(s.parts[e.Part], x.at, e)
		case e.Kind == EvThreadBlocked || e.Kind == EvThreadUnblocked:
			s.thread = binaryAt(s.thread, x.at, e)
		case e.Kind == EvSend && e.Msg.Kind == MsgFetch:
			s.requests++
			s.reqParts += len(e.Msg.Parts)
		case e.Kind == EvSend && e.Msg.Kind == MsgFetchResp:
			s.answers++
			s.ansParts += len(e.Msg.Parts)
		}
	}
	for p := range h.f.Parts {
		c := h.f.At(PartID(p))
		s.states = append(s.states, c.AppendState(nil, h.f.Now))
		for _, b := range c.Brokers {
			for id := range b.lead.followers {
				v := &b.lead.followers[id]
				s.views = fmt.Appendf(s.views, "t-%d b%d<-b%d offset %d caught up %v leader end %d fetched %v\n", p, b.ID, id,
					v.fetchOffset, c.viewCaughtUpAt(v), v.lastFetchLeaderEnd, c.viewFetchAt(v))
			}
		}
	}
	return s
}

func binaryAt(dst []byte, at sim.Time, e *Event) []byte {
	dst = fmt.Appendf(dst, "%d:", at)
	return append(e.AppendBinaryPart(dst, at), '\n')
}

// TestSessionsMatchEager is the reference test of the incremental fetch
// session. The rule: a partition the leader does not visit is one whose
// request and leadership did not change since its last visit, that did
// not err, and that either has no records to read or comes after the
// response is full; visiting it would only record the follower's
// unchanged fetch (its time, and its caught-up time when at the log end)
// and answer nothing the follower does not already hold. So over the
// same random fleets, run with every partition visited and answered at
// every request (eager) and with sessions, each partition's events (its
// bootstraps, records fetched, ISR changes, with their times), the
// threads' blocked times and each partition's final state (logs, ISR, the
// leader's views of its followers read through the lazy accessor,
// fetchers) must be equal, and so must the number of fetches and answers
// (the same requests go at the same times); what may differ, and must
// not grow, is the partitions the answers carry.
func TestSessionsMatchEager(t *testing.T) {
	end := sim.Time(150 * sim.Second)
	fewer := 0
	for seed := uint64(1); seed <= 40; seed++ {
		sf := drawSessionFleet(seed)
		he, hi := sf.run(t, true, end), sf.run(t, false, end)
		taskFirings(he) // idle RLM tasks wake on the partitions a request touched, which differ
		taskFirings(hi)
		eager, incr := summarize(he), summarize(hi)
		sameRun(t, seed, "eager", eager, "sessions", incr)
		if eager.requests != incr.requests || eager.answers != incr.answers || eager.reqParts != incr.reqParts {
			t.Fatalf("seed %d: eager sent %d fetches of %d parts and %d answers, sessions %d of %d and %d", seed,
				eager.requests, eager.reqParts, eager.answers, incr.requests, incr.reqParts, incr.answers)
		}
		if incr.ansParts > eager.ansParts {
			t.Fatalf("seed %d: sessions answered %d parts, eager %d", seed, incr.ansParts, eager.ansParts)
		}
		if incr.ansParts < eager.ansParts {
			fewer++
		}
	}
	if fewer < 20 {
		t.Fatalf("sessions answered fewer parts than eager in %d runs of 40: the fleets do not exercise them", fewer)
	}
}

// firstDiff returns a's lines from the first that b lacks, a few of them.
func firstDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	i := 0
	for i < len(la) && i < len(lb) && bytes.Equal(la[i], lb[i]) {
		i++
	}
	return fmt.Sprintf("line %d: %q", i, la[i:min(len(la), i+2)])
}

// TestIdleSessionStaysInSync: followers caught up on idle partitions stay
// in the ISR for minutes (replica.lag.time.max.ms is 30 s) although, after
// the session's first answer, no request names a partition and no answer
// carries one: the leader's last fetch and caught-up times of each
// follower follow the session's requests (Replica.updateFetchStateOrThrow
// for an unchanged offset at the log end). Once the follower's broker
// stops, they stay at its last request.
func TestIdleSessionStaysInSync(t *testing.T) {
	cfg := testConfig()
	h := newTieredPairFleet(t, 3)
	h.runUntil(sim.Time(300 * sim.Second))
	var fetches, named, answered int
	for _, x := range h.events {
		if x.at < sim.Time(sim.Second) || x.e.Kind != EvSend || x.e.Part != -1 {
			continue
		}
		if x.e.Msg.Kind == MsgFetch {
			fetches++
		}
		if x.e.Msg.Kind == MsgFetch {
			named += len(x.e.Msg.Parts)
		} else {
			answered += len(x.e.Msg.Parts)
		}
	}
	if fetches < 500 || named != 0 || answered != 0 {
		t.Fatalf("after the first second: %d fetches naming %d partitions, answers carrying %d; want over 500 long polls naming none",
			fetches, named, answered)
	}
	for _, x := range h.events {
		if x.e.Kind == EvISRShrink {
			t.Fatalf("t-%d's ISR shrank at %v while its follower fetched", x.e.Part, x.at)
		}
	}
	for p := range h.f.Parts {
		c := h.f.Parts[p]
		if !c.Ctrl.InISR(1) {
			t.Fatalf("t-%d's ISR is %v", p, c.Ctrl.ISR)
		}
		v := &c.Brokers[0].lead.followers[1]
		if late := cfg.ReplicaFetchWaitMax + 2*h.netLat; h.f.Now.Sub(c.viewFetchAt(v)) > late || h.f.Now.Sub(c.viewCaughtUpAt(v)) > late {
			t.Fatalf("at %v the leader of t-%d last saw b1 fetch at %v, caught up at %v; it long-polls every %v", h.f.Now, p,
				c.viewFetchAt(v), c.viewCaughtUpAt(v), cfg.ReplicaFetchWaitMax)
		}
	}
	stop := h.f.Now
	h.f.Step(stop, &Input{Kind: EvCrash, Broker: 1, Part: -1})
	h.drain()
	// The controller drops a stopped broker from the ISR at once; the
	// leader's view of it stops where its last request left it.
	v := &h.f.Parts[0].Brokers[0].lead.followers[1]
	if got := h.f.Parts[0].viewFetchAt(v); got > stop || stop.Sub(got) > cfg.ReplicaFetchWaitMax+2*h.netLat {
		t.Fatalf("the leader's last fetch of b1 at %v, b1 stopped at %v after long polls of %v", got, stop, cfg.ReplicaFetchWaitMax)
	}
	h.runUntil(stop.Add(10 * sim.Second))
	if got := h.f.Parts[0].viewFetchAt(v); got > stop {
		t.Fatalf("the leader's last fetch of stopped b1 moved to %v", got)
	}
}

// TestLastRoomReadsSmallRecords: the response's last room goes to a later
// partition whose records fit in it, though an earlier one's do not, also
// when the later one is read because it has records (not because its
// request changed). One thread of t-0 (40-byte records), t-1 and t-2
// (10-byte ones), all lagging; 100 bytes a partition, 95 a response.
// Answer 1, in session order: t-0 gets min(100, 95) / 40 = 2 records (80
// bytes), t-1 one of the 15 bytes left, t-2 none (5 left); t-0 and t-1
// go to the end (t-2, t-0, t-1). Answer 2: t-2 gets 9 records (90), the
// others none (5 left); order t-0, t-1, t-2. Answer 3: t-0 2 records and
// t-1, whose request did not change since answer 1, one. The same with
// every partition visited at every request.
func TestLastRoomReadsSmallRecords(t *testing.T) {
	for _, eager := range []bool{true, false} {
		var ps []PartitionInit
		for p, rb := range []int64{40, 10, 10} {
			cfg := testConfig()
			cfg.RemoteStorageEnable, cfg.RecordBytes, cfg.SegmentBytes, cfg.ReplicaFetchMaxBytes = false, rb, 1<<40, 100
			fx := fixture{hw: 100, local: []segSpec{{0, 99, 0}}}
			ps = append(ps, PartitionInit{TP: TopicPartition{"t", int32(p)}, Cfg: cfg, Replicas: []int{0}, Init: fx.initial(rb)})
		}
		f := NewFleet(FleetConfig{ReplicaFetchResponseMaxBytes: 95}, KIP, 2, false, ps)
		f.eager = eager
		h := newFleetHarness(t, f)
		h.input(Input{Kind: EvAddReplica, Broker: 1, Part: -1})
		h.runUntil(sim.Time(sim.Second))
		got := h.responses(3)
		want := [][][2]int64{{{0, 2}, {1, 1}}, {{2, 9}}, {{0, 2}, {1, 1}}}
		for i := range want {
			if i >= len(got) || !slices.Equal(got[i], want[i]) {
				t.Fatalf("eager %v: answers with records %v, want %v", eager, got, want)
			}
		}
	}
}
