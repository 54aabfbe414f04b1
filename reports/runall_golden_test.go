package reports

import (
	"strings"
	"testing"

	"tierfetch/harness"
)

// allRun is one strategy's run for the run --all goldens: followers joined
// after the given times (-1: never), each with path and bytes; kind "" and
// outcome ok is a clean run, a kind a known finding, no kind a failure no
// finding explains.
func allRun(strategy harness.Strategy, outcome, kind, path string, bytes int64, joins ...int64) harness.RunJSON {
	r := harness.RunJSON{Strategy: string(strategy), Outcome: outcome}
	if outcome != harness.OutcomeOK {
		r.Violation = &harness.ViolationJSON{Invariant: "inv-" + outcome, Kind: kind}
	}
	for _, j := range joins {
		f := harness.FollowerJSON{Broker: 1, BytesFromLeader: bytes}
		f.Bootstrap.Path = path
		if j >= 0 {
			f.CaughtUpMs = i64(j)
		}
		r.Followers = append(r.Followers, f)
	}
	return r
}

func allScenario(name string, runs ...harness.RunJSON) AllRun {
	replay := map[string]string{}
	for _, r := range runs {
		replay[r.Strategy] = "simrun run --scenario " + name + " --strategy " + r.Strategy + " --profile P"
	}
	return AllRun{Result: harness.Result{Scenario: name, Runs: runs}, Replay: replay}
}

const (
	lls = harness.LocalLogStart
	lt  = harness.LastTiered
	ok  = harness.OutcomeOK
)

