package invariants

import (
	"testing"

	"tierfetch/model"
)

// TestCompareLocalReadsOnlyItsRange: compareLocal compares a broker's
// records in [from, to) only, as it says, even when the batch holding from
// starts below it. A follower's cursor asks for the records new since the
// last step; comparing the whole batch again each step made a throttled
// follower that fetches a few records a step out of a large batch re-walk
// the history from the batch's base every step (ev2/f59.json of the
// hostile campaign: 103 million history lookups in 161,000 steps, 4x the
// run's time).
func TestCompareLocalReadsOnlyItsRange(t *testing.T) {
	c := healthy()
	k := New(c)
	// Split the history's piece [100, 200) and make its first half differ
	// from what the brokers hold: only a comparison reaching below 150 sees it.
	for i, h := range k.history {
		if h.Base == 100 && h.Count == 100 {
			lo, hi := h.Slice(100, 150), h.Slice(150, 200)
			lo.Origin++
			k.history = append(k.history[:i:i], append([]model.Batch{lo, hi}, k.history[i+1:]...)...)
			break
		}
	}
	k.hot, k.histHint = model.Batch{}, 0
	f := c.Brokers[1]
	if v := k.compareLocal(f, 150, 200, ReplicaAgreement); v != nil {
		t.Errorf("[150, 200): %v, want none (the difference is at 100..149)", v)
	}
	if v := k.compareLocal(f, 120, 200, ReplicaAgreement); v == nil || v.Invariant != ReplicaAgreement {
		t.Errorf("[120, 200): %v, want a %s violation at 120", v, ReplicaAgreement)
	} else if want := "b1 offset 120 holds"; len(v.Message) < len(want) || v.Message[:len(want)] != want {
		t.Errorf("[120, 200): %q, want it to start %q", v.Message, want)
	}
}
