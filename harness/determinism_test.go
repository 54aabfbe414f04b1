package harness_test

import (
	"runtime"
	"sync"
	"testing"

	"tierfetch/gen"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/scenarios"
)

// goldenDigests pins the digest of a few runs (XXH64 of every event's
// canonical encoding, model.Event.AppendBinary), the way math/rand/v2's
// regress_test pins its outputs. A change here changes what a seed means:
// make it on purpose, and say why in the commit. testdata/traces holds a few
// runs as readable text beside them (TestGoldenTraces), so that the diff of a
// change shows what it did.
var goldenDigests = []struct {
	scenario string
	seed     uint64
	strategy harness.Strategy
	digest   string
}{
	{"omts-local-deleted", 1, harness.LocalLogStart, "b676108477420b5a"},
	{"omts-local-deleted", 1, harness.LastTiered, "42a2ec38fe5c4ef1"},
	{"leader-hro-unknown", 7, harness.LastTiered, "51300f233ea0cd03"},
	{"election-mid-bootstrap", 3, harness.LocalLogStart, "c69f1cdfe6d7b84a"},
}

func digestOf(t *testing.T, name string, seed uint64, st harness.Strategy) string {
	t.Helper()
	sc, ok := scenarios.Lookup(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	return harness.Execute(sc, harness.Options{Seed: seed, Strategy: st, Profile: model.KIP}).Digest
}

func TestGoldenDigests(t *testing.T) {
	for _, g := range goldenDigests {
		if got := digestOf(t, g.scenario, g.seed, g.strategy); got != g.digest {
			t.Errorf("%s seed %d %s: digest %s, want %s", g.scenario, g.seed, g.strategy, got, g.digest)
		}
	}
}

// TestDeterminism runs every named scenario and a few generated ones twice,
// under GOMAXPROCS 1 and 2, and side by side in goroutines: the digest must
// not change.
func TestDeterminism(t *testing.T) {
	type job struct {
		sc *scenarios.Scenario
		st harness.Strategy
	}
	var jobs []job
	for _, sc := range append(scenarios.Named(), gen.Generate(11), gen.Generate(12), gen.Generate(13)) {
		for _, st := range harness.Strategies {
			jobs = append(jobs, job{sc, st})
		}
	}
	run := func(j job) string {
		return harness.Execute(j.sc, harness.Options{Seed: j.sc.Seed, Strategy: j.st}).Digest
	}
	want := make([]string, len(jobs))
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	for i, j := range jobs {
		want[i] = run(j)
	}
	runtime.GOMAXPROCS(2)
	got := make([]string, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = run(j)
		}()
	}
	wg.Wait()
	for i, j := range jobs {
		if got[i] != want[i] || run(j) != want[i] {
			t.Errorf("%s/%s: digest differs between runs (%s vs %s)", j.sc.Name, j.st, want[i], got[i])
		}
	}
}

// TestGeneratedScenariosRoundTrip checks that a generated scenario is an
// ordinary scenario file: parsing its text gives it back.
func TestGeneratedScenariosRoundTrip(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		sc := gen.Generate(seed)
		data, err := sc.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := scenarios.Parse(data)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		again, _ := back.Marshal()
		if string(again) != string(data) {
			t.Fatalf("seed %d: generated scenario does not round-trip", seed)
		}
	}
}
