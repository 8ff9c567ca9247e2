package laplacian

import (
	"fmt"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/wgraph"
	"sync"
)

// Operator applies the Laplacian of a graph, or the Laplacian
// plus a multiple of the identity, to vectors without forming a matrix
// (spec throttlers.md §2):
//
//	(L x)_u = Σ_{v ~ u} w_uv (x_u − x_v).
//
// It reads the graph's compressed adjacency (O(n + m) memory, shared with
// the graph, not copied) and splits the rows over the cores; every row is
// computed by one goroutine, so the result does not depend on their
// number. A call allocates nothing. An operator is safe for concurrent
// use.
type Operator struct {
	g   *wgraph.Graph
	n   int
	off []int
	adj []int32
	w   []float64
}

// NewOperator returns the Laplacian operator of g. It panics if g
// is nil.
func NewOperator(g *wgraph.Graph) *Operator {
	if g == nil {
		panic("laplacian: NewOperator: nil graph g")
	}
	off, adj, w := g.CSR()
	return &Operator{g: g, n: g.Order(), off: off, adj: adj, w: w}
}

// Order returns the number of rows, the graph's number of nodes.
func (op *Operator) Order() int { return op.n }

// Apply sets dst = L x. It panics if len(dst) or len(x) is not the order,
// or if dst and x are the same slice.
func (op *Operator) Apply(dst, x []float64) { op.ApplyShifted(dst, x, 0) }

// ApplyShifted sets dst = (L + shift·I) x. It panics as Apply does.
func (op *Operator) ApplyShifted(dst, x []float64, shift float64) {
	op.checkVecs("ApplyShifted", dst, x)
	if op.n == 0 {
		return
	}
	if &dst[0] == &x[0] {
		panic("laplacian: Operator.ApplyShifted: dst and x are the same slice")
	}
	t := mulTaskPool.Get().(*mulTask)
	t.op, t.dst, t.x, t.shift = op, dst, x, shift
	lapmat.ParallelBlocks(lapmat.NumBlocks(op.n), t.fn)
	*t = mulTask{fn: t.fn}
	mulTaskPool.Put(t)
}

func (op *Operator) checkVecs(fn string, dst, x []float64) {
	if len(dst) != op.n || len(x) != op.n {
		panic(fmt.Sprintf("laplacian: Operator.%s: len(dst) = %d, len(x) = %d, want %d", fn, len(dst), len(x), op.n))
	}
}

// mulTask carries the arguments of one ApplyShifted call to the workers;
// tasks are pooled so that a call allocates nothing.
type mulTask struct {
	op     *Operator
	dst, x []float64
	shift  float64
	fn     lapmat.RangeFunc
}

var mulTaskPool = sync.Pool{New: func() any {
	t := new(mulTask)
	t.fn = func(lo, hi int) {
		r0, _ := lapmat.BlockRows(lo, t.op.n)
		_, r1 := lapmat.BlockRows(hi-1, t.op.n)
		t.op.rows(t.dst, t.x, nil, t.shift, r0, r1)
	}
	return t
}}

// rows computes dst[u] = (L x)_u + shift·x_u for the rows [lo, hi) and
// returns Σ p_u dst_u over them when p is non-nil (the fused dot product
// of conjugate gradients), else 0.
func (op *Operator) rows(dst, x, p []float64, shift float64, lo, hi int) float64 {
	off, adj, w := op.off, op.adj, op.w
	var dot float64
	for u := lo; u < hi; u++ {
		xu := x[u]
		s := shift * xu
		ws := w[off[u]:off[u+1]]
		for i, v := range adj[off[u]:off[u+1]] {
			s += ws[i] * (xu - x[v])
		}
		dst[u] = s
		if p != nil {
			dot += p[u] * s
		}
	}
	return dot
}
