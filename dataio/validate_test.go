package dataio

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/badarg"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	nan, inf = math.NaN(), math.Inf(1)
)

// tableReaders are the readers of a numeric table, on a string.
var tableReaders = map[string]func(src string) error{
	"ReadTable":    func(s string) error { _, err := ReadTable(strings.NewReader(s), nil); return err },
	"ReadTrace":    func(s string) error { _, err := ReadTrace(strings.NewReader(s), nil); return err },
	"ReadInstance": func(s string) error { _, err := ReadInstance(strings.NewReader(s), 1, nil); return err },
}

// tableReadersWith are the table readers with options.
var tableReadersWith = map[string]func(src string, o *TableOptions) error{
	"ReadTable":    func(s string, o *TableOptions) error { _, err := ReadTable(strings.NewReader(s), o); return err },
	"ReadTrace":    func(s string, o *TableOptions) error { _, err := ReadTrace(strings.NewReader(s), o); return err },
	"ReadInstance": func(s string, o *TableOptions) error { _, err := ReadInstance(strings.NewReader(s), 1, o); return err },
}

// badTableOptions are options each naming the field at fault.
var badTableOptions = map[string]TableOptions{
	"TableOptions.Header = 7":         {Header: 7},
	"TableOptions.Columns[0] = \"0\"": {Columns: []string{"0"}},
	"TableOptions.Skip[1]":            {Skip: []string{"a", "A"}},
	"both set":                        {Columns: []string{"a"}, Skip: []string{"b"}},
}

// readerCases probes the table readers with a cell that is NaN, ±Inf
// (ReadInstance also with a negative hold cost), rows of another width,
// a repeated header name and a nil reader.
func readerCases() []badarg.Case {
	var cs []badarg.Case
	for _, name := range sortedKeys(tableReaders) {
		read := tableReaders[name]
		d := badarg.Finite
		if name == "ReadInstance" {
			d = badarg.NonNegative
		}
		// The error names the cell's text.
		p := badarg.Probe{Func: name, Err: inv, Text: "%v"}
		cs = append(cs, p.Scalar("cell", d, func(x float64) error { return read(fmt.Sprintf("1,2\n3,%v\n", x)) })...)
		p.Text = ""
		cs = append(cs,
			p.Fails("a short row", "", func() error { return read("1,2\n3\n") }),
			// Column matches names case-insensitively, so a repeated name
			// could only ever give the first column (guards: "A,A,T"
			// reading A from column 1 and never seeing column 2).
			p.Fails("a repeated header name", "column 2", func() error { return read("A,a,T\n1,2,3\n") }),
			p.Panics("r = nil", "dataio: "+name+": r is nil", func() { _ = readNil(name) }),
			// A timestamp column is not a server (guards: read as one).
			p.Fails("a Unix-time column", "Unix time", func() error { return read("1704067200,1\n1704070800,2\n") }),
			p.Fails("an index column", "an index", func() error { return read("0,5\n1,5\n2,5\n") }),
			p.Fails("an empty first-row cell", "column 2", func() error { return read("1,,3\n4,5,6\n") }),
		)
		for want, o := range badTableOptions {
			p := badarg.Probe{Func: name, Err: inv, Text: want}
			cs = append(cs, p.Fails(want, want, func() error { return tableReadersWith[name]("1,2\n", &o) }))
		}
	}
	for want, o := range badTableOptions {
		p := badarg.Probe{Func: "TableOptions.Validate", Err: inv, Text: want}
		cs = append(cs, p.Fails(want, want, o.Validate))
	}
	for want, o := range map[string]NetworkOptions{
		"RowSumTol = -1":    {RowSumTol: -1},
		"RowSumTol = NaN":   {RowSumTol: nan, Normalize: true},
		"RowSumTol = +Inf":  {RowSumTol: inf, Normalize: true},
		"without Normalize": {RowSumTol: 0.01},
		"NetworkOptions.Corr: dataio: TableOptions.Header = 4": {Corr: TableOptions{Header: 4}},
	} {
		p := badarg.Probe{Func: "NetworkOptions.Validate", Err: inv}
		cs = append(cs, p.Fails(want, want, o.Validate))
		p.Func = "ReadNetworkJSON"
		cs = append(cs, p.Fails(want, want, func() error {
			_, err := ReadNetworkJSON(strings.NewReader(`{"A":[1],"T":[1],"C":[[1]]}`), &o)
			return err
		}))
		p.Func = "ReadNetworkCSV"
		cs = append(cs, p.Fails(want, want, func() error {
			_, err := ReadNetworkCSV(strings.NewReader("A,T\n1,1\n"), strings.NewReader("1\n"), &o)
			return err
		}))
	}
	// c is the instance's setup cost C, and named so.
	p := badarg.Probe{Func: "ReadInstance", Err: inv, Text: "setup cost C = %v"}
	cs = append(cs, p.Scalar("c", badarg.NonNegative, func(c float64) error { _, err := ReadInstance(strings.NewReader("1,2\n"), c, nil); return err })...)
	p = badarg.Probe{Func: "Table.Column", Err: inv}
	tab := must(ReadTable(strings.NewReader("A,T\n1,2\n"), nil))
	return append(cs, p.Fails("no such column", `"x"`, func() error { _, err := tab.Column("x"); return err }))
}

