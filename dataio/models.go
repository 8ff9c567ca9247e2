package dataio

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/size"
)

// ReadTrace reads a T × n demand trace (row k is the demand r(k) of the
// n servers) for the consensus simulation. Errors are ReadTable's; it
// panics if r is nil.
func ReadTrace(r io.Reader) (consensus.TraceDemand, error) {
	mustIO("ReadTrace", "r", r)
	t, err := ReadTable(r)
	if err != nil {
		return nil, err
	}
	return consensus.TraceDemand(t.Rows), nil
}

// ReadInstance reads hold costs as a T × k table (row t, column i: the
// cost of serving slot t from server i) and returns the nomadic instance
// with setup cost c (spec nomadic §2). The instance constructor checks
// the values (finite, non-negative) and c. It panics if r is nil.
func ReadInstance(r io.Reader, c float64) (*competitive.Instance, error) {
	mustIO("ReadInstance", "r", r)
	t, err := ReadTable(r)
	if err != nil {
		return nil, err
	}
	hold, err := t.flat()
	if err != nil {
		return nil, err
	}
	return competitive.NewInstanceFlat(len(t.Rows), len(t.Rows[0]), hold, c)
}

// networkJSON is the JSON form of an anycast network.
type networkJSON struct {
	A         []float64    `json:"A"`
	T         []float64    `json:"T"`
	C         [][]float64  `json:"C,omitempty"`
	CTriplets [][3]float64 `json:"C_triplets,omitempty"`
}

// ReadNetworkJSON reads an anycast network (spec anycast-cdn §2) from
// JSON: demand "A" and capacities "T" (length N), and either the dense
// correlation matrix "C" (N rows of N), which gives a network with dense
// C (Network.C), or its nonzero entries as "C_triplets" [[i, j, c], …]
// with 0-based indices, which gives a network with sparse C
// (Network.Sparse, built by anycast.NewSparseC: O(nnz) memory, no N × N
// matrix at any point). anycast validates the model. Unknown fields and
// data after the object are errors. It panics if r is nil.
func ReadNetworkJSON(r io.Reader) (*anycast.Network, error) {
	mustIO("ReadNetworkJSON", "r", r)
	var nj networkJSON
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&nj); err != nil {
		return nil, &graphio.ParseError{Pkg: pkgName, Msg: "JSON: " + err.Error(), Err: loadlab.ErrInvalid}
	}
	// One document per file: anything after it is a damaged or
	// concatenated file, not something to ignore.
	if tok, err := dec.Token(); err != io.EOF {
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "trailing data", Value: fmt.Sprint(tok), Msg: "JSON: data after the network object", Err: loadlab.ErrInvalid}
	}
	c, err := nj.matrix()
	if err != nil {
		return nil, err
	}
	return anycast.NewNetwork(nj.A, c, nj.T)
}

func (nj *networkJSON) matrix() (mat.Matrix, error) {
	n := len(nj.A)
	switch {
	case n == 0:
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "A", Value: "[]", Msg: "no nodes", Err: loadlab.ErrInvalid}
	case nj.C != nil && nj.CTriplets != nil:
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "C", Msg: "give C or C_triplets, not both", Err: loadlab.ErrInvalid}
	case nj.C == nil && nj.CTriplets == nil:
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "C", Msg: "missing: give the dense C or C_triplets", Err: loadlab.ErrInvalid}
	case nj.C == nil:
		return triplets("C_triplets", n, nj.CTriplets)
	}
	if len(nj.C) != n {
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "C", Value: fmt.Sprint(len(nj.C)), Msg: fmt.Sprintf("%d rows, want N = %d", len(nj.C), n), Err: loadlab.ErrInvalid}
	}
	if err := size.Check("dataio", "N", n*n, 8); err != nil || n > 1<<15 {
		return nil, loadlab.TooLarge("dataio", "dense C with N = %d; use C_triplets", n)
	}
	c := mat.NewDense(n, n, nil)
	for i, row := range nj.C {
		if len(row) != n {
			return nil, &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("C[%d]", i), Value: fmt.Sprint(len(row)), Msg: fmt.Sprintf("row has %d entries, want N = %d", len(row), n), Err: loadlab.ErrInvalid}
		}
		c.SetRow(i, row)
	}
	return c, nil
}

