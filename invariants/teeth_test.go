package invariants

import (
	"slices"
	"strings"
	"testing"

	"tierfetch/model"
	"tierfetch/sim"
)

// Each invariant is broken on its own, on both sides of its boundary, and
// every other invariant must stay quiet. Check stops at the first broken
// invariant, so these tests run every part of it and collect them all.

// all runs every check of Check, without stopping at the first violation,
// and returns the distinct invariants broken, in check order.
func all(k *Checker, c *model.Cluster) []string {
	var out []string
	add := func(v *Violation) {
		if v != nil && !slices.Contains(out, v.Invariant) {
			out = append(out, v.Invariant)
		}
	}
	k.now = c.Now // as Check(c, c.Now)
	k.markReplicas(c)
	add(k.checkOffsets(c))
	add(k.checkISR(c))
	if l := c.Leader(); l != nil {
		add(k.checkLeader(c, l))
	}
	add(k.checkRemote(c))
	for _, b := range c.Brokers {
		add(k.checkReplica(c, b))
	}
	return out
}

// teethCase breaks one thing after a clean first check.
type teethCase struct {
	name string
	// setup runs before the checker is created; step before every check.
	setup   func(c *model.Cluster)
	breakIt func(c *model.Cluster)
	want    string // "" for a change that must stay clean
	// anyKind: the violation may carry a known kind; otherwise it must not.
	anyKind bool
}

func runTeeth(t *testing.T, cases []teethCase) {
	t.Helper()
	for _, tc := range cases {
		c := healthy()
		if tc.setup != nil {
			tc.setup(c)
		}
		k := New(c)
		if got := all(k, c); len(got) != 0 {
			t.Fatalf("%s: before breaking: %v", tc.name, got)
		}
		tc.breakIt(c)
		k2 := cloneChecker(k)
		got := all(k, c)
		var want []string
		if tc.want != "" {
			want = []string{tc.want}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: broke %v, want exactly %v", tc.name, got, want)
			continue
		}
		v := k2.Check(c, c.Now)
		switch {
		case tc.want == "" && v != nil:
			t.Errorf("%s: Check says %v", tc.name, v)
		case tc.want != "" && (v == nil || v.Invariant != tc.want):
			t.Errorf("%s: Check says %v, want %s", tc.name, v, tc.want)
		case tc.want != "" && !tc.anyKind && v.Kind != "":
			t.Errorf("%s: a plain break labelled known kind %q: %v", tc.name, v.Kind, v)
		case v != nil && v.Message == "":
			t.Errorf("%s: a violation without a message", tc.name)
		}
	}
}

// cloneChecker copies a checker's state so Check can run on the same step
// as all.
func cloneChecker(k *Checker) *Checker {
	k2 := *k
	k2.history = slices.Clone(k.history)
	k2.cursors = slices.Clone(k.cursors)
	k2.cold = slices.Clone(k.cold)
	k2.uploaded = slices.Clone(k.uploaded)
	k2.checkedSeg = slices.Clone(k.checkedSeg)
	return &k2
}

// leaderBatch is the batch holding o on b0 (the leader of healthy()).
func leaderBatch(c *model.Cluster, o int64) model.Batch {
	b, ok := c.Brokers[0].Log.BatchAt(o)
	if !ok {
		panic("no batch")
	}
	return b
}

func TestOffsetOrderAlone(t *testing.T) {
	runTeeth(t, []teethCase{
		{name: "hw one above leo", breakIt: func(c *model.Cluster) { c.Brokers[1].Log.HighWatermark = 301 }, want: OffsetOrder},
		{name: "lso one above llso", breakIt: func(c *model.Cluster) { c.Brokers[1].Log.LogStart = 51 }, want: OffsetOrder},
		{name: "llso one above hw", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.HighWatermark, l.LocalLogStart = 99, 100
		}, want: OffsetOrder},
		{name: "all equal", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.TruncateFullyAndStartAt(300, 300)
		}},
		{name: "llso one below its first segment", breakIt: func(c *model.Cluster) { c.Brokers[1].Log.LocalLogStart = 49 }, want: OffsetOrder},
		{name: "llso just past an empty first segment", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.Segments[0].Batches, l.Segments[0].End = nil, 49 // [50..49]: empty
			l.Segments = l.Segments[:1]
			l.LocalLogStart, l.HighWatermark, l.LogEnd, l.Epochs = 50, 50, 50, l.Epochs[:1]
		}},
		{name: "llso two past the first segment", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.Segments[0].End = 98
			l.LocalLogStart = 100
		}, want: OffsetOrder},
		{name: "not a replica", breakIt: func(c *model.Cluster) { c.Brokers[2].Log.HighWatermark = 5 }},
	})
}

func TestISRMembershipAlone(t *testing.T) {
	runTeeth(t, []teethCase{
		{name: "a non-replica in the ISR", breakIt: func(c *model.Cluster) { c.Ctrl.ISR = []int{0, 1, 2} }, want: ISRMembership},
		{name: "leader b0 out of the ISR", breakIt: func(c *model.Cluster) { c.Ctrl.ISR = []int{1} }, want: ISRMembership},
		{name: "offline partition, ISR kept", breakIt: func(c *model.Cluster) { c.Ctrl.Leader = -1 }},
		{name: "leader b1 out of the ISR", setup: func(c *model.Cluster) {
			if err := electLeader(c, 1); err != nil {
				panic(err)
			}
		}, breakIt: func(c *model.Cluster) { c.Ctrl.ISR = []int{0} }, want: ISRMembership},
	})
}

func TestNoCommittedLossAlone(t *testing.T) {
	runTeeth(t, []teethCase{
		{name: "leader ends below the committed offsets", breakIt: func(c *model.Cluster) { c.Brokers[0].Log.TruncateTo(299) }, want: NoCommittedLoss},
		{name: "leader ends at the committed end", breakIt: func(c *model.Cluster) {
			c.Brokers[0].Log.TruncateTo(300)
		}},
		{name: "new leader holds other records above its HW", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.TruncateTo(250)
			l.Append(model.Batch{Base: 250, Count: 50, Bytes: 50, Epoch: 1, Origin: 77}, 1000)
			if err := electLeader(c, 1); err != nil {
				panic(err)
			}
		}, want: NoCommittedLoss},
		{name: "new leader holds them", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Log.HighWatermark = 250
			if err := electLeader(c, 1); err != nil {
				panic(err)
			}
		}},
	})
}

