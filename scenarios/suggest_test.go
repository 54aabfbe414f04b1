package scenarios

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestUnknownFieldSaysWhereAndSuggests: an unknown or duplicate key is
// named with its line and column in the file, and an unknown one with the
// nearest field when one is near.
func TestUnknownFieldSaysWhereAndSuggests(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"{\n  \"brokers\": 3,\n  \"duration_ms\": 1000,\n  \"config\": {\n    \"segmnt_bytes\": 5\n  }\n}",
			`config.segmnt_bytes: unknown field at line 5, column 5 (did you mean "segment_bytes"?)`},
		{`{"brokers": 3, "duration_ms": 1000, "events": [{"at_ms": 0, "type": "add_replica", "broker": 1}, {"type": "crash", "brokr": 1}]}`,
			`events[1].brokr: unknown field at line 1, column 116 (did you mean "broker"?)`},
		{`{"brokers": 3, "duration_ms": 1000, "zzzzzz": 1}`, `zzzzzz: unknown field at line 1, column 37`},
		{`{"brokers": 3, "duration_ms": 1000, "brokers": 2}`, `brokers: duplicate field at line 1, column 37`},
		{`{"brokers": 3, "duration_ms": 1000, "failure": {"strategy": "x", "profile": "kip", "outcome": "ok", "violation": {"invariant": "x", "stp": 1}}}`,
			`failure.violation.stp: unknown field at line 1, column 133 (did you mean "step"?)`},
	} {
		_, err := Parse([]byte(c.file))
		if err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// TestResolveSaysWhatIsMissing: a mistyped name gets the nearest named
// scenario; a path that is not there is "no such file".
func TestResolveSaysWhatIsMissing(t *testing.T) {
	for arg, want := range map[string]string{
		"omts-local-delete":                "did you mean omts-local-deleted?",
		"tiering-of":                       "did you mean tiering-off?",
		"my-scenario.json":                 "scenario file my-scenario.json: no such file",
		filepath.Join(t.TempDir(), "gone"): "no such file",
		"qqqqqqqq":                         "no such named scenario (election-mid-bootstrap, ",
	} {
		if _, err := Resolve(arg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", arg, err, want)
		}
	}
}
