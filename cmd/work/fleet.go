package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/cli"
)

// newFleetCommand is `work fleet`: the rollouts of ManifestWorkReplicaSets
// from a terminal. Its subcommands exit as cli.ExitError says.
func newFleetCommand() *cobra.Command {
	o := cli.NewOptions()
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "See and drive ManifestWorkReplicaSet rollouts on a hub (kubectl's flags; exit 0 done, 1 failed or stopped, 2 usage or connection error, 3 timed out)",
		Args:  cobra.NoArgs,
		RunE:  helpOnly,
	}
	o.AddFlags(cmd.PersistentFlags())
	get := &cobra.Command{Use: "get", Short: "List objects of the hub", Args: cobra.NoArgs, RunE: helpOnly}
	get.AddCommand(newGetWorksCommand(o))
	cmd.AddCommand(newStatusCommand(o), get, newPauseCommand(o, true), newPauseCommand(o, false), newWaitCommand(o),
		newHistoryCommand(o), newUndoCommand(o), newApproveCommand(o), newRenderCommand(o, false), newRenderCommand(o, true))
	return cmd
}

// helpOnly is the run of a command that only groups others: without a
// run, cobra would take an unknown subcommand for an argument and exit 0.
func helpOnly(cmd *cobra.Command, _ []string) error { return cmd.Help() }

// fleetCommand is a subcommand of fleet taking NAME: run gets it once the
// options are valid.
func fleetCommand(use, short, example string, o *cli.Options, validate func() error, run func(ctx context.Context, name string) error) *cobra.Command {
	return &cobra.Command{
		Use: use, Short: short, Example: example,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Out, o.ErrOut = cmd.OutOrStdout(), cmd.ErrOrStderr()
			if err := o.Validate(); err != nil {
				return err
			}
			if err := validate(); err != nil {
				return err
			}
			return run(cmd.Context(), args[0])
		},
	}
}

func newStatusCommand(o *cli.Options) *cobra.Command {
	var out cli.OutputOptions
	cmd := fleetCommand("status NAME", "Show a replica set's rollout and its work on each cluster",
		"  work fleet status web -n fleet\n  kubectl work fleet status web -n fleet -o yaml", o, out.Validate,
		func(ctx context.Context, name string) error { return cli.Status(ctx, o, out, name) })
	out.AddFlags(cmd.Flags())
	return cmd
}

func newGetWorksCommand(o *cli.Options) *cobra.Command {
	var wo cli.WorksOptions
	cmd := &cobra.Command{
		Use:     "works [NAME]",
		Short:   "List ManifestWorks with their conditions, health and drift",
		Example: "  work fleet get works\n  work fleet get works --cluster cluster1 -o wide",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Out = cmd.OutOrStdout()
			if err := wo.Validate(); err != nil {
				return err
			}
			name := ""
			if len(args) == 1 {
				name = args[0]
			}
			return cli.GetWorks(cmd.Context(), o, wo, name)
		},
	}
	wo.AddFlags(cmd.Flags())
	return cmd
}

func newPauseCommand(o *cli.Options, pause bool) *cobra.Command {
	use, short := "resume NAME", "Resume a paused rollout (removes the annotation work.manifestwork.io/rollout-paused)"
	if pause {
		use, short = "pause NAME", "Pause a rollout: no work is created, updated or deleted until resumed (annotation work.manifestwork.io/rollout-paused=true)"
	}
	return fleetCommand(use, short, "", o, func() error { return nil },
		func(ctx context.Context, name string) error { return cli.Pause(ctx, o, name, pause) })
}

func newWaitCommand(o *cli.Options) *cobra.Command {
	wo := cli.NewWaitOptions()
	cmd := fleetCommand("wait NAME", "Wait until a rollout is rolled out or healthy; exit 1 as soon as it stops, 3 on timeout",
		"  work fleet wait web -n fleet --for rolled-out --timeout 10m", o, wo.Validate,
		func(ctx context.Context, name string) error { return cli.Wait(ctx, o, *wo, name) })
	wo.AddFlags(cmd.Flags())
	return cmd
}

func newHistoryCommand(o *cli.Options) *cobra.Command {
	var ho cli.HistoryOptions
	cmd := fleetCommand("history NAME", "List a replica set's revisions, newest first, with the clusters on each; --revision N prints one's template",
		"  work fleet history web -n fleet\n  work fleet history web -n fleet --revision 2", o, ho.Validate,
		func(ctx context.Context, name string) error { return cli.History(ctx, o, ho, name) })
	cmd.Flags().Int64Var(&ho.Revision, "revision", 0, "Print the template of this revision (YAML, or JSON with -o json) instead of the list.")
	ho.OutputOptions.AddFlags(cmd.Flags())
	return cmd
}

func newUndoCommand(o *cli.Options) *cobra.Command {
	var uo cli.UndoOptions
	cmd := fleetCommand("undo NAME", "Roll a replica set back: copy a revision's template into its spec and restore its WorkOverrides as the revision recorded them (the previous revision by default); the rollout strategy rolls it out",
		"  work fleet undo web -n fleet\n  work fleet undo web -n fleet --to-revision 1", o, uo.Validate,
		func(ctx context.Context, name string) error { return cli.Undo(ctx, o, uo, name) })
	cmd.Flags().Int64Var(&uo.ToRevision, "to-revision", 0, "The revision to go back to (its number in work fleet history); 0 is the newest one that is not current.")
	return cmd
}

func newApproveCommand(o *cli.Options) *cobra.Command {
	var ao cli.ApproveOptions
	cmd := fleetCommand("approve NAME --group PLACEMENT/GROUP", "Approve a gated decision group for the current revision (the RolloutApproval the rollout waits for)",
		"  work fleet approve web -n fleet --group prod/1", o, ao.Validate,
		func(ctx context.Context, name string) error { return cli.Approve(ctx, o, ao, name) })
	cmd.Flags().StringVar(&ao.Group, "group", "", "The group to approve, as <placement>/<group name or index> (the condition RolloutWaiting names it).")
	return cmd
}

// newRenderCommand is render, or diff: both preview the works of the
// replica set's clusters, from the hub or from files not applied yet.
func newRenderCommand(o *cli.Options, diff bool) *cobra.Command {
	var ro cli.RenderOptions
	use, short, example, run := "render NAME", "Print the ManifestWork the hub would write to each selected cluster (its template and WorkOverrides, or those of -f); "+
		"Secrets masked; exit 1 when a cluster fails to render",
		"  work fleet render web -n fleet\n  work fleet render web -n fleet --cluster cluster1 -f web-overrides.yaml", cli.Render
	if diff {
		use, short, example, run = "diff NAME", "Show per cluster what would change in its work's spec (a unified diff from the stored work to render's); "+
			"exit 1 when something would, 0 when nothing would",
			"  work fleet diff web -n fleet -f web.yaml -f web-overrides.yaml", cli.Diff
	}
	cmd := fleetCommand(use, short, example, o, ro.Validate,
		func(ctx context.Context, name string) error { return run(ctx, o, ro, name) })
	ro.AddFlags(cmd.Flags())
	return cmd
}
