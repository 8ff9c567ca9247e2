package graphio

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/wgraph"
)

var inv = loadlab.ErrInvalid

// readers are the four readers, on a string.
var readers = map[string]func(src string, o *Options) error{
	"ReadEdgeList":     func(s string, o *Options) error { _, err := ReadEdgeList(strings.NewReader(s), o); return err },
	"ReadGraphML":      func(s string, o *Options) error { _, err := ReadGraphML(strings.NewReader(s), o); return err },
	"ReadDOT":          func(s string, o *Options) error { _, err := ReadDOT(strings.NewReader(s), o); return err },
	"ReadMatrixMarket": func(s string, o *Options) error { _, err := ReadMatrixMarket(strings.NewReader(s), o); return err },
}

// weighted returns a document of each format with one edge a–b of
// weight w (as text).
var weighted = map[string]func(w string) string{
	"ReadEdgeList": func(w string) string { return "a,b," + w + "\n" },
	"ReadGraphML": func(w string) string {
		return `<graphml><key id="d0" for="edge" attr.name="weight" attr.type="double"/><graph edgedefault="undirected">` +
			`<node id="a"/><node id="b"/><edge source="a" target="b"><data key="d0">` + w + `</data></edge></graph></graphml>`
	},
	"ReadDOT": func(w string) string { return `graph { a -- b [weight="` + w + `"] }` },
	"ReadMatrixMarket": func(w string) string {
		return "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 " + w + "\n"
	},
}

// readerCases probes every reader: a weight that is NaN, ±Inf, negative
// or zero (Matrix Market skips zero entries, as documented), every
// settings field out of range, and a nil reader.
func readerCases() []badarg.Case {
	var cs []badarg.Case
	for _, name := range sortedKeys(readers) {
		read, doc := readers[name], weighted[name]
		d := badarg.Positive
		if name == "ReadMatrixMarket" {
			d = badarg.NonNegative
		}
		// The error names the offending text: ` = "NaN"`.
		p := badarg.Probe{Func: name, Err: inv, Text: `"%v"`}
		cs = append(cs, p.Scalar("weight", d, func(w float64) error { return read(doc(fmt.Sprint(w)), nil) })...)
		p.Text = ""
		cs = append(cs, optionCases(name, func(o *Options) error { return read(doc("1"), o) })...)
		cs = append(cs, p.Panics("r = nil", "graphio: "+name+": r is nil", func() { _ = read2(name) }))
	}
	return cs
}

// read2 calls the reader name with a nil io.Reader.
func read2(name string) error {
	var err error
	switch name {
	case "ReadEdgeList":
		_, err = ReadEdgeList(nil, nil)
	case "ReadGraphML":
		_, err = ReadGraphML(nil, nil)
	case "ReadDOT":
		_, err = ReadDOT(nil, nil)
	default:
		_, err = ReadMatrixMarket(nil, nil)
	}
	return err
}

// optionCases probes every enumerated field of Options and the delimiter
// through call.
func optionCases(fn string, call func(*Options) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	var cs []badarg.Case
	for _, c := range []struct {
		o    Options
		text string
	}{
		{Options{Duplicates: 7}, "Options.Duplicates = 7"},
		{Options{Duplicates: -1}, "Options.Duplicates = -1"},
		{Options{SelfLoops: 2}, "Options.SelfLoops = 2"},
		{Options{Directed: -1}, "Options.Directed = -1"},
		{Options{Matrix: 2}, "Options.Matrix = 2"},
		{Options{Header: 3}, "Options.Header = 3"},
		{Options{Delimiter: 'x'}, "Options.Delimiter = 'x'"},
		{Options{ExtraColumns: 2}, "Options.ExtraColumns = 2"},
		{Options{ExtraColumns: -1}, "Options.ExtraColumns = -1"},
		{Options{DefaultWeight: math.NaN()}, "Options.DefaultWeight = NaN"},
		{Options{DefaultWeight: math.Inf(1)}, "Options.DefaultWeight = +Inf"},
		{Options{DefaultWeight: -1}, "Options.DefaultWeight = -1"},
		{Options{DefaultWeight: 1e-300}, "Options.DefaultWeight = 1e-300"},
		{Options{MaxIsolated: -1}, "Options.MaxIsolated = -1"},
		{Options{Source: "u", Header: HeaderNo}, `Options.Source = "u"`},
	} {
		cs = append(cs, p.Fails(c.text, c.text, func() error { return call(&c.o) }))
	}
	return cs
}

