package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"tierfetch/scenarios"
)

func newScenariosCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:   "scenarios",
		Short: "list the named scenarios, one a line: name, then what it shows",
		Long:  "Lists the named scenarios, one a line: name, then what it shows.",
		Args:  noArgs,
		RunE: c.action(func(_ *cobra.Command, _ []string) (int, error) {
			list := scenarios.Named()
			width := 0
			for _, sc := range list {
				width = max(width, len(sc.Name))
			}
			for _, sc := range list {
				fmt.Fprintf(c.stdout, "%-*s  %s\n", width, sc.Name, sc.Description)
			}
			return exitOK, nil
		}),
	}
}
