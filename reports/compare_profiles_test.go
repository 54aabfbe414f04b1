package reports

import (
	bytespkg "bytes"
	"strings"
	"testing"
	"tierfetch/harness"
)

// profilesInput is sampleInput's pairs under kip, and again under
// kafka-4.3, where scenario a's last-tiered follower never joins on seeds 1
// and 2 (a liveness stall) and b's last-tiered takes 100x longer.
func profilesInput() *CompareInput {
	in := sampleInput()
	for i := range in.Pairs {
		in.Pairs[i].Profile = "kip"
	}
	other := make([]ComparePair, len(in.Pairs))
	for i, p := range in.Pairs {
		l, t := *p.Local, *p.Tiered
		other[i] = ComparePair{Scenario: p.Scenario, Seed: p.Seed, Profile: "kafka-4.3", Local: &l, Tiered: &t}
		if p.Scenario == "b" {
			t.CatchUpMs *= 100
		}
		if p.Scenario == "a" && p.Seed <= 2 {
			t.Outcome, t.Invariant, t.Kind, t.CaughtUp, t.CatchUpMs = harness.OutcomeLiveness, "liveness", "kafka43-epuo-unknown-stall", false, 0
		}
	}
	in.Others = []ProfilePairs{{Profile: "kafka-4.3", Pairs: other}}
	in.FindingsLink = "../../FINDINGS.md"
	return in
}

func TestCompareProfiles(t *testing.T) {
	in := profilesInput()
	a := Analyze(in)
	pc := a.Profiles
	if pc == nil || len(pc.Groups) != 2 || pc.Runs[0] != 16 || pc.Runs[1] != 16 || pc.Failed[0] != 3 || pc.Failed[1] != 5 {
		t.Fatalf("profiles %+v", pc)
	}
	if a.All.Included != 6 {
		t.Errorf("main statistics: %d pairs included, want the kip pairs' 6", a.All.Included)
	}
	kipA, k43A := pc.Groups[0].Cells[0][1], pc.Groups[0].Cells[1][1]
	// kip a last-tiered: 50 100 100 and seed 4 failed (no-hole).
	if kipA.Runs != 4 || kipA.Failed != 1 || kipA.NeverJoined != 0 || kipA.CatchUp.N != 3 || kipA.CatchUp.P50 != 100 {
		t.Errorf("kip a last-tiered %+v", kipA)
	}
	if k43A.Failed != 3 || k43A.NeverJoined != 2 || k43A.CatchUp.N != 1 {
		t.Errorf("kafka-4.3 a last-tiered %+v", k43A)
	}
	var reasons []string
	for _, f := range pc.Failures {
		reasons = append(reasons, f.Profile+" "+string(f.Strategy)+" "+f.Reason)
	}
	want := []string{"kip local-log-start no-hole (stale-hro)", "kip last-tiered no-hole (stale-hro)",
		"kafka-4.3 local-log-start no-hole (stale-hro)", "kafka-4.3 last-tiered liveness (kafka43-epuo-unknown-stall)",
		"kafka-4.3 last-tiered no-hole (stale-hro)"}
	if strings.Join(reasons, "|") != strings.Join(want, "|") {
		t.Errorf("failures %q, want %q", reasons, want)
	}
	var diffs []string
	for _, d := range pc.Differences() {
		diffs = append(diffs, d.Group.Scenario+" "+string(harness.Strategies[d.Side]))
	}
	if strings.Join(diffs, "|") != "a last-tiered|b last-tiered" {
		t.Errorf("differences %q", diffs)
	}

	var md bytespkg.Buffer
	CompareReport(&md, in, a, nil)
	for _, s := range []string{"## KIP text vs Kafka 4.3", "(#kip-text-vs-kafka-43)", "never joined in 2 of 4; 3 failed",
		"| `kafka-4.3` | last-tiered | liveness (kafka43-epuo-unknown-stall) | 2 | `a`: 1..2 |",
		"kind `kafka43-epuo-unknown-stall` above", "[FINDINGS.md](../../FINDINGS.md)", "`kafka-4.3` 16 runs, 5 broke an invariant"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("report lacks %q", s)
		}
	}

	rows := csvRows(t, in)
	last := len(rows[0]) - 1
	if len(rows) != 1+2*16 || rows[0][last] != "profile" || rows[1][last] != "kip" || rows[17][last] != "kafka-4.3" {
		t.Fatalf("%d rows; profile column %q, first rows %q and %q", len(rows), rows[0][last], rows[1][last], rows[17][last])
	}
	if r := rows[18]; r[0] != "a" || r[6] != harness.OutcomeLiveness || r[8] != "kafka43-epuo-unknown-stall" || r[12] != "NA" {
		t.Errorf("kafka-4.3 a 1 last-tiered row %q", r)
	}
}

