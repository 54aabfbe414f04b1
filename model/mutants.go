package model

import "sort"

// Mutant is a deliberate, named bug, modelled on a real Kafka bug or on
// dropping a rule of the KIP. Mutants prove the invariants have teeth; none
// is ever on by default.
type Mutant uint8

// Mutants.
const (
	// MutantHROOnlyFromUpload: the copy task learns HRO only from a new
	// upload (KIP-1023's seeding from remote metadata removed).
	MutantHROOnlyFromUpload Mutant = iota
	// MutantRetentionBeforeUpload: local retention deletes segments that
	// are not uploaded yet.
	MutantRetentionBeforeUpload
	// MutantUploadAboveHW: segments above the high watermark are uploaded.
	MutantUploadAboveHW
	// MutantLSOAfterRemoteDelete: the log start offset is raised after
	// remote segments are deleted instead of before (KAFKA-15352).
	MutantLSOAfterRemoteDelete
	// MutantLLSOAfterLocalDelete: the local log start offset is raised
	// after local segments are dropped instead of before (KAFKA-16073).
	MutantLLSOAfterLocalDelete
	// MutantStaleLLSOAfterAux: after the auxiliary-state build the follower
	// keeps a stale local log start offset (KAFKA-15695).
	MutantStaleLLSOAfterAux
	// MutantHWNotReset: the high watermark is not reset when a follower
	// truncates fully and restarts at an offset.
	MutantHWNotReset
	// MutantHROWithoutEpochEnd: the highest remote offset is computed
	// without the epoch end offset, wrong after an unclean election
	// (KAFKA-15241).
	MutantHROWithoutEpochEnd
	// MutantEPUOBelowLSO: the follower takes EPUO even when it is below the
	// leader's log start offset.
	MutantEPUOBelowLSO
	// MutantEmptyAgain: the follower treats itself as empty again after its
	// first jump (no local records yet counts as empty).
	MutantEmptyAgain
	NumMutants
)

var mutantNames = [...]string{"hro-only-from-upload", "retention-before-upload", "upload-above-hw",
	"lso-after-remote-delete", "llso-after-local-delete", "stale-llso-after-aux", "hw-not-reset",
	"hro-without-epoch-end", "epuo-below-lso", "empty-again"}

func (m Mutant) String() string { return mutantNames[m] }

// MutantByName returns the mutant called name.
func MutantByName(name string) (Mutant, bool) {
	for i, n := range mutantNames {
		if n == name {
			return Mutant(i), true
		}
	}
	return 0, false
}

// MutantNames lists every mutant's name, sorted.
func MutantNames() []string {
	out := append([]string(nil), mutantNames[:]...)
	sort.Strings(out)
	return out
}

// Mutants is a set of mutants.
type Mutants uint32

// With returns the set plus m.
func (s Mutants) With(m Mutant) Mutants { return s | 1<<m }

// Has reports whether m is in the set.
func (s Mutants) Has(m Mutant) bool { return s&(1<<m) != 0 }
