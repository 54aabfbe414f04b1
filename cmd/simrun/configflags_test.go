package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"tierfetch/compare"
	"tierfetch/explore"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/plan"
)

// TestConfigFieldsAreFlags: every field a user sets of a domain package's
// config has a flag in fieldFlag that its command defines, so an error
// naming any field reaches the user as a flag; and fieldFlag names no flag
// twice nor one no command defines.
func TestConfigFieldsAreFlags(t *testing.T) {
	root := newRoot(&cli{stdout: io.Discard, stderr: io.Discard})
	command := func(name string) *pflag.FlagSet {
		for _, cmd := range root.Commands() {
			if cmd.Name() == name {
				return cmd.Flags()
			}
		}
		t.Fatalf("no command %s", name)
		return nil
	}
	for _, c := range []struct {
		command string
		config  any
		skip    []string // set by the command, no flag of their own
	}{
		{"compare", compare.Config{}, []string{"Changed", "Args", "Version", "Names"}},
		{"sweep", fuzz.SweepArgs{}, nil},
		{"explore", explore.Args{}, nil},
		{"plan", plan.Files{}, []string{"Env"}},
		{"plan", plan.Env{}, []string{"Given"}},
	} {
		fs := command(c.command)
		typ := reflect.TypeOf(c.config)
		for i := 0; i < typ.NumField(); i++ {
			field := typ.Field(i).Name
			if slices.Contains(c.skip, field) {
				continue
			}
			flag, ok := fieldFlag[field]
			if !ok {
				t.Errorf("%s.%s has no flag in fieldFlag", typ, field)
				continue
			}
			if fs.Lookup(flag) == nil {
				t.Errorf("fieldFlag[%s] = %q: %s defines no such flag", field, flag, c.command)
			}
		}
	}
	flags := map[string]string{}
	for field, flag := range fieldFlag {
		if other, ok := flags[flag]; ok {
			t.Errorf("fieldFlag: --%s sets both %s and %s", flag, field, other)
		}
		flags[flag] = field
		defined := false
		for _, cmd := range root.Commands() {
			defined = defined || cmd.Flags().Lookup(flag) != nil
		}
		if !defined {
			t.Errorf("fieldFlag[%s] = %q: no command defines it", field, flag)
		}
	}
}

// TestTextFieldsAreFlags: every {Field} a domain package's string
// literals write (config.Errorf's formats, config.Names' texts) is a field
// fieldFlag spells, so no user reads "{Timeline}" where a flag belongs.
func TestTextFieldsAreFlags(t *testing.T) {
	field := regexp.MustCompile(`\{([A-Z][A-Za-z0-9]*)\}`)
	seen := 0
	for _, dir := range []string{"config", "plan", "harness", "explore", "fuzz", "compare", "reports", "scenarios", "campaign", "outfile"} {
		files, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				for _, m := range field.FindAllStringSubmatch(s, -1) {
					seen++
					if _, ok := fieldFlag[m[1]]; !ok {
						t.Errorf("%v: {%s} has no flag in fieldFlag", fset.Position(lit.Pos()), m[1])
					}
				}
				return true
			})
		}
	}
	if seen < 100 {
		t.Errorf("found only %d {Field} names in the domain packages' strings", seen)
	}
}

