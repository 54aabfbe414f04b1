package harness

import "tierfetch/model"

// BrokerLogs follows, from the event stream's broker-state events, each
// broker's log offsets as last reported and the broker leading now: the
// view every observer that measures or plots offsets starts from.
type BrokerLogs struct {
	Logs   []model.LogOffsets // by broker id; a broker not yet reported is zero
	Leader int                // -1 while no broker leads
}

// NewBrokerLogs returns a view in which no broker has reported yet.
func NewBrokerLogs() BrokerLogs { return BrokerLogs{Leader: -1} }

// Update takes in one event; only broker-state events change the view.
func (b *BrokerLogs) Update(e *model.Event) {
	if e.Kind != model.EvBrokerState {
		return
	}
	for len(b.Logs) <= e.Broker {
		b.Logs = append(b.Logs, model.LogOffsets{})
	}
	b.Logs[e.Broker] = e.Log
	switch {
	case e.Role == model.RoleLeader && e.Up:
		b.Leader = e.Broker
	case b.Leader == e.Broker:
		b.Leader = -1
	}
}

// LeaderLog returns the leading broker's log offsets, false while none leads.
func (b *BrokerLogs) LeaderLog() (model.LogOffsets, bool) {
	if b.Leader < 0 || b.Leader >= len(b.Logs) {
		return model.LogOffsets{}, false
	}
	return b.Logs[b.Leader], true
}