// readNil calls the reader name with a nil io.Reader.
func readNil(name string) error {
	var err error
	switch name {
	case "ReadTable":
		_, err = ReadTable(nil, nil)
	case "ReadTrace":
		_, err = ReadTrace(nil, nil)
	default:
		_, err = ReadInstance(nil, 1, nil)
	}
	return err
}

// networkCases probes the network readers and writer: bad values in the
// JSON and CSV forms, trailing data, nil readers, writers and networks,
// and a network changed after construction.
func networkCases() []badarg.Case {
	var cs []badarg.Case
	p := badarg.Probe{Func: "ReadNetworkJSON", Err: inv}
	readJSON := func(s string) error { _, err := ReadNetworkJSON(strings.NewReader(s), nil); return err }
	// JSON has no NaN or Inf: a bad value is a negative one, or the
	// wrong shape.
	cs = append(cs,
		p.Fails("A[0] = -1", "A[0] = -1", func() error { return readJSON(`{"A":[-1],"T":[2],"C":[[1]]}`) }),
		p.Fails("T[0] = 0", "T[0] = 0", func() error { return readJSON(`{"A":[1],"T":[0],"C":[[1]]}`) }),
		p.Fails("C row sums to 0.5", "row 0", func() error { return readJSON(`{"A":[1],"T":[2],"C":[[0.5]]}`) }),
		p.Fails("len(T) = 2", "len(T) = 2", func() error { return readJSON(`{"A":[1],"T":[2,2],"C":[[1]]}`) }),
		p.Fails("an unknown field", "unknown key", func() error { return readJSON(`{"A":[1],"T":[2],"C":[[1]],"X":1}`) }),
		// Data after the object is a damaged or concatenated file (guards:
		// ignored, the first object returned).
		p.Fails("trailing garbage", "", func() error { return readJSON(`{"A":[1],"T":[2],"C":[[1]]} garbage`) }),
		p.Fails("two objects", "", func() error { return readJSON(`{"A":[1],"T":[2],"C":[[1]]}{"A":[2],"T":[2],"C":[[1]]}`) }),
		p.Panics("r = nil", "dataio: ReadNetworkJSON: r is nil", func() { _, _ = ReadNetworkJSON(nil, nil) }),
	)
	p = badarg.Probe{Func: "ReadNetworkCSV", Err: inv}
	readCSV := func(nodes, corr string) error {
		_, err := ReadNetworkCSV(strings.NewReader(nodes), strings.NewReader(corr), nil)
		return err
	}
	p.Text = "%v"
	cs = append(cs, p.Scalar("A[0]", badarg.NonNegative, func(x float64) error { return readCSV(fmt.Sprintf("A,T\n%v,1\n", x), "1\n") })...)
	cs = append(cs, p.Scalar("T[0]", badarg.Positive, func(x float64) error { return readCSV(fmt.Sprintf("A,T\n1,%v\n", x), "1\n") })...)
	cs = append(cs, p.Scalar("C[0][0]", badarg.Unit, func(x float64) error { return readCSV("A,T\n1,1\n", fmt.Sprintf("%v\n", x)) })...)
	p.Text = ""
	cs = append(cs,
		p.Fails("no column T", "T", func() error { return readCSV("A,X\n1,1\n", "1\n") }),
		p.Fails("C 1×2", "", func() error { return readCSV("A,T\n1,1\n", "0.5,0.5\n") }),
		p.Panics("nodes = nil", "dataio: ReadNetworkCSV: nodes is nil", func() { _, _ = ReadNetworkCSV(nil, strings.NewReader("1\n"), nil) }),
		p.Panics("corr = nil", "dataio: ReadNetworkCSV: corr is nil", func() { _, _ = ReadNetworkCSV(strings.NewReader("A,T\n1,1\n"), nil, nil) }),
	)
	// WriteNetworkJSON validates the network: JSON has no NaN, and the
	// reader would refuse the file (guards: an unnamed encoding error).
	p = badarg.Probe{Func: "WriteNetworkJSON", Err: inv}
	nw := must(anycast.NewNetwork([]float64{1}, mat.NewDense(1, 1, []float64{1}), []float64{2}))
	cs = append(cs,
		p.Fails("nw.A[0] = NaN", "A[0] = NaN", func() error {
			bad := must(anycast.NewNetwork([]float64{1}, mat.NewDense(1, 1, []float64{1}), []float64{2}))
			bad.A[0] = nan
			return WriteNetworkJSON(&bytes.Buffer{}, bad)
		}),
		p.Panics("nw = nil", "dataio: WriteNetworkJSON: nw is nil", func() { _ = WriteNetworkJSON(&bytes.Buffer{}, nil) }),
		p.Panics("w = nil", "dataio: WriteNetworkJSON: w is nil", func() { _ = WriteNetworkJSON(nil, nw) }),
	)
	return cs
}

