// Package reports renders results for people. For a run: the per-strategy
// summary and the failure report (invariant, seed, step, event, offsets,
// state diff, trace, reproduce command), the first screen of run --all,
// and the result JSON with its claims (version, command). For a sweep: its
// summary; for the bug zoo's hunts: their table. For a
// comparison of the two follower protocols (simrun compare): the statistics
// of paired runs (percentiles, the geometric-mean catch-up ratio with a
// fixed-seed bootstrap interval, win rate, break-even along a varied parameter, costs, exclusions),
// the section comparing behaviour profiles, report.md and runs.csv. Charts
// are SVG drawn with gonum.org/v1/plot: the catch-up CDF, the paired
// scatter, the ratio against the leader's local log, the parameter sweep,
// and the timeline of a run (LSO, LLSO, HW, LEO of the leader and the new
// follower and the remote range over time, sampled through a run's Observe
// hook). A Chrome trace writes a run as trace-event JSON for Perfetto, one
// track per broker.
//
// It only formats what it is given: it runs nothing (a failure report's
// states come from the caller) and touches no files or clocks, and the
// same input always gives the same bytes (sorted keys, fixed-seed
// randomness, no map order in any output).
package reports
