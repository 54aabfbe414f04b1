package harness

import (
	"slices"

	"tierfetch/model"
	"tierfetch/scenarios"
	"tierfetch/sim"
)

// The environment's shared resources (issue 21; docs/design/protocol.md,
// "Shared resources"). Kafka has no such knobs: they are the machines
// its brokers run on. Each is a deterministic FIFO rate server: a transfer
// of n bytes through a resource of R bytes/s keeps it busy n/R, starting
// when the resource finished the transfers scheduled through it before.
//
//   - broker_network_bytes_per_sec: each broker's outbound network (every
//     message it sends, whole: records and header) and inbound network
//     (every message it receives);
//   - broker_disk_bytes_per_sec: each broker's disk, which the records of a
//     fetch answer are read from on the leader and written to on the
//     follower (one disk a broker, reads and writes in one queue);
//   - remote_fetch_concurrency: remote storage reads (auxiliary-state
//     reads, consumers' remote reads) in flight at once a broker; the
//     others wait in a FIFO queue and draw their remote_fetch_ms latency
//     when they start.
//
// A message's transfer starts when every limited resource on its way (the
// sender's replication link, its outbound network and disk, the receiver's
// inbound network and disk) is free, lasts as long as its slowest one, and
// keeps each of them busy for its own share (n/R of that resource): a
// simplification of shared links, which neither splits a resource's rate
// between transfers at once nor pipelines a transfer stage by stage. It
// then travels network_latency_ms. Unlimited (-1, the default) resources
// are not used at all, so a file without the keys runs exactly as before.
type resources struct {
	netRate, diskRate int64 // bytes/s, -1: unlimited
	// netOut, netIn and disk are when each broker's outbound network,
	// inbound network and disk are free (nil: unlimited).
	netOut, netIn, disk []sim.Time
	// remoteLimit is remote_fetch_concurrency (-1: unlimited); remoteBusy
	// counts each broker's reads in flight and remoteQueue holds the reads
	// waiting, oldest first.
	remoteLimit int64
	remoteBusy  []int64
	remoteQueue [][]model.RemoteOp
}

// LimitedResource returns the config key of a shared resource sc limits,
// "" when none is: an explored state (the state hash) leaves the shared
// resources out, so explore's search refuses them.
func LimitedResource(sc *scenarios.Scenario) string {
	c := &sc.Config
	switch {
	case c.BrokerNetworkBytesPerSec >= 0:
		return "broker_network_bytes_per_sec"
	case c.BrokerDiskBytesPerSec >= 0:
		return "broker_disk_bytes_per_sec"
	case c.RemoteFetchConcurrency >= 0:
		return "remote_fetch_concurrency"
	}
	return ""
}

// newResources returns the run's shared resources, nil when all of them
// are unlimited (the run then schedules as without them).
func newResources(cfg *scenarios.Config, brokers int) *resources {
	if cfg.BrokerNetworkBytesPerSec < 0 && cfg.BrokerDiskBytesPerSec < 0 && cfg.RemoteFetchConcurrency < 0 {
		return nil
	}
	s := &resources{netRate: cfg.BrokerNetworkBytesPerSec, diskRate: cfg.BrokerDiskBytesPerSec, remoteLimit: cfg.RemoteFetchConcurrency}
	if s.netRate > 0 {
		s.netOut, s.netIn = make([]sim.Time, brokers), make([]sim.Time, brokers)
	}
	if s.diskRate > 0 {
		s.disk = make([]sim.Time, brokers)
	}
	if s.remoteLimit > 0 {
		s.remoteBusy, s.remoteQueue = make([]int64, brokers), make([][]model.RemoteOp, brokers)
	}
	return s
}

// clone returns an independent copy (Run.Fork).
func (s *resources) clone() *resources {
	if s == nil {
		return nil
	}
	n := *s
	n.netOut, n.netIn, n.disk = slices.Clone(s.netOut), slices.Clone(s.netIn), slices.Clone(s.disk)
	n.remoteBusy = slices.Clone(s.remoteBusy)
	n.remoteQueue = make([][]model.RemoteOp, len(s.remoteQueue))
	for i, q := range s.remoteQueue {
		n.remoteQueue[i] = slices.Clone(q)
	}
	return &n
}

// busyFor is how long a resource of rate bytes/s takes for n bytes.
func busyFor(n, rate int64) sim.Duration {
	return sim.Duration(n * int64(sim.Second) / rate)
}

