package explore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

func goodArgs() Args {
	return Args{Scenario: "testdata/tiny-join.json", Strategy: string(harness.LastTiered), Profile: "kip", Depth: 5,
		MaxStates: 100_000, MaxMemory: DefaultMaxMemoryMiB, FaultMs: DefaultFaultMs, Out: "cx.json", Shard: "0/1"}
}

// TestArgsConfig: each bad setting is an error naming its field; good
// settings build the search and its header.
func TestArgsConfig(t *testing.T) {
	cases := []struct {
		edit func(*Args)
		want string
	}{
		{func(a *Args) { a.Scenario = "" }, "Scenario"},
		{func(a *Args) { a.Scenario = "no-such-scenario" }, "no-such-scenario"},
		{func(a *Args) { a.Strategy = "both" }, "Strategy"},
		{func(a *Args) { a.Profile = "kafka-9" }, "Profile"},
		{func(a *Args) { a.Mutant = "nope" }, "Mutant"},
		{func(a *Args) { a.Depth = -1 }, "Depth"},
		{func(a *Args) { a.MaxMemory = 10 }, "MaxMemory"},
		{func(a *Args) { a.FromMs = 2300 }, "FromMs: 2300 is at or past the end of tiny-join (2300 ms"},
		{func(a *Args) { a.MaxStates = 0 }, "MaxStates"},
		{func(a *Args) { a.FaultMs = 0 }, "FaultMs"},
		{func(a *Args) { a.Faults = "crash,meteor" }, "Faults"},
		{func(a *Args) { a.Shard = "3/3" }, "Shard"},
		{func(a *Args) { a.FromMs = -1 }, "FromMs"},
		{func(a *Args) { a.Out = "" }, "Out"},
	}
	for _, c := range cases {
		a := goodArgs()
		c.edit(&a)
		if _, _, err := a.Config(0, scenarios.DefaultMaxInputBytes); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error naming %s", a, err, c.want)
		}
	}
	a := goodArgs()
	a.Faults = "crash, elect"
	cfg, h, err := a.Config(7, scenarios.DefaultMaxInputBytes)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Depth != 5 || cfg.MaxSteps != 7 || !cfg.Liveness || len(cfg.Faults) != 2 || h.Scenario != "tiny-join" ||
		h.Shard != "0/1" || strings.Join(h.Faults, ",") != "crash,elect" {
		t.Errorf("config %+v, header %+v", cfg, h)
	}
	a.Faults = ""
	if cfg, h, _ := a.Config(0, scenarios.DefaultMaxInputBytes); cfg.Faults != nil || h.Faults == nil {
		t.Errorf("no faults: config %v (want nil), header %v (want [])", cfg.Faults, h.Faults)
	}
}

// TestArgsFaultSpellings: --faults takes each fault's explore name or its
// scenario event type; both give the same search and the same header (which
// names it the explore way), so shards of either spelling merge.
func TestArgsFaultSpellings(t *testing.T) {
	a := goodArgs()
	a.Faults = "crash,elect,partition,remote-outage"
	cfg, h, err := a.Config(0, scenarios.DefaultMaxInputBytes)
	if err != nil {
		t.Fatal(err)
	}
	a.Faults = "crash,elect_leader,network_partition,remote_outage"
	cfg2, h2, err := a.Config(0, scenarios.DefaultMaxInputBytes)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h2.Faults, ",") != "crash,elect,partition,remote-outage" || h2.ContentDigest != h.ContentDigest ||
		strings.Join(cfg2.Faults, ",") != strings.Join(cfg.Faults, ",") {
		t.Errorf("scenario-event spellings: config %v, header %v %s; want those of the explore names: %v, %v %s",
			cfg2.Faults, h2.Faults, h2.ContentDigest, cfg.Faults, h.Faults, h.ContentDigest)
	}
	a.Faults = "outage"
	if _, _, err := a.Config(0, scenarios.DefaultMaxInputBytes); err == nil ||
		err.Error() != `Faults: unknown fault "outage" (want some of crash, restart, elect, partition, remote-outage)` {
		t.Errorf("--faults outage: %v", err)
	}
}

// TestShardFilesMerge: shard files written by ShardFile parse back and merge;
// a malformed, foreign or missing shard is an error naming the file.
func TestShardFilesMerge(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	var names []string
	for _, k := range []string{"0/2", "1/2"} {
		a := goodArgs()
		a.Faults, a.Shard, a.NoLiveness = "crash,elect", k, true
		cfg, h, err := a.Config(0, scenarios.DefaultMaxInputBytes)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := ReportOf(res)
		if err != nil {
			t.Fatal(err)
		}
		data, err := ShardFile(h, rep)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, strings.Replace(k, "/", "-", 1))
		if err := WriteShardFile(name, h, rep); err != nil {
			t.Fatal(err)
		}
		files[name] = data
		names = append(names, name)
	}
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	h, m, err := MergeFiles(names)
	if err != nil || h.Shard != "0/1" || !m.Exhausted || m.States == 0 || m.Depth != 5 {
		t.Fatalf("merge: %v, %+v, %+v", err, h, m)
	}
	if !strings.Contains(Text(h, m, 0, nil), "exhausted to Depth 5, not to the scenario's end: every state of the first 5 steps") {
		t.Errorf("text:\n%s", Text(h, m, 0, nil))
	}
	if _, _, err := MergeFiles(names[:1]); err == nil || !strings.Contains(err.Error(), "shard 1/2 missing") {
		t.Errorf("one shard: %v", err)
	}
	if _, _, err := MergeFiles([]string{names[0], filepath.Join(dir, "nope")}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unreadable: %v", err)
	}
	if _, _, err := MergeFiles([]string{write("bad", []byte("{}\n"))}); err == nil || !strings.Contains(err.Error(), "bad: want 2 lines") {
		t.Errorf("one line: %v", err)
	}
	extra := write("extra", []byte(`{"tierfetch_explore":2,"x":1}`+"\n{}\n"))
	if _, _, err := MergeFiles([]string{extra}); err == nil || !strings.Contains(err.Error(), "not an explore header") {
		t.Errorf("unknown field: %v", err)
	}
	other := strings.Replace(string(files[names[1]]), `"depth":5`, `"depth":6`, 1)
	if _, _, err := MergeFiles([]string{names[0], write("other", []byte(other))}); err == nil || !strings.Contains(err.Error(), "another search") {
		t.Errorf("foreign shard: %v", err)
	}
}
