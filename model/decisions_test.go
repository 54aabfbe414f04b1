package model

import (
	"fmt"
	"slices"
	"testing"
)

// Decision edges of the follower and the leader, each tested on both sides
// of its boundary. Expected values come from the rule the edge implements
// (docs/design/protocol.md and the comments on the code), not from a previous run.

// query builds a TierQuery for an empty, flag-on follower of a tiered topic
// that got err, with the leader's ListOffsets answers so far (ts -> offset;
// the epoch of an answer is 3 unless epochs says otherwise).
func query(err ErrCode, logEnd int64, answers map[int64]int64) *TierQuery {
	q := &TierQuery{Err: err, LogEnd: logEnd, LastTiered: true, Tiered: true}
	for _, ts := range []int64{ListLatest, ListEarliest, ListEarliestLocal, ListEarliestPendingUpload} {
		if o, ok := answers[ts]; ok {
			q.setAnswer(ts, o, 3)
		}
	}
	return q
}

func askFor(ts int64) Decision { return Decision{Kind: DecideAsk, Ts: ts} }

func buildAux(offset, logStart int64, p Path) Decision {
	return Decision{Kind: DecideBuildAux, Offset: offset, Epoch: 3, LogStart: logStart, Path: p}
}

// TestKIPDecideLastTiered walks KIP-1023's decision for an empty follower:
// -2, then -6; EPUO >= LSO builds the auxiliary state up to EPUO (EPUO ==
// LSO included); EPUO < LSO falls back to KIP-405; EPUO unknown asks -4 and
// starts at the local log start only when it equals the log start.
func TestKIPDecideLastTiered(t *testing.T) {
	const lso, llso = 500, 800
	oomts := ErrOffsetMovedToTieredStorage
	for _, c := range []struct {
		name    string
		answers map[int64]int64
		want    Decision
	}{
		{"first -2", nil, askFor(ListEarliest)},
		{"then -6", map[int64]int64{-2: lso}, askFor(ListEarliestPendingUpload)},
		{"EPUO above LSO", map[int64]int64{-2: lso, -6: 900}, buildAux(900, lso, PathEarliestPendingUpload)},
		{"EPUO at LSO", map[int64]int64{-2: lso, -6: lso}, buildAux(lso, lso, PathEarliestPendingUpload)},
		{"EPUO one below LSO falls back", map[int64]int64{-2: lso, -6: lso - 1},
			Decision{Kind: DecideAsk, Ts: ListEarliestLocal, Fallback: true}},
		{"fallback then builds to LLSO", map[int64]int64{-2: lso, -6: lso - 1, -4: llso},
			Decision{Kind: DecideBuildAux, Offset: llso, Epoch: 3, LogStart: lso, Path: PathLocalLogStart, Fallback: true}},
		{"EPUO unknown asks -4", map[int64]int64{-2: lso, -6: -1}, askFor(ListEarliestLocal)},
		{"EPUO unknown, LLSO == LSO: nothing tiered", map[int64]int64{-2: lso, -6: -1, -4: lso}, buildAux(lso, lso, PathLocalLogStart)},
		{"EPUO unknown, LLSO above LSO: retry", map[int64]int64{-2: lso, -6: -1, -4: lso + 1},
			Decision{Kind: DecideRetry, Reason: RetryEPUOUnknown}},
	} {
		if got := KIP.Decide(query(oomts, 0, c.answers)); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestKIPDecideOnlyEmptyFlagOnTieredFollowers: the last-tiered rules apply
// only to a follower with LEO exactly 0, the flag on, on a tiered topic that
// is not compacted; any other follower uses KIP-405's rules (OMTS: ask -4).
func TestKIPDecideOnlyEmptyFlagOnTieredFollowers(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(q *TierQuery)
		want Decision
	}{
		{"eligible", func(q *TierQuery) {}, askFor(ListEarliest)},
		{"LEO 1", func(q *TierQuery) { q.LogEnd = 1 }, askFor(ListEarliestLocal)},
		{"flag off", func(q *TierQuery) { q.LastTiered = false }, askFor(ListEarliestLocal)},
		{"not tiered", func(q *TierQuery) { q.Tiered = false }, askFor(ListEarliestLocal)},
		{"compacted", func(q *TierQuery) { q.Compacted = true }, askFor(ListEarliestLocal)},
	} {
		q := query(ErrOffsetMovedToTieredStorage, 0, nil)
		c.edit(q)
		if got := KIP.Decide(q); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestDecideLocalLogStart is KIP-405's handling: OMTS asks -4 then -2 and
// builds the auxiliary state up to the local log start (carrying its epoch);
// OOR asks -1: a leader that ends below the follower makes it truncate to
// the leader's end; otherwise -2: a log start above the follower's LEO
// restarts it there, one at or below lets it fetch on.
func TestDecideLocalLogStart(t *testing.T) {
	const leo = 100
	for _, c := range []struct {
		name    string
		err     ErrCode
		answers map[int64]int64
		want    Decision
	}{
		{"OMTS asks -4", ErrOffsetMovedToTieredStorage, nil, askFor(ListEarliestLocal)},
		{"OMTS then -2", ErrOffsetMovedToTieredStorage, map[int64]int64{-4: 300}, askFor(ListEarliest)},
		{"OMTS builds to LLSO", ErrOffsetMovedToTieredStorage, map[int64]int64{-4: 300, -2: 50}, buildAux(300, 50, PathLocalLogStart)},
		{"OOR asks -1", ErrOffsetOutOfRange, nil, askFor(ListLatest)},
		{"leader ends one below", ErrOffsetOutOfRange, map[int64]int64{-1: leo - 1}, Decision{Kind: DecideTruncate, Offset: leo - 1}},
		{"leader ends at the follower's LEO", ErrOffsetOutOfRange, map[int64]int64{-1: leo}, askFor(ListEarliest)},
		{"log start one above", ErrOffsetOutOfRange, map[int64]int64{-1: 500, -2: leo + 1},
			Decision{Kind: DecideStartAt, Offset: leo + 1, LogStart: leo + 1, Path: PathTruncateToLogStart}},
		{"log start at the follower's LEO", ErrOffsetOutOfRange, map[int64]int64{-1: 500, -2: leo}, Decision{Kind: DecideContinue}},
	} {
		for _, p := range []Profile{KIP, Kafka43} {
			if p == Kafka43 && c.err == ErrOffsetMovedToTieredStorage {
				continue // Kafka asks in another order: TestKafka43Decide
			}
			q := query(c.err, leo, c.answers)
			q.LastTiered = false
			if got := p.Decide(q); got != c.want {
				t.Errorf("%s %s: got %+v, want %+v", p.Name(), c.name, got, c.want)
			}
		}
	}
}

// TestKafka43Decide: Kafka 4.3 asks -1 first; the last-tiered rules need the
// leader's LEO to be non-zero; the -6 answer is used as is, even below the
// log start offset (no fallback); OMTS otherwise asks -2, then -4.
func TestKafka43Decide(t *testing.T) {
	const lso = 500
	omts := ErrOffsetMovedToTieredStorage
	for _, c := range []struct {
		name    string
		answers map[int64]int64
		want    Decision
	}{
		{"first -1", nil, askFor(ListLatest)},
		{"then -2", map[int64]int64{-1: 1000}, askFor(ListEarliest)},
		{"then -6", map[int64]int64{-1: 1000, -2: lso}, askFor(ListEarliestPendingUpload)},
		{"EPUO below LSO is used as is", map[int64]int64{-1: 1000, -2: lso, -6: lso - 1}, buildAux(lso-1, lso, PathEarliestPendingUpload)},
		{"EPUO unknown asks -4", map[int64]int64{-1: 1000, -2: lso, -6: -1}, askFor(ListEarliestLocal)},
		{"EPUO unknown, LLSO == LSO", map[int64]int64{-1: 1000, -2: lso, -6: -1, -4: lso}, buildAux(lso, lso, PathLocalLogStart)},
		{"EPUO unknown, LLSO != LSO", map[int64]int64{-1: 1000, -2: lso, -6: -1, -4: 600}, Decision{Kind: DecideRetry, Reason: RetryEPUOUnknown}},
		{"leader LEO 0: KIP-405, -2 first", map[int64]int64{-1: 0}, askFor(ListEarliest)},
		{"leader LEO 0: then -4", map[int64]int64{-1: 0, -2: 0}, askFor(ListEarliestLocal)},
		{"leader LEO 0: builds to LLSO", map[int64]int64{-1: 0, -2: 0, -4: 0}, buildAux(0, 0, PathLocalLogStart)},
	} {
		if got := Kafka43.Decide(query(omts, 0, c.answers)); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
	q := query(omts, 0, map[int64]int64{-1: 1000})
	q.LastTiered = false
	if got, want := Kafka43.Decide(q), askFor(ListEarliest); got != want {
		t.Errorf("flag off: got %+v, want %+v (KIP-405 with -2 before -4)", got, want)
	}
	q = query(ErrOffsetOutOfRange, 0, map[int64]int64{-1: 1000, -2: 0})
	q.Compacted = true
	if got, want := Kafka43.Decide(q), (Decision{Kind: DecideContinue}); got != want {
		t.Errorf("compacted, OOR at the log start: got %+v, want %+v", got, want)
	}
}

// TestProfileAuxRules: KIP's build is trivial exactly when it starts at the
// leader's log start and asks for the previous epoch when the start's epoch
// is above 0; Kafka 4.3 always needs the segment holding start-1 and asks
// whenever the epoch is not 0 (even -1).
func TestProfileAuxRules(t *testing.T) {
	for _, c := range []struct {
		p                  Profile
		start, lso         int64
		trivial            bool
		epoch              int32
		askPrevious        bool
		seedCopyOff, probe bool
	}{
		{KIP, 100, 100, true, 1, true, true, false},
		{KIP, 101, 100, false, 0, false, true, false},
		{KIP, 99, 100, false, -1, false, true, false},
		{Kafka43, 100, 100, false, -1, true, false, true},
		{Kafka43, 100, 100, false, 0, false, false, true},
		{Kafka43, 100, 100, false, 2, true, false, true},
	} {
		if got := c.p.AuxStateTrivial(c.start, c.lso); got != c.trivial {
			t.Errorf("%s AuxStateTrivial(%d, %d) = %v", c.p.Name(), c.start, c.lso, got)
		}
		if got := c.p.AskPreviousEpoch(c.epoch); got != c.askPrevious {
			t.Errorf("%s AskPreviousEpoch(%d) = %v", c.p.Name(), c.epoch, got)
		}
		if c.p.SeedWhenCopyDisabled() != c.seedCopyOff || c.p.ProbeLatestAfterAux() != c.probe {
			t.Errorf("%s: seed when copy disabled %v, probe after aux %v", c.p.Name(), c.p.SeedWhenCopyDisabled(), c.p.ProbeLatestAfterAux())
		}
	}
	if Profiles["kip"] != KIP || Profiles["kafka-4.3"] != Kafka43 || KIP.Name() != "kip" || Kafka43.Name() != "kafka-4.3" {
		t.Errorf("profiles by name: %v", Profiles)
	}
}

// sent returns the messages of c's outbox and empties it (effects and events).
func sent(c *Cluster) []Message {
	checkEventFields(c)
	var out []Message
	for _, e := range c.out.effects {
		if e.Kind == EffSend {
			out = append(out, e.Msg)
		}
	}
	c.Advance()
	return out
}

// checkEventFields panics when an event the cluster emitted sets a field
// its kind does not list (a peer where there is none): such a value is
// missing from a run's digest. sent and remoteOps check before draining, so
// every unit test that drains checks the events of what it drove.
func checkEventFields(c *Cluster) {
	for i := range c.out.events {
		if extra := c.out.events[i].FieldsOutsideKind(); len(extra) > 0 {
			panic(fmt.Sprintf("%s event sets %v outside its kind: %+v", c.out.events[i].Kind, extra, c.out.events[i]))
		}
	}
}

// answer delivers m and returns the one message sent in reply.
func answer(t *testing.T, c *Cluster, m Message) Message {
	t.Helper()
	if m.ReqID == 0 {
		m.ReqID = 1 // every request has an id, echoed in its answer
	}
	sent(c)
	c.deliver(m)
	out := sent(c)
	if len(out) != 1 {
		t.Fatalf("%v: %d answers %v, want 1", m.String(), len(out), out)
	}
	return out[0]
}

// leaderOf builds the fixture with b0 leading and b1 an in-sync follower,
// and returns it with its outbox drained.
func leaderOf(f fixture, cfg Config, p Profile) *Cluster {
	c := f.cluster(cfg, p, 3, []int{0, 1}, false)
	sent(c)
	return c
}

func fetchAt(c *Cluster, from int, o int64, lastEpoch int32) Message {
	return Message{Kind: MsgFetch, From: from, To: 0, ReqID: 99, LeaderEpoch: c.Ctrl.LeaderEpoch, FetchOffset: o,
		LastFetchedEpoch: lastEpoch, MaxBytes: 10_000}
}

// TestLeaderFetchAnswers: a fetch at o gets records when LLSO <= o < LEO,
// OMTS when LSO <= o < LLSO on a tiered topic (OOR when tiering is off), OOR
// below LSO or above LEO, and waits (parked) at LEO.
func TestLeaderFetchAnswers(t *testing.T) {
	f := tieredFixture()
	f.logStart = 100 // LSO 100, LLSO 200, LEO 450
	for _, tiered := range []bool{true, false} {
		cfg := testConfig()
		cfg.RemoteStorageEnable = tiered
		below := ErrOffsetOutOfRange
		if tiered {
			below = ErrOffsetMovedToTieredStorage
		}
		for _, c := range []struct {
			o    int64
			want ErrCode
		}{{99, ErrOffsetOutOfRange}, {100, below}, {199, below}, {200, ErrNone}, {449, ErrNone}, {451, ErrOffsetOutOfRange}} {
			cl := leaderOf(f, cfg, KIP)
			resp := answer(t, cl, fetchAt(cl, 1, c.o, -1))
			if resp.Kind != MsgFetchResp || resp.Err != c.want || resp.To != 1 || resp.ReqID != 99 {
				t.Errorf("tiered=%v fetch(%d): %v, want %s", tiered, c.o, resp.String(), c.want)
				continue
			}
			if c.want == ErrNone {
				if len(resp.Batches) == 0 || resp.Batches[0].Base != c.o || resp.HighWatermark != 450 || resp.LogStart != 100 {
					t.Errorf("tiered=%v fetch(%d): %v batches %v", tiered, c.o, resp.String(), resp.Batches)
				}
			}
		}
		cl := leaderOf(f, cfg, KIP)
		cl.deliver(fetchAt(cl, 1, 450, -1))
		if out := sent(cl); len(out) != 0 {
			t.Errorf("tiered=%v fetch at LEO answered at once: %v", tiered, out)
		}
		cl.fire(TimerKey{Broker: 0, Kind: TimerParkedFetch, Peer: 1})
		if out := sent(cl); len(out) != 1 || out[0].Err != ErrNone || len(out[0].Batches) != 0 {
			t.Errorf("tiered=%v parked fetch at LEO: %v, want an empty answer", tiered, out)
		}
	}
}

// TestParkedFetchWakesOnProduce: a fetch parked at LEO is answered with the
// new records as soon as they are appended; one that outlived a change of
// the log is answered with the error a new fetch would get.
func TestParkedFetchWakesOnProduce(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.deliver(fetchAt(c, 1, 450, -1))
	sent(c)
	c.produce(5, 0)
	out := sent(c)
	if len(out) != 1 || len(out[0].Batches) != 1 || out[0].Batches[0].Base != 450 || out[0].Batches[0].Count != 5 {
		t.Fatalf("after producing 5 records: %v", out)
	}
	// A parked fetch whose offset the log left behind.
	c.deliver(fetchAt(c, 1, 455, -1))
	sent(c)
	c.Brokers[0].Log.TruncateTo(452)
	c.fire(TimerKey{Broker: 0, Kind: TimerParkedFetch, Peer: 1})
	if out := sent(c); len(out) != 1 || out[0].Err != ErrOffsetOutOfRange {
		t.Errorf("parked fetch beyond a truncated log end: %v, want OOR", out)
	}
}

// TestLeaderEpochFencing: requests carry the sender's leader epoch; an older
// one is fenced, a newer one unknown, and a broker that is not the leader
// says so.
func TestLeaderEpochFencing(t *testing.T) {
	f := tieredFixture()
	f.epoch = 4
	for _, kind := range []MsgKind{MsgFetch, MsgListOffsets, MsgEpochEnd} {
		for _, c := range []struct {
			to    int
			epoch int32
			want  ErrCode
		}{{0, 3, ErrFencedLeaderEpoch}, {0, 5, ErrUnknownLeaderEpoch}, {1, 4, ErrNotLeader}, {0, 4, ErrNone}} {
			cl := leaderOf(f, testConfig(), KIP)
			m := Message{Kind: kind, From: 2, To: c.to, ReqID: 7, LeaderEpoch: c.epoch, FetchOffset: 300, LastFetchedEpoch: -1,
				Timestamp: ListEarliest, Epoch: 4, MaxBytes: 100}
			if c.to == 1 {
				m.From = 2
			}
			resp := answer(t, cl, m)
			if resp.Err != c.want || resp.Kind != kind+1 || resp.ReqID != 7 || resp.To != 2 {
				t.Errorf("%s to b%d epoch %d: %v, want %s", kind, c.to, c.epoch, resp.String(), c.want)
			}
		}
	}
}

// TestKIP320DivergenceOnTheLeader: a fetch's last fetched epoch must end on
// the leader at or after the fetch offset: ending at it is fine, ending one
// before is a divergence naming the leader's end of that epoch; an epoch the
// leader does not know but precedes its own is answered with the largest
// epoch below it; an epoch newer than the leader's is out of range, as is a
// fetch below the log start offset.
func TestKIP320DivergenceOnTheLeader(t *testing.T) {
	// Epoch 0 is [0,300), epoch 2 [300,450): epoch 1 never led.
	f := fixture{hw: 450, hro: -1, epoch: 2,
		local: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 299, 0}, {300, 399, 2}, {400, 449, 2}}}
	cfg := testConfig()
	for _, c := range []struct {
		o          int64
		lastEpoch  int32
		err        ErrCode
		diverging  bool
		epoch      int32
		end        int64
		hasRecords bool
	}{
		{300, 0, ErrNone, false, 0, 0, true},   // epoch 0 ends at 300 = the fetch offset
		{301, 0, ErrNone, true, 0, 300, false}, // ends one before the fetch offset
		{350, 1, ErrNone, true, 0, 300, false}, // unknown epoch 1: the leader's floor is epoch 0, ending at 300
		{350, 2, ErrNone, false, 0, 0, true},   // the current epoch ends at LEO
		{350, 3, ErrOffsetOutOfRange, false, 0, 0, false},
	} {
		cl := leaderOf(f, cfg, KIP)
		resp := answer(t, cl, fetchAt(cl, 1, c.o, c.lastEpoch))
		if resp.Err != c.err || resp.Diverging != c.diverging || (c.diverging && (resp.Epoch != c.epoch || resp.Offset != c.end)) ||
			(len(resp.Batches) > 0) != c.hasRecords {
			t.Errorf("fetch(%d) lastEpoch=%d: %v, want err=%s diverging=%v epoch=%d end=%d records=%v",
				c.o, c.lastEpoch, resp.String(), c.err, c.diverging, c.epoch, c.end, c.hasRecords)
		}
	}
	f.logStart = 100
	f.local = f.local[1:]
	cl := leaderOf(f, cfg, KIP)
	if resp := answer(t, cl, fetchAt(cl, 1, 99, 0)); resp.Err != ErrOffsetOutOfRange {
		t.Errorf("fetch below the log start with an epoch: %v, want OOR", resp.String())
	}
	if resp := answer(t, cl, fetchAt(cl, 1, 100, 0)); resp.Err != ErrNone || resp.Diverging {
		t.Errorf("fetch at the log start with epoch 0: %v, want records", resp.String())
	}
}

// followerAwaiting returns a cluster where follower b1 has just sent a fetch
// and the id of that request.
func followerAwaiting(t *testing.T, f fixture, cfg Config) (*Cluster, uint64) {
	t.Helper()
	c := f.cluster(cfg, KIP, 3, []int{0, 1}, false)
	for _, m := range sent(c) {
		if m.Kind == MsgFetch && m.From == 1 {
			return c, m.ReqID
		}
	}
	t.Fatal("b1 sent no fetch")
	return nil, 0
}

// TestKIP320TruncateOnDivergence: told that its last epoch E ends on the
// leader at offset x, a follower truncates to min(x, its own end of E) when
// it knows E, to its own end of the largest epoch below E (the next fetch
// compares again) when it does not, and to min(x, LEO) when its cache has
// nothing at or below E.
func TestKIP320TruncateOnDivergence(t *testing.T) {
	// The follower: epoch 1 [100,300), epoch 3 [300,450).
	f := fixture{hw: 100, hro: -1, epoch: 3,
		local: []segSpec{{100, 199, 1}, {200, 299, 1}, {300, 399, 3}, {400, 449, 3}}}
	for _, c := range []struct {
		leaderEpoch int32
		leaderEnd   int64
		want        int64
	}{
		{1, 250, 250}, // epoch 1 ends on the leader before it does here
		{1, 350, 300}, // ...after it does here: its own end of epoch 1
		{3, 420, 420},
		{3, 460, 450}, // never past its LEO
		{2, 250, 300}, // unknown epoch 2: the end of epoch 1 here, compared again on the next fetch
		{0, 150, 100}, // older than its cache: epoch 0 ends where the cache starts
	} {
		cl, req := followerAwaiting(t, f, testConfig())
		cl.deliver(Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req, LeaderEpoch: 3, Diverging: true, Epoch: c.leaderEpoch, Offset: c.leaderEnd})
		l := &cl.Brokers[1].Log
		if l.LogEnd != c.want {
			t.Errorf("leader epoch %d ends at %d: follower truncated to %d, want %d", c.leaderEpoch, c.leaderEnd, l.LogEnd, c.want)
		}
		if l.HighWatermark > l.LogEnd {
			t.Errorf("HW %d above LEO %d after truncation", l.HighWatermark, l.LogEnd)
		}
		out := sent(cl)
		if len(out) != 1 || out[0].Kind != MsgFetch || out[0].FetchOffset != c.want || out[0].LastFetchedEpoch != l.LatestEpoch() {
			t.Errorf("after truncating to %d the follower sent %v", c.want, out)
		}
	}
}

// TestISRJoin: a follower joins the ISR when its fetch offset reaches the
// leader's HW and the start offset of the leader's current epoch, and not
// one offset before either.
func TestISRJoin(t *testing.T) {
	// The leader's epoch 1 begins at its LEO 450 (becomeLeader), HW 400.
	f := fixture{hw: 400, hro: -1, epoch: 1, local: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 299, 0}, {300, 399, 0}, {400, 449, 0}}}
	for _, c := range []struct {
		o    int64
		join bool
	}{{399, false}, {400, false}, {449, false}, {450, true}} {
		cl := f.cluster(testConfig(), KIP, 3, []int{0}, false)
		if err := cl.addReplica(2); err != nil {
			t.Fatal(err)
		}
		sent(cl)
		cl.deliver(fetchAt(cl, 2, c.o, -1))
		if cl.Ctrl.InISR(2) != c.join {
			t.Errorf("fetch at %d (HW 400, epoch start 450): in ISR %v, want %v", c.o, cl.Ctrl.InISR(2), c.join)
		}
	}
	// HW below the epoch's start and held there (b1, in the ISR, has not
	// fetched): reaching HW is not enough, the epoch's start is needed.
	for _, c := range []struct {
		o    int64
		join bool
	}{{420, false}, {449, false}, {450, true}} {
		cl := f.cluster(testConfig(), KIP, 3, []int{0, 1}, false)
		if hw := cl.Brokers[0].Log.HighWatermark; hw != 400 {
			t.Fatalf("HW %d, want 400", hw)
		}
		if err := cl.addReplica(2); err != nil {
			t.Fatal(err)
		}
		sent(cl)
		cl.deliver(fetchAt(cl, 2, c.o, -1))
		if cl.Ctrl.InISR(2) != c.join {
			t.Errorf("fetch at %d (HW 400 held by b1, epoch start 450): in ISR %v, want %v", c.o, cl.Ctrl.InISR(2), c.join)
		}
	}
	// Once HW has passed the epoch's start, HW alone decides: b1 in the ISR
	// fetches at 480 after 50 records were produced, so HW = 480.
	for _, c := range []struct {
		o    int64
		join bool
	}{{479, false}, {480, true}} {
		cl := f.cluster(testConfig(), KIP, 3, []int{0, 1}, false)
		cl.produce(50, 0)
		cl.deliver(fetchAt(cl, 1, 480, -1))
		if hw := cl.Brokers[0].Log.HighWatermark; hw != 480 {
			t.Fatalf("HW %d after b1 fetched at 480, want 480", hw)
		}
		if err := cl.addReplica(2); err != nil {
			t.Fatal(err)
		}
		sent(cl)
		cl.deliver(fetchAt(cl, 2, c.o, -1))
		if cl.Ctrl.InISR(2) != c.join || (len(eventsOf(cl, EvISRJoin)) == 1) != c.join {
			t.Errorf("fetch at %d (HW 480, epoch start 450): in ISR %v, want %v", c.o, cl.Ctrl.InISR(2), c.join)
		}
	}
}

