package model

import (
	"fmt"
	"slices"
)

// Elections and ISR changes as Kafka's KRaft controller makes them with
// eligible leader replicas on (KIP-966: the eligible.leader.replicas.version
// feature, level 1 from metadata version 4.0-IV1, so on in a 4.3 cluster).
// Cited from the 2024 apache/kafka snapshot, commit 1eb7644349cb
// (PartitionChangeBuilder.java, ReplicationControlManager.java,
// Partition.scala), whose election code matches the code index's
// PartitionChangeBuilder.java @04097f0c.
//
// Under every profile, kip included: KIP-405 and KIP-1023 say nothing of
// elections, so the controller of the Kafka they run on is the protocol.
// With min.insync.replicas 1, Kafka's default, a run elects the same
// leaders as before KIP-966; only the ISR shows the difference (empty
// while the partition is offline).

// effectiveMinISR is min.insync.replicas capped by the replication factor
// (ReplicationControlManager.getTopicEffectiveMinIsr, 2257-2263; the
// leader's Partition.effectiveMinIsr, Partition.scala:389-391).
func (c *Cluster) effectiveMinISR() int {
	return max(1, min(c.Cfg.MinInsyncReplicas, len(c.Ctrl.Replicas)))
}

// UnderMinISR reports whether the ISR is smaller than min.insync.replicas:
// the leader then refuses acks=all produce requests (NOT_ENOUGH_REPLICAS,
// Partition.appendRecordsToLeader, Partition.scala:1384-1387) and does not
// advance the high watermark (maybeIncrementLeaderHW, 1174-1178).
func (c *Cluster) UnderMinISR() bool { return len(c.Ctrl.ISR) < c.effectiveMinISR() }

// changeISR sets the ISR to isr (sorted) and keeps the ELR as
// PartitionChangeBuilder.maybePopulateTargetElr does (539-570): cleared
// while the ISR is at least min.insync.replicas; otherwise it gains the
// members the ISR loses, except a broker that shut down uncleanly
// (uncleanShutdown, -1: none). When the ISR becomes empty the leader of the
// moment is remembered as the last known leader (maybeUpdateLastKnownLeader,
// 496-507, with balanced recovery, the default: useLastKnownLeader...=true,
// 105).
func (c *Cluster) changeISR(isr []int, uncleanShutdown int) {
	ctl := &c.Ctrl
	for i, r := range isr {
		if i > 0 && isr[i-1] >= r || !ctl.IsReplica(r) {
			panic(fmt.Sprintf("model: ISR %v (replicas %v): not sorted, repeated or not a replica", isr, ctl.Replicas))
		}
	}
	if len(isr) >= c.effectiveMinISR() {
		ctl.ELR = nil
	} else {
		elr := slices.Clone(ctl.ELR)
		for _, r := range ctl.ISR {
			if !slices.Contains(elr, r) {
				elr = append(elr, r)
			}
		}
		elr = slices.DeleteFunc(elr, func(r int) bool { return slices.Contains(isr, r) || r == uncleanShutdown })
		slices.Sort(elr)
		ctl.ELR = slices.Clip(elr)
	}
	if len(isr) == 0 && len(ctl.ISR) > 0 && ctl.Leader >= 0 {
		ctl.LastKnownLeader = ctl.Leader
	}
	ctl.ISR = isr
}

// electionKind is how electAnyLeader chose a leader.
type electionKind uint8

const (
	electNone      electionKind = iota // no leader: the partition is offline
	electClean                         // from the ISR, or from the ELR when the ISR is empty
	electLastKnown                     // the last known leader, ISR and ELR empty: it holds every committed record
	electUnclean                       // any live replica (unclean.leader.election.enable)
)

