package model

import (
	"bytes"
	"testing"
)

// TestRequestIDsAreNames: a state's encoding does not depend on which
// numbers its request ids are, only on whether a message is its
// requester's current request (the only thing handleResponse asks of an
// id): renumbering every id alike encodes alike, and a stale request
// encodes differently from the current one.
func TestRequestIDsAreNames(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 2, []int{0, 1}, true)
	var req *Message
	effects := c.Ready().Effects
	for i := range effects {
		if e := &effects[i]; e.Kind == EffSend && e.Msg.From == 1 {
			m := e.Msg
			req = &m
		}
	}
	if req == nil || req.ReqID == 0 || c.Brokers[1].fetch.reqID != req.ReqID {
		t.Fatalf("b1 sent no request in flight: %+v", effects)
	}
	c.Advance()
	renamed := c.Clone()
	renamed.nextReq += 7
	renamed.Brokers[1].fetch.reqID += 7
	moved := *req
	moved.ReqID += 7
	if !bytes.Equal(c.AppendState(nil, c.Now), renamed.AppendState(nil, c.Now)) ||
		!bytes.Equal(c.AppendMessageState(nil, req, c.Now), renamed.AppendMessageState(nil, &moved, c.Now)) {
		t.Errorf("renumbered request ids encode differently")
	}
	answer := Message{Kind: MsgFetchResp, From: 0, To: 1, ReqID: req.ReqID}
	stale := answer
	stale.ReqID = req.ReqID + 1000
	if bytes.Equal(c.AppendMessageState(nil, &answer, c.Now), c.AppendMessageState(nil, &stale, c.Now)) {
		t.Errorf("an answer to the current request encodes like one to another")
	}
	renamed.Brokers[1].fetch.reqID = 0 // the follower stopped waiting: nothing is current
	if bytes.Equal(c.AppendState(nil, c.Now), renamed.AppendState(nil, c.Now)) ||
		bytes.Equal(c.AppendMessageState(nil, req, c.Now), renamed.AppendMessageState(nil, &moved, renamed.Now)) {
		t.Errorf("a follower waiting for nothing encodes like one waiting for its request")
	}
}

// TestCloneIntoCopiesTheQuery: a copy made in a dropped cluster takes that
// cluster's ListOffsets query for its own, with the original's answers,
// and an answer the copy then records is not the original's.
func TestCloneIntoCopiesTheQuery(t *testing.T) {
	c := tieredFixture().cluster(testConfig(), KIP, 2, []int{0, 1}, true)
	c.Advance()
	b := c.Brokers[1]
	b.fetch.query = &TierQuery{Err: ErrOffsetMovedToTieredStorage, LogEnd: 7}
	b.fetch.query.setAnswer(ListEarliest, 3, 1)
	spare := c.Clone()
	old := spare.Brokers[1].fetch.query
	n := c.CloneInto(spare)
	q := n.Brokers[1].fetch.query
	if q != old {
		t.Errorf("the copy's query is a new one, not the dropped cluster's")
	}
	if q == b.fetch.query || *q != *b.fetch.query {
		t.Fatalf("the copy's query %+v is the original's %p or differs from it", *q, b.fetch.query)
	}
	q.setAnswer(ListEarliest, 5, 2)
	if off, _, _ := b.fetch.query.Answer(ListEarliest); off != 3 {
		t.Errorf("the copy's answer changed the original's to %d", off)
	}
}