func TestRemoteCommittedAlone(t *testing.T) {
	upload := func(c *model.Cluster, base, end int64) uint64 {
		var batches []model.Batch
		for o := base; o <= end; {
			b := leaderBatch(c, o)
			b = b.Slice(o, min(b.Last(), end)+1)
			batches = append(batches, b)
			o = b.Last() + 1
		}
		return c.Remote.Start(model.RemoteSegment{Base: base, End: end, Bytes: end - base + 1, Batches: batches,
			Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: base}}})
	}
	runTeeth(t, []teethCase{
		{name: "upload reaching HW", breakIt: func(c *model.Cluster) {
			c.Brokers[0].Log.HighWatermark, c.Brokers[1].Log.HighWatermark = 299, 299
			upload(c, 200, 299)
		}, want: RemoteCommitted},
		{name: "upload ending one below HW, then finished", breakIt: func(c *model.Cluster) {
			c.Remote.SetState(upload(c, 200, 299), model.CopyFinished)
		}},
		{name: "finished above the committed offsets while offline", breakIt: func(c *model.Cluster) {
			c.Ctrl.Leader = -1
			c.Brokers[0].Log.Append(model.Batch{Base: 300, Count: 50, Bytes: 50, Epoch: 1, Origin: 5}, 1000)
			c.Remote.SetState(upload(c, 300, 349), model.CopyFinished)
		}, want: RemoteCommitted},
		{name: "finished one past the committed offsets while offline", breakIt: func(c *model.Cluster) {
			c.Ctrl.Leader = -1
			c.Brokers[0].Log.Append(model.Batch{Base: 300, Count: 50, Bytes: 50, Epoch: 1, Origin: 5}, 1000)
			c.Remote.SetState(upload(c, 250, 300), model.CopyFinished)
		}, want: RemoteCommitted},
		{name: "finished at the committed end while offline", breakIt: func(c *model.Cluster) {
			c.Ctrl.Leader = -1
			c.Remote.SetState(upload(c, 250, 299), model.CopyFinished)
		}},
	})
}

// TestRemoteCommittedOnlyOnce: a segment checked when it was started is not
// checked again against a later, lower HW.
func TestRemoteCommittedOnlyOnce(t *testing.T) {
	c := healthy()
	k := New(c)
	id := c.Remote.Start(model.RemoteSegment{Base: 100, End: 199, Bytes: 100, Batches: []model.Batch{leaderBatch(c, 100)},
		Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 100}}})
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Remote.SetState(id, model.CopyFinished)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	if !k.wasUploaded(150) || k.wasUploaded(200) {
		t.Errorf("uploaded %v, want [0,199]", k.uploaded)
	}
}

func TestRemoteAgreementAlone(t *testing.T) {
	seg := func(c *model.Cluster, last model.Batch) {
		first := leaderBatch(c, 200).Slice(200, 249)
		id := c.Remote.Start(model.RemoteSegment{Base: 200, End: 249, Bytes: 50, Batches: []model.Batch{first, last},
			Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 200}}})
		c.Remote.SetState(id, model.CopyFinished)
	}
	runTeeth(t, []teethCase{
		{name: "last record differs", breakIt: func(c *model.Cluster) {
			seg(c, model.Batch{Base: 249, Count: 1, Bytes: 1, Epoch: 1, Origin: 99})
		}, want: RemoteAgreement},
		{name: "last record agrees", breakIt: func(c *model.Cluster) {
			seg(c, leaderBatch(c, 249).Slice(249, 250))
		}},
		{name: "a record past the segment's end differs", breakIt: func(c *model.Cluster) {
			b := leaderBatch(c, 200)
			b.Base, b.Count, b.Seq = 249, 2, b.Seq+49 // [249..250], 250 outside the segment
			seg(c, b)
		}},
		{name: "epoch differs", breakIt: func(c *model.Cluster) {
			b := leaderBatch(c, 249).Slice(249, 250)
			b.Epoch = 0
			seg(c, b)
		}, want: RemoteAgreement},
		{name: "producer differs", breakIt: func(c *model.Cluster) {
			b := leaderBatch(c, 249).Slice(249, 250)
			b.ProducerID = 3
			seg(c, b)
		}, want: RemoteAgreement},
		{name: "a second copy below the local log differs at 0", breakIt: func(c *model.Cluster) {
			b := c.Remote.Segments[0].Batches[0] // [0..49]
			b.Origin = 99
			id := c.Remote.Start(model.RemoteSegment{Base: 0, End: 49, Bytes: 50, Batches: []model.Batch{b},
				Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}}})
			c.Remote.SetState(id, model.CopyFinished)
		}, want: RemoteAgreement},
		{name: "remote ending at the local log start, a second copy differs at 0", setup: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 49, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}}})
			c.Brokers[0].HighestRemote = 49
		}, breakIt: func(c *model.Cluster) {
			b := c.Remote.Segments[0].Batches[0]
			b.Origin = 99
			id := c.Remote.Start(model.RemoteSegment{Base: 0, End: 49, Bytes: 50, Batches: []model.Batch{b},
				Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}}})
			c.Remote.SetState(id, model.CopyFinished)
		}, want: RemoteAgreement},
		{name: "sequence differs", breakIt: func(c *model.Cluster) {
			b := leaderBatch(c, 249).Slice(249, 250)
			b.Seq++
			seg(c, b)
		}, want: RemoteAgreement},
	})
}

