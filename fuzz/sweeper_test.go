package fuzz

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tierfetch/campaign"
	"tierfetch/config"
	"tierfetch/harness"
	"tierfetch/model"
)

// TestNewSweepConfig: each bad setting is refused naming its field
// (config.Error; simrun names the flag).
func TestNewSweepConfig(t *testing.T) {
	ok := SweepArgs{Seeds: "1..10", Strategy: "both", Profile: "kip", Shard: "0/1", Out: t.TempDir(), Workers: 2, MaxSteps: 100}
	if _, err := NewSweepConfig(ok); err != nil {
		t.Fatal(err)
	}
	resume := uint64(11)
	for field, mutate := range map[string]func(*SweepArgs){
		"Seeds":      func(a *SweepArgs) { a.Seeds = "9..3" },
		"Strategy":   func(a *SweepArgs) { a.Strategy = "fastest" },
		"Profile":    func(a *SweepArgs) { a.Profile = "kafka-9" },
		"Workers":    func(a *SweepArgs) { a.Workers = 0 },
		"Mutant":     func(a *SweepArgs) { a.Mutant = "nope" },
		"Shrink":     func(a *SweepArgs) { a.Shrink = -1 },
		"Shard":      func(a *SweepArgs) { a.Shard = "3/2" },
		"ResumeFrom": func(a *SweepArgs) { a.ResumeFrom = &resume },
	} {
		a := ok
		mutate(&a)
		_, err := NewSweepConfig(a)
		var e *config.Error
		if !errors.As(err, &e) || e.Field != field || !strings.HasPrefix(err.Error(), field+":") {
			t.Errorf("%s: error %v, want one naming it", field, err)
		}
	}
}

func TestRangeTextAndPartFile(t *testing.T) {
	s := NewSweeper(SweepConfig{From: 1, To: 100, Resume: 41, Shard: campaign.Shard{K: 1, N: 2}})
	if got := s.RangeText(60, false); got != "41..59 (resumed, of 1..100) shard 1/2" {
		t.Errorf("RangeText: %q", got)
	}
	if got := s.RangeText(41, false); !strings.HasPrefix(got, "none") {
		t.Errorf("RangeText before any seed: %q", got)
	}
	if got := campaign.PartFile("out/s.from-40.jsonl", 60); got != "out/s.from-60.jsonl" {
		t.Errorf("PartFile: %q", got)
	}
}

// TestResumeText: an interrupted sweep says where it stopped, the command
// that runs the rest and, with a shard file, the merge.
func TestResumeText(t *testing.T) {
	s := NewSweeper(SweepConfig{From: 1, To: 100, Resume: 1, Shard: campaign.Whole, Profile: mustProfile(t, "kip"), Out: "o", Shrink: 5,
		Workers: 2, MaxSteps: 100, JSONL: "s.jsonl", MaxSaved: 7, MaxShrunk: DefaultMaxShrunk})
	text := s.ResumeText("SIGTERM", 42)
	for _, want := range []string{"interrupted by SIGTERM before seed 42 (s.jsonl holds", "resume with: simrun sweep Seeds 1..100 ResumeFrom 42",
		"Workers 2 MaxSaved 7 MaxSteps 100 JSONL s.from-42.jsonl", "simrun merge Out o Shrink 5 MaxSaved 7 s.jsonl s.from-42.jsonl"} {
		if !strings.Contains(text, want) {
			t.Errorf("ResumeText lacks %q:\n%s", want, text)
		}
	}
}

func mustProfile(t *testing.T, name string) model.Profile {
	p, err := harness.ParseProfile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNewSweepConfigEdges: each numeric setting is accepted at both ends of
// its stated range and refused one past it, naming its field; a sweep of
// exactly MaxSweepSeeds seeds is allowed, one more is not.
func TestNewSweepConfigEdges(t *testing.T) {
	base := SweepArgs{Seeds: "5..9", Strategy: "both", Profile: "kip", Shard: "0/1", Out: t.TempDir(), Workers: 2, MaxSteps: 100}
	at := func(v uint64) *uint64 { return &v }
	cases := []struct {
		name  string
		edit  func(*SweepArgs)
		field string // "" when the setting is accepted
	}{
		{"one worker", func(a *SweepArgs) { a.Workers = 1 }, ""},
		{"1024 workers", func(a *SweepArgs) { a.Workers = 1024 }, ""},
		{"1025 workers", func(a *SweepArgs) { a.Workers = 1025 }, "Workers"},
		{"no shrinking", func(a *SweepArgs) { a.Shrink = 0 }, ""},
		{"resume at the first seed", func(a *SweepArgs) { a.ResumeFrom = at(5) }, ""},
		{"resume at the last seed", func(a *SweepArgs) { a.ResumeFrom = at(9) }, ""},
		{"resume before the first seed", func(a *SweepArgs) { a.ResumeFrom = at(4) }, "ResumeFrom"},
		{"resume after the last seed", func(a *SweepArgs) { a.ResumeFrom = at(10) }, "ResumeFrom"},
		{"MaxSweepSeeds seeds", func(a *SweepArgs) { a.Seeds = fmt.Sprintf("1..%d", MaxSweepSeeds) }, ""},
		{"one seed more", func(a *SweepArgs) { a.Seeds = fmt.Sprintf("1..%d", MaxSweepSeeds+1) }, "Seeds"},
		{"saved and shrunk at their limit", func(a *SweepArgs) { a.MaxSaved, a.MaxShrunk = MaxSavedLimit, MaxSavedLimit }, ""},
		{"saved past its limit", func(a *SweepArgs) { a.MaxSaved = MaxSavedLimit + 1 }, "MaxSaved"},
		{"shrunk past its limit", func(a *SweepArgs) { a.MaxShrunk = MaxSavedLimit + 1 }, "MaxShrunk"},
		{"negative saved", func(a *SweepArgs) { a.MaxSaved = -1 }, "MaxSaved"},
		{"negative shrunk", func(a *SweepArgs) { a.MaxShrunk = -1 }, "MaxShrunk"},
	}
	for _, c := range cases {
		a := base
		c.edit(&a)
		cfg, err := NewSweepConfig(a)
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.name, err)
			} else if a.ResumeFrom != nil && cfg.Resume != *a.ResumeFrom {
				t.Errorf("%s: resumes at %d", c.name, cfg.Resume)
			}
			continue
		}
		var e *config.Error
		if !errors.As(err, &e) || e.Field != c.field {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.field)
		}
	}
}
