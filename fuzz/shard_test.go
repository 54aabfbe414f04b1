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

// TestMergeRefusesBadRunLines: merge checks every run a shard file reports
// and refuses, naming the seed and what is wrong, a run line no sweep
// writes: another strategy, an unknown outcome, a failure naming no
// invariant, an ok run with a violation, unknown names, negative counts, a
// bad digest, the wrong number of coverage goals.
func TestMergeRefusesBadRunLines(t *testing.T) {
	var head bytes.Buffer
	if err := WriteSweepHeader(&head, NewSweepHeader(5, 5, campaign.Whole, harness.Strategies, "kip", "", false)); err != nil {
		t.Fatal(err)
	}
	r := SeedResult{Seed: 5}
	for _, st := range harness.Strategies {
		r.Runs = append(r.Runs, harness.RunSummary{Strategy: st, Outcome: harness.OutcomeOK, Steps: 10, Digest: "0123456789abcdef"})
	}
	var line bytes.Buffer
	if err := WriteSeedLine(&line, r, ""); err != nil {
		t.Fatal(err)
	}
	good := line.String()
	merge := func(seedLine string) error {
		_, err := MergeShards([]ShardSource{{"s.jsonl", strings.NewReader(head.String() + seedLine)}}, nil)
		return err
	}
	if err := merge(good); err != nil {
		t.Fatalf("the untouched file: %v", err)
	}
	first := func(old, new string) string { return strings.Replace(good, old, new, 1) }
	// at their edges: no steps; a failure at step 0, time 0
	for _, edge := range []string{first(`"steps":10`, `"steps":0`),
		first(`"outcome":"ok"`, `"outcome":"safety-violation","invariant":"no-hole","kind":"stale-hro","step":0,"at_ms":0`)} {
		if err := merge(edge); err != nil {
			t.Errorf("%s\n  refused: %v", edge, err)
		}
	}
	coverage := `"coverage":[` + strings.Repeat("0,", int(model.NumGoals)-1) + `0]`
	for _, c := range []struct{ line, want string }{
		{first(`"strategy":"local-log-start"`, `"strategy":"last-tiered"`), `strategy "last-tiered", want "local-log-start"`},
		{first(`"outcome":"ok"`, `"outcome":"crashed"`), `unknown outcome "crashed"`},
		{first(`"outcome":"ok"`, `"outcome":"safety-violation"`), "outcome safety-violation names no invariant"},
		{first(`"outcome":"ok"`, `"outcome":"liveness-violation"`), "outcome liveness-violation names no invariant"},
		{first(`"outcome":"ok"`, `"outcome":"budget-exceeded"`), "outcome budget-exceeded names no invariant"},
		{first(`"outcome":"ok"`, `"outcome":"ok","invariant":"no-hole"`), "outcome ok with a violation"},
		{first(`"outcome":"ok"`, `"outcome":"ok","kind":"stale-hro"`), "outcome ok with a violation"},
		{first(`"outcome":"ok"`, `"outcome":"ok","message":"m"`), "outcome ok with a violation"},
		{first(`"outcome":"ok"`, `"outcome":"ok","step":3`), "outcome ok with a violation"},
		{first(`"outcome":"ok"`, `"outcome":"ok","at_ms":3`), "outcome ok with a violation"},
		{first(`"outcome":"ok"`, `"outcome":"safety-violation","invariant":"no-such"`), `unknown invariant "no-such"`},
		{first(`"outcome":"ok"`, `"outcome":"safety-violation","invariant":"no-hole","kind":"no-such"`), `unknown kind "no-such"`},
		{first(`"outcome":"ok"`, `"outcome":"safety-violation","invariant":"no-hole","step":-1`), "negative"},
		{first(`"outcome":"ok"`, `"outcome":"safety-violation","invariant":"no-hole","at_ms":-1`), "negative"},
		{first(`"steps":10`, `"steps":-1`), "steps -1 < 0"},
		{first(`"digest":"0123456789abcdef"`, `"digest":"0123"`), "digest: want 16 hex digits"},
		{first(coverage, `"coverage":[0]`), fmt.Sprintf("coverage has 1 goals, want %d", model.NumGoals)},
		{first(coverage, `"coverage":[-1`+strings.Repeat(",0", int(model.NumGoals)-1)+`]`), "coverage[0]: negative count -1"},
	} {
		if c.line == good {
			t.Fatalf("the edit for %q changed nothing", c.want)
		}
		err := merge(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "seed 5") {
			t.Errorf("%s\n  merged with %v, want an error naming seed 5 and %q", c.line, err, c.want)
		}
	}
}