// TestAllSummaryThreeProfiles: the first screen, byte for byte, for three
// profiles (the first not kip), each row kind (no follower, a strategy not
// run, flag-off never, both instant, flag-off instant, 100x and more, more
// followers, every path label), unknown failures with their replays, known
// findings grouped by kind, scenario and strategies across profiles, and
// the next commands for the row a later profile changes most.
func TestAllSummaryThreeProfiles(t *testing.T) {
	base := []AllRun{
		allScenario("huge", allRun(lls, ok, "", "from-zero", 1<<20, 10, 5), allRun(lt, ok, "", "from-zero", 1<<20, 1500, 20000)),
		allScenario("none", allRun(lls, ok, "", "", 0), allRun(lt, ok, "", "", 0)),
		allScenario("half", allRun(lls, ok, "", "from-zero", 1<<20, 10)),
		allScenario("offnever", allRun(lls, ok, "", "from-zero", 1<<20, -1), allRun(lt, ok, "", "truncate-to-log-start", 2<<20, 30)),
		allScenario("instant", allRun(lls, ok, "", "local-log-start", 0, 0), allRun(lt, ok, "", "earliest-pending-upload", 0, 0)),
		allScenario("offinstant", allRun(lls, ok, "", "local-log-start", 0, 0), allRun(lt, ok, "", "other", 3<<19, 40)),
	}
	other := func(joins, joins2 int64, failKind string) []AllRun {
		rs := slicesClone(base)
		rs[0] = allScenario("huge", allRun(lls, ok, "", "from-zero", 1<<20, 10, 5), allRun(lt, ok, "", "from-zero", 1<<20, joins))
		rs[5] = allScenario("offinstant", allRun(lls, ok, "", "local-log-start", 0, 0), allRun(lt, ok, "", "other", 3<<19, joins2))
		if failKind != "" {
			rs[2] = allScenario("half", allRun(lls, harness.OutcomeLiveness, failKind, "from-zero", 1<<20, -1))
		}
		return rs
	}
	in := AllInput{Width: 120, Names: flagNames, ReplayFlags: " --max-steps 9", Profiles: []AllProfile{
		{Profile: "mine", Runs: base},
		{Profile: "kafka-4.3", Runs: other(300, 40, "stall")},
		{Profile: "kafka-trunk", Runs: other(400, 40, "stall")},
	}}
	in.Profiles[1].Runs[3] = allScenario("offnever", allRun(lls, harness.OutcomeSafety, "", "from-zero", 1<<20, -1),
		allRun(lt, harness.OutcomeSafety, "", "truncate-to-log-start", 2<<20, 30))
	in.Profiles[1].Runs[4] = allScenario("instant", allRun(lls, harness.OutcomeLiveness, "stall", "local-log-start", 0, 0),
		allRun(lt, harness.OutcomeLiveness, "stall", "earliest-pending-upload", 0, 0))
	in.Profiles[2].Runs[4] = allScenario("instant", allRun(lls, harness.OutcomeLiveness, "stall", "local-log-start", 0, 0),
		allRun(lt, harness.OutcomeLiveness, "other-kind", "earliest-pending-upload", 0, 0))
	var b strings.Builder
	tally := AllSummary(&b, in)
	want := `simrun run --all: the 6 named scenarios, each at its own seed, under mine, kafka-4.3 and kafka-trunk

follower.fetch.last.tiered.offset.enable on against off, in the 4 scenarios that add a follower (by over 10%):
  mine         the new follower joins faster in 1, as fast in 1, slower in 2 (1 by 10x or more, up to 2000x), never in 0
  kafka-4.3    the new follower joins faster in 1, as fast in 1, slower in 2 (1 by 10x or more, up to 30.0x), never in 0
  kafka-trunk  the new follower joins faster in 1, as fast in 1, slower in 2 (1 by 10x or more, up to 40.0x), never in 0

profile mine flag off (KIP-405)       flag on (KIP-1023)
scenario     path        joins  MiB   path         joins  MiB  ratio  outcome
huge         from-0+1    10 ms  2.0   from-0+1    20.0 s  2.0  2000x  ok SLOW
none         none added               none added                   -  ok
half         from-0      10 ms  1.0   not run                      -  ok
offnever     from-0      never  1.0   trunc@LSO    30 ms  2.0      -  ok STALL
instant      aux@LLSO     0 ms  0.0   aux@EPUO      0 ms  0.0      -  ok
offinstant   aux@LLSO     0 ms  0.0   other        40 ms  1.5      -  ok

Rows that differ under kafka-4.3 or kafka-trunk from mine (flag on: its time to the ISR, the ratio, the outcome):
          mine              kafka-4.3                      kafka-trunk
scenario  ratio  outcome     joins  ratio  outcome          joins  ratio  outcome
huge      2000x  ok SLOW    300 ms  30.0x  ok SLOW         400 ms  40.0x  ok SLOW
half          -  ok                     -  known STALL                 -  known STALL
offnever      -  ok STALL    30 ms      -  UNKNOWN STALL    30 ms      -  ok STALL
instant       -  ok           0 ms      -  known             0 ms      -  known

flag off/on: follower.fetch.last.tiered.offset.enable=false (KIP-405, --strategy local-log-start) or true (KIP-1023,
--strategy last-tiered). path: how the first new follower started (+N: N more were added): from-0 (fetched from offset
0), trunc@LSO (OUT_OF_RANGE: truncated to the leader's log start), aux@LLSO or aux@EPUO (auxiliary state built up to the
leader's local log start, or to its earliest pending upload offset). joins: the slowest new follower's time to the ISR.
MiB: what they copied from the leader. ratio: flag on's time over flag off's.
outcome: ok = every invariant held, however long it took; SLOW = a ratio of 10x or more; STALL = a follower never joined
the ISR; known = a known finding (below); UNKNOWN = a failure no finding explains (it fails the exit code).

UNKNOWN FAILURES (outcome, scenario, strategies, profiles; the full reports follow), each with its replay:
  safety-violation  offnever  both  kafka-4.3
    simrun run --scenario offnever --profile P

  known finding  scenario  strategies       profiles
  stall          half      local-log-start  kafka-4.3, kafka-trunk
  stall          instant   both             kafka-4.3
  stall          instant   local-log-start  kafka-trunk
  other-kind     instant   last-tiered      kafka-trunk
A known finding is a real protocol failure its scenario exists to show (FINDINGS.md explains each kind): under --all it
is the expected result and does not fail the exit code, while 'simrun run --scenario NAME' alone exits 1 for it. Its
full report: simrun run --scenario SCENARIO --strategy STRATEGY --profile PROFILE --max-steps 9 --trace (without
--strategy when both showed it), or every one: simrun run --all --verbose.

tally: 6 scenarios x 3 profiles: 13 clean, 4 known findings, 1 unknown failures
next:
  simrun run --scenario offnever --profile P                       the first unknown failure, step by step
  simrun run --scenario huge --profile kafka-trunk --max-steps 9   that row in full, follower by follower
  simrun compare --scenario huge --seeds 1..10 --out cmp           10 seeds, 3 profiles, charts
  simrun plan --help                                               for a partition of your own
`
	if got := b.String(); got != want {
		t.Errorf("run --all:\n%s\nwant:\n%s", got, want)
	}
	if tally != (AllTally{Clean: 13, Known: 4, Unknown: 1}) {
		t.Errorf("tally %+v", tally)
	}
}