// TestRemoteAgreementFromTheLogStart: records a remote segment holds below
// the highest log start offset are not compared with the history. Kafka
// lets a follower keep divergent records below its leader's log start
// (LeaderEpochFileCache.endOffsetFor answers an epoch older than the
// leader's first with the log start, LeaderEpochFileCache.java:301-314 in
// the 2024 snapshot 1eb7644349cb) and upload them once it leads (the copy
// task uploads whole segments, seed 8261): nobody can read them. At the log
// start and above they are compared.
func TestRemoteAgreementFromTheLogStart(t *testing.T) {
	seg := func(c *model.Cluster, differAt int64) {
		b := model.Batch{Base: 200, Count: 100, Bytes: 100, Epoch: 1, Origin: 4}.Slice(200, 250) // healthy()'s
		lo, mid, hi := b.Slice(200, differAt), b.Slice(differAt, differAt+1), b.Slice(differAt+1, 250)
		mid.Origin = 99
		id := c.Remote.Start(model.RemoteSegment{Base: 200, End: 249, Bytes: 50, Batches: []model.Batch{lo, mid, hi},
			Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 200}}})
		c.Remote.SetState(id, model.CopyFinished)
	}
	for _, tc := range []struct {
		logStart, differAt int64
		want               string
	}{
		{220, 210, ""},
		{220, 220, RemoteAgreement},
		{220, 230, RemoteAgreement},
		{0, 210, RemoteAgreement},
	} {
		c := healthy()
		k := New(c)
		if got := all(k, c); len(got) != 0 {
			t.Fatalf("healthy: %v", got)
		}
		if tc.logStart > 0 {
			// The log start rises after the checker saw the history from 0.
			if err := deleteRecords(c, tc.logStart); err != nil {
				t.Fatal(err)
			}
			if got := all(k, c); len(got) != 0 {
				t.Fatalf("log start %d: %v", tc.logStart, got)
			}
		}
		seg(c, tc.differAt)
		var want []string
		if tc.want != "" {
			want = []string{tc.want}
		}
		if got := all(k, c); !slices.Equal(got, want) {
			t.Errorf("log start %d, a record at %d differs: broke %v, want %v", tc.logStart, tc.differAt, got, want)
		}
	}
}

// withRemote replaces the remote segment [0,99] of healthy() by segments
// covering [0, end] in the given epochs.
func withRemote(c *model.Cluster, specs ...model.RemoteSegment) {
	old := c.Remote.Segments[0]
	c.Remote.Segments = nil
	for _, s := range specs {
		var batches []model.Batch
		for _, b := range old.Batches {
			if b.Base <= s.End && b.Last() >= s.Base {
				batches = append(batches, b.Slice(max(b.Base, s.Base), min(b.Last(), s.End)+1))
			}
		}
		s.Batches = batches
		c.Remote.SetState(c.Remote.Start(s), model.CopyFinished)
	}
}

func TestNoHoleAlone(t *testing.T) {
	e0 := []model.EpochEntry{{Epoch: 0, StartOffset: 0}}
	runTeeth(t, []teethCase{
		{name: "remote copy being deleted below the log start", breakIt: func(c *model.Cluster) {
			c.Remote.SetState(c.Remote.Segments[0].ID, model.DeleteStarted)
		}, want: NoHole},
		{name: "remote ends one before the local log", setup: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 49, Epochs: e0})
			c.Brokers[0].HighestRemote = 49
		}, breakIt: func(c *model.Cluster) {}},
		{name: "remote ends two before the local log", setup: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 49, Epochs: e0})
			c.Brokers[0].HighestRemote = 49
		}, breakIt: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 48, Epochs: e0})
			c.Brokers[0].HighestRemote = 48 // HRO below the hole: retention did not trust it
		}, want: NoHole},
		{name: "a remote segment of another epoch", breakIt: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 99, Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 0}}})
		}, want: NoHole},
		{name: "two remote segments meeting", breakIt: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 29, Epochs: e0}, model.RemoteSegment{Base: 30, End: 99, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 30}}})
		}},
		{name: "two remote segments with a gap", breakIt: func(c *model.Cluster) {
			withRemote(c, model.RemoteSegment{Base: 0, End: 29, Epochs: e0}, model.RemoteSegment{Base: 31, End: 99, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 31}}})
			c.Brokers[0].HighestRemote = 29
		}, want: NoHole},
		{name: "an uploaded segment not finished", breakIt: func(c *model.Cluster) {
			withRemote(c)
			c.Remote.Start(model.RemoteSegment{Base: 0, End: 99, Epochs: e0})
			c.Brokers[0].HighestRemote = -1
		}, want: NoHole},
		{name: "tiering off: the same gap is committed loss", breakIt: func(c *model.Cluster) {
			c.Cfg.RemoteStorageEnable = false
			withRemote(c, model.RemoteSegment{Base: 0, End: 48, Epochs: e0})
		}, want: NoCommittedLoss, anyKind: true},
	})
}

// TestNoHoleAcrossAnEpochChange: remote coverage follows the leader's epochs
// inside a segment: a segment holding epochs 0 and 1 covers both ranges
// only where the leader's cache agrees.
func TestNoHoleAcrossAnEpochChange(t *testing.T) {
	setEpochs := func(c *model.Cluster, e1 int64) {
		for _, id := range []int{0, 1} {
			c.Brokers[id].Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: e1}}
		}
	}
	runTeeth(t, []teethCase{
		{name: "segment [0..99] holds epochs 0 and 1 from 30, so does the leader", breakIt: func(c *model.Cluster) {
			setEpochs(c, 30)
			withRemote(c, model.RemoteSegment{Base: 0, End: 99, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 30}}})
		}},
		{name: "the leader's epoch 1 starts at 40: [30,40) is epoch 1 remotely", breakIt: func(c *model.Cluster) {
			setEpochs(c, 40)
			withRemote(c, model.RemoteSegment{Base: 0, End: 99, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 30}}})
		}, want: NoHole},
		{name: "epoch 1 starts at the last offset of a segment", breakIt: func(c *model.Cluster) {
			setEpochs(c, 49)
			withRemote(c, model.RemoteSegment{Base: 0, End: 49, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 49}}},
				model.RemoteSegment{Base: 50, End: 99, Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 50}}})
		}},
		{name: "the leader's epoch 1 starts at 20: [20,30) is epoch 0 remotely", breakIt: func(c *model.Cluster) {
			setEpochs(c, 20)
			withRemote(c, model.RemoteSegment{Base: 0, End: 99, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 30}}})
		}, want: NoHole},
	})
}

// TestNoHoleOnlyWhenSomethingChanged: the hole check runs again when the
// leader, its offsets, the remote metadata or tiering change.
func TestNoHoleOnlyWhenSomethingChanged(t *testing.T) {
	c := healthy()
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Remote.Segments[0].State = model.DeleteStarted // behind the metadata's back: no new version
	if v := k.Check(c, c.Now); v != nil {
		t.Fatalf("unchanged key, yet checked again: %v", v)
	}
	c.Remote.Version++
	if v := k.Check(c, c.Now); v == nil || v.Invariant != NoHole {
		t.Fatalf("after the metadata changed: %v, want %s", v, NoHole)
	}
}

