package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/hub"
)

func newManagerCommand() *cobra.Command {
	o := hub.NewManagerOptions()
	return processCommand("manager", "Run the hub-side ManifestWork controllers as OCM's ClusterManager runs its work controller",
		o.AddFlags, func(ctx context.Context) error { return hub.RunManager(ctx, o) })
}

func newWebhookServerCommand() *cobra.Command {
	o := hub.NewWebhookServerOptions()
	cmd := processCommand("webhook-server", "Serve the ManifestWork validating webhook as OCM's ClusterManager runs it",
		o.AddFlags, func(ctx context.Context) error { return hub.RunWebhookServer(ctx, o) })
	// Some ClusterManager versions render "port=9443" without dashes.
	cmd.Args = flagAssignments
	return cmd
}
