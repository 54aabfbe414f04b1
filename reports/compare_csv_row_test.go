package reports

import (
	bytespkg "bytes"
	"strings"
	"testing"

	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestCSVRowRetriesAndFollowerZero: runs.csv gives a follower that is
// broker 0 its columns, each retry reason's stalled time as its retries
// times the backoff, and zeros for reasons a run's metrics do not list.
func TestCSVRowRetriesAndFollowerZero(t *testing.T) {
	ok := harness.OutcomeOK
	p := pair("s", 1, 100, 50, ok, ok)
	p.Local.Follower, p.Local.RetriesByReason, p.Local.BackoffMs = 0, []int{2, 0, 0, 0, 0, 3}, 500
	p.Tiered.RetriesByReason = nil
	in := &CompareInput{Command: "x", Scenarios: []string{"s"}, Seeds: "1", Profile: "kip", Pairs: []ComparePair{p}}
	rows := csvRows(t, in)
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, c := range []struct {
		row        int
		name, want string
	}{
		{1, "follower", "0"}, {1, "path", "local-log-start"}, {1, "fetches", "0"},
		{1, "retries_epuo_unknown", "2"}, {1, "stalled_ms_epuo_unknown", "1000"}, {1, "retries_timeout", "3"}, {1, "stalled_ms_timeout", "1500"},
		{2, "retries_epuo_unknown", "0"}, {2, "stalled_ms_timeout", "0"},
	} {
		if got := rows[c.row][col[c.name]]; got != c.want {
			t.Errorf("row %d (%s) %s = %q, want %q", c.row, rows[c.row][col["strategy"]], c.name, got, c.want)
		}
	}
}

// TestMutantRowHarmless: a mutant the hunt found harmless says why,
// and one not caught names the seeds tried.
func TestMutantRowHarmless(t *testing.T) {
	var buf bytespkg.Buffer
	MutantRow(&buf, fuzz.MutantHunt{Mutant: model.Mutant(1), Harmless: "a finding"}, "kip", "", "f.json", 1, 50, nil)
	MutantRow(&buf, fuzz.MutantHunt{Mutant: model.Mutant(1)}, "kip", "", "f.json", 1, 50, nil)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "no       harmless (a finding): a finding") ||
		!strings.HasSuffix(lines[1], "NO       not caught in seeds 1..50") {
		t.Errorf("rows:\n%s", buf.String())
	}
}
