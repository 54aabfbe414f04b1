package model

// Replication quotas (KIP-73), in a Fleet of more than one partition. Line
// numbers @1eb7644349cb, under core/src/main/scala/kafka/server unless
// said.
//
// Each broker has one leader and one follower quota, not one a replica
// (ReplicationQuotaManager.scala:50-59, one sensor a type): a rate
// (leader.replication.throttled.rate, follower.replication.throttled.rate)
// and the partitions a topic config lists for this broker
// (leader/follower.replication.throttled.replicas, "partition:broker" or
// "*"; ConfigHandler.scala:150-162 keeps the pairs whose broker is the
// broker's own). isThrottled(tp) is whether the partition is listed
// (ReplicationQuotaManager.scala:100-105); isQuotaExceeded is whether the
// bytes recorded over the sampled window exceed the rate (:82-92).
//
//   - The follower leaves a partition out of its fetch request while
//     !isReplicaInSync && isThrottled && isQuotaExceeded
//     (RemoteLeaderEndPoint.scala:185, :234-236), isReplicaInSync being
//     its own view: its lag (the leader's high watermark minus its own log
//     end, after the last answer) is known and 0 (AbstractFetcherThread.scala:362-370,
//     :962); an answer with no records keeps the lag it had, unless it
//     was unknown (:366; tookPart). A thread with nothing to send waits
//     replica.fetch.backoff.ms
//     (AbstractFetcherThread.scala:121-123).
//     It records the records of every throttled partition it appends, in
//     sync or not (ReplicaFetcherThread.scala:142-145).
//   - The leader answers a partition with no records when the fetching
//     replica is not in the partition's ISR && isThrottled &&
//     isQuotaExceeded (ReplicaManager.scala:1788-1791, :2040-2043), after
//     reading it (a throttled partition takes no room in the answer, and a
//     delayed fetch does not count its bytes, DelayedFetch.scala:105-110);
//     it records the records of every throttled partition of each answer
//     it sends (KafkaApis.scala:979-983, sizeOfThrottledPartitions).
//
// The rate is Kafka's SimpleRate over replication.quota.window.num (11)
// samples of replication.quota.window.size.seconds (1 s) (QuotaConfig.java
// defaults; ReplicationQuotaManager.scala:163-175): see replicationQuota.
//
// Simplifications: the lists are a partition's (its partitions entry's
// config; Kafka keeps one list a topic); the quota sensor never expires
// after an hour without use (it would restart empty, as the purged samples
// do); the follower's lag is forgotten (not in sync) when the partition
// joins a thread and kept through a bootstrap or an out-of-range reset,
// where Kafka sets it to the leader's log end less the new fetch offset
// (core/src/main/java/kafka/server/TierStateMachine.java:120-125,
// AbstractFetcherThread.scala:658, :698): a follower a reset leaves at
// the leader's end may be throttled until its next answer.

import "slices"

// Kafka's replication quota window (QuotaConfig.java:45, :55, :110, :114:
// 11 samples of 1 s).
const (
	quotaWindowMs = 1000
	quotaSamples  = 11
)

// Throttled is one side's throttled replicas of a partition: the brokers
// whose replica of it the list names ("partition:broker" pairs), or all of
// them ("*").
type Throttled struct {
	All     bool
	Brokers []int
}

// has reports whether broker b's replica is listed.
func (t *Throttled) has(b int) bool { return t.All || slices.Contains(t.Brokers, b) }

// empty reports whether the list names no replica.
func (t *Throttled) empty() bool { return !t.All && len(t.Brokers) == 0 }

// quotaSample is one of a SampledStat's samples (SampledStat.java Sample).
type quotaSample struct {
	start, last int64 // ms
	value       int64 // bytes
}

