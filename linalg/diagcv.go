package linalg

import (
	"math"
	"runtime"

	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/lapack/gonum"
)

// Chebyshev control variates for the diagonal estimators (diag.go).
//
// The stochastic diagonal estimator of a matrix F = f(L) on 1⊥ (L† or
// P(2I − γL)⁻¹P) takes per node j the probe values q_j (F q)_j, whose
// variance Σ_{i≠j} F_ij² is of the order of F_jj² on an expander: 1 %
// would take about 10⁴ probes. With a polynomial p close to f on the
// spectrum, whose diagonal is computed exactly, the estimator
//
//	z_j = q_j ((F − P p(L) P) q)_j + (P p(L) P)_jj
//
// has the same mean F_jj (for any p: the control variate is exact in
// expectation) and variance Σ_{i≠j} (F − PpP)_ij², which is at most
// max |f − p|² over the spectrum. Since L1 = 0, P p(L) P = p(L) − p(0)
// 11ᵀ/n and P p(L) P q = p(L) Pq, so each probe costs K extra products
// with L on top of its solve.
//
// p is the Chebyshev interpolant of degree K of f on [a, b], in the
// variable S = (2L − (a + b)I)/(b − a): p(L) = Σ_k c_k T_k(S). Its
// diagonal is Σ_k c_k μ_k(j) with the local moments μ_k(j) = T_k(S)_jj
// (the moments of the kernel polynomial method: Weiße, Wellein, Alvermann
// and Fehske, Rev. Mod. Phys. 78, 2006), computed exactly from the sparse
// vectors w_h = T_h(S) e_j, supported on the ball of radius h around j:
//
//	μ_{2h} = 2‖w_h‖² − 1,   μ_{2h−1} = 2 w_hᵀw_{h−1} − μ₁,
//	μ_{2H+1} = 2 (2 w_Hᵀ S w_H − w_{H−1}ᵀ w_H) − μ₁,
//
// from T_{2h} = 2T_h² − 1 and T_{2h+1} = 2T_{h+1}T_h − T₁, so K = 2H + 1
// at the cost of H sparse products per node. H is the largest depth whose
// balls' edge volume stays within cvWork per node on average (H = 3 on a
// random 6-regular graph, about 9 on a 2-D torus).
//
// b is the certified upper bound of λ_n (lambdaMaxBounds) and a is 0.9
// times the smallest Ritz value of cvLanczosSteps Lanczos steps on 1⊥, an
// estimate of λ₂ from above: the few eigenvalues below a make p a poorer
// fit there, which adds variance, never bias.
const (
	cvWork         = 4000 // edge visits per node of the local moments, on average
	cvMaxDepth     = 12   // largest H (K = 25)
	cvSample       = 64   // nodes whose balls are measured to choose H
	cvLanczosSteps = 30
)

// chebCV is the Chebyshev control variate of one graph: the interval,
// the degree and the local moments of every node.
type chebCV struct {
	n      int
	a, b   float64
	k      int       // degree K = 2H + 1
	mu     []float64 // μ_k(j) at j·(K+1) + k
	c1, c0 float64   // S = c1·L + c0·I
}

// newChebCV chooses [a, b] and the depth and computes the local moments.
// It returns ErrTooLarge when the moments do not fit.
func newChebCV(g *Graph, op *LaplacianOperator, lmaxHi float64, seed uint64) (*chebCV, error) {
	n := g.Order()
	h := cvDepth(g)
	k := 2*h + 1
	if err := size.Check("linalg", "EstimatePinvDiag: local moments, nodes", n, 8*(k+1)); err != nil {
		return nil, err
	}
	a := 0.9 * lanczosLow(op, seed)
	b := lmaxHi
	if !(a > 0) || a >= b {
		a = b / 1e3
	}
	cv := &chebCV{n: n, a: a, b: b, k: k, c1: 2 / (b - a), c0: -(a + b) / (b - a)}
	cv.mu = make([]float64, n*(k+1))
	cv.moments(g, h)
	return cv, nil
}

// lanczosLow returns the smallest Ritz value of cvLanczosSteps Lanczos
// steps of L on 1⊥ (0 if the process fails).
func lanczosLow(op *LaplacianOperator, seed uint64) float64 {
	n := op.n
	z := make([]float64, n)
	for i := range z {
		z[i] = 1 / math.Sqrt(float64(n))
	}
	lz := newLanczos(n, func(dst, src []float64) error { op.Apply(dst, src); return nil }, z, [2]uint64{seed, 0x2545f4914f6cdd1d})
	for lz.steps() < min(cvLanczosSteps, n-1) && !lz.done {
		if err := lz.step(); err != nil {
			return 0
		}
	}
	k := lz.steps()
	if k == 0 {
		return 0
	}
	d := append([]float64(nil), lz.alpha...)
	e := append([]float64(nil), lz.beta[:k-1]...)
	if !(gonum.Implementation{}).Dsterf(k, d, e) {
		return 0
	}
	return d[0]
}