// writerCases probes the table writers: headers that would not read back
// as themselves (guards: numeric names read back as a data row, a name
// with a comma split into two columns), rows of another width, values
// that are not a table, and a nil writer.
func writerCases() []badarg.Case {
	var cs []badarg.Case
	p := badarg.Probe{Func: "WriteTable", Err: inv}
	for _, cols := range [][]string{{"1", "2"}, {"a,b"}, {"x", "X"}, {""}, {"#c"}, nil} {
		cs = append(cs, p.Fails(fmt.Sprintf("columns %q", cols), "", func() error { return WriteTable(&bytes.Buffer{}, cols, nil) }))
	}
	cs = append(cs,
		p.Fails("a row of width 1", "", func() error { return WriteTable(&bytes.Buffer{}, []string{"a", "b"}, [][]float64{{1}}) }),
		p.Panics("w = nil", "dataio: WriteTable: w is nil", func() { _ = WriteTable(nil, []string{"x"}, nil) }),
	)
	type clash struct {
		A float64                `json:"x_mean"`
		B struct{ Mean float64 } `json:"x"`
	}
	type point struct{ X float64 }
	p = badarg.Probe{Func: "WriteTidy", Err: inv}
	cs = append(cs,
		p.Fails("two columns x_mean", "x_mean", func() error { return WriteTidy(&bytes.Buffer{}, []clash{{}}) }),
		p.Fails("not a slice", "", func() error { return WriteTidy(&bytes.Buffer{}, point{}) }),
		p.Fails("a slice of ints", "", func() error { return WriteTidy(&bytes.Buffer{}, []int{1}) }),
		p.Fails("a nil element", "rows[1] is nil", func() error { return WriteTidy(&bytes.Buffer{}, []*point{{}, nil}) }),
		p.Panics("w = nil", "dataio: WriteTidy: w is nil", func() { _ = WriteTidy(nil, []point{{}}) }),
	)
	type series struct{ X []float64 }
	p = badarg.Probe{Func: "WriteColumns", Err: inv}
	cs = append(cs,
		p.Fails("index with a comma", "", func() error { return WriteColumns(&bytes.Buffer{}, series{[]float64{1}}, "a,b") }),
		p.Fails("index repeats a column", "", func() error { return WriteColumns(&bytes.Buffer{}, series{[]float64{1}}, "x") }),
		p.Fails("not a struct", "", func() error { return WriteColumns(&bytes.Buffer{}, []float64{1}, "i") }),
		p.Fails("no column", "", func() error { return WriteColumns(&bytes.Buffer{}, struct{ N int }{1}, "i") }),
		p.Panics("w = nil", "dataio: WriteColumns: w is nil", func() { _ = WriteColumns(nil, series{[]float64{1}}, "i") }),
	)
	// Two fields or map keys with the same JSON key would overwrite each
	// other (guards: the later one winning silently).
	p = badarg.Probe{Func: "MarshalJSON", Err: inv}
	return append(cs,
		p.Fails("two fields with key X", "", func() error {
			_, err := MarshalJSON(struct {
				X int
				B int `json:"X"`
			}{1, 2})
			return err
		}),
		p.Fails("map keys 1 and \"1\"", "", func() error { _, err := MarshalJSON(map[any]int{1: 1, "1": 2}); return err }),
		p.Fails("a channel", "", func() error { _, err := MarshalJSON(make(chan int)); return err }),
		p.Fails("a complex number", "", func() error { _, err := MarshalJSON(complex(1, 2)); return err }),
	)
}

