package harness

import (
	"testing"

	"tierfetch/model"
)

func TestBrokerLogsFollowsStateEvents(t *testing.T) {
	b := NewBrokerLogs()
	if _, ok := b.LeaderLog(); ok {
		t.Fatal("a leader before any event")
	}
	b.Update(&model.Event{Kind: model.EvBrokerState, Broker: 2, Role: model.RoleLeader, Up: true, Log: model.LogOffsets{LogEnd: 7}})
	if l, ok := b.LeaderLog(); !ok || b.Leader != 2 || l.LogEnd != 7 || len(b.Logs) != 3 {
		t.Fatalf("after b2 leads: leader %d %v %v, %d logs", b.Leader, l, ok, len(b.Logs))
	}
	b.Update(&model.Event{Kind: model.EvAddReplica, Broker: 4}) // not a state event
	if len(b.Logs) != 3 {
		t.Fatalf("a non-state event grew the view to %d logs", len(b.Logs))
	}
	b.Update(&model.Event{Kind: model.EvBrokerState, Broker: 0, Up: true, Log: model.LogOffsets{LogEnd: 3}})
	if b.Leader != 2 || b.Logs[0].LogEnd != 3 {
		t.Fatalf("a follower's state moved the leader to %d or was lost: %v", b.Leader, b.Logs[0])
	}
	b.Update(&model.Event{Kind: model.EvBrokerState, Broker: 2, Role: model.RoleLeader, Up: false})
	if _, ok := b.LeaderLog(); ok || b.Leader != -1 {
		t.Fatalf("the leader went down but still leads: %d", b.Leader)
	}
}

// TestBrokerLogsNoLeaderUntilOneLeads: followers' states alone make no
// leader, whichever brokers report.
func TestBrokerLogsNoLeaderUntilOneLeads(t *testing.T) {
	b := NewBrokerLogs()
	for _, id := range []int{0, 2, 3} { // b1 never reports
		b.Update(&model.Event{Kind: model.EvBrokerState, Broker: id, Up: true, Log: model.LogOffsets{LogEnd: int64(id)}})
		if l, ok := b.LeaderLog(); ok {
			t.Fatalf("after followers up to b%d report: a leader with log %v", id, l)
		}
	}
}