// TestHighWatermarkIsTheSmallestISRFetchOffset: HW rises to the smallest
// fetch offset of the ISR's followers (the leader counts with its LEO) and
// never falls.
func TestHighWatermarkIsTheSmallestISRFetchOffset(t *testing.T) {
	f := fixture{hw: 100, hro: -1, local: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 249, 0}}}
	c := f.cluster(testConfig(), KIP, 3, []int{0, 1, 2}, false)
	sent(c)
	hw := func() int64 { return c.Brokers[0].Log.HighWatermark }
	c.deliver(fetchAt(c, 1, 200, -1))
	if hw() != 100 {
		t.Fatalf("HW %d after b1 fetched at 200 and b2 never fetched, want 100", hw())
	}
	c.deliver(fetchAt(c, 2, 150, -1))
	if hw() != 150 {
		t.Fatalf("HW %d, want 150 = min(b1 200, b2 150)", hw())
	}
	c.deliver(fetchAt(c, 2, 250, -1))
	if hw() != 200 {
		t.Fatalf("HW %d, want 200 = min(b1 200, b2 250, LEO 250)", hw())
	}
	c.deliver(fetchAt(c, 1, 120, -1))
	if hw() != 200 {
		t.Fatalf("HW fell to %d", hw())
	}
}

// TestListOffsetsAnswers: -1 LEO, -2 LSO, -4 LLSO with tiering on and LSO
// with it off, each with the leader epoch of its offset (the latest epoch
// at LEO). UnifiedLog.fetchOffsetByTimestamp answers localLogStartOffset()
// for -4 with remote storage enabled (UnifiedLog.java:1680-1688 @004b2276)
// and the log start offset with it disabled (1669-1679).
func TestListOffsetsAnswers(t *testing.T) {
	f := fixture{logStart: 150, hw: 450, hro: 299, epoch: 2,
		remote: []segSpec{{100, 199, 0}, {200, 299, 1}},
		local:  []segSpec{{200, 299, 1}, {300, 399, 2}, {400, 449, 2}}}
	for _, tiered := range []bool{true, false} {
		cfg := testConfig()
		cfg.RemoteStorageEnable = tiered
		c := leaderOf(f, cfg, KIP)
		llso, llsoEpoch := int64(200), int32(1)
		if !tiered {
			llso, llsoEpoch = 150, 0
		}
		for _, w := range []struct {
			ts     int64
			offset int64
			epoch  int32
		}{{ListLatest, 450, 2}, {ListEarliest, 150, 0}, {ListEarliestLocal, llso, llsoEpoch}} {
			resp := answer(t, c, Message{Kind: MsgListOffsets, From: 1, To: 0, ReqID: 1, LeaderEpoch: 2, Timestamp: w.ts})
			if resp.Offset != w.offset || resp.Epoch != w.epoch || resp.Timestamp != w.ts {
				t.Errorf("tiered=%v ListOffsets(%d) = %d epoch %d, want %d epoch %d", tiered, w.ts, resp.Offset, resp.Epoch, w.offset, w.epoch)
			}
		}
	}
}

