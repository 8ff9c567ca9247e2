package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/graphio"
)

// Exit codes of the command.
const (
	exitOK       = 0 // the answer was printed
	exitFailed   = 1 // a computation failed; a partial answer may have been printed
	exitBadInput = 2 // bad usage or bad input: nothing was computed
)

// app holds what every subcommand shares: the streams and the output
// flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// stderrTTY says whether stderr is a terminal (progress is drawn
	// only then).
	stderrTTY bool

	json, csv bool
	table     string // the table --csv writes; "" the first
	plotPath  string
	outPath   string
	seed      uint64
	quiet     bool
}

// usageError is bad usage of the command line (an unknown flag, a
// missing argument, two flags that exclude each other).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// run executes the command line args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, stderrTTY: isTerminal(stderr)}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	msg := flagNames(cmd).Replace(err.Error())
	if !strings.HasPrefix(msg, "loadlab") {
		msg = "loadlab: " + msg
	}
	fmt.Fprintln(stderr, msg)
	code := exitCode(err)
	if code == exitBadInput && isUsage(err) {
		fmt.Fprintln(stderr, "Run 'loadlab help' or 'loadlab CMD --help' for usage.")
	}
	return code
}

// flagNames rewrites the library's option names in reader errors ("set
// Options.DefaultWeight to …") as the flags of cmd that set them.
func flagNames(cmd *cobra.Command) *strings.Replacer {
	table := ""
	if cmd != nil && cmd.Flags().Lookup("trace-skip") != nil {
		table = "trace-"
	}
	var model []string // the library's names of the model flags of this subcommand
	if cmd != nil && cmd.Name() == "over" {
		model = []string{"Regime.Mean", "--mean", "Regime.Sigma", "--sigma", "Regime.LTotal", "--limit",
			"MonteCarlo.Runs", "--runs", "MonteCarlo.Steps", "--steps", "MonteCarlo.Burn", "--burn"}
	}
	return strings.NewReplacer(append(model,
		"NetworkOptions.Normalize", "--normalize",
		"NetworkOptions.RowSumTol", "--row-sum-tol",
		"NetworkOptions.Corr", "--corr-skip",
		"TableOptions.Columns", "--"+table+"columns",
		"TableOptions.Skip", "--"+table+"skip",
		"TableOptions.Header", "--"+table+"header",
		"Options.DefaultWeight", "--default-weight",
		"Options.Weight", "--weight",
		"Options.Label", "--label",
		"Options.MaxIsolated", "--max-isolated",
		"Options.ExtraColumns", "--extra-columns",
		"Options.Header", "--header",
		"Options.Duplicates", "--duplicates",
		"Options.SelfLoops", "--self-loops",
		"Options.Directed", "--directed",
		"Options.Source", "--source",
		"Options.Target", "--target",
		"Options.Largest", "--largest",
		"Options.Delimiter", "--delimiter",
		"Settings.Network.DelayLaw", "--delay-law", // before its prefix Delay: the first match wins
		"Settings.Network.Delay", "--delay",
		"Settings.Network.Loss", "--loss",
		"Settings.Network.Burst", "--burst",
		"Settings.Network.Tick", "--tick",
		"Settings.Network.Gammas", "--gammas",
		"Central.Delay", "--central-delay",
		"Central.Floor", "--floor",
		"Precision.Rel", "--rel",
		"Precision.Abs", "--abs",
		"Precision.MaxRuns", "--max-runs",
	)...)
}

// exitCode classifies an error: bad usage and bad input give 2, a
// failed computation 1.
func exitCode(err error) int {
	var pe *graphio.ParseError
	switch {
	case err == nil:
		return exitOK
	case isUsage(err), errors.As(err, &pe),
		errors.Is(err, loadlab.ErrInvalid), errors.Is(err, loadlab.ErrDisconnected),
		errors.Is(err, loadlab.ErrTooLarge), errors.Is(err, loadlab.ErrUnstable),
		errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return exitBadInput
	}
	return exitFailed
}

// isUsage reports a command-line error: ours, or one of cobra's (an
// unknown command or flag, a bad flag value, wrong arguments), which
// cobra returns as plain errors from its flag parser.
func isUsage(err error) bool {
	var ue *usageError
	if errors.As(err, &ue) {
		return true
	}
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "flag needs an argument", "accepts ", "requires at least", "required flag", "if any flags in the group"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// rootCommand builds the command tree.
func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "loadlab",
		Short:         "The mathematics of distributed load management, from your own files",
		Long:          rootLong,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if a.json && a.csv {
				return usagef("--json and --csv exclude each other")
			}
			return nil
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	pf := root.PersistentFlags()
	pf.BoolVar(&a.json, "json", false, "print the answer as JSON")
	pf.BoolVar(&a.csv, "csv", false, "print the answer's table as CSV (see --table)")
	pf.StringVar(&a.table, "table", "", "with --csv, the table to print when the answer has several")
	pf.StringVar(&a.plotPath, "plot", "", "draw the answer into `FILE`.png or FILE.svg")
	pf.StringVarP(&a.outPath, "out", "o", "", "write the answer to `FILE` instead of stdout")
	pf.Uint64Var(&a.seed, "seed", 1, "seed of every random choice (same seed, same answer)")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "no progress on stderr")
	for _, c := range []*cobra.Command{a.graphCommand(), a.throttlerCommand(), a.anycastCommand(), a.cacheCommand(), a.nomadicCommand()} {
		root.AddCommand(group(c))
	}
	root.AddCommand(a.sweepCommand(), a.docsCommand())
	return root
}

// group makes c, a command that only holds subcommands, refuse to run
// alone or with an unknown subcommand (cobra would print its help and
// succeed).
func group(c *cobra.Command) *cobra.Command {
	c.Args = cobra.NoArgs
	c.RunE = func(c *cobra.Command, _ []string) error {
		var names []string
		for _, s := range c.Commands() {
			names = append(names, s.Name())
		}
		return usagef("%s needs a subcommand: %s", c.CommandPath(), strings.Join(names, ", "))
	}
	return c
}

const rootLong = `loadlab answers the questions of distributed load management from your
own files: rate-limiter (throttler) networks, anycast CDNs, coded caches
and nomadic service points.

Every answer is a table on stdout; --json and --csv give it to programs,
--plot FILE.png|FILE.svg draws it, --out FILE writes it to a file. Exit
codes: 0 success, 1 a failed computation (its partial answer is printed),
2 bad usage or bad input. Readers never guess: what they do to your data
is an option or an error naming the file, line and column.`
