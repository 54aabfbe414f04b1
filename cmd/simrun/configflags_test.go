package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"tierfetch/compare"
)

// TestCompareFieldsAreFlags: every field of compare.Config a user sets has
// a flag in compareFields, and every flag there is one compare defines, so
// an error naming any field reaches the user as a flag.
func TestCompareFieldsAreFlags(t *testing.T) {
	var f compare.Config
	fs := pflag.NewFlagSet("compare", pflag.ContinueOnError)
	compareFlagSet(fs, &f)
	typ := reflect.TypeOf(f)
	for i := 0; i < typ.NumField(); i++ {
		field := typ.Field(i).Name
		switch field {
		case "Changed", "Args", "Version": // the command fills these
			continue
		}
		flag, ok := compareFields[field]
		if !ok {
			t.Errorf("compare.Config.%s has no flag in compareFields", field)
			continue
		}
		if fs.Lookup(flag) == nil {
			t.Errorf("compareFields[%s] = %q: compare defines no such flag", field, flag)
		}
	}
	if len(compareFields) != typ.NumField()-3 {
		t.Errorf("compareFields has %d entries for %d settable fields", len(compareFields), typ.NumField()-3)
	}
}

// TestCompareGiven: every given flag marks its field in Changed; only
// those that shape the comparison are in Args, which a shard's header
// records.
func TestCompareGiven(t *testing.T) {
	var f compare.Config
	for _, fl := range [][2]string{{"jsonl", "p.jsonl"}, {"out", "o"}, {"seeds", "1..5"}, {"shard", "0/2"}, {"vary", "k=1,2"}, {"workers", "3"}} {
		compareGiven(&f, fl[0], fl[1])
	}
	if len(f.Changed) != 6 || !f.Changed["Workers"] || !f.Changed["JSONL"] {
		t.Errorf("Changed: %v", f.Changed)
	}
	if got := strings.Join(f.Args, " "); got != "--seeds=1..5 --vary=k=1,2" {
		t.Errorf("Args: %q", got)
	}
}

// TestCompareErrorsNameFlags: compare's errors name its config fields; the
// user reads the flags, in the words they always had, exit 2.
func TestCompareErrorsNameFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "1..1000001"}, `simrun: --seeds: at most 1000000 seeds, got "1..1000001"`},
		{[]string{"--workers", "0"}, "simrun: --workers: want 1..1024, got 0"},
		{[]string{"--generated", "--scenario", "tiering-off"}, "simrun: compare: give --scenario or --generated, not both"},
		{[]string{"--profile", "kip", "--profiles", "kip"}, "simrun: --profile: give --profile or --profiles, not both"},
		{[]string{"--profile", "kip,kafka-4.3"}, `simrun: --profile: want one profile (use --profiles for several), got "kip,kafka-4.3"`},
		{[]string{"--profiles", "kip,kip"}, `simrun: --profiles: profile "kip" given twice`},
		{[]string{"--scenario", "tiering-off", "--vary", "local_retention_bytes=1,1"}, `simrun: --vary local_retention_bytes: value "1" given twice`},
		{[]string{"--resume-from", "2"}, "simrun: --resume-from: give --jsonl FILE for the resumed part"},
		{[]string{"--shard", "0/2"}, "simrun: --shard: give --jsonl FILE for the shard's pairs"},
		{[]string{"--seeds", "1..70000", "--scenario", "tiering-off"}, "simrun: compare: 70000 seeds x 3 profiles, values and scenarios x 2 (without fixes, and with --fix all) = 420000 pairs, at most 200000: split it with --shard, fewer seeds or one --fix"},
		{[]string{"--fix", "nope"}, `simrun: --fix: unknown fix "nope"`},
	} {
		code, stdout, stderr := simrun(t, append([]string{"compare", "--out", t.TempDir()}, c.args...)...)
		if code != exitBadInput || !strings.HasPrefix(stderr, c.want) || stdout != "" {
			t.Errorf("compare %v: exit %d, stderr %q, stdout %q; want exit 2, %q", c.args, code, stderr, stdout, c.want)
		}
	}
}