func slicesClone(rs []AllRun) []AllRun { return append([]AllRun(nil), rs...) }

// TestAllSummaryOneProfile: one profile at one seed with fixes: the title
// says so, the known findings have no profiles column and replay with the
// profile's flags, an UNKNOWN outcome counts, the next commands pick the
// first row where the flag is faster (not one with a failure) and offer
// every profile.
func TestAllSummaryOneProfile(t *testing.T) {
	in := AllInput{Width: 120, Names: flagNames, Seed: "42", Fix: "all", Profiles: []AllProfile{{Profile: "kafka-4.3", Runs: []AllRun{
		allScenario("fails", allRun(lls, ok, "", "from-zero", 1<<20, 100), allRun(lt, harness.OutcomeSafety, "", "from-zero", 1<<20, 50)),
		allScenario("stalls", allRun(lls, harness.OutcomeLiveness, "stall", "from-zero", 1<<20, 100), allRun(lt, ok, "", "from-zero", 1<<20, 50)),
		allScenario("quick", allRun(lls, ok, "", "from-zero", 1<<20, 100), allRun(lt, ok, "", "from-zero", 1<<20, 50)),
	}}}}
	var b strings.Builder
	tally := AllReport(&b, in, []byte("DETAILS\n"))
	want := `simrun run --all: the 3 named scenarios, at seed 42, under profile kafka-4.3, with --fix all

follower.fetch.last.tiered.offset.enable on against off, in the 3 scenarios that add a follower (by over 10%):
  kafka-4.3  the new follower joins faster in 3, as fast in 0, slower in 0, never in 0

profile kafka-4.3 (Kafka 4.3's code) flag off (KIP-405)    flag on (KIP-1023)
scenario                             path     joins  MiB   path    joins  MiB  ratio  outcome
fails                                from-0  100 ms  1.0   from-0  50 ms  1.0  0.50x  UNKNOWN
stalls                               from-0  100 ms  1.0   from-0  50 ms  1.0  0.50x  known
quick                                from-0  100 ms  1.0   from-0  50 ms  1.0  0.50x  ok
`
	got := b.String()
	if !strings.HasPrefix(got, want) {
		t.Errorf("run --all:\n%s\nwant it to start with:\n%s", got, want)
	}
	for _, want := range []string{
		"\nUNKNOWN FAILURES (outcome, scenario, strategies, profiles; the full reports follow), each with its replay:\n" +
			"  safety-violation  fails  last-tiered  all\n    simrun run --scenario fails --strategy last-tiered --profile P\n\n" +
			"  known finding  scenario  strategies\n  stall          stalls    local-log-start\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("run --all lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(got, "--strategy STRATEGY --profile kafka-4.3 --trace") || strings.Contains(got, "PROFILE") {
		t.Errorf("one profile: the known findings' replay should name it:\n%s", got)
	}
	wantEnd := `tally: 3 scenarios: 1 clean, 1 known findings, 1 unknown failures
next:
  simrun run --scenario fails --strategy last-tiered --profile P   the first unknown failure, step by step
  simrun run --scenario quick --profile kafka-4.3                  that row in full, follower by follower
  simrun compare --scenario quick --seeds 1..10 --out cmp          10 seeds, 3 profiles, charts
  simrun plan --help                                               for a partition of your own
  simrun run --all                                                 every profile side by side

DETAILS
`
	if !strings.HasSuffix(got, wantEnd) {
		t.Errorf("run --all:\n%s\nwant it to end with:\n%s", got, wantEnd)
	}
	if tally != (AllTally{Clean: 1, Known: 1, Unknown: 1}) {
		t.Errorf("tally %+v, want 1 clean, 1 known, 1 unknown", tally)
	}
	var summary strings.Builder
	AllSummary(&summary, in)
	b.Reset()
	AllReport(&b, in, nil)
	if b.String() != summary.String() {
		t.Errorf("without details the report is the summary alone:\n%q\nwant\n%q", b.String(), summary.String())
	}
}

// TestAllSummaryNoDifferences: two profiles whose rows tell the same story
// (a ratio within diffRatio) say so; the --fix all line counts the
// never-joining followers and known findings with and without the fixes;
// without a faster row there is no row to look at next.
func TestAllSummaryNoDifferences(t *testing.T) {
	runs := func(tiered int64, kind string) []AllRun {
		out := harness.OutcomeOK
		if kind != "" {
			out = harness.OutcomeLiveness
		}
		return []AllRun{
			allScenario("slow", allRun(lls, ok, "", "from-zero", 1<<20, 100), allRun(lt, ok, "", "from-zero", 1<<20, tiered)),
			allScenario("never", allRun(lls, ok, "", "from-zero", 1<<20, 100), allRun(lt, out, kind, "from-zero", 1<<20, -1)),
			allScenario("none", allRun(lls, ok, "", "", 0), allRun(lt, ok, "", "", 0)),
		}
	}
	in := AllInput{Width: 120, Names: flagNames,
		Profiles: []AllProfile{{Profile: "kafka-4.3", Runs: runs(200, "stall")}, {Profile: "kafka-trunk", Runs: runs(300, "stall")}},
		Fixed:    []AllProfile{{Profile: "kafka-4.3", Runs: runs(200, "")}, {Profile: "kafka-trunk", Runs: runs(300, "stall")}}}
	var b strings.Builder
	AllSummary(&b, in)
	got := b.String()
	for _, want := range []string{
		"  kafka-4.3    the new follower joins faster in 0, as fast in 0, slower in 1 (up to 2.00x), never in 1\n" +
			"  kafka-trunk  the new follower joins faster in 0, as fast in 0, slower in 1 (up to 3.00x), never in 1\n" +
			"  --fix all    the reports' fixes (simrun fixes): never in 1, 1 (without: 1, 1); known findings 1 (without: 2)\n",
		"\nNo row differs under kafka-trunk from kafka-4.3.\n",
		"next:\n  simrun plan --help   for a partition of your own\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("run --all lacks %q:\n%s", want, got)
		}
	}
	// Narrower, the --fix all note wraps under the headlines' text.
	in.Width = 80
	b.Reset()
	AllSummary(&b, in)
	if want := "  --fix all    the reports' fixes (simrun fixes): never in 1, 1 (without: 1, 1);\n" +
		"               known findings 1 (without: 2)\n"; !strings.Contains(b.String(), want) {
		t.Errorf("run --all at 80 columns lacks %q:\n%s", want, b.String())
	}
}

