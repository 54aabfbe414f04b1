// Package harness runs one scenario: it wires a model.Cluster onto a
// sim.Scheduler, schedules the scenario's exogenous events, draws network and
// remote-storage latencies from their own seeded streams, hands the cluster
// one input a step (Step) and takes what it left ready (its events and
// effects, Ready, Advance), records the run's typed events (the digest, the
// failure tail, the text trace and every observer's view, the result
// object's and the metrics' included), checks the invariants after every
// step, and gives the result object and the comparison metrics of the run.
// It writes no field of the model.
//
// It must never decide protocol (the model does), read a clock, or run more
// than one simulation at a time inside a run: a run is a pure function of the
// scenario, the seed, the strategy and the profile, bounded by its work
// budget.
package harness
