package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrokerScaleRefusals: explore and shrink refuse any broker-scale file
// (exit 2, one clear line, no output file), which run and compare run, a
// reassign too; explore refuses a rolling_restart and a limited shared
// resource, which run runs.
func TestBrokerScaleRefusals(t *testing.T) {
	path := writeTemp(t, "reassign.json", `{"name": "reassign-b3", "brokers": 6, "duration_ms": 60000,
	  "partitions": [{"topic": "orders", "count": 20, "replicas": [0, 1, 2]}],
	  "events": [{"at_ms": 0, "type": "reassign", "topic": "orders", "partitions": [0], "replicas": [3, 4, 5]}]}`)
	out := filepath.Join(t.TempDir(), "out")
	rolling := writeTemp(t, "rolling.json", `{"name": "rolling", "brokers": 3, "replicas": [0, 1, 2], "duration_ms": 10000,
	  "events": [{"at_ms": 0, "type": "rolling_restart", "brokers": [0, 1, 2], "down_ms": 1000}]}`)
	limited := writeTemp(t, "limited.json", `{"name": "limited", "brokers": 2, "duration_ms": 1000, "config": {"remote_fetch_concurrency": 1}}`)
	plain := writeTemp(t, "plain.json", `{"name": "four", "brokers": 3, "duration_ms": 1000,
	  "partitions": [{"topic": "orders", "count": 4, "replicas": [0, 1]}]}`)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explore", "--scenario", plain, "--depth", "3"}, "cannot be explored in this build"},
		{[]string{"shrink", plain}, "cannot be shrunk in this build"},
		{[]string{"explore", "--scenario", path, "--depth", "3", "--out", out + ".json"}, "cannot be explored in this build"},
		{[]string{"explore", "--scenario", rolling, "--depth", "3", "--out", out + ".json"}, "events[0]: rolling_restart cannot be explored in this build"},
		{[]string{"explore", "--scenario", limited, "--depth", "3", "--out", out + ".json"}, "config.remote_fetch_concurrency: a limited shared resource cannot be explored in this build"},
	} {
		code, stdout, stderr := simrun(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line saying %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(out + ".json"); err == nil {
		t.Errorf("%s written", out+".json")
	}
	for _, f := range []string{plain, path} {
		if code, stdout, stderr := simrun(t, "run", "--scenario", f, "--json"); code != exitOK || !strings.Contains(stdout, `"broker_scale"`) {
			t.Errorf("run of %s: exit %d, stderr %q", f, code, stderr)
		}
	}
	if code, _, stderr := simrun(t, "compare", "--scenario", path, "--seeds", "1..2", "--profiles", "kip", "--out", out); code != exitOK {
		t.Errorf("compare of a reassign file: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := simrun(t, "run", "--scenario", rolling); code != exitOK {
		t.Errorf("run of a rolling restart: exit %d, stderr %q", code, stderr)
	}
}

// TestUnmodelledKnobsRefused: a one-partition file runs with the broker-scale
// keys at the values it behaves as today and with the shared resources
// limited, and is refused (exit 2, naming the key) where this build would
// silently ignore a fetcher-thread key or a throttle.
func TestUnmodelledKnobsRefused(t *testing.T) {
	file := func(config, events string) string {
		return writeTemp(t, "one.json", `{"brokers": 2, "duration_ms": 1000, "heal_ms": 1000, "config": {`+config+`},
		  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1, "topic": "topic", "partition": 0}`+events+`]}`)
	}
	for _, c := range []struct{ config, events, want string }{
		{`"replica_fetch_min_bytes": 4096`, "", "config.replica_fetch_min_bytes: 4096 is modelled only in broker-scale files (partitions) in this build"},
		{`"replica_fetch_response_max_bytes": 1000`, "", "config.replica_fetch_response_max_bytes: 1000 is modelled only in broker-scale files"},
		{`"follower_replication_throttled_replicas": "0:1", "follower_replication_throttled_rate": 100`, "",
			"config.follower_replication_throttled_replicas with config.follower_replication_throttled_rate: replication throttling is modelled only in broker-scale files"},
		{`"leader_replication_throttled_replicas": "*", "leader_replication_throttled_rate": 0`, "",
			"config.leader_replication_throttled_replicas with config.leader_replication_throttled_rate: replication throttling is modelled only in broker-scale files"},
	} {
		code, stdout, stderr := simrun(t, "run", "--scenario", file(c.config, c.events))
		if code != exitBadInput || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%s%s: exit %d, stdout %q, stderr %q; want exit 2 naming %q", c.config, c.events, code, stdout, stderr, c.want)
		}
	}
	// One partition is on one fetcher thread whatever their number, and a
	// throttled rate without a list of throttled replicas throttles nothing
	// (or a list without a rate): these run as today.
	for _, config := range []string{
		`"num_replica_fetchers": 8, "leader_replication_throttled_rate": 100, "follower_replication_throttled_rate": 0`,
		`"leader_replication_throttled_replicas": "*"`,
		`"replica_fetch_response_max_bytes": 10485760, "replica_fetch_min_bytes": 1, "remote_fetch_concurrency": -1`,
		// The shared resources are the environment's, read in any file.
		`"remote_fetch_concurrency": 4, "broker_network_bytes_per_sec": 1000000, "broker_disk_bytes_per_sec": 1000000`,
	} {
		if code, _, stderr := simrun(t, "run", "--scenario", file(config, "")); code != exitOK {
			t.Errorf("%s: exit %d, stderr %q", config, code, stderr)
		}
	}
}
