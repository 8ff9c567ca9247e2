package graphio

import (
	"bufio"
	"errors"
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
// nodes are kept (at most Options.MaxIsolated of them). With
// Options.Matrix = Adjacency (the default) entry (i, j) is the weight of
// {i, j}; with Laplacian it is −w_ij and the diagonal must equal the
// weighted degree. A general matrix must be symmetric (a_ij = a_ji)
// unless Options.Directed = Symmetrize, which reads each entry as an
// arc. An entry given twice follows Options.Duplicates. Zero entries are
// not edges (counted in Data.Zeros). A pattern matrix gives every edge
// Options.DefaultWeight, or 1. Nothing is allocated for the sizes the
// size line declares until the entries are read and checked against them.
// It panics if r is nil.
func ReadMatrixMarket(r io.Reader, opts *Options) (*Data, error) {
	mustIO("ReadMatrixMarket", "r", r)
	o, err := settings(opts)
	if err != nil {
		return nil, err
	}
	mr := &mtxReader{sc: bufio.NewScanner(r), opts: o, index: map[[2]int32]int32{}}
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
	sc                          *bufio.Scanner
	opts                        Options
	line                        int
	pattern, integer, symmetric bool
	n, nnz                      int
	sizeLine                    int                // line of the size line
	index                       map[[2]int32]int32 // (i, j) → its entry in ents
	ents                        []mtxEntry         // distinct (i, j) in file order
	merged, zeros               int
}

// mtxEntry is an entry (i, j) (0-based) with its value and first line.
type mtxEntry struct {
	ij   [2]int32
	v    float64
	line int32
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
	case "real", "double":
	case "integer":
		mr.integer = true
	case "pattern":
		mr.pattern = true
		if mr.opts.Matrix == Laplacian {
			return bad(1, "field", f[3], "a pattern matrix has no values, so it cannot be a Laplacian (Options.Matrix = Laplacian)")
		}
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
	return mr.readSize()
}

func (mr *mtxReader) readSize() error {
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
			if errors.Is(err, strconv.ErrRange) {
				return &ParseError{Line: mr.line, Field: "size line", Value: s, Msg: "count out of the int range", Err: errTooLarge}
			}
			return bad(mr.line, "size line", s, "not a non-negative integer")
		}
		v[k] = x
	}
	if v[0] != v[1] {
		return bad(mr.line, "size line", s, "matrix is %d × %d, want square", v[0], v[1])
	}
	mr.n, mr.nnz, mr.sizeLine = v[0], v[2], mr.line
	return mr.checkSize(f)
}

// checkSize refuses, before anything is allocated, a size line whose
// counts would exceed the memory budget or declare more isolated nodes
// than Options.MaxIsolated: three lines of text can declare 2^31 nodes.
func (mr *mtxReader) checkSize(f []string) error {
	n, nnz := mr.n, mr.nnz
	tooLarge := func(field, value, format string, args ...any) error {
		return &ParseError{Line: mr.line, Field: field, Value: value, Msg: fmt.Sprintf(format, args...), Err: errTooLarge}
	}
	if n > wgraph.MaxOrder {
		return tooLarge("rows", f[0], "more nodes than a graph holds (2^31 − 1)")
	}
	// Each entry touches at most two nodes, so at least n − 2·nnz nodes
	// are isolated whatever the entries say.
	if nnz < n/2 && n-2*nnz > mr.opts.MaxIsolated {
		return tooLarge("rows", f[0], "%d nodes and %d entries leave at least %d nodes isolated, more than Options.MaxIsolated = %d", n, nnz, n-2*nnz, mr.opts.MaxIsolated)
	}
	nodes, ok1 := size.Mul(n, costMatrixMarket.node+labelDigits)
	ents, ok2 := size.Mul(nnz, costMatrixMarket.edge)
	if !ok1 || !ok2 || nodes > budget || ents > budget-nodes-costFixed {
		return tooLarge("size line", strings.Join(f, " "), "%s nodes and %s entries need more than the %s memory budget", f[0], f[2], bytesText(budget))
	}
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
	var buf [4]string
	f := fields(buf[:0], s)
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
	v, err := mr.value(f)
	if err != nil {
		return err
	}
	if mr.symmetric && ij[0] < ij[1] {
		return bad(mr.line, "entry", s, "symmetric storage holds the lower triangle only (row ≥ column)")
	}
	k, dup := mr.index[ij]
	if !dup {
		mr.index[ij] = int32(len(mr.ents))
		mr.ents = push(mr.ents, mtxEntry{ij: ij, v: v, line: int32(min(mr.line, math.MaxInt32))})
		return nil
	}
	e := &mr.ents[k]
	switch mr.opts.Duplicates {
	case SumDuplicates:
		e.v += v
	case KeepFirst:
	default:
		return bad(mr.line, "entry", s, "duplicate entry (first on line %d); set Options.Duplicates to SumDuplicates or KeepFirst", e.line)
	}
	mr.merged++
	return nil
}

// value parses the value of an entry: 1 in a pattern matrix (which has
// none), else a finite number, an integer in an integer matrix.
func (mr *mtxReader) value(f []string) (float64, error) {
	if mr.pattern {
		return 1, nil
	}
	v, err := strconv.ParseFloat(f[2], 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, bad(mr.line, "value", f[2], "not a finite number")
	}
	if mr.integer && v != math.Trunc(v) {
		return 0, bad(mr.line, "value", f[2], "not an integer, in a matrix whose field is integer")
	}
	return v, nil
}

// edgeWeight converts a matrix value to a weight, by Options.Matrix.
func (mr *mtxReader) edgeWeight(e mtxEntry, v float64) (float64, error) {
	if mr.pattern && mr.opts.DefaultWeight > 0 {
		return mr.opts.DefaultWeight, nil
	}
	if mr.opts.Matrix == Laplacian {
		v = -v
	}
	val := strconv.FormatFloat(v, 'g', -1, 64)
	if !(v >= wgraph.MinWeight && v <= wgraph.MaxWeight) {
		what := "weight"
		if mr.opts.Matrix == Laplacian {
			what = "−L_ij"
		}
		return 0, bad(int(e.line), fmt.Sprintf("entry (%d, %d)", e.ij[0]+1, e.ij[1]+1), val, "%s must be positive and finite, within [2^-500, 2^500]", what)
	}
	return v, nil
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

// fields appends the blank-separated fields of s to dst, at most
// cap(dst): the rest of s, if any, is one more field, so that a line
// with too many fields is seen to have them (strings.Fields without an
// allocation a line).
func fields(dst []string, s string) []string {
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return dst
		}
		if len(dst) == cap(dst)-1 {
			return append(dst, s)
		}
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return append(dst, s)
		}
		dst, s = append(dst, s[:i]), s[i:]
	}
}