// cvDepth returns the largest H ≤ cvMaxDepth whose mean work over up to
// cvSample evenly spaced nodes, Σ_{r ≤ H} vol(ball(r)) edge visits, is at
// most cvWork (at least 1). A node whose balls pass 16·cvWork stops the
// search at that depth for all (its breadth-first search stops there).
func cvDepth(g *Graph) int {
	n := g.Order()
	m := min(n, cvSample)
	work := make([]float64, cvMaxDepth+1)
	stamp := make([]int32, n)
	for s := range m {
		src := int32(s * n / m)
		stamp[src] = int32(s + 1)
		frontier := []int32{src}
		vol, cum := 0.0, 0.0
		for h := 0; h <= cvMaxDepth; h++ {
			if cum > 16*cvWork {
				work[h] = math.Inf(1)
				continue
			}
			var next []int32
			for _, u := range frontier {
				vol += float64(g.Degree(int(u)))
				for _, v := range g.Neighbors(int(u)) {
					if stamp[v] != int32(s+1) {
						stamp[v] = int32(s + 1)
						next = append(next, v)
					}
				}
			}
			cum += vol
			work[h] += cum
			frontier = next
		}
	}
	h := 1
	for h < cvMaxDepth && work[h+1] <= cvWork*float64(m) {
		h++
	}
	return h
}

// cvScratch is one worker's workspace of the local moments: three
// n-vectors (w_{h−1}, w_h, w_{h+1}), stamps marking the nodes touched for
// the current node and their list in order of first touch.
type cvScratch struct {
	w     [3][]float64
	stamp []int32
	list  []int32
}

// moments fills cv.mu for every node, the nodes split in fixed pieces
// over the cores (each node's moments depend only on the graph).
func (cv *chebCV) moments(g *Graph, h int) {
	n := cv.n
	pieces := par.Pieces(n, 256, 1024)
	// Each worker holds 3 n-vectors and n stamps: at most 8 of them.
	workers := min(runtime.GOMAXPROCS(0), pieces, 8)
	scratch := make(chan *cvScratch, workers)
	for range workers {
		s := &cvScratch{stamp: make([]int32, n)}
		for i := range s.w {
			s.w[i] = make([]float64, n)
		}
		scratch <- s
	}
	par.For(pieces, workers, func(piece int) {
		s := <-scratch
		lo, hi := par.Bounds(n, pieces, piece)
		for j := lo; j < hi; j++ {
			cv.nodeMoments(g, s, j, h)
		}
		scratch <- s
	})
}

// touch adds node i to the current node's support, zeroing its entries
// on first touch.
func (s *cvScratch) touch(i int32, ep int32) {
	if s.stamp[i] != ep {
		s.stamp[i] = ep
		s.w[0][i], s.w[1][i], s.w[2][i] = 0, 0, 0
		s.list = append(s.list, i)
	}
}

// nodeMoments computes μ_0..μ_{2H+1} of node j.
func (cv *chebCV) nodeMoments(g *Graph, s *cvScratch, j, h int) {
	ep := int32(j + 1)
	s.list = s.list[:0]
	s.touch(int32(j), ep)
	mu := cv.mu[j*(cv.k+1) : (j+1)*(cv.k+1)]
	prev, cur, next := s.w[0], s.w[1], s.w[2]
	cur[j] = 1
	mu[0] = 1
	mu[1] = cv.c1*g.WeightedDegree(j) + cv.c0
	for r := 1; r <= h; r++ {
		m := len(s.list)
		for _, i := range s.list[:m] {
			next[i] = 0 // next held w_{r−3}'s values on part of this support
		}
		cv.scatter(g, s, cur, next, m, ep)
		f := 2.0
		if r == 1 {
			f = 1 // w_1 = S w_0
		}
		var nn, nc float64
		for _, i := range s.list {
			next[i] = f*next[i] - prev[i]*(f-1)
			nn += next[i] * next[i]
			nc += next[i] * cur[i]
		}
		mu[2*r] = 2*nn - 1
		mu[2*r-1] = 2*nc - mu[1]
		prev, cur, next = cur, next, prev
	}
	// μ_{2H+1} = 2 w_{H+1}ᵀw_H − μ₁, w_{H+1}ᵀw_H = 2 w_Hᵀ S w_H − w_{H−1}ᵀw_H.
	var sq, pc float64
	for _, i := range s.list {
		x := cur[i]
		if x == 0 {
			continue
		}
		pc += prev[i] * x
		sq += cv.rowForm(g, s, cur, int(i), ep)
	}
	mu[2*h+1] = 2*(2*sq-pc) - mu[1]
}

