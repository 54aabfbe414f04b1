package plan

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// files are a plan's inputs as tool output text; absent ones are not given.
type files struct {
	offsets map[Time]string
	configs string
	logDirs string
	topics  string
}

// clusterFiles reads the hand-written outputs of a 3-broker cluster with a
// tiered topic "orders" of three partitions (testdata/cluster).
func clusterFiles(t *testing.T) files {
	t.Helper()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "cluster", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	f := files{offsets: map[Time]string{}}
	for _, tm := range Times {
		f.offsets[tm] = read(tm.String() + ".txt")
	}
	f.configs, f.logDirs, f.topics = read("configs.txt"), read("log-dirs.txt"), read("topics.txt")
	return f
}

// input parses fs into an Input for partition p of topic "orders".
func (fs files) input(t *testing.T, partition int32) Input {
	t.Helper()
	in := Input{Topic: "orders", Partition: partition, Env: DefaultEnv(), SeedFrom: 1, SeedTo: 3, Workers: 2}
	for _, tm := range Times {
		text, ok := fs.offsets[tm]
		if !ok {
			continue
		}
		of, err := ParseOffsets(tm.String()+".txt", tm, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		in.Offsets = append(in.Offsets, of)
	}
	var err error
	if fs.configs != "" {
		if in.Configs, err = ParseConfigs("configs.txt", []byte(fs.configs)); err != nil {
			t.Fatal(err)
		}
	}
	if fs.logDirs != "" {
		if in.LogDirs, err = ParseLogDirs("log-dirs.txt", []byte(fs.logDirs)); err != nil {
			t.Fatal(err)
		}
	}
	if fs.topics != "" {
		if in.Topics, err = ParseTopics("topics.txt", []byte(fs.topics)); err != nil {
			t.Fatal(err)
		}
	}
	return in
}

func mustPlan(t *testing.T, in Input) (*Result, []byte) {
	t.Helper()
	r, _, data, err := Make(in)
	if err != nil {
		t.Fatal(err)
	}
	return r, data
}

func profilePlan(t *testing.T, r *Result, name string) *ProfilePlan {
	t.Helper()
	for i := range r.Profiles {
		if r.Profiles[i].Profile == name {
			return &r.Profiles[i]
		}
	}
	t.Fatalf("no profile %s in the plan", name)
	return nil
}

func hazardIDs(pp *ProfilePlan) []string {
	var ids []string
	for _, h := range pp.Hazards {
		ids = append(ids, h.ID)
	}
	return ids
}

func anyContains(list []string, part string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, part) })
}

// TestPlanFromCluster plans partition orders-2 of the cluster fixture: the
// state read from every file, and under every profile a flag-on replica that
// starts at the earliest pending upload offset and joins far sooner.
func TestPlanFromCluster(t *testing.T) {
	in := clusterFiles(t).input(t, 2)
	in.Env.ProduceBytesPerSec, in.Env.Given[FieldProduce] = 5<<20, true
	r, _ := mustPlan(t, in)
	st := r.State
	if r.Topic != "orders" || r.Partition != 2 || st.LogStartOffset != 47972352 || st.LocalLogStartOffset != 257687552 ||
		st.HighWatermark != 278496928 || st.HighestRemoteOffset != 278134783 || *st.EarliestPendingUploadOffset != 278134784 {
		t.Fatalf("state %+v", st)
	}
	if st.RecordBytes != 1024 || st.SegmentBytes != 268435456 || st.Leader != 1 || !slices.Equal(st.InSync, []int32{1, 2, 3}) || !st.RemoteStorageEnable {
		t.Errorf("state %+v", st)
	}
	if len(r.Profiles) != len(model.Profiles) {
		t.Errorf("%d profiles", len(r.Profiles))
	}
	for _, pp := range r.Profiles {
		off, on := pp.Strategies[0], pp.Strategies[1]
		if pp.Verdict != "on" || off.Joined != 3 || on.Joined != 3 || on.Extrapolated+off.Extrapolated != 0 ||
			on.SimulatedMs != r.Scenario.DurationMs || off.SimulatedMs != r.Scenario.DurationMs {
			t.Errorf("%s: verdict %s, joined %d/%d", pp.Profile, pp.Verdict, off.Joined, on.Joined)
		}
		if on.Paths["earliest-pending-upload"] != 3 || on.StartOffset.Min != 278134784 || off.Paths["local-log-start"] != 3 || off.StartOffset.Max != 257687552 {
			t.Errorf("%s: paths %v %v, starts %+v %+v", pp.Profile, off.Paths, on.Paths, off.StartOffset, on.StartOffset)
		}
		if on.CatchUpMs.Max*10 > off.CatchUpMs.Min || on.BytesFromLeader.Max*10 > off.BytesFromLeader.Min {
			t.Errorf("%s: flag on %+v / %+v, flag off %+v / %+v: want 10x faster and cheaper", pp.Profile, on.CatchUpMs, on.BytesFromLeader, off.CatchUpMs, off.BytesFromLeader)
		}
		if on.PriceRemoteBytes.Median <= off.PriceRemoteBytes.Median {
			t.Errorf("%s: price flag on %d <= flag off %d", pp.Profile, on.PriceRemoteBytes.Median, off.PriceRemoteBytes.Median)
		}
		if ids := hazardIDs(&pp); !slices.Equal(ids, []string{HazardDisableTieringLater}) {
			t.Errorf("%s: hazards %v, want only %s", pp.Profile, ids, HazardDisableTieringLater)
		}
	}
	if !strings.Contains(r.Recommendation, "turn the flag on") || !strings.Contains(r.Recommendation, "replication bandwidth (a default: ReplicationBytesPerSec)") {
		t.Errorf("recommendation: %s", r.Recommendation)
	}
	if !anyContains(r.Notes, "records of 1024 bytes: the leader's local log (broker 1") || !anyContains(r.Notes, "local.retention.ms=3600000 is modelled as local.retention.bytes") {
		t.Errorf("notes: %q", r.Notes)
	}
}