func TestCommittedOffsetHeldNowhere(t *testing.T) {
	c := healthy()
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	// HW rises over [300,320) while the leader's local log starts at 320:
	// those records were committed nowhere the checker can read.
	l := &c.Brokers[0].Log
	l.Append(model.Batch{Base: 300, Count: 50, Bytes: 50, Epoch: 1, Origin: 5}, 1000)
	l.HighWatermark = 350
	l.LocalLogStart = 320
	l.Segments = l.Segments[len(l.Segments)-1:]
	l.Segments[0].Base = 300
	got := all(k, c)
	if !slices.Equal(got, []string{NoHole}) {
		t.Errorf("got %v, want [%s]", got, NoHole)
	}
}

// staleLeader: b0 deleted [0,100) (LSO 100) and remote storage dropped it;
// then b1, whose log start offset still says 0, is elected.
func staleLeader(c *model.Cluster) {
	if err := deleteRecords(c, 100); err != nil {
		panic(err)
	}
}

// TestCheckTakesTheCallersTime: the stale-log-start clock runs on the time
// Check is given, not on the cluster's clock, which stops at its last
// input: a step the environment takes alone (a partition ending, a message
// dropped) past the grace finds the violation at that step.
func TestCheckTakesTheCallersTime(t *testing.T) {
	cl := healthy()
	k := New(cl)
	staleLeader(cl)
	if v := k.Check(cl, cl.Now); v != nil {
		t.Fatalf("after deleteRecords: %v", v)
	}
	cl.Remote.Remove(cl.Remote.Segments[0].ID)
	if v := k.Check(cl, cl.Now); v != nil {
		t.Fatalf("after the remote deletion: %v", v)
	}
	if err := electLeader(cl, 1); err != nil {
		t.Fatal(err)
	}
	if v := k.Check(cl, cl.Now); v != nil {
		t.Fatalf("b1 elected with log start 0: %v (the copy task has its grace)", v)
	}
	grace := cl.Cfg.RemoteMetadataReady + cl.Cfg.RLMTaskInterval + sim.Second
	if v := k.Check(cl, cl.Now.Add(grace)); v != nil {
		t.Errorf("at the grace's end: %v", v)
	}
	if v := k.Check(cl, cl.Now.Add(grace+1)); v == nil || v.Invariant != StaleLogStart {
		t.Errorf("1 us past the grace, the cluster's clock where it was: %v, want %s", v, StaleLogStart)
	}
}

func TestStaleLogStartAlone(t *testing.T) {
	grace := func(c *model.Cluster) sim.Duration {
		return c.Cfg.RemoteMetadataReady + c.Cfg.RLMTaskInterval + sim.Second
	}
	for _, c := range []struct {
		after sim.Duration
		want  []string
	}{{0, nil}, {-1, nil}, {1, []string{StaleLogStart}}} {
		cl := healthy()
		k := New(cl)
		staleLeader(cl)
		if got := all(k, cl); len(got) != 0 {
			t.Fatalf("after deleteRecords: %v", got)
		}
		cl.Remote.Remove(cl.Remote.Segments[0].ID)
		if got := all(k, cl); len(got) != 0 {
			t.Fatalf("after the remote deletion: %v", got)
		}
		if err := electLeader(cl, 1); err != nil {
			t.Fatal(err)
		}
		if got := all(k, cl); len(got) != 0 {
			t.Fatalf("b1 elected with log start 0: %v (the copy task has its grace)", got)
		}
		cl.Now = cl.Now.Add(grace(cl) + c.after)
		if got := all(k, cl); !slices.Equal(got, c.want) {
			t.Errorf("grace%+d us: %v, want %v", c.after, got, c.want)
		}
		// Raising the log start offset ends it.
		cl.Brokers[1].Log.IncrementLogStart(100)
		if got := all(k, cl); len(got) != 0 {
			t.Errorf("after the log start offset was raised: %v", got)
		}
	}
}

func TestReplicaAgreementAlone(t *testing.T) {
	diverge := func(c *model.Cluster, at, hw int64) {
		for _, id := range []int{0, 1} {
			origin := uint64(5)
			if id == 1 {
				origin = 77
			}
			l := &c.Brokers[id].Log
			l.Append(model.Batch{Base: 300, Count: at - 300, Bytes: at - 300, Epoch: 1, Origin: 5}, 1000)
			l.Append(model.Batch{Base: at, Count: 10, Bytes: 10, Epoch: 1, Origin: origin}, 1000)
		}
		c.Brokers[0].Log.HighWatermark = at + 10
		c.Brokers[1].Log.HighWatermark = hw
	}
	runTeeth(t, []teethCase{
		{name: "differs below the follower's HW", breakIt: func(c *model.Cluster) { diverge(c, 305, 306) }, want: ReplicaAgreement},
		{name: "differs at the follower's HW", breakIt: func(c *model.Cluster) { diverge(c, 305, 305) }},
		{name: "rewritten below an HW already checked", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.TruncateTo(250)
			l.Append(model.Batch{Base: 250, Count: 50, Bytes: 50, Epoch: 1, Origin: 77}, 1000)
			l.HighWatermark = 300
		}, want: ReplicaAgreement},
		{name: "rewritten in place without a new generation", breakIt: func(c *model.Cluster) {
			// The model never does this: Gen rises with every rewrite.
			// Without it the checker keeps its cursor: nothing new to see.
			l := &c.Brokers[1].Log
			gen := l.Gen
			l.TruncateTo(250)
			l.Append(model.Batch{Base: 250, Count: 50, Bytes: 50, Epoch: 1, Origin: 77}, 1000)
			l.HighWatermark, l.Gen = 300, gen
		}},
	})
}

func TestEpochLineageAlone(t *testing.T) {
	runTeeth(t, []teethCase{
		{name: "epoch 1 starts later on the follower", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 150}}
		}, want: EpochLineage},
		{name: "epoch 1 starts earlier on the follower", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 60}}
		}, want: EpochLineage},
		{name: "a new epoch at the follower's HW", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Log.Epochs = append(c.Brokers[1].Log.Epochs, model.EpochEntry{Epoch: 2, StartOffset: 300})
		}},
		{name: "a new epoch one below the follower's HW", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Log.Epochs = append(c.Brokers[1].Log.Epochs, model.EpochEntry{Epoch: 2, StartOffset: 299})
		}, want: EpochLineage},
		{name: "the leader's first epoch differs at the log start", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Log.Epochs = []model.EpochEntry{{Epoch: 3, StartOffset: 0}, {Epoch: 1, StartOffset: 100}}
		}, want: EpochLineage},
		{name: "below the follower's log start", breakIt: func(c *model.Cluster) {
			l := &c.Brokers[1].Log
			l.LogStart, l.LocalLogStart = 100, 100
			l.Segments = l.Segments[1:]
			l.Epochs = []model.EpochEntry{{Epoch: 1, StartOffset: 100}}
		}},
		{name: "a crashed follower is not compared", breakIt: func(c *model.Cluster) {
			c.Brokers[1].Up = false
			c.Brokers[1].Log.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 150}}
		}},
	})
}

