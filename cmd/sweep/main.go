// Command sweep runs a named Monte Carlo sweep from a JSON
// configuration, as one shard of many processes, and merges the
// shards' partial results into exactly the single-process result.
//
//	sweep -config cfg.json -shard i/N -out shard-i.jsonl   run (or resume) shard i of N
//	sweep -config cfg.json -merge -out result shard-*.jsonl write result.csv and result.json
//	sweep -config cfg.json -direct -out result              the library's one-process result, same format
//
// The configuration is {"sweep": NAME, "seed": S, "runs": R, "params":
// {...}}; -list lists the sweeps: consensus (consensus.EstimateRho),
// mobility (mobility.Compare), codedload (codedload.Sweep over listed
// points), codedload-sizes (codedload.Sweep over SizePoints),
// codedload-compare (codedload.CompareSizes), stability-attractors
// (Law.Attractors), stability-map (stability.TwoNodeMap) and dual
// (dual.Sweep); the README's section "Running a sweep on a cluster" has
// a sample of each one's parameters, and the params structs of this
// package document them. For sweeps of points (codedload, dual) R is the
// number of runs per point; for stability-map it is the number of grid
// cells. Every check (shard spec, sweep name, parameters, output path)
// happens before the first run. Progress goes to stderr. See package
// sweep for the file format, resume and merge rules.
//
// Run r with seed path (s, k, r) calls the model's own per-run function
// on the stream loadlab.Stream(s, k, r), the one the library's loop
// gives that run: dual.Solve (measured by Result.SteadyGap),
// codedload's Point.Run, stability's Law.Attract and a 1×1 TwoNodeMap,
// mobility.Play, consensus.SimulateRho. The merge summarises the runs
// in run order as the library's loop does, so it equals -direct bit for
// bit. The adapters are this package's files, one per area.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/sweep"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "sweep") {
			msg = "sweep: " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(1)
	}
}

// config is the configuration file.
type config struct {
	Sweep  string          `json:"sweep"`
	Seed   uint64          `json:"seed"`
	Runs   int             `json:"runs"`
	Params json.RawMessage `json:"params"`
}

// job is one prepared sweep: its runs and its summaries.
type job interface {
	// Prefix is the seed path between the root seed and the run index.
	Prefix() []uint64
	// Run computes run r.
	Run(r int) ([]float64, error)
	// Summarize turns the runs' values, in run order, into the result.
	Summarize(values [][]float64) (Table, error)
	// Direct computes the result with the library's one-process function.
	Direct() (Table, error)
}

// pathed is a job whose seed paths are not Seed, Prefix..., r (see
// sweep.Plan.Path).
type pathed interface {
	Path(r int) []uint64
}

// counted is a job whose plan has another number of runs than the
// configuration's runs (a sweep of points, the configuration giving
// the runs per point).
type counted interface {
	Total() int
}

// sweeps maps a sweep name to the function preparing it from its
// parameters (validating them), the seed and the number of runs.
var sweeps = map[string]func(params json.RawMessage, seed uint64, runs int) (job, error){
	"consensus":            newConsensus,
	"mobility":             newMobility,
	"codedload":            newCodedload,
	"codedload-sizes":      newCodedloadSizes,
	"codedload-compare":    newCodedloadCompare,
	"stability-attractors": newAttractors,
	"stability-map":        newTwoNodeMap,
	"dual":                 newDual,
}

type options struct {
	config, shard, out string
	merge, direct      bool
	files              []string
}

func parseFlags(args []string, stderr io.Writer) (options, bool, error) {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.StringVar(&o.config, "config", "", "JSON configuration file (required)")
	fs.StringVar(&o.shard, "shard", "0/1", "shard i/N to run: the runs r with r mod N = i")
	fs.StringVar(&o.out, "out", "", "partial-result file of the shard, or with -merge/-direct the base name of NAME.csv and NAME.json (required)")
	fs.BoolVar(&o.merge, "merge", false, "merge the partial-result files given as arguments")
	fs.BoolVar(&o.direct, "direct", false, "compute the result in this process with the library's own function")
	list := fs.Bool("list", false, "list the sweeps and exit")
	if err := fs.Parse(args); err != nil {
		return o, false, loadlab.Invalid("sweep", "%v", err)
	}
	o.files = fs.Args()
	return o, *list, nil
}

