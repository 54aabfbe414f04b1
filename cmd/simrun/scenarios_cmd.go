package main

import (
	"github.com/spf13/cobra"

	"tierfetch/reports"
	"tierfetch/scenarios"
)

func newScenariosCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "list the named scenarios, one a line: name, then what it shows",
		Long:  "Lists the named scenarios, one a line: name, then what it shows; the broker-scale ones (many partitions, not in run --all) come last.",
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			reports.ScenarioList(c.stdout, append(scenarios.Named(), scenarios.NamedBrokerScale()...))
			return exitOK, nil
		}),
	}
}
