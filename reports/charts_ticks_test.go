package reports

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestLogTicksMinorTicks: a log axis's unlabelled ticks are at the next
// denser set of mantissas than its labels, and never where a label is:
// every integer per decade up to six decades (a range of 10 to 10^7
// too), only the powers of ten beyond; 1.2, 1.4, ... between 1-1.5-2 labels.
func TestLogTicksMinorTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi         float64
		labels, minors string
	}{
		// Seven powers of ten are labelled, all of them.
		{1, 1e6, "1 ms 10 ms 100 ms 1 s 10 s 100 s 1000 s", "2 3 4 5 6 7 8 9 20 30 40 50 60 70 80 90 200 300 400 500 600 700 800 900 " +
			"2000 3000 4000 5000 6000 7000 8000 9000 20000 30000 40000 50000 60000 70000 80000 90000 200000 300000 400000 500000 600000 700000 800000 900000"},
		{10, 1e7, "10 ms 100 ms 1 s 10 s 100 s 1000 s 10000 s", "20 30 40 50 60 70 80 90 200 300 400 500 600 700 800 900 2000 3000 4000 5000 6000 7000 8000 9000 " +
			"20000 30000 40000 50000 60000 70000 80000 90000 200000 300000 400000 500000 600000 700000 800000 900000 2e+06 3e+06 4e+06 5e+06 6e+06 7e+06 8e+06 9e+06"},
		// Eight: every other one, the rest unlabelled.
		{1, 1e7, "1 ms 100 ms 10 s 1000 s", "10 1000 100000 1e+07"},
		{100, 200, "100 ms 150 ms 200 ms", "120 140 160 180"},
		{100, 10_000, "100 ms 200 ms 500 ms 1 s 2 s 5 s 10 s", "300 400 600 700 800 900 3000 4000 6000 7000 8000 9000"},
	} {
		var labels, minors []string
		for _, tk := range msTicks.Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			} else {
				minors = append(minors, strconv.FormatFloat(tk.Value, 'g', -1, 64))
			}
		}
		if got := strings.Join(labels, " "); got != c.labels {
			t.Errorf("[%v, %v]: labels %s, want %s", c.lo, c.hi, got, c.labels)
		}
		if got := strings.Join(minors, " "); got != c.minors {
			t.Errorf("[%v, %v]: unlabelled ticks at %s, want %s", c.lo, c.hi, got, c.minors)
		}
	}
}

// TestLogRangeSteps: a log axis runs from the 1-2-5 step at or below its
// smallest positive value to the one at or above its largest; a value on a
// step is its own end, and values at or below 0 (not on a log scale) are
// left out.
func TestLogRangeSteps(t *testing.T) {
	for _, c := range []struct {
		vals   []float64
		lo, hi float64
	}{
		{[]float64{200, 500}, 200, 500},
		{[]float64{300, 3000}, 200, 5000},
		{[]float64{0, 30, 70}, 20, 100},
		{[]float64{-5, 0.03, 7}, 0.02, 10},
		{[]float64{1, 10}, 1, 10},
	} {
		if lo, hi := logRange(c.vals); lo != c.lo || hi != c.hi {
			t.Errorf("logRange(%v) = [%v, %v], want [%v, %v]", c.vals, lo, hi, c.lo, c.hi)
		}
	}
}

// TestTimelineTitle: a timeline's title names the scenario, profile and
// seed, and what else sets the run apart only when something does.
func TestTimelineTitle(t *testing.T) {
	if got := TimelineTitle("s", "kip", 3, ""); got != "s, profile kip, seed 3" {
		t.Errorf("plain: %q", got)
	}
	if got := TimelineTitle("s", "kip", 3, "mutant m"); got != "s, profile kip, seed 3, mutant m" {
		t.Errorf("with a mutant: %q", got)
	}
}

// TestScenarioStylesDiffer: the first 80 scenarios each get their own
// colour and glyph together; the first ten their own colour.
func TestScenarioStylesDiffer(t *testing.T) {
	seen := map[string]int{}
	for i := range 80 {
		st := scenarioStyle(i)
		k := fmt.Sprintf("%v %T", st.Color, st.Shape)
		if j, ok := seen[k]; ok {
			t.Errorf("scenarios %d and %d are both drawn %s", j, i, k)
		}
		seen[k] = i
		if i > 0 && i < len(palette) && st.Color == scenarioStyle(0).Color {
			t.Errorf("scenario %d has scenario 0's colour", i)
		}
	}
}
