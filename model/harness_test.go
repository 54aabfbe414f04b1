package model

import (
	"fmt"
	"slices"
	"testing"

	"tierfetch/sim"
)

// The model's own tests drive a Cluster through its public inputs (Deliver,
// Fire, RemoteDone and the exogenous events) with a tiny scheduler written
// here: messages arrive after a fixed latency, timers fire when due, remote
// operations finish after a fixed time. No randomness: a test says which
// remote operations fail. After every step the harness checks the relations
// the model states beside its fields, so a test fails at the step that broke
// one, not at its end.

// hKind is what a harness event does.
type hKind uint8

const (
	hDeliver hKind = iota
	hTimer
	hRemote
)

type hEvent struct {
	at    sim.Time
	seq   uint64
	kind  hKind
	msg   Message
	timer TimerKey
	op    RemoteOp
}

// harness runs one cluster.
type harness struct {
	t      testing.TB
	c      *Cluster
	queue  []hEvent // sorted by (at, seq)
	seq    uint64
	steps  int
	netLat sim.Duration
	remLat sim.Duration
	// failRemote decides whether a remote operation fails (nil: none does).
	failRemote func(op RemoteOp) bool
	// cut isolates these brokers from the others (messages are dropped).
	cut []int
	// sent counts messages by sender and kind; events keeps every event.
	sent   [][6]int
	events []Event
	// unsafe skips the agreement check (after an unclean election).
	unsafe bool
}

// maxHarnessSteps bounds a test run.
const maxHarnessSteps = 200_000

// testConfig is a small, fast configuration: 10-byte records, 100-record
// segments, fetches of at most 50 records.
func testConfig() Config {
	return Config{
		SegmentBytes: 1000, RecordBytes: 10, ReplicaFetchMaxBytes: 500,
		ReplicaFetchBackoff: sim.Second, ReplicaFetchWaitMax: 500 * sim.Millisecond,
		ReplicaLagTimeMax: 30 * sim.Second, RLMTaskInterval: 5 * sim.Second,
		ReplicaSocketTimeout: 30 * sim.Second, RetentionCheckInterval: 5 * sim.Second,
		RemoteStorageEnable: true,
		LocalRetentionBytes: -2, LocalRetentionMs: -2, RetentionBytes: -1, RetentionMs: -1,
	}
}

func newHarness(t testing.TB, c *Cluster) *harness {
	h := &harness{t: t, c: c, netLat: sim.Millisecond, remLat: 10 * sim.Millisecond, sent: make([][6]int, len(c.Brokers))}
	h.drain()
	return h
}

func (h *harness) push(e hEvent) {
	h.seq++
	e.seq = h.seq
	i, _ := slices.BinarySearchFunc(h.queue, e, func(a, b hEvent) int {
		if a.at != b.at {
			return int(min(max(a.at-b.at, -1), 1))
		}
		return int(min(max(int64(a.seq)-int64(b.seq), -1), 1))
	})
	h.queue = slices.Insert(h.queue, i, e)
}

func (h *harness) cancel(k TimerKey) {
	h.queue = slices.DeleteFunc(h.queue, func(e hEvent) bool { return e.kind == hTimer && e.timer == k })
}

// drain takes what the step left ready: it schedules the effects and keeps
// the events, acknowledges them (Advance), then checks.
func (h *harness) drain() {
	rd := h.c.Ready()
	for _, e := range rd.Effects {
		switch e.Kind {
		case EffSend:
			h.sent[e.Msg.From][e.Msg.Kind]++
			h.push(hEvent{at: h.c.Now.Add(h.netLat), kind: hDeliver, msg: e.Msg})
		case EffSetTimer:
			h.cancel(e.Timer)
			h.push(hEvent{at: h.c.Now.Add(e.After), kind: hTimer, timer: e.Timer})
		case EffCancelTimer:
			h.cancel(e.Timer)
		case EffRemote:
			h.push(hEvent{at: h.c.Now.Add(h.remLat), kind: hRemote, op: e.Remote})
		}
	}
	for i := range rd.Events {
		// Every event sets only the fields its kind lists (a peer only
		// where there is one): a value outside them is missing from the
		// run's digest.
		if extra := rd.Events[i].FieldsOutsideKind(); len(extra) > 0 {
			h.t.Errorf("t=%v: %s sets %v outside its kind", h.c.Now, rd.Events[i].Kind, extra)
		}
	}
	h.events = append(h.events, rd.Events...)
	h.c.Advance()
	h.check()
}

