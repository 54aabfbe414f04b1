// Package explore visits every state of a small scenario within a bound,
// breadth first, by enumerating the choices of harness.Chooser (fault
// injection, tie order, latency classes, remote failures, producers) on the
// same model and checker that simrun run uses, and turns each violation into
// a scenario file whose schedule replays it. It must never change what a
// seeded run does, never read a wall clock or start goroutines (the caller
// measures and parallelises), and never bend the model to pass a check.
package explore