// TestOneProfileHasNoProfileSection: with one profile nothing compares
// profiles.
func TestOneProfileHasNoProfileSection(t *testing.T) {
	in := sampleInput()
	a := Analyze(in)
	var md bytespkg.Buffer
	CompareReport(&md, in, a, nil)
	if a.Profiles != nil || strings.Contains(md.String(), "KIP text vs Kafka 4.3") {
		t.Errorf("a profile section with one profile")
	}
}

// TestSweepBeside: a sweep beside the comparison has its own section and
// headline line, and its pairs follow in runs.csv.
func TestSweepBeside(t *testing.T) {
	in := sampleInput()
	sw := sampleInput()
	sw.Command, sw.Scenarios = "go run ./cmd/simrun compare --scenario a --vary local_retention_bytes=1048576,-2", []string{"a"}
	sw.VaryKey, sw.VaryValues = "local_retention_bytes", []string{"1048576", "-2"}
	for i := range sw.Pairs {
		sw.Pairs[i].Scenario, sw.Pairs[i].VaryValue = "a", sw.VaryValues[i%2]
	}
	in.Sweep = sw
	a := Analyze(in)
	var md bytespkg.Buffer
	CompareReport(&md, in, a, []string{ChartSweep})
	for _, s := range []string{"## Parameter sweep: local_retention_bytes on a", "(#parameter-sweep-local_retention_bytes-on-a)",
		sw.Command, "(sweep.svg)", "| -2 (= retention) |", "**Where it pays off**"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("report lacks %q", s)
		}
	}
	rows := csvRows(t, in)
	if len(rows) != 1+2*8+2*8 || rows[17][1] != "local_retention_bytes" || rows[17][2] != "1048576" || rows[1][1] != "" {
		t.Errorf("%d rows; row 17 %q", len(rows), rows[17][:3])
	}
}

func TestSeedList(t *testing.T) {
	for _, c := range []struct {
		seeds []uint64
		limit int
		want  string
	}{
		{[]uint64{1, 2, 3}, 6, "1..3"},
		{[]uint64{1, 3, 4, 5, 9}, 6, "1, 3..5, 9"},
		{[]uint64{1, 3, 5, 7}, 2, "1, 3, ..."},
		{nil, 6, ""},
	} {
		if got := seedList(c.seeds, c.limit); got != c.want {
			t.Errorf("seedList(%v, %d) = %q, want %q", c.seeds, c.limit, got, c.want)
		}
	}
}