// TestPlanIsDeterministic: the same input gives the same bytes, whatever the
// number of workers.
func TestPlanIsDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plans twice")
	}
	var outs [][]byte
	for _, workers := range []int{1, 3} {
		in := clusterFiles(t).input(t, 1)
		in.Workers, in.SeedTo = workers, 2
		r, data := mustPlan(t, in)
		var text, js bytes.Buffer
		if err := r.WriteText(&text); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, append(append(text.Bytes(), js.Bytes()...), data...))
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("the plan differs between 1 and 3 workers")
	}
}

// TestSavedScenarioReproducesThePlan: every run of the plan is what simrun
// run prints for the saved scenario, seed and profile.
func TestSavedScenarioReproducesThePlan(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plans, then reruns the saved scenario")
	}
	in := clusterFiles(t).input(t, 0)
	in.SeedTo = 2
	r, data := mustPlan(t, in)
	sc, err := scenarios.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, pp := range r.Profiles {
		for seed := r.Scenario.SeedFrom; seed <= r.Scenario.SeedTo; seed++ {
			res, _ := harness.RunAll(sc, seed, harness.Strategies, model.Profiles[pp.Profile], nil)
			for i, run := range res.Runs {
				o := pp.Strategies[i].Runs[seed-r.Scenario.SeedFrom]
				f := run.Followers[0]
				if o.Seed != seed || run.Strategy != pp.Strategies[i].Strategy || run.Digest != o.Digest || f.BytesFromLeader != o.BytesFromLeader ||
					f.Bootstrap.Path != o.Path || f.Bootstrap.StartOffset != o.StartOffset || f.CaughtUpMs == nil || o.CaughtUpMs == nil || *f.CaughtUpMs != *o.CaughtUpMs {
					t.Errorf("%s seed %d %s: simrun run %+v (digest %s), plan %+v", pp.Profile, seed, run.Strategy, f, run.Digest, o)
				}
			}
		}
	}
}

// TestPlanChoosesAPartition: files with several partitions need --partition;
// it picks one; a partition no file holds is named.
func TestPlanChoosesAPartition(t *testing.T) {
	fs := clusterFiles(t)
	in := fs.input(t, -1)
	_, _, _, err := Make(in)
	var ie *InputError
	if !errors.As(err, &ie) || ie.Field != "Partition" || !strings.Contains(err.Error(), "orders-0, orders-1, orders-2") {
		t.Errorf("no --partition: %v, want an InputError on --partition listing the partitions", err)
	}
	in = fs.input(t, 7)
	if _, _, _, err := Make(in); !errors.As(err, &ie) || !strings.Contains(err.Error(), "no such partition") {
		t.Errorf("--partition 7: %v", err)
	}
	in = fs.input(t, 1)
	in.SeedTo = 1
	if r, _ := mustPlan(t, in); r.Partition != 1 || r.State.LogStartOffset != 48496640 || r.State.Leader != 3 {
		t.Errorf("--partition 1: %s-%d, state %+v", r.Topic, r.Partition, r.State)
	}
}
