package reports

import (
	"encoding/json"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// The Chrome trace and the timeline are checked for what they say, not only
// that they say something: every count of an event kind is the count the
// model kept, and the last counter of each broker is its final state.

// traceRun is one strategy's run with the trace events of its process.
type traceRun struct {
	res    *harness.RunResult
	events []chromeEvent
	// remoteBefore is how many remote segments the run started with.
	remoteBefore int
}

// traceRuns runs sc under both strategies into one Chrome trace and splits
// its events by process.
func traceRuns(t *testing.T, sc *scenarios.Scenario) []traceRun {
	t.Helper()
	tr := NewChromeTrace()
	var runs []traceRun
	for _, st := range harness.Strategies {
		run := tr.Run(string(st))
		res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{run}})
		run.Finish(res.End)
		runs = append(runs, traceRun{res: res, remoteBefore: len(sc.ModelInitial().RemoteSegments)})
	}
	data, err := tr.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TraceEvents []chromeEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for _, e := range f.TraceEvents {
		runs[e.Pid-1].events = append(runs[e.Pid-1].events, e)
	}
	return runs
}

// count counts the events of phase ph and name on track tid (tid < 0: any).
func (r traceRun) count(tid int, ph, name string) int {
	n := 0
	for _, e := range r.events {
		if e.Ph == ph && e.Name == name && (tid < 0 || e.Tid == tid) {
			n++
		}
	}
	return n
}

// joins counts how often broker b entered the ISR.
func joins(res *harness.RunResult, b int, initial []int) int {
	n := 0
	prev := initial
	for _, ch := range res.ISRChanges {
		in := false
		for _, r := range ch.ISR {
			in = in || r == b
		}
		was := false
		for _, r := range prev {
			was = was || r == b
		}
		if in && !was {
			n++
		}
		prev = ch.ISR
	}
	return n
}

// TestChromeTraceCountsWhatTheModelCounts: per broker track, the fetch and
// ListOffsets spans are the requests the broker sent, the aux-state
// instants its successful builds, the backoff spans its bootstrap retries,
// the ISR joins its entries into the ISR; elections are the epochs the run
// went through; uploads on the leaders' tracks are the remote segments the
// run created; one bootstrap span per added replica; and each broker's last
// offsets counter is its final LSO, LLSO, HW and LEO.
func TestChromeTraceCountsWhatTheModelCounts(t *testing.T) {
	for _, name := range []string{"omts-local-deleted", "election-mid-bootstrap", "leader-hro-unknown", "tiered-follower-becomes-leader"} {
		sc, ok := scenarios.Lookup(name)
		if !ok {
			t.Fatalf("no scenario %s", name)
		}
		initialEpoch := int32(0)
		if sc.Initial != nil {
			initialEpoch = sc.Initial.LeaderEpoch
		}
		for _, r := range traceRuns(t, sc) {
			c := r.res.Cluster
			where := name + " " + string(r.res.Strategy)
			added := 0
			for _, b := range c.Brokers {
				st := r.res.Replicas[b.ID]
				checks := []struct {
					what      string
					got, want int
				}{
					{"fetch spans", r.count(b.ID, "X", "fetch"), st.Fetches},
					{"list-offsets spans", r.count(b.ID, "X", "list-offsets"), st.ListOffsets},
					{"aux state built", r.count(b.ID, "i", "aux state built"), st.AuxStateBuilds},
					{"joins ISR", r.count(b.ID, "i", "joins ISR"), joins(r.res, b.ID, sc.Replicas)},
				}
				if st.Added {
					added++
					checks = append(checks, struct {
						what      string
						got, want int
					}{"backoff spans", r.count(b.ID, "X", "backoff"), st.Retries})
				}
				for _, ch := range checks {
					if ch.got != ch.want {
						t.Errorf("%s b%d: %d %s, want %d", where, b.ID, ch.got, ch.what, ch.want)
					}
				}
				if !st.Added && b.ID < len(sc.Replicas) && st.Fetches == 0 && b.Role == model.RoleFollower {
					t.Errorf("%s b%d: a follower that never fetched", where, b.ID)
				}
				last := map[string]any(nil)
				for _, e := range r.events {
					if e.Ph == "C" && e.Tid == b.ID {
						last = e.Args
					}
				}
				l := b.Log
				want := map[string]int64{"lso": l.LogStart, "llso": l.LocalLogStart, "hw": l.HighWatermark, "leo": l.LogEnd}
				for k, v := range want {
					if got, ok := last[k].(float64); !ok || int64(got) != v {
						t.Errorf("%s b%d: last %s counter %v, want %d", where, b.ID, k, last[k], v)
					}
				}
			}
			if got, want := r.count(-1, "i", "becomes leader"), 1+int(c.Ctrl.LeaderEpoch-initialEpoch); got != want {
				t.Errorf("%s: %d 'becomes leader' instants, want %d (the first leader and one per election)", where, got, want)
			}
			created := 0
			for _, s := range c.Remote.Segments {
				if int(s.ID) > r.remoteBefore {
					created++
				}
			}
			if got := r.count(-1, "X", "upload"); got != created {
				t.Errorf("%s: %d upload spans, want the %d remote segments the run created", where, got, created)
			}
			if b, e := r.count(-1, "b", "bootstrap"), r.count(-1, "e", "bootstrap"); b != added || e != added {
				t.Errorf("%s: bootstrap spans begin %d end %d, want %d each", where, b, e, added)
			}
			for _, e := range r.events {
				if e.Ph == "X" && (e.Dur == nil || *e.Dur < 0 || e.Ts+*e.Dur > int64(r.res.End)) {
					t.Errorf("%s: span %s at %d lasting %v outside the run (end %d)", where, e.Name, e.Ts, e.Dur, int64(r.res.End))
				}
			}
		}
	}
}

