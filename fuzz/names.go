package fuzz

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"tierfetch/harness"
	"tierfetch/invariants"
)

// KnownInvariants are the invariant names a run can report, and KnownKinds
// the known findings' kinds (TestKnownNamesAreComplete keeps both in step
// with package invariants). Shard files naming others are refused: those
// names become file names.
var (
	KnownInvariants = []string{invariants.OffsetOrder, invariants.RemoteCommitted, invariants.NoHole,
		invariants.ReplicaAgreement, invariants.RemoteAgreement, invariants.NoCommittedLoss, invariants.EpochLineage,
		invariants.HighestRemote, invariants.StaleLogStart, invariants.ISRMembership, invariants.Liveness, harness.InvariantBudget}
	KnownKinds = []string{invariants.KindStaleHRO, invariants.KindUncleanElection, invariants.KindHROAfterTruncation, invariants.KindStaleLogStartCopyDisabled,
		invariants.KindStaleLogStartTieringOff, invariants.KindStaleLogStartUnfinishedSegment,
		invariants.KindTieredFollowerAfterDisable, invariants.KindFollowerGapAfterDisable,
		invariants.KindKafka43EPUOUnknownStall, invariants.KindKafka43AuxStateStall, invariants.KindStaleLocalLogStart}
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
	case r.Invariant != "" && !slices.Contains(KnownInvariants, r.Invariant):
		return fmt.Errorf("invariant: unknown invariant %q", shortText(r.Invariant))
	case r.Kind != "" && !slices.Contains(KnownKinds, r.Kind):
		return fmt.Errorf("kind: unknown kind %q", shortText(r.Kind))
	case r.Step < 0 || r.AtMs < 0:
		return fmt.Errorf("step %d, at_ms %d: negative", r.Step, r.AtMs)
	case !ValidDigest(r.Digest):
		return fmt.Errorf("digest: want %d hex digits (a run's XXH64 digest), got %q", digestLen, shortText(r.Digest))
	}
	for g, n := range r.Coverage {
		if n < 0 {
			return fmt.Errorf("coverage[%d]: negative count %d", g, n)
		}
	}
	return nil
}

// digestLen is the length of a run's digest (digestString).
const digestLen = 16

// ValidDigest reports whether s has the form of a run's digest.
func ValidDigest(s string) bool { return len(s) == digestLen && isHex(s) }

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

func shortText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
