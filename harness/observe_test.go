package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/sim"
)

// The run view reads only events: each case feeds it a short stream, as
// the model and the runner would record it, and checks what it folds it
// into against the rule the stream's comment states.

// stream is a builder of events for the view.
type stream struct {
	v   *runView
	now sim.Time
}

func newStream(n int) *stream {
	return &stream{v: newRunView(n, []int{0, 1}, true, &model.Initial{})}
}

// at feeds e at time ms.
func (s *stream) at(ms int64, e model.Event) *stream {
	s.now = sim.AtMs(ms)
	s.v.Event(s.now, &e)
	return s
}

func ev(k model.EventKind, b int) model.Event { return model.NewEvent(k, b) }

// state is a broker-state event: b's role, up, epoch and log.
func state(b int, role model.Role, epoch int32, l model.LogOffsets, hro int64) model.Event {
	e := ev(model.EvBrokerState, b)
	e.Role, e.Up, e.Epoch, e.Log, e.HRO = role, true, epoch, l, hro
	return e
}

func send(from, to int, k model.MsgKind, req uint64) model.Event {
	e := ev(model.EvSend, from)
	e.Peer, e.Msg = to, model.Message{Kind: k, From: from, To: to, ReqID: req}
	return e
}

func deliver(m model.Message) model.Event {
	e := ev(model.EvDeliver, m.To)
	e.Peer, e.Msg = m.From, m
	return e
}

func skipped() model.Event {
	e := ev(model.EvSkipped, -1)
	e.Text = "refused"
	return e
}

// started is a stream in which b0 leads at epoch 1 holding [0, 100) and b2
// is added at 5 ms (the next event decides whether the add happened).
func started() *stream {
	s := newStream(3)
	s.at(0, state(0, model.RoleLeader, 1, model.LogOffsets{LogEnd: 100, HighWatermark: 100}, -1))
	return s.at(5, ev(model.EvAddReplica, 2))
}

// TestViewAddsAReplicaUnlessRefused: an add_replica followed by its
// refusal adds nothing; otherwise the replica is added at the input's
// time, and a mid-run add to a leader holding records reaches its goal.
func TestViewAddsAReplicaUnlessRefused(t *testing.T) {
	s := started().at(5, skipped())
	if st := s.v.replicas[2]; st.Added || s.v.brokers[2].boot || s.v.coverage[model.GoalReplicaAddedMidRun] != 0 {
		t.Errorf("a refused add: %+v, boot %v, goal %d", st, s.v.brokers[2].boot, s.v.coverage[model.GoalReplicaAddedMidRun])
	}
	s = started().at(5, ev(model.EvBecomeFollower, 2))
	if st := s.v.replicas[2]; !st.Added || st.AddedAt != sim.AtMs(5) || !s.v.brokers[2].boot || s.v.coverage[model.GoalReplicaAddedMidRun] != 1 {
		t.Errorf("an add: %+v, boot %v, goal %d", st, s.v.brokers[2].boot, s.v.coverage[model.GoalReplicaAddedMidRun])
	}
	// The last input of a run settles when it ends.
	s = started()
	s.v.end()
	if !s.v.replicas[2].Added {
		t.Errorf("an add that ended the run was not settled")
	}
	// At time 0, or to an empty leader, the add is not mid-run.
	s = newStream(3).at(0, state(0, model.RoleLeader, 1, model.LogOffsets{LogEnd: 100}, -1)).at(0, ev(model.EvAddReplica, 2))
	s.v.end()
	e := newStream(3).at(0, state(0, model.RoleLeader, 1, model.LogOffsets{}, -1)).at(5, ev(model.EvAddReplica, 2))
	e.v.end()
	if s.v.coverage[model.GoalReplicaAddedMidRun]+e.v.coverage[model.GoalReplicaAddedMidRun] != 0 {
		t.Errorf("an add at time 0 or to an empty log counted as mid-run")
	}
}

// TestViewCountsRetriesWhileBootstrapping: a backoff counts as a bootstrap
// retry only between the add and the first records; the last retry is
// kept either way.
func TestViewCountsRetriesWhileBootstrapping(t *testing.T) {
	backoff := func(why model.RetryReason) model.Event {
		e := ev(model.EvBackoff, 2)
		e.Retry = why
		return e
	}
	boot := ev(model.EvBootstrapped, 2)
	boot.Peer, boot.Offset = 0, 40
	s := newStream(3).at(0, backoff(model.RetryTimeout)).at(1, ev(model.EvAddReplica, 2)).
		at(2, backoff(model.RetryEPUOUnknown)).at(3, backoff(model.RetryEPUOUnknown)).at(4, boot).at(5, backoff(model.RetryLeaderError))
	st := s.v.replicas[2]
	if st.Retries != 2 || st.RetriesByReason[model.RetryEPUOUnknown] != 2 || st.LastRetry != model.RetryLeaderError || !st.EverRetried {
		t.Errorf("retries %d by reason %v, last %s", st.Retries, st.RetriesByReason, st.LastRetry)
	}
	if !st.StartSet || st.StartOffset != 40 || s.v.coverage[model.GoalEPUOUnknownRetry] != 2 {
		t.Errorf("start %d (set %v), epuo-unknown goal %d", st.StartOffset, st.StartSet, s.v.coverage[model.GoalEPUOUnknownRetry])
	}
}

