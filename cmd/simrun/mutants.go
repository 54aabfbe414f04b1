package main

import (
	"cmp"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"tierfetch/campaign"
	"tierfetch/fuzz"
	"tierfetch/harness"
	"tierfetch/model"
	"tierfetch/outfile"
	"tierfetch/reports"
)

func newMutantsCmd(c *cli) *cobra.Command {
	var f mutantsFlags
	cmd := &cobra.Command{
		Use:   "mutants [--seeds A..B] [--shrink N] [--out DIR] [--profile P] [--fix F]",
		Short: "hunt each deliberate bug with generated seeds; a table of which invariant caught it",
		Long:  help("mutants"),
		Args:  noArgs,
		RunE: c.action(func(cmd *cobra.Command, _ []string) (int, error) {
			f.explicitProfile = cmd.Flags().Changed("profile")
			return cmdMutants(&f, c.stdout, c.stderr)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&f.seeds, "seeds", "1..300", "seed range to hunt each mutant in")
	fs.IntVar(&f.shrinkRuns, "shrink", 300, "runs allowed to shrink each caught case (0: no shrinking)")
	fs.StringVar(&f.out, "out", "mutants-out", "directory for each mutant's shrunk failing scenario")
	fs.StringVar(&f.profileName, "profile", "", "behaviour profile: "+harness.ProfileNames()+"; unset: each mutant's own hunt profile\n(in this build kip for every one)")
	fixFlag(fs, &f.fix)
	maxStepsVar(fs, &f.maxSteps)
	return cmd
}

type mutantsFlags struct {
	seeds, out, profileName, fix string
	shrinkRuns                   int
	maxSteps                     stepsFlag
	explicitProfile              bool
}

func cmdMutants(f *mutantsFlags, stdout, stderr io.Writer) (int, error) {
	from, to, err := campaign.ParseSeeds(f.seeds)
	if err != nil {
		return exitBadInput, badInput("--seeds: %v", err)
	}
	if to-from >= fuzz.MaxSweepSeeds {
		// A mutant no seed catches (hro-only-from-upload under kafka-4.3)
		// is hunted through every seed: a sweep's bound.
		return exitBadInput, badInput("--seeds: at most %d seeds, got %q", fuzz.MaxSweepSeeds, f.seeds)
	}
	profile, err := harness.ParseProfile(cmp.Or(f.profileName, "kip"))
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	fixes, err := harness.ParseFixes(f.fix)
	if err != nil {
		return exitBadInput, badInput("%v", err)
	}
	if f.shrinkRuns < 0 {
		return exitBadInput, badInput("--shrink: want >= 0, got %d", f.shrinkRuns)
	}
	if err := ensureOutDir("--out", f.out); err != nil {
		return exitBadInput, err
	}
	if _, err := outfile.ClearDir(f.out); err != nil {
		return exitBadInput, badInput("--out: clearing the earlier run's files: %v", err)
	}
	manifest, err := outfile.OpenManifest(f.out)
	if err != nil {
		return exitBadInput, badInput("--out: %v", err)
	}
	defer manifest.Close()
	var saveErr error
	code := exitOK
	reports.MutantsHeader(stdout)
	fuzz.HuntAll(from, to, profile, f.explicitProfile, fixes, int64(f.maxSteps), f.shrinkRuns, func(h fuzz.MutantHunt, p model.Profile) {
		if h.Caught {
			if err := h.Save(f.out, manifest); err != nil {
				fmt.Fprintf(stderr, "simrun: --out: %v\n", err)
				saveErr = err
			}
		} else if h.Harmless == "" {
			code = exitSafety
		}
		reports.MutantRow(stdout, h, p.Name(), f.fix, h.SaveFile(f.out), from, to, flagNames)
	})
	if saveErr != nil {
		return exitBadInput, badInput("--out: the shrunk cases could not all be saved (the replay commands above name missing files): %v", saveErr)
	}
	return code, nil
}
