// Package fuzz searches for failures with random scenarios (package gen
// draws each from its seed): it sweeps seed ranges (its jobs and fold on package
// campaign's pool, its seed lines in campaign's shard files and merge),
// shrinks failing scenarios to minimal ones and hunts the bug zoo's mutants.
//
// It must never decide what a run does (package harness runs each scenario)
// nor let the number of workers change a result.
package fuzz
