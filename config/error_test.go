package config

import (
	"errors"
	"fmt"
	"testing"
)

func flagOf(field string) string {
	return map[string]string{"Seeds": "--seeds", "Vary": "--vary", "Scenario": "--scenario", "Generated": "--generated"}[field]
}

func TestErrorNamesFields(t *testing.T) {
	for _, c := range []struct {
		err          error
		plain, named string
	}{
		{Errorf("Seeds", "{Seeds}: at most %d seeds, got %q", 1000000, "1..2000000"),
			`Seeds: at most 1000000 seeds, got "1..2000000"`, `--seeds: at most 1000000 seeds, got "1..2000000"`},
		{Errorf("Scenario", "compare: give {Scenario} or {Generated}, not both"),
			"compare: give Scenario or Generated, not both", "compare: give --scenario or --generated, not both"},
		// A value is never read for names; an unknown or malformed name stays.
		{Errorf("Vary", "{Vary} %s: value %q, {Unknown}, {lower}, {Vary", "k", "{Seeds}"),
			`Vary k: value "{Seeds}", Unknown, {lower}, {Vary`, `--vary k: value "{Seeds}", {Unknown}, {lower}, {Vary`},
		// A percent sign in a name is not a verb.
		{Errorf("Seeds", "{Seeds} %d", 7), "Seeds 7", "--seeds 7"},
	} {
		if got := c.err.Error(); got != c.plain {
			t.Errorf("Error() = %q, want %q", got, c.plain)
		}
		if got := Rename(c.err, flagOf).Error(); got != c.named {
			t.Errorf("Rename = %q, want %q", got, c.named)
		}
	}
}

func TestRenameKeepsWrapping(t *testing.T) {
	inner := Errorf("Seeds", "{Seeds}: bad")
	err := Rename(fmt.Errorf("compare: %w", inner), flagOf)
	if got, want := err.Error(), "compare: --seeds: bad"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var e *Error
	if !errors.As(err, &e) || e.Field != "Seeds" {
		t.Errorf("renamed error does not unwrap to its *Error: %#v", err)
	}
	plain := errors.New("no field")
	if Rename(plain, flagOf) != plain || Rename(nil, flagOf) != nil {
		t.Error("Rename changed an error without a field")
	}
}

func TestPercentInName(t *testing.T) {
	err := Errorf("Seeds", "{Seeds}: %d", 1)
	if got := Rename(err, func(string) string { return "100%" }).Error(); got != "100%: 1" {
		t.Errorf("got %q", got)
	}
}

// TestNestedErrorsAreNamed: an *Error given as an argument (a check that
// reports another's error with %v) is named as the outer one is.
func TestNestedErrorsAreNamed(t *testing.T) {
	inner := Errorf("MaxInput", "f.json: 9 bytes (raise it with {MaxInput})")
	outer := Errorf("Scenario", "{Scenario}: %v", fmt.Errorf("reading: %w", inner))
	if got, want := Rename(outer, flagOf).Error(), "--scenario: reading: f.json: 9 bytes (raise it with {MaxInput})"; got != want {
		t.Errorf("got %q, want %q (flagOf knows no MaxInput)", got, want)
	}
	named := func(f string) string {
		return map[string]string{"Scenario": "--scenario", "MaxInput": "--max-input-bytes"}[f]
	}
	if got, want := Rename(outer, named).Error(), "--scenario: reading: f.json: 9 bytes (raise it with --max-input-bytes)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