// writerCases probes the writers: a nil writer or graph, labels of the
// wrong length (documented panics) and labels no reader could read back.
func writerCases() []badarg.Case {
	g := must(wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}}))
	var b bytes.Buffer
	var cs []badarg.Case
	for name, f := range map[string]func(w *bytes.Buffer, g *wgraph.Graph, labels []string) error{
		"WriteEdgeList": func(w *bytes.Buffer, g *wgraph.Graph, l []string) error {
			if w == nil {
				return WriteEdgeList(nil, g, l)
			}
			return WriteEdgeList(w, g, l)
		},
		"WriteGraphML": func(w *bytes.Buffer, g *wgraph.Graph, l []string) error {
			if w == nil {
				return WriteGraphML(nil, g, l)
			}
			return WriteGraphML(w, g, l)
		},
		"WriteMatrixMarket": func(w *bytes.Buffer, g *wgraph.Graph, _ []string) error {
			if w == nil {
				return WriteMatrixMarket(nil, g)
			}
			return WriteMatrixMarket(w, g)
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			p.Panics("w = nil", "graphio: "+name+": w is nil", func() { _ = f(nil, g, nil) }),
			p.Panics("g = nil", "graphio: "+name+": g is nil", func() { _ = f(&b, nil, nil) }),
		)
		if name == "WriteMatrixMarket" {
			continue
		}
		cs = append(cs,
			p.Panics("len(labels) = 2", "2 labels for 3 nodes", func() { _ = f(&b, g, []string{"a", "b"}) }),
			p.Fails("an empty label", "", func() error { return f(&b, g, []string{"a", "", "c"}) }),
		)
	}
	p := badarg.Probe{Func: "WriteEdgeList", Err: inv}
	for _, l := range []string{"a,b", `a"b`, "a b", "#a", "%a"} {
		cs = append(cs, p.Fails(fmt.Sprintf("label %q", l), "", func() error { return WriteEdgeList(&b, g, []string{"x", l, "y"}) }))
	}
	cs = append(cs, badarg.Probe{Func: "WriteGraphML", Err: inv}.Fails("duplicate labels", "", func() error {
		return WriteGraphML(&b, g, []string{"a", "b", "a"})
	}))
	return cs
}

