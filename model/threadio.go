package model

import (
	"fmt"

	"tierfetch/sim"
)

// A fetcher thread's fetch on its leader, its delayed fetch and its answer
// on the follower (Fleets of more than one partition; thread.go).

// emit records a fleet-level event (a thread's, or an input of no
// partition) in the outbox.
func (f *Fleet) emit(e Event) {
	if kinds[e.Kind].input && len(f.out.events) != 0 {
		panic(fmt.Sprintf("model: input event %s after %d events of its step", e.Kind, len(f.out.events)))
	}
	f.out.events = append(f.out.events, e)
}

// send sends a thread's fetch or its answer.
func (f *Fleet) send(m Message) {
	f.out.effects = append(f.out.effects, Effect{Kind: EffSend, Msg: m})
	e := brokerEv(EvSend, m.From)
	e.Peer, e.Msg, e.Part, e.Fetcher = m.To, m, -1, m.Fetcher
	f.emit(e)
}

// setTimer arms a thread's timer k.
func (f *Fleet) setTimer(k TimerKey, d sim.Duration) {
	f.out.effects = append(f.out.effects, Effect{Kind: EffSetTimer, Timer: k, After: d})
}

// cancelTimer cancels a thread's timer k.
func (f *Fleet) cancelTimer(k TimerKey) {
	f.out.effects = append(f.out.effects, Effect{Kind: EffCancelTimer, Timer: k})
}

// up reports whether broker b is up.
func (f *Fleet) up(b int) bool { return f.Parts[0].Brokers[b].Up }

// threadOf returns the thread of follower b fetching from leader with
// fetcher id fid, nil if there is none.
func (f *Fleet) threadOf(b, leader, fid int) *fetcherThread {
	if f.threadIx == nil {
		return nil
	}
	i := f.threadIx[(b*f.brokers()+leader)*f.fetchers()+fid]
	if i == 0 {
		return nil
	}
	return f.threads[i-1]
}

// stepThread takes an input of no partition that is a thread's: its fetch
// or answer arriving, or its timer firing.
func (f *Fleet) stepThread(in *Input) {
	switch in.Kind {
	case EvDeliver:
		m := &in.Msg
		e := brokerEv(EvDeliver, m.To)
		e.Peer, e.Msg, e.Part, e.Fetcher = m.From, *m, -1, m.Fetcher
		f.emit(e)
		if !f.up(m.To) {
			d := brokerEv(EvDropped, m.To)
			d.Peer, d.Msg, d.Cause, d.Part, d.Fetcher = m.From, *m, DropReceiverDown, -1, m.Fetcher
			f.emit(d)
			return
		}
		if m.Kind == MsgFetch {
			f.handleThreadFetch(m)
		} else {
			f.onThreadAnswer(m)
		}
	case EvTimer:
		k := in.Timer
		e := brokerEv(EvTimer, k.Broker)
		e.Timer, e.Peer, e.Part, e.Fetcher = k.Kind, k.Peer, -1, k.Fetcher
		f.emit(e)
		if !f.up(k.Broker) {
			return
		}
		if k.Kind == TimerISRExpire || k.Kind == TimerRetention {
			f.onBrokerTick(k)
			return
		}
		if k.Kind == TimerParkedFetch {
			if t := f.threadOf(k.Peer, k.Broker, int(k.Fetcher)); t != nil && t.isParked {
				f.answerParked(t)
			}
			return
		}
		switch t := f.threadOf(k.Broker, k.Peer, int(k.Fetcher)); {
		case t != nil && k.Kind == TimerRequest:
			f.onThreadTimeout(t)
		case t != nil && k.Kind == TimerFetchBackoff: // it waited for its throttled partitions
			f.mark(t)
		}
	default:
		panic(fmt.Sprintf("model: Fleet.Step(%s) of no partition is not a thread's", in.Kind))
	}
}

