package scenarios

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Failure is the "failure" member of a scenario file (an extension of the
// format): how a saved run failed, written by simrun sweep, merge,
// mutants, shrink and explore beside the scenario, so that 'simrun run' and 'simrun
// replay' of the file rerun that run (its strategy, profile, mutants, fixes
// and work budget unless a flag says otherwise) and say whether it failed
// the same way, as a Go fuzz corpus entry does. The names are checked by
// the command that runs the file, which knows them; here only their form.
type Failure struct {
	Strategy string   `json:"strategy"`
	Profile  string   `json:"profile"`
	Mutants  []string `json:"mutants,omitempty"`
	Fixes    []string `json:"fixes,omitempty"`
	// MaxSteps is the work budget the run had; 0 (absent) is the default.
	MaxSteps int64 `json:"max_steps,omitempty"`
	// Outcome is the run's outcome, and Violation what broke, as in the
	// result object (runs[].outcome, runs[].violation).
	Outcome   string           `json:"outcome"`
	Violation FailureViolation `json:"violation"`
}

// FailureViolation is the broken invariant a Failure records.
type FailureViolation struct {
	Invariant string `json:"invariant"`
	Kind      string `json:"kind,omitempty"`
	AtMs      int64  `json:"at_ms"`
	Step      int64  `json:"step"`
	Message   string `json:"message"`
}

// String says in one line what failed: "safety-violation no-hole at step
// 412 (t=1.234s)", with the known kind when there is one.
func (v FailureViolation) String() string {
	kind := ""
	if v.Kind != "" {
		kind = " (known finding " + v.Kind + ")"
	}
	return fmt.Sprintf("%s%s at step %d (t=%.3fs)", v.Invariant, kind, v.Step, float64(v.AtMs)/1000)
}

// failureNameMax bounds a name in a failure record.
const failureNameMax = 64

// rawFailure is the failure member as decoded, before its violation is.
type rawFailure struct {
	Strategy  string          `json:"strategy"`
	Profile   string          `json:"profile"`
	Mutants   []string        `json:"mutants"`
	Fixes     []string        `json:"fixes"`
	MaxSteps  int64           `json:"max_steps"`
	Outcome   string          `json:"outcome"`
	Violation json.RawMessage `json:"violation"`
}

func decodeFailure(data json.RawMessage) (*Failure, error) {
	if isAbsent(data) {
		return nil, nil
	}
	var raw rawFailure
	present, err := decodeObject("failure", data, &raw)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"strategy", "profile", "outcome", "violation"} {
		if !slices.Contains(present, name) {
			return nil, fieldErr("failure."+name, "required")
		}
	}
	f := &Failure{Strategy: raw.Strategy, Profile: raw.Profile, Mutants: raw.Mutants, Fixes: raw.Fixes, MaxSteps: raw.MaxSteps,
		Outcome: raw.Outcome}
	present, err = decodeObject("failure.violation", raw.Violation, &f.Violation)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(present, "invariant") {
		return nil, fieldErr("failure.violation.invariant", "required")
	}
	return f, nil
}

// validateFailure checks the form of a failure record: names of lower-case
// letters, digits, '.' and '-', counts not negative.
func (s *Scenario) validateFailure() error {
	f := s.Failure
	if f == nil {
		return nil
	}
	names := []struct{ path, v string }{{"failure.strategy", f.Strategy}, {"failure.profile", f.Profile},
		{"failure.outcome", f.Outcome}, {"failure.violation.invariant", f.Violation.Invariant}}
	for i, m := range f.Mutants {
		names = append(names, struct{ path, v string }{fmt.Sprintf("failure.mutants[%d]", i), m})
	}
	for i, x := range f.Fixes {
		names = append(names, struct{ path, v string }{fmt.Sprintf("failure.fixes[%d]", i), x})
	}
	if f.Violation.Kind != "" {
		names = append(names, struct{ path, v string }{"failure.violation.kind", f.Violation.Kind})
	}
	for _, n := range names {
		if !recordName(n.v) {
			return fieldErr(n.path, "want a name of at most %d lower-case letters, digits, '.' and '-', got %q", failureNameMax, clip(n.v))
		}
	}
	switch {
	case f.MaxSteps < 0:
		return fieldErr("failure.max_steps", "must be >= 0, got %d", f.MaxSteps)
	case f.Violation.AtMs < 0:
		return fieldErr("failure.violation.at_ms", "must be >= 0, got %d", f.Violation.AtMs)
	case f.Violation.Step < 0:
		return fieldErr("failure.violation.step", "must be >= 0, got %d", f.Violation.Step)
	}
	return checkText("failure.violation.message", f.Violation.Message, descriptionBytesMax, true)
}

func recordName(s string) bool {
	if s == "" || len(s) > failureNameMax {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