func TestValueLabel(t *testing.T) {
	for _, c := range [][3]string{{"5242880", "5.00 MiB", "5242880 (5.00 MiB)"}, {"-2", "-2 (= retention)", "-2 (= retention)"}, {"7", "7", "7"}} {
		if got := valueLabel(c[0], c[1]); got != c[2] {
			t.Errorf("valueLabel(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestDifferencesCountJoins: two profiles whose followers joined as often
// do not differ, however their other runs split between no follower and a
// follower that never joined; one more join is a difference.
func TestDifferencesCountJoins(t *testing.T) {
	times := newDist([]float64{100, 100})
	pc := &ProfileComparison{Profiles: []string{"kip", "kafka-4.3"}, Groups: []ProfileGroup{{Scenario: "s", Cells: [][2]ProfileCell{
		{{Runs: 4, NoFollower: 1, NeverJoined: 1, CatchUp: times}, {Runs: 4, CatchUp: times}},
		{{Runs: 4, NeverJoined: 2, CatchUp: times}, {Runs: 4, NeverJoined: 1, CatchUp: times}},
	}}}}
	d := pc.Differences()
	if len(d) != 1 || d[0].Side != 1 {
		t.Errorf("differences %+v, want only last-tiered's (4 joins against 3)", d)
	}
}

// TestProfilesIntroAndStalls: the section names each profile with what it
// follows ("a behaviour profile" for one it does not know), the first as
// the statistics above, separated by semicolons to the last; under a Kafka
// profile without a stall it says that no run stalls for good, and lists
// where the profiles differ.
func TestProfilesIntroAndStalls(t *testing.T) {
	in := profilesInput()
	in.Others[0].Profile = "custom"
	var md bytespkg.Buffer
	CompareReport(&md, in, Analyze(in), nil)
	if want := "under each behaviour profile: `kip` follows the KIP-1023 text (the statistics above); `custom` a behaviour profile. Here each run"; !strings.Contains(md.String(), want) {
		t.Errorf("report lacks %q", want)
	}
	if strings.Contains(md.String(), "a flag-on follower can stall") || !strings.Contains(md.String(), "describes what each profile shows") {
		t.Error("without a Kafka profile the report still speaks of Kafka's stalls")
	}
	if !strings.Contains(md.String(), "| scenario | kip: local-log-start | kip: last-tiered | custom: local-log-start | custom: last-tiered |\n| --- | ---: | ---: | ---: | ---: |\n") {
		t.Error("the profile table's header is not one column per profile and strategy")
	}
	in = profilesInput()
	for i := range in.Others[0].Pairs {
		if r := in.Others[0].Pairs[i].Tiered; r.Kind != "" {
			r.Kind = ""
		}
	}
	md.Reset()
	CompareReport(&md, in, Analyze(in), nil)
	if !strings.Contains(md.String(), "Where the profiles differ (") || strings.Contains(md.String(), "The profiles agree") {
		t.Error("kip and kafka-4.3 differ here (b's last-tiered 100x slower), but the report does not list where")
	}
	if want := "No run here stalls for good (no liveness failure of kind `kafka43-epuo-unknown-stall` or `kafka43-aux-state-stall`). "; !strings.Contains(md.String(), want) {
		t.Errorf("report lacks %q", want)
	}
}

// TestAnchor: a heading's GitHub anchor keeps lower-case letters, digits,
// '-' and '_', turns spaces into '-' and drops the rest.
func TestAnchor(t *testing.T) {
	if got := anchor("Zone 0 to 9: a_b, z-A!"); got != "zone-0-to-9-a_b-z-a" {
		t.Errorf("anchor %q", got)
	}
}

// TestProfileCell: a profile table cell gives the median, then the
// followers that never joined out of those added (all of them in bold),
// then the failed runs; "no follower added" when none was, NA for nothing.
func TestProfileCell(t *testing.T) {
	times := newDist([]float64{100, 300, 200})
	for _, c := range []struct {
		cell ProfileCell
		want string
	}{
		{ProfileCell{Runs: 3, CatchUp: times}, "200 ms"},
		{ProfileCell{Runs: 4, NoFollower: 1, NeverJoined: 1, Failed: 1, CatchUp: times}, "200 ms; never joined in 1 of 3; 1 failed"},
		{ProfileCell{Runs: 4, NoFollower: 1, NeverJoined: 3}, "**never joined** (3 of 3)"},
		{ProfileCell{Runs: 2, NoFollower: 2}, "no follower added"},
		{ProfileCell{}, "no follower added"},
		{ProfileCell{Runs: 1, Failed: 1}, "1 failed"},
	} {
		if got := profileCell(c.cell); got != c.want {
			t.Errorf("%+v: %q, want %q", c.cell, got, c.want)
		}
	}
	if got := kafkaProfiles([]string{"kip", "kafka-4.3", "custom", "kafka-trunk"}); strings.Join(got, " ") != "`kafka-4.3` `kafka-trunk`" {
		t.Errorf("Kafka profiles %q", got)
	}
}
