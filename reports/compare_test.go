package reports

import (
	bytespkg "bytes"
	"encoding/csv"
	"math"
	"strings"
	"testing"
	"tierfetch/harness"
)

func TestPercentileNearestRank(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct{ p, want float64 }{{50, 5}, {90, 9}, {99, 10}, {100, 10}, {10, 1}, {11, 2}, {1, 1}} {
		if got := Percentile(xs, c.p); got != c.want {
			t.Errorf("p%v of 1..10 = %v, want %v", c.p, got, c.want)
		}
	}
	if got := Percentile([]float64{42}, 99); got != 42 {
		t.Errorf("p99 of one value = %v", got)
	}
	if got := Percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("p50 of nothing = %v, want NaN", got)
	}
	d := newDist([]float64{30, 10, 20})
	if d.P50 != 20 || d.Max != 30 || d.N != 3 || d.Mean != 20 {
		t.Errorf("dist %+v", d)
	}
}

func TestGeoMeanCI(t *testing.T) {
	gm, lo, hi := GeoMeanCI([]float64{0.5, 2})
	if math.Abs(gm-1) > 1e-12 || lo > gm || hi < gm || lo < 0.5 || hi > 2 {
		t.Errorf("0.5 and 2: gm %v CI [%v, %v]", gm, lo, hi)
	}
	gm, lo, hi = GeoMeanCI([]float64{0.25, 0.25, 0.25})
	if math.Abs(gm-0.25) > 1e-12 || math.Abs(lo-0.25) > 1e-12 || math.Abs(hi-0.25) > 1e-12 {
		t.Errorf("constant 0.25: gm %v CI [%v, %v]", gm, lo, hi)
	}
	ratios := []float64{0.3, 0.5, 0.6, 0.7, 0.9, 1.1, 0.4, 0.8, 0.55, 0.65}
	gm1, lo1, hi1 := GeoMeanCI(ratios)
	gm2, lo2, hi2 := GeoMeanCI(append([]float64(nil), ratios...))
	if gm1 != gm2 || lo1 != lo2 || hi1 != hi2 {
		t.Errorf("bootstrap not deterministic: [%v %v %v] vs [%v %v %v]", gm1, lo1, hi1, gm2, lo2, hi2)
	}
	if !(lo1 < gm1 && gm1 < hi1 && hi1 < 1) {
		t.Errorf("CI [%v, %v] around %v: want a proper interval below 1", lo1, hi1, gm1)
	}
	// Pinned: a change of the resampling (seed, count, method) shows here.
	if math.Abs(lo1-0.4838) > 0.0001 || math.Abs(hi1-0.7609) > 0.0001 {
		t.Errorf("CI [%.4f, %.4f] moved from the pinned [0.4838, 0.7609]", lo1, hi1)
	}
	if gm, _, _ := GeoMeanCI(nil); !math.IsNaN(gm) {
		t.Errorf("no ratios: gm %v, want NaN", gm)
	}
}

func TestWinRate(t *testing.T) {
	wins, ties, losses, rate := WinRate([]float64{10, 10, 10, 10}, []float64{5, 10, 20, 1})
	if wins != 2 || ties != 1 || losses != 1 || rate != 0.5 {
		t.Errorf("wins %d ties %d losses %d rate %v, want 2 1 1 0.5", wins, ties, losses, rate)
	}
	if _, _, _, rate := WinRate(nil, nil); !math.IsNaN(rate) {
		t.Errorf("no pairs: rate %v, want NaN", rate)
	}
}

