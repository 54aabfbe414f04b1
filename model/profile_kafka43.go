package model

// Kafka43 is the profile that follows Apache Kafka 4.3.0's broker code where
// it differs from the KIP text (docs/design/protocol.md, "Behaviour
// profiles"): the leader's -6
// answer (UnifiedLog.fetchEarliestPendingUploadOffset and ReplicaManager),
// the follower's requests and decision (AbstractFetcherThread), the
// auxiliary-state build (TierStateMachine) and the RLM tasks (no copy task
// when copying is disabled).
var Kafka43 Profile = kafka43Profile{}

type kafka43Profile struct{}

func (kafka43Profile) Name() string { return "kafka-4.3" }

// EarliestPendingUploadOffset: tiering off → -1; HRO unknown → the log
// start offset if nothing is tiered (LLSO == LSO), else -1; otherwise
// max(HRO+1, LSO), with no LLSO floor. ReplicaManager then answers -1 for an
// offset at or beyond the last fetchable offset, which for a replica is the
// LEO: a fully tiered idle partition looks "unknown". FixIdleFullyTieredStall
// answers an offset equal to the LEO; only one beyond it is unfetchable.
func (kafka43Profile) EarliestPendingUploadOffset(c *Cluster, b *Broker) int64 {
	l := &b.Log
	var o int64
	switch {
	case !c.Tiered():
		return -1
	case b.HighestRemote < 0 && l.LocalLogStartOffset() == l.LogStart:
		o = l.LogStart
	case b.HighestRemote < 0:
		return -1
	default:
		o = max(b.HighestRemote+1, l.LogStart)
	}
	if o > l.LogEnd || o == l.LogEnd && !c.Cfg.Fixes.Has(FixIdleFullyTieredStall) {
		return -1
	}
	return o
}

// AuxStateTrivial: TierStateMachine always needs the remote segment holding
// start-1, even when start is the leader's log start offset.
func (kafka43Profile) AuxStateTrivial(start, leaderLogStart int64) bool { return false }

// AskPreviousEpoch: TierStateMachine asks for epoch-1 whenever the start's
// epoch is not 0, even when it is unknown (-1).
func (kafka43Profile) AskPreviousEpoch(epoch int32) bool { return epoch != 0 }

// SeedWhenCopyDisabled: with remote.log.copy.disable there is no copy task,
// so nothing seeds HRO (the expiration task does on the 4.3 branch since KAFKA-20732, unreleased).
func (kafka43Profile) SeedWhenCopyDisabled() bool { return false }

// ExpirationSeedsHighestRemote: 4.3.0 and 4.3.1's expiration task never
// touches HRO (KAFKA-20732 is merged to the 4.3 branch, unreleased).
func (kafka43Profile) ExpirationSeedsHighestRemote() bool { return false }

// CopyLag: KIP-1241 is not in 4.3 (it reached trunk after the 4.3 branch).
func (kafka43Profile) CopyLag() bool { return false }

// ProbeLatestAfterAux: TierStateMachine.start asks the leader's LEO (-1) to
// compute the lag before the follower fetches.
func (kafka43Profile) ProbeLatestAfterAux() bool { return true }

// Decide follows AbstractFetcherThread: ask -1 first; an eligible follower
// (flag on, tiered and not compacted, LEO exactly 0, leader LEO not 0) asks
// -2 then -6, and on -6 = -1 asks -4, using it only if it equals the log
// start offset (else fail and retry); the -6 answer is used as is.
// Otherwise KIP-405's rules, with -1, -2, -4 asked in that order on OMTS.
func (kafka43Profile) Decide(q *TierQuery) Decision {
	leo, _, ok := q.Answer(ListLatest)
	if !ok {
		return ask(ListLatest)
	}
	if q.LastTiered && q.Tiered && !q.Compacted && q.LogEnd == 0 && leo != 0 {
		lso, epuo, epuoEpoch, pending, asking := askLogStartAndEPUO(q)
		switch {
		case asking:
			return pending
		case epuo < 0:
			return decideEPUOUnknown(q, lso)
		}
		return Decision{Kind: DecideBuildAux, Offset: epuo, Epoch: epuoEpoch, LogStart: lso, Path: PathEarliestPendingUpload}
	}
	if q.Err == ErrOffsetMovedToTieredStorage {
		return decideOMTS(q, ListEarliest, ListEarliestLocal)
	}
	return decideLocalLogStart(q)
}
