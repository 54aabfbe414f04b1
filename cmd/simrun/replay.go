package main

import (
	"github.com/spf13/cobra"
)

// newReplayCmd reruns a saved scenario file (a sweep's failure, a shrunk
// case) with its trace: simrun run --scenario FILE --trace, with the file
// given as an argument.
func newReplayCmd(c *cli) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "replay FILE [run flags]",
		Short: "rerun a saved scenario file and show its violation with the full trace",
		Long:  help("replay"),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return badInput("replay: want one scenario file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: c.action(func(cmd *cobra.Command, args []string) (int, error) {
			if f.scenario != "" || f.all {
				return exitBadInput, badInput("replay: the scenario is the file argument; --scenario and --all are run's")
			}
			f.scenario, f.trace, f.command, f.given, f.replay = args[0], true, c.commandLine(), cmd.Flags().Changed, true
			return cmdRun(f, c.stdout, c.stderr)
		}),
	}
	runFlagSet(cmd.Flags(), &f)
	return cmd
}
