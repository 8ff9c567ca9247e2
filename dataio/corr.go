package dataio

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/size"
)

// rowStats is how far the rows of C were from summing to 1: the largest
// |Σ_i C_ji − 1| and the first row j where it is reached.
type rowStats struct {
	dev float64
	row int
}

// maxDenseN is the largest N of a dense C the readers take (2¹⁵: an
// 8 GiB matrix); larger networks come as triplets.
const maxDenseN = 1 << 15

// dense checks the entries (finite, ≥ 0) and the row sums of the dense
// C (rows, N × N) as o says, normalises the rows if o.Normalize, and
// returns C. place names entry (j, i) of C, or row j for i < 0.
func dense(rows [][]float64, o NetworkOptions, place func(j, i int) *graphio.ParseError) (mat.Matrix, rowStats, error) {
	n := len(rows)
	if n > maxDenseN {
		return nil, rowStats{}, loadlab.TooLarge(pkgName, "dense C with N = %d; give C as triplets", n)
	}
	sums := make([]float64, n)
	for j, row := range rows {
		for i, v := range row {
			if !(v >= 0) || math.IsInf(v, 1) {
				return nil, rowStats{}, at(place(j, i), num(v), "want a finite value ≥ 0")
			}
			sums[j] += v
		}
	}
	st, err := checkSums(sums, o, func(j int) *graphio.ParseError { return place(j, -1) })
	if err != nil {
		return nil, st, err
	}
	c := mat.NewDense(n, n, nil)
	for j, row := range rows {
		if o.Normalize {
			for i := range row {
				row[i] /= sums[j]
			}
		}
		c.SetRow(j, row)
	}
	return c, st, nil
}

// triplets builds the sparse n × n correlation matrix from (i, j, c)
// entries with anycast.NewSparseC, after checking the indices (integers
// in [0, n)), the values (finite, ≥ 0) and the row sums as o says, and
// normalising the rows if o.Normalize. place names triplet k; a row
// without triplets is named "row j of C".
func triplets(n int, ts [][]float64, o NetworkOptions, place func(k int) *graphio.ParseError) (*anycast.SparseC, rowStats, error) {
	if err := size.Check(pkgName, "N", n, 24); err != nil {
		return nil, rowStats{}, err
	}
	rows, cols := make([]int, len(ts)), make([]int, len(ts))
	vals := make([]float64, len(ts))
	sums := make([]float64, n)
	for k, t := range ts {
		i, j := int(t[0]), int(t[1])
		if float64(i) != t[0] || float64(j) != t[1] || i < 0 || j < 0 || i >= n || j >= n {
			return nil, rowStats{}, at(place(k), "", fmt.Sprintf("indices must be integers in [0, %d)", n))
		}
		if v := t[2]; !(v >= 0) || math.IsInf(v, 1) {
			return nil, rowStats{}, at(place(k), "", "want a value c ≥ 0")
		}
		rows[k], cols[k], vals[k] = i, j, t[2]
		sums[i] += t[2]
	}
	st, err := checkSums(sums, o, func(j int) *graphio.ParseError {
		for k, t := range ts {
			if int(t[0]) == j {
				pe := place(k)
				pe.Field = fmt.Sprintf("row %d of C (from %s)", j, pe.Field)
				return pe
			}
		}
		return &graphio.ParseError{Pkg: pkgName, Field: fmt.Sprintf("row %d of C", j), Err: loadlab.ErrInvalid}
	})
	if err != nil {
		return nil, st, err
	}
	if o.Normalize {
		for k := range vals {
			vals[k] /= sums[rows[k]]
		}
	}
	c, err := anycast.NewSparseC(n, rows, cols, vals)
	var ee *anycast.EntryError
	if errors.As(err, &ee) && ee.Col >= 0 {
		return nil, st, entry(ts, ee, place)
	}
	return c, st, err
}

