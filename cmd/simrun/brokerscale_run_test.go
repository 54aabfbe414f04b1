package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// replaceSixPath is a broker-scale file, shared with the harness tests: six
// tiered partitions of 3 replicas on six brokers, broker 2 replaced empty at 0. By the file's rule partition i
// has replicas (r+i) mod 6 for r in [0,1,2], so b2 holds orders-0 (leader
// b0), orders-1 (b1) and orders-2 (b2 led it: b3, the next in its ISR, leads
// after the replace). Each leader holds offsets [0, 4096) in 1024-record
// segments, the last three local and [0, 3072) in remote storage.
const replaceSixPath = "../../harness/testdata/replace-six.json"

// TestRunBrokerScaleFirstScreen: simrun run of a replaced broker says, per
// strategy, when the broker was back, the percentiles, the bytes from each
// leader and from remote storage, the blocked time and the slowest
// partitions, and the strategies' ratio; the numbers are those of the JSON
// result, and the bytes those the protocols copy: flag off [LLSO, LEO) =
// 3072 records, flag on [EPUO, LEO) = 1024 records, of 1 KiB, per re-added
// replica.
func TestRunBrokerScaleFirstScreen(t *testing.T) {
	path := replaceSixPath
	code, out, stderr := simrun(t, "run", "--scenario", path, "--profile", "kip,kafka-4.3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, js, stderr := simrun(t, "run", "--scenario", path, "--profile", "kip,kafka-4.3", "--json")
	if code != exitOK {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var results []struct {
		Profile string `json:"profile"`
		Runs    []struct {
			Strategy    string `json:"strategy"`
			BrokerScale struct {
				RestoredMs       *int64 `json:"restored_ms"`
				P50              *int64 `json:"caught_up_ms_p50"`
				P99              *int64 `json:"caught_up_ms_p99"`
				BytesFromLeaders int64  `json:"bytes_from_leaders"`
				BytesFromRemote  int64  `json:"bytes_from_remote"`
				FetcherBlockedMs *int64 `json:"fetcher_blocked_ms"`
			} `json:"broker_scale"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(js), &results); err != nil || len(results) != 2 {
		t.Fatalf("--json with two profiles: want an array of two results, got %v: %.300s", err, js)
	}
	const kib = 1024
	perReplica := map[string]int64{"local-log-start": 3072 * kib, "last-tiered": 1024 * kib}
	blocks := strings.Split(out, "scenario replace-six")
	if len(blocks) != 3 {
		t.Fatalf("want one summary per profile, got:\n%s", out)
	}
	for i, res := range results {
		text := blocks[i+1]
		if !strings.Contains(text, "profile "+res.Profile+"  6 partitions (orders-0..5) on 6 brokers") ||
			!strings.Contains(text, "replace_broker b2 at 0 ms: 3 replicas re-added, fetching from b0 1, b1 1, b3 1 (num_replica_fetchers 1: 3 threads)") {
			t.Errorf("%s: the header does not say what the file does:\n%s", res.Profile, text)
		}
		for _, r := range res.Runs {
			bs := r.BrokerScale
			if bs.RestoredMs == nil || bs.P50 == nil || bs.P99 == nil || bs.FetcherBlockedMs == nil {
				t.Fatalf("%s %s: broker_scale fields null or missing: %s", res.Profile, r.Strategy, js)
			}
			if want := 3 * perReplica[r.Strategy]; bs.BytesFromLeaders != want {
				t.Errorf("%s %s: bytes_from_leaders %d, want 3 replicas x %d", res.Profile, r.Strategy, bs.BytesFromLeaders, perReplica[r.Strategy])
			}
			if *bs.P99 != *bs.RestoredMs || *bs.P50 > *bs.P99 {
				t.Errorf("%s %s: p50 %d, p99 %d, restored %d: with every replica re-added at 0, p99 (the 3rd of 3) is restored",
					res.Profile, r.Strategy, *bs.P50, *bs.P99, *bs.RestoredMs)
			}
			i := strings.Index(text, "  "+r.Strategy+" ")
			if i < 0 {
				t.Fatalf("%s: no %s run in:\n%s", res.Profile, r.Strategy, text)
			}
			run := text[i:]
			per := fmtMiB(perReplica[r.Strategy])
			for _, want := range []string{
				fmt.Sprintf("b2 restored in %d ms; caught up p50 %d ms, p99 %d ms", *bs.RestoredMs, *bs.P50, *bs.P99),
				fmt.Sprintf("from leaders %s (b0 %s, b1 %s, b3 %s)", fmtMiB(3*perReplica[r.Strategy]), per, per, per),
				fmt.Sprintf("fetcher threads blocked in tiered bootstraps %d ms", *bs.FetcherBlockedMs),
				"slowest: orders-",
			} {
				if !strings.Contains(run, want) {
					t.Errorf("%s %s: the summary lacks %q:\n%s", res.Profile, r.Strategy, want, run)
				}
			}
		}
		if !strings.Contains(text, "last-tiered / local-log-start: restored ") {
			t.Errorf("%s: no ratio line:\n%s", res.Profile, text)
		}
	}
}

// fmtMiB is n bytes as the summary writes a MiB count.
func fmtMiB(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }

// TestRunTracePartition: --trace-partition prints the lines of one
// partition, each tagged with its name, and the fleet's own lines
// (untagged), never another partition's; every line of a broker-scale trace
// says which partition it is about. Bad names and one-partition files are
// bad input naming the flag.
func TestRunTracePartition(t *testing.T) {
	path := replaceSixPath
	code, all, stderr := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered", "--trace")
	if code != exitOK {
		t.Fatalf("--trace: exit %d: %s", code, stderr)
	}
	code, one, stderr := simrun(t, "run", "--scenario", path, "--strategy", "last-tiered", "--trace-partition", "orders-1")
	if code != exitOK {
		t.Fatalf("--trace-partition: exit %d: %s", code, stderr)
	}
	tagged := func(out string) map[string]int {
		n := map[string]int{}
		for _, l := range strings.Split(out, "\n") {
			if i := strings.Index(l, " [orders-"); strings.HasPrefix(l, "t=") && i > 0 {
				n[l[i+2:i+2+strings.IndexByte(l[i+2:], ']')]]++
			}
		}
		return n
	}
	inAll, inOne := tagged(all), tagged(one)
	if len(inAll) != 6 {
		t.Errorf("--trace tags lines with %d partitions %v, want the six orders-0..5", len(inAll), inAll)
	}
	if len(inOne) != 1 || inOne["orders-1"] != inAll["orders-1"] || inOne["orders-1"] == 0 {
		t.Errorf("--trace-partition orders-1 tags %v, want only orders-1's %d lines", inOne, inAll["orders-1"])
	}
	// The fleet's lines (no tag) are in both; the other partitions' only in --trace.
	for _, l := range strings.Split(one, "\n") {
		if strings.HasPrefix(l, "t=") && !strings.Contains(l, "[") && !strings.Contains(all, l) {
			t.Errorf("--trace-partition printed %q, which --trace did not", l)
		}
	}
	if !strings.Contains(one, "replace_broker b2") {
		t.Errorf("--trace-partition left out the fleet's replace_broker input:\n%.2000s", one)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"--scenario", path, "--trace-partition", "orders-6"}, `"orders-6": no such partition in the scenario (its partitions run from orders-0 to orders-5)`},
		{[]string{"--scenario", path, "--trace-partition", "orders"}, `"orders": want topic-partition`},
		{[]string{"--scenario", path, "--trace-partition", "orders-x"}, `the partition after the last '-' must be a number`},
		{[]string{"--scenario", "omts-local-deleted", "--trace-partition", "t-0"}, "the scenario holds one partition"},
		{[]string{"--all", "--trace-partition", "orders-0"}, "--trace-partition needs one scenario"},
	} {
		code, _, stderr := simrun(t, append([]string{"run"}, bad.args...)...)
		if code != exitBadInput || !strings.Contains(stderr, "--trace-partition") || !strings.Contains(stderr, bad.want) {
			t.Errorf("run %v: exit %d, stderr %q; want exit 2 naming --trace-partition and %q", bad.args, code, stderr, bad.want)
		}
	}
}
