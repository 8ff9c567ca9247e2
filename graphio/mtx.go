package graphio

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// ReadMatrixMarket reads a square sparse matrix in Matrix Market
// coordinate format (real, integer or pattern; general or symmetric) as a
// graph on nodes 1..n (labels "1".."n", indices 0..n−1), so isolated
// nodes are kept. With Options.Matrix = Adjacency (the default) entry
// (i, j) is the weight of {i, j}; with Laplacian it is −w_ij and the
// diagonal must equal the weighted degree. A general matrix must be
// symmetric (a_ij = a_ji) unless Options.Directed = Symmetrize, which
// reads each entry as an arc. Zero entries are skipped. It panics if r is
// nil.
func ReadMatrixMarket(r io.Reader, opts *Options) (*Data, error) {
	mustIO("ReadMatrixMarket", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	mr := &mtxReader{sc: bufio.NewScanner(r), opts: o}
	mr.sc.Buffer(make([]byte, 64<<10), maxLine)
	if err := mr.header(); err != nil {
		return nil, err
	}
	if err := mr.entries(); err != nil {
		return nil, err
	}
	return mr.finish()
}

type mtxReader struct {
	sc        *bufio.Scanner
	opts      Options
	line      int
	pattern   bool
	symmetric bool
	n, nnz    int
	arcs      map[[2]int32]float64 // general storage: (i, j) → value
	order     [][2]int32           // arcs in file order
	diag      []float64
	lines     map[[2]int32]int
}

func (mr *mtxReader) next() (string, bool) {
	for mr.sc.Scan() {
		mr.line++
		s := strings.TrimSpace(mr.sc.Text())
		if s != "" && s[0] != '%' {
			return s, true
		}
	}
	return "", false
}

func (mr *mtxReader) header() error {
	if !mr.sc.Scan() {
		return &ParseError{Line: 1, Msg: "empty file", Err: errInvalid}
	}
	mr.line = 1
	f := strings.Fields(strings.ToLower(mr.sc.Text()))
	if len(f) != 5 || f[0] != "%%matrixmarket" || f[1] != "matrix" || f[2] != "coordinate" {
		return bad(1, "header", mr.sc.Text(), "want %%%%MatrixMarket matrix coordinate <field> <symmetry>")
	}
	switch f[3] {
	case "real", "integer", "double":
	case "pattern":
		mr.pattern = true
	default:
		return bad(1, "field", f[3], "want real, integer or pattern")
	}
	switch f[4] {
	case "general":
	case "symmetric":
		mr.symmetric = true
	default:
		return bad(1, "symmetry", f[4], "want general or symmetric")
	}
	return mr.sizeLine()
}

func (mr *mtxReader) sizeLine() error {
	s, ok := mr.next()
	if !ok {
		return bad(mr.line+1, "size line", "", "missing")
	}
	f := strings.Fields(s)
	if len(f) != 3 {
		return bad(mr.line, "size line", s, "want rows columns entries")
	}
	var v [3]int
	for k := range f {
		x, err := strconv.Atoi(f[k])
		if err != nil || x < 0 {
			return bad(mr.line, "size line", s, "not a non-negative integer")
		}
		v[k] = x
	}
	if v[0] != v[1] {
		return bad(mr.line, "size line", s, "matrix is %d × %d, want square", v[0], v[1])
	}
	if v[0] > math.MaxInt32 || v[0] > 1<<28 {
		return &ParseError{Line: mr.line, Field: "rows", Value: f[0], Msg: "more nodes than the reader supports (2^28)", Err: errTooLarge}
	}
	// Every node, isolated or not, costs its label, its diagonal entry,
	// its CSR offset and component bookkeeping: check them against the
	// memory budget before the first allocation, since three lines of
	// text can declare 2^28 nodes.
	if _, ok := size.Mul(v[0], bytesPerNode); !ok || v[0]*bytesPerNode > size.MaxBytes {
		return &ParseError{Line: mr.line, Field: "rows", Value: f[0], Msg: fmt.Sprintf("%d nodes need more than the %d GiB memory budget", v[0], size.MaxBytes>>30), Err: errTooLarge}
	}
	mr.n, mr.nnz = v[0], v[2]
	mr.diag = make([]float64, mr.n)
	mr.arcs = map[[2]int32]float64{}
	mr.lines = map[[2]int32]int{}
	return nil
}

func (mr *mtxReader) entries() error {
	count := 0
	for {
		s, ok := mr.next()
		if !ok {
			break
		}
		count++
		if count > mr.nnz {
			return bad(mr.line, "entry", s, "more entries than the %d the size line declares", mr.nnz)
		}
		if err := mr.entry(s); err != nil {
			return err
		}
	}
	if err := mr.sc.Err(); err != nil {
		return &ParseError{Line: mr.line + 1, Msg: err.Error(), Err: errInvalid}
	}
	if count < mr.nnz {
		return bad(mr.line, "entries", strconv.Itoa(count), "file ends after %d of %d entries", count, mr.nnz)
	}
	return nil
}

func (mr *mtxReader) entry(s string) error {
	f := strings.Fields(s)
	want := 3
	if mr.pattern {
		want = 2
	}
	if len(f) != want {
		return bad(mr.line, "entry", s, "want %d fields", want)
	}
	var ij [2]int32
	for k := 0; k < 2; k++ {
		x, err := strconv.Atoi(f[k])
		if err != nil || x < 1 || x > mr.n {
			return bad(mr.line, []string{"row", "column"}[k], f[k], "want an integer in [1, %d]", mr.n)
		}
		ij[k] = int32(x - 1)
	}
	v := 1.0
	if !mr.pattern {
		var err error
		if v, err = strconv.ParseFloat(f[2], 64); err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return bad(mr.line, "value", f[2], "not a finite number")
		}
	}
	if ij[0] == ij[1] {
		mr.diag[ij[0]] += v
		return nil
	}
	if mr.symmetric && ij[0] < ij[1] {
		return bad(mr.line, "entry", s, "symmetric storage holds the lower triangle only (row ≥ column)")
	}
	if _, dup := mr.arcs[ij]; dup && mr.opts.Duplicates == RejectDuplicates {
		return bad(mr.line, "entry", s, "duplicate entry (first on line %d)", mr.lines[ij])
	}
	mr.arcs[ij] += v
	if _, seen := mr.lines[ij]; !seen {
		mr.lines[ij] = mr.line
		mr.order = append(mr.order, ij)
	}
	return nil
}

