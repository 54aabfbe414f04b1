package model

import (
	"slices"
	"strings"
	"testing"

	"tierfetch/sim"
)

// TestReassignCompletesAtOnce: a reassignment from [0 1 2] to [0 1] while
// all three are in the ISR completes in its own step (Kafka's build()
// completes it when the ISR already holds the target): b2 is removed
// (no role, its log deleted, out of the ISR) and b0, which stays the
// leader, takes a new epoch because the replicas lost a member
// (triggerLeaderEpochBumpForReplicaReassignmentIfNeeded); b1 follows it in
// that epoch.
func TestReassignCompletesAtOnce(t *testing.T) {
	cfg, fx := testConfig(), tieredFixture()
	c := fx.cluster(cfg, KIP, 3, []int{0, 1, 2}, true)
	c.Advance()
	epoch := c.Ctrl.LeaderEpoch
	if !slices.Equal(c.Ctrl.ISR, []int{0, 1, 2}) {
		t.Fatalf("initial ISR %v", c.Ctrl.ISR)
	}
	c.Step(sim.Time(sim.Second), &Input{Kind: EvReassign, Brokers: []int{0, 1}})
	var kinds []EventKind
	for _, e := range c.Ready().Events {
		kinds = append(kinds, e.Kind)
	}
	start, done := slices.Index(kinds, EvReassignStart), slices.Index(kinds, EvReassignDone)
	if start < 0 || done < start {
		t.Fatalf("events %v: want reassign-start, then reassign-done", kinds)
	}
	b2 := c.Brokers[2]
	switch {
	case !slices.Equal(c.Ctrl.Replicas, []int{0, 1}) || !slices.Equal(c.Ctrl.ISR, []int{0, 1}) || c.Ctrl.Reassigning():
		t.Fatalf("replicas %v, ISR %v, reassigning %v; want [0 1], [0 1], done", c.Ctrl.Replicas, c.Ctrl.ISR, c.Ctrl.Reassigning())
	case c.Ctrl.Leader != 0 || c.Ctrl.LeaderEpoch != epoch+1 || c.Brokers[0].LeaderEpoch != epoch+1:
		t.Fatalf("leader b%d in epoch %d (b0's %d), want b0 in epoch %d", c.Ctrl.Leader, c.Ctrl.LeaderEpoch, c.Brokers[0].LeaderEpoch, epoch+1)
	case c.Brokers[1].Role != RoleFollower || c.Brokers[1].LeaderEpoch != epoch+1:
		t.Fatalf("b1 is %s in epoch %d, want a follower in epoch %d", c.Brokers[1].Role, c.Brokers[1].LeaderEpoch, epoch+1)
	case b2.Role != RoleNone || !b2.Log.Empty() || !b2.Up:
		t.Fatalf("removed b2: %s, log empty %v, up %v; want no role, its log deleted, still up", b2.Role, b2.Log.Empty(), b2.Up)
	}
}

// TestReassignOneAtATime: a reassignment that adds an empty replica waits
// for it (the ISR lacks b1), and a second reassignment of the partition
// meanwhile is refused, naming the one in progress.
func TestReassignOneAtATime(t *testing.T) {
	cfg, fx := testConfig(), tieredFixture()
	c := fx.cluster(cfg, KIP, 3, []int{0}, true)
	c.Advance()
	c.Step(sim.Time(sim.Second), &Input{Kind: EvReassign, Brokers: []int{0, 1}})
	if !c.Ctrl.Reassigning() || !slices.Equal(c.Ctrl.Adding, []int{1}) || !slices.Equal(c.Ctrl.Replicas, []int{0, 1}) ||
		c.Brokers[1].Role != RoleFollower || !c.Brokers[1].fetch.bootstrapping {
		t.Fatalf("reassigning %v, adding %v, replicas %v, b1 %s bootstrapping %v",
			c.Ctrl.Reassigning(), c.Ctrl.Adding, c.Ctrl.Replicas, c.Brokers[1].Role, c.Brokers[1].fetch.bootstrapping)
	}
	c.Advance()
	c.Step(2*sim.Time(sim.Second), &Input{Kind: EvReassign, Brokers: []int{2}})
	evs := c.Ready().Events
	if last := evs[len(evs)-1]; last.Kind != EvSkipped || !strings.Contains(last.Text, "a reassignment to [0 1] is in progress") {
		t.Fatalf("second reassign: last event %s %q, want it skipped: in progress", last.Kind, last.Text)
	}
	if !slices.Equal(c.Ctrl.Replicas, []int{0, 1}) {
		t.Fatalf("replicas %v after the refused reassign", c.Ctrl.Replicas)
	}
}
