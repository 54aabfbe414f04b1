package scenarios

import (
	"path"
	"slices"
	"testing"

	"tierfetch/model"
)

// fuzzMaxSteps is the work budget of each FuzzRun run: small, so that the
// fuzzer tries many scenarios, and a run that reaches it is fine (bounded).
const fuzzMaxSteps = 50_000

// FuzzRun runs the simulation on fuzzed scenario files, under both
// strategies and every profile, with a work budget: any panic fails it, and
// so does a safety violation that no known finding explains. (Liveness is
// left to the sweeps: a fuzzed heal_ms or bandwidth may simply be too short
// to catch up, which is the scenario's doing, not the model's.) The corpus
// starts from every named scenario and a few generated ones.
//
//	go test ./scenarios -run '^$' -fuzz FuzzRun -fuzztime 10m
func FuzzRun(f *testing.F) {
	entries, err := namedFS.ReadDir("named")
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := namedFS.ReadFile(path.Join("named", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		data, err := Generate(seed).Marshal()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var names []string
	for name := range model.Profiles {
		names = append(names, name)
	}
	slices.Sort(names)
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse(data)
		if err != nil || sc.CheckBudget(fuzzMaxSteps) != nil {
			return
		}
		for _, name := range names {
			for _, st := range Strategies {
				res := Execute(sc, Options{Seed: sc.Seed, Strategy: st, Profile: model.Profiles[name], MaxSteps: fuzzMaxSteps})
				switch res.Outcome {
				case OutcomeOK, OutcomeBudget, OutcomeLiveness:
				case OutcomeSafety:
					if res.Violation.Kind == "" {
						t.Fatalf("%s %s: unknown safety violation %s at step %d: %s\nscenario:\n%s",
							name, st, res.Violation.Invariant, res.Violation.Step, res.Violation.Message, data)
					}
				default:
					t.Fatalf("%s %s: outcome %q", name, st, res.Outcome)
				}
			}
		}
	})
}
