package model

import (
	"strings"
	"testing"

	"tierfetch/sim"
)

// The contract: one input a step, recorded first; what it did waits in the
// Ready until Advance; a refusal is an event; misuse panics.

func kindsOf(evs []Event) []EventKind {
	var out []EventKind
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

// TestStepRecordsItsInputFirst: a step's Ready begins with its input
// event, as the caller handed it in, followed by what the model did, and
// Advance empties it.
func TestStepRecordsItsInputFirst(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.Advance()
	c.Step(sim.AtMs(5), &Input{Kind: EvAddReplica, Broker: 2})
	rd := c.Ready()
	if len(rd.Events) < 2 || rd.Events[0].Kind != EvAddReplica || rd.Events[0].Broker != 2 || rd.Events[1].Kind != EvBecomeFollower {
		t.Errorf("add_replica b2: events %v, want the input, then b2 following", kindsOf(rd.Events))
	}
	if c.Now != sim.AtMs(5) || len(rd.Effects) == 0 || rd.Effects[0].Kind != EffSetTimer {
		t.Errorf("now %v, effects %+v", c.Now, rd.Effects)
	}
	c.Advance()
	if rd := c.Ready(); len(rd.Events) != 0 || len(rd.Effects) != 0 {
		t.Errorf("after Advance: %d events, %d effects", len(rd.Events), len(rd.Effects))
	}
	// A timer's event names its peer only for a parked fetch.
	c.Step(sim.AtMs(6), &Input{Kind: EvTimer, Timer: TimerKey{Broker: 0, Kind: TimerISRExpire, Peer: 1}})
	if e := c.Ready().Events[0]; e.Kind != EvTimer || e.Peer != -1 || e.Timer != TimerISRExpire {
		t.Errorf("an ISR-expiry timer recorded as %+v", e)
	}
	c.Advance()
}

// TestStepRecordsARefusal: an input the model refuses is followed by an
// EvSkipped saying why, and changes nothing else.
func TestStepRecordsARefusal(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.Advance()
	c.Step(0, &Input{Kind: EvElectLeader, Broker: 0})
	if evs := c.Ready().Events; len(evs) != 2 || evs[1].Kind != EvSkipped || evs[1].Text != "b0 is already the leader" {
		t.Errorf("electing the leader: %v", evs)
	}
	c.Advance()
	c.Ctrl.Leader = -1
	c.Step(1, &Input{Kind: EvProduce, Count: 50, Ms: 1000, Records: 5})
	if evs := c.Ready().Events; len(evs) != 2 || evs[0].Count != 50 || evs[1].Text != "partition offline, records dropped" {
		t.Errorf("producing while offline: %v", evs)
	}
	c.Advance()
}

// TestHealEndsTheFaultPhase: the heal restarts every crashed replica and
// ends a remote outage; a completion during it still fails, one after it
// does not.
func TestHealEndsTheFaultPhase(t *testing.T) {
	c := leaderOf(tieredFixture(), testConfig(), KIP)
	c.Advance()
	c.Step(0, &Input{Kind: EvCrash, Broker: 1})
	c.Advance()
	c.Step(0, &Input{Kind: EvRemoteOutage, Ms: 1000})
	c.Advance()
	op := RemoteOp{ID: 99, Broker: 0, Kind: RemoteDelete, Segment: 1}
	c.Step(sim.AtMs(10), &Input{Kind: EvRemoteDone, Op: op})
	if e := c.Ready().Events[0]; !e.Failed || e.Op != 99 {
		t.Errorf("a completion during the outage: %+v, want failed", e)
	}
	c.Advance()
	c.Step(sim.AtMs(20), &Input{Kind: EvHeal})
	if !c.Brokers[1].Up || c.Remote.OutageUntilUs != 0 {
		t.Errorf("after the heal: b1 up %v, outage until %d", c.Brokers[1].Up, c.Remote.OutageUntilUs)
	}
	c.Advance()
	c.Step(sim.AtMs(30), &Input{Kind: EvRemoteDone, Op: op})
	if e := c.Ready().Events[0]; e.Failed {
		t.Errorf("a completion after the heal failed: %+v", e)
	}
	c.Advance()
}

// TestStepMisusePanics: a step before the last Ready was acknowledged, a
// step back in time, an input the environment records itself, and a copy
// of a cluster with unacknowledged output are programmer errors.
func TestStepMisusePanics(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		do         func(c *Cluster)
	}{
		{"step before Advance", "not acknowledged", func(c *Cluster) {
			c.Step(0, &Input{Kind: EvHeal})
			c.Step(0, &Input{Kind: EvHeal})
		}},
		{"step back in time", "before the last step", func(c *Cluster) {
			c.Advance()
			c.Step(sim.AtMs(5), &Input{Kind: EvHeal})
			c.Advance()
			c.Step(sim.AtMs(4), &Input{Kind: EvHeal})
		}},
		{"the environment's input", "not an input the model takes", func(c *Cluster) {
			c.Advance()
			c.Step(0, &Input{Kind: EvNetworkPartition})
		}},
		{"clone before Advance", "not acknowledged", func(c *Cluster) {
			c.Step(0, &Input{Kind: EvHeal})
			c.Clone()
		}},
	} {
		func() {
			defer func() {
				if p, ok := recover().(string); !ok || !strings.Contains(p, tc.want) {
					t.Errorf("%s: panic %v, want one saying %q", tc.name, p, tc.want)
				}
			}()
			tc.do(leaderOf(tieredFixture(), testConfig(), KIP))
		}()
	}
}

