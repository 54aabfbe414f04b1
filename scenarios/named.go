package scenarios

import (
	"embed"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"tierfetch/model"
)

//go:embed named/*.json
var namedFS embed.FS

// Named returns every named scenario, sorted by name. A broken named file is
// a programmer error.
func Named() []*Scenario {
	entries, err := namedFS.ReadDir("named")
	if err != nil {
		panic(err)
	}
	var out []*Scenario
	for _, e := range entries {
		data, err := namedFS.ReadFile(path.Join("named", e.Name()))
		if err != nil {
			panic(err)
		}
		sc, err := Parse(data)
		if err != nil {
			panic(fmt.Sprintf("named scenario %s: %v", e.Name(), err))
		}
		if want := strings.TrimSuffix(e.Name(), ".json"); sc.Name != want {
			panic(fmt.Sprintf("named scenario %s is called %q", e.Name(), sc.Name))
		}
		out = append(out, sc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the named scenario name.
func Lookup(name string) (*Scenario, bool) {
	for _, sc := range Named() {
		if sc.Name == name {
			return sc, true
		}
	}
	return nil, false
}

// Resolve returns the scenario a --scenario flag names: a named scenario,
// or else a scenario file of at most DefaultMaxInputBytes.
func Resolve(arg string) (*Scenario, error) { return ResolveMax(arg, DefaultMaxInputBytes) }

// ResolveMax is Resolve with the input limit maxBytes for a file.
func ResolveMax(arg string, maxBytes int64) (*Scenario, error) {
	if sc, ok := Lookup(arg); ok {
		return sc, nil
	}
	if _, err := os.Stat(arg); err != nil {
		var names []string
		for _, sc := range Named() {
			names = append(names, sc.Name)
		}
		return nil, fmt.Errorf("scenario %q: not a named scenario (%s) nor a readable file", arg, strings.Join(names, ", "))
	}
	return LoadMax(arg, maxBytes)
}

// RunAll runs sc with every strategy in strategies and gathers the result
// object.
func RunAll(sc *Scenario, seed uint64, strategies []Strategy, p model.Profile, sink func(string)) (Result, []*RunResult) {
	return RunAllWith(sc, Options{Seed: seed, Profile: p, TraceSink: sink}, strategies)
}

// RunAllWith is RunAll with every option (mutants, trace sink) given; the
// strategy of opt is replaced by each of strategies in turn.
func RunAllWith(sc *Scenario, opt Options, strategies []Strategy) (Result, []*RunResult) {
	if opt.Profile == nil {
		opt.Profile = model.KIP
	}
	res := Result{SchemaVersion: SchemaVersion, Seed: opt.Seed, Scenario: sc.Name, Profile: opt.Profile.Name()}
	var runs []*RunResult
	for _, st := range strategies {
		opt.Strategy = st
		r := Execute(sc, opt)
		runs = append(runs, r)
		res.Runs = append(res.Runs, r.JSON())
	}
	return res, runs
}

// StatesAround reruns a run up to its failing step and returns the state
// before and after that step: the run is deterministic, so the rerun is the
// same run.
func StatesAround(sc *Scenario, opt Options, step int64) (before, after State) {
	opt.TraceSink = nil
	if step > 1 {
		opt.StopAfter = step - 1
		before = StateOf(Execute(sc, opt).Cluster)
	} else {
		opt.StopAfter = -1
		before = StateOf(Execute(sc, opt).Cluster)
	}
	opt.StopAfter = step
	after = StateOf(Execute(sc, opt).Cluster)
	return before, after
}
