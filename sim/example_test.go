package sim_test

import (
	"fmt"

	"tierfetch/sim"
)

// Events at the same instant come out in the order they were scheduled, and
// a canceled timer never fires.
func ExampleScheduler() {
	var s sim.Scheduler[string]
	s.At(sim.AtMs(20), "fetch response")
	backoff := s.At(sim.AtMs(10), "backoff expires")
	s.At(sim.AtMs(20), "produce")
	s.Cancel(backoff)
	for {
		ev, ok := s.Next()
		if !ok {
			break
		}
		fmt.Println(s.Now(), ev)
	}
	// Output:
	// t=0.020s fetch response
	// t=0.020s produce
}

// Each purpose draws from its own stream: drawing from one never shifts
// another.
func ExampleNewStream() {
	network := sim.NewStream(42, "network")
	faults := sim.NewStream(42, "faults")
	a := network.Int64Range(1, 5)
	faults.Uint64()
	b := sim.NewStream(42, "network").Int64Range(1, 5)
	fmt.Println(a == b)
	// Output: true
}