func TestHighestRemoteAlone(t *testing.T) {
	runTeeth(t, []teethCase{
		{name: "HRO at the uploaded end", breakIt: func(c *model.Cluster) { c.Brokers[1].HighestRemote = 99 }},
		{name: "HRO one past the uploaded end", breakIt: func(c *model.Cluster) { c.Brokers[1].HighestRemote = 100 }, want: HighestRemote},
		{name: "HRO below data deleted on purpose", breakIt: func(c *model.Cluster) {
			if err := deleteRecords(c, 150); err != nil {
				panic(err)
			}
			c.Brokers[1].HighestRemote = 149
		}},
		{name: "HRO at the log start of deleted data", breakIt: func(c *model.Cluster) {
			if err := deleteRecords(c, 150); err != nil {
				panic(err)
			}
			c.Brokers[1].HighestRemote = 150
		}, want: HighestRemote},
		{name: "HRO between two uploads", breakIt: func(c *model.Cluster) {
			id := c.Remote.Start(model.RemoteSegment{Base: 150, End: 199, Batches: []model.Batch{leaderBatch(c, 150).Slice(150, 200)},
				Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 150}}})
			c.Remote.SetState(id, model.CopyFinished)
			c.Brokers[1].HighestRemote = 120
		}, want: HighestRemote},
		{name: "HRO in an adjacent upload", breakIt: func(c *model.Cluster) {
			id := c.Remote.Start(model.RemoteSegment{Base: 100, End: 199, Batches: []model.Batch{leaderBatch(c, 100)},
				Epochs: []model.EpochEntry{{Epoch: 1, StartOffset: 100}}})
			c.Remote.SetState(id, model.CopyFinished)
			c.Brokers[1].HighestRemote = 199
		}},
	})
}

// TestHighestRemoteCheckedOnChange: an HRO is checked when it changes, on
// every replica, even one the checker saw before.
func TestHighestRemoteCheckedOnChange(t *testing.T) {
	c := healthy()
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Brokers[0].HighestRemote = 250
	if v := k.Check(c, c.Now); v == nil || v.Invariant != HighestRemote || !strings.Contains(v.Message, "b0") {
		t.Fatalf("leader HRO 250: %v", v)
	}
	c.Brokers[0].HighestRemote = 99
	if v := k.Check(c, c.Now); v != nil {
		t.Fatalf("HRO back to 99: %v", v)
	}
}

// TestUploadedSpans: uploaded ranges merge when they touch and stay apart
// when they do not.
func TestUploadedSpans(t *testing.T) {
	k := &Checker{}
	k.addUploaded(100, 199)
	k.addUploaded(0, 49)
	k.addUploaded(50, 99)
	k.addUploaded(300, 399)
	k.addUploaded(201, 250)
	if want := []span{{0, 199}, {201, 250}, {300, 399}}; !slices.Equal(k.uploaded, want) {
		t.Errorf("spans %v, want %v", k.uploaded, want)
	}
	for o, want := range map[int64]bool{0: true, 199: true, 200: false, 201: true, 250: true, 251: false, 299: false, 300: true, 399: true, 400: false} {
		if k.wasUploaded(o) != want {
			t.Errorf("wasUploaded(%d) = %v", o, !want)
		}
	}
	k.addUploaded(150, 300)
	if want := []span{{0, 399}}; !slices.Equal(k.uploaded, want) {
		t.Errorf("after bridging: %v", k.uploaded)
	}
}

// TestUncleanElectionRebases: after an unclean election the committed
// history restarts from the new leader; a follower that still holds the
// lost lineage is not compared until it fetched from the new leader.
func TestUncleanElectionRebases(t *testing.T) {
	c := healthy()
	c.Cfg.UncleanLeaderElectionEnable = true
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	// b0 writes [300,350) that b1 never gets, then b1 is elected uncleanly.
	c.Brokers[0].Log.Append(model.Batch{Base: 300, Count: 50, Bytes: 50, Epoch: 1, Origin: 5}, 1000)
	c.Brokers[0].Log.HighWatermark = 350
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Ctrl.ISR = []int{0}
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Unclean != 1 {
		t.Fatalf("not unclean: %+v", c.Ctrl)
	}
	if got := all(k, c); len(got) != 0 {
		t.Fatalf("after the unclean election: %v", got)
	}
	if k.histEnd != 300 || k.unclean != 1 || k.uncleanEpoch != 2 {
		t.Errorf("history rebased to end %d (unclean %d, epoch %d), want 300", k.histEnd, k.unclean, k.uncleanEpoch)
	}
	// b1 writes [300,310): b0 still holds its own [300,350) above b1's HW.
	c.Brokers[1].Log.Append(model.Batch{Base: 300, Count: 10, Bytes: 10, Epoch: 2, Origin: 9}, 1000)
	c.Brokers[1].Log.HighWatermark = 310
	if got := all(k, c); len(got) != 0 {
		t.Errorf("b0 holds the lost lineage before its first fetch: %v", got)
	}
	// Once b0 truncated and fetched in the new epoch its records are
	// compared again: here it got a record the new leader never wrote.
	l := &c.Brokers[0].Log
	l.TruncateTo(300)
	l.Append(model.Batch{Base: 300, Count: 10, Bytes: 10, Epoch: 2, Origin: 77}, 1000)
	l.HighWatermark = 310
	c.Brokers[0].InSyncEpoch = c.Brokers[1].LeaderEpoch
	if got := all(k, c); !slices.Equal(got, []string{ReplicaAgreement}) {
		t.Errorf("b0 in sync with the lost lineage: %v, want [%s]", got, ReplicaAgreement)
	}
}