// TestEPUOAnswers: the leader's -6 answer. KIP: HRO+1, -1 when HRO is
// unknown or tiering is off, carrying the epoch of the offset (the latest
// at LEO). Kafka 4.3: max(HRO+1, LSO); with HRO unknown, LSO if LLSO == LSO
// else -1; and -1 for anything at or beyond LEO.
func TestEPUOAnswers(t *testing.T) {
	base := func(lso, hro int64) fixture {
		return fixture{logStart: lso, hw: 450, hro: hro, epoch: 2,
			remote: []segSpec{{0, 99, 0}, {100, 199, 1}, {200, 299, 1}},
			local:  []segSpec{{200, 299, 1}, {300, 399, 2}, {400, 449, 2}}}
	}
	type want struct {
		offset int64
		epoch  int32
	}
	for _, c := range []struct {
		name       string
		f          fixture
		tiered     bool
		kip, kafka want
	}{
		{"HRO 299", base(0, 299), true, want{300, 2}, want{300, 2}},
		{"HRO 199, in epoch 1", base(0, 199), true, want{200, 1}, want{200, 1}},
		{"HRO+1 below LSO", base(250, 199), true, want{200, -1}, want{250, 1}}, // KIP: below the epoch cache
		{"HRO+1 = LEO-1", base(0, 448), true, want{449, 2}, want{449, 2}},
		{"HRO+1 = LEO", base(0, 449), true, want{450, 2}, want{-1, -1}},
		{"HRO unknown, LLSO above LSO", base(0, -1), true, want{-1, -1}, want{-1, -1}},
		{"tiering off", base(0, 299), false, want{-1, -1}, want{-1, -1}},
	} {
		for _, p := range []Profile{KIP, Kafka43} {
			cfg := testConfig()
			cfg.RemoteStorageEnable = c.tiered
			cl := leaderOf(c.f, cfg, p)
			resp := answer(t, cl, Message{Kind: MsgListOffsets, From: 1, To: 0, ReqID: 1, LeaderEpoch: 2, Timestamp: ListEarliestPendingUpload})
			w := c.kip
			if p == Kafka43 {
				w = c.kafka
			}
			if resp.Offset != w.offset || resp.Epoch != w.epoch {
				t.Errorf("%s %s: -6 = %d epoch %d, want %d epoch %d", p.Name(), c.name, resp.Offset, resp.Epoch, w.offset, w.epoch)
			}
		}
	}
	// Kafka 4.3, HRO unknown with nothing tiered (LLSO == LSO): the log
	// start offset, unless the log is empty.
	nothingTiered := fixture{logStart: 200, hw: 300, hro: -1, epoch: 1, local: []segSpec{{200, 299, 1}, {300, 299, 1}}}
	cl := leaderOf(nothingTiered, testConfig(), Kafka43)
	if resp := answer(t, cl, Message{Kind: MsgListOffsets, From: 1, To: 0, LeaderEpoch: 1, Timestamp: ListEarliestPendingUpload}); resp.Offset != 200 {
		t.Errorf("kafka-4.3, HRO unknown, LLSO == LSO: -6 = %d, want 200", resp.Offset)
	}
	empty := fixture{logStart: 200, hw: 200, hro: -1, epoch: 1, local: []segSpec{{200, 199, 1}}}
	cl = leaderOf(empty, testConfig(), Kafka43)
	if resp := answer(t, cl, Message{Kind: MsgListOffsets, From: 1, To: 0, LeaderEpoch: 1, Timestamp: ListEarliestPendingUpload}); resp.Offset != -1 {
		t.Errorf("kafka-4.3, empty log: -6 = %d, want -1", resp.Offset)
	}
}

