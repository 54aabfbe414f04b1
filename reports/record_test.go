package reports

import (
	bytespkg "bytes"
	"strings"
	"testing"

	"tierfetch/harness"
	"tierfetch/scenarios"
)

// TestRecordHeader: the header names the recorded run, with its mutants,
// fixes and work budget only when it has them, and the flags that override
// it only when there are some.
func TestRecordHeader(t *testing.T) {
	v := scenarios.FailureViolation{Invariant: "no-hole", Kind: "stale-hro", AtMs: 1500, Step: 42}
	plain := &scenarios.Failure{Strategy: "last-tiered", Profile: "kip", Outcome: "safety-violation", Violation: v}
	full := *plain
	full.Mutants, full.Fixes, full.MaxSteps = []string{"m1", "m2"}, []string{"f1"}, 900
	var buf bytespkg.Buffer
	RecordHeader(&buf, "a.json", plain, nil)
	RecordHeader(&buf, "a.json", &full, []string{"--profile", "--seed"})
	want := "a.json records a failure: last-tiered, profile kip: safety-violation no-hole (known finding stale-hro) at step 42 (t=1.500s); running it as recorded\n" +
		"a.json records a failure: last-tiered, profile kip, mutant m1,m2, fix f1, max-steps 900: safety-violation no-hole (known finding stale-hro) at step 42 (t=1.500s); " +
		"running it as recorded except --profile, --seed as given\n"
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}

// TestRecordVerdict: after the run, the recorded strategy's run is judged
// against the record: passed, failed otherwise, failed as recorded at
// another step, or as recorded; a record of a strategy not run says so.
func TestRecordVerdict(t *testing.T) {
	f := &scenarios.Failure{Strategy: "last-tiered", Profile: "kip", Outcome: "safety-violation",
		Violation: scenarios.FailureViolation{Invariant: "no-hole", AtMs: 1500, Step: 42}}
	ran := func(outcome string, inv string, step int64) harness.Result {
		other := harness.RunJSON{Strategy: "local-log-start", Outcome: "safety-violation", Violation: &harness.ViolationJSON{Invariant: "no-hole", AtMs: 1500, Step: 42}}
		r := harness.RunJSON{Strategy: "last-tiered", Outcome: outcome}
		if inv != "" {
			r.Violation = &harness.ViolationJSON{Invariant: inv, AtMs: 1500, Step: step}
		}
		return harness.Result{Runs: []harness.RunJSON{other, r}}
	}
	for _, c := range []struct {
		res  harness.Result
		want string
	}{
		{ran(harness.OutcomeOK, "", 0), "NOT AS RECORDED: the last-tiered run passed; the file records safety-violation no-hole at step 42 (t=1.500s)"},
		{ran("safety-violation", "no-gap", 42), "NOT AS RECORDED: the last-tiered run ended safety-violation no-gap at step 42 (t=1.500s); the file records safety-violation no-hole at step 42 (t=1.500s)"},
		{ran("safety-violation", "no-hole", 40), "as recorded: safety-violation no-hole, at step 40 instead of the recorded 42"},
		{ran("safety-violation", "no-hole", 42), "as recorded: safety-violation no-hole at step 42 (t=1.500s)"},
		{harness.Result{Runs: []harness.RunJSON{{Strategy: "local-log-start", Outcome: harness.OutcomeOK}}}, "a.json: the recorded strategy last-tiered was not run (Strategy)"},
	} {
		var buf bytespkg.Buffer
		RecordVerdict(&buf, "a.json", f, c.res, nil)
		if got := strings.TrimSuffix(buf.String(), "\n"); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestNoRecord: a file without a record runs the strategy given, "both"
// spelt out.
func TestNoRecord(t *testing.T) {
	var buf bytespkg.Buffer
	NoRecord(&buf, "a.json", "both", "kip")
	NoRecord(&buf, "a.json", "last-tiered", "kip")
	for _, want := range []string{"running both strategies, profile kip\n", "running last-tiered, profile kip\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("lacks %q:\n%s", want, buf.String())
		}
	}
}
