package config

import (
	"strings"
	"testing"
)

// TestNamesSpellFields: a text's {Field} reads as the command's flag, its
// values are never read for names, and the nil Names keeps field names.
func TestNamesSpellFields(t *testing.T) {
	var flags Names = flagOf
	got := flags.Sprintf("replay: simrun run {Scenario} %s {Seeds} %s{Unknown}", "{Seeds}", "1..2")
	if want := `replay: simrun run --scenario {Seeds} --seeds 1..2{Unknown}`; got != want {
		t.Errorf("Sprintf = %q, want %q", got, want)
	}
	if got := Names(nil).Sprintf("raise {Seeds} (%d)", 3); got != "raise Seeds (3)" {
		t.Errorf("nil Names: %q", got)
	}
	if got := flags.Of("Vary"); got != "--vary" {
		t.Errorf("Of(Vary) = %q", got)
	}
	var b strings.Builder
	if _, err := flags.Fprintf(&b, "{Generated} %d%%", 5); err != nil || b.String() != "--generated 5%" {
		t.Errorf("Fprintf wrote %q (%v)", b.String(), err)
	}
	inner := Errorf("Seeds", "{Seeds}: bad")
	if got := flags.Sprintf("compare: %v", inner); got != "compare: --seeds: bad" {
		t.Errorf("an *Error argument: %q", got)
	}
}
