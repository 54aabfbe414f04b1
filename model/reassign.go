package model

import (
	"fmt"
	"slices"
)

// Partition reassignment, as Kafka's KRaft controller runs it (metadata
// module, @1eb7644349cb): ReplicationControlManager.changePartitionReassignment
// (ReplicationControlManager.java:2095-2126) and its stages (2067-2086), the
// sets of PartitionReassignmentReplicas (PartitionReassignmentReplicas.java:53-63)
// and their completion (maybeCompleteReassignment, 97-130), which
// PartitionChangeBuilder.build applies to every partition change
// (completeReassignmentIfNeeded, PartitionChangeBuilder.java:410-429, 436).

// reassign starts moving the partition to target (distinct brokers, the
// first preferred): the replicas it adds are assigned at once and
// bootstrap as added replicas do; the ones it removes stay until every
// target replica is in the ISR (maybeCompleteReassignment). The controller
// takes one reassignment at a time here: Kafka would replace one in
// progress, the model refuses the second (scenarios name each partition's
// move once).
func (c *Cluster) reassign(target []int) error {
	ctl := &c.Ctrl
	for i, r := range target {
		if r < 0 || r >= len(c.Brokers) || slices.Contains(target[:i], r) {
			panic(fmt.Sprintf("model: reassign to %v of %d brokers (scenarios validate it)", target, len(c.Brokers)))
		}
	}
	if len(target) == 0 {
		panic("model: reassign to no replicas (scenarios validate it)")
	}
	if ctl.Reassigning() {
		return fmt.Errorf("a reassignment to %v is in progress", ctl.Target())
	}
	// The sets are TreeSets (PartitionReassignmentReplicas.java:47-51): sorted.
	adding := slices.DeleteFunc(slices.Clone(target), ctl.IsReplica)
	removing := slices.DeleteFunc(slices.Clone(ctl.Replicas), func(r int) bool { return slices.Contains(target, r) })
	slices.Sort(adding)
	slices.Sort(removing)
	e := ev(EvReassignStart)
	e.Brokers = slices.Clone(target)
	c.emit(e)
	for _, r := range adding {
		if err := c.addReplica(r); err != nil {
			panic(fmt.Sprintf("model: reassign adds b%d: %v", r, err))
		}
	}
	// The replicas while it runs: the target, then those it removes (:61-62).
	ctl.Replicas = append(slices.Clone(target), removing...)
	ctl.Adding, ctl.Removing = slices.Clip(adding), slices.Clip(removing)
	c.maybeCompleteReassignment()
	return nil
}

// maybeCompleteReassignment completes a reassignment in progress once the
// ISR without the replicas it removes holds every target replica
// (maybeCompleteReassignment, PartitionReassignmentReplicas.java:97-130):
// the replicas become the target, the removed ones leave the ISR and are
// deleted from their brokers (ReplicaManager.applyDelta's deletes,
// ReplicaManager.scala:2903-2914, StopPartition with deleteLocalLog,
// stopPartitions 632-680 @1eb7644349cb). A removed leader gives way to the
// first target replica in the ISR (electAnyLeader,
// PartitionChangeBuilder.java:261-272); a leader that stays takes a new
// epoch, since the replicas lost members
// (triggerLeaderEpochBumpForReplicaReassignmentIfNeeded, 369-379), which
// fences the removed replicas' fetches in flight.
func (c *Cluster) maybeCompleteReassignment() {
	ctl := &c.Ctrl
	if !ctl.Reassigning() {
		return
	}
	removing := ctl.Removing
	gone := func(r int) bool { return slices.Contains(removing, r) }
	isr := slices.DeleteFunc(slices.Clone(ctl.ISR), gone)
	target := ctl.Target()
	if len(removing) > 0 && len(isr) == 0 {
		return
	}
	for _, r := range target {
		if !slices.Contains(isr, r) {
			return
		}
	}
	ctl.Replicas, ctl.Adding, ctl.Removing = slices.Clone(target), nil, nil
	if len(isr) != len(ctl.ISR) {
		c.changeISR(isr, -1)
	}
	e := ev(EvReassignDone)
	e.Brokers = slices.Clone(ctl.Replicas)
	c.emit(e)
	for _, r := range removing {
		c.removeReplica(r)
	}
	switch {
	case len(removing) == 0:
	case ctl.Leader >= 0 && gone(ctl.Leader):
		ctl.Leader = -1
		id, how := c.electAnyLeader(func(r int) bool { return c.Brokers[r].Up })
		if !c.tryElection(id, how) {
			panic(fmt.Sprintf("model: no leader among the reassigned replicas %v, ISR %v", ctl.Replicas, ctl.ISR))
		}
	case ctl.Leader >= 0:
		c.bumpLeaderEpoch()
	}
}

// removeReplica deletes broker id's replica, which a completed
// reassignment removed: its fetcher and leader tasks stop and its log is
// deleted; the broker stays up.
func (c *Cluster) removeReplica(id int) {
	b := c.Brokers[id]
	if !b.Up {
		b.Log, b.HighestRemote, b.InSyncEpoch = NewLog(0), -1, -1
		return
	}
	c.resignLeadership(b)
	c.stopFetcher(b)
	c.cancelAllTimers(b)
	b.Role, b.Leader = RoleNone, -1
	b.Log, b.HighestRemote, b.InSyncEpoch = NewLog(0), -1, -1
	b.fetch.bootstrapping = false
}

// bumpLeaderEpoch gives the leader a new epoch (it stays the leader): it
// takes the leadership again and every live replica follows it in the new
// epoch (Partition.makeLeader with isNewLeaderEpoch, Partition.scala:779-809).
func (c *Cluster) bumpLeaderEpoch() {
	ctl := &c.Ctrl
	l := c.Brokers[ctl.Leader]
	if ctl.LeaderEpoch == 1<<31-1 {
		panic(fmt.Sprintf("model: leader epoch %d would wrap at b%d's epoch bump (scenarios bound it)", ctl.LeaderEpoch, l.ID))
	}
	ctl.LeaderEpoch++
	c.resignLeadership(l)
	c.becomeLeader(l)
	for _, r := range ctl.Replicas {
		if r != l.ID && c.Brokers[r].Up {
			c.becomeFollower(c.Brokers[r])
		}
	}
}
