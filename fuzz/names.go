package fuzz

import (
	"fmt"
	"slices"
	"strings"

	"tierfetch/harness"
)

// SafeName reports whether s can be part of a file name: lowercase letters,
// digits and single dashes, 1 to 64 bytes, so it never holds a path
// separator, "..", a dot or a control character.
func SafeName(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// checkRunNames checks the names a run line carries against the known ones.
func checkRunNames(r runLine) error {
	switch {
	case r.Outcome == harness.OutcomeOK && (r.Invariant != "" || r.Kind != "" || r.Message != "" || r.Step != 0 || r.AtMs != 0):
		return fmt.Errorf("outcome ok with a violation (invariant %q, kind %q)", r.Invariant, r.Kind)
	case r.Invariant != "" && !slices.Contains(harness.KnownInvariants, r.Invariant):
		return fmt.Errorf("invariant: unknown invariant %q", shortText(r.Invariant))
	case r.Kind != "" && !slices.Contains(harness.KnownKinds, r.Kind):
		return fmt.Errorf("kind: unknown kind %q", shortText(r.Kind))
	case r.Step < 0 || r.AtMs < 0:
		return fmt.Errorf("step %d, at_ms %d: negative", r.Step, r.AtMs)
	case !harness.ValidDigest(r.Digest):
		return fmt.Errorf("digest: want %d hex digits (a run's XXH64 digest), got %q", harness.DigestLen, shortText(r.Digest))
	}
	for g, n := range r.Coverage {
		if n < 0 {
			return fmt.Errorf("coverage[%d]: negative count %d", g, n)
		}
	}
	return nil
}

func shortText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