func TestLivenessAlone(t *testing.T) {
	c := healthy()
	if v := New(c).CheckLiveness(c); v != nil {
		t.Fatal(v)
	}
	c.Ctrl.Leader = -1
	if v := New(c).CheckLiveness(c); v == nil || v.Invariant != Liveness || !strings.Contains(v.Message, "offline") {
		t.Errorf("offline: %v", v)
	}
	// The first assigned replica is checked too, once it no longer leads.
	c = healthy()
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	c.Ctrl.ISR = []int{1}
	if v := New(c).CheckLiveness(c); v == nil || v.Invariant != Liveness || !strings.Contains(v.Message, "b0 not in ISR") {
		t.Errorf("b0 (first replica) out of the ISR: %v", v)
	}
	c = healthy()
	if err := addReplica(c, 2); err != nil {
		t.Fatal(err)
	}
	v := New(c).CheckLiveness(c)
	if v == nil || v.Invariant != Liveness || v.Kind != "" || !strings.Contains(v.Message, "b2 not in ISR") {
		t.Errorf("b2 out of the ISR: %v", v)
	}
	// The safety checks are quiet about a replica still catching up.
	k := New(c)
	if got := all(k, c); len(got) != 0 {
		t.Errorf("safety checks on a catching-up replica: %v", got)
	}
}

// fromZero: healthy() with every replica holding [0,300) locally and no
// remote data: differences at offset 0 are local.
func fromZero() *model.Cluster {
	c := healthy()
	first := c.Remote.Segments[0].Batches[0] // [0..49]
	for _, id := range []int{0, 1} {
		l := &c.Brokers[id].Log
		l.Segments[0].Base = 0
		l.Segments[0].Batches = append([]model.Batch{first}, l.Segments[0].Batches...)
		l.LocalLogStart = 0
	}
	return c
}

// TestDifferenceAtOffsetZero: a follower whose record at offset 0 differs
// from the committed one breaks replica-agreement.
func TestDifferenceAtOffsetZero(t *testing.T) {
	c := fromZero()
	k := New(c)
	if got := all(k, c); len(got) != 0 {
		t.Fatalf("before: %v", got)
	}
	l := &c.Brokers[1].Log
	l.TruncateTo(0)
	l.Append(model.Batch{Base: 0, Count: 300, Bytes: 300, Epoch: 0, Origin: 99}, 1000)
	l.HighWatermark = 300
	l.Epochs = c.Brokers[0].Log.Epochs
	if got := all(k, c); !slices.Equal(got, []string{ReplicaAgreement}) {
		t.Errorf("b1 differs at 0: %v", got)
	}
}

// TestReelectedLeaderIsCompared: a leader re-elected in a new epoch (after
// a restart) is compared with the committed log above its HW, as a new
// leader is.
func TestReelectedLeaderIsCompared(t *testing.T) {
	for _, rewrite := range []bool{false, true} {
		c := healthy()
		k := New(c)
		if v := k.Check(c, c.Now); v != nil {
			t.Fatal(v)
		}
		c.Ctrl.ISR = []int{0}
		if err := crash(c, 0); err != nil {
			t.Fatal(err)
		}
		if v := k.Check(c, c.Now); v != nil {
			t.Fatalf("offline: %v", v)
		}
		l := &c.Brokers[0].Log
		if rewrite { // lost [250,300) on disk while down, rewritten
			l.TruncateTo(250)
			l.Append(model.Batch{Base: 250, Count: 50, Bytes: 50, Epoch: 1, Origin: 77}, 1000)
		}
		if err := restart(c, 0); err != nil || c.Ctrl.Leader != 0 || c.Ctrl.LeaderEpoch != 2 {
			t.Fatalf("restart: %v, leader b%d epoch %d", err, c.Ctrl.Leader, c.Ctrl.LeaderEpoch)
		}
		// A single ISR member's HW jumps to its LEO when it is elected, so
		// the rewritten records are below its HW: replica-agreement sees
		// them (the log's generation changed).
		v := k.Check(c, c.Now)
		switch {
		case rewrite && (v == nil || (v.Invariant != NoCommittedLoss && v.Invariant != ReplicaAgreement)):
			t.Errorf("re-elected with other records below the committed end: %v", v)
		case !rewrite && v != nil:
			t.Errorf("re-elected with its log intact: %v", v)
		}
	}
}

// TestOfflineDoesNotStartTheStaleClock: a partition that goes offline and
// comes back with nothing missing never reports a stale log start offset.
func TestOfflineDoesNotStartTheStaleClock(t *testing.T) {
	c := healthy()
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Ctrl.ISR = []int{0}
	if err := crash(c, 0); err != nil {
		t.Fatal(err)
	}
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	if err := restart(c, 0); err != nil {
		t.Fatal(err)
	}
	c.Brokers[0].LeaderEpoch = 0 // the same leader and key as before the crash
	c.Now = c.Now.Add(10 * c.Cfg.RLMTaskInterval)
	if got := all(k, c); len(got) != 0 {
		t.Errorf("back online with nothing missing: %v", got)
	}
}

// TestLaggingLeaderWithRemoteData: a new leader whose log start offset lags
// the old one's is not stale while remote storage still holds the data.
func TestLaggingLeaderWithRemoteData(t *testing.T) {
	for _, remoteEnd := range []int64{99, 49} { // past b1's local log start 50, or just up to it
		c := healthy()
		withRemote(c, model.RemoteSegment{Base: 0, End: remoteEnd, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 0}}})
		c.Brokers[0].HighestRemote = remoteEnd
		k := New(c)
		if got := all(k, c); len(got) != 0 {
			t.Fatal(got)
		}
		if err := deleteRecords(c, 100); err != nil { // b0: LSO 100; the remote data not expired yet
			t.Fatal(err)
		}
		if got := all(k, c); len(got) != 0 {
			t.Fatal(got)
		}
		if err := electLeader(c, 1); err != nil { // b1: LSO 0, LLSO 50
			t.Fatal(err)
		}
		if got := all(k, c); len(got) != 0 {
			t.Fatal(got)
		}
		c.Now = c.Now.Add(10 * c.Cfg.RLMTaskInterval)
		if got := all(k, c); len(got) != 0 {
			t.Errorf("remote to %d: lagging leader with its data still remote, long after: %v", remoteEnd, got)
		}
	}
}

// TestStaleClockNotRestarted: once a stale log start offset is seen, later
// unrelated changes do not restart its clock.
func TestStaleClockNotRestarted(t *testing.T) {
	c := healthy()
	k := New(c)
	electStaleLeader(t, k, c)
	grace := c.Cfg.RemoteMetadataReady + c.Cfg.RLMTaskInterval + sim.Second
	c.Now = c.Now.Add(grace - 1)
	c.Remote.Version++ // something else changed: the hole check runs again
	if got := all(k, c); len(got) != 0 {
		t.Fatalf("within the grace: %v", got)
	}
	c.Now = c.Now.Add(2)
	if got := all(k, c); !slices.Equal(got, []string{StaleLogStart}) {
		t.Errorf("past the grace counted from the election: %v", got)
	}
}

