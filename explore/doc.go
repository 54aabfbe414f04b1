// Package explore visits every state of a scenario, breadth first, to its
// end or a bound (depth, states, memory), by enumerating the choices of
// harness.Chooser (fault injection, tie order, latency classes, remote
// failures, producers) on the same model and checker that simrun run uses,
// says how much of the scenario that covered, and turns each violation
// into a scenario file whose schedule replays it. Steps that commute are
// not taken in both orders (sleep sets: the states visited are the full
// search's); liveness continuations are memoized by state hash. It must
// never change what a seeded run does, never read a wall clock or start
// goroutines (the caller measures and parallelises), and never bend the
// model to pass a check.
package explore
