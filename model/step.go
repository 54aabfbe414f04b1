package model

import (
	"fmt"
	"slices"

	"tierfetch/sim"
)

// The contract between a Cluster and what drives it (etcd raft's RawNode:
// Step, Ready, Advance). Inputs go in through Step, one at a time, at a
// virtual time that never goes back. The model records the input as the
// step's first event, then what it did as further events and what it asks
// of the environment as effects (messages to send, timers to set or
// cancel, remote operations to start); both wait in the outbox. The caller
// takes them with Ready, records the events, schedules the effects, and
// acknowledges them with Advance before the next Step. The caller writes
// no field of the model: time, the remote outage and the heal come in as
// inputs.
//
// The outbox is held by pointer so that clusters can share one and their
// events keep the order they happened in: a Fleet of partitions hands all
// its clusters its own outbox, and its Ready is theirs.

// Input is one input to a Cluster: a message arriving, a timer firing, a
// remote operation completing, or an exogenous event of the scenario. Kind
// is the input event kind it is recorded as; each field says the kinds
// that read it.
type Input struct {
	Kind EventKind
	// Part is the partition the input is for, in a Fleet of more than one
	// (its index; a Fleet of one routes every input to its partition); -1:
	// every partition, or those of Only.
	Part   PartID
	Only   []PartID
	Broker int // EvAddReplica, EvElectLeader, EvCrash, EvRestart; EvSetConfig (-1: all brokers)
	// Brokers: EvReassign's target replicas, in order.
	Brokers []int
	Msg     Message  // EvDeliver
	Timer   TimerKey // EvTimer
	Op      RemoteOp // EvRemoteDone
	// Failed: the environment failed the remote operation (EvRemoteDone;
	// an outage fails it too).
	Failed bool
	// Count is the records of a produce event as a whole (EvProduce),
	// Records those appended now as one batch (EvProduce: its first chunk;
	// EvProduceChunk), by workload producer Producer.
	Count, Records int64
	Producer       int
	Ms             int64  // EvProduce: the time its records are spread over; EvRemoteOutage: its duration
	Offset         int64  // EvDeleteRecords: the offset deleted before; EvConsume: the offset read from
	Key            string // EvSetConfig: the key; Bool: it is boolean (On its value), else Value
	Bool, On       bool
	Value          int64
}

// Ready is what the steps since the last Advance did: the events, each
// step's input first, and the effects, each in order.
type Ready struct {
	Events  []Event
	Effects []Effect
}

// outbox holds a step's events and effects until the caller acknowledges
// them.
type outbox struct {
	events  []Event
	effects []Effect
}

// Ready returns the events and effects waiting since the last Advance (a
// new cluster's are those of its initial state). They are valid until
// Advance.
func (c *Cluster) Ready() Ready { return Ready{Events: c.out.events, Effects: c.out.effects} }

// Advance acknowledges the last Ready: the caller recorded its events and
// scheduled its effects. The outbox's arrays are reused (its events' slots
// are overwritten, not cleared: what they hold is never written again).
func (c *Cluster) Advance() { c.out.events, c.out.effects = c.out.events[:0], c.out.effects[:0] }

// Step takes one input at virtual time now: it records the input event,
// then handles the input. A scenario event the model refuses (an election
// of a broker outside the ISR, a crash of a broker already down) is
// followed by an EvSkipped saying why. The last Ready must have been
// acknowledged (Advance).
func (c *Cluster) Step(now sim.Time, in *Input) {
	if len(c.out.events) != 0 || len(c.out.effects) != 0 {
		panic(fmt.Sprintf("model: Step(%s) at %v with %d events and %d effects not acknowledged (Advance)",
			in.Kind, now, len(c.out.events), len(c.out.effects)))
	}
	if now < c.Now {
		panic(fmt.Sprintf("model: Step(%s) at %v, before the last step at %v", in.Kind, now, c.Now))
	}
	c.Now = now
	c.step(in)
}

