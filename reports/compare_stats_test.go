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

// TestSweepAxisPlacement: 0 is on a parameter's scale, but not on a log
// one; values spanning a factor of 20 exactly go on a log axis; a single
// value sits at its number; with nothing off the scale the values on it
// have the whole axis (1, 2.17 and 10 MiB fit at their numbers only so);
// one value off the scale beside one on it stands apart, and on a linear
// axis the divider is midway between them; one, two or three values off
// the scale each get a fifth of the axis; values all off the scale go one
// after another.
func TestSweepAxisPlacement(t *testing.T) {
	zero := SweepAxis("local_retention_bytes", []string{"0", "20971520", "41943040"})
	if zero.OffScale[0] || zero.Log || !zero.Numeric || zero.X[0] != 0 {
		t.Errorf("0, 20 MiB, 40 MiB: off scale %v, log %v, numeric %v, 0 at %v; want 0 on a linear scale at 0", zero.OffScale, zero.Log, zero.Numeric, zero.X[0])
	}
	if ax := SweepAxis("local_retention_bytes", []string{"1048576", "20971520"}); !ax.Log {
		t.Error("1 MiB and 20 MiB (a factor of 20): not on a log axis")
	}
	if ax := SweepAxis("local_retention_bytes", []string{"1048576"}); !ax.Numeric || ax.X[0] != 1<<20 {
		t.Errorf("one value: numeric %v at %v, want at 1 MiB", ax.Numeric, ax.X[0])
	}
	if ax := SweepAxis("local_retention_bytes", []string{"1048576", "2275410", "10485760"}); !ax.Numeric {
		t.Error("1, 2.17, 10 MiB: placed one after another, though their labels fit on the whole axis")
	}
	one := SweepAxis("local_retention_bytes", []string{"1048576", "-2"})
	if want := float64(1<<20) * 1.75; one.X[1] != want {
		t.Errorf("-2 beside 1 MiB alone at %v, want %v: a step and a half (half the value each) beyond", one.X[1], want)
	}
	lin := SweepAxis("local_retention_bytes", []string{"1048576", "2097152", "-2"})
	if div, ok := lin.Divider(); lin.Log || !ok || div != (lin.X[1]+lin.X[2])/2 {
		t.Errorf("linear axis %v: divider at %v (%v), want midway between 2 MiB and -2's place", lin.X, div, ok)
	}
	// Every value off the scale: one after another, half a step of room
	// at each end.
	if ax := SweepAxis("local_retention_bytes", []string{"-1", "-2"}); ax.Numeric {
		t.Errorf("-1 and -2 alone: numeric, want one after another")
	} else if lo, hi := sweepRange(ax); lo != -0.5 || hi != 1.5 {
		t.Errorf("-1 and -2 alone: axis [%v, %v], want [-0.5, 1.5]", lo, hi)
	}
	for n := 1; n <= 3; n++ {
		step := offScaleStep(n)
		if each := step / (1 + step*(float64(n)+0.5)); math.Abs(each-0.2) > 1e-9 {
			t.Errorf("%d values off the scale: each gets %.3f of the axis, want 0.2", n, each)
		}
	}
}

// TestTimelinePickLowerMiddle: of an even number of pairs whose times
// differ, the timeline shows the lower of the two middle ratios.
func TestTimelinePickLowerMiddle(t *testing.T) {
	ok := harness.OutcomeOK
	ps := []ComparePair{pair("s", 1, 100, 200, ok, ok), pair("s", 2, 100, 50, ok, ok), pair("s", 3, 100, 125, ok, ok), pair("s", 4, 100, 80, ok, ok)}
	if p := TimelinePick(ps); p == nil || p.Seed != 4 {
		t.Errorf("picked %+v, want seed 4 (ratio 0.8, below 1.25)", p)
	}
}
