package graphio

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// labelDigits bounds the bytes of a decimal label "1".."n" (n < 2^31)
// in the one string that holds them all.
const labelDigits = 10

// finish checks the isolated nodes, then builds the graph: only now, with
// the entries read, is anything of size n allocated.
func (mr *mtxReader) finish() (*Data, error) {
	if err := mr.checkIsolated(); err != nil {
		return nil, err
	}
	c := newCollector(mr.opts, costMatrixMarket)
	c.labels, c.labelBytes = decimalLabels(mr.n)
	for _, e := range mr.ents {
		if err := mr.addEntry(c, e); err != nil {
			return nil, err
		}
	}
	if err := mr.checkDiagonal(c); err != nil {
		return nil, err
	}
	c.data.Merged += mr.merged
	c.data.Zeros = mr.zeros
	c.data.Unweighted = mr.pattern
	return c.finish()
}

// checkIsolated counts the nodes no entry touches.
func (mr *mtxReader) checkIsolated() error {
	touched := make([]uint64, (mr.n+63)/64)
	count := 0
	for _, e := range mr.ents {
		for _, u := range e.ij {
			if w, b := u/64, uint64(1)<<(u%64); touched[w]&b == 0 {
				touched[w] |= b
				count++
			}
		}
	}
	if iso := mr.n - count; iso > mr.opts.MaxIsolated {
		return &ParseError{Line: mr.sizeLine, Field: "rows", Value: strconv.Itoa(mr.n), Msg: fmt.Sprintf("%d of the %d nodes are touched by no entry, more than Options.MaxIsolated = %d", iso, mr.n, mr.opts.MaxIsolated), Err: errTooLarge}
	}
	return nil
}

// decimalLabels returns "1".."n", cut from one string, and its length.
func decimalLabels(n int) ([]string, int) {
	var b strings.Builder
	ends := make([]int32, n)
	for i := range n {
		b.WriteString(strconv.Itoa(i + 1))
		ends[i] = int32(b.Len())
	}
	all := b.String()
	labels := make([]string, n)
	start := int32(0)
	for i, e := range ends {
		labels[i], start = all[start:e], e
	}
	return labels, len(all)
}

// addEntry adds the edge of an off-diagonal entry.
func (mr *mtxReader) addEntry(c *collector, e mtxEntry) error {
	i, j := e.ij[0], e.ij[1]
	if i == j {
		return nil // the diagonal: checkDiagonal
	}
	if e.v == 0 {
		mr.zeros++
		return nil
	}
	w, err := mr.edgeWeight(e, e.v)
	if err != nil {
		return err
	}
	if !mr.symmetric && mr.opts.Directed != Symmetrize {
		k, ok := mr.index[[2]int32{j, i}]
		if !ok || mr.ents[k].v != e.v {
			rev := 0.0
			if ok {
				rev = mr.ents[k].v
			}
			return bad(int(e.line), fmt.Sprintf("entry (%d, %d)", i+1, j+1), strconv.FormatFloat(e.v, 'g', -1, 64),
				"general matrix is not symmetric (entry (%d, %d) = %v); set Options.Directed = Symmetrize to read entries as arcs", j+1, i+1, rev)
		}
		if i > j {
			return nil // the mirror entry (i < j) adds the edge
		}
	}
	if mr.pattern && mr.opts.DefaultWeight > 0 {
		c.data.Defaulted++
	}
	return c.addIndex(int(e.line), i, j, w)
}

// checkDiagonal handles the diagonal: self-loops of an adjacency matrix,
// the weighted degrees of a Laplacian.
func (mr *mtxReader) checkDiagonal(c *collector) error {
	if mr.opts.Matrix == Adjacency {
		for _, e := range mr.ents {
			if e.ij[0] != e.ij[1] {
				continue
			}
			if e.v == 0 {
				mr.zeros++
				continue
			}
			if err := c.addIndex(int(e.line), e.ij[0], e.ij[0], e.v); err != nil {
				return err
			}
		}
		return nil
	}
	if err := c.dedupe(); err != nil {
		return err
	}
	deg := make([]float64, mr.n)
	for _, e := range c.edges {
		deg[e.U] += e.W
		deg[e.V] += e.W
	}
	diag := make([]float64, mr.n)
	line := make([]int32, mr.n)
	for _, e := range mr.ents {
		if e.ij[0] == e.ij[1] {
			diag[e.ij[0]], line[e.ij[0]] = e.v, e.line
		}
	}
	for i, d := range deg {
		if math.Abs(diag[i]-d) > 1e-9*math.Max(1, d) {
			return bad(int(line[i]), fmt.Sprintf("entry (%d, %d)", i+1, i+1), strconv.FormatFloat(diag[i], 'g', -1, 64),
				"Laplacian diagonal must equal the weighted degree %v", d)
		}
	}
	return nil
}