// electAnyLeader chooses a leader as PartitionChangeBuilder.electAnyLeader
// does (261-289): a replica in the ISR, or in the ELR when the ISR is empty
// (isValidNewLeader, 322-326), that may lead; else the last known leader
// when ISR and ELR are empty (canElectLastKnownLeader, 291-320: alive or
// not, as Kafka elects it); else, with unclean elections enabled, any
// replica that may lead. ok says who may lead (alive, not being fenced).
func (c *Cluster) electAnyLeader(ok func(int) bool) (int, electionKind) {
	ctl := &c.Ctrl
	for _, r := range ctl.Replicas {
		if (ctl.InISR(r) || len(ctl.ISR) == 0 && slices.Contains(ctl.ELR, r)) && ok(r) {
			return r, electClean
		}
	}
	if len(ctl.ISR) == 0 && len(ctl.ELR) == 0 && ctl.LastKnownLeader >= 0 {
		return ctl.LastKnownLeader, electLastKnown
	}
	if c.Cfg.UncleanLeaderElectionEnable {
		for _, r := range ctl.Replicas {
			if ok(r) {
				return r, electUnclean
			}
		}
	}
	return -1, electNone
}

// tryElection installs the leader electAnyLeader chose (tryElection,
// 328-361): one from the ELR becomes the ISR alone and leaves the ELR; the
// last known leader and an unclean choice become the ISR alone and clear
// the ELR (maybeUpdateRecordElr, 509-537). A leader clears the last known
// leader. It reports whether a leader was elected; a last known leader
// that is down is elected when it comes back (Restart).
func (c *Cluster) tryElection(id int, how electionKind) bool {
	ctl := &c.Ctrl
	switch how {
	case electNone:
		return false
	case electLastKnown, electUnclean:
		ctl.ELR = nil
		if !c.Brokers[id].Up {
			return false
		}
		if how == electLastKnown {
			c.changeISR([]int{id}, -1)
		}
	case electClean:
		if !ctl.InISR(id) {
			ctl.ELR = slices.DeleteFunc(slices.Clone(ctl.ELR), func(r int) bool { return r == id })
			c.changeISR([]int{id}, -1)
		}
	}
	ctl.LastKnownLeader = -1
	c.elect(id)
	return true
}

// fence is the controller's handling of a broker that stopped
// heartbeating (handleBrokerFenced, ReplicationControlManager.java:1287):
// it leaves the ISR, even as its last member, and a new leader is elected
// if it led (generateLeaderAndIsrUpdates with brokerToRemove, 1888-1969).
func (c *Cluster) fence(id int) {
	ctl := &c.Ctrl
	if ctl.InISR(id) {
		c.changeISR(slices.DeleteFunc(slices.Clone(ctl.ISR), func(r int) bool { return r == id }), -1)
	}
	if ctl.Leader != id {
		return
	}
	ctl.Leader = -1
	if !c.tryElection(c.electAnyLeader(func(r int) bool { return r != id && c.Brokers[r].Up })) {
		e := ev(EvOffline)
		e.Brokers = slices.Clone(ctl.ELR)
		c.emit(e)
	}
}

// registerAfterUncleanShutdown is the controller's handling of a broker
// that comes back after a crash: registered with a new incarnation
// (ClusterControlManager.registerBroker, 431-433) it leaves the ISR and the
// ELR (handleBrokerUncleanShutdown, ReplicationControlManager.java:
// 1381-1387) and cannot lead in that change, though the last known leader
// can be itself; once unfenced it may lead a partition with no leader
// (handleBrokerUnfenced, 1338-1350). It reports whether a leader was
// elected.
func (c *Cluster) registerAfterUncleanShutdown(id int) bool {
	ctl := &c.Ctrl
	if ctl.InISR(id) || slices.Contains(ctl.ELR, id) {
		ctl.ELR = slices.DeleteFunc(slices.Clone(ctl.ELR), func(r int) bool { return r == id })
		c.changeISR(slices.DeleteFunc(slices.Clone(ctl.ISR), func(r int) bool { return r == id }), id)
		if ctl.Leader < 0 && c.tryElection(c.electAnyLeader(func(r int) bool { return r != id && c.Brokers[r].Up })) {
			return true
		}
	}
	if ctl.Leader >= 0 {
		return false
	}
	if ctl.LastKnownLeader == id && len(ctl.ISR) == 0 && len(ctl.ELR) == 0 {
		return c.tryElection(id, electLastKnown)
	}
	return c.tryElection(c.electAnyLeader(func(r int) bool { return c.Brokers[r].Up }))
}