func (h *harness) isolated(b int) bool { return slices.Contains(h.cut, b) }

// step runs the earliest event; false when none is pending.
func (h *harness) step() bool {
	if len(h.queue) == 0 {
		return false
	}
	e := h.queue[0]
	h.queue = h.queue[1:]
	h.steps++
	if h.steps > maxHarnessSteps {
		h.t.Fatalf("more than %d steps", maxHarnessSteps)
	}
	switch e.kind {
	case hDeliver:
		if h.isolated(e.msg.From) != h.isolated(e.msg.To) {
			h.c.Now = e.at // dropped by the cut: the cluster never sees it
			return true
		}
		h.c.Step(e.at, &Input{Kind: EvDeliver, Msg: e.msg})
	case hTimer:
		h.c.Step(e.at, &Input{Kind: EvTimer, Timer: e.timer})
	case hRemote:
		h.c.Step(e.at, &Input{Kind: EvRemoteDone, Op: e.op, Failed: h.failRemote != nil && h.failRemote(e.op)})
	}
	h.drain()
	return true
}

// runUntil runs every event due at or before t, then sets the clock to t.
func (h *harness) runUntil(t sim.Time) {
	for len(h.queue) > 0 && h.queue[0].at <= t {
		h.step()
	}
	h.c.Now = max(h.c.Now, t)
}

// runFor runs for d of virtual time.
func (h *harness) runFor(d sim.Duration) { h.runUntil(h.c.Now.Add(d)) }

// do runs an exogenous input at the current time and schedules its effects.
func (h *harness) do(f func(c *Cluster)) {
	f(h.c)
	h.drain()
}

// produce appends n records on the leader now.
func (h *harness) produce(n int64) {
	h.do(func(c *Cluster) {
		if !c.produce(n, 0) {
			h.t.Fatalf("produce %d: no leader", n)
		}
	})
}

// check asserts the relations the model keeps on every step: LSO <= LLSO <=
// HW <= LEO on every replica, the local log start inside the first segment,
// segments contiguous, the leader in the ISR and the ISR within the
// replicas, and every replica's records below its HW equal to the leader's
// where both hold them.
func (h *harness) check() {
	c := h.c
	h.t.Helper()
	for _, id := range c.Ctrl.Replicas {
		b := c.Brokers[id]
		l := &b.Log
		if !(l.LogStart <= l.LocalLogStart && l.LocalLogStart <= l.HighWatermark && l.HighWatermark <= l.LogEnd) {
			h.t.Fatalf("t=%v b%d: lso=%d llso=%d hw=%d leo=%d", c.Now, id, l.LogStart, l.LocalLogStart, l.HighWatermark, l.LogEnd)
		}
		if f := l.Segments[0]; l.LocalLogStart < f.Base || l.LocalLogStart > f.End+1 {
			h.t.Fatalf("t=%v b%d: llso=%d outside the first segment [%d..%d]", c.Now, id, l.LocalLogStart, f.Base, f.End)
		}
		for i := 1; i < len(l.Segments); i++ {
			if l.Segments[i].Base != l.Segments[i-1].End+1 {
				h.t.Fatalf("t=%v b%d: segment %d starts at %d after %d", c.Now, id, i, l.Segments[i].Base, l.Segments[i-1].End)
			}
		}
		if last := l.Segments[len(l.Segments)-1]; last.End+1 != l.LogEnd {
			h.t.Fatalf("t=%v b%d: active segment ends at %d, leo=%d", c.Now, id, last.End, l.LogEnd)
		}
	}
	if c.Ctrl.Leader >= 0 && !c.Ctrl.InISR(c.Ctrl.Leader) {
		h.t.Fatalf("t=%v leader b%d not in ISR %v", c.Now, c.Ctrl.Leader, c.Ctrl.ISR)
	}
	for _, r := range c.Ctrl.ISR {
		if !c.Ctrl.IsReplica(r) {
			h.t.Fatalf("t=%v ISR %v holds b%d, not a replica", c.Now, c.Ctrl.ISR, r)
		}
	}
	if h.unsafe {
		return
	}
	if l := c.Leader(); l != nil {
		for _, id := range c.Ctrl.Replicas {
			if b := c.Brokers[id]; b != l && b.InSyncEpoch == l.LeaderEpoch {
				if o, ok := firstDifference(&b.Log, &l.Log, b.Log.HighWatermark); ok {
					h.t.Fatalf("t=%v b%d offset %d differs from leader b%d", c.Now, id, o, l.ID)
				}
			}
		}
	}
}

