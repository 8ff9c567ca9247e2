package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/sweep"
)

// sweepOptions are the flags and arguments of "loadlab sweep".
type sweepOptions struct {
	config, shardSpec, out string
	merge, direct, list    bool
	files                  []string // the shard files of --merge

	shard sweep.Shard // --shard, parsed

	precision loadlab.Precision // --rel, --abs, --max-runs (with --direct)
}

// sweepCommand is "loadlab sweep": a named Monte Carlo sweep run as
// shards of many processes, resumed after a crash, and merged into
// exactly the one-process result.
func (a *app) sweepCommand() *cobra.Command {
	o := &sweepOptions{}
	c := &cobra.Command{
		Use:   "sweep --config FILE --out FILE|BASE [--shard i/N | --merge SHARD... | --direct] [flags]",
		Short: "Run a Monte Carlo sweep as shards of many processes, and merge them",
		Long:  sweepLong,
		Example: `  loadlab sweep --list
  loadlab sweep --config cfg.json --shard 0/4 --out shard-0.jsonl   # … up to 3/4; a rerun resumes
  loadlab sweep --config cfg.json --merge --out result shard-*.jsonl # result.csv, result.json
  loadlab sweep --config cfg.json --direct --out direct              # the same bytes from one process`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			if err := a.sweepCheckFlags(cmd, o); err != nil {
				return err
			}
			if o.list {
				names := make([]string, 0, len(sweepJobs))
				for n := range sweepJobs {
					names = append(names, n)
				}
				sort.Strings(names)
				_, err := fmt.Fprintln(a.stdout, strings.Join(names, "\n"))
				return err
			}
			return a.sweepRun(o)
		},
	}
	fl := c.Flags()
	fl.StringVar(&o.config, "config", "", "the sweep's JSON configuration `FILE` (required)")
	fl.StringVar(&o.shardSpec, "shard", "0/1", "run (or resume) shard `i/N`: the runs r with r mod N = i")
	// --out shadows the root's --out: here it names the shard file, or
	// the base name of the result files.
	fl.StringVarP(&o.out, "out", "o", "", "the shard's partial-result `FILE`; with --merge or --direct, the BASE of BASE.csv and BASE.json (required)")
	fl.BoolVar(&o.merge, "merge", false, "merge the shard files given as arguments into BASE.csv and BASE.json")
	fl.BoolVar(&o.direct, "direct", false, "compute the result in this process with the library's own function")
	fl.Float64Var(&o.precision.Rel, "rel", 0, "with --direct: run until each 95 % half-width is ≤ rel·|mean| (the configuration's runs are the pilot)")
	fl.Float64Var(&o.precision.Abs, "abs", 0, "with --direct: run until each 95 % half-width is ≤ abs")
	fl.IntVar(&o.precision.MaxRuns, "max-runs", 0, "with --rel or --abs: runs at most (0: 10000)")
	fl.BoolVar(&o.list, "list", false, "list the registered sweeps")
	return c
}

const sweepLong = `A Monte Carlo sweep derives one random stream per run, so its runs split
into shards that run anywhere (a Slurm array, a Kubernetes Indexed Job, a
shell loop) and merge into exactly the one-process result, bit for bit.

The configuration is {"sweep": NAME, "seed": S, "runs": R, "params": {…}};
--list names the sweeps, and the README's section "Running a sweep on a
cluster" has a sample of each one's params. Unknown keys are errors. For
sweeps of points (codedload, dual, anycast-beacon) R is the number of runs per point; for
stability-map it is the number of grid cells. The seed is the
configuration's: --seed does not apply, nor do --json, --csv, --plot and
--table (the result is always BASE.csv and BASE.json).

  --shard i/N --out FILE   run shard i of N: the runs r with r mod N = i,
                           one JSON line per run appended to FILE; a rerun
                           with the same arguments resumes where it stopped
  --merge --out BASE FILE… merge every shard's file into BASE.csv and
                           BASE.json; missing, duplicated or truncated runs,
                           and files of another configuration or seed, are
                           refused
  --direct --out BASE      the library's one-process result, same bytes
  --direct --rel R         consensus, mobility, coding-reception and the
                           codedload sweeps: run until every 95 %
                           half-width is ≤ R·|mean| (or
                           --abs A), the configuration's runs being the
                           pilot, at most --max-runs; the column n gives the
                           runs used, and the result equals the fixed-runs
                           result with that many runs. A precision decides
                           the count as the runs come in, so it does not
                           shard.

Every check (flags, shard spec, configuration, output folder) is made
before the first run. Result files are written whole or not at all. On a
terminal, progress is a bar on stderr; otherwise (cluster logs) each run
writes a line "sweep NAME shard i/N: run r done (k/n)" to stderr. --quiet
prints neither, nor the closing summary lines. Exit codes: 2 for a bad
flag, configuration or shard file or an output folder that cannot be
written, 1 for a failed run (the runs before it stay in the shard file,
and a rerun resumes).`