// TestUploadLaggedGoal: the goal counts a -6 answer below an inactive,
// committed segment not uploaded yet, and not one at the active segment or
// at HW.
func TestUploadLaggedGoal(t *testing.T) {
	for _, c := range []struct {
		hro, hw int64
		want    int64
	}{{299, 450, 1}, {399, 450, 0}, {299, 300, 0}, {299, 301, 1}} {
		f := tieredFixture()
		f.hro, f.hw = c.hro, c.hw
		if c.hro == 399 {
			f.remote = append(f.remote, segSpec{300, 399, 0})
		}
		cl := leaderOf(f, testConfig(), KIP)
		answer(t, cl, Message{Kind: MsgListOffsets, From: 1, To: 0, LeaderEpoch: 0, Timestamp: ListEarliestPendingUpload})
		if cl.Coverage[GoalUploadLagged] != c.want {
			t.Errorf("HRO %d HW %d: upload-lagged counted %d, want %d", c.hro, c.hw, cl.Coverage[GoalUploadLagged], c.want)
		}
	}
	// Kafka 4.3 answers the log start 0 when nothing is tiered: offset 0
	// is an answer (not unknown), and it lags [0..99] not uploaded.
	f := fixture{hw: 150, hro: -1, local: []segSpec{{0, 99, 0}, {100, 149, 0}}}
	cl := leaderOf(f, testConfig(), Kafka43)
	resp := answer(t, cl, Message{Kind: MsgListOffsets, From: 1, To: 0, LeaderEpoch: 0, Timestamp: ListEarliestPendingUpload})
	if resp.Offset != 0 || resp.Epoch != 0 || cl.Coverage[GoalUploadLagged] != 1 {
		t.Errorf("kafka-4.3 with nothing tiered from 0: -6 = %d epoch %d, lagged %d; want 0 epoch 0, 1", resp.Offset, resp.Epoch, cl.Coverage[GoalUploadLagged])
	}
}