// TestHighestRemoteCheckedAtTheFirstStep: an HRO no upload backs is
// reported at the first check, whatever its value.
func TestHighestRemoteCheckedAtTheFirstStep(t *testing.T) {
	for _, hro := range []int64{2, 150} {
		c := fromZero()
		c.Remote.Segments = nil // nothing was ever uploaded
		c.Brokers[0].HighestRemote = -1
		c.Brokers[1].HighestRemote = hro
		k := New(c)
		if v := k.Check(c, c.Now); v == nil || v.Invariant != HighestRemote {
			t.Errorf("HRO %d never uploaded, at the first check: %v", hro, v)
		}
	}
}

// TestHistoryFromRemoteBatches: with the local log starting inside a
// segment, the committed history is read from remote batches below it and
// the checker stays quiet.
func TestHistoryFromRemoteBatches(t *testing.T) {
	c := healthy()
	for _, id := range []int{0, 1} {
		c.Brokers[id].Log.LocalLogStart = 75
	}
	k := New(c)
	for i := 0; i < 2; i++ {
		if got := all(k, c); len(got) != 0 {
			t.Fatalf("check %d: %v", i, got)
		}
	}
	if k.histStart != 0 || k.histEnd != 300 {
		t.Errorf("history [%d, %d), want [0, 300)", k.histStart, k.histEnd)
	}
}

// TestDifferenceAtACommittedBatchsLastOffset: a follower whose only wrong
// record is the last offset of a committed batch is caught.
func TestDifferenceAtACommittedBatchsLastOffset(t *testing.T) {
	c := healthy()
	k := New(c)
	if got := all(k, c); len(got) != 0 {
		t.Fatal(got)
	}
	l := &c.Brokers[1].Log
	l.TruncateTo(99)
	l.Append(model.Batch{Base: 99, Count: 1, Bytes: 1, Epoch: 0, Origin: 77}, 1000)
	for o := int64(100); o < 300; {
		b := leaderBatch(c, o)
		l.Append(b, 1000)
		o = b.Last() + 1
	}
	l.HighWatermark = 300
	if got := all(k, c); !slices.Equal(got, []string{ReplicaAgreement}) {
		t.Errorf("b1 differs at 99 only: %v", got)
	}
}

// TestUncleanLineageUntilFetched: after an unclean election the old leader
// keeps the lost lineage, even once it truncated part of it, until it has
// fetched from the new leader; from then its epochs are compared too.
func TestUncleanLineageUntilFetched(t *testing.T) {
	c := healthy()
	c.Cfg.UncleanLeaderElectionEnable = true
	k := New(c)
	c.Brokers[0].Log.Append(model.Batch{Base: 300, Count: 50, Bytes: 50, Epoch: 1, Origin: 5}, 1000)
	c.Brokers[0].Log.HighWatermark = 350
	if got := all(k, c); len(got) != 0 {
		t.Fatal(got)
	}
	c.Ctrl.ISR = []int{0}
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	c.Brokers[1].Log.Append(model.Batch{Base: 300, Count: 10, Bytes: 10, Epoch: 2, Origin: 9}, 1000)
	c.Brokers[1].Log.HighWatermark = 310
	c.Brokers[0].Log.TruncateTo(320) // part of the lost lineage truncated, not fetched yet
	if got := all(k, c); len(got) != 0 {
		t.Errorf("the old leader before its first fetch: %v", got)
	}
	// It fetched, but its cache still says epoch 1 at 300.
	l := &c.Brokers[0].Log
	l.TruncateTo(300)
	l.Append(model.Batch{Base: 300, Count: 10, Bytes: 10, Epoch: 2, Origin: 9}, 1000)
	l.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 100}, {Epoch: 3, StartOffset: 305}}
	l.HighWatermark = 310
	c.Brokers[0].InSyncEpoch = c.Brokers[1].LeaderEpoch
	if got := all(k, c); !slices.Equal(got, []string{EpochLineage}) {
		t.Errorf("in sync with a wrong epoch cache: %v, want [%s]", got, EpochLineage)
	}
}

// TestHistoryStopsAtHWInsideABatch: the committed history ends at HW even
// when HW falls inside a batch; a follower holding only the committed part
// of that batch may be elected.
func TestHistoryStopsAtHWInsideABatch(t *testing.T) {
	c := healthy()
	k := New(c)
	b := model.Batch{Base: 300, Count: 50, Bytes: 50, Epoch: 1, Origin: 5}
	c.Brokers[0].Log.Append(b, 1000)
	c.Brokers[1].Log.Append(b.Slice(300, 320), 1000)
	c.Brokers[0].Log.HighWatermark, c.Brokers[1].Log.HighWatermark = 320, 320
	if got := all(k, c); len(got) != 0 {
		t.Fatal(got)
	}
	if k.histEnd != 320 {
		t.Errorf("history ends at %d, want HW 320", k.histEnd)
	}
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	if got := all(k, c); len(got) != 0 {
		t.Errorf("b1 elected holding [300,320) of the last batch: %v", got)
	}
}

// TestLineageAtTheCommonLogStart: the follower's epoch for the first offset
// both hold is compared even when neither cache has an entry starting
// there.
func TestLineageAtTheCommonLogStart(t *testing.T) {
	c := healthy()
	k := New(c)
	if got := all(k, c); len(got) != 0 {
		t.Fatal(got)
	}
	l := &c.Brokers[1].Log
	l.LogStart, l.LocalLogStart = 60, 60
	l.Epochs = []model.EpochEntry{{Epoch: 0, StartOffset: 0}, {Epoch: 1, StartOffset: 40}} // 40: below its log start
	if got := all(k, c); !slices.Equal(got, []string{EpochLineage}) {
		t.Errorf("b1 says epoch 1 at its log start 60, the leader 0: %v", got)
	}
}

