package fuzz

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tierfetch/campaign"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestShardFilesRoundTrip writes seed results as shard files and merges
// them back: every field comes back, in seed order.
func TestShardFilesRoundTrip(t *testing.T) {
	var want []SeedResult
	for seed := uint64(5); seed <= 12; seed++ {
		r := SeedResult{Seed: seed}
		for i, st := range harness.Strategies {
			run := harness.RunSummary{Strategy: st, Outcome: harness.OutcomeOK, Steps: int64(seed) * 100, Digest: fmt.Sprintf("%016x", 10*seed+uint64(i))}
			run.Coverage[model.Goal(i)] = int64(seed)
			if seed == 7 && st == harness.LastTiered {
				run.Outcome, run.Invariant, run.Kind, run.Message, run.Step, run.AtMs = harness.OutcomeSafety, "no-hole", "stale-hro", "a \"quoted\"\nmessage", 42, 1234
			}
			r.Runs = append(r.Runs, run)
		}
		want = append(want, r)
	}
	var files [3]bytes.Buffer
	for k := range files {
		sh := campaign.Shard{K: uint64(k), N: 3}
		if err := WriteSweepHeader(&files[k], NewSweepHeader(5, 12, sh, harness.Strategies, "kip", "", false)); err != nil {
			t.Fatal(err)
		}
		for _, r := range want {
			if sh.Holds(5, r.Seed) {
				mismatch := ""
				if r.Seed == 9 {
					mismatch = "NONDETERMINISM seed 9"
				}
				if err := WriteSeedLine(&files[k], r, mismatch); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	var got []SeedResult
	var mismatches []string
	srcs := []ShardSource{{"c", &files[2]}, {"a", &files[0]}, {"b", &files[1]}}
	h, err := MergeShards(srcs, func(r SeedResult, m string) {
		got = append(got, r)
		if m != "" {
			mismatches = append(mismatches, m)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if h.From != 5 || h.To != 12 || h.Shard != "0/1" || h.Profile != "kip" {
		t.Errorf("header %+v", h)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged results differ:\n got %+v\nwant %+v", got, want)
	}
	if len(mismatches) != 1 || !strings.Contains(mismatches[0], "seed 9") {
		t.Errorf("mismatches %v", mismatches)
	}
}

// Shard 1 of 4 of a sweep over seeds 41..60 runs every fourth seed from the
// second on; the four shards together run each seed once.
func ExampleShard() {
	sh, _ := campaign.ParseShard("1/4")
	var seeds []uint64
	for seed, ok := sh.First(41, 60); ok; seed, ok = sh.Next(seed, 60) {
		seeds = append(seeds, seed)
	}
	fmt.Println(seeds)
	// Output: [42 46 50 54 58]
}

// TestMergeRefusesAnotherSweepsShard: merge refuses shards of sweeps with
// different options wherever the odd one lies among the files, naming the
// option, and a header lists every coverage goal in order.
func TestMergeRefusesAnotherSweepsShard(t *testing.T) {
	header := func(k uint64, profile string) *bytes.Buffer {
		var b bytes.Buffer
		if err := WriteSweepHeader(&b, NewSweepHeader(1, 4, campaign.Shard{K: k, N: 3}, harness.Strategies, profile, "", false)); err != nil {
			t.Fatal(err)
		}
		return &b
	}
	for odd := range 3 {
		srcs := make([]ShardSource, 3)
		for k := range srcs {
			profile := "kip"
			if k == odd {
				profile = "kafka-4.3"
			}
			srcs[k] = ShardSource{fmt.Sprintf("s%d", k), header(uint64(k), profile)}
		}
		_, err := MergeShards(srcs, nil)
		if err == nil || !strings.Contains(err.Error(), `profile "`) {
			t.Errorf("kafka-4.3 shard at %d merged with kip shards: %v", odd, err)
		}
	}
	h := NewSweepHeader(1, 4, campaign.Whole, harness.Strategies, "kip", "", false)
	if len(h.Goals) != int(model.NumGoals) {
		t.Fatalf("header goals %v, want %d", h.Goals, model.NumGoals)
	}
	for g := model.Goal(0); g < model.NumGoals; g++ {
		if h.Goals[g] != g.String() {
			t.Errorf("header goal %d is %q, want %q", g, h.Goals[g], g)
		}
	}
}

// TestCheckHeaderEdges: a shard header's ranges are accepted at both ends
// and refused one past, naming the field.
func TestCheckHeaderEdges(t *testing.T) {
	at := func(v uint64) *uint64 { return &v }
	ok := NewSweepHeader(5, 9, campaign.Whole, harness.Strategies, "kip", "", false)
	cases := []struct {
		name string
		edit func(*SweepHeader)
		want string // "" when accepted
	}{
		{"one seed", func(h *SweepHeader) { h.To = h.From }, ""},
		{"from above to", func(h *SweepHeader) { h.To = h.From - 1 }, "from > to"},
		{"resumed at the first seed", func(h *SweepHeader) { h.ResumeFrom = at(5) }, ""},
		{"resumed at the last seed", func(h *SweepHeader) { h.ResumeFrom = at(9) }, ""},
		{"resumed before the first", func(h *SweepHeader) { h.ResumeFrom = at(4) }, "resume_from"},
		{"resumed after the last", func(h *SweepHeader) { h.ResumeFrom = at(10) }, "resume_from"},
		{"stopped at the first seed", func(h *SweepHeader) { h.StoppedAt = at(5) }, ""},
		{"stopped at the last seed", func(h *SweepHeader) { h.StoppedAt = at(9) }, ""},
		{"stopped at the resumed seed", func(h *SweepHeader) { h.ResumeFrom, h.StoppedAt = at(7), at(7) }, ""},
		{"stopped before the resumed seed", func(h *SweepHeader) { h.ResumeFrom, h.StoppedAt = at(7), at(6) }, "stopped_at"},
		{"stopped after the last", func(h *SweepHeader) { h.StoppedAt = at(10) }, "stopped_at"},
		{"default budget", func(h *SweepHeader) { h.MaxSteps = 0 }, ""},
		{"largest budget", func(h *SweepHeader) { h.MaxSteps = harness.MaxStepsLimit }, ""},
		{"budget past its limit", func(h *SweepHeader) { h.MaxSteps = harness.MaxStepsLimit + 1 }, "max_steps"},
		{"negative budget", func(h *SweepHeader) { h.MaxSteps = -1 }, "max_steps"},
	}
	for _, c := range cases {
		h := ok
		c.edit(&h)
		err := checkHeader(h)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error naming %s", c.name, err, c.want)
		}
	}
}
