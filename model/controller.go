package model

import (
	"fmt"
	"math"
	"slices"
)

// addReplica assigns an empty replica of the partition to broker id
// (reassignment); it starts fetching from the leader at once.
func (c *Cluster) addReplica(id int) error {
	b := c.Brokers[id]
	if c.Ctrl.IsReplica(id) {
		return fmt.Errorf("b%d is already a replica", id)
	}
	c.Ctrl.Replicas = append(c.Ctrl.Replicas, id)
	b.Log = NewLog(0)
	b.HighestRemote = -1
	b.MetadataReadyAt = c.Now.Add(c.Cfg.RemoteMetadataReady)
	c.catchUp(b)
	b.fetch.bootstrapping, b.fetch.path = true, PathFromZero
	if b.Up && c.Ctrl.Leader >= 0 {
		c.becomeFollower(b)
	}
	return nil
}

// electLeader makes broker id the leader. A clean election needs id alive
// and in the ISR, or in the ELR when the ISR is empty (KIP-966); an unclean
// one (any live replica) needs unclean.leader.election.enable. It returns
// why it refused.
func (c *Cluster) electLeader(id int) error {
	b := c.Brokers[id]
	clean := c.Ctrl.InISR(id) || len(c.Ctrl.ISR) == 0 && slices.Contains(c.Ctrl.ELR, id)
	switch {
	case !c.Ctrl.IsReplica(id):
		return fmt.Errorf("b%d is not a replica", id)
	case !b.Up:
		return fmt.Errorf("b%d is down", id)
	case c.Ctrl.Leader == id:
		return fmt.Errorf("b%d is already the leader", id)
	case !clean && !c.Cfg.UncleanLeaderElectionEnable:
		return fmt.Errorf("b%d is not in the ISR %v", id, c.Ctrl.ISR)
	}
	if err := c.epochRoom(); err != nil {
		return err
	}
	how := electUnclean
	if clean {
		how = electClean
	}
	c.tryElection(id, how)
	return nil
}

// epochRoom refuses an election, or a fault that would force one, when the
// leader epoch is at its maximum. Scenario events and the heal never meet
// it (scenarios leave one epoch for each); the faults an explore schedule
// or search injects may, and are then skipped with this reason.
func (c *Cluster) epochRoom() error {
	if c.Ctrl.LeaderEpoch == math.MaxInt32 {
		return fmt.Errorf("the leader epoch is at its maximum (%d): no further election", c.Ctrl.LeaderEpoch)
	}
	return nil
}

// elect installs id as leader with a new epoch and tells every live replica.
func (c *Cluster) elect(id int) {
	if !c.Brokers[id].Up || !c.Ctrl.IsReplica(id) || c.Ctrl.Leader == id {
		panic(fmt.Sprintf("model: elect b%d (up %v, replica %v); the leader is b%d", id, c.Brokers[id].Up, c.Ctrl.IsReplica(id), c.Ctrl.Leader))
	}
	if !c.Ctrl.InISR(id) {
		c.Ctrl.ISR = []int{id}
		c.Ctrl.Unclean++
		c.emit(brokerEv(EvUncleanElection, id))
	}
	if c.Ctrl.LeaderEpoch == math.MaxInt32 {
		panic(fmt.Sprintf("model: leader epoch %d would wrap at the election of b%d (scenarios bound it)", c.Ctrl.LeaderEpoch, id))
	}
	c.Ctrl.Leader = id
	c.Ctrl.LeaderEpoch++
	c.becomeLeader(c.Brokers[id])
	for _, r := range c.Ctrl.Replicas {
		if r != id && c.Brokers[r].Up {
			c.becomeFollower(c.Brokers[r])
		}
	}
}

// crash stops broker id: its memory (HRO, fetcher, leader state, metadata
// readiness) is lost, its disk (the log) is kept. The controller fences it:
// it leaves the ISR, and a new leader is elected if it led (fence).
func (c *Cluster) crash(id int) error {
	b := c.Brokers[id]
	if !b.Up {
		return fmt.Errorf("b%d is already down", id)
	}
	if c.Ctrl.Leader == id {
		if err := c.epochRoom(); err != nil {
			return fmt.Errorf("b%d leads and %v after its crash", id, err)
		}
	}
	c.resignLeadership(b)
	c.stopFetcher(b)
	c.cancelAllTimers(b)
	b.Up, b.Role, b.Leader = false, RoleNone, -1
	b.Incarnation++
	b.HighestRemote = -1
	b.MetadataReadyAt = 0
	b.copyOp, b.copySeg, b.copyBase, b.copyEnd, b.cancelledCopies, b.deleteOps = 0, 0, 0, 0, nil, nil
	c.catchUp(b)
	if !c.Ctrl.IsReplica(id) {
		return nil
	}
	c.fence(id)
	return nil
}

