package scenarios_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

func TestConfigRangesCoverEveryField(t *testing.T) {
	ct := reflect.TypeOf(scenarios.Config{})
	for i := range ct.NumField() {
		name, _, _ := strings.Cut(ct.Field(i).Tag.Get("json"), ",")
		if ct.Field(i).Type.Kind() == reflect.Int64 {
			if _, ok := scenarios.ConfigRanges[name]; !ok {
				t.Errorf("config.%s has no documented range in scenarios.ConfigRanges (and docs/reference/scenario-format.md)", name)
			}
		}
	}
}

// rangeScenario is a small tiered scenario that exercises every timer: a
// follower joins, records arrive, tiering and retention run, a leader is
// elected and a broker crashes.
func rangeScenario(config string) string {
	if !strings.Contains(config, "segment_bytes") {
		config = `, "segment_bytes": 102400` + config
	}
	return `{"brokers": 3, "replicas": [0, 2], "duration_ms": 20000, "heal_ms": 20000,
	  "config": {"remote_storage_enable": true` + config + `},
	  "initial": {"high_watermark": 300, "highest_remote_offset": 99,
	    "remote_segments": [{"base_offset": 0, "end_offset": 99}],
	    "local_segments": [{"base_offset": 100, "end_offset": 199}, {"base_offset": 200, "end_offset": 299}]},
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1},
	    {"at_ms": 0, "type": "produce", "records": 500, "over_ms": 5000},
	    {"at_ms": 6000, "type": "elect_leader", "broker": 2},
	    {"at_ms": 8000, "type": "crash", "broker": 0},
	    {"at_ms": 9000, "type": "set_config", "key": "remote_log_manager_task_interval_ms", "value": 1000000000000},
	    {"at_ms": 9000, "type": "network_partition", "brokers": [1], "duration_ms": 1000000000000},
	    {"at_ms": 9000, "type": "remote_outage", "duration_ms": 1000000000000}]}`
}

// runEverywhere runs sc under both strategies and every profile with a small
// budget and fails on a panic or an outcome that is not one of the known ones.
func runEverywhere(t *testing.T, sc *scenarios.Scenario) {
	t.Helper()
	for _, p := range model.Profiles {
		for _, st := range harness.Strategies {
			res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, Profile: p, MaxSteps: 200_000})
			switch res.Outcome {
			case harness.OutcomeOK, harness.OutcomeSafety, harness.OutcomeLiveness, harness.OutcomeBudget:
			default:
				t.Errorf("%s %s: outcome %q", p.Name(), st, res.Outcome)
			}
		}
	}
}

// TestConfigRangesHold: every integer config field at each end of its range
// gives a scenario that runs (no panic, no hang), and one past either end is
// rejected naming the field. Before the ranges, int64 max in a timing field
// panicked with "event scheduled in the past".
func TestConfigRangesHold(t *testing.T) {
	for name, r := range scenarios.ConfigRanges {
		for _, v := range []int64{r[0], r[1]} {
			sc, err := scenarios.Parse([]byte(rangeScenario(fmt.Sprintf(`, %q: %d`, name, v))))
			if err != nil {
				if name == "record_bytes" && v == r[1] { // the fixture alone is then too big: checked below
					continue
				}
				t.Errorf("config.%s = %d (in range): %v", name, v, err)
				continue
			}
			runEverywhere(t, sc)
		}
		for _, v := range []int64{r[0] - 1, r[1] + 1} {
			if (v == r[1]+1 && r[1] == math.MaxInt64) || (v == r[0]-1 && r[0] == math.MinInt64) {
				continue
			}
			_, err := scenarios.Parse([]byte(rangeScenario(fmt.Sprintf(`, %q: %d`, name, v))))
			if err == nil || !strings.Contains(err.Error(), "config."+name+":") {
				t.Errorf("config.%s = %d (out of range): error %v, want one naming the field", name, v, err)
			}
		}
		if _, err := scenarios.Parse([]byte(rangeScenario(fmt.Sprintf(`, %q: %d`, name, int64(math.MaxInt64))))); r[1] != math.MaxInt64 && err == nil {
			t.Errorf("config.%s = 2^63-1 accepted", name)
		}
	}
}

// TestLogBytesBounded: the bytes a log can reach (offsets times record_bytes)
// are bounded, so no byte count overflows, and a log at the bound runs with
// no negative byte counts.
func TestLogBytesBounded(t *testing.T) {
	big := `{"brokers": 2, "duration_ms": 10000, "config": {"record_bytes": 2147483647},
	  "initial": {"local_segments": [{"base_offset": 0, "end_offset": 4000000}]},
	  "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}]}`
	sc, err := scenarios.Parse([]byte(big))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range harness.Strategies {
		res := harness.Execute(sc, harness.Options{Seed: 1, Strategy: st, MaxSteps: 200_000})
		for _, f := range res.JSON().Followers {
			if f.BytesFromLeader < 0 {
				t.Errorf("%s: bytes_from_leader %d < 0", st, f.BytesFromLeader)
			}
		}
	}
	for _, bad := range []string{
		strings.Replace(big, "4000000", "4200000", 1), // 2^53 bytes and more
		`{"brokers": 2, "duration_ms": 10000, "initial": {"local_segments": [{"base_offset": 0, "end_offset": 4611686018427387000}]}}`,
		`{"brokers": 2, "duration_ms": 10000, "initial": {"local_segments": [{"base_offset": 4611686018427380000, "end_offset": 4611686018427387000}]},
		  "events": [{"at_ms": 0, "type": "produce", "records": 1000000000}]}`,
	} {
		if _, err := scenarios.Parse([]byte(bad)); err == nil {
			t.Errorf("accepted a log beyond the byte or offset bounds:\n%s", bad)
		}
	}
}

