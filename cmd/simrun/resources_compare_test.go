package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCompareVaryResourcesAndThrottles: compare sweeps the shared
// resources, the remote latency and the follower throttle on a replaced
// broker (replaceSixPath, its partitions throttled "*"), one point per value,
// and the restore time moves as each rule says: at 1 MiB/s of network or
// disk the re-added replicas' bytes take at least bytes / 1 MiB/s; at a
// follower quota of 1 MiB/s at least that less one response a fetcher
// thread (three leaders: three threads of 1 MiB each) checked before any
// byte was recorded; one remote read at a time is slower than any number;
// and a 1 s remote read makes each bootstrap's two reads take 2 s.
func TestCompareVaryResourcesAndThrottles(t *testing.T) {
	const mib = 1 << 20
	six, err := os.ReadFile(replaceSixPath)
	if err != nil {
		t.Fatal(err)
	}
	file := strings.Replace(string(six), `"record_bytes": 1024}`, `"record_bytes": 1024, "follower_replication_throttled_replicas": "*"}`, 1)
	if file == string(six) {
		t.Fatal("replace-six.json's config changed: the test cannot add its throttled list")
	}
	path := writeTemp(t, "six.json", file)
	type row struct{ restored, bytes int64 }
	run := func(vary string) map[string]map[string]row { // value -> strategy -> row
		t.Helper()
		out := filepath.Join(t.TempDir(), "cmp")
		code, _, stderr := simrun(t, "compare", "--scenario", path, "--vary", vary, "--seeds", "1..1", "--profiles", "kip", "--out", out)
		if code != exitOK {
			t.Fatalf("--vary %s: exit %d: %s", vary, code, stderr)
		}
		rows, col := runsCSV(t, out)
		got := map[string]map[string]row{}
		for _, r := range rows[1:] {
			restored, err1 := strconv.ParseInt(r[col("restored_ms")], 10, 64)
			bytes, err2 := strconv.ParseInt(r[col("bytes_from_leaders")], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("--vary %s: row %v", vary, r)
			}
			if got[r[col("vary_value")]] == nil {
				got[r[col("vary_value")]] = map[string]row{}
			}
			got[r[col("vary_value")]][r[col("strategy")]] = row{restored, bytes}
		}
		if len(got) != 2 {
			t.Fatalf("--vary %s: values %v, want 2", vary, got)
		}
		if _, err := os.Stat(filepath.Join(out, "sweep.svg")); err != nil {
			t.Errorf("--vary %s: %v", vary, err)
		}
		return got
	}
	strategies := []string{"local-log-start", "last-tiered"}
	for _, key := range []string{"broker_network_bytes_per_sec", "broker_disk_bytes_per_sec", "follower_replication_throttled_rate"} {
		got := run(key + "=-1,1MiB")
		for _, s := range strategies {
			free, slow := got["-1"][s], got["1048576"][s]
			least := slow.bytes * 1000 / mib
			if key == "follower_replication_throttled_rate" {
				least = (slow.bytes - 3*mib) * 1000 / mib
			}
			if free.restored >= 1000 || slow.restored < least || slow.restored < 3*free.restored {
				t.Errorf("%s, %s: restored in %d ms unlimited, %d ms at 1 MiB/s for %d bytes; want under 1 s, and at least %d ms",
					key, s, free.restored, slow.restored, slow.bytes, least)
			}
		}
	}
	got := run("remote_fetch_concurrency=-1,1")
	for _, s := range strategies {
		if got["1"][s].restored <= got["-1"][s].restored {
			t.Errorf("remote_fetch_concurrency, %s: restored in %d ms with 1 read at a time, %d ms unlimited", s, got["1"][s].restored, got["-1"][s].restored)
		}
	}
	got = run("remote_fetch_ms=100,1000")
	for _, s := range strategies {
		if got["1000"][s].restored < 2000 || got["100"][s].restored >= 1000 {
			t.Errorf("remote_fetch_ms, %s: restored in %d ms at 100 ms a read, %d ms at 1 s; want under 1 s, and at least 2 s", s, got["100"][s].restored, got["1000"][s].restored)
		}
	}
}
