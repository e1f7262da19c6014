package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/agent"
)

func newAgentCommand() *cobra.Command {
	o := agent.NewOptions()
	return processCommand("agent", "Apply the ManifestWorks of one managed cluster and report their status",
		o.AddFlags, func(ctx context.Context) error { return agent.Run(ctx, o) })
}
