package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// pluginName is the name kubectl runs this binary under as a plugin
// (`kubectl work ...`), once it is on the PATH as kubectl-work.
const pluginName = "kubectl-work"

// newRootCommand is the root command of the binary run as arg0: as
// kubectl-work, its help and errors say `kubectl work`.
func newRootCommand(arg0 string) *cobra.Command {
	root := &cobra.Command{
		Use:   "work",
		Short: "ManifestWork hub and work agent (work.open-cluster-management.io/v1)",
		// main prints errors itself, on one line, and usage only on request.
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	if filepath.Base(arg0) == pluginName {
		root.Annotations = map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl work"}
	}
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return fmt.Errorf("%w (see '%s --help')", err, cmd.CommandPath())
	})
	root.AddCommand(newHubCommand(), newAgentCommand(), newManagerCommand(), newWebhookServerCommand(), newVersionCommand(), newFleetCommand())
	return root
}

// flagAssignments reads each argument of the form <flag>=<value>, naming a
// flag of the command, as --<flag>=<value>, and refuses any other argument.
func flagAssignments(cmd *cobra.Command, args []string) error {
	for _, arg := range args {
		name, value, ok := strings.Cut(arg, "=")
		if !ok || cmd.Flags().Lookup(name) == nil {
			return fmt.Errorf("unknown argument %q for %q", arg, cmd.CommandPath())
		}
		if err := cmd.Flags().Set(name, value); err != nil {
			return err // names the argument and the flag
		}
	}
	return nil
}

// processCommand is a subcommand running one work process: addFlags binds its
// options, which run reads. The flags stay in registration order in --help,
// which groups them.
func processCommand(use, short string, addFlags func(*pflag.FlagSet), run func(context.Context) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context())
		},
	}
	cmd.Flags().SortFlags = false
	addFlags(cmd.Flags())
	return cmd
}