func TestBreakEven(t *testing.T) {
	cases := []struct {
		name   string
		xs, ys []float64
		logX   bool
		want   float64
		found  bool
	}{
		{"log-midpoint", []float64{0, 1}, []float64{0.5, 2}, false, 0.5, true},
		{"unsorted input", []float64{1, 0}, []float64{2, 0.5}, false, 0.5, true},
		{"rests at 1 between sides", []float64{0, 1, 2, 3}, []float64{0.5, 1, 1, 2}, false, 1, true},
		{"touches 1 only", []float64{0, 1, 2}, []float64{0.5, 0.8, 1}, false, 0, false},
		{"never crosses", []float64{0, 1}, []float64{0.5, 0.7}, false, 0, false},
		{"log x", []float64{1, 100}, []float64{0.5, 2}, true, 10, true},
		{"NaN skipped", []float64{0, 0.5, 1}, []float64{0.5, math.NaN(), 2}, false, 0.5, true},
	}
	for _, c := range cases {
		got, ok := BreakEven(c.xs, c.ys, c.logX)
		if ok != c.found || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %v %v, want %v %v", c.name, got, ok, c.want, c.found)
		}
	}
}

// pair builds a pair with the given catch-up times and outcomes.
func pair(scenario string, seed uint64, local, tiered int64, localOutcome, tieredOutcome string) ComparePair {
	mk := func(st harness.Strategy, ms int64, outcome string) *harness.RunMetrics {
		m := &harness.RunMetrics{Strategy: st, Outcome: outcome, Follower: 1, CaughtUp: true, CatchUpMs: ms, Path: "local-log-start",
			LocalFractionKnown: true, LocalFractionAtAdd: 0.75, RetriesByReason: make([]int, 6), BackoffMs: 1000, PriceKnown: true,
			LocalBytesAtJoin: ms << 10}
		if outcome != harness.OutcomeOK {
			m.Invariant, m.Kind = "no-hole", "stale-hro"
		}
		return m
	}
	return ComparePair{Scenario: scenario, Seed: seed, Local: mk(harness.LocalLogStart, local, localOutcome), Tiered: mk(harness.LastTiered, tiered, tieredOutcome)}
}

func sampleInput() *CompareInput {
	ok, bad := harness.OutcomeOK, harness.OutcomeSafety
	return &CompareInput{Command: "go run ./cmd/simrun compare --seeds 1..4 --out x", Scenarios: []string{"a", "b"}, Seeds: "1..4", Profile: "kip",
		Pairs: []ComparePair{
			pair("a", 1, 100, 50, ok, ok), pair("a", 2, 200, 100, ok, ok), pair("a", 3, 100, 100, ok, ok), pair("a", 4, 100, 50, ok, bad),
			pair("b", 1, 100, 200, ok, ok), pair("b", 2, 100, 200, bad, bad), pair("b", 3, 400, 100, ok, ok), pair("b", 4, 100, 50, ok, ok),
		}}
}

func TestAnalyzeCountsAndExclusions(t *testing.T) {
	in := sampleInput()
	a := Analyze(in)
	if a.All.Pairs != 8 || a.All.Included != 6 || a.All.Compared != 6 {
		t.Fatalf("pairs %d included %d compared %d, want 8 6 6", a.All.Pairs, a.All.Included, a.All.Compared)
	}
	if a.All.Wins != 4 || a.All.Ties != 1 || a.All.Losses != 1 {
		t.Errorf("wins/ties/losses %d/%d/%d, want 4/1/1", a.All.Wins, a.All.Ties, a.All.Losses)
	}
	if len(a.ByScenario) != 2 || a.ByScenario[0].Name != "a" || a.ByScenario[0].Included != 3 || a.ByScenario[1].Included != 3 {
		t.Errorf("by scenario %+v", a.ByScenario)
	}
	if len(a.Exclusions) != 2 || a.Exclusions[0].Reason != "last-tiered: no-hole (stale-hro)" ||
		a.Exclusions[1].Reason != "local-log-start: no-hole (stale-hro); last-tiered: no-hole (stale-hro)" {
		t.Errorf("exclusions %+v", a.Exclusions)
	}
	// ratios 0.5 0.5 1 2 0.25 0.5: geometric mean 2^(-4/6)
	if want := math.Pow(2, -4.0/6); math.Abs(a.All.GeoMean-want) > 1e-12 {
		t.Errorf("geometric mean %v, want %v", a.All.GeoMean, want)
	}
	if a.All.Local.P50 != 100 || a.All.Tiered.Max != 200 {
		t.Errorf("local p50 %v, tiered max %v", a.All.Local.P50, a.All.Tiered.Max)
	}
}

