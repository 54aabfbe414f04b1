package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tierfetch/reports"
	"tierfetch/scenarios"
)

// TestRunAllFirstScreen: run --all fits 120 columns, and its first 40
// lines are the answer: a headline per profile, a row per named scenario
// and the rows Kafka's code changes with their numbers; then what the
// columns mean, the known findings, the tally and the next commands.
func TestRunAllFirstScreen(t *testing.T) {
	code, stdout, stderr := simrun(t, "run", "--all")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	for i, l := range lines {
		if len(l) > reports.DefaultWidth {
			t.Errorf("line %d is %d columns wide (over %d): %q", i+1, len(l), reports.DefaultWidth, l)
		}
	}
	screen := strings.Join(lines[:min(40, len(lines))], "\n")
	for _, sc := range scenarios.Named() {
		if !strings.Contains(screen, "\n"+sc.Name+" ") {
			t.Errorf("no row for %s in the first 40 lines", sc.Name)
		}
	}
	for _, want := range []string{"\n  kip  ", "\n  kafka-4.3  ",
		"\n  kafka-trunk  ", "Where Kafka's code differs from the KIP text", "\nhazard-idle-fully-tiered  "} {
		if !strings.Contains("\n"+screen, want) {
			t.Errorf("the first 40 lines lack %q:\n%s", want, screen)
		}
	}
	for _, want := range []string{"outcome: ok = every invariant held", "STALL = ", "SLOW = ", "alone exits 1",
		"known finding ", "kafka43-epuo-unknown-stall", "known findings, 0 unknown failures\nnext:\n  simrun run --scenario "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run --all lacks %q", want)
		}
	}
	tally := fmt.Sprintf("\ntally: %d scenarios x 3 profiles: ", len(scenarios.Named()))
	if !strings.Contains(stdout, tally) {
		t.Errorf("run --all lacks %q", tally)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "  simrun ") {
		t.Errorf("run --all does not end with a command to run next: %q", lines[len(lines)-1])
	}
	if strings.Contains(stdout, "state diff") {
		t.Errorf("run --all without --verbose dumps a known finding's state diff")
	}
	if _, verbose, _ := simrun(t, "run", "--all", "--verbose"); !strings.Contains(verbose, "state diff") || !strings.HasPrefix(verbose, stdout) {
		t.Errorf("run --all --verbose: want the first screen, then the full reports")
	}
}

// TestRunAllHeadlineCountsTheRows: each profile's headline counts what
// its rows show. The first profile's effects are read from its table, a
// later profile's from the differences section for the rows listed there
// and from the table for the others (a row not listed tells the same
// story): faster or slower by over 10%, never when the flag-on follower
// never joined.
func TestRunAllHeadlineCountsTheRows(t *testing.T) {
	_, stdout, _ := simrun(t, "run", "--all")
	lines := strings.Split(stdout, "\n")
	table := sectionAfter(t, lines, "scenario  ")
	header := table[0]
	onPath := strings.LastIndex(header, "path")
	onJoins := strings.LastIndex(header, "joins") + len("joins")
	ratioEnd := strings.Index(header, "ratio") + len("ratio")
	outcomeAt := strings.Index(header, "outcome")
	kip := map[string]string{}
	var order []string
	for _, row := range table[1:] {
		name := strings.Fields(row)[0]
		order = append(order, name)
		kip[name] = effectOfCells(row[onPath:onPath+10], cell(row, onJoins-7, onJoins), cell(row, ratioEnd-6, ratioEnd), cell(row, outcomeAt, len(row)))
	}
	effects := map[string]map[string]string{"kip": kip}
	diff := sectionAfter(t, lines, "Where Kafka's code differs")
	groups, dh := diff[1], diff[2]
	for _, profile := range []string{"kafka-4.3", "kafka-trunk"} {
		at := strings.Index(groups, profile)
		joins := at + strings.Index(dh[at:], "joins") + len("joins")
		ratio := at + strings.Index(dh[at:], "ratio") + len("ratio")
		outcome := at + strings.Index(dh[at:], "outcome")
		m := map[string]string{}
		for k, v := range kip {
			m[k] = v
		}
		for _, row := range diff[3:] {
			end := min(len(row), outcome+13)
			m[strings.Fields(row)[0]] = effectOfCells("", cell(row, joins-7, joins), cell(row, ratio-6, ratio), cell(row, outcome, end))
		}
		effects[profile] = m
	}
	for profile, m := range effects {
		count := map[string]int{}
		for _, name := range order {
			count[m[name]]++
		}
		want := fmt.Sprintf("joins faster in %d, as fast in %d, slower in %d", count["faster"], count["as fast"], count["slower"])
		line := lineWith(lines, "  "+profile+" ")
		if !strings.Contains(line, want) || !strings.HasSuffix(line, fmt.Sprintf("never in %d", count["never"])) {
			t.Errorf("%s: headline %q; its rows say %s, never in %d", profile, line, want, count["never"])
		}
	}
	if effects["kafka-4.3"]["hazard-idle-fully-tiered"] != "slower" || effects["kafka-4.3"]["idle-fully-tiered"] != "never" {
		t.Errorf("kafka-4.3's stalls and slowdowns are not in its rows: %v", effects["kafka-4.3"])
	}
}