// TestTableGroupTitles: a group title starts over its first column, one
// space after the previous title when that one reaches (or passes) it,
// and the first at column 0 has no space before it.
func TestTableGroupTitles(t *testing.T) {
	for _, c := range []struct {
		first, want string
	}{
		{"ab", "ab x\n"},     // ends before the column: padded to it ("ab " then x at 3)
		{"abc", "abc x\n"},   // ends at the column: the first column widens by one
		{"abcd", "abcd x\n"}, // passes it: by two
	} {
		tb := &table{groups: []group{{0, c.first}, {1, "x"}}, header: []string{"a", "b"}, gaps: []int{0, 2}, right: []bool{false, true}}
		var b strings.Builder
		tb.write(&b)
		lines := strings.SplitAfter(b.String(), "\n")
		if lines[0] != c.want {
			t.Errorf("titles %q, x: %q, want %q", c.first, lines[0], c.want)
		}
		// x stands over its column b: a wide first title widens the first
		// column, not the gap before x.
		if x, col := strings.Index(lines[0], "x"), strings.Index(lines[1], "b"); x != col {
			t.Errorf("titles %q, x: x at %d, its column at %d:\n%s", c.first, x, col, b.String())
		}
	}
	tb := &table{groups: []group{{0, "g"}, {2, "h"}}, header: []string{"aa", "b", "c"}, rows: [][]string{{"x", "yyy", "z"}},
		gaps: []int{0, 1, 2}, right: []bool{false, true, false}}
	var b strings.Builder
	tb.write(&b)
	if got, want := b.String(), "g       h\naa   b  c\nx  yyy  z\n"; got != want {
		t.Errorf("table:\n%q\nwant\n%q", got, want)
	}
	if got := tb.width(); got != 9 {
		t.Errorf("table width %d, want 9", got)
	}
}

