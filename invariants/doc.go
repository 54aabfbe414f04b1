// Package invariants observes a model.Cluster after every step and reports
// the first broken safety invariant, and at the end of a run whether every
// assigned replica caught up (liveness).
//
// Checkers observe and never steer: they must not change the cluster. They
// stay cheap as logs grow: each check works on what changed since the last
// step (new batches, a new remote segment, a new leader), never a rescan of
// every record.
package invariants
