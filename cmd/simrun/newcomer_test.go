package main

import (
	"strings"
	"testing"
)

// TestNewcomerMistakesGetHints: what a newcomer types wrong gets a message
// that says what to type instead, with exit 2.
func TestNewcomerMistakesGetHints(t *testing.T) {
	t.Chdir(t.TempDir()) // a run not refused as expected writes its default outputs here, not into the package
	bad := writeTemp(t, "bad.json", "{\n  \"brokers\": 3,\n  \"duration_ms\": 1000,\n  \"config\": {\"segmnt_bytes\": 5}\n}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "omts-local-deleted"}, "a scenario is given with --scenario: simrun run --scenario omts-local-deleted"},
		{[]string{"sweep", "help"}, "for help, simrun sweep --help"},
		{[]string{"run", "--scenario", "omts-local-delete"}, "did you mean omts-local-deleted?"},
		{[]string{"run", "--scenario", "no-such.json"}, "scenario file no-such.json: no such file"},
		{[]string{"run", "--scenario", bad}, `config.segmnt_bytes: unknown field at line 4, column 14 (did you mean "segment_bytes"?)`},
		{[]string{"compare", "--vary", "local.retention.byte=1MiB"}, "did you mean local_retention_bytes?"},
	} {
		code, _, stderr := simrun(t, c.args...)
		if code != exitBadInput || !strings.Contains(stderr, c.want) {
			t.Errorf("simrun %v: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