// fileCases probes the file readers: a missing file is the error of the
// file system, bad contents name the file, and the setup cost is checked.
func fileCases(t *testing.T) []badarg.Case {
	dir := t.TempDir()
	write := func(name, s string) string {
		path := filepath.Join(dir, name)
		if err := writeFile(path, s); err != nil {
			t.Fatal(err)
		}
		return path
	}
	bad := write("bad.csv", "1,2\n3,NaN\n")
	good := write("good.csv", "1,2\n3,4\n")
	badJSON := write("bad.json", `{"A":[-1],"T":[2],"C":[[1]]}`)
	missing := filepath.Join(dir, "missing.csv")
	var cs []badarg.Case
	nodes := write("nodes.csv", "A,T\n1,1\n")
	for name, f := range map[string]func(path string) error{
		"ReadTraceFile":       func(p string) error { _, err := ReadTraceFile(p, nil); return err },
		"ReadInstanceFile":    func(p string) error { _, err := ReadInstanceFile(p, 1, nil); return err },
		"ReadTableFile":       func(p string) error { _, err := ReadTableFile(p, nil); return err },
		"ReadNetworkJSONFile": func(p string) error { _, err := ReadNetworkJSONFile(p, nil); return err },
		// the node table is good: the correlation table at p is read
		"ReadNetworkCSVFiles": func(p string) error { _, err := ReadNetworkCSVFiles(nodes, p, nil); return err },
	} {
		path := bad
		if name == "ReadNetworkJSONFile" {
			path = badJSON
		}
		cs = append(cs,
			badarg.Probe{Func: name, Err: fs.ErrNotExist}.Fails("missing file", "missing.csv", func() error { return f(missing) }),
			badarg.Probe{Func: name, Err: inv}.Fails("bad contents", filepath.Base(path), func() error { return f(path) }),
		)
	}
	p := badarg.Probe{Func: "ReadInstanceFile", Err: inv, Text: "setup cost C = %v"}
	cs = append(cs, p.Scalar("c", badarg.NonNegative, func(c float64) error { _, err := ReadInstanceFile(good, c, nil); return err })...)
	p = badarg.Probe{Func: "ReadNetworkCSVFiles", Err: fs.ErrNotExist}
	return append(cs,
		p.Fails("missing node file", "missing.csv", func() error { _, err := ReadNetworkCSVFiles(missing, good, nil); return err }),
		badarg.Probe{Func: "ReadNetworkCSVFiles", Err: inv}.Fails("bad node file", "bad.csv", func() error { _, err := ReadNetworkCSVFiles(bad, good, nil); return err }),
	)
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative and zero values in files, bad headers and values,
// nil readers, writers and networks: each gives the documented error,
// naming the input, or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(readerCases(), networkCases(), writerCases(), fileCases(t), metricCases(t), countsCases(t), mobilityCases(t))
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

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