// TestLeaderEpochCannotWrap: the initial leader epoch leaves room for one
// election per event and broker, and a scenario at that bound elects its
// way to int32 max without wrapping.
func TestLeaderEpochCannotWrap(t *testing.T) {
	file := func(epoch int64) string {
		var evs []string
		for i := range 40 {
			evs = append(evs, fmt.Sprintf(`{"at_ms": %d, "type": "elect_leader", "broker": %d}`, 100*i, 1+i%2),
				fmt.Sprintf(`{"at_ms": %d, "type": "crash", "broker": %d}`, 100*i+50, i%3),
				fmt.Sprintf(`{"at_ms": %d, "type": "restart", "broker": %d}`, 100*i+60, i%3))
		}
		return fmt.Sprintf(`{"brokers": 3, "replicas": [0, 1, 2], "duration_ms": 10000,
		  "config": {"unclean_leader_election_enable": true},
		  "initial": {"leader_epoch": %d, "local_segments": [{"base_offset": 0, "end_offset": 9, "epoch": %d}]},
		  "events": [%s]}`, epoch, epoch, strings.Join(evs, ", "))
	}
	room := int64(math.MaxInt32) - 120 - 3
	sc, err := scenarios.Parse([]byte(file(room)))
	if err != nil {
		t.Fatal(err)
	}
	runEverywhere(t, sc)
	if _, err := scenarios.Parse([]byte(file(room + 1))); err == nil || !strings.Contains(err.Error(), "initial.leader_epoch") {
		t.Errorf("leader_epoch %d: error %v, want one naming initial.leader_epoch", room+1, err)
	}
}

// TestStringsMustBeText: invalid UTF-8, lone surrogates, control characters
// and overlong names are rejected instead of silently replaced.
func TestStringsMustBeText(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"{\"name\": \"bad\xff\", \"brokers\": 2, \"duration_ms\": 1}", "line 1, column 14: invalid UTF-8"},
		{"{\"brokers\": 2, \"duration_ms\": 1,\n \"description\": \"x\xc3\"}", "line 2, column 19: invalid UTF-8"},
		{`{"name": "a\ud800b", "brokers": 2, "duration_ms": 1}`, "name: invalid UTF-8"},
		{`{"name": "a\u0007", "brokers": 2, "duration_ms": 1}`, "name: control character"},
		{`{"name": "` + strings.Repeat("n", 300) + `", "brokers": 2, "duration_ms": 1}`, "name: at most 256 bytes"},
	} {
		_, err := scenarios.Parse([]byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.file, err, c.want)
		}
	}
	if _, err := scenarios.Parse([]byte(`{"description": "two\nlines\tand tabs: fine", "brokers": 2, "duration_ms": 1}`)); err != nil {
		t.Error(err)
	}
	var s struct{ A string }
	_ = json.Unmarshal(nil, &s)
}

// TestFixtureMemoryIsLinear: a fixture of n remote segments, each in a new
// leader epoch, builds in memory linear in n (each segment's epoch
// checkpoint shares one list; copying it was O(n^2): 5 GB at n = 20000).
func TestFixtureMemoryIsLinear(t *testing.T) {
	build := func(n int) uint64 {
		var segs []string
		for i := range n {
			segs = append(segs, fmt.Sprintf(`{"base_offset": %d, "end_offset": %d, "epoch": %d}`, i*10, i*10+9, i))
		}
		sc, err := scenarios.Parse([]byte(fmt.Sprintf(`{"brokers": 2, "duration_ms": 1, "config": {"remote_storage_enable": true},
		  "initial": {"leader_epoch": %d, "high_watermark": %d, "remote_segments": [%s], "local_segments": [%s]}}`,
			n, n*10, strings.Join(segs[:n-1], ","), segs[n-1])))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		sc.ModelInitial()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := build(2000), build(8000)
	if large > 8*small {
		t.Errorf("ModelInitial allocates %d bytes for 2000 segments and %d for 8000: more than linear", small, large)
	}
}

// TestLoadLimitsInput: a file over the input limit, or an endless one, is
// refused after reading at most the limit, naming the setting that raises it.
func TestLoadLimitsInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, []byte(`{"brokers": 2, "duration_ms": 1, "description": "`+strings.Repeat("x", 5000)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := scenarios.LoadMax(path, 4096); err == nil || !strings.Contains(err.Error(), "raise it with MaxInput") {
		t.Errorf("a 5 KB file under a 4 KB limit: %v", err)
	}
	if _, err := scenarios.LoadMax(path, 8192); err != nil {
		t.Errorf("a 5 KB file under an 8 KB limit: %v", err)
	}
	if _, err := scenarios.LoadMax("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Errorf("/dev/zero: %v", err)
	}
}

func TestParseMaxInputBytes(t *testing.T) {
	if n, err := scenarios.ParseMaxInputBytes("4096"); n != 4096 || err != nil {
		t.Errorf("ParseMaxInputBytes(4096) = %d, %v", n, err)
	}
	for _, bad := range []string{"0", "+5", "1KiB", "-1", "4294967297", ""} {
		if _, err := scenarios.ParseMaxInputBytes(bad); err == nil {
			t.Errorf("ParseMaxInputBytes(%q): no error", bad)
		}
	}
}