// TestViewCountsAnAnswerTheFetcherTakes: OFFSET_OUT_OF_RANGE counts for a
// bootstrapping follower when it answers the request its fetcher waits
// for and the network delivers it; not an answer to an older request, not
// one to a fetcher that backed off since, not one the network drops.
func TestViewCountsAnAnswerTheFetcherTakes(t *testing.T) {
	oor := model.Message{Kind: model.MsgFetchResp, From: 0, To: 2, ReqID: 7, Err: model.ErrOffsetOutOfRange}
	dropped := ev(model.EvDropped, 2)
	dropped.Peer, dropped.Msg, dropped.Cause = 0, oor, model.DropPartition
	backoff := ev(model.EvBackoff, 2)
	backoff.Retry = model.RetryTimeout
	for _, c := range []struct {
		name string
		mid  []model.Event // between the request and the answer
		old  bool          // the answer is to an earlier request
		drop bool
		want int64
	}{
		{"taken", nil, false, false, 1},
		{"an older request's", nil, true, false, 0},
		{"after a backoff", []model.Event{backoff}, false, false, 0},
		{"dropped", nil, false, true, 0},
	} {
		s := started().at(5, ev(model.EvBecomeFollower, 2)).at(5, send(2, 0, model.MsgFetch, 7))
		for _, e := range c.mid {
			s.at(6, e)
		}
		m := oor
		if c.old {
			m.ReqID = 6
		}
		s.at(7, deliver(m))
		if c.drop {
			s.at(7, dropped)
		}
		s.v.end()
		if got := s.v.coverage[model.GoalFollowerOOR]; got != c.want {
			t.Errorf("%s: follower-oor %d, want %d", c.name, got, c.want)
		}
	}
}

// TestViewCountsTheLeaderChangingMidBootstrap: a bootstrapping follower
// told to follow a new epoch's leader reaches the goal; one that was not
// following (crashed, now restarted) does not.
func TestViewCountsTheLeaderChangingMidBootstrap(t *testing.T) {
	follow := func(b, leader int, epoch int32) model.Event {
		e := ev(model.EvBecomeFollower, b)
		e.Peer, e.Epoch = leader, epoch
		return e
	}
	s := started().at(5, follow(2, 0, 1)).at(6, follow(2, 1, 2))
	if got := s.v.coverage[model.GoalLeaderChangedMidBootstrap]; got != 1 {
		t.Errorf("a new leader mid-bootstrap: %d", got)
	}
	down := state(2, model.RoleNone, 1, model.LogOffsets{}, -1)
	down.Up = false
	s = started().at(5, follow(2, 0, 1)).at(6, down).at(7, follow(2, 1, 2))
	if got := s.v.coverage[model.GoalLeaderChangedMidBootstrap]; got != 0 {
		t.Errorf("a restarted follower counted: %d", got)
	}
}

// TestViewCountsAnIdleLeaderFullyTiered: local retention that leaves a
// tiered leader with no local records, every record uploaded (HRO = LEO-1),
// reaches the goal; not with tiering switched off, not after a refused
// switch back on, not with a record left to upload.
func TestViewCountsAnIdleLeaderFullyTiered(t *testing.T) {
	retention := ev(model.EvLocalRetention, 0)
	retention.Log = model.LogOffsets{LogStart: 0, LocalLogStart: 300, HighWatermark: 300, LogEnd: 300}
	set := func(on bool) model.Event {
		e := ev(model.EvSetConfig, -1)
		e.Key, e.Bool, e.On = "remote_storage_enable", true, on
		return e
	}
	leader := func(hro int64) *stream {
		return newStream(2).at(0, state(0, model.RoleLeader, 0, model.LogOffsets{LogEnd: 300, HighWatermark: 300}, hro))
	}
	for _, c := range []struct {
		name string
		s    *stream
		want int64
	}{
		{"fully tiered", leader(299), 1},
		{"a record not uploaded", leader(298), 0},
		{"tiering off", leader(299).at(1, set(false)).at(1, ev(model.EvTieringDisabled, -1)), 0},
		{"tiering off, refused back on", leader(299).at(1, set(false)).at(2, set(true)).at(2, skipped()), 0},
		{"tiering off and on", leader(299).at(1, set(false)).at(2, set(true)).at(3, ev(model.EvRLMCopySkipped, 0)), 1},
	} {
		c.s.at(10, retention)
		if got := c.s.v.coverage[model.GoalIdleFullyTieredByRetention]; got != c.want {
			t.Errorf("%s: idle-fully-tiered %d, want %d", c.name, got, c.want)
		}
	}
}

// TestViewCountsAnAuxBuildThatAsksAnEarlierEpoch: the OffsetsForLeaderEpoch
// answer a build waits for, putting start-1 in an epoch before start's,
// reaches the goal; an end at start-1 does not, nor an answer once the
// build ended.
func TestViewCountsAnAuxBuildThatAsksAnEarlierEpoch(t *testing.T) {
	begin := ev(model.EvAuxBuildStart, 2)
	begin.Offset, begin.Epoch = 200, 2
	answer := func(end int64) model.Event {
		return deliver(model.Message{Kind: model.MsgEpochEndResp, From: 0, To: 2, ReqID: 9, Epoch: 1, Offset: end})
	}
	end := ev(model.EvAuxBuildEnd, 2)
	end.Cause = model.AuxAborted
	for _, c := range []struct {
		name  string
		end   int64
		ended bool
		want  int64
	}{{"epoch 1 ends after 199", 200, false, 1}, {"epoch 1 ends at 199", 199, false, 0}, {"after the build ended", 200, true, 0}} {
		s := started().at(5, begin).at(5, send(2, 0, model.MsgEpochEnd, 9))
		if c.ended {
			s.at(6, end)
		}
		s.at(7, answer(c.end))
		s.v.end()
		if got := s.v.coverage[model.GoalAuxEpochBeforeStart]; got != c.want {
			t.Errorf("%s: aux-epoch-before-start %d, want %d", c.name, got, c.want)
		}
	}
}