// transfer schedules a message of wire bytes, records of them records,
// from broker from to broker to through the limited resources, given the
// sender's replication link (free at link, busy linkFor): it returns when
// the transfer starts and ends, and moves each resource's free time.
func (s *resources) transfer(now, link sim.Time, linkFor sim.Duration, from, to int, wire, records int64) (start, end sim.Time) {
	start = max(now, link)
	if s.netOut != nil {
		start = max(start, s.netOut[from], s.netIn[to])
	}
	if s.disk != nil && records > 0 {
		start = max(start, s.disk[from], s.disk[to])
	}
	end = start.Add(linkFor)
	if s.netOut != nil {
		d := start.Add(busyFor(wire, s.netRate))
		s.netOut[from], s.netIn[to], end = d, d, max(end, d)
	}
	if s.disk != nil && records > 0 {
		// The sender reads, then the receiver writes: one disk each, or the
		// same disk twice when a broker sends to itself (never: messages go
		// between brokers).
		d := start.Add(busyFor(records, s.diskRate))
		s.disk[from], s.disk[to], end = d, d, max(end, d)
	}
	return start, end
}

// gated reports whether remote operation op waits for a free slot: it is a
// read and the concurrency is limited.
func (s *resources) gated(op *model.RemoteOp) bool {
	return s != nil && s.remoteBusy != nil && (op.Kind == model.RemoteReadAux || op.Kind == model.RemoteRead)
}

// admit takes a slot for read op, or queues it: it reports whether the
// read starts now.
func (s *resources) admit(op *model.RemoteOp) bool {
	if s.remoteBusy[op.Broker] < s.remoteLimit {
		s.remoteBusy[op.Broker]++
		return true
	}
	s.remoteQueue[op.Broker] = append(s.remoteQueue[op.Broker], *op)
	return false
}

// release frees the slot of broker b's read that completed and returns the
// oldest waiting read, which takes it (ok false: none waits).
func (s *resources) release(b int) (next model.RemoteOp, ok bool) {
	if q := s.remoteQueue[b]; len(q) > 0 {
		next = q[0]
		s.remoteQueue[b] = q[1:]
		return next, true
	}
	s.remoteBusy[b]--
	return next, false
}

// sendMsg schedules message m's delivery: through the sender's replication
// link and the limited shared resources, then the network's latency (or
// its loss).
func (r *runner) sendMsg(m *model.Message) {
	cfg := &r.sc.Config
	bytes := m.WireBytes()
	now := r.sched.Now()
	linkFor := busyFor(bytes, cfg.ReplicationBytesPerSec)
	start := max(now, r.egress[m.From])
	end := start.Add(linkFor)
	if r.res != nil {
		start, end = r.res.transfer(now, r.egress[m.From], linkFor, m.From, m.To, bytes, bytes-model.MessageHeaderBytes)
	}
	r.egress[m.From] = start.Add(linkFor)
	r.sent[m.From] += bytes
	ms, lost := r.choose.Network(cfg.NetworkLatencyMs[0], cfg.NetworkLatencyMs[1])
	if lost {
		r.s.lost = model.NewEvent(model.EvDropped, m.To)
		r.s.lost.Peer, r.s.lost.Msg, r.s.lost.Cause = m.From, *m, model.DropLost
		r.s.lost.Part, r.s.lost.Fetcher = m.Part, m.Fetcher
		r.record(&r.s.lost)
		return
	}
	r.sched.At(end.Add(sim.Ms(ms)), event{kind: evDeliver, msg: r.msgs.put(*m), senderInc: r.f.Incarnation(m.From)})
}

// startRemote starts remote operation op: it completes after a latency
// drawn now from its kind's range.
func (r *runner) startRemote(op model.RemoteOp) {
	cfg := &r.sc.Config
	span := cfg.RemoteFetchMs
	if op.Kind == model.RemoteUpload {
		span = cfg.RemoteUploadMs
	}
	ms, failed := r.choose.Remote(span[0], span[1], cfg.RemoteErrorRate)
	r.sched.After(sim.Ms(ms), event{kind: evRemoteDone, op: r.ops.put(op), failed: failed})
}

// requestRemote starts remote operation op, or queues it behind its
// broker's reads in flight (remote_fetch_concurrency).
func (r *runner) requestRemote(op model.RemoteOp) {
	if r.res.gated(&op) && !r.res.admit(&op) {
		return
	}
	r.startRemote(op)
}

// remoteDone frees the slot of a read that completed: the oldest read its
// broker queued starts.
func (r *runner) remoteDone(op *model.RemoteOp) {
	if !r.res.gated(op) {
		return
	}
	if next, ok := r.res.release(op.Broker); ok {
		r.startRemote(next)
	}
}
