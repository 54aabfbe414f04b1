package explore

import (
	"slices"

	"tierfetch/harness"
)

// The partial-order reduction: sleep sets (Godefroid). When two steps
// from one state commute, the search that took the first and then the
// second need not, in the branch where the second came first, take the
// first again: the state both orders reach is the same. A state's sleep
// set holds the steps already covered that way; they are not taken from
// it. The states visited are exactly those of the full search (only
// transitions are saved), so every invariant is checked at every state as
// before; the tests compare the visited sets with a brute-force search.
//
// Whether two steps commute is decided from what each changed (the state
// parts harness.Parts fingerprints) and what it reads (harness.Input): two
// steps commute when each read and changed only its own brokers' parts,
// the brokers of one are not those of the other, and neither is an
// injected fault whose effect depends on its time (a restart, a
// partition, an outage) while the other moves time on. A step that changed
// the controller, remote storage, the id counters, the producers, the
// checker's record or the partitions, or that reads everything (a scenario
// event, a produced batch, the heal), commutes with nothing.

// footprint is what a step read and changed, for commutes.
type footprint struct {
	brokers   uint64 // the brokers it read and changed (bit i: broker i)
	global    bool   // it read or changed what every step reads
	advances  bool   // it moved simulated time on
	readsTime bool   // a fault whose effect depends on when it is injected
}

// footprintOf is the footprint of the step from a state with parts
// before to one with parts after, whose input was in.
func footprintOf(before, after *harness.Parts, in harness.Input) footprint {
	f := footprint{advances: after.NowUs > before.NowUs, readsTime: in.ReadsTime, global: in.Global}
	if f.global || len(before.Brokers) > 64 || len(after.Brokers) != len(before.Brokers) ||
		after.Shared != before.Shared || after.Checker != before.Checker || after.Global != before.Global {
		f.global = true
		return f
	}
	for _, b := range in.Brokers {
		if b >= 0 {
			f.brokers |= 1 << uint(b)
		}
	}
	for i := range before.Brokers {
		if after.Brokers[i] != before.Brokers[i] && f.brokers&(1<<uint(i)) == 0 {
			f.global = true // changed a broker it does not read: take it as touching everything
			return f
		}
	}
	return f
}

// commutes reports whether steps with footprints a and b, both enabled in
// one state, reach the same state in either order.
func commutes(a, b footprint) bool {
	return !a.global && !b.global && a.brokers&b.brokers == 0 &&
		!(a.advances && b.readsTime) && !(b.advances && a.readsTime)
}

// asleep is a step in a sleep set: its identity (transitionID) and its
// footprint where it was taken.
type asleep struct {
	id uint64
	fp footprint
}

// transitionID names a step the same wherever it is taken: its input
// event (or injected fault) and the picks it made after choosing it.
func transitionID(in harness.Input, pts []harness.Point) uint64 {
	h := in.ID
	for _, p := range pts {
		if p.Kind == harness.ChoiceFault || p.Kind == harness.ChoiceTie {
			continue
		}
		h = (h ^ uint64(p.Pick+1)) * 0x100000001b3
		h ^= h >> 29
	}
	return h
}

// asleepIn reports whether id is in the sleep set z.
func asleepIn(z []asleep, id uint64) bool {
	return slices.ContainsFunc(z, func(a asleep) bool { return a.id == id })
}

// sleepAfter is the sleep set of the state the step t leads to: the
// steps of z and the steps taken before t (taken) that commute with t.
func sleepAfter(z, taken []asleep, t footprint) []asleep {
	var out []asleep
	for _, set := range [2][]asleep{z, taken} {
		for _, a := range set {
			if commutes(a.fp, t) && !asleepIn(out, a.id) {
				out = append(out, a)
			}
		}
	}
	return out
}

// ids returns the identities of z, sorted.
func ids(z []asleep) []uint64 {
	out := make([]uint64, len(z))
	for i, a := range z {
		out[i] = a.id
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// covers reports whether the sorted set of identities a holds every one
// of b's.
func covers(a []uint64, b []asleep) bool {
	for _, x := range b {
		if _, ok := slices.BinarySearch(a, x.id); !ok {
			return false
		}
	}
	return true
}
