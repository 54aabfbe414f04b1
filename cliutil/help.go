package cliutil

import "github.com/spf13/cobra"

// RefuseUnknownHelpTopics makes 'simrun help TOPIC' of an unknown topic fail
// as an unknown command does: exit 2, naming the commands it may have meant.
func RefuseUnknownHelpTopics(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, cmd := range root.Commands() {
		if show := cmd.Run; cmd.Name() == "help" {
			cmd.Run = nil
			cmd.RunE = func(cmd *cobra.Command, topic []string) error {
				if _, _, err := root.Find(topic); err != nil {
					return err
				}
				show(cmd, topic)
				return nil
			}
		}
	}
}
