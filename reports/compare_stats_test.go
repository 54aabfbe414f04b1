package reports

import (
	"math"
	"testing"

	"tierfetch/harness"
)

// TestRatioLeavesOutZeroTimes: a pair with a 0 ms catch-up on either side
// has no ratio, and the geometric mean is over the others.
func TestRatioLeavesOutZeroTimes(t *testing.T) {
	ok := harness.OutcomeOK
	ps := []ComparePair{pair("s", 1, 0, 100, ok, ok), pair("s", 2, 100, 0, ok, ok), pair("s", 3, 100, 50, ok, ok)}
	for i, want := range []bool{false, false, true} {
		if _, got := ps[i].Ratio(); got != want {
			t.Errorf("pair %d (%d ms, %d ms): ratio %v, want %v", i, ps[i].Local.CatchUpMs, ps[i].Tiered.CatchUpMs, got, want)
		}
	}
	g := Stats("s", []*ComparePair{&ps[0], &ps[1], &ps[2]})
	if g.Compared != 3 || g.RatioN != 1 || g.GeoMean != 0.5 {
		t.Errorf("compared %d, with a ratio %d, geometric mean %v; want 3, 1, 0.5", g.Compared, g.RatioN, g.GeoMean)
	}
}

// TestWinRateTiesAndLosses: equal times are ties, a slower last-tiered a
// loss.
func TestWinRateTiesAndLosses(t *testing.T) {
	w, ti, l, rate := WinRate([]float64{100, 100, 100, 100}, []float64{50, 100, 100, 200})
	if w != 1 || ti != 2 || l != 1 || rate != 0.25 {
		t.Errorf("wins %d ties %d losses %d rate %v, want 1 2 1 0.25", w, ti, l, rate)
	}
}

// TestFractionOnlyWhereKnown: the median local-log fraction at add_replica
// is over the pairs where it is known.
func TestFractionOnlyWhereKnown(t *testing.T) {
	ok := harness.OutcomeOK
	a, b := pair("s", 1, 100, 50, ok, ok), pair("s", 2, 100, 50, ok, ok)
	a.Local.LocalFractionAtAdd = 0.5
	b.Local.LocalFractionKnown, b.Local.LocalFractionAtAdd = false, 0.9
	if g := Stats("s", []*ComparePair{&a, &b}); g.Fraction != 0.5 {
		t.Errorf("fraction %v, want 0.5 (the one known)", g.Fraction)
	}
	if g := Stats("s", []*ComparePair{&b}); !math.IsNaN(g.Fraction) {
		t.Errorf("fraction %v where none is known, want NaN", g.Fraction)
	}
}

// TestBreakEvenSkipsPointsOffALogScale: a ratio of 0, or an x of 0 on a
// log x axis, is no point of the curve.
func TestBreakEvenSkipsPointsOffALogScale(t *testing.T) {
	if x, ok := BreakEven([]float64{1, 2, 3}, []float64{2, 0, 0.5}, false); !ok || math.Abs(x-2) > 1e-9 {
		t.Errorf("with a ratio of 0 at x=2: break-even %v %v, want 2 (between 1 and 3)", x, ok)
	}
	if x, ok := BreakEven([]float64{0, 4}, []float64{0.5, 2}, true); ok {
		t.Errorf("with x=0 on a log axis: break-even at %v, want none (one point)", x)
	}
}

// TestSidesCountsEven: a ratio of exactly 1 is neither below nor above.
func TestSidesCountsEven(t *testing.T) {
	if b, e, a := Sides([]float64{0.5, 1, 1, 2, math.NaN()}); b != 1 || e != 2 || a != 1 {
		t.Errorf("sides %d %d %d, want 1 2 1", b, e, a)
	}
}

// TestSweepBreakEvenOnALinearCategoricalAxis: crowded values within a
// factor of 20 are placed one after another and the crossing is read off
// their numbers linearly: ratios 0.5 0.5 2 2 at 1 2 3 10 MiB cross at 2.5
// MiB, drawn halfway between the second and third places.
func TestSweepBreakEvenOnALinearCategoricalAxis(t *testing.T) {
	in := sweepInput([]string{"1048576", "2097152", "3145728", "10485760"}, []float64{0.5, 0.5, 2, 2})
	if ax := SweepAxis(in.VaryKey, in.VaryValues); ax.Numeric || ax.Log {
		t.Fatalf("axis numeric %v log %v, want values one after another", ax.Numeric, ax.Log)
	}
	a := Analyze(in)
	if !a.SweepBreakEvenFound || math.Abs(a.SweepBreakEven-1.5) > 1e-9 || a.SweepBreakEvenLabel != "2.50 MiB" {
		t.Errorf("break-even at %v %q (%v), want position 1.5, 2.50 MiB", a.SweepBreakEven, a.SweepBreakEvenLabel, a.SweepBreakEvenFound)
	}
}
