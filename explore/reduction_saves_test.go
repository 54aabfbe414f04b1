package explore

import (
	"testing"

	"tierfetch/harness"
)

// TestReductionSavesTransitions: on each reference configuration (where
// the brute force shows which states exist) the reduction visits the same
// number of states as the full search through fewer transitions, skipping
// some steps: steps of different brokers commute there (a fetch of b1 and
// a timer of b0), so a reduction that takes every step is no reduction.
func TestReductionSavesTransitions(t *testing.T) {
	for _, c := range referenceConfigs(t) {
		red, err := Run(c.Config)
		if err != nil {
			t.Fatal(err)
		}
		cfg := c.Config
		cfg.NoReduction = true
		full, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if red.States != full.States || red.Skipped == 0 || red.Transitions >= full.Transitions || full.Skipped != 0 {
			t.Errorf("%s: reduced %d states, %d transitions, %d skipped; full %d states, %d transitions, %d skipped",
				c.Name, red.States, red.Transitions, red.Skipped, full.States, full.Transitions, full.Skipped)
		}
		t.Logf("%s: %d states; %d transitions reduced, %d full; %d skipped", c.Name, red.States, red.Transitions, full.Transitions, red.Skipped)
	}
}

// TestCommutationRule: footprintOf and commutes follow the rule the
// reduction states (reduce.go): two steps commute when each read and
// changed only its own brokers' parts and their brokers differ; a step that
// changed the shared part, the checker's record, the global part or a
// broker it does not read, or that reads everything, commutes with
// nothing; a fault that reads the time does not commute with a step that
// moves it on. Brokers -1 in an input are no broker.
func TestCommutationRule(t *testing.T) {
	parts := func(now int64, brokers ...uint64) *harness.Parts {
		return &harness.Parts{NowUs: now, Shared: 1, Checker: 2, Global: 3, Brokers: brokers}
	}
	s := parts(1000, 10, 20, 30)
	in := func(b0, b1 int) harness.Input { return harness.Input{Brokers: [2]int{b0, b1}} }
	fb0 := footprintOf(s, parts(1000, 11, 20, 30), in(0, -1))    // b0 changed its own part
	fb1 := footprintOf(s, parts(1000, 10, 21, 30), in(1, -1))    // b1 changed its own part
	fb01 := footprintOf(s, parts(1000, 11, 21, 30), in(0, 1))    // a message from b1 to b0
	fread := footprintOf(s, parts(1000, 10, 20, 30), in(2, -1))  // b2 read, changed nothing
	fmoves := footprintOf(s, parts(1500, 10, 20, 31), in(2, -1)) // b2's timer 500 µs on
	stray := footprintOf(s, parts(1000, 11, 21, 30), in(0, -1))  // changed b1, reads only b0
	if fb0 != (footprint{brokers: 1}) || fb1 != (footprint{brokers: 2}) || fb01 != (footprint{brokers: 3}) ||
		fread != (footprint{brokers: 4}) || fmoves != (footprint{brokers: 4, advances: true}) {
		t.Fatalf("footprints %+v %+v %+v %+v %+v", fb0, fb1, fb01, fread, fmoves)
	}
	if !stray.global {
		t.Errorf("a step that changed a broker it does not read: %+v, want global", stray)
	}
	for name, after := range map[string]*harness.Parts{
		"shared":  {NowUs: 1000, Shared: 9, Checker: 2, Global: 3, Brokers: []uint64{11, 20, 30}},
		"checker": {NowUs: 1000, Shared: 1, Checker: 9, Global: 3, Brokers: []uint64{11, 20, 30}},
		"global":  {NowUs: 1000, Shared: 1, Checker: 2, Global: 9, Brokers: []uint64{11, 20, 30}},
		"brokers": parts(1000, 11, 20, 30, 40),
	} {
		if f := footprintOf(s, after, in(0, -1)); !f.global || commutes(f, fb1) {
			t.Errorf("a step that changed the %s part: %+v, want global, commuting with nothing", name, f)
		}
	}
	// A footprint names brokers by the bits of a word: 64 brokers fit,
	// 65 make every step global.
	for _, n := range []int{64, 65} {
		before, after := parts(1000, make([]uint64, n)...), parts(1000, make([]uint64, n)...)
		after.Brokers[n-1] = 1
		if f := footprintOf(before, after, in(n-1, -1)); (n == 64) != (f == footprint{brokers: 1 << 63}) || (n == 65) != f.global {
			t.Errorf("%d brokers, the last one's step: %+v", n, f)
		}
	}
	if f := footprintOf(s, parts(1000, 11, 20, 30), harness.Input{Brokers: [2]int{0, -1}, Global: true}); !f.global {
		t.Errorf("a step that reads everything: %+v, want global", f)
	}
	if !commutes(fb0, fb1) || !commutes(fb1, fb0) || commutes(fb0, fb01) || commutes(fb01, fb1) || commutes(fb0, stray) {
		t.Error("steps of different brokers must commute, steps sharing one must not")
	}
	fault := footprintOf(s, parts(1000, 10, 20, 30), harness.Input{Brokers: [2]int{1, -1}, ReadsTime: true})
	if !fault.readsTime || commutes(fault, fmoves) || commutes(fmoves, fault) || !commutes(fault, fb0) {
		t.Errorf("a fault that reads the time %+v must commute with a step of another broker that keeps the time, not with %+v", fault, fmoves)
	}
}