// TestEpochEndAnswers: OffsetsForLeaderEpoch on the leader answers from its
// epoch cache.
func TestEpochEndAnswers(t *testing.T) {
	f := fixture{hw: 450, hro: -1, epoch: 4, local: []segSpec{{0, 99, 1}, {100, 199, 1}, {200, 299, 3}, {300, 399, 4}, {400, 449, 4}}}
	c := leaderOf(f, testConfig(), KIP)
	for _, w := range []struct {
		ask, epoch int32
		end        int64
	}{{1, 1, 200}, {2, 1, 200}, {3, 3, 300}, {4, 4, 450}, {5, -1, -1}} {
		resp := answer(t, c, Message{Kind: MsgEpochEnd, From: 1, To: 0, LeaderEpoch: 4, Epoch: w.ask})
		if resp.Epoch != w.epoch || resp.Offset != w.end {
			t.Errorf("epoch end of %d: (%d, %d), want (%d, %d)", w.ask, resp.Epoch, resp.Offset, w.epoch, w.end)
		}
	}
}

// epochFixture: epochs 0 [0,100), 1 [100,200), 2 [200,350); remote
// [0..99] e0 and [100..199] e1, local [100..349]; HRO 199, so EPUO is 200,
// in epoch 2, and start-1 = 199 lies in epoch 1.
func epochFixture() fixture {
	return fixture{hw: 350, hro: 199, epoch: 2,
		remote: []segSpec{{0, 99, 0}, {100, 199, 1}},
		local:  []segSpec{{100, 199, 1}, {200, 299, 2}, {300, 349, 2}}}
}