// TestEnvFlagsSetTheirFields: each flag of plan's environment sets the
// plan.Env field fieldFlag says it does and records it as given.
func TestEnvFlagsSetTheirFields(t *testing.T) {
	for _, c := range []struct {
		field, value string
		got          func(e *plan.Env) bool
	}{
		{plan.FieldProduce, "2MiB", func(e *plan.Env) bool { return e.ProduceBytesPerSec == 2<<20 }},
		{plan.FieldReplication, "3MiB", func(e *plan.Env) bool { return e.ReplicationBytesPerSec == 3<<20 }},
		{plan.FieldRecordBytes, "100", func(e *plan.Env) bool { return e.RecordBytes == 100 }},
		{plan.FieldNetworkLatency, "2,9", func(e *plan.Env) bool { return e.NetworkLatencyMs == [2]int64{2, 9} }},
		{plan.FieldRemoteFetch, "3,8", func(e *plan.Env) bool { return e.RemoteFetchMs == [2]int64{3, 8} }},
		{plan.FieldRemoteUpload, "4,7", func(e *plan.Env) bool { return e.RemoteUploadMs == [2]int64{4, 7} }},
		{plan.FieldMetadataReady, "1500", func(e *plan.Env) bool { return e.RemoteMetadataReadyMs == 1500 }},
		{plan.FieldReplicationFactor, "4", func(e *plan.Env) bool { return e.ReplicationFactor == 4 }},
	} {
		var f planFlags
		fs := pflag.NewFlagSet("plan", pflag.ContinueOnError)
		planFlagSet(fs, &f)
		if err := fs.Parse([]string{"--" + fieldFlag[c.field] + "=" + c.value}); err != nil {
			t.Errorf("%s: %v", c.field, err)
			continue
		}
		if !c.got(&f.Env) || !f.Env.Given[c.field] || len(f.Env.Given) != 1 {
			t.Errorf("--%s %s: Env %+v", fieldFlag[c.field], c.value, f.Env)
		}
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

// TestDomainErrorsNameFlags: fuzz's and explore's checks name fields;
// simrun's user reads the flags (sweep, explore, and run, whose strategy,
// profile, mutant and fix share fuzz's parsers), exit 2.
func TestDomainErrorsNameFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--seeds", "x"}, "simrun: --seeds: "},
		{[]string{"sweep", "--strategy", "x"}, `simrun: --strategy: want local-log-start, last-tiered or both, got "x"`},
		{[]string{"sweep", "--profile", "x"}, `simrun: --profile: want one of `},
		{[]string{"sweep", "--workers", "0"}, "simrun: --workers: want 1..1024, got 0"},
		{[]string{"sweep", "--mutant", "x"}, `simrun: --mutant: unknown mutant "x" (known: `},
		{[]string{"sweep", "--fix", "x"}, `simrun: --fix: unknown fix "x" (known: all, `},
		{[]string{"sweep", "--shrink", "-1"}, "simrun: --shrink: want >= 0, got -1"},
		{[]string{"sweep", "--max-saved", "-1"}, "simrun: --max-saved: want 0..1000000, got -1"},
		{[]string{"sweep", "--max-shrunk", "-1"}, "simrun: --max-shrunk: want 0..1000000, got -1"},
		{[]string{"sweep", "--shard", "3/2"}, "simrun: --shard: "},
		{[]string{"sweep", "--seeds", "5..9", "--resume-from", "10"}, "simrun: --resume-from: seed 10 outside --seeds 5..9"},
		{[]string{"sweep", "--seeds", "1..1000000001"}, "simrun: --seeds: 1000000001 seeds for this process, at most 1000000000: split the sweep with --shard K/N"},
		// A mutant no seed catches was hunted through all of them.
		{[]string{"mutants", "--seeds", "1..1000000001"}, `simrun: --seeds: at most 1000000000 seeds, got "1..1000000001"`},
		{[]string{"mutants", "--seeds", "0..18446744073709551615"}, `simrun: --seeds: at most 1000000000 seeds, got "0..18446744073709551615"`},
		{[]string{"run", "--scenario", "tiering-off", "--strategy", "x"}, `simrun: --strategy: want local-log-start, last-tiered or both, got "x"`},
		{[]string{"run", "--scenario", "tiering-off", "--profile", "x"}, `simrun: --profile: want one of `},
		// Each would run and print the same runs again.
		{[]string{"run", "--scenario", "tiering-off", "--profile", "kip,kafka-4.3,kip"}, `simrun: --profile: profile "kip" given twice`},
		{[]string{"run", "--scenario", "tiering-off", "--mutant", "x"}, `simrun: --mutant: unknown mutant "x"`},
		{[]string{"run", "--scenario", "tiering-off", "--fix", "x"}, `simrun: --fix: unknown fix "x"`},
		{[]string{"run", "--scenario", "omts-local-deleted", "--trace-partition", "t-0"},
			`simrun: --trace-partition "t-0": the scenario holds one partition (no partitions list); --trace shows all of it`},
		{[]string{"run"}, "simrun: run: --scenario is required (or --all); see 'simrun scenarios'"},
		{[]string{"run", "--all", "--scenario", "tiering-off"}, "simrun: run: give --scenario or --all, not both"},
		{[]string{"run", "--scenario", "../../explore/testdata/tiny-join.json", "--max-input-bytes", "100"},
			"simrun: ../../explore/testdata/tiny-join.json: 1471 bytes, more than the input limit of 100 (raise it with --max-input-bytes)"},
		{[]string{"compare", "--scenario", "../../explore/testdata/tiny-join.json", "--max-input-bytes", "100"},
			"simrun: --scenario: ../../explore/testdata/tiny-join.json: 1471 bytes, more than the input limit of 100 (raise it with --max-input-bytes)"},
		{[]string{"explore"}, "simrun: --scenario: required (a named scenario or a file); see 'simrun scenarios'"},
		{[]string{"explore", "--scenario", "tiering-off", "--strategy", "both"}, `simrun: --strategy: want local-log-start or last-tiered, got "both"`},
		{[]string{"explore", "--scenario", "tiering-off", "--depth", "-1"}, "simrun: --depth: want 0 (to the scenario's end) or 1..100000, got -1"},
		{[]string{"explore", "--scenario", "tiering-off", "--max-states", "0"}, "simrun: --max-states: want 1..100000000, got 0"},
		{[]string{"explore", "--scenario", "tiering-off", "--max-memory", "1"}, "simrun: --max-memory: want 64..1048576 MiB, got 1"},
		{[]string{"explore", "--scenario", "tiering-off", "--fault-ms", "0"}, "simrun: --fault-ms: want 1..3600000, got 0"},
		{[]string{"explore", "--scenario", "tiering-off", "--faults", "outage"}, `simrun: --faults: unknown fault "outage" (want some of crash, restart, elect, partition, remote-outage)`},
		{[]string{"explore", "--scenario", "tiering-off", "--shard", "3/3"}, "simrun: --shard: "},
		{[]string{"explore", "--scenario", "tiering-off", "--from-ms", "-1"}, "simrun: --from-ms: want >= 0, got -1"},
		{[]string{"explore", "--scenario", "tiering-off", "--from-ms", "999999999"}, "simrun: --from-ms: 999999999 is at or past the end of tiering-off"},
		{[]string{"explore", "--scenario", "tiering-off", "--out", ""}, "simrun: --out: want a file name"},
		{[]string{"explore", "--scenario", "tiering-off", "--profile", "x"}, "simrun: --profile: want one of "},
	} {
		args := c.args
		if args[0] == "sweep" || args[0] == "mutants" {
			args = append(args, "--out", t.TempDir())
		}
		code, stdout, stderr := simrun(t, args...)
		if code != exitBadInput || !strings.HasPrefix(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2, %q", c.args, code, stderr, stdout, c.want)
		}
	}
}

// TestParseMaxSteps: --max-steps takes 1..MaxStepsLimit in decimal digits
// and nothing else.
func TestParseMaxSteps(t *testing.T) {
	for s, want := range map[string]int64{"1": 1, "100": 100, "5000000": 5_000_000, fmt.Sprint(int64(harness.MaxStepsLimit)): harness.MaxStepsLimit} {
		if n, err := parseMaxSteps(s); err != nil || n != want {
			t.Errorf("%q: %d %v", s, n, err)
		}
	}
	for _, s := range []string{"0", "-1", "+5", fmt.Sprint(int64(harness.MaxStepsLimit) + 1), "4294967296", "1e6", "1e3", "", "5 "} {
		if _, err := parseMaxSteps(s); err == nil || !strings.Contains(err.Error(), "want a number of steps in 1..") {
			t.Errorf("%q: %v", s, err)
		}
	}
}
