package scenarios

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const recordedFile = `{"brokers": 2, "duration_ms": 1000, "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}],
  "failure": {"strategy": "last-tiered", "profile": "kafka-4.3", "mutants": ["hw-not-reset"], "max_steps": 9000,
    "outcome": "safety-violation",
    "violation": {"invariant": "offset-order", "at_ms": 812, "step": 77, "message": "b1: hw 10 > leo 0"}}}`

// TestFailureRecordRoundTrips: the failure member is read field for field
// and written back the same, and a file without one has none.
func TestFailureRecordRoundTrips(t *testing.T) {
	s := mustParse(t, recordedFile)
	want := &Failure{Strategy: "last-tiered", Profile: "kafka-4.3", Mutants: []string{"hw-not-reset"}, MaxSteps: 9000,
		Outcome: "safety-violation", Violation: FailureViolation{Invariant: "offset-order", AtMs: 812, Step: 77, Message: "b1: hw 10 > leo 0"}}
	if diff := cmp.Diff(want, s.Failure); diff != "" {
		t.Errorf("failure member (-want +got):\n%s", diff)
	}
	out, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(s, mustParse(t, string(out))); diff != "" {
		t.Errorf("Parse(Marshal(s)) != s:\n%s", diff)
	}
	if s := mustParse(t, `{"brokers": 1, "duration_ms": 1}`); s.Failure != nil {
		t.Errorf("a file without a failure member has one: %+v", s.Failure)
	}
	if s := mustParse(t, strings.Replace(recordedFile, `["hw-not-reset"]`, `[]`, 1)); s.Failure.Mutants != nil {
		t.Errorf("an empty mutants list is not normalized to none: %#v", s.Failure.Mutants)
	}
}

// TestFailureRecordErrors: a malformed record is refused naming the member.
func TestFailureRecordErrors(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`"strategy": "last-tiered", `, ``, "failure.strategy: required"},
		{`"violation": {`, `"violatoin": {`, "failure.violatoin: unknown field"},
		{`"profile": "kafka-4.3"`, `"profile": "Kafka 4.3"`, "failure.profile: want a name"},
		{`["hw-not-reset"]`, `["hw not reset"]`, "failure.mutants[0]: want a name"},
		{`"max_steps": 9000`, `"max_steps": -1`, "failure.max_steps: must be >= 0"},
		{`"step": 77`, `"step": -77`, "failure.violation.step: must be >= 0"},
		{`"message": "b1`, `"message": "\u0007b1`, "failure.violation.message: control character"},
		{`"at_ms": 812`, `"at_ms": 812, "kind": ""`, "failure.violation.kind"},
	} {
		_, err := Parse([]byte(strings.Replace(recordedFile, c.from, c.to, 1)))
		if c.want == "failure.violation.kind" {
			if err != nil {
				t.Errorf("an empty kind (no known finding) is refused: %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s -> %s: error %v, want %q", c.from, c.to, err, c.want)
		}
	}
}
