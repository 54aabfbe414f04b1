// Package model is the protocol: one Kafka partition, its replicas, the
// controller that elects leaders and tracks the ISR, and the remote storage
// the leader tiers segments to, written as a pure state machine.
//
// A Cluster is driven through one method, Step, by inputs (a message
// arrives, a timer fires, a remote operation completes, an exogenous event
// happens). Its only outputs are events (what the step did, its input
// first) and effects (messages to send, timers to set or cancel, remote
// operations to start), which wait in an outbox until the caller takes
// them (Ready) and acknowledges them (Advance), as etcd raft's RawNode
// does. Views of a run observe the events; the model keeps no books for
// them. Both follower
// protocols live here: the local-log-start-offset protocol of KIP-405 and the
// last-tiered-offset protocol of KIP-1023, selected per broker by
// follower.fetch.last.tiered.offset.enable. Where Kafka's code and the KIP
// text differ, a Profile decides.
//
// model must never read a clock, draw randomness, start goroutines, take
// locks or do I/O: time arrives with each input, chance is decided by the
// caller, and memory grows with segments and batches, never with records.
package model