// TestFetcherInvariantIsAsserted: each phase with the wrong timer armed, or
// without what it waits for, is caught (checkFetcher, after every step).
func TestFetcherInvariantIsAsserted(t *testing.T) {
	for _, tc := range []struct {
		name    string
		breakIt func(f *fetcher)
	}{
		{"a fetch with no timeout armed", func(f *fetcher) { f.armed = armedNone }},
		{"a fetch with no request", func(f *fetcher) { f.reqID = 0 }},
		{"an epoch-end request with no build", func(f *fetcher) { f.phase = phaseEpochEnd }},
		{"a list-offsets request with no query", func(f *fetcher) { f.phase, f.query = phaseListOffsets, nil }},
		{"an aux read with a timeout armed", func(f *fetcher) { f.phase, f.auxOp, f.aux.active = phaseAuxRead, 7, true }},
		{"a backoff with a build under way", func(f *fetcher) { f.phase, f.armed, f.aux.active = phaseBackoff, armedBackoff, true }},
		{"idle with a timer armed", func(f *fetcher) { f.phase = phaseIdle }},
	} {
		c, _ := followerAwaiting(t, tieredFixture(), testConfig()) // b1: a fetch awaited
		b := c.Brokers[1]
		b.checkFetcher()
		tc.breakIt(&b.fetch)
		func() {
			defer func() {
				if p, ok := recover().(string); !ok || !strings.Contains(p, "b1 (follower, up true) fetcher in phase") {
					t.Errorf("%s: panic %v", tc.name, p)
				}
			}()
			b.checkFetcher()
		}()
	}
}

// TestBookkeepingMisusePanics: the log, the remote metadata and the copy
// task assert their own bookkeeping with the context to read it: a roll of
// an empty active segment, a negative epoch, a remote segment moved back
// to a state it left, a metadata event naming no segment (or a new one
// naming one), and an upload done that is not the one its copy task runs.
func TestBookkeepingMisusePanics(t *testing.T) {
	remote := func() (*Remote, uint64) {
		r := &Remote{}
		return r, r.Start(RemoteSegment{Base: 0, End: 9, Bytes: 10, Epochs: []EpochEntry{{0, 0}}})
	}
	for _, tc := range []struct {
		name, want string
		do         func(c *Cluster)
	}{
		{"roll an empty segment", "roll of the active segment [300..299] of 0 bytes", func(c *Cluster) {
			l := NewLog(300)
			l.roll()
		}},
		{"epoch -1", "epoch -1 assigned", func(c *Cluster) { l := NewLog(0); l.AssignEpoch(-1) }},
		{"copy started again", "moves from copy-started to copy-started", func(c *Cluster) {
			r, id := remote()
			r.SetState(id, CopyStarted)
		}},
		{"a deletion undone", "moves from delete-started to copy-finished", func(c *Cluster) {
			r, id := remote()
			r.SetState(id, DeleteStarted)
			r.SetState(id, CopyFinished)
		}},
		{"a segment with no id", "with no id", func(c *Cluster) { (&Remote{}).insert(RemoteSegment{Base: 0, End: 9}) }},
		{"a deletion naming no segment", "publishes 2 for remote segment 0", func(c *Cluster) {
			c.publish(c.Brokers[0], metaDeleteStarted, RemoteSegment{})
		}},
		{"a copy naming its segment", "publishes 0 for remote segment 5", func(c *Cluster) {
			c.publish(c.Brokers[0], metaCopyStarted, RemoteSegment{ID: 5})
		}},
		{"another upload done", "upload 9 of remote segment 4 done; its copy task uploads segment 0", func(c *Cluster) {
			c.onUploadDone(c.Brokers[0], RemoteOp{ID: 9, Broker: 0, Kind: RemoteUpload, Segment: 4}, false)
		}},
	} {
		func() {
			defer func() {
				if p, ok := recover().(string); !ok || !strings.Contains(p, tc.want) {
					t.Errorf("%s: panic %v, want one saying %q", tc.name, p, tc.want)
				}
			}()
			c := leaderOf(tieredFixture(), testConfig(), KIP)
			c.Brokers[0].copyOp = 9 // an upload of segment 0 (none) in flight: op 9 is its
			tc.do(c)
		}()
	}
}