// auxFollower starts b1's auxiliary-state build for [logStart, start) in
// epoch epoch and returns the request it sent (if any).
func auxFollower(t *testing.T, f fixture, p Profile, start, logStart int64, epoch int32) (*Cluster, []Message, []RemoteOp) {
	t.Helper()
	c := f.cluster(testConfig(), p, 3, []int{0}, true)
	if err := c.addReplica(1); err != nil {
		t.Fatal(err)
	}
	answered(c, c.Brokers[1])
	sent(c)
	c.startAuxBuild(c.Brokers[1], Decision{Kind: DecideBuildAux, Offset: start, Epoch: epoch, LogStart: logStart, Path: PathEarliestPendingUpload})
	var reads []RemoteOp
	for _, e := range c.out.effects {
		if e.Kind == EffRemote {
			reads = append(reads, e.Remote)
		}
	}
	return c, sent(c), reads
}

// TestAuxBuildEpochOfStartMinusOne: the build finds the remote segment
// holding start-1 in start-1's epoch. With start in epoch 2 it asks where
// epoch 1 ended: an end after start-1 (at start) puts start-1 in epoch 1;
// an end at start-1 or before puts it in epoch 2, and so does an unknown
// answer. Only epoch 1 holds 199 remotely, so only the first finds it.
func TestAuxBuildEpochOfStartMinusOne(t *testing.T) {
	for _, c := range []struct {
		epoch int32
		end   int64
		found bool
	}{{1, 200, true}, {1, 250, true}, {1, 199, false}, {-1, -1, false}} {
		cl, out, _ := auxFollower(t, epochFixture(), KIP, 200, 0, 2)
		if len(out) != 1 || out[0].Kind != MsgEpochEnd || out[0].Epoch != 1 {
			t.Fatalf("start in epoch 2: sent %v, want OffsetsForLeaderEpoch(1)", out)
		}
		cl.deliver(Message{Kind: MsgEpochEndResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: 2, Epoch: c.epoch, Offset: c.end})
		b := cl.Brokers[1]
		evs := slices.Clone(cl.out.events)
		reads := remoteOps(cl)
		switch {
		case c.found && (len(reads) != 1 || reads[0].Kind != RemoteReadAux || cl.Remote.Segments[cl.Remote.Find(reads[0].Segment)].Base != 100):
			t.Errorf("epoch 1 ends at %d: remote ops %v, want a read of [100..199]", c.end, reads)
		case !c.found && (len(reads) != 0 || b.fetch.phase != phaseBackoff || backoffs(evs, 1, RetryAuxUnavailable) != 1):
			t.Errorf("epoch %d ends at %d: remote ops %v, phase %d, events %v; want a backoff (aux-unavailable)", c.epoch, c.end, reads, b.fetch.phase, evs)
		}
	}
	// Start in epoch 0: nothing earlier to ask about.
	_, out, _ := auxFollower(t, epochFixture(), KIP, 100, 0, 0)
	if len(out) != 0 {
		t.Errorf("start in epoch 0 sent %v", out)
	}
}