// TestRatioText: three significant digits at most, none after the point
// from 100x.
func TestRatioText(t *testing.T) {
	for _, c := range []struct {
		r    float64
		want string
	}{{9.994, "9.99x"}, {10, "10.0x"}, {99.94, "99.9x"}, {100, "100x"}, {1234.4, "1234x"}} {
		if got := ratioText(c.r); got != c.want {
			t.Errorf("ratioText(%v) = %q, want %q", c.r, got, c.want)
		}
	}
}

// TestRowDiffers: another profile's row differs when its ratio is more
// than diffRatio times the other either way, not at diffRatio.
func TestRowDiffers(t *testing.T) {
	row := func(ratio float64) allRow { return allRow{base: "ok", effect: slower, ratio: ratio} }
	for _, c := range []struct {
		r, base float64
		want    bool
	}{{3, 2, false}, {2, 3, false}, {3.1, 2, true}, {2, 3.1, true}, {2, 1.5, false}, {1.5, 2, false}, {0, 0, false}, {0, 2, true}} {
		if got := row(c.r).differs(row(c.base)); got != c.want {
			t.Errorf("ratio %v against %v: differs %v, want %v", c.r, c.base, got, c.want)
		}
	}
}

// TestPickNextTie: of later profiles with the same flag-on ratio the first
// is picked.
func TestPickNextTie(t *testing.T) {
	in := AllInput{Profiles: []AllProfile{{Profile: "a"}, {Profile: "b"}, {Profile: "c"}}}
	tables := [][]allRow{{{scenario: "s", base: "ok", ratio: 1}}, {{scenario: "s", base: "ok", ratio: 2}}, {{scenario: "s", base: "ok", ratio: 2}}}
	if s, p := pickNext(in, tables); s != "s" || p != "b" {
		t.Errorf("pickNext = %s, %s; want s, b", s, p)
	}
}

// TestDifferencesWidth: the differences keep the first profile's columns
// when the table fits the width exactly, and drop them one column short.
func TestDifferencesWidth(t *testing.T) {
	in := allInput(0)
	tables := make([][]allRow, len(in.Profiles))
	for i, p := range in.Profiles {
		for _, r := range p.Runs {
			tables[i] = append(tables[i], rowOf(r.Result))
		}
	}
	full := differencesTable(tables, profileNames(in), true).width()
	for _, c := range []struct {
		width int
		first bool
	}{{full, true}, {full - 1, false}} {
		var b strings.Builder
		writeDifferences(&b, in, tables, c.width)
		if got := strings.Contains(b.String(), "scenario   ratio  outcome"); got != c.first {
			t.Errorf("width %d (table %d): kip's columns %v, want %v:\n%s", c.width, full, got, c.first, b.String())
		}
	}
}

// TestNextWidth: a next command keeps its why when the line fits the width
// exactly and loses it one column short.
func TestNextWidth(t *testing.T) {
	in := AllInput{Names: flagNames, Profiles: []AllProfile{{Profile: "kip"}, {Profile: "x"}}}
	line := "  simrun plan --help   for a partition of your own"
	for _, c := range []struct {
		width int
		want  string
	}{{len(line), line + "\n"}, {len(line) - 1, "  simrun plan --help\n"}} {
		var b strings.Builder
		writeNext(&b, in, [][]allRow{nil, nil}, c.width)
		if got := strings.TrimPrefix(b.String(), "next:\n"); got != c.want {
			t.Errorf("width %d: %q, want %q", c.width, got, c.want)
		}
	}
}
