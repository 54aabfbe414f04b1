package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestHelpSaysOneDefault: a flag whose help says what happens when it is
// unset does not also show a plain "(default X)" that says otherwise (as
// mutants --profile once did: "unset: each mutant's own hunt profile"
// beside (default "kip")).
func TestHelpSaysOneDefault(t *testing.T) {
	root := newRoot(&cli{stdout: io.Discard, stderr: io.Discard})
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(f.Usage, "unset") {
				return
			}
			plain := f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && !strings.Contains(f.DefValue, ", or ")
			if plain {
				t.Errorf("simrun %s --%s: the help says what unset means (%q) and shows the default %q", cmd.Name(), f.Name, f.Usage, f.DefValue)
			}
		})
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// TestShrinkDefaultIsOneBudget: --shrink, the runs allowed to shrink one
// failure, defaults to the same 200 (docs/guide/sweep.md) wherever a
// failure is shrunk: simrun shrink, sweep and merge.
func TestShrinkDefaultIsOneBudget(t *testing.T) {
	root := newRoot(&cli{stdout: io.Discard, stderr: io.Discard})
	for _, name := range []string{"shrink", "sweep", "merge"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		f := cmd.Flags().Lookup("shrink")
		if f == nil {
			t.Fatalf("simrun %s has no --shrink", name)
		}
		if f.DefValue != "200" {
			t.Errorf("simrun %s --shrink defaults to %s, want 200", name, f.DefValue)
		}
	}
}
