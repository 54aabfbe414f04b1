// Package scenarios is what a scenario is: the scenario file format of
// docs/reference/scenario-format.md (strict decoding, every range and relation validated, a
// canonical form that round-trips), the named scenarios under named/, and the
// translation of a fixture into the model's initial cluster.
//
// It must never run a simulation, read a clock or draw randomness: it
// describes runs; package harness executes them.
package scenarios
