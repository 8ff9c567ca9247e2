package wgraph

import (
	"fmt"

	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/mat"
)

// Laplacian returns the weighted Laplacian L = D − W of g (spec
// throttlers.md §2, §12.1): L_uv = −w_uv for an edge, L_uu = Σ_v w_uv, as a
// dense n×n matrix. It returns an error wrapping loadlab.ErrTooLarge,
// naming n, if that matrix would exceed the memory budget
// (internal/size); use LaplacianMulVec or the sparse solvers of package
// laplacian for large graphs.
func (g *Graph) Laplacian() (*mat.SymDense, error) {
	if err := size.CheckDense("wgraph", "Laplacian", g.Order(), 1); err != nil {
		return nil, err
	}
	return g.laplacian(), nil
}

// laplacian builds the dense Laplacian; the caller has checked its size
// with size.CheckDense.
func (g *Graph) laplacian() *mat.SymDense {
	n := g.Order()
	l := mat.NewSymDense(max(n, 1), nil)
	if n == 0 {
		return &mat.SymDense{}
	}
	raw := l.RawSymmetric()
	for u := range n {
		var d float64
		ws := g.Weights(u)
		for i, v := range g.Neighbors(u) {
			w := ws[i]
			d += w
			if u < int(v) {
				raw.Data[u*raw.Stride+int(v)] = -w
			}
		}
		raw.Data[u*raw.Stride+u] = d
	}
	return l
}

// LaplacianMulVec computes dst = L x using the adjacency lists, in
// O(n + m) time and with no allocation. It panics if len(dst) or len(x)
// differs from g.Order(); dst and x must not overlap.
func (g *Graph) LaplacianMulVec(dst, x []float64) {
	n := g.Order()
	if len(dst) != n || len(x) != n {
		panic(fmt.Sprintf("wgraph: LaplacianMulVec: len(dst) = %d, len(x) = %d, want %d", len(dst), len(x), n))
	}
	for u := range n {
		xu := x[u]
		var s float64
		ws := g.Weights(u)
		for i, v := range g.Neighbors(u) {
			s += ws[i] * (xu - x[v])
		}
		dst[u] = s
	}
}
