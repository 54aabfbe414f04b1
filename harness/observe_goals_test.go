package harness

import (
	"slices"
	"testing"

	"tierfetch/model"
)

// The goals and counts the run view folds from single outcomes: each case
// feeds an outcome that reaches its goal and one beside it that does not,
// and checks no other goal moves.

// onlyGoal checks that the view counted exactly want of goal g and nothing
// of any other goal.
func onlyGoal(t *testing.T, name string, v *runView, g model.Goal, want int64) {
	t.Helper()
	for i, n := range v.coverage {
		if w := map[bool]int64{true: want, false: 0}[model.Goal(i) == g]; n != w {
			t.Errorf("%s: goal %s counted %d, want %d", name, model.Goal(i), n, w)
		}
	}
}

// TestViewCountsInitialEpochs: an initial log reaches the goal only when
// it holds records of an epoch above 0.
func TestViewCountsInitialEpochs(t *testing.T) {
	for _, c := range []struct {
		epochs []int32
		want   int64
	}{{nil, 0}, {[]int32{0}, 0}, {[]int32{0, 2}, 1}, {[]int32{3}, 1}} {
		init := &model.Initial{}
		for i, e := range c.epochs {
			init.Log.Epochs = append(init.Log.Epochs, model.EpochEntry{Epoch: e, StartOffset: int64(10 * i)})
		}
		onlyGoal(t, "epochs", newRunView(3, []int{0, 1}, true, init), model.GoalInitialEpochs, c.want)
	}
}

// TestViewCountsGoalsOfOneOutcome: a failed upload, a consume that read
// remote bytes, a backoff for an unknown EPUO, an empty follower truncated
// to the leader's end each reach their goal; the outcome's other causes do not.
func TestViewCountsGoalsOfOneOutcome(t *testing.T) {
	upload := func(c model.Cause) model.Event {
		e := ev(model.EvUploadEnd, 0)
		e.Cause = c
		return e
	}
	consume := func(remote int64) model.Event {
		e := ev(model.EvConsumed, 0)
		e.Offset, e.End, e.Bytes, e.RemoteBytes = 0, 10, 100, remote
		return e
	}
	backoff := func(why model.RetryReason) model.Event {
		e := ev(model.EvBackoff, 1)
		e.Retry = why
		return e
	}
	truncate := func(c model.Cause) model.Event {
		e := ev(model.EvTruncate, 1)
		e.Offset, e.Cause = 0, c
		return e
	}
	empty := state(1, model.RoleFollower, 1, model.LogOffsets{LogStart: 50, LocalLogStart: 50, LogEnd: 50, HighWatermark: 50}, -1)
	holding := state(1, model.RoleFollower, 1, model.LogOffsets{LogStart: 0, LocalLogStart: 0, LogEnd: 50, HighWatermark: 50}, -1)
	for _, c := range []struct {
		name string
		evs  []model.Event
		goal model.Goal
		want int64
	}{
		{"upload failed", []model.Event{upload(model.UploadFailed)}, model.GoalUploadFailed, 1},
		{"upload done", []model.Event{upload(model.UploadDone)}, model.GoalUploadFailed, 0},
		{"consumed remote", []model.Event{consume(1)}, model.GoalConsumeRemote, 1},
		{"consumed local", []model.Event{consume(0)}, model.GoalConsumeRemote, 0},
		{"epuo unknown", []model.Event{backoff(model.RetryEPUOUnknown)}, model.GoalEPUOUnknownRetry, 1},
		{"timeout", []model.Event{backoff(model.RetryTimeout), backoff(model.RetryLeaderError)}, model.GoalEPUOUnknownRetry, 0},
		{"empty follower above the leader's end", []model.Event{empty, truncate(model.TruncateLeaderEnd)}, model.GoalEmptyFollowerAboveLeaderEnd, 1},
		{"empty follower diverged", []model.Event{empty, truncate(model.TruncateDivergence)}, model.GoalEmptyFollowerAboveLeaderEnd, 0},
		{"follower holding records", []model.Event{holding, truncate(model.TruncateLeaderEnd)}, model.GoalEmptyFollowerAboveLeaderEnd, 0},
	} {
		s := newStream(3)
		for i, e := range c.evs {
			s.at(int64(i), e)
		}
		onlyGoal(t, c.name, s.v, c.goal, c.want)
	}
}