// edgeWeight converts a matrix value to a weight, by Options.Matrix.
func (mr *mtxReader) edgeWeight(ij [2]int32, v float64) (float64, error) {
	if mr.opts.Matrix == Laplacian {
		v = -v
	}
	line := mr.lines[ij]
	val := strconv.FormatFloat(v, 'g', -1, 64)
	if !(v >= wgraph.MinWeight && v <= wgraph.MaxWeight) {
		what := "weight"
		if mr.opts.Matrix == Laplacian {
			what = "−L_ij"
		}
		return 0, bad(line, fmt.Sprintf("entry (%d, %d)", ij[0]+1, ij[1]+1), val, "%s must be positive and finite, within [2^-500, 2^500]", what)
	}
	return v, nil
}

func (mr *mtxReader) finish() (*Data, error) {
	c := newCollector(mr.opts)
	for i := 0; i < mr.n; i++ {
		c.labels = append(c.labels, strconv.Itoa(i+1))
	}
	for _, ij := range mr.order {
		if err := mr.addArc(c, ij); err != nil {
			return nil, err
		}
	}
	if err := mr.checkDiagonal(c); err != nil {
		return nil, err
	}
	return c.finish()
}

func (mr *mtxReader) addArc(c *collector, ij [2]int32) error {
	v := mr.arcs[ij]
	if v == 0 {
		return nil
	}
	w, err := mr.edgeWeight(ij, v)
	if err != nil {
		return err
	}
	line := mr.lines[ij]
	if mr.symmetric {
		return c.addIndex(line, ij[0], ij[1], w)
	}
	rev, ok := mr.arcs[[2]int32{ij[1], ij[0]}]
	if mr.opts.Directed == Symmetrize {
		return c.addIndex(line, ij[0], ij[1], w)
	}
	if !ok || rev != v {
		return bad(line, fmt.Sprintf("entry (%d, %d)", ij[0]+1, ij[1]+1), strconv.FormatFloat(v, 'g', -1, 64),
			"general matrix is not symmetric (entry (%d, %d) = %v); set Options.Directed = Symmetrize to read entries as arcs", ij[1]+1, ij[0]+1, rev)
	}
	if ij[0] > ij[1] {
		return nil // the mirror entry (i < j) adds the edge
	}
	return c.addIndex(line, ij[0], ij[1], w)
}

// checkDiagonal handles the diagonal: self-loops of an adjacency matrix,
// the weighted degrees of a Laplacian.
func (mr *mtxReader) checkDiagonal(c *collector) error {
	if mr.opts.Matrix == Adjacency {
		for i, v := range mr.diag {
			if v != 0 {
				if err := c.addIndex(0, int32(i), int32(i), v); err != nil {
					return err
				}
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
	for i, d := range deg {
		if math.Abs(mr.diag[i]-d) > 1e-9*math.Max(1, d) {
			return bad(0, fmt.Sprintf("entry (%d, %d)", i+1, i+1), strconv.FormatFloat(mr.diag[i], 'g', -1, 64),
				"Laplacian diagonal must equal the weighted degree %v", d)
		}
	}
	return nil
}

// WriteMatrixMarket writes the weighted adjacency matrix of g in Matrix
// Market coordinate real symmetric format (lower triangle, 1-based).
// ReadMatrixMarket reads it back to the same graph. It panics if w or g is
// nil.
func WriteMatrixMarket(w io.Writer, g *wgraph.Graph) error {
	mustIO("WriteMatrixMarket", "w", w)
	mustGraph("WriteMatrixMarket", g)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate real symmetric\n%% weighted adjacency matrix written by loadlab/graphio\n%d %d %d\n", g.Order(), g.Order(), g.Size())
	var buf []byte
	for _, e := range g.Edges() {
		buf = strconv.AppendInt(buf[:0], int64(e.V+1), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(e.U+1), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, e.W, 'g', -1, 64)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
