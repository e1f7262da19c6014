package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/hub"
)

func newHubCommand() *cobra.Command {
	o := hub.NewOptions()
	return processCommand("hub", "Run the hub-side ManifestWork controllers",
		o.AddFlags, func(ctx context.Context) error { return hub.Run(ctx, o) })
}
