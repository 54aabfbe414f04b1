package main

import (
	"github.com/spf13/cobra"
	"tierfetch/gen"

	"tierfetch/campaign"
	"tierfetch/outfile"
)

func newGenCmd(c *cli) *cobra.Command {
	seed := &campaign.SeedFlag{N: 1}
	var out string
	cmd := &cobra.Command{
		Use:   "gen --seed N [--out FILE]",
		Short: "write the random scenario a seed generates, as a scenario file",
		Long:  "Writes the random scenario a seed generates, as a scenario file that simrun run replays.",
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			data, err := gen.Generate(seed.N).Marshal()
			if err != nil {
				panic(err) // a generated scenario always marshals
			}
			if out == "" {
				_, err = c.stdout.Write(data)
				return exitOK, err
			}
			if err := outfile.WriteAtomic(out, data); err != nil {
				return exitBadInput, badInput("gen: --out: %v", err)
			}
			return exitOK, nil
		}),
	}
	cmd.Flags().Var(seed, "seed", "the seed to generate a scenario from, 0..18446744073709551615")
	cmd.Flags().StringVar(&out, "out", "", "write the scenario file here (default: standard output)")
	return cmd
}
