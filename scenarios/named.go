package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"tierfetch/config"
)

//go:embed named/*.json
var namedFS embed.FS

// named is the embedded scenarios, read, parsed and validated once (on
// first use, outside any run), sorted by name; callers get copies.
var named = sync.OnceValue(parseNamed)

// parseNamed parses every embedded scenario. A broken named file is a
// programmer error.
func parseNamed() []*Scenario {
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

// Named returns every one-partition named scenario, sorted by name: copies
// the caller may change. They are the scenarios run --all, the goldens and
// the fuzz corpus use; the broker-scale ones are NamedBrokerScale.
func Named() []*Scenario { return namedWhere(false) }

// NamedBrokerScale returns the named scenarios of many partitions, sorted by
// name, as copies. They run by name (simrun run --scenario NAME) but stay
// out of run --all: explore, shrink and the one-partition goldens refuse or
// pin them.
func NamedBrokerScale() []*Scenario { return namedWhere(true) }

// namedWhere returns copies of the named scenarios whose BrokerScale is
// brokerScale.
func namedWhere(brokerScale bool) []*Scenario {
	var out []*Scenario
	for _, sc := range named() {
		if sc.BrokerScale() == brokerScale {
			out = append(out, sc.Clone())
		}
	}
	return out
}

// Lookup returns (a copy of) the named scenario name, one-partition or
// broker-scale.
func Lookup(name string) (*Scenario, bool) {
	if sc := lookup(name); sc != nil {
		return sc.Clone(), true
	}
	return nil, false
}

// IsNamed reports whether name is a named scenario.
func IsNamed(name string) bool { return lookup(name) != nil }

// lookup returns the parsed named scenario name (not a copy: not to be
// changed), or nil.
func lookup(name string) *Scenario {
	for _, sc := range named() {
		if sc.Name == name {
			return sc
		}
	}
	return nil
}

// Resolve returns the scenario a --scenario flag names: a named scenario,
// or else a scenario file of at most DefaultMaxInputBytes. A name is the
// built-in scenario even when a file of that name is in the working
// directory (ShadowWarning says so); a path with a slash, ./NAME, is always
// a file.
func Resolve(arg string) (*Scenario, error) { return ResolveMax(arg, DefaultMaxInputBytes) }

// ResolveMax is Resolve with the input limit maxBytes for a file.
func ResolveMax(arg string, maxBytes int64) (*Scenario, error) {
	if sc, ok := Lookup(arg); ok {
		return sc, nil
	}
	if _, err := os.Stat(arg); err != nil {
		return nil, unresolved(arg, err)
	}
	return LoadMax(arg, maxBytes)
}

// ShadowWarning is the warning for a --scenario argument that names a
// built-in scenario while a file of that name is in the working directory
// (the built-in one is used); "" otherwise.
func ShadowWarning(flag, arg string) string {
	if strings.ContainsRune(arg, '/') {
		return ""
	}
	if !IsNamed(arg) {
		return ""
	}
	if _, err := os.Stat(arg); err != nil {
		return ""
	}
	return fmt.Sprintf("warning: %s %s is the built-in scenario %s; the file %s in the working directory is not read (write ./%s for the file)",
		flag, arg, arg, arg, arg)
}

// Select is the scenarios simrun run's --scenario arg (ResolveMax) or
// --all picks: exactly one of them must be given.
func Select(arg string, all bool, maxBytes int64) ([]*Scenario, error) {
	switch {
	case all && arg != "":
		return nil, config.Errorf("Scenario", "run: give {Scenario} or {All}, not both")
	case all:
		return Named(), nil
	case arg == "":
		return nil, config.Errorf("Scenario", "run: {Scenario} is required (or {All}); see 'simrun scenarios'")
	}
	sc, err := ResolveMax(arg, maxBytes)
	if err != nil {
		return nil, err
	}
	return []*Scenario{sc}, nil
}

// unresolved says why arg is neither a named scenario nor a file: a path
// (it has a '/' or ends in .json) that is not there is "no such file"; a
// name gets the nearest named scenario suggested, or the list.
func unresolved(arg string, statErr error) error {
	var names []string
	for _, sc := range named() {
		names = append(names, sc.Name)
	}
	looksLikeFile := strings.ContainsRune(arg, '/') || strings.HasSuffix(arg, ".json")
	switch {
	case errors.Is(statErr, fs.ErrNotExist) && looksLikeFile:
		return fmt.Errorf("scenario file %s: no such file", arg)
	case !errors.Is(statErr, fs.ErrNotExist):
		return fmt.Errorf("scenario file %s: %v", arg, statErr)
	}
	if s := Closest(arg, names); s != "" {
		return fmt.Errorf("scenario %q: no such named scenario or file; did you mean %s? ('simrun scenarios' lists them)", arg, s)
	}
	return fmt.Errorf("scenario %q: no such named scenario (%s) or file", arg, strings.Join(names, ", "))
}
