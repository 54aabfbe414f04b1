package model

import (
	"fmt"

	"tierfetch/sim"
)

// The remote log metadata of the partition lives in Kafka's metadata topic
// (__remote_log_metadata): the broker that copies or deletes a segment
// publishes its state change there, and every broker folds the topic into
// its RemoteLogMetadataCache. c.Remote is the fold of every event
// published so far; a broker reads its own fold through view. The
// publisher's fold holds its event, and everything before it, when its
// publish returns (storeRemoteLogMetadata waits for its consumer to catch
// up: TopicBasedRemoteLogMetadataManager.storeRemoteLogMetadata); another
// broker's fold takes each event remote_metadata_lag_ms after it was
// published (Config.RemoteMetadataLag). With no lag, the default, every
// fold is c.Remote.
//
// This holds under every profile, kip included: KIP-405 specifies the
// RemoteLogMetadataManager interface and the metadata topic, not the
// cache's rules, so the cache of Kafka's only implementation
// (TopicBasedRemoteLogMetadataManager) is what remote log metadata is
// wherever the model reads it.
//
// A lagging broker's fold is a copy of c.Remote taken when it fell behind,
// brought forward from c.metaLog as events come due, and dropped once it
// has caught up: memory grows with lagging brokers times segments only
// while the lag is set and events are pending.

// metaKind is the kind of one metadata event: the remote log segment
// state the segment moves to (RemoteLogSegmentState).
type metaKind uint8

const (
	metaCopyStarted    metaKind = iota // COPY_SEGMENT_STARTED: the segment's metadata is added
	metaCopyFinished                   // COPY_SEGMENT_FINISHED
	metaDeleteStarted                  // DELETE_SEGMENT_STARTED
	metaDeleteFinished                 // DELETE_SEGMENT_FINISHED: the segment's metadata goes
)

// publish publishes event k for segment s (all of its metadata for
// metaCopyStarted, its ID otherwise) from broker b, applies it to the fold
// and returns the segment's id. An event the segment's state does not allow
// is dropped, as the cache drops it (RemoteLogMetadataCache.java:153-174
// @120e6887).
func (c *Cluster) publish(b *Broker, k metaKind, s RemoteSegment) uint64 {
	if (k == metaCopyStarted) != (s.ID == 0) || k > metaDeleteFinished {
		panic(fmt.Sprintf("model: b%d publishes %d for remote segment %d", b.ID, k, s.ID))
	}
	if c.Cfg.RemoteMetadataLag > 0 {
		c.fallBehind(b)
	}
	if k == metaCopyStarted {
		s.ID = c.Remote.Start(s)
	} else {
		c.Remote.apply(k, s.ID)
	}
	if c.lagging() {
		ev := metaEvent{at: c.Now, kind: k, id: s.ID}
		if k == metaCopyStarted {
			ev.seg = c.Remote.Segments[c.Remote.Find(s.ID)]
		}
		c.metaLog = append(c.metaLog, ev)
	}
	if b.cache != nil {
		b.cache, b.seen = nil, 0
		c.trimMetaLog()
	}
	return s.ID
}

// metaEvent is one published event a lagging broker has still to fold:
// when it was published, its kind, the segment's id and, for
// metaCopyStarted, its metadata.
type metaEvent struct {
	at   sim.Time
	kind metaKind
	id   uint64
	seg  RemoteSegment
}

// fallBehind gives every broker but the publisher whose fold is c.Remote,
// and whose metadata is ready, a copy of it: the event about to be
// published reaches them later.
func (c *Cluster) fallBehind(publisher *Broker) {
	for _, o := range c.Brokers {
		if o != publisher && o.cache == nil && o.Up && c.Now >= o.MetadataReadyAt {
			o.cache, o.seen = c.Remote.clone(), len(c.metaLog)
		}
	}
}

// lagging reports whether some broker's fold lags c.Remote.
func (c *Cluster) lagging() bool {
	for _, o := range c.Brokers {
		if o.cache != nil {
			return true
		}
	}
	return false
}

// trimMetaLog forgets the events every lagging broker has folded.
func (c *Cluster) trimMetaLog() {
	lo := len(c.metaLog)
	for _, o := range c.Brokers {
		if o.cache != nil {
			lo = min(lo, o.seen)
		}
	}
	if lo == 0 {
		return
	}
	c.metaLog = append(c.metaLog[:0:0], c.metaLog[lo:]...)
	for _, o := range c.Brokers {
		if o.cache != nil {
			o.seen -= lo
		}
	}
}

// catchUp drops b's fold: it replayed the metadata topic to its end (it
// became ready again).
func (c *Cluster) catchUp(b *Broker) {
	if b.cache != nil {
		b.cache, b.seen = nil, 0
		c.trimMetaLog()
	}
}

// apply folds event k for segment id into r.
func (r *Remote) apply(k metaKind, id uint64) {
	i := r.Find(id)
	if i < 0 {
		return
	}
	switch st := r.Segments[i].State; {
	case k == metaCopyFinished && st == CopyStarted:
		r.SetState(id, CopyFinished)
	case k == metaDeleteStarted:
		r.SetState(id, DeleteStarted)
	case k == metaDeleteFinished:
		r.Remove(id)
	}
}

// view returns the remote log metadata as broker b's cache holds it, after
// folding the events that reached it by now.
func (c *Cluster) view(b *Broker) *Remote {
	if b.cache == nil {
		return &c.Remote
	}
	if b.seen > len(c.metaLog) {
		panic(fmt.Sprintf("model: b%d folded %d metadata events of %d published", b.ID, b.seen, len(c.metaLog)))
	}
	for b.seen < len(c.metaLog) && c.metaLog[b.seen].at.Add(c.Cfg.RemoteMetadataLag) <= c.Now {
		ev := &c.metaLog[b.seen]
		if ev.kind == metaCopyStarted {
			b.cache.insert(ev.seg)
		} else {
			b.cache.apply(ev.kind, ev.id)
		}
		b.seen++
	}
	if b.seen == len(c.metaLog) {
		c.catchUp(b)
		return &c.Remote
	}
	return b.cache
}
