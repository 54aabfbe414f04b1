package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCompareVaryPartitionCount: compare sweeps a broker-scale file's
// partition count, one point per value: runs.csv gains the broker_scale
// columns, whose bytes from leaders are those the rule gives (a replaced
// broker holds half of the partitions of a 3-replica entry on 6 brokers,
// each copying [LLSO, LEO) flag off and [EPUO, LEO) flag on), the report
// explains its catch-up time as the restored time and the sweep chart is
// drawn.
func TestCompareVaryPartitionCount(t *testing.T) {
	path := replaceSixPath
	out := filepath.Join(t.TempDir(), "cmp")
	code, _, stderr := simrun(t, "compare", "--scenario", path, "--vary", "partition_count=6,12", "--seeds", "1..1", "--profiles", "kip", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, col := runsCSV(t, out)
	perReplica := map[string]int64{"local-log-start": 3072 * 1024, "last-tiered": 1024 * 1024}
	if len(rows) != 1+2*2 {
		t.Fatalf("want 4 rows (2 values x 2 strategies), got %d", len(rows)-1)
	}
	for _, r := range rows[1:] {
		n, _ := strconv.ParseInt(r[col("vary_value")], 10, 64)
		want := n / 2 * perReplica[r[col("strategy")]]
		if got := r[col("bytes_from_leaders")]; got != strconv.FormatInt(want, 10) {
			t.Errorf("partition_count %d, %s: bytes_from_leaders %s, want %d", n, r[col("strategy")], got, want)
		}
		if r[col("restored_ms")] == "NA" || r[col("restored_ms")] != r[col("catch_up_ms")] {
			t.Errorf("partition_count %d: restored_ms %s, catch_up_ms %s: want the restored time as the pair's catch-up", n,
				r[col("restored_ms")], r[col("catch_up_ms")])
		}
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, want := range []string{"## Broker scale", "| `partition_count` | strategy | restored |", "| 12 | last-tiered |", "sweep.svg",
		"- **Restore time** (the first replace_broker", "| restore time | pairs |", "- **Bytes the added replicas fetched from their leaders**"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	// The one-partition measures a broker-scale run has not got are not
	// printed as figures (they were "0 B" and "NA").
	for _, unwanted := range []string{"the initial leader's replication egress", "a consumer reading from the log start would get"} {
		if strings.Contains(string(report), unwanted) {
			t.Errorf("report.md of a broker-scale comparison says %q", unwanted)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "sweep.svg")); err != nil {
		t.Error(err)
	}
}

// TestCompareVaryPartitionCountBadInput: a bad partition count, or the key
// on a file without one partitions entry, is refused (exit 2) naming the
// key, before anything runs.
func TestCompareVaryPartitionCountBadInput(t *testing.T) {
	six := replaceSixPath
	for _, c := range []struct {
		scenario, vary, want string
	}{
		{six, "partition_count=0", "--vary partition_count: want a whole number of partitions in 1..100000, got \"0\""},
		{six, "partition_count=1.5", "--vary partition_count: want a whole number"},
		{"tiering-off", "partition_count=4", "--vary partition_count: scenario tiering-off has 0 partitions entries"},
	} {
		out := filepath.Join(t.TempDir(), "cmp")
		code, _, stderr := simrun(t, "compare", "--scenario", c.scenario, "--vary", c.vary, "--seeds", "1..1", "--out", out)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("--vary %s: exit %d, stderr %q; want exit 2 saying %q", c.vary, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--vary %s: %s written", c.vary, out)
		}
	}
}
