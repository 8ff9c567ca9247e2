package linalg

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Laplacian returns the weighted Laplacian L = D − W of g (spec
// throttlers.md §2): L_uv = −w_uv for an edge, L_uu = Σ_v w_uv.
func (g *Graph) Laplacian() *mat.SymDense {
	n := g.Order()
	l := mat.NewSymDense(max(n, 1), nil)
	if n == 0 {
		return &mat.SymDense{}
	}
	raw := l.RawSymmetric()
	for u := range n {
		var d float64
		for i, v := range g.nbr[u] {
			w := g.wt[u][i]
			d += w
			if u < v {
				raw.Data[u*raw.Stride+v] = -w
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
		panic(fmt.Sprintf("linalg: LaplacianMulVec: len(dst) = %d, len(x) = %d, want %d", len(dst), len(x), n))
	}
	for u := range n {
		xu := x[u]
		var s float64
		ws := g.wt[u]
		for i, v := range g.nbr[u] {
			s += ws[i] * (xu - x[v])
		}
		dst[u] = s
	}
}

// Spectrum returns the eigenvalues of the Laplacian of g in ascending
// order, 0 = λ₁ ≤ λ₂ ≤ … ≤ λ_n (spec throttlers.md §2 (1)). The
// smallest is rounded and may be a tiny negative number. Its cost is that
// of a dense symmetric eigenvalue decomposition without vectors, O(n³).
func Spectrum(g *Graph) ([]float64, error) {
	if g.Order() == 0 {
		return nil, errors.New("linalg: Spectrum of a graph with no nodes")
	}
	var es mat.EigenSym
	if !es.Factorize(g.Laplacian(), false) {
		return nil, errors.New("linalg: symmetric eigendecomposition did not converge")
	}
	return es.Values(nil), nil
}

// AlgebraicConnectivity returns λ₂, the second-smallest Laplacian
// eigenvalue, and a unit Fiedler vector (an eigenvector for λ₂). It
// needs at least two nodes. A disconnected graph is not an error here:
// it has λ₂ = 0 (to rounding), which is the point of the measure.
func AlgebraicConnectivity(g *Graph) (float64, *mat.VecDense, error) {
	n := g.Order()
	if n < 2 {
		return 0, nil, fmt.Errorf("linalg: AlgebraicConnectivity needs at least 2 nodes, graph has %d", n)
	}
	var es mat.EigenSym
	if !es.Factorize(g.Laplacian(), true) {
		return 0, nil, errors.New("linalg: symmetric eigendecomposition did not converge")
	}
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	v := mat.VecDenseCopyOf(vecs.ColView(1))
	return es.Values(nil)[1], v, nil
}
