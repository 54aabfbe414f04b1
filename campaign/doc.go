// Package campaign runs many independent runs as one campaign (a sweep, a
// comparison, a plan, a search split in shards): it owns the shards (K/N)
// and job numbers, the worker pool whose results fold in job order, the
// JSON Lines shard files with their header checks, resuming an interrupted
// part, and the merge that folds the shard files back, every job once.
//
// It must never decide what a job runs nor let the number of workers change
// what is folded: its callers supply the jobs and the fold.
package campaign