// effectOfCells is a row's effect from its printed cells: no follower,
// never (the flag-on follower never joined), or faster, as fast or slower
// by the ratio.
func effectOfCells(path, joins, ratio, outcome string) string {
	switch {
	case strings.HasPrefix(path, "none added"):
		return "none"
	case joins == "never":
		return "never"
	}
	r, err := strconv.ParseFloat(strings.TrimSuffix(ratio, "x"), 64)
	switch {
	case err != nil:
		return "unreadable ratio " + ratio + " " + outcome
	case r > 1.1:
		return "slower"
	case r < 1/1.1:
		return "faster"
	}
	return "as fast"
}

func cell(row string, from, to int) string {
	from, to = max(0, min(from, len(row))), max(0, min(to, len(row)))
	return strings.TrimSpace(row[from:to])
}

// sectionAfter is the block of lines from the first starting with prefix
// to the next empty line.
func sectionAfter(t *testing.T, lines []string, prefix string) []string {
	t.Helper()
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			end := i
			for end < len(lines) && lines[end] != "" {
				end++
			}
			return lines[i:end]
		}
	}
	t.Fatalf("no line starts with %q", prefix)
	return nil
}

func lineWith(lines []string, prefix string) string {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// TestREADMEFirstScreen: the README's example of the main job's first
// screen is what 'simrun run --all' prints.
func TestREADMEFirstScreen(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "The main job's answer is its first screen")
	_, rest, ok2 := strings.Cut(rest, "```\n")
	want, _, ok3 := strings.Cut(rest, "```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README: no example first screen (a fenced block after \"The main job's answer is its first screen\")")
	}
	_, stdout, _ := simrun(t, "run", "--all")
	if stdout != want {
		t.Errorf("the README's first screen is not the output of 'simrun run --all'; paste this:\n%s", stdout)
	}
}

// TestRunAllOneProfile: --profile with --all runs that profile only, with
// its headline and no differences section, and says how to see them all.
func TestRunAllOneProfile(t *testing.T) {
	code, stdout, _ := simrun(t, "run", "--all", "--profile", "kafka-4.3")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{fmt.Sprintf("tally: %d scenarios: ", len(scenarios.Named())), "\n  kafka-4.3  the new follower joins", "profile kafka-4.3 (",
		"--profile kafka-4.3 --trace", "  simrun run --all  "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run --all --profile kafka-4.3 lacks %q", want)
		}
	}
	if strings.Contains(stdout, "Where Kafka's code differs") || regexp.MustCompile(`(?m)^  kip `).MatchString(stdout) {
		t.Errorf("run --all --profile kafka-4.3 shows other profiles")
	}
}