// TestHoleAboveAStaleLogStart: a new leader's lagging log start offset
// claims data deleted on purpose (allowed for a while), and remote storage
// also lacks offsets above the deleted range: that is a hole, at once.
func TestHoleAboveAStaleLogStart(t *testing.T) {
	c := healthy()
	k := New(c)
	if err := deleteRecords(c, 20); err != nil { // b0: LSO 20, LLSO 50
		t.Fatal(err)
	}
	if got := all(k, c); len(got) != 0 {
		t.Fatal(got)
	}
	// One step: b1 (LSO 0, LLSO 50) is elected and remote storage holds
	// only [10..39]: [0,10) was deleted on purpose, [40,50) is lost.
	if err := electLeader(c, 1); err != nil {
		t.Fatal(err)
	}
	withRemote(c, model.RemoteSegment{Base: 10, End: 39, Epochs: []model.EpochEntry{{Epoch: 0, StartOffset: 10}}})
	if got := all(k, c); !slices.Equal(got, []string{NoHole}) {
		t.Errorf("hole at 40 above the stale range: %v, want [%s]", got, NoHole)
	}
}

// uncleanFromEmpty elects the empty b2 of healthy() uncleanly, then has it
// commit [0,50) of its own lineage at offset 0, where remote storage still
// lists the initial, never compared segment [0..99] of the ended lineage
// (seed 6050 with unclean elections on).
func uncleanFromEmpty(t *testing.T) (*model.Cluster, *Checker) {
	t.Helper()
	c := healthy()
	c.Cfg.UncleanLeaderElectionEnable = true
	k := New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	if err := addReplica(c, 2); err != nil {
		t.Fatal(err)
	}
	if err := electLeader(c, 2); err != nil {
		t.Fatal(err)
	}
	if c.Ctrl.Unclean != 1 {
		t.Fatalf("not unclean: %+v", c.Ctrl)
	}
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	l := &c.Brokers[2].Log
	l.Append(model.Batch{Base: 0, Count: 50, Bytes: 50, Epoch: c.Brokers[2].LeaderEpoch, Origin: 7}, 1000)
	l.HighWatermark = 50
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	return c, k
}

// uploadFrom uploads [0..49] as b2 holds it, with the record at 49 replaced
// by last when given.
func uploadFrom(c *model.Cluster, last *model.Batch) {
	b, _ := c.Brokers[2].Log.BatchAt(0)
	batches := []model.Batch{b}
	if last != nil {
		batches = []model.Batch{b.Slice(0, 49), *last}
	}
	id := c.Remote.Start(model.RemoteSegment{Base: 0, End: 49, Bytes: 50, Batches: batches,
		Epochs: []model.EpochEntry{{Epoch: b.Epoch, StartOffset: 0}}})
	c.Remote.SetState(id, model.CopyFinished)
}

// TestPriorLineageSegmentNotCompared: after an unclean election, a remote
// segment of the ended lineage that was never compared (an initial one) is
// not compared with the new lineage when a new upload changes remote
// storage: Kafka reads a remote segment only through the epoch the leader's
// own cache gives an offset (RemoteLogManager.read), and this segment's
// epoch is not in the new leader's cache. Near misses: a segment
// the new lineage uploads that disagrees with it, and an initial segment
// that disagrees with the history without an unclean election, still break
// remote-agreement, unlabelled.
func TestPriorLineageSegmentNotCompared(t *testing.T) {
	c, k := uncleanFromEmpty(t)
	uploadFrom(c, nil)
	if v := k.Check(c, c.Now); v != nil {
		t.Errorf("the ended lineage's segment compared with the new one: %v", v)
	}

	c, k = uncleanFromEmpty(t)
	b, _ := c.Brokers[2].Log.BatchAt(49)
	bad := b.Slice(49, 50)
	bad.Origin = 99
	uploadFrom(c, &bad)
	if v := k.Check(c, c.Now); v == nil || v.Invariant != RemoteAgreement || v.Kind != "" {
		t.Errorf("the new lineage's upload differs at 49: %v, want unlabelled %s", v, RemoteAgreement)
	}

	c = healthy()
	c.Cfg.UncleanLeaderElectionEnable = true
	k = New(c)
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Remote.Segments[0].Batches[0].Origin = 99 // not yet compared: no version change
	if err := electLeader(c, 1); err != nil {   // clean: b1 is in the ISR
		t.Fatal(err)
	}
	if c.Ctrl.Unclean != 0 {
		t.Fatalf("unclean: %+v", c.Ctrl)
	}
	if v := k.Check(c, c.Now); v != nil {
		t.Fatal(v)
	}
	c.Remote.Version++
	if v := k.Check(c, c.Now); v == nil || v.Invariant != RemoteAgreement || v.Kind != "" {
		t.Errorf("an initial segment differs, no unclean election: %v, want unlabelled %s", v, RemoteAgreement)
	}
}

// TestStaleClockReArmedAfterOffline: a stale leader that goes offline (no
// leader: the clock stops) and comes back with the same log start, local
// log start and remote storage is stale again, and reported once its new
// grace has passed.
func TestStaleClockReArmedAfterOffline(t *testing.T) {
	c := healthy()
	k := New(c)
	electStaleLeader(t, k, c)
	c.Ctrl.ISR = []int{1}
	if err := crash(c, 1); err != nil {
		t.Fatal(err)
	}
	if got := all(k, c); len(got) != 0 || c.Leader() != nil {
		t.Fatalf("offline: %v (leader %v)", got, c.Leader())
	}
	if err := restart(c, 1); err != nil {
		t.Fatal(err)
	}
	if l := c.Leader(); l == nil || l.ID != 1 || l.Log.LogStart != 0 || l.Log.LocalLogStart != 50 {
		t.Fatalf("b1 not back as the same stale leader: %+v", c.Ctrl)
	}
	if got := all(k, c); len(got) != 0 {
		t.Fatalf("back: %v (the copy task has its grace)", got)
	}
	grace := c.Cfg.RemoteMetadataReady + c.Cfg.RLMTaskInterval + sim.Second
	c.Now = c.Now.Add(grace + 1)
	if got := all(k, c); !slices.Equal(got, []string{StaleLogStart}) {
		t.Errorf("stale past the grace after coming back: %v, want [%s]", got, StaleLogStart)
	}
}

// electStaleLeader makes the leader's log start stale (staleLeader), deletes
// the first remote segment and elects b1, checking that no step is reported
// yet: the stale-log-start clock has started, its grace not passed.
func electStaleLeader(t *testing.T, k *Checker, c *model.Cluster) {
	t.Helper()
	for _, step := range []func(){
		func() { staleLeader(c) },
		func() { c.Remote.Remove(c.Remote.Segments[0].ID) },
		func() {
			if err := electLeader(c, 1); err != nil {
				t.Fatal(err)
			}
		},
	} {
		step()
		if got := all(k, c); len(got) != 0 {
			t.Fatal(got)
		}
	}
}
