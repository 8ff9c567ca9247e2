package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/graphio"
)

// choice is a flag whose value is one of a fixed set of words.
type choice struct {
	val     string
	allowed []string
}

func newChoice(def string, allowed ...string) *choice {
	return &choice{val: def, allowed: allowed}
}

func (c *choice) String() string { return c.val }
func (c *choice) Type() string   { return strings.Join(c.allowed, "|") }
func (c *choice) Set(s string) error {
	if !slices.Contains(c.allowed, s) {
		return fmt.Errorf("%q is not one of %s", s, strings.Join(c.allowed, ", "))
	}
	c.val = s
	return nil
}

// shipped maps the --dataset names to the shipped networks.
var shipped = map[string]func() *graphio.Data{
	"power-grid":  datasets.PowerGrid,
	"karate":      datasets.Karate,
	"netscience":  datasets.NetScience,
	"internet-as": datasets.InternetAS,
}

// graphInput is the input graph of a subcommand: a file read with the
// reader options given as flags, or a shipped data set.
type graphInput struct {
	path, dataset          string
	weight, source, target string
	duplicates, selfLoops  *choice
	directed, header       *choice
	delimiter, extra       *choice
	largest                bool
	defaultWeight          float64
	label                  string
	maxIsolated            int
	fs                     *pflag.FlagSet
}

// register adds the graph flags to fs.
func (in *graphInput) register(fs *pflag.FlagSet) {
	in.duplicates = newChoice("reject", "reject", "sum", "first")
	in.selfLoops = newChoice("reject", "reject", "drop")
	in.directed = newChoice("reject", "reject", "symmetrize")
	in.header = newChoice("detect", "detect", "yes", "no")
	in.delimiter = newChoice("detect", "detect", "comma", "tab", "space", "semicolon")
	in.extra = newChoice("reject", "reject", "ignore")
	in.fs = fs
	fs.StringVarP(&in.path, "graph", "g", "", "graph `FILE`: edge list (.csv .tsv .txt .edges), GraphML (.graphml .xml), DOT (.dot .gv) or Matrix Market (.mtx)")
	fs.StringVar(&in.dataset, "dataset", "", "a shipped network instead of a file: "+strings.Join(sortedKeys(shipped), ", "))
	fs.StringVar(&in.weight, "weight", "", "weight column (headed edge list), GraphML attr.name or DOT attribute (default \"weight\")")
	fs.StringVar(&in.source, "source", "", "source column of a headed edge list (default the first)")
	fs.StringVar(&in.target, "target", "", "target column of a headed edge list (default the second)")
	fs.Var(in.duplicates, "duplicates", "an edge given twice: reject, sum the weights, or keep the first")
	fs.Var(in.selfLoops, "self-loops", "an edge {u, u}: reject or drop")
	fs.Var(in.directed, "directed", "directed input: reject, or symmetrize (arc u→v is edge {u, v})")
	fs.Var(in.header, "header", "edge list header line: detect, yes or no")
	fs.Var(in.delimiter, "delimiter", "edge list delimiter")
	fs.BoolVar(&in.largest, "largest", false, "keep only the largest connected component")
	fs.Float64Var(&in.defaultWeight, "default-weight", 0, "weight of an edge the file gives none (0: such an edge is an error)")
	fs.StringVar(&in.label, "label", "", "GraphML or DOT node attribute to take node labels from (default the node id)")
	fs.Var(in.extra, "extra-columns", "edge list columns beyond source, target and weight: reject or ignore")
	fs.IntVar(&in.maxIsolated, "max-isolated", 0, "Matrix Market: most declared nodes no entry touches (0: 2^20)")
}

// readerFlags are the flags that tune the file reader.
var readerFlags = []string{"weight", "source", "target", "duplicates", "self-loops", "directed", "header", "delimiter", "largest", "default-weight", "label", "extra-columns", "max-isolated"}

