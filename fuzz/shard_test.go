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
