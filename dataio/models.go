package dataio

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
)

// ReadTrace reads a T × n demand trace (row k is the demand r(k) of the
// n servers) for the consensus simulation, with ReadTable and opts.
// Errors are ReadTable's; it panics if r is nil.
func ReadTrace(r io.Reader, opts *TableOptions) (consensus.TraceDemand, error) {
	mustIO("ReadTrace", "r", r)
	t, err := ReadTable(r, opts)
	if err != nil {
		return nil, err
	}
	return consensus.TraceDemand(t.Rows), nil
}

// ReadInstance reads hold costs as a T × k table (row t, column i: the
// cost of serving slot t from server i), with ReadTable and opts, and
// returns the nomadic instance with setup cost c (spec nomadic §2). A
// negative hold cost is a *graphio.ParseError naming its line and
// column; the instance constructor checks c and the totals. It panics
// if r is nil.
func ReadInstance(r io.Reader, c float64, opts *TableOptions) (*competitive.Instance, error) {
	mustIO("ReadInstance", "r", r)
	t, err := ReadTable(r, opts)
	if err != nil {
		return nil, err
	}
	for k, row := range t.Rows {
		for i, v := range row {
			if v < 0 {
				return nil, &graphio.ParseError{Pkg: pkgName, Line: t.Lines[k], Field: t.field(i), Value: num(v), Msg: "hold cost < 0, want ≥ 0", Err: loadlab.ErrInvalid}
			}
		}
	}
	hold, err := t.flat()
	if err != nil {
		return nil, err
	}
	return competitive.NewInstanceFlat(len(t.Rows), len(t.Rows[0]), hold, c)
}

// num formats v as the shortest decimal that reads back as v.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// field names column c of t in an error: by its header name, or its
// column of the file.
func (t *Table) field(c int) string {
	if t.Columns != nil && t.Columns[c] != "" {
		return fmt.Sprintf("column %q", t.Columns[c])
	}
	return fmt.Sprintf("column %d", t.FileColumns[c])
}

// NetworkData is what a network reader read: the model, and how far the
// rows of C were from summing to 1.
type NetworkData struct {
	Network *anycast.Network
	// RowSumDev is max_j |Σ_i C_ji − 1| over the rows of C as read
	// (before NetworkOptions.Normalize), and RowSumDevRow the first row
	// j where it is reached.
	RowSumDev    float64
	RowSumDevRow int
	// Normalized reports that each row of C was divided by its sum
	// (NetworkOptions.Normalize).
	Normalized bool
}

// networkJSON is the JSON form of an anycast network.
type networkJSON struct {
	A         []float64    `json:"A"`
	T         []float64    `json:"T"`
	C         [][]float64  `json:"C,omitempty"`
	CTriplets [][3]float64 `json:"C_triplets,omitempty"`
}