// remoteOps returns the remote operations in c's outbox and empties it.
func remoteOps(c *Cluster) []RemoteOp {
	checkEventFields(c)
	var out []RemoteOp
	for _, e := range c.out.effects {
		if e.Kind == EffRemote {
			out = append(out, e.Remote)
		}
	}
	c.Advance()
	return out
}

// snapshotRead completes an aux build's first read (the leader-epoch
// checkpoint, op) and returns the second, the producer snapshot's, which
// the build starts then: of the same segment, 512 + 16 bytes an entry, the
// build not ended yet (TierStateMachine reads the two indexes one after the
// other).
func snapshotRead(t *testing.T, c *Cluster, op RemoteOp) RemoteOp {
	t.Helper()
	c.remoteDone(op, false)
	var got []RemoteOp
	for _, e := range c.out.effects {
		if e.Kind == EffRemote && e.Remote.Kind == RemoteReadAux && e.Remote.ID > op.ID {
			got = append(got, e.Remote)
		}
	}
	seg := &c.Remote.Segments[c.Remote.Find(op.Segment)]
	if len(got) != 1 || got[0].Segment != op.Segment || op.Bytes != int64(512+16*len(seg.Checkpt)) ||
		got[0].Bytes != int64(512+16*len(seg.Snapshot)) || auxBuilt(c.out.events, op.Broker) != 0 {
		t.Fatalf("after the checkpoint read %+v: reads %+v, builds %d; want the snapshot's read of the segment", op, got, auxBuilt(c.out.events, op.Broker))
	}
	return got[0]
}

// TestAuxBuildSideEffects: after reading the segment ending at start-1, the
// follower's log restarts empty at start with LSO = the leader's log start,
// LLSO = HW = LEO = start; its epoch cache is the checkpoint uploaded with
// the segment ([{0 0} {1 100}]), trimmed to the log start (150); its producer state is the segment's
// snapshot (a copy: appending later never changes remote metadata).
func TestAuxBuildSideEffects(t *testing.T) {
	f := epochFixture()
	f.logStart = 150
	// The checkpoint was uploaded when the leader's cache still began at 0.
	c, out, _ := auxFollower(t, f, KIP, 200, 150, 2)
	for i := range c.Remote.Segments {
		if c.Remote.Segments[i].End == 199 {
			c.Remote.Segments[i].Checkpt = []EpochEntry{{0, 0}, {1, 100}}
		}
	}
	c.deliver(Message{Kind: MsgEpochEndResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: 2, Epoch: 1, Offset: 200})
	reads := remoteOps(c)
	if len(reads) != 1 {
		t.Fatalf("no aux read: %v", reads)
	}
	second := snapshotRead(t, c, reads[0])
	c.remoteDone(second, false)
	b := c.Brokers[1]
	built := eventsOf(c, EvAuxBuildEnd)
	l := &b.Log
	if l.LogStart != 150 || l.LocalLogStart != 200 || l.HighWatermark != 200 || l.LogEnd != 200 || !l.Empty() {
		t.Errorf("after the build: lso=%d llso=%d hw=%d leo=%d, want 150 200 200 200", l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd)
	}
	if want := []EpochEntry{{1, 150}}; !slices.Equal(l.Epochs, want) {
		t.Errorf("epochs %v, want %v (the checkpoint [{0 0} {1 100}] trimmed to 150)", l.Epochs, want)
	}
	if !slices.Equal(l.Producers, snapshotAt(199)) {
		t.Errorf("producers %v, want the snapshot %v", l.Producers, snapshotAt(199))
	}
	if len(built) != 1 || built[0].Cause != AuxBuilt || built[0].Path != PathEarliestPendingUpload || built[0].RemoteBytes != reads[0].Bytes+second.Bytes ||
		b.fetch.path != PathEarliestPendingUpload {
		t.Errorf("aux build ends %+v, path %s", built, b.fetch.path)
	}
	fetch := sent(c)
	if len(fetch) != 1 || fetch[0].Kind != MsgFetch || fetch[0].FetchOffset != 200 || fetch[0].LastFetchedEpoch != 1 {
		t.Fatalf("after the build: sent %v, want fetch(200) lastEpoch=1", fetch)
	}
	seg := &c.Remote.Segments[c.Remote.Find(reads[0].Segment)]
	before := slices.Clone(seg.Snapshot)
	l.Append(Batch{Base: 200, Count: 5, Bytes: 50, Epoch: 2, ProducerID: pid, Seq: 200, Origin: 201}, 1000)
	if !slices.Equal(seg.Snapshot, before) {
		t.Errorf("appending on the follower changed the remote snapshot: %v, was %v", seg.Snapshot, before)
	}
}

// TestAuxBuildTrivialAtLogStart: under KIP a build that starts at the
// leader's log start offset needs nothing remote; the follower starts there.
func TestAuxBuildTrivialAtLogStart(t *testing.T) {
	c, out, reads := auxFollower(t, epochFixture(), KIP, 100, 100, 1)
	l := &c.Brokers[1].Log
	if len(out) != 1 || out[0].Kind != MsgFetch || out[0].FetchOffset != 100 || len(reads) != 0 {
		t.Errorf("trivial build sent %v, remote %v; want fetch(100)", out, reads)
	}
	if l.LogStart != 100 || l.LocalLogStart != 100 || l.HighWatermark != 100 || l.LogEnd != 100 || c.Brokers[1].fetch.aux.active {
		t.Errorf("lso=%d llso=%d hw=%d leo=%d build under way %v", l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd, c.Brokers[1].fetch.aux.active)
	}
	// Kafka 4.3 looks for the segment holding 99 in epoch 0 (it asks for
	// epoch 0's end first): [0..99] exists, so it reads it.
	c, out, _ = auxFollower(t, epochFixture(), Kafka43, 100, 100, 1)
	if len(out) != 1 || out[0].Kind != MsgEpochEnd || out[0].Epoch != 0 {
		t.Fatalf("kafka-4.3 build at the log start sent %v", out)
	}
	c.deliver(Message{Kind: MsgEpochEndResp, From: 0, To: 1, ReqID: out[0].ReqID, LeaderEpoch: 2, Epoch: 0, Offset: 100})
	if reads := remoteOps(c); len(reads) != 1 || c.Remote.Segments[c.Remote.Find(reads[0].Segment)].End != 99 {
		t.Errorf("kafka-4.3 remote reads %v, want [0..99]", reads)
	}
}

