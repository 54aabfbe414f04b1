// Package reports renders run results for people: the per-strategy summary
// of a run, and the failure report (invariant, seed, step, event, offsets,
// state diff, trace, reproduce command). It only formats what it is given:
// it runs nothing and touches no files or clocks.
package reports