// firstDifference compares the records of f and l that both hold locally
// below hw and returns the first offset where they differ.
func firstDifference(f, l *Log, hw int64) (int64, bool) {
	for o := max(f.LocalLogStart, l.LocalLogStart); o < min(hw, f.LogEnd, l.LogEnd); {
		a, okA := f.BatchAt(o)
		b, okB := l.BatchAt(o)
		if !okA || !okB || a.Origin != b.Origin || a.Epoch != b.Epoch || a.Seq-a.Base != b.Seq-b.Base {
			return o, true
		}
		o = min(a.Last(), b.Last()) + 1
	}
	return 0, false
}

// segSpec is one segment of a fixture: offsets [base, end] of leader epoch
// epoch (end = base-1: an empty active segment).
type segSpec struct {
	base, end int64
	epoch     int32
}

// fixture is a leader's log at time 0, in the shape of a scenario file's
// initial block: local segments (the last one active), remote segments
// (finished), the log start offset, HW and HRO. Local and remote segments
// that overlap must share boundaries: the same offsets are the same batch.
type fixture struct {
	logStart, hw, hro int64
	epoch             int32
	local, remote     []segSpec
}

// pid is the producer of fixture records; every record's sequence is its
// offset, so a producer snapshot at offset o is {pid, o, o}.
const pid = 7

func fixtureBatch(s segSpec, recordBytes int64) Batch {
	n := s.end - s.base + 1
	return Batch{Base: s.base, Count: n, Bytes: n * recordBytes, Epoch: s.epoch, ProducerID: pid, Seq: s.base,
		Origin: uint64(s.base) + 1}
}

// snapshotAt is the producer state after offset end of a fixture.
func snapshotAt(end int64) []ProducerEntry {
	return []ProducerEntry{{ProducerID: pid, LastSeq: end, LastOffset: end}}
}

// initial builds the model's Initial from the fixture.
func (f fixture) initial(recordBytes int64) Initial {
	var all []segSpec
	all = append(all, f.remote...)
	all = append(all, f.local...)
	slices.SortStableFunc(all, func(a, b segSpec) int { return int(a.base - b.base) })
	var epochs []EpochEntry
	for _, s := range all {
		if s.end < s.base || s.end < f.logStart {
			continue
		}
		if n := len(epochs); n == 0 || epochs[n-1].Epoch < s.epoch {
			epochs = append(epochs, EpochEntry{Epoch: s.epoch, StartOffset: max(s.base, f.logStart)})
		}
	}
	upTo := func(end int64) []EpochEntry {
		var out []EpochEntry
		for _, e := range epochs {
			if e.StartOffset <= end {
				out = append(out, e)
			}
		}
		return out
	}
	lg := Log{LogStart: f.logStart, LocalLogStart: f.local[0].base, HighWatermark: f.hw,
		LogEnd: f.local[len(f.local)-1].end + 1, Epochs: epochs}
	for i, s := range f.local {
		seg := Segment{Base: s.base, End: s.end}
		if s.end >= s.base {
			b := fixtureBatch(s, recordBytes)
			seg.Batches, seg.Bytes, seg.MaxTsMs = []Batch{b}, b.Bytes, b.TsMs
		}
		if i < len(f.local)-1 {
			seg.Snapshot = snapshotAt(s.end)
		}
		lg.Segments = append(lg.Segments, seg)
	}
	if last := f.local[len(f.local)-1]; last.end >= last.base {
		lg.Producers = snapshotAt(last.end)
	} else if len(f.local) > 1 {
		lg.Producers = snapshotAt(last.base - 1)
	}
	in := Initial{Log: lg, LeaderEpoch: f.epoch, HighestRemote: f.hro}
	for _, s := range f.remote {
		b := fixtureBatch(s, recordBytes)
		in.RemoteSegments = append(in.RemoteSegments, RemoteSegment{Base: s.base, End: s.end, Bytes: b.Bytes,
			Epochs: []EpochEntry{{Epoch: s.epoch, StartOffset: s.base}}, Batches: []Batch{b},
			Checkpt: upTo(s.end), Snapshot: snapshotAt(s.end)})
	}
	return in
}

// cluster builds n brokers with replicas holding the fixture; lastTiered is
// the flag on every broker.
func (f fixture) cluster(cfg Config, p Profile, n int, replicas []int, lastTiered bool) *Cluster {
	return NewCluster(cfg, p, n, replicas, lastTiered, f.initial(cfg.RecordBytes))
}

