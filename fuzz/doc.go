// Package fuzz searches for failures with random scenarios: it generates a
// scenario from a seed, sweeps seed ranges on a pool of workers whose results
// fold in seed order, shrinks failing scenarios to minimal ones, hunts the bug
// zoo's mutants, and reads and merges the shard files of a sweep split across
// processes.
//
// It must never decide what a run does (package harness runs each scenario)
// nor let the number of workers change a result.
package fuzz
