package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "work",
		Short: "ManifestWork hub and work agent (work.open-cluster-management.io/v1)",
		// main prints errors itself, on one line, and usage only on request.
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return fmt.Errorf("%w (see '%s --help')", err, cmd.CommandPath())
	})
	root.AddCommand(newHubCommand(), newAgentCommand(), newVersionCommand())
	return root
}

// sortedFlags keeps flags in registration order in --help, which groups them.
func sortedFlags(fs *pflag.FlagSet) *pflag.FlagSet {
	fs.SortFlags = false
	return fs
}
