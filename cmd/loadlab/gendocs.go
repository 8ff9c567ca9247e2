package main

import (
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// docsCommand is "loadlab docs": the reference of every subcommand,
// generated from the command tree itself so that it never drifts from
// the flags (docs/cli holds the Markdown, checked by TestCLIDocs).
func (a *app) docsCommand() *cobra.Command {
	var man bool
	c := &cobra.Command{
		Use:   "docs DIR",
		Short: "Write the reference of every subcommand as Markdown (or man pages) into DIR",
		Long: `Writes one Markdown page per subcommand into the folder DIR (which must
exist), or with --man one man page per subcommand (section 1). The pages
are made from the same definitions as --help.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := os.Stat(args[0])
			if err != nil || !st.IsDir() {
				return usagef("docs: %q is not a folder", args[0])
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true
			if man {
				return doc.GenManTree(root, &doc.GenManHeader{Title: "LOADLAB", Section: "1", Source: "loadlab"}, args[0])
			}
			return doc.GenMarkdownTree(root, args[0])
		},
	}
	c.Flags().BoolVar(&man, "man", false, "write man pages instead of Markdown")
	return c
}
