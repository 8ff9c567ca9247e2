package estimate

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

// The local moments equal the diagonals of T_k(S) from dense products,
// on a weighted random graph and a torus, at depths 1–4 (exact up to
// rounding: 1e-12 relative to the entries' scale, T_k(S) having norm ≤ 1
// on the spectrum).
func TestChebMomentsDense(t *testing.T) {
	graphs := map[string]*wgraph.Graph{"weighted": graphtest.SparseWeighted(t, 70, 0.08, 3, 21), "torus": graphtest.Must(gen.Torus(9, 7))}
	for name, g := range graphs {
		n := g.Order()
		l := graphtest.Must(g.Laplacian())
		for h := 1; h <= 4; h++ {
			a, b := 0.3, 2.2*maxWDeg(g)
			cv := &chebCV{n: n, a: a, b: b, k: 2 * h, c1: 2 / (b - a), c0: -(a + b) / (b - a)}
			cv.mu = make([]float64, n*(cv.k+1))
			cv.moments(graphtest.Must(lapmat.New(g)), h)
			sm := mat.NewDense(n, n, nil)
			sm.Scale(cv.c1, l)
			for i := range n {
				sm.Set(i, i, sm.At(i, i)+cv.c0)
			}
			t0, t1 := eye(n), mat.DenseCopyOf(sm)
			for k := 0; k <= cv.k; k++ {
				tk := t0
				if k >= 1 {
					tk = t1
				}
				for j := range n {
					if got, want := cv.mu[j*(cv.k+1)+k], tk.At(j, j); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
						t.Fatalf("%s h=%d: μ_%d(%d) = %v, dense %v", name, h, k, j, got, want)
					}
				}
				if k >= 1 {
					var next mat.Dense
					next.Mul(sm, t1)
					next.Scale(2, &next)
					next.Sub(&next, t0)
					t0, t1 = t1, &next
				}
			}
		}
	}
}

func maxWDeg(g *wgraph.Graph) float64 {
	var m float64
	for u := range g.Order() {
		m = max(m, g.WeightedDegree(u))
	}
	return m
}

func eye(n int) *mat.Dense {
	d := mat.NewDense(n, n, nil)
	for i := range n {
		d.Set(i, i, 1)
	}
	return d
}

// diag(P p(L) P) from the local moments and p(L)v by the recurrence
// equal P p(L) P from the dense eigendecomposition, p evaluated at each
// eigenvalue by the same Chebyshev series (1e-10 relative: the series'
// rounding at K = 6 against the eigensolver's).
func TestChebApplyAndDiag(t *testing.T) {
	g := graphtest.SparseWeighted(t, 50, 0.1, 2, 5)
	n := g.Order()
	ev, vecs, err := spectral.SymEigen(graphtest.Must(g.Laplacian()), true)
	if err != nil {
		t.Fatal(err)
	}
	a, b := 0.9*ev[1], 1.01*ev[n-1]
	cv := &chebCV{n: n, a: a, b: b, k: 2 * 3, c1: 2 / (b - a), c0: -(a + b) / (b - a)}
	cv.mu = make([]float64, n*(cv.k+1))
	cv.moments(graphtest.Must(lapmat.New(g)), 3)
	f := func(x float64) float64 { return 1 / x }
	c := cv.coeffs(f)
	pe := func(x float64) float64 { // p(x) by the recurrence in s
		s := cv.c1*x + cv.c0
		t0, t1, sum := 1.0, s, c[0]
		for k := 1; k < len(c); k++ {
			sum += c[k] * t1
			t0, t1 = t1, 2*s*t1-t0
		}
		return sum
	}
	// p(L) = V diag(p(λ)) Vᵀ; P p(L) P drops the λ₁ = 0 column.
	var pm mat.Dense
	d := make([]float64, n)
	for i, l := range ev {
		if i > 0 {
			d[i] = pe(l)
		}
	}
	pm.Mul(vecs, mat.NewDiagDense(n, d))
	pm.Mul(&pm, vecs.T())
	got := cv.diag(c)
	for j := range n {
		if math.Abs(got[j]-pm.At(j, j)) > 1e-10*math.Abs(pm.At(j, j)) {
			t.Fatalf("diag(PpP)_%d = %v, dense %v", j, got[j], pm.At(j, j))
		}
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Sin(float64(i))
	}
	mean := 0.0
	for _, x := range v {
		mean += x / float64(n)
	}
	for i := range v {
		v[i] -= mean
	}
	out := [][]float64{make([]float64, n)}
	op := laplacian.NewOperator(g)
	cv.apply(out, [][]float64{c}, v, op, kpm.NewWork(n))
	var want mat.VecDense
	want.MulVec(&pm, mat.NewVecDense(n, v))
	for i := range n {
		if math.Abs(out[0][i]-want.AtVec(i)) > 1e-10*mat.Norm(&want, math.Inf(1)) {
			t.Fatalf("p(L)v[%d] = %v, dense %v", i, out[0][i], want.AtVec(i))
		}
	}
}
