package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/manifestwork/work/pkg/version"
)

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of this binary",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprint(cmd.OutOrStdout(), version.Get().Lines())
			return err
		},
	}
}
