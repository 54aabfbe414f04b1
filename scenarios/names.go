package scenarios

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"tierfetch/invariants"
)

// KnownInvariants are the invariant names a run can report, and KnownKinds
// the known findings' kinds (TestKnownNamesAreComplete keeps both in step
// with package invariants). Shard files naming others are refused: those
// names become file names.
var (
	KnownInvariants = []string{invariants.OffsetOrder, invariants.RemoteCommitted, invariants.NoHole,
		invariants.ReplicaAgreement, invariants.RemoteAgreement, invariants.NoCommittedLoss, invariants.EpochLineage,
		invariants.HighestRemote, invariants.StaleLogStart, invariants.ISRMembership, invariants.Liveness, InvariantBudget}
	KnownKinds = []string{invariants.KindStaleHRO, invariants.KindUncleanElection, invariants.KindStaleLogStartCopyDisabled,
		invariants.KindStaleLogStartTieringOff, invariants.KindStaleLogStartUnfinishedSegment,
		invariants.KindTieredFollowerAfterDisable, invariants.KindFollowerGapAfterDisable,
		invariants.KindKafka43EPUOUnknownStall, invariants.KindKafka43AuxStateStall}
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
	case r.Outcome == OutcomeOK && (r.Invariant != "" || r.Kind != "" || r.Message != "" || r.Step != 0 || r.AtMs != 0):
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

// checkKeys walks the valid JSON value data against type t and refuses what
// encoding/json lets through: a duplicate key (it keeps the last), a key
// that matches a field only without regard to case, a top-level or nested
// null where an object is wanted.
func checkKeys(path string, data []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if isAbsent(data) {
		if path == "" {
			return fmt.Errorf("want a JSON object, got null")
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if data[0] != '{' {
			return fmt.Errorf("%swant an object, got %s", prefix(path), jsonKind(data))
		}
		ms, err := splitObject(data)
		if err != nil {
			return err
		}
		fields := encodedFields(t)
		seen := make(map[string]bool, len(ms))
		for _, m := range ms {
			p := joinPath(path, m.key)
			idx, ok := fields[m.key]
			switch {
			case !ok:
				return fmt.Errorf("%s: unknown field", p)
			case seen[m.key]:
				return fmt.Errorf("%s: duplicate field", p)
			}
			seen[m.key] = true
			if err := checkKeys(p, m.value, t.Field(idx).Type); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if data[0] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return nil // the decoder reports a wrong type
		}
		for i, el := range splitArray(data) {
			if err := checkKeys(fmt.Sprintf("%s[%d]", path, i), el, t.Elem()); err != nil {
				return err
			}
		}
	}
	return nil
}

func prefix(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

// decodeStrictValue is DecodeStrict's core: valid JSON, one object, keys
// exactly the fields' (checkKeys), no trailing data.
func decodeStrictValue(data []byte, v any) error {
	if !json.Valid(data) {
		var x any
		if err := json.Unmarshal(data, &x); err != nil {
			return err
		}
		return fmt.Errorf("invalid JSON")
	}
	data = trimSpace(data)
	if err := checkKeys("", data, reflect.TypeOf(v)); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// encodedFields maps the names encoding/json writes for t's fields (the tag's
// name, else the Go name of an exported field) to their indexes.
func encodedFields(t reflect.Type) map[string]int {
	fields := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported():
		case name != "":
			fields[name] = i
		default:
			fields[f.Name] = i
		}
	}
	return fields
}