// step is Step without the contract's checks: it records input in and
// handles it at c.Now. A caller that shares this cluster's outbox with
// others (a Fleet of partitions: one Ready for all) steps each cluster an
// input concerns through it, within one of its own steps, after setting
// their Now.
func (c *Cluster) step(in *Input) {
	switch in.Kind {
	case EvDeliver:
		c.stepDeliver(in)
	case EvTimer:
		e := brokerEv(EvTimer, in.Timer.Broker)
		e.Timer = in.Timer.Kind
		if in.Timer.Kind == TimerParkedFetch {
			e.Peer = in.Timer.Peer
		}
		c.emit(e)
		c.fire(in.Timer)
	case EvRemoteDone:
		c.stepRemoteDone(in)
	case EvProduce, EvProduceChunk:
		c.stepProduce(in)
	case EvAddReplica, EvElectLeader, EvCrash, EvRestart, EvReplaceBroker:
		c.emit(brokerEv(in.Kind, in.Broker))
		c.refused(c.stepBroker(in.Kind, in.Broker))
	case EvReassign:
		e := ev(EvReassign)
		e.Brokers = slices.Clone(in.Brokers)
		c.emit(e)
		c.refused(c.reassign(in.Brokers))
	case EvSetConfig:
		e := brokerEv(EvSetConfig, in.Broker)
		e.Key, e.Bool = in.Key, in.Bool
		if in.Bool {
			e.On = in.On
		} else {
			e.Value = in.Value
		}
		c.emit(e)
		c.refused(c.setConfig(in.Key, e.On, e.Value, in.Broker))
	default:
		c.stepEvent(in)
	}
	reassigning := c.Ctrl.Reassigning()
	c.maybeCompleteReassignment()
	if in.Kind == EvTimer && in.Timer.Kind == TimerRLMFollower && !reassigning && c.multi() {
		// The run wrote no fetcher (onRLMFollower), and every step that
		// writes one checks it (here or in Fleet.settle): checking every
		// broker's again would cost the run a cache miss or two per broker
		// at 10,000 partitions.
		return
	}
	for _, b := range c.Brokers {
		b.checkFetcher()
	}
}

// stepDeliver hands a message to its receiver.
func (c *Cluster) stepDeliver(in *Input) {
	e := brokerEv(EvDeliver, in.Msg.To)
	e.Peer, e.Msg = in.Msg.From, in.Msg
	c.emit(e)
	c.deliver(in.Msg)
}

// stepRemoteDone completes a remote operation: it fails when the
// environment failed it or remote storage is in an outage.
func (c *Cluster) stepRemoteDone(in *Input) {
	op := in.Op
	e := brokerEv(EvRemoteDone, op.Broker)
	e.Remote, e.Segment.ID, e.Op, e.Bytes = op.Kind, op.Segment, op.ID, op.Bytes
	e.Failed = in.Failed || int64(c.Now) < c.Remote.OutageUntilUs
	c.emit(e)
	c.remoteDone(op, e.Failed)
}

// stepProduce appends a batch of a produce event: its first (EvProduce,
// which records the whole event) or a later one.
func (c *Cluster) stepProduce(in *Input) {
	e := ev(in.Kind)
	if in.Kind == EvProduce {
		e.Count, e.Ms = in.Count, in.Ms
	} else {
		e.Count = in.Records
	}
	c.emit(e)
	if c.produce(in.Records, in.Producer) {
		return
	}
	if c.Leader() != nil && c.UnderMinISR() {
		c.refuse("NOT_ENOUGH_REPLICAS (ISR below min_insync_replicas), records dropped")
		return
	}
	c.refuse("partition offline, records dropped")
}

// stepBroker applies a scenario event about one broker.
func (c *Cluster) stepBroker(k EventKind, id int) error {
	switch k {
	case EvAddReplica:
		return c.addReplica(id)
	case EvElectLeader:
		return c.electLeader(id)
	case EvCrash:
		return c.crash(id)
	case EvReplaceBroker:
		return c.replaceBroker(id)
	}
	return c.restart(id)
}

// stepEvent applies a scenario event about the partition, or the heal.
func (c *Cluster) stepEvent(in *Input) {
	e := ev(in.Kind)
	switch in.Kind {
	case EvDeleteRecords:
		e.Offset = in.Offset
		c.emit(e)
		c.refused(c.deleteRecords(in.Offset))
	case EvConsume:
		e.Offset = in.Offset
		c.emit(e)
		c.refused(c.consume(in.Offset))
	case EvRemoteOutage:
		e.Ms = in.Ms
		c.emit(e)
		c.remoteOutage(int64(c.Now.Add(sim.Ms(in.Ms))))
	case EvHeal:
		c.emit(e)
		c.heal()
	default:
		panic(fmt.Sprintf("model: Step(%s): not an input the model takes (the environment records it)", in.Kind))
	}
}

// heal ends the fault phase: remote storage is back and every crashed
// replica restarts.
func (c *Cluster) heal() {
	c.Remote.OutageUntilUs = 0
	for _, b := range c.Brokers {
		if !b.Up && c.Ctrl.IsReplica(b.ID) {
			c.refused(c.restart(b.ID))
		}
	}
}

// refused records why the step's input did not happen, if it did not.
func (c *Cluster) refused(err error) {
	if err != nil {
		c.refuse(err.Error())
	}
}

// refuse records that the step's input did not happen, and why.
func (c *Cluster) refuse(why string) {
	e := ev(EvSkipped)
	e.Text = why
	c.emit(e)
}