// contentCases probes documents that are bad beyond a weight.
func contentCases() []badarg.Case {
	return []badarg.Case{
		// A three-line Matrix Market file may declare 2^28 nodes, whose
		// labels, diagonal and CSR offsets exceed the memory budget:
		// refused before anything is allocated (guards: an out-of-memory
		// crash).
		badarg.Probe{Func: "ReadMatrixMarket", Err: loadlab.ErrTooLarge}.Fails("2^28 declared nodes", `rows = "268435456"`, func() error {
			return readers["ReadMatrixMarket"]("%%MatrixMarket matrix coordinate real symmetric\n268435456 268435456 0\n", nil)
		}),
		// A hyperedge is not an edge between two nodes (guards: dropped
		// silently, leaving a graph without the edge).
		badarg.Probe{Func: "ReadGraphML", Err: inv}.Fails("a hyperedge", "hyperedge", func() error {
			return readers["ReadGraphML"](`<graphml><graph edgedefault="undirected"><node id="a"/><node id="b"/>
<hyperedge><endpoint node="a"/><endpoint node="b"/></hyperedge></graph></graphml>`, nil)
		}),
		// A header naming a weight column makes the weight required: a
		// short row is an error naming the line (guards: read as weight 1).
		badarg.Probe{Func: "ReadEdgeList", Err: inv}.Fails("a missing weight cell", "3:", func() error {
			return readers["ReadEdgeList"]("u,v,w\na,b,2\nb,c\n", nil)
		}),
		// A header that claims 5·10⁷ nodes fails before allocating them
		// (guards: 89 s, then out of memory).
		badarg.Probe{Func: "ReadMatrixMarket", Err: loadlab.ErrTooLarge}.Fails("5·10⁷ declared nodes", `rows = "50000000"`, func() error {
			return readers["ReadMatrixMarket"]("%%MatrixMarket matrix coordinate real symmetric\n50000000 50000000 0\n", nil)
		}),
		// An overflowing weight on line 1 is data, not a header (guards:
		// the edge vanished).
		badarg.Probe{Func: "ReadEdgeList", Err: inv}.Fails("1e309 on line 1", `1: column 3 = "1e309"`, func() error {
			return readers["ReadEdgeList"]("0 1 1e309\n", nil)
		}),
		// A fourth column is an error (guards: ignored).
		badarg.Probe{Func: "ReadEdgeList", Err: inv}.Fails("a fourth column", `1: column 4 = "9"`, func() error {
			return readers["ReadEdgeList"]("0 1 2 9\n", nil)
		}),
		// A named weight column needs a header.
		badarg.Probe{Func: "ReadEdgeList", Err: inv}.Fails("Options.Weight with HeaderNo", `Options.Weight = "w"`, func() error {
			return readers["ReadEdgeList"]("a b 1\n", &Options{Weight: "w", Header: HeaderNo})
		}),
		// The weight attribute the file does not declare (guards: weight 1).
		badarg.Probe{Func: "ReadGraphML", Err: inv}.Fails("no weight key", `attr.name = "weight"`, func() error {
			return readers["ReadGraphML"](`<graphml><graph><node id="a"/><node id="b"/><edge source="a" target="b"/></graph></graphml>`, nil)
		}),
		badarg.Probe{Func: "ReadDOT", Err: inv}.Fails("no weight attribute", `weight = ""`, func() error {
			return readers["ReadDOT"](`graph { a -- b }`, nil)
		}),
	}
}

// fileCases probes ReadFile: an unknown extension is bad data, a missing
// file the error of the file system, and the options are validated.
func fileCases(t *testing.T) []badarg.Case {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.csv")
	if err := writeString(path, "a,b,1\n"); err != nil {
		t.Fatal(err)
	}
	p := badarg.Probe{Func: "ReadFile", Err: inv}
	cs := []badarg.Case{
		p.Fails("unknown extension", `unknown extension ".foo"`, func() error { _, err := ReadFile(filepath.Join(dir, "g.foo"), nil); return err }),
		badarg.Probe{Func: "ReadFile", Err: fs.ErrNotExist}.Fails("missing file", "missing.csv", func() error {
			_, err := ReadFile(filepath.Join(dir, "missing.csv"), nil)
			return err
		}),
		p.Fails("a bad weight", "g.csv", func() error {
			bad := filepath.Join(dir, "bad.csv")
			if err := writeString(bad, "a,b,NaN\n"); err != nil {
				return err
			}
			_, err := ReadFile(bad, nil)
			return err
		}),
	}
	cs[2].Text = "bad.csv:1:"
	cs = append(cs, optionCases("ReadFile", func(o *Options) error { _, err := ReadFile(path, o); return err })...)
	cs = append(cs, contentCases()...)
	return append(cs, optionCases("Options.Validate", func(o *Options) error { return o.Validate() })...)
}

// TestValidate drives every exported entry point of the package with
// bad weights (NaN, ±Inf, negative, zero), bad options, nil readers,
// writers and graphs and bad labels: each gives the documented error,
// naming the input, or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(readerCases(), writerCases(), fileCases(t))
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
	var o *Options
	if err := o.Validate(); err != nil {
		t.Errorf("nil Options: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
