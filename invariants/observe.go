package invariants

import (
	"tierfetch/model"
	"tierfetch/sim"
)

// Event implements model.Observer: the checker takes from the run's events
// the facts its labels need that no state shows (why a follower last
// backed off). It never changes the run.
func (k *Checker) Event(_ sim.Time, e *model.Event) {
	if e.Kind == model.EvBackoff {
		if k.f.lastRetry[e.Broker] != e.Retry {
			k.f.mine()
			k.f.lastRetry[e.Broker] = e.Retry
		}
	}
}
