package harness

import (
	"slices"
	"strings"

	"tierfetch/config"
	"tierfetch/model"
)

// ParseProfile returns the behaviour profile called name; the error names
// the field Profile and the profiles there are.
func ParseProfile(name string) (model.Profile, error) {
	p, ok := model.Profiles[name]
	if !ok {
		return nil, config.Errorf("Profile", "{Profile}: want one of %s, got %q", ProfileNames(), name)
	}
	return p, nil
}

// ParseProfileList reads a comma-separated list of profile names (spaces
// around a name allowed) given in the config field field (Profile,
// Profiles). A name given twice is an error: each would run, and be
// printed, again.
func ParseProfileList(field, s string) ([]model.Profile, error) {
	var list []model.Profile
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		p, ok := model.Profiles[name]
		if !ok {
			return nil, config.Errorf(field, "{"+field+"}: want one of %s, got %q", ProfileNames(), name)
		}
		if slices.ContainsFunc(list, func(q model.Profile) bool { return q.Name() == name }) {
			return nil, config.Errorf(field, "{"+field+"}: profile %q given twice", name)
		}
		list = append(list, p)
	}
	return list, nil
}

// ProfileNames lists the behaviour profiles, sorted, comma-separated.
func ProfileNames() string {
	return strings.Join(slices.Sorted(slices.Values(model.ProfileNames())), ", ")
}

// ParseStrategies reads a Strategy setting: local-log-start, last-tiered or both.
func ParseStrategies(s string) ([]Strategy, error) {
	switch s {
	case "both":
		return Strategies, nil
	case string(LocalLogStart), string(LastTiered):
		return []Strategy{Strategy(s)}, nil
	}
	return nil, config.Errorf("Strategy", "{Strategy}: want local-log-start, last-tiered or both, got %q", s)
}

// ParseMutants reads a Mutant setting: comma-separated mutant names ("" for none).
func ParseMutants(s string) (model.Mutants, error) {
	var set model.Mutants
	if s == "" {
		return set, nil
	}
	for _, name := range strings.Split(s, ",") {
		m, ok := model.MutantByName(strings.TrimSpace(name))
		if !ok {
			return 0, config.Errorf("Mutant", "{Mutant}: unknown mutant %q (known: %s)", name, strings.Join(model.MutantNames(), ", "))
		}
		set = set.With(m)
	}
	return set, nil
}

// ParseFixes reads a Fix setting: comma-separated fix names, or "all" for every
// validated fix ("" for none); a replaced fix is accepted by its name.
func ParseFixes(s string) (model.Fixes, error) {
	var set model.Fixes
	switch strings.TrimSpace(s) {
	case "":
		return set, nil
	case "all":
		return model.AllFixes, nil
	}
	for _, name := range strings.Split(s, ",") {
		f, ok := model.FixByName(strings.TrimSpace(name))
		if strings.TrimSpace(name) == "all" {
			return 0, config.Errorf("Fix", "{Fix}: all stands alone (every fix), got %q", s)
		}
		if !ok {
			return 0, config.Errorf("Fix", "{Fix}: unknown fix %q (known: all, %s; see 'simrun fixes')", name, strings.Join(model.FixNames(), ", "))
		}
		set = set.With(f)
	}
	return set, nil
}