// triplets builds the sparse n × n correlation matrix from (i, j, c)
// entries with anycast.NewSparseC. An index that is not an integer in
// [0, n) and a duplicate (i, j) are *graphio.ParseError naming the
// entry (field is "C_triplets" or the CSV's "triplet"); a bad value, an
// empty row or a row not summing to 1 is anycast's *EntryError.
func triplets(field string, n int, ts [][3]float64) (*anycast.SparseC, error) {
	if err := size.Check("dataio", "N", n, 16); err != nil {
		return nil, err
	}
	rows, cols := make([]int, len(ts)), make([]int, len(ts))
	vals := make([]float64, len(ts))
	for k, t := range ts {
		i, j := int(t[0]), int(t[1])
		if float64(i) != t[0] || float64(j) != t[1] || i < 0 || j < 0 || i >= n || j >= n {
			return nil, &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("%s[%d]", field, k), Value: fmt.Sprint(t), Msg: fmt.Sprintf("indices must be integers in [0, %d)", n), Err: loadlab.ErrInvalid}
		}
		rows[k], cols[k], vals[k] = i, j, t[2]
	}
	c, err := anycast.NewSparseC(n, rows, cols, vals)
	var ee *anycast.EntryError
	if errors.As(err, &ee) && ee.Col >= 0 && strings.Contains(ee.Msg, "duplicate") {
		return nil, duplicate(field, ts, ee.Row, ee.Col)
	}
	return c, err
}

// duplicate names the first two triplets at (i, j), which NewSparseC
// reported as a duplicate (an O(nnz) scan on the error path only).
func duplicate(field string, ts [][3]float64, i, j int) error {
	first := -1
	for k, t := range ts {
		if int(t[0]) != i || int(t[1]) != j {
			continue
		}
		if first >= 0 {
			return &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("%s[%d]", field, k), Value: fmt.Sprint(t), Msg: fmt.Sprintf("duplicate entry (%d, %d), first at %s[%d]", i, j, field, first), Err: loadlab.ErrInvalid}
		}
		first = k
	}
	return &graphio.ParseError{Pkg: pkgName, Field: field, Msg: fmt.Sprintf("duplicate entry (%d, %d)", i, j), Err: loadlab.ErrInvalid}
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

// ReadNetworkCSV reads an anycast network from a node table with columns
// A and T (one row per node, in node order) and a correlation table: the
// dense N × N matrix (no header, or any header), which gives dense C, or
// triplets with a header naming columns i, j and c, which give sparse C
// (anycast.NewSparseC), as in ReadNetworkJSON. It panics if nodes or
// corr is nil.
func ReadNetworkCSV(nodes, corr io.Reader) (*anycast.Network, error) {
	mustIO("ReadNetworkCSV", "nodes", nodes)
	mustIO("ReadNetworkCSV", "corr", corr)
	nt, err := ReadTable(nodes)
	if err != nil {
		return nil, err
	}
	a, t, err := nodeColumns(nt)
	if err != nil {
		return nil, err
	}
	ct, err := ReadTable(corr)
	if err != nil {
		return nil, err
	}
	c, err := corrMatrix(ct, len(a))
	if err != nil {
		return nil, err
	}
	return anycast.NewNetwork(a, c, t)
}

func nodeColumns(nt *Table) (a, t []float64, err error) {
	ia, err := nt.Column("A")
	if err != nil {
		return nil, nil, err
	}
	it, err := nt.Column("T")
	if err != nil {
		return nil, nil, err
	}
	for _, r := range nt.Rows {
		a = append(a, r[ia])
		t = append(t, r[it])
	}
	return a, t, nil
}

func corrMatrix(ct *Table, n int) (mat.Matrix, error) {
	if ct.Columns != nil && len(ct.Columns) == 3 {
		if _, err := ct.Column("i"); err == nil {
			ts := make([][3]float64, len(ct.Rows))
			ij := [3]int{}
			for k, name := range []string{"i", "j", "c"} {
				if ij[k], err = ct.Column(name); err != nil {
					return nil, err
				}
			}
			for k, r := range ct.Rows {
				ts[k] = [3]float64{r[ij[0]], r[ij[1]], r[ij[2]]}
			}
			return triplets("triplet", n, ts)
		}
	}
	if len(ct.Rows) != n || len(ct.Rows[0]) != n {
		return nil, &graphio.ParseError{Pkg: pkgName, Field: "C", Value: fmt.Sprintf("%d × %d", len(ct.Rows), len(ct.Rows[0])), Msg: fmt.Sprintf("want the dense %d × %d matrix or triplets with columns i, j, c", n, n), Err: loadlab.ErrInvalid}
	}
	flat, err := ct.flat()
	if err != nil {
		return nil, err
	}
	return mat.NewDense(n, n, flat), nil
}

// ReadTraceFile, ReadInstanceFile and ReadNetworkJSONFile are the readers
// on a named file; their errors carry the file name.
func ReadTraceFile(path string) (consensus.TraceDemand, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := ReadTrace(f)
	return d, inFile(err, path)
}

// ReadInstanceFile: see ReadTraceFile.
func ReadInstanceFile(path string, c float64) (*competitive.Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in, err := ReadInstance(f, c)
	return in, inFile(err, path)
}

// ReadNetworkJSONFile: see ReadTraceFile.
func ReadNetworkJSONFile(path string) (*anycast.Network, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	nw, err := ReadNetworkJSON(f)
	return nw, inFile(err, path)
}