// replicationQuota is one broker's leader or follower quota: Kafka's
// SimpleRate over quotaSamples windows of quotaWindowMs
// (clients/src/main/java/org/apache/kafka/common/metrics/stats/SampledStat.java:48-121,
// Rate.java:65-68, SimpleRate.java:34-38; Quota.java:48-50). Samples are
// made on first use; a record goes into the current sample, or a new one
// once the current is a window old (a ring of quotaSamples+1, the oldest
// reused); a sample whose last record is quotaSamples windows old is
// reset to start now when measured; the rate is the samples' sum over
// max(now - oldest start, one window); the quota is exceeded when the rate
// is above the bound.
type replicationQuota struct {
	rate    int64 // bytes/s
	samples []quotaSample
	cur     int
}

// current returns the current sample, made at now when there is none.
func (q *replicationQuota) current(now int64) *quotaSample {
	if len(q.samples) == 0 {
		q.samples = append(q.samples, quotaSample{start: now, last: now})
	}
	return &q.samples[q.cur]
}

// record adds bytes recorded at now (SampledStat.record).
func (q *replicationQuota) record(now, bytes int64) {
	s := q.current(now)
	if now-s.start >= quotaWindowMs {
		q.cur = (q.cur + 1) % (quotaSamples + 1)
		if q.cur >= len(q.samples) {
			q.samples = append(q.samples, quotaSample{start: now, last: now})
		} else {
			q.samples[q.cur] = quotaSample{start: now, last: now}
		}
		s = &q.samples[q.cur]
	}
	s.value += bytes
	s.last = now
}

// purge resets the samples with no record for quotaSamples windows
// (SampledStat.purgeObsoleteSamples).
func (q *replicationQuota) purge(now int64) {
	for i := range q.samples {
		if now-q.samples[i].last >= quotaSamples*quotaWindowMs {
			q.samples[i] = quotaSample{start: now, last: now}
		}
	}
}

// exceeded reports whether the rate measured at now is above the bound
// (Sensor.checkQuotas, as isQuotaExceeded asks it).
func (q *replicationQuota) exceeded(now int64) bool {
	q.purge(now)
	var sum int64
	for _, s := range q.samples {
		sum += s.value
	}
	oldest := q.current(now).start
	for _, s := range q.samples {
		oldest = min(oldest, s.start)
	}
	window := max(now-oldest, quotaWindowMs)
	return float64(sum)/(float64(window)/1000) > float64(q.rate)
}

// quotas are a Fleet's replication quotas: nil when no rate is set or no
// partition lists a replica (nothing is then recorded or checked).
type quotas struct {
	// leader and follower are each broker's quotas (nil: that side
	// unlimited).
	leader, follower []replicationQuota
	// lthr and fthr are each partition's throttled replicas.
	lthr, fthr []Throttled
	// lag is each (partition, follower)'s own lag as its last answer left
	// it, at part*brokers+follower: 0 unknown, 1 in sync (lag 0), 2 behind.
	lag []uint8
}

// Follower lag states (quotas.lag).
const (
	lagUnknown uint8 = iota
	lagInSync
	lagBehind
)

// newQuotas returns the fleet's quotas for its partitions' lists, nil
// when they throttle nothing.
func newQuotas(cfg FleetConfig, n int, parts []PartitionInit) *quotas {
	q := &quotas{lthr: make([]Throttled, len(parts)), fthr: make([]Throttled, len(parts))}
	var lon, fon bool
	for i := range parts {
		q.lthr[i], q.fthr[i] = parts[i].LeaderThrottled, parts[i].FollowerThrottled
		lon = lon || !q.lthr[i].empty()
		fon = fon || !q.fthr[i].empty()
	}
	lon, fon = lon && cfg.LeaderThrottledRate >= 0, fon && cfg.FollowerThrottledRate >= 0
	if !lon && !fon {
		return nil
	}
	brokerQuotas := func(rate int64) []replicationQuota {
		out := make([]replicationQuota, n)
		for i := range out {
			out[i].rate = rate
		}
		return out
	}
	if lon {
		q.leader = brokerQuotas(cfg.LeaderThrottledRate)
	}
	if fon {
		q.follower = brokerQuotas(cfg.FollowerThrottledRate)
		q.lag = make([]uint8, len(parts)*n)
	}
	return q
}