// tieredFixture: remote [0,99] [100,199] [200,299] (epoch 0), the leader
// holds [200..299] [300..399] and an active [400..449] locally, all
// committed, HRO 299: LSO 0, LLSO 200, EPUO 300, LEO 450.
func tieredFixture() fixture {
	return fixture{hw: 450, hro: 299,
		remote: []segSpec{{0, 99, 0}, {100, 199, 0}, {200, 299, 0}},
		local:  []segSpec{{200, 299, 0}, {300, 399, 0}, {400, 449, 0}}}
}

// String prints a harness's cluster state on one line per broker, for
// failure messages.
func (h *harness) String() string {
	s := fmt.Sprintf("t=%v leader=b%d epoch=%d isr=%v", h.c.Now, h.c.Ctrl.Leader, h.c.Ctrl.LeaderEpoch, h.c.Ctrl.ISR)
	for _, b := range h.c.Brokers {
		s += fmt.Sprintf("\n  b%d %s up=%v lso=%d llso=%d hw=%d leo=%d hro=%d", b.ID, b.Role, b.Up, b.Log.LogStart,
			b.Log.LocalLogStart, b.Log.HighWatermark, b.Log.LogEnd, b.HighestRemote)
	}
	return s
}

// countEvents counts the events of kind k about broker b (-1: any) in evs
// that pass ok (nil: all).
func countEvents(evs []Event, k EventKind, b int, ok func(e *Event) bool) int {
	n := 0
	for i := range evs {
		if e := &evs[i]; e.Kind == k && (b < 0 || e.Broker == b) && (ok == nil || ok(e)) {
			n++
		}
	}
	return n
}

// backoffs counts broker b's backoffs in evs for reason why.
func backoffs(evs []Event, b int, why RetryReason) int {
	return countEvents(evs, EvBackoff, b, func(e *Event) bool { return e.Retry == why })
}

// lastBackoff returns why broker b last backed off in evs, false if it did
// not.
func lastBackoff(evs []Event, b int) (RetryReason, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Kind == EvBackoff && evs[i].Broker == b {
			return evs[i].Retry, true
		}
	}
	return 0, false
}

// auxBuilt counts broker b's finished aux-state builds in evs.
func auxBuilt(evs []Event, b int) int {
	return countEvents(evs, EvAuxBuildEnd, b, func(e *Event) bool { return e.Cause == AuxBuilt })
}

// boot is what an added replica's events show of its bootstrap: whether
// it joined the ISR, where it started (its first records, else its local
// log start when it joined), its aux-state builds and the remote bytes they
// read, its backoffs before its first records (by reason), and the bytes
// it fetched.
type boot struct {
	joined      bool
	start       int64
	started     bool
	builds      int
	auxBytes    int64
	retries     int
	byReason    [NumRetryReasons]int
	fetched     int64
	listOffsets int
}

// bootOf folds broker b's events in evs into its boot.
func bootOf(evs []Event, b int) boot {
	var s boot
	booted := false
	for i := range evs {
		e := &evs[i]
		switch {
		case e.Kind == EvISRJoin && e.Broker == b && !s.joined:
			s.joined = true
			if !s.started {
				s.start, s.started = e.Log.LocalLogStart, true
			}
		case e.Kind == EvBootstrapped && e.Broker == b:
			booted = true
			if !s.started {
				s.start, s.started = e.Offset, true
			}
		case e.Kind == EvAuxBuildEnd && e.Broker == b && e.Cause == AuxBuilt:
			s.builds++
			s.auxBytes += e.RemoteBytes
		case e.Kind == EvBackoff && e.Broker == b && !booted:
			s.retries++
			s.byReason[e.Retry]++
		case e.Kind == EvFetched && e.Broker == b:
			s.fetched += e.Bytes
		case e.Kind == EvSend && e.Msg.From == b && e.Msg.Kind == MsgListOffsets:
			s.listOffsets++
		}
	}
	return s
}

// answered puts b's fetcher where it is once it has taken the answer to the
// request it waits for (handleResponse): its request timeout cancelled, so
// a test can call what follows an answer (decide, startAuxBuild) directly.
func answered(c *Cluster, b *Broker) {
	if b.fetch.armed == armedRequest {
		c.cancelTimer(b, TimerRequest, 0)
		b.fetch.armed = armedNone
	}
}
