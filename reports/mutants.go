package reports

import (
	"fmt"
	"io"
	"tierfetch/config"

	"tierfetch/fuzz"
)

// MutantsHeader writes the header of the table 'simrun mutants' prints.
func MutantsHeader(w io.Writer) {
	fmt.Fprintf(w, "%-24s %-8s %-6s %-16s %-20s %s\n", "mutant", "caught", "seed", "strategy", "invariant", "case size (before -> after shrinking)")
}

// MutantRow writes one mutant's row of that table: where it was caught,
// with the replay command of its shrunk case saved in file (run under
// profile, with the fixes fix as --fix takes them); or why it is harmless;
// or that seeds from..to did not catch it. names spells the flags it names.
func MutantRow(w io.Writer, h fuzz.MutantHunt, profile, fix, file string, from, to uint64, names config.Names) {
	m := h.Mutant
	switch {
	case h.Caught:
		fmt.Fprintf(w, "%-24s %-8s %-6d %-16s %-20s %s -> %s\n", m, "yes", h.Seed, h.Strategy, h.Run.Invariant, h.Before, h.After)
		names.Fprintf(w, "%24s replay: simrun replay %s   (it records {Strategy} %s {Profile} %s {Mutant} %s%s)\n", "", file, h.Strategy,
			profile, m, FixFlag(names, fix))
	case h.Harmless != "":
		fmt.Fprintf(w, "%-24s %-8s harmless (a finding): %s\n", m, "no", h.Harmless)
	default:
		fmt.Fprintf(w, "%-24s %-8s not caught in seeds %d..%d\n", m, "NO", from, to)
	}
}