// scatter adds S x into y for the first m nodes of the support (x's
// support), touching their neighbours.
func (cv *chebCV) scatter(g *Graph, s *cvScratch, x, y []float64, m int, ep int32) {
	for idx := 0; idx < m; idx++ {
		i := s.list[idx]
		xi := x[i]
		if xi == 0 {
			continue
		}
		nb, ws := g.Neighbors(int(i)), g.Weights(int(i))
		var d float64
		for e, k := range nb {
			w := 1.0
			if ws != nil {
				w = ws[e]
			}
			d += w
			s.touch(k, ep)
			y[k] -= cv.c1 * w * xi
		}
		y[i] += (cv.c1*d + cv.c0) * xi
	}
}

// rowForm returns x_i (S x)_i, x zero outside the support.
func (cv *chebCV) rowForm(g *Graph, s *cvScratch, x []float64, i int, ep int32) float64 {
	nb, ws := g.Neighbors(i), g.Weights(i)
	var d, off float64
	for e, k := range nb {
		w := 1.0
		if ws != nil {
			w = ws[e]
		}
		d += w
		if s.stamp[k] == ep {
			off += w * x[k]
		}
	}
	return x[i] * ((cv.c1*d+cv.c0)*x[i] - cv.c1*off)
}

// coeffs returns the Chebyshev interpolation coefficients c_0..c_K of f
// on [a, b] (at the K + 1 Chebyshev points of the first kind).
func (cv *chebCV) coeffs(f func(float64) float64) []float64 {
	k1 := cv.k + 1
	fx := make([]float64, k1)
	for i := range fx {
		t := math.Cos(math.Pi * (float64(i) + 0.5) / float64(k1))
		fx[i] = f((cv.a+cv.b)/2 + (cv.b-cv.a)/2*t)
	}
	c := make([]float64, k1)
	for k := range c {
		var s float64
		for i, v := range fx {
			s += v * math.Cos(math.Pi*float64(k)*(float64(i)+0.5)/float64(k1))
		}
		c[k] = 2 * s / float64(k1)
	}
	c[0] /= 2
	return c
}

// diag returns (P p(L) P)_jj = Σ_k c_k μ_k(j) − p(0)/n for every node.
func (cv *chebCV) diag(c []float64) []float64 {
	p0, t0, t1 := c[0], 1.0, cv.c0 // T_k(S) at L = 0 is T_k(c0)
	for k := 1; k < len(c); k++ {
		p0 += c[k] * t1
		t0, t1 = t1, 2*cv.c0*t1-t0
	}
	d := make([]float64, cv.n)
	k1 := cv.k + 1
	for j := range d {
		var s float64
		for k, ck := range c {
			s += ck * cv.mu[j*k1+k]
		}
		d[j] = s - p0/float64(cv.n)
	}
	return d
}

// cvApply holds the vectors of the Chebyshev recurrence of a probe.
type cvApply struct {
	t0, t1, t2, lt []float64
}

func newCVApply(n int) *cvApply {
	return &cvApply{t0: make([]float64, n), t1: make([]float64, n), t2: make([]float64, n), lt: make([]float64, n)}
}

// apply sets out[m] = p_m(L) v = Σ_k c[m][k] T_k(S) v for each set of
// coefficients, by the three-term recurrence (K products with L).
func (cv *chebCV) apply(out [][]float64, c [][]float64, v []float64, op *LaplacianOperator, w *cvApply) {
	copy(w.t0, v)
	for m := range out {
		for i, x := range v {
			out[m][i] = c[m][0] * x
		}
	}
	t0, t1, t2 := w.t0, w.t1, w.t2
	for k := 1; k <= cv.k; k++ {
		op.Apply(w.lt, t0)
		f := 2.0
		if k == 1 {
			f = 1
		}
		for i := range t2 {
			s := cv.c1*w.lt[i] + cv.c0*t0[i]
			if k == 1 {
				t2[i] = s
			} else {
				t2[i] = f*s - t1[i]
			}
		}
		for m := range out {
			ck := c[m][k]
			for i, x := range t2 {
				out[m][i] += ck * x
			}
		}
		t0, t1, t2 = t2, t0, t1
	}
}