// handleThreadFetch takes a thread's fetch on its leader into the
// thread's session, reads the session and answers now, or parks the fetch
// until records arrive (delayed fetch).
func (f *Fleet) handleThreadFetch(m *Message) {
	t := f.threadFor(threadKey{m.From, m.To, int(m.Fetcher)})
	if !f.applyRequest(t, m) {
		return
	}
	resp, now := f.readSession(t, m, true)
	wait := f.Parts[0].Cfg.ReplicaFetchWaitMax
	if now || wait <= 0 {
		f.finishRead(t, true)
		f.recordLeader(&resp)
		f.send(resp)
		return
	}
	f.finishRead(t, false)
	t.parked, t.isParked = *m, true
	f.setTimer(t.timer(TimerParkedFetch, m.To, m.From), wait)
}

// answerParked completes thread t's parked fetch: its session is read
// again without recording the fetch (DelayedFetch.onComplete).
func (f *Fleet) answerParked(t *fetcherThread) {
	m := t.parked
	t.parked, t.isParked = Message{}, false
	resp, _ := f.readSession(t, &m, false)
	f.finishRead(t, true)
	f.recordLeader(&resp)
	f.send(resp)
}

// wakeParked completes the parked fetches on leader b whose session holds
// partition p and that now have enough to answer (DelayedFetch.tryComplete
// after a produce).
func (f *Fleet) wakeParked(p PartID, b int) {
	if !f.sessions {
		return
	}
	f.noteLeader(p)
	for i := 0; i < len(f.pf[p].sessOf); i++ {
		t := f.threads[f.pf[p].sessOf[i].thread]
		if !t.isParked || t.key.leader != b {
			continue
		}
		_, due := f.readSession(t, &t.parked, false)
		f.finishRead(t, false)
		if due {
			f.cancelTimer(t.timer(TimerParkedFetch, b, t.key.follower))
			f.answerParked(t)
		}
	}
}

// onThreadAnswer takes a thread's answer: dropped unless it answers the
// request in flight; otherwise its parts are held and processed (settle).
func (f *Fleet) onThreadAnswer(m *Message) {
	t := f.threadOf(m.To, m.From, int(m.Fetcher))
	if t == nil || t.inflight == 0 || m.ReqID != t.inflight {
		return
	}
	f.cancelTimer(t.timer(TimerRequest, t.key.follower, t.key.leader))
	t.inflight, t.held, t.heldReq = 0, m.Parts, m.ReqID
	f.mark(t)
}

// onThreadTimeout gives up on the thread's request in flight: every
// partition of its session backs off (AbstractFetcherThread: a fetch that
// throws puts every partition in partitionsWithError), and the next
// request starts a new session (FetchSessionHandler.handleError).
func (f *Fleet) onThreadTimeout(t *fetcherThread) {
	if t.inflight == 0 {
		return
	}
	t.inflight, t.sess.full = 0, true
	for _, p := range f.orderOf(t) {
		b := f.Parts[p].Brokers[t.key.follower]
		if b.fetch.phase == phaseThread && b.fetch.reqID != 0 {
			f.at(p, t.key.follower, t.key.leader).backoff(b, RetryTimeout)
		}
	}
	f.mark(t)
}

// brokerDown forgets what crashed broker b's threads, parked fetches and
// fetch sessions held: its partitions left their threads as each stopped
// its fetcher, and its threads and those fetching from it start new
// sessions.
func (f *Fleet) brokerDown(b int) {
	for _, t := range f.threads {
		if t.key.follower == b {
			if t.inflight != 0 {
				f.cancelTimer(t.timer(TimerRequest, b, t.key.leader))
			}
			t.inflight, t.held, t.heldReq, t.sess.full = 0, nil, 0, true
			if t.blockedOn >= 0 {
				f.unblock(t)
			}
		}
		if t.key.leader == b {
			if t.isParked {
				f.cancelTimer(t.timer(TimerParkedFetch, b, t.key.follower))
				t.parked, t.isParked = Message{}, false
			}
			f.dropSession(t)
			t.sess.full = true
		}
	}
}