// WriteNetworkJSON writes nw in the form ReadNetworkJSON reads, keeping
// the storage of C: a network with sparse C (Network.Sparse) is written
// as "C_triplets" (its stored entries, explicit zeros included, row by
// row), so that it reads back sparse; a dense C is written as the dense
// "C" (as triplets of its nonzeros above N = 2¹⁵, the largest dense
// "C" the reader takes). It returns the error of nw.Validate for a network that is not
// valid (JSON cannot hold NaN or ±Inf, and ReadNetworkJSON would refuse
// it), and panics if w or nw is nil.
func WriteNetworkJSON(w io.Writer, nw *anycast.Network) error {
	mustIO("WriteNetworkJSON", "w", w)
	if nw == nil {
		panic("dataio: WriteNetworkJSON: nw is nil")
	}
	if err := nw.Validate(); err != nil {
		return err
	}
	n := len(nw.A)
	nj := networkJSON{A: nw.A, T: nw.T}
	if nw.Sparse != nil {
		nj.CTriplets = make([][3]float64, 0, nw.NNZ())
		for i := 0; i < n; i++ {
			cols, vals := nw.Row(i)
			for k, j := range cols {
				nj.CTriplets = append(nj.CTriplets, [3]float64{float64(i), float64(j), vals[k]})
			}
		}
	} else if n > 1<<15 {
		// ReadNetworkJSON refuses a dense "C" this large: its nonzeros
		// as triplets (the network then reads back with sparse C).
		for i := 0; i < n; i++ {
			for j, v := range nw.C.RawRowView(i) {
				if v != 0 {
					nj.CTriplets = append(nj.CTriplets, [3]float64{float64(i), float64(j), v})
				}
			}
		}
	} else {
		nj.C = make([][]float64, n)
		for i := range nj.C {
			nj.C[i] = nw.C.RawRowView(i)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(nj)
}

// ReadNetworkCSV reads an anycast network (spec anycast-cdn §1) from a
// node table with columns named A and T (one row per node, in node
// order; other columns are not read) and a correlation table: the dense
// N × N matrix (no header, or any header), which gives dense C, or
// triplets with a header naming exactly the columns i, j and c, which
// give sparse C (anycast.NewSparseC), as in ReadNetworkJSON. The rows of
// C are checked, and normalised if asked, as opts says (NetworkOptions).
// Errors are *graphio.ParseError values naming the line and the column
// (a triplet as "triplet[k]", a row of C as "row j of C"), those of
// opts.Validate, and anycast's for the model. It panics if nodes or corr
// is nil.
func ReadNetworkCSV(nodes, corr io.Reader, opts *NetworkOptions) (*NetworkData, error) {
	mustIO("ReadNetworkCSV", "nodes", nodes)
	mustIO("ReadNetworkCSV", "corr", corr)
	return readNetworkCSV(nodes, corr, opts, "", "")
}

// ReadNetworkCSVFiles is ReadNetworkCSV on the named files; each error
// names the file it is about.
func ReadNetworkCSVFiles(nodes, corr string, opts *NetworkOptions) (*NetworkData, error) {
	fn, err := os.Open(nodes)
	if err != nil {
		return nil, err
	}
	defer fn.Close()
	fc, err := os.Open(corr)
	if err != nil {
		return nil, err
	}
	defer fc.Close()
	return readNetworkCSV(fn, fc, opts, nodes, corr)
}

func readNetworkCSV(nodes, corr io.Reader, opts *NetworkOptions, nodesName, corrName string) (*NetworkData, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var o NetworkOptions
	if opts != nil {
		o = *opts
	}
	a, t, err := readNodes(nodes)
	if err != nil {
		return nil, inFile(err, nodesName)
	}
	tr := newTableReader(&o.Corr)
	tr.screen = false // a column of C may well read 0, 1, 0, …
	ct, err := tr.read(corr)
	if err != nil {
		return nil, inFile(err, corrName)
	}
	c, st, err := corrMatrix(ct, len(a), o)
	if err != nil {
		return nil, inFile(err, corrName)
	}
	nw, err := anycast.NewNetwork(a, c, t)
	if err != nil && nodesName != "" {
		return nil, fmt.Errorf("%s, %s: %w", nodesName, corrName, err)
	}
	if err != nil {
		return nil, err
	}
	return &NetworkData{Network: nw, RowSumDev: st.dev, RowSumDevRow: st.row, Normalized: o.Normalize}, nil
}

// readNodes reads the node table: columns A ≥ 0 and T > 0.
func readNodes(r io.Reader) (a, t []float64, err error) {
	nt, err := ReadTable(r, &TableOptions{Columns: []string{"A", "T"}})
	if err != nil {
		return nil, nil, err
	}
	for k, row := range nt.Rows {
		switch {
		case row[0] < 0:
			return nil, nil, &graphio.ParseError{Pkg: pkgName, Line: nt.Lines[k], Field: nt.field(0), Value: num(row[0]), Msg: "demand A < 0, want ≥ 0", Err: loadlab.ErrInvalid}
		case row[1] <= 0:
			return nil, nil, &graphio.ParseError{Pkg: pkgName, Line: nt.Lines[k], Field: nt.field(1), Value: num(row[1]), Msg: "capacity T ≤ 0, want > 0", Err: loadlab.ErrInvalid}
		}
		a = append(a, row[0])
		t = append(t, row[1])
	}
	return a, t, nil
}

// ReadTraceFile, ReadInstanceFile, ReadTableFile, ReadNetworkJSONFile and
// ReadMetricFile are the readers on a named file; their errors carry the
// file name.
func ReadTraceFile(path string, opts *TableOptions) (consensus.TraceDemand, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := ReadTrace(f, opts)
	return d, inFile(err, path)
}

// ReadInstanceFile: see ReadTraceFile.
func ReadInstanceFile(path string, c float64, opts *TableOptions) (*competitive.Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in, err := ReadInstance(f, c, opts)
	return in, inFile(err, path)
}

// ReadTableFile: see ReadTraceFile.
func ReadTableFile(path string, opts *TableOptions) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ReadTable(f, opts)
	return t, inFile(err, path)
}

// ReadNetworkJSONFile: see ReadTraceFile.
func ReadNetworkJSONFile(path string, opts *NetworkOptions) (*NetworkData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	nd, err := ReadNetworkJSON(f, opts)
	return nd, inFile(err, path)
}