// csvRows is runs.csv of in, read back: its header, then a row a run.
func csvRows(t *testing.T, in *CompareInput) [][]string {
	t.Helper()
	var buf bytespkg.Buffer
	if err := CompareCSV(&buf, in); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestCompareCSV(t *testing.T) {
	in := sampleInput()
	rows := csvRows(t, in)
	if len(rows) != 1+2*len(in.Pairs) {
		t.Fatalf("%d rows, want a header and %d", len(rows), 2*len(in.Pairs))
	}
	header := CompareCSVHeader()
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
		if h != header[i] {
			t.Errorf("column %d is %q, want %q", i, h, header[i])
		}
	}
	for _, name := range []string{"catch_up_ms", "bytes_from_leader", "leader_egress_bytes", "remote_aux_bytes", "list_offsets", "stalled_ms",
		"stalled_ms_epuo_unknown", "llso_at_join", "local_bytes_at_join", "price_remote_bytes", "price_extra_latency_ms", "redundancy_restored_ms"} {
		if _, ok := col[name]; !ok {
			t.Errorf("no column %q", name)
		}
	}
	r := rows[11] // b 2 local-log-start: excluded
	if r[col["scenario"]] != "b" || r[col["seed"]] != "2" || r[col["strategy"]] != "local-log-start" || r[col["included"]] != "no" ||
		r[col["invariant"]] != "no-hole" || r[col["redundancy_restored_ms"]] != "NA" || r[col["catch_up_ms"]] != "100" {
		t.Errorf("row %v", r)
	}
}

func TestCompareReportSaysWhatWasExcluded(t *testing.T) {
	in := sampleInput()
	a := Analyze(in)
	var buf bytespkg.Buffer
	CompareReport(&buf, in, a, []string{ChartCDF})
	md := buf.String()
	for _, want := range []string{in.Command, "2 of 8 pairs excluded", "last-tiered: no-hole (stale-hro)", "b 2", "(catchup-cdf.svg)",
		"**6 of 8 pairs**", "p50", "win rate"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(md, ChartPaired) {
		t.Errorf("report links a chart it was not given")
	}
}

func TestTimelinePick(t *testing.T) {
	in := sampleInput()
	p := TimelinePick(in.Pairs)
	// Comparable pairs whose times differ, in run order: a1 0.5, a2 0.5, b1 2,
	// b3 0.25, b4 0.5; sorted (stable) b3 a1 a2 b4 b1: the middle one is a2.
	if p == nil || p.Scenario != "a" || p.Seed != 2 {
		t.Errorf("picked %+v, want a 2", p)
	}
	if TimelinePick(nil) != nil {
		t.Errorf("picked from nothing")
	}
}

// TestChartsAreDeterministicSVG: every chart renders, twice the same bytes.
func TestChartsAreDeterministicSVG(t *testing.T) {
	render := func() [][]byte {
		in := sampleInput()
		in.VaryKey, in.VaryValues = "local_retention_bytes", []string{"1048576", "-2"}
		for i := range in.Pairs {
			in.Pairs[i].VaryValue = in.VaryValues[i%2]
		}
		a := Analyze(in)
		var out [][]byte
		for _, f := range []func() ([]byte, error){
			func() ([]byte, error) { return CDFChart(in, a) },
			func() ([]byte, error) { return PairedChart(in, a) },
			func() ([]byte, error) { return CopyChart(in, a) },
			func() ([]byte, error) { return SweepChart(in, a) },
		} {
			data, err := f()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, data)
		}
		return out
	}
	a, b := render(), render()
	for i := range a {
		if !bytespkg.HasPrefix(a[i], []byte("<?xml")) || !bytespkg.Contains(a[i], []byte("</svg>")) {
			t.Errorf("chart %d is not an SVG document", i)
		}
		if !bytespkg.Equal(a[i], b[i]) {
			t.Errorf("chart %d differs between two renderings", i)
		}
	}
	if !bytespkg.Contains(a[3], []byte("-2 (= retention)")) {
		t.Errorf("sweep chart does not name the special value")
	}
}
