// Package scenarios turns scenario files into runs: it parses and validates
// them (FORMATS.md), holds the named scenarios under named/, generates random
// scenarios from seeds, and wires one model.Cluster onto one sim.Scheduler,
// drawing network and remote-storage latencies from their own seeded streams
// and checking invariants after every step.
//
// It is where a run's exogenous events (produce, elections, crashes, config
// changes, network partitions, remote outages) are scheduled; it decides no
// protocol and reads no clock.
package scenarios