// sweepCheckFlags validates the flags before anything is read: the
// root's output flags that do not apply, the mode, --out and the
// arguments, the shard spec, and the outputs against the inputs.
func (a *app) sweepCheckFlags(cmd *cobra.Command, o *sweepOptions) error {
	switch {
	case a.json || a.csv || a.plotPath != "" || a.table != "":
		return usagef("sweep: --json, --csv, --plot and --table do not apply: --merge and --direct write BASE.csv and BASE.json")
	case cmd.Flags().Changed("seed"):
		return usagef("sweep: --seed does not apply: the seed is the configuration's \"seed\"")
	case o.list:
		others := slices.ContainsFunc([]string{"config", "shard", "out", "merge", "direct"}, cmd.Flags().Changed)
		if others || len(o.files) > 0 {
			return usagef("sweep: --list takes no other flag or argument")
		}
		return nil
	case o.config == "":
		return usagef("sweep: --config is required")
	case o.out == "":
		return usagef("sweep: --out is required")
	case o.merge && o.direct:
		return usagef("sweep: --merge and --direct exclude each other")
	case (o.merge || o.direct) && cmd.Flags().Changed("shard"):
		return usagef("sweep: --shard does not apply to --merge or --direct")
	case !o.direct && slices.ContainsFunc([]string{"rel", "abs", "max-runs"}, cmd.Flags().Changed):
		return usagef("sweep: --rel, --abs and --max-runs go with --direct (a precision decides the run count as the runs come in, which shards cannot share)")
	case o.merge && len(o.files) == 0:
		return usagef("sweep: --merge needs the shard files as arguments")
	case !o.merge && len(o.files) > 0:
		return usagef("sweep: unexpected arguments %q (shard files go with --merge)", o.files)
	}
	if !o.merge && !o.direct {
		s, err := sweep.ParseShard(o.shardSpec)
		if err != nil {
			return err
		}
		o.shard = s
	}
	return o.checkPaths()
}

// outputs returns the files the command writes.
func (o *sweepOptions) outputs() []string {
	if o.merge || o.direct {
		base := sweepResultBase(o.out)
		return []string{base + ".csv", base + ".json"}
	}
	return []string{o.out}
}

// checkPaths refuses outputs that would overwrite the configuration or
// a shard file being merged, and outputs that cannot be written.
func (o *sweepOptions) checkPaths() error {
	outs := o.outputs()
	for _, out := range append(slices.Clone(outs), o.files...) {
		if sweepSameFile(out, o.config) {
			return usagef("sweep: --out %s would overwrite the configuration %s", o.out, o.config)
		}
	}
	for _, f := range o.files {
		if slices.ContainsFunc(outs, func(out string) bool { return sweepSameFile(out, f) }) {
			return usagef("sweep: --out %s would overwrite the shard file %s", o.out, f)
		}
	}
	for _, out := range outs {
		if err := sweepCheckWritable(out); err != nil {
			return err
		}
	}
	return nil
}