// TestAuxBuildFailures: a failed remote read backs off (remote-error); a
// segment deleted during the read backs off (aux-unavailable); metadata not
// ready yet backs off (metadata-not-ready); a stale completion is ignored.
func TestAuxBuildFailures(t *testing.T) {
	read := func(t *testing.T) (*Cluster, RemoteOp) {
		c, _, reads := auxFollower(t, epochFixture(), KIP, 100, 0, 0)
		if len(reads) != 1 {
			t.Fatalf("no read: %v", reads)
		}
		return c, reads[0]
	}
	c, op := read(t)
	c.remoteDone(snapshotRead(t, c, op), false) // the first remote segment, [0..99]
	if b := c.Brokers[1]; auxBuilt(c.out.events, 1) != 1 || b.Log.LocalLogStart != 100 {
		t.Errorf("a read of the first remote segment: builds %d, llso %d", auxBuilt(c.out.events, 1), b.Log.LocalLogStart)
	}
	c, op = read(t)
	c.remoteDone(op, true)
	if b := c.Brokers[1]; b.fetch.phase != phaseBackoff || backoffs(c.out.events, 1, RetryRemoteError) != 1 || auxBuilt(c.out.events, 1) != 0 {
		t.Errorf("failed read: phase %d events %v", b.fetch.phase, c.out.events)
	}
	c, op = read(t)
	c.remoteOutage(int64(c.Now) + 1)
	c.Step(c.Now, &Input{Kind: EvRemoteDone, Op: op})
	if backoffs(c.out.events, 1, RetryRemoteError) != 1 {
		t.Errorf("read during an outage: events %v, want one remote-error backoff", c.out.events)
	}
	c, op = read(t)
	c.Remote.SetState(op.Segment, DeleteStarted)
	c.remoteDone(op, false) // gone before the first read is done
	gone := countEvents(c.out.events, EvAuxBuildEnd, 1, func(e *Event) bool { return e.Cause == AuxSegmentGone })
	if backoffs(c.out.events, 1, RetryAuxUnavailable) != 1 || gone != 1 || auxBuilt(c.out.events, 1) != 0 {
		t.Errorf("segment deleted during the read: events %v", c.out.events)
	}
	// The same between the two reads: a segment gone, a failed snapshot read.
	c, op = read(t)
	second := snapshotRead(t, c, op)
	c.Remote.SetState(op.Segment, DeleteStarted)
	c.remoteDone(second, false)
	if backoffs(c.out.events, 1, RetryAuxUnavailable) != 1 || auxBuilt(c.out.events, 1) != 0 {
		t.Errorf("segment deleted between the reads: events %v", c.out.events)
	}
	c, op = read(t)
	c.remoteDone(snapshotRead(t, c, op), true)
	if backoffs(c.out.events, 1, RetryRemoteError) != 1 || auxBuilt(c.out.events, 1) != 0 {
		t.Errorf("failed snapshot read: events %v", c.out.events)
	}
	c, op = read(t)
	op.ID++
	c.remoteDone(op, false)
	if b := c.Brokers[1]; b.fetch.phase != phaseAuxRead || len(c.out.events) != 0 {
		t.Errorf("a completion of another read changed the build: phase %d", b.fetch.phase)
	}
	f := epochFixture()
	cfg := testConfig()
	cfg.RemoteMetadataReady = 5 * 1_000_000
	cl := f.cluster(cfg, KIP, 3, []int{0}, true)
	if err := cl.addReplica(1); err != nil {
		t.Fatal(err)
	}
	sent(cl)
	answered(cl, cl.Brokers[1])
	cl.startAuxBuild(cl.Brokers[1], Decision{Kind: DecideBuildAux, Offset: 100, Epoch: 0, LogStart: 0})
	if n := backoffs(cl.out.events, 1, RetryMetadataNotReady); n != 1 || len(remoteOps(cl)) != 0 {
		t.Errorf("metadata not ready: %d backoffs (metadata-not-ready)", n)
	}
}

// TestDecideTruncate: a follower ahead of the leader (leader LEO 400 < its
// 450) truncates to the leader's end and fetches from there.
func TestDecideTruncate(t *testing.T) {
	c, _ := followerAwaiting(t, tieredFixture(), testConfig())
	b := c.Brokers[1]
	b.fetch.query = query(ErrOffsetOutOfRange, 450, map[int64]int64{ListLatest: 400})
	b.fetch.query.LastTiered = false
	answered(c, b)
	sent(c)
	c.decide(b)
	out := sent(c)
	if b.Log.LogEnd != 400 || len(out) != 1 || out[0].Kind != MsgFetch || out[0].FetchOffset != 400 {
		t.Errorf("after deciding to truncate to 400: leo %d, sent %v", b.Log.LogEnd, out)
	}
}

// TestLocalOnlyBytesFromSegmentBases: the local size not yet uploaded, as
// the expiration task's retention.bytes counts it, is Kafka's
// onlyLocalLogSegmentsSize: the segments whose base offset is at least
// HRO. A segment HRO falls inside is not counted (it was, when the model
// took the segments ending above HRO); one starting at HRO is.
func TestLocalOnlyBytesFromSegmentBases(t *testing.T) {
	for _, c := range []struct {
		hro  int64
		want []int64 // the bases of the segments counted
	}{
		{349, []int64{400}},
		{300, []int64{300, 400}},
		{299, []int64{300, 400}},
		{-1, []int64{200, 300, 400}},
		{449, nil},
	} {
		f := fixture{logStart: 100, hw: 450, hro: c.hro, epoch: 2,
			remote: []segSpec{{100, 199, 0}, {200, 299, 1}},
			local:  []segSpec{{200, 299, 1}, {300, 399, 2}, {400, 449, 2}}}
		cl := leaderOf(f, testConfig(), KIP)
		b := cl.Brokers[0]
		b.HighestRemote = c.hro
		var want int64
		for _, s := range b.Log.Segments {
			if slices.Contains(c.want, s.Base) {
				want += s.Bytes
			}
		}
		if got := cl.localOnlyBytes(b); got != want {
			t.Errorf("HRO %d: %d local-only bytes, want %d (segments %v)", c.hro, got, want, c.want)
		}
	}
}