func run(args []string, stdout, stderr io.Writer) error {
	o, list, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if list {
		names := make([]string, 0, len(sweeps))
		for n := range sweeps {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintln(stdout, strings.Join(names, "\n"))
		return nil
	}
	if err := o.check(); err != nil {
		return err
	}
	p, j, err := load(o.config)
	if err != nil {
		return err
	}
	switch {
	case o.merge:
		return doMerge(o, p, j, stderr)
	case o.direct:
		return doDirect(o, p, j, stderr)
	}
	return doShard(o, p, j, stderr)
}

// check validates the flags.
func (o options) check() error {
	switch {
	case o.config == "":
		return loadlab.Invalid("sweep", "-config is required")
	case o.out == "":
		return loadlab.Invalid("sweep", "-out is required")
	case o.merge && o.direct:
		return loadlab.Invalid("sweep", "-merge and -direct exclude each other")
	case o.merge && len(o.files) == 0:
		return loadlab.Invalid("sweep", "-merge needs the partial-result files as arguments")
	case !o.merge && len(o.files) > 0:
		return loadlab.Invalid("sweep", "unexpected arguments %q (partial-result files go with -merge)", o.files)
	}
	outs := []string{o.out}
	if o.merge || o.direct {
		outs = []string{resultBase(o.out) + ".csv", resultBase(o.out) + ".json"}
	}
	for _, out := range append(outs, o.files...) {
		if sameFile(out, o.config) {
			return loadlab.Invalid("sweep", "-out %s would overwrite the configuration %s", o.out, o.config)
		}
	}
	for _, f := range o.files {
		if o.merge && slices.ContainsFunc(outs, func(out string) bool { return sameFile(out, f) }) {
			return loadlab.Invalid("sweep", "-out %s would overwrite the partial-result file %s", o.out, f)
		}
	}
	return nil
}

// sameFile reports whether paths a and b name one existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// load reads and validates the configuration file.
func load(path string) (sweep.Plan, job, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sweep.Plan{}, nil, err
	}
	var c config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return sweep.Plan{}, nil, loadlab.Invalid("sweep", "%s: %v", path, err)
	}
	prepare, ok := sweeps[c.Sweep]
	if !ok {
		return sweep.Plan{}, nil, loadlab.Invalid("sweep", "%s: unknown sweep %q (see -list)", path, c.Sweep)
	}
	if c.Runs < 1 {
		return sweep.Plan{}, nil, loadlab.Invalid("sweep", "%s: runs = %d, want ≥ 1", path, c.Runs)
	}
	if len(c.Params) == 0 {
		c.Params = json.RawMessage("{}")
	}
	j, err := prepare(c.Params, c.Seed, c.Runs)
	if err != nil {
		return sweep.Plan{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	p := sweep.Plan{Name: c.Sweep, Config: c.Params, Seed: c.Seed, Prefix: j.Prefix(), Runs: c.Runs}
	if pj, ok := j.(pathed); ok {
		p.Path = pj.Path
	}
	if cj, ok := j.(counted); ok {
		p.Runs = cj.Total()
	}
	return p, j, p.Validate()
}

// strictParams decodes params into v, refusing unknown fields.
func strictParams(params json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return loadlab.Invalid("sweep", "params: %v", err)
	}
	return nil
}

func doShard(o options, p sweep.Plan, j job, stderr io.Writer) error {
	s, err := sweep.ParseShard(o.shard)
	if err != nil {
		return err
	}
	// The output must be writable before any run: open it for appending.
	f, err := os.OpenFile(o.out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	f.Close()
	total := s.NumRuns(p.Runs)
	after := func(r int, pr sweep.Progress) {
		fmt.Fprintf(stderr, "sweep %s shard %s: run %d done (%d/%d)\n", p.Name, s, r, pr.Resumed+pr.Ran, total)
	}
	pr, err := sweep.RunShard(p, s, o.out, j.Run, after)
	if pr.Resumed > 0 {
		fmt.Fprintf(stderr, "sweep %s shard %s: resumed, %d runs were already in %s\n", p.Name, s, pr.Resumed, o.out)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "sweep %s shard %s: complete, %d runs in %s\n", p.Name, s, total, o.out)
	return nil
}

func doMerge(o options, p sweep.Plan, j job, stderr io.Writer) error {
	if err := checkWritable(o.out); err != nil {
		return err
	}
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
	fmt.Fprintf(stderr, "sweep %s: merged %d runs from %d files\n", p.Name, m.Runs, len(o.files))
	return writeResult(o.out, p, t)
}

func doDirect(o options, p sweep.Plan, j job, stderr io.Writer) error {
	if err := checkWritable(o.out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "sweep %s: %d runs in one process\n", p.Name, p.Runs)
	t, err := j.Direct()
	if err != nil {
		return err
	}
	return writeResult(o.out, p, t)
}

// checkWritable creates base.csv and base.json (empty) to prove they
// can be written before any work.
func checkWritable(base string) error {
	for _, ext := range []string{".csv", ".json"} {
		f, err := os.OpenFile(resultBase(base)+ext, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		f.Close()
	}
	return nil
}

// resultBase strips a .csv or .json extension from -out.
func resultBase(out string) string {
	for _, ext := range []string{".csv", ".json"} {
		if b, ok := strings.CutSuffix(out, ext); ok {
			return b
		}
	}
	return out
}