// sweepSameFile reports whether paths a and b name one existing file.
func sweepSameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// sweepCheckWritable fails, before any work, if path cannot be
// written: an existing path must be a regular file, and its folder must
// take a new file (tried with a temporary file, removed at once, so
// nothing is left behind).
func sweepCheckWritable(path string) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return usagef("sweep: output %s is not a regular file", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".loadlab-sweep-check-*")
	if err != nil {
		return fmt.Errorf("sweep: output %s: %w", path, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// sweepResultBase strips a .csv or .json extension from --out.
func sweepResultBase(out string) string {
	for _, ext := range []string{".csv", ".json"} {
		if b, ok := strings.CutSuffix(out, ext); ok {
			return b
		}
	}
	return out
}

// sweepRun loads the configuration and runs the mode the flags ask for.
func (a *app) sweepRun(o *sweepOptions) error {
	p, j, err := sweepLoad(o.config)
	if err != nil {
		return err
	}
	switch {
	case o.merge:
		return a.sweepMerge(o, p, j)
	case o.direct:
		return a.sweepDirect(o, p, j)
	}
	return a.sweepShard(o, p, j)
}

// sweepRunError is the error of a run or of the one-process
// computation: a failed computation (exit code 1) whatever it wraps,
// since the configuration was valid. It keeps the text of the run's
// error and does not unwrap, so that exitCode does not read an
// ErrInvalid raised inside a run as bad input.
type sweepRunError struct{ msg string }

func (e *sweepRunError) Error() string { return e.msg }

// sweepFailed wraps err, if any, as a sweepRunError.
func sweepFailed(err error) error {
	if err == nil {
		return nil
	}
	return &sweepRunError{err.Error()}
}

// sweepLogf writes a status line on stderr unless --quiet.
func (a *app) sweepLogf(format string, args ...any) {
	if !a.quiet {
		fmt.Fprintf(a.stderr, format+"\n", args...)
	}
}

// sweepShard runs (or resumes) the shard, with a progress bar on a
// terminal and a line per run otherwise.
func (a *app) sweepShard(o *sweepOptions, p sweep.Plan, j sweepJob) error {
	s := o.shard
	total := s.NumRuns(p.Runs)
	name := fmt.Sprintf("sweep %s shard %s", p.Name, s)
	bar := a.startProgress(int64(total), name)
	lines := !a.stderrTTY && !a.quiet
	shown := 0
	after := func(r int, pr sweep.Progress) {
		k := pr.Resumed + pr.Ran
		bar.add(k - shown)
		shown = k
		if lines {
			fmt.Fprintf(a.stderr, "%s: run %d done (%d/%d)\n", name, r, k, total)
		}
	}
	run := func(r int) ([]float64, error) {
		v, err := j.Run(r)
		return v, sweepFailed(err)
	}
	pr, err := sweep.RunShard(p, s, o.out, run, after)
	bar.done()
	if pr.Resumed > 0 {
		a.sweepLogf("%s: resumed, %d runs were already in %s", name, pr.Resumed, o.out)
	}
	if err != nil {
		return err
	}
	a.sweepLogf("%s: complete, %d runs in %s", name, total, o.out)
	return nil
}

// sweepMerge merges the shard files and writes the result.
func (a *app) sweepMerge(o *sweepOptions, p sweep.Plan, j sweepJob) error {
	m, err := sweep.MergePlan(p, o.files...)
	if err != nil {
		return fmt.Errorf("%s: %w", o.config, err)
	}
	values := make([][]float64, len(m.Records))
	for i, r := range m.Records {
		values[i] = r.Floats()
	}
	t, err := j.Summarize(values)
	if err != nil {
		return err
	}
	if err := sweepWriteResult(o.out, p, t); err != nil {
		return err
	}
	a.sweepLogf("sweep %s: merged %d runs from %d files into %s.csv and %s.json", p.Name, m.Runs, len(o.files), sweepResultBase(o.out), sweepResultBase(o.out))
	return nil
}

// sweepDirect computes the result in this process and writes it.
func (a *app) sweepDirect(o *sweepOptions, p sweep.Plan, j sweepJob) error {
	if err := o.precision.Validate(); err != nil {
		return err
	}
	var t sweepTable
	var err error
	bar := a.startProgress(-1, fmt.Sprintf("sweep %s: %d runs in one process", p.Name, p.Runs))
	if pj, ok := j.(sweepPrecise); ok && !o.precision.IsZero() {
		t, err = pj.DirectPrecise(o.precision)
	} else if !o.precision.IsZero() {
		err = usagef("sweep: %s has no precision mode (--rel, --abs): give its runs", p.Name)
	} else {
		t, err = j.Direct()
	}
	bar.done()
	switch {
	case err != nil && isUsage(err):
		return err
	case err != nil && !(errors.Is(err, loadlab.ErrNotConverged) && len(t.Rows) > 0):
		return sweepFailed(err)
	}
	if werr := sweepWriteResult(o.out, p, t); werr != nil {
		return werr
	}
	runs := fmt.Sprintf("%d runs", p.Runs)
	if !o.precision.IsZero() {
		runs = "runs to the precision (column n)"
	}
	a.sweepLogf("sweep %s: %s in one process, written to %s.csv and %s.json", p.Name, runs, sweepResultBase(o.out), sweepResultBase(o.out))
	return sweepFailed(err)
}
