package main

import (
	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/agent"
)

func newAgentCommand() *cobra.Command {
	o := agent.NewOptions()
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Apply the ManifestWorks of one managed cluster and report their status",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return agent.Run(cmd.Context(), o)
		},
	}
	o.AddFlags(sortedFlags(cmd.Flags()))
	return cmd
}