// options returns the graphio options the flags describe.
func (in *graphInput) options() *graphio.Options {
	o := &graphio.Options{Weight: in.weight, Source: in.source, Target: in.target, Largest: in.largest}
	o.Duplicates = map[string]graphio.Duplicates{"reject": graphio.RejectDuplicates, "sum": graphio.SumDuplicates, "first": graphio.KeepFirst}[in.duplicates.val]
	o.SelfLoops = map[string]graphio.SelfLoops{"reject": graphio.RejectSelfLoops, "drop": graphio.DropSelfLoops}[in.selfLoops.val]
	o.Directed = map[string]graphio.Directed{"reject": graphio.RejectDirected, "symmetrize": graphio.Symmetrize}[in.directed.val]
	o.Header = map[string]graphio.Header{"detect": graphio.HeaderDetect, "yes": graphio.HeaderYes, "no": graphio.HeaderNo}[in.header.val]
	o.Delimiter = map[string]rune{"detect": 0, "comma": ',', "tab": '\t', "space": ' ', "semicolon": ';'}[in.delimiter.val]
	o.ExtraColumns = map[string]graphio.ExtraColumns{"reject": graphio.RejectExtra, "ignore": graphio.IgnoreExtra}[in.extra.val]
	o.DefaultWeight, o.Label, o.MaxIsolated = in.defaultWeight, in.label, in.maxIsolated
	return o
}

// load reads the graph.
func (in *graphInput) load() (*graphio.Data, string, error) {
	switch {
	case in.path == "" && in.dataset == "":
		return nil, "", usagef("no graph: give --graph FILE or --dataset NAME")
	case in.path != "" && in.dataset != "":
		return nil, "", usagef("--graph and --dataset exclude each other")
	case in.dataset != "":
		for _, name := range readerFlags {
			if in.fs != nil && in.fs.Changed(name) {
				return nil, "", usagef("--%s tunes the reader of --graph files: the shipped --dataset networks are read as they are", name)
			}
		}
		f, ok := shipped[in.dataset]
		if !ok {
			return nil, "", usagef("--dataset %q: want one of %s", in.dataset, strings.Join(sortedKeys(shipped), ", "))
		}
		return f(), in.dataset, nil
	}
	d, err := graphio.ReadFile(in.path, in.options())
	return d, in.path, err
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// tableInput is how a subcommand reads a numeric table (a trace, hold
// costs, requests): which columns, and whether the first line is a
// header. The reader refuses an index or time-stamp column unless it is
// skipped or the columns are chosen.
type tableInput struct {
	prefix  string // flag name prefix, e.g. "trace-"
	columns []string
	skip    []string
	header  *choice
}

// register adds --PREFIXcolumns, --PREFIXskip and --PREFIXheader.
func (in *tableInput) register(fs *pflag.FlagSet, prefix, what string) {
	in.prefix = prefix
	in.header = newChoice("detect", "detect", "yes", "no")
	fs.StringSliceVar(&in.columns, prefix+"columns", nil, "columns of the "+what+" to read, by header name or 1-based number (default: all)")
	fs.StringSliceVar(&in.skip, prefix+"skip", nil, "columns of the "+what+" not to read (an index, a time stamp, row labels)")
	fs.Var(in.header, prefix+"header", "whether the "+what+"'s first line is a header: detect, yes or no")
}

// options returns the dataio options the flags describe.
func (in *tableInput) options() *dataio.TableOptions {
	return &dataio.TableOptions{
		Columns: in.columns,
		Skip:    in.skip,
		Header:  map[string]graphio.Header{"detect": graphio.HeaderDetect, "yes": graphio.HeaderYes, "no": graphio.HeaderNo}[in.header.val],
	}
}

// readerNotes says what the reader did to the data, for the answer's
// notes.
func readerNotes(d *graphio.Data) []string {
	var notes []string
	if d.Merged > 0 {
		notes = append(notes, fmt.Sprintf("Reader: %d duplicate edges merged (--duplicates).", d.Merged))
	}
	if d.SelfLoops > 0 {
		notes = append(notes, fmt.Sprintf("Reader: %d self-loops dropped (--self-loops drop).", d.SelfLoops))
	}
	if d.Defaulted > 0 {
		notes = append(notes, fmt.Sprintf("Reader: %d edges without a weight given --default-weight.", d.Defaulted))
	}
	if d.Unweighted {
		notes = append(notes, "Reader: the file gives no weights; every edge has weight 1.")
	}
	if len(d.Ignored) > 0 {
		notes = append(notes, "Reader: ignored "+strings.Join(d.Ignored, ", ")+" (--extra-columns ignore).")
	}
	return notes
}
