package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// sweepCommand is "loadlab sweep": a named Monte Carlo sweep run as
// shards of many processes and merged (the former cmd/sweep).
func (a *app) sweepCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "sweep",
		Short: "Run a Monte Carlo sweep as shards of many processes, and merge them",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("sweep: being folded in from cmd/sweep")
		},
	}
}