// TestViewCountsATieredFollowerBecomingLeader: a replica that started at
// the earliest pending upload reaches the goal when it becomes leader; one
// that started elsewhere does not.
func TestViewCountsATieredFollowerBecomingLeader(t *testing.T) {
	for _, c := range []struct {
		path model.Path
		want int64
	}{{model.PathEarliestPendingUpload, 1}, {model.PathLocalLogStart, 0}} {
		at := ev(model.EvStartAt, 2)
		at.Path = c.path
		boot := ev(model.EvBootstrapped, 2)
		boot.Offset = 40
		lead := ev(model.EvBecomeLeader, 2)
		lead.Epoch = 2
		s := started().at(5, ev(model.EvBecomeFollower, 2)).at(6, at).at(7, boot).at(8, lead)
		if got := s.v.coverage[model.GoalTieredFollowerBecameLeader]; got != c.want {
			t.Errorf("path %s: tiered-follower-became-leader %d, want %d", c.path, got, c.want)
		}
	}
}

// TestViewIdleLeaderWithNoRecords: retention on a leader whose log holds
// no records at all is not a fully tiered log.
func TestViewIdleLeaderWithNoRecords(t *testing.T) {
	retention := ev(model.EvLocalRetention, 0)
	retention.Log = model.LogOffsets{LogStart: 300, LocalLogStart: 300, HighWatermark: 300, LogEnd: 300}
	s := newStream(2).at(0, state(0, model.RoleLeader, 0, model.LogOffsets{LogStart: 300, LogEnd: 300, HighWatermark: 300}, 299)).at(1, retention)
	onlyGoal(t, "empty log", s.v, model.GoalIdleFullyTieredByRetention, 0)
}

// TestViewFencesOnlyTheBrokerThatLeft: a crash or a replacement takes
// that broker, and only it, out of the ISR; a leader elected while the ISR
// holds members leaves it alone, one elected to an empty ISR is its only member.
func TestViewFencesOnlyTheBrokerThatLeft(t *testing.T) {
	for _, k := range []model.EventKind{model.EvCrash, model.EvReplaceBroker} {
		s := newStream(3).at(5, ev(k, 1))
		s.v.end()
		if want := []ISRChange{{At: s.now, ISR: []int{0}}}; !slices.EqualFunc(s.v.isrChanges, want, sameChange) {
			t.Errorf("%s of 1 in ISR [0 1]: changes %v, want %v", k, s.v.isrChanges, want)
		}
	}
	lead := ev(model.EvBecomeLeader, 1)
	lead.Epoch = 2
	s := newStream(3).at(1, lead)
	if len(s.v.isrChanges) != 0 {
		t.Errorf("a leader elected in ISR [0 1] changed it: %v", s.v.isrChanges)
	}
	s.at(2, ev(model.EvCrash, 0)).at(3, ev(model.EvCrash, 1)).at(4, lead)
	if got := s.v.isr; !slices.Equal(got, []int{1}) {
		t.Errorf("a leader elected to an empty ISR: ISR %v, want [1]", got)
	}
}

func sameChange(a, b ISRChange) bool { return a.At == b.At && slices.Equal(a.ISR, b.ISR) }

// TestViewCountsRequestsAndTheAnswerItWaitsFor: every fetch and
// ListOffsets request a follower sends counts; a ListOffsets request sent
// after a fetch makes the fetch's answer one the fetcher no longer waits for.
func TestViewCountsRequestsAndTheAnswerItWaitsFor(t *testing.T) {
	s := started().at(5, ev(model.EvBecomeFollower, 2)).at(5, send(2, 0, model.MsgFetch, 7)).
		at(6, send(2, 0, model.MsgFetch, 8)).at(6, send(2, 0, model.MsgListOffsets, 9))
	if st := s.v.replicas[2]; st.Fetches != 2 || st.ListOffsets != 1 {
		t.Errorf("fetches %d, list offsets %d, want 2 and 1", st.Fetches, st.ListOffsets)
	}
	s.at(7, deliver(model.Message{Kind: model.MsgFetchResp, From: 0, To: 2, ReqID: 8, Err: model.ErrOffsetOutOfRange}))
	s.v.end()
	if got := s.v.coverage[model.GoalFollowerOOR]; got != 0 {
		t.Errorf("an answer to the fetch before a ListOffsets request counted: %d", got)
	}
}