// checkSums returns the deviation of the row sums from 1, or an error
// naming the first row outside the tolerance of o (with Normalize, also
// a row whose sum is 0 or overflows). place names row j.
func checkSums(sums []float64, o NetworkOptions, place func(j int) *graphio.ParseError) (rowStats, error) {
	tol := o.rowSumTol()
	var st rowStats
	for j, s := range sums {
		d := math.Abs(s - 1)
		if d > st.dev || j == 0 {
			st = rowStats{d, j}
		}
		switch {
		case math.IsInf(s, 1):
			return st, at(place(j), num(s), "row sum overflows")
		case d > tol && !o.Normalize:
			return st, at(place(j), num(s), fmt.Sprintf("row %d sums to %v: |sum − 1| = %.3g exceeds the tolerance %g (set NetworkOptions.Normalize to divide each row by its sum, with NetworkOptions.RowSumTol bounding |sum − 1|)", j, s, d, tol))
		case d > tol:
			return st, at(place(j), num(s), fmt.Sprintf("row %d sums to %v: |sum − 1| = %.3g exceeds NetworkOptions.RowSumTol = %g", j, s, d, tol))
		case o.Normalize && s == 0:
			return st, at(place(j), num(s), fmt.Sprintf("row %d sums to 0: it cannot be normalised", j))
		}
	}
	return st, nil
}

// at completes the ParseError pe with the value and the message.
func at(pe *graphio.ParseError, value, msg string) *graphio.ParseError {
	if value != "" {
		pe.Value = value
	}
	pe.Msg = msg
	return pe
}

// entry turns anycast's error about entry (Row, Col) into one naming the
// first triplet there, or for a duplicate the first two.
func entry(ts [][]float64, ee *anycast.EntryError, place func(k int) *graphio.ParseError) error {
	first := -1
	for k, t := range ts {
		if int(t[0]) != ee.Row || int(t[1]) != ee.Col {
			continue
		}
		if first < 0 && !strings.Contains(ee.Msg, "duplicate") {
			return at(place(k), "", ee.Msg)
		}
		if first >= 0 {
			return at(place(k), "", fmt.Sprintf("duplicate entry (%d, %d), first at %s", ee.Row, ee.Col, place(first).Field))
		}
		first = k
	}
	return ee
}

// corrMatrix builds C from the correlation table ct of a network of n
// nodes: triplets if its header names exactly the columns i, j and c,
// else the dense N × N matrix.
func corrMatrix(ct *Table, n int, o NetworkOptions) (mat.Matrix, rowStats, error) {
	if len(ct.Columns) == 3 {
		if _, err := ct.Column("i"); err == nil {
			var idx [3]int
			for k, name := range []string{"i", "j", "c"} {
				if idx[k], err = ct.Column(name); err != nil {
					return nil, rowStats{}, err
				}
			}
			ts := make([][]float64, len(ct.Rows))
			for k, r := range ct.Rows {
				ts[k] = []float64{r[idx[0]], r[idx[1]], r[idx[2]]}
			}
			return triplets(n, ts, o, func(k int) *graphio.ParseError {
				return &graphio.ParseError{Pkg: pkgName, Line: ct.Lines[k], Field: fmt.Sprintf("triplet[%d]", k), Value: fmt.Sprint(ts[k]), Err: loadlab.ErrInvalid}
			})
		}
	}
	if len(ct.Rows) != n || len(ct.Rows[0]) != n {
		return nil, rowStats{}, &graphio.ParseError{Pkg: pkgName, Line: ct.Lines[0], Field: "C", Value: fmt.Sprintf("%d × %d", len(ct.Rows), len(ct.Rows[0])), Msg: fmt.Sprintf("want the dense %d × %d matrix or triplets with columns i, j, c", n, n), Err: loadlab.ErrInvalid}
	}
	return dense(ct.Rows, o, func(j, i int) *graphio.ParseError {
		if i < 0 {
			return &graphio.ParseError{Pkg: pkgName, Line: ct.Lines[j], Field: fmt.Sprintf("row %d of C", j), Err: loadlab.ErrInvalid}
		}
		return &graphio.ParseError{Pkg: pkgName, Line: ct.Lines[j], Field: ct.field(i), Err: loadlab.ErrInvalid}
	})
}
