package dataio

import (
	"fmt"
	"io"
	"math"
	"os"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/graphio"
)

// ReadMetric reads the migration costs of the nomadic model (spec
// nomadic §14.1) as a k × k table: row i, column j is the cost d(i, j) ≥
// 0 of moving the session from server i to server j, with 0 on the
// diagonal. The format and opts are ReadTable's (a header of server
// names is detected; Skip a row-label column), except that the columns
// are not screened for an index: a column of hop counts 0, 1, 2, … is
// data here, and a stray index or label column makes the table k ×
// (k + 1), which is refused. Every server's first placement costs a
// (competitive.NewMetric's initial costs).
//
// A table that is not square, a negative cell and a non-zero diagonal
// cell are *graphio.ParseError values naming the line, the column and
// the value; a negative, NaN or infinite a is an error wrapping
// loadlab.ErrInvalid. Other errors are ReadTable's. It panics if r is
// nil.
func ReadMetric(r io.Reader, a float64, opts *TableOptions) (*competitive.Metric, error) {
	mustIO("ReadMetric", "r", r)
	if !(a >= 0 && a <= math.MaxFloat64) {
		return nil, loadlab.Invalid(pkgName, "ReadMetric: first-placement cost a = %v, want finite and ≥ 0", a)
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	tr := newTableReader(opts)
	tr.screen = false
	t, err := tr.read(r)
	if err != nil {
		return nil, err
	}
	k := len(t.Rows)
	if w := len(t.Rows[0]); w != k {
		last := len(t.Rows) - 1
		return nil, &graphio.ParseError{Pkg: pkgName, Line: t.Lines[last],
			Msg: fmt.Sprintf("migration costs of %d rows × %d columns, want a square k × k matrix (skip a row-label column with Skip)", k, w), Err: loadlab.ErrInvalid}
	}
	for i, row := range t.Rows {
		for j, v := range row {
			switch {
			case v < 0:
				return nil, &graphio.ParseError{Pkg: pkgName, Line: t.Lines[i], Field: t.field(j), Value: num(v), Msg: "migration cost < 0, want ≥ 0", Err: loadlab.ErrInvalid}
			case i == j && v != 0:
				return nil, &graphio.ParseError{Pkg: pkgName, Line: t.Lines[i], Field: t.field(j), Value: num(v), Msg: fmt.Sprintf("migration cost from server %d to itself, want 0", i), Err: loadlab.ErrInvalid}
			}
		}
	}
	init := make([]float64, k)
	for s := range init {
		init[s] = a
	}
	return competitive.NewMetric(t.Rows, init)
}

// ReadMetricFile: see ReadTraceFile.
func ReadMetricFile(path string, a float64, opts *TableOptions) (*competitive.Metric, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := ReadMetric(f, a, opts)
	return m, inFile(err, path)
}