func (c *Cluster) cancelAllTimers(b *Broker) {
	for k := TimerKind(0); k < NumTimerKinds; k++ {
		if k == TimerParkedFetch {
			for p := range c.Brokers {
				c.cancelTimer(b, k, p)
			}
			continue
		}
		c.cancelTimer(b, k, 0)
	}
}

// restart brings broker id back with the log it had on disk, after an
// unclean shutdown: the controller takes it out of the ISR and the ELR, and
// it leads if the partition is offline and it may be elected
// (registerAfterUncleanShutdown); otherwise it follows.
func (c *Cluster) restart(id int) error {
	b := c.Brokers[id]
	if b.Up {
		return fmt.Errorf("b%d is already up", id)
	}
	ctl := &c.Ctrl
	if ctl.IsReplica(id) && ctl.Leader < 0 && (ctl.InISR(id) || slices.Contains(ctl.ELR, id) || ctl.LastKnownLeader == id ||
		c.Cfg.UncleanLeaderElectionEnable) {
		if err := c.epochRoom(); err != nil {
			return fmt.Errorf("b%d would lead the offline partition, but %v", id, err)
		}
	}
	b.Up = true
	b.MetadataReadyAt = c.Now.Add(c.Cfg.RemoteMetadataReady)
	c.catchUp(b)
	// A log loaded again knows its local log start offset anew; with remote
	// storage disabled it starts there (UnifiedLog.java:232-234 @004b2276).
	b.Log.localStartLag = 0
	if !c.Tiered() && b.Log.LogStart < b.Log.LocalLogStart {
		b.Log.IncrementLogStartUntiered(b.Log.LocalLogStart)
		e := brokerEv(EvLoadLog, b.ID)
		e.LogStart = b.Log.LogStart
		c.emit(e)
	}
	if !c.Ctrl.IsReplica(id) {
		return nil
	}
	if c.registerAfterUncleanShutdown(id) {
		return nil
	}
	if c.Ctrl.Leader >= 0 {
		c.becomeFollower(b)
	}
	return nil
}

// replaceBroker replaces broker id's disk: it crashes (if up), loses its
// log, and restarts empty, so every replica it holds is re-added and
// bootstraps as an added replica does. An empty log must not lead: the
// crash fences it out of the ISR even as its last member, and it leaves
// the ELR and stops being the last known leader, so the partition stays
// offline rather than elect it (KRaft's unclean-shutdown handling of a
// broker that comes back, with the new disk's empty log).
func (c *Cluster) replaceBroker(id int) error {
	b := c.Brokers[id]
	if b.Up {
		if err := c.crash(id); err != nil {
			return err
		}
	}
	if c.Ctrl.IsReplica(id) {
		ctl := &c.Ctrl
		ctl.ELR = slices.DeleteFunc(slices.Clone(ctl.ELR), func(r int) bool { return r == id })
		if ctl.LastKnownLeader == id {
			ctl.LastKnownLeader = -1
		}
		b.Log = NewLog(0)
		b.HighestRemote, b.InSyncEpoch = -1, -1
		b.fetch.bootstrapping, b.fetch.path = true, PathFromZero
	}
	return c.restart(id)
}

// deleteRecords raises the leader's log start offset to before (at most HW).
func (c *Cluster) deleteRecords(before int64) error {
	b := c.Leader()
	if b == nil {
		return fmt.Errorf("partition offline")
	}
	if !c.incrementLogStart(&b.Log, before) {
		return fmt.Errorf("log start offset already %d", b.Log.LogStart)
	}
	e := brokerEv(EvDeleteRecordsDone, b.ID)
	e.Log = OffsetsOf(&b.Log)
	c.emit(e)
	return nil
}

// remoteOutage fails every remote operation that completes before until.
func (c *Cluster) remoteOutage(untilUs int64) {
	c.Remote.OutageUntilUs = max(c.Remote.OutageUntilUs, untilUs)
}

// consume reads from offset from up to HW on the leader: what it read, and
// how many bytes came from the leader's disk and how many from remote
// storage, is its EvConsumed.
func (c *Cluster) consume(from int64) error {
	b := c.Leader()
	if b == nil {
		return fmt.Errorf("partition offline")
	}
	l := &b.Log
	e := brokerEv(EvConsumed, b.ID)
	e.Offset, e.End = max(from, l.LogStart), l.HighWatermark
	if e.Offset < l.HighWatermark {
		if remoteEnd := min(l.LocalLogStart, l.HighWatermark); e.Offset < remoteEnd {
			e.RemoteBytes = (remoteEnd - e.Offset) * c.Cfg.RecordBytes
		}
		e.Bytes = (l.HighWatermark - max(e.Offset, l.LocalLogStart)) * c.Cfg.RecordBytes
	}
	c.emit(e)
	return nil
}
