package main

import (
	"github.com/spf13/cobra"

	"tierfetch/reports"
)

func newFixesCmd(c *cli) *cobra.Command {
	var replaced bool
	cmd := &cobra.Command{
		Use:   "fixes [--replaced]",
		Short: "list the suggested fixes of Kafka's code --fix takes, one a line: name, then the finding kinds it closes",
		Long:  help("fixes"),
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			if replaced {
				reports.ReplacedFixList(c.stdout)
			} else {
				reports.FixList(c.stdout)
			}
			return exitOK, nil
		}),
	}
	cmd.Flags().BoolVar(&replaced, "replaced", false, "list instead the fixes tried first and replaced: name, then the fix that replaced it")
	return cmd
}
