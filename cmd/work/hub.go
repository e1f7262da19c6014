package main

import (
	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/hub"
)

func newHubCommand() *cobra.Command {
	o := hub.NewOptions()
	cmd := &cobra.Command{
		Use:   "hub",
		Short: "Run the hub-side ManifestWork controllers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return hub.Run(cmd.Context(), o)
		},
	}
	o.AddFlags(sortedFlags(cmd.Flags()))
	return cmd
}
