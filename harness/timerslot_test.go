package harness

import (
	"testing"

	"tierfetch/model"
	"tierfetch/scenarios"
)

// TestTimerSlotsAreDistinct: every timer a run can set has its own slot
// in the timer table, inside it, so that setting one never cancels
// another; a timer of a broker or peer outside the run, or of no kind,
// is a bug that panics.
func TestTimerSlotsAreDistinct(t *testing.T) {
	const n, parts, fetchers = 3, 2, 2
	kinds := int(model.NumTimerKinds)
	check := func(name string, r *runner, keys []model.TimerKey, size int) {
		seen := map[int]model.TimerKey{}
		for _, k := range keys {
			s := r.timerSlot(k)
			if s < 0 || s >= size {
				t.Errorf("%s: timer %+v at slot %d outside [0, %d)", name, k, s, size)
			}
			if o, ok := seen[s]; ok {
				t.Errorf("%s: timers %+v and %+v share slot %d", name, o, k, s)
			}
			seen[s] = k
		}
	}
	var one, many []model.TimerKey
	for b := range n {
		for kind := range kinds {
			for p := range n {
				k := model.TimerKey{Broker: b, Kind: model.TimerKind(kind), Peer: p}
				one = append(one, k)
				for part := range parts {
					k.Part = model.PartID(part)
					many = append(many, k)
				}
				for f := range fetchers {
					k.Part, k.Fetcher = -1, int16(f)
					many = append(many, k)
				}
			}
		}
	}
	sc := &scenarios.Scenario{Brokers: n}
	check("one partition", &runner{sc: sc}, one, n*kinds*n)
	r := &runner{sc: sc, mp: &multiRun{}, f: &model.Fleet{Parts: make([]*model.Cluster, parts)}}
	check("two partitions", r, many, (parts+fetchers)*n*kinds*n)
	for _, k := range []model.TimerKey{{Broker: n}, {Broker: -1}, {Peer: n}, {Peer: -1}, {Kind: model.NumTimerKinds}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("timer %+v of a run of %d brokers: no panic", k, n)
				}
			}()
			(&runner{sc: sc}).timerSlot(k)
		}()
	}
}