// clone returns an independent copy.
func (q *quotas) clone() *quotas {
	if q == nil {
		return nil
	}
	n := *q
	n.leader, n.follower, n.lag = cloneQuotas(q.leader), cloneQuotas(q.follower), slices.Clone(q.lag)
	return &n
}

func cloneQuotas(qs []replicationQuota) []replicationQuota {
	if qs == nil {
		return nil
	}
	out := slices.Clone(qs)
	for i := range out {
		out[i].samples = slices.Clone(qs[i].samples)
	}
	return out
}

// followerThrottled reports whether follower b leaves partition p out of
// its next fetch (shouldFollowerThrottle).
func (f *Fleet) followerThrottled(p PartID, b int) bool {
	q := f.quota
	if q == nil || q.follower == nil || q.lag[int(p)*f.nbrokers+b] == lagInSync || !q.fthr[p].has(b) {
		return false
	}
	return q.follower[b].exceeded(f.Now.Ms())
}

// leaderThrottled reports whether leader l answers follower b's fetch of
// partition p with no records (shouldLeaderThrottle).
func (f *Fleet) leaderThrottled(p PartID, l, b int) bool {
	q := f.quota
	if q == nil || q.leader == nil || f.Parts[p].Ctrl.InISR(b) || !q.lthr[p].has(l) {
		return false
	}
	return q.leader[l].exceeded(f.Now.Ms())
}

// recordLeader records on leader l the records of the throttled partitions
// of an answer it sends (KafkaApis.scala:979-983).
func (f *Fleet) recordLeader(resp *Message) {
	q := f.quota
	if q == nil || q.leader == nil {
		return
	}
	var n int64
	for i := range resp.Parts {
		if q.lthr[resp.Parts[i].Part].has(resp.From) {
			n += resp.Parts[i].bytes()
		}
	}
	q.leader[resp.From].record(f.Now.Ms(), n)
}

// tookPart notes what follower b's thread took of partition p's part of an
// answer: its lag (isReplicaInSync) and, when the partition is throttled,
// its records on the follower quota (ReplicaFetcherThread.scala:142-145).
func (f *Fleet) tookPart(p PartID, b *Broker, part *FetchPart) {
	q := f.quota
	if q == nil || q.follower == nil || part.Err != ErrNone || part.Diverging {
		return
	}
	// Kafka keeps the lag an answer without records found, unless it was
	// unknown (AbstractFetcherThread.scala:366 @1eb7644349cb): a follower
	// the leader sent nothing, throttled or idle, stays as in sync, or
	// not, as its last records left it.
	if i := int(p)*f.nbrokers + b.ID; len(part.Batches) > 0 || q.lag[i] == lagUnknown {
		q.lag[i] = lagBehind
		if part.HighWatermark-b.Log.LogEnd <= 0 {
			q.lag[i] = lagInSync
		}
	}
	if q.fthr[p].has(b.ID) {
		q.follower[b.ID].record(f.Now.Ms(), part.bytes())
	}
}

// joined forgets follower b's lag of partition p: it joined a thread
// (addPartitions starts with no lag, AbstractFetcherThread.scala:497-500).
//
// A simplification: a tiered bootstrap ends with Kafka setting the lag to
// the leader's log end offset minus the offset to fetch
// (TierStateMachine.java:123-125 @1eb7644349cb); the model leaves the lag
// as it was (unknown, since the partition joined) until the first answer.
// Both read as "not in sync" (isReplicaInSync: defined and at most 0,
// AbstractFetcherThread.scala:962; shouldFollowerThrottle,
// RemoteLeaderEndPoint.scala:234-236) but for one case: a leader holding
// no record past the offset to fetch, whose first fetch after the
// bootstrap Kafka does not throttle and the model may.
func (f *Fleet) joined(p PartID, b int) {
	if q := f.quota; q != nil && q.lag != nil {
		q.lag[int(p)*f.nbrokers+b] = lagUnknown
	}
}