// TestTimelineEndsAtTheFinalState: the sampler's last sample is the final
// offsets of the leader and of the first added replica and the final
// remote range; its ISR join is the replica's; its elections are the
// leader changes of the run.
func TestTimelineEndsAtTheFinalState(t *testing.T) {
	for _, name := range []string{"omts-local-deleted", "election-mid-bootstrap", "tiered-follower-becomes-leader", "idle-fully-tiered"} {
		sc, _ := scenarios.Lookup(name)
		for _, st := range harness.Strategies {
			s := NewTimelineSampler(string(st))
			leaders := []int{}
			// The leaders, from the model's own election events (the
			// sampler follows the brokers' state events instead).
			elections := model.ObserverFunc(func(_ sim.Time, e *model.Event) {
				if l := e.Broker; e.Kind == model.EvBecomeLeader && (len(leaders) == 0 || leaders[len(leaders)-1] != l) {
					leaders = append(leaders, l)
				}
			})
			res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Observers: []model.Observer{s, elections}})
			s.Finish(res.End)
			c := res.Cluster
			where := name + " " + string(st)
			last := s.samples[len(s.samples)-1]
			l, f := c.Leader(), c.Brokers[s.follower]
			want := [numTimelineSeries]int64{l.Log.LogStart, l.Log.LocalLogStart, l.Log.HighWatermark, l.Log.LogEnd,
				f.Log.LogStart, f.Log.LocalLogStart, f.Log.HighWatermark, f.Log.LogEnd}
			if start, end, ok := c.Remote.Finished(); ok != last.remote {
				t.Errorf("%s: remote range shown %v, finished segments %v", where, last.remote, ok)
			} else if ok {
				want[tsRemoteStart], want[tsRemoteEnd] = start, end+1
			}
			if last.v != want || !last.leader || !last.follower {
				t.Errorf("%s: last sample %v, want %v", where, last.v, want)
			}
			if fs := res.Replicas[f.ID]; !fs.Added || s.addedAt != fs.AddedAt || s.joined != fs.CaughtUp || (s.joined && s.joinedAt != fs.CaughtUpAt) {
				t.Errorf("%s: follower b%d added %v joined %v at %v; stats %+v", where, s.follower, s.addedAt, s.joined, s.joinedAt, fs)
			}
			if len(s.elections) != len(leaders)-1 {
				t.Errorf("%s: %d elections drawn, the leader changed %d times (%v)", where, len(s.elections), len(leaders)-1, leaders)
			}
			if s.end != res.End {
				t.Errorf("%s: timeline ends at %v, run at %v", where, s.end, res.End)
			}
		}
	}
}
