package estimate

import (
	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
)

// Chebyshev control variates for the diagonal estimators (diag.go; spec
// throttlers.md §12.9).
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
//
// from T_{2h} = 2T_h² − 1 and T_{2h−1} = 2T_hT_{h−1} − T₁, so K = 2H at
// the cost of H sparse products per node, Σ_{r<H} vol(ball(r)) edge
// visits. H is the largest depth for which that stays within cvWork per
// node on average (H = 4, K = 8 on a random 6-regular graph; H = 3,
// K = 6 on a hypercube of degree 16–20; H = 12 on a 2-D torus). More depth
// costs moments and saves probes: on the 2¹⁶-node hypercube K = 6 needs
// 149 probes for 1 % against 759 at K = 4, in about a fifth of the time.
// (μ_{2H+1} would take one more pass over the neighbours of ball(H), as
// costly as the step to depth H + 1 that gives two moments.)
//
// The estimators run both the control-variate and the plain probe values
// for the first MinProbes probes and keep the one with the smaller
// largest relative half-width (a pilot; on the graphs of the tests the
// control variate wins everywhere, tori included, but nothing guarantees
// it for every spectrum).
//
// b is the certified upper bound of λ_n (spectral.LambdaMaxBounds) and a
// is 0.9 times the smallest Ritz value of cvLanczosSteps Lanczos steps on
// 1⊥, an estimate of λ₂ from above: the few eigenvalues below a make p a
// poorer fit there, which adds variance, never bias.
const (
	cvWork         = 5000 // edge visits per node of the local moments, on average
	cvMaxDepth     = 12   // largest H (K = 24)
	cvLanczosSteps = 30
)

// chebCV is the Chebyshev control variate of one graph: the interval,
// the degree and the local moments of every node.
type chebCV struct {
	n      int
	a, b   float64
	k      int       // degree K = 2H
	mu     []float64 // μ_k(j) at j·(K+1) + k
	c1, c0 float64   // S = c1·L + c0·I
}

// newChebCV chooses [a, b] and the depth and computes the local moments.
// It returns ErrTooLarge when the moments do not fit.
func newChebCV(g *wgraph.Graph, op *laplacian.Operator, lmaxHi float64, seed uint64) (*chebCV, error) {
	n := g.Order()
	h := kpm.Depth(g, cvWork, cvMaxDepth)
	k := 2 * h
	if err := size.Check("estimate", "PinvDiag: local moments, nodes", n, 8*(k+1)); err != nil {
		return nil, err
	}
	a := 0.9 * kpm.LowRitz(n, func(dst, src []float64) error { op.Apply(dst, src); return nil }, cvLanczosSteps, seed)
	b := lmaxHi
	if !(a > 0) || a >= b {
		a = b / 1e3
	}
	lm, err := lapmat.New(g)
	if err != nil || lm == nil {
		if err == nil {
			err = wgraph.CheckConnected(g)
		}
		return nil, err
	}
	cv := &chebCV{n: n, a: a, b: b, k: k, c1: 2 / (b - a), c0: -(a + b) / (b - a)}
	cv.mu = make([]float64, n*(k+1))
	cv.moments(lm, h)
	return cv, nil
}

// moments fills cv.mu for every node, the nodes split in fixed pieces
// over the cores (each node's moments depend only on the graph). It runs
// on the breadth-first renumbered copy lm: consecutive nodes there have
// overlapping balls stored close together, so their rows stay in cache
// (at 10⁶ nodes the reads of the rows are most of the time).
func (cv *chebCV) moments(lm *lapmat.Matrix, h int) {
	n := cv.n
	deg := lm.Degrees()
	pieces := par.Pieces(n, 256, 1024)
	workers := min(par.Workers(0), pieces)
	scratch := make(chan *kpm.Scratch, workers)
	for range workers {
		scratch <- kpm.NewScratch()
	}
	basis := kpm.Basis{C1: cv.c1, C0: cv.c0}
	par.For(pieces, workers, func(piece int) {
		s := <-scratch
		lo, hi := par.Bounds(n, pieces, piece)
		one := []float64{1}
		for i := lo; i < hi; i++ {
			j := int(lm.Perm[i])
			s.Moments(lm, deg, basis, []int32{int32(i)}, one, h, cv.mu[j*(cv.k+1):(j+1)*(cv.k+1)])
		}
		scratch <- s
	})
}

// coeffs returns the Chebyshev interpolation coefficients c_0..c_K of f
// on [a, b] (at the K + 1 Chebyshev points of the first kind).
func (cv *chebCV) coeffs(f func(float64) float64) []float64 {
	return kpm.Interp(f, cv.a, cv.b, cv.k)
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

// apply sets out[m] = p_m(L) v = Σ_k c[m][k] T_k(S) v for each set of
// coefficients (kpm.Apply: K products with L).
func (cv *chebCV) apply(out [][]float64, c [][]float64, v []float64, op *laplacian.Operator, w *kpm.Work) {
	kpm.Apply(out, c, v, kpm.Basis{C1: cv.c1, C0: cv.c0}, op.Apply, w)
}
