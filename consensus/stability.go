package consensus

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/linalg"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// Sizes and margins of the stability decision (see stability).
const (
	denseEigenMax = 400  // dense eigenvalues up to this order
	denseCholMax  = 3000 // dense Cholesky decision up to this order
	lanczosMax    = 320  // Lanczos steps before giving up on a lower bound
	lanczosChunk  = 40   // steps between convergence checks
	perronIters   = 60   // power steps for the Collatz–Wielandt bound
)

// stability returns the largest eigenvalue μ_n of the (linearised)
// update operator, or an estimate of it, and a warning when γ μ_n ≥ 2
// (0 and no warning when a bound settles it without an eigenvalue). The
// operator is L Q with Q = diag(q): q = 1 for Amount and Clipped (spec
// §4.1), q = 1/r(0) for Ratio and q = r_total/(l_total r(0)) for
// LogRatio (the linearisations of spec §8 at the first step's demand).
// A nil q means q = 1. L Q has the spectrum of S = Q^{1/2} L Q^{1/2}.
//
// The decision never stays silent when γ μ_n ≥ 2. It brackets μ_n
// between lower bounds (Ritz values) and proven upper bounds, and
// refines only while γ lies inside the bracket:
//
//  1. Edge bound. The nonzero spectrum of L Q = B W Bᵀ Q is that of
//     W Bᵀ Q B (B the incidence matrix, W the link weights), whose row
//     e = {u, v} has absolute sum q_u d_u + q_v d_v (d weighted degrees),
//     so μ_n ≤ max_{u~v} (q_u d_u + q_v d_v) by the row-sum norm: the
//     weighted, scaled form of Anderson and Morley's bound (Linear and
//     Multilinear Algebra 18, 141–145, 1985). γ times it below 2 is
//     certified stability at O(m) cost.
//  2. Up to 400 nodes: dense eigenvalues, decided with a rounding margin.
//  3. Collatz–Wielandt. μ_n = ρ(S) ≤ ρ(|S|) (|S| = Q^{1/2}(D + A)Q^{1/2}
//     dominates S entrywise), and for every positive x,
//     ρ(|S|) ≤ max_i (|S| x)_i / x_i; power steps on |S| drive x to its
//     Perron vector. Exact (= μ_n) for bipartite graphs.
//  4. Lanczos with full reorthogonalisation: the largest Ritz value is
//     ≤ μ_n (Cauchy interlacing) up to rounding; γ times it (less a
//     margin) at or above 2 is certified instability.
//  5. Up to 3000 nodes: a dense Cholesky factorisation of c I − S,
//     c = 2/γ less a margin, succeeds iff c > μ_n (to rounding).
//  6. Otherwise the warning says stability is uncertain, with the bracket.
func stability(g *linalg.Graph, gamma float64, q []float64) (float64, string) {
	n := g.Order()
	var sq []float64
	if q != nil {
		sq = make([]float64, n)
		for i, v := range q {
			sq[i] = math.Sqrt(v)
		}
	}
	deg := make([]float64, n) // diagonal of S: q_u d_u
	for u := range n {
		deg[u] = g.WeightedDegree(u)
		if q != nil {
			deg[u] *= q[u]
		}
	}
	var hi float64
	for u := range n {
		for _, v := range g.Neighbors(u) {
			hi = max(hi, deg[u]+deg[v])
		}
	}
	// Rounding of the bound's sums: relative 1e-12 covers degrees of up
	// to ~10³ links at 2.2e-16 per addition with a wide margin.
	hi *= 1 + 1e-12
	if gamma*hi < 2 {
		return 0, ""
	}
	unstable := func(mu float64) string {
		return fmt.Sprintf("consensus: γ = %v ≥ 2/μ_n = %v: the throttler network is unstable and its limits diverge (spec §4.1, §8)", gamma, 2/mu)
	}
	if n <= denseEigenMax {
		mu := denseLambdaMax(g, sq)
		// The symmetric eigensolver is backward stable: error a modest
		// multiple of n ε ‖S‖ ≤ 400 · 2.2e-16 · hi < 1e-12 hi. Within that
		// margin of 2/γ (γ μ_n = 2: no decay) warn.
		if gamma*(mu+1e-12*hi) >= 2 {
			return mu, unstable(mu)
		}
		return mu, ""
	}
	hi = min(hi, perronBound(g, sq, deg, gamma))
	if gamma*hi < 2 {
		return 0, ""
	}
	// Ritz values of the reorthogonalised Lanczos basis exceed μ_n by at
	// most O(k ε ‖S‖) with k ≤ 320 steps, ~1e-13 hi; 1e-10 hi is wide.
	lz := newLanczos(g, sq)
	var theta float64
	for lz.k < min(n, lanczosMax) && !lz.done {
		prev := theta
		theta = lz.extend(lanczosChunk)
		if gamma*(theta-1e-10*hi) >= 2 {
			return theta, unstable(theta)
		}
		// Converged (change below the margin) or invariant subspace.
		if lz.done || theta-prev < 1e-10*hi {
			break
		}
	}
	lo := theta - 1e-10*hi
	if n <= denseCholMax {
		// Cholesky's backward error is ≤ c n ε ‖c I − S‖ (Higham,
		// Accuracy and Stability of Numerical Algorithms, Thm 10.3): with
		// n ≤ 3000 and ‖c I − S‖ ≤ 2/γ + hi, 1e-9 (2/γ + hi) covers it.
		c := 2/gamma - 1e-9*(2/gamma+hi)
		if choleskyBelow(g, sq, c) {
			return theta, ""
		}
		return theta, fmt.Sprintf("consensus: γ = %v ≥ 2/μ_n (c I − S is not positive definite for c = 2/γ to rounding; Lanczos estimate μ_n ≈ %v): the throttler network is unstable and its limits diverge (spec §4.1, §8)", gamma, theta)
	}
	return theta, fmt.Sprintf("consensus: stability of γ = %v is uncertain: μ_n ∈ [%.10g, %.10g] (Lanczos lower bound, proven upper bound), so 2/μ_n ∈ [%.10g, %.10g]; the throttler network is unstable if γ ≥ 2/μ_n (spec §4.1, §8)", gamma, lo, hi, 2/hi, 2/lo)
}

// lambdaMax returns the largest eigenvalue of Q^{1/2} L Q^{1/2} (q = nil:
// of L): exact (dense eigenvalues) up to 400 nodes, above that the
// largest Ritz value of at most 320 Lanczos steps with full
// reorthogonalisation, a lower bound.
func lambdaMax(g *linalg.Graph, q []float64) float64 {
	n := g.Order()
	var sq []float64
	if q != nil {
		sq = make([]float64, n)
		for i, v := range q {
			sq[i] = math.Sqrt(v)
		}
	}
	if n <= denseEigenMax {
		return denseLambdaMax(g, sq)
	}
	lz := newLanczos(g, sq)
	var theta float64
	for lz.k < min(n, lanczosMax) && !lz.done {
		prev := theta
		theta = lz.extend(lanczosChunk)
		if theta-prev < 1e-13*theta {
			break
		}
	}
	return theta
}

// denseLambdaMax returns λ_max of Q^{1/2} L Q^{1/2} from the dense
// spectrum (sq = nil: Q = I).
func denseLambdaMax(g *linalg.Graph, sq []float64) float64 {
	n := g.Order()
	l := scaledLaplacian(g, sq)
	var es mat.EigenSym
	if !es.Factorize(l, false) {
		return math.NaN()
	}
	return es.Values(nil)[n-1]
}

func scaledLaplacian(g *linalg.Graph, sq []float64) *mat.SymDense {
	n := g.Order()
	l := g.Laplacian()
	if sq != nil {
		for i := range n {
			for j := i; j < n; j++ {
				l.SetSym(i, j, sq[i]*l.At(i, j)*sq[j])
			}
		}
	}
	return l
}

// choleskyBelow reports whether c I − Q^{1/2} L Q^{1/2} is positive
// definite, that is whether c > μ_n (Sylvester's law of inertia).
func choleskyBelow(g *linalg.Graph, sq []float64, c float64) bool {
	n := g.Order()
	a := scaledLaplacian(g, sq)
	for i := range n {
		for j := i; j < n; j++ {
			v := -a.At(i, j)
			if i == j {
				v += c
			}
			a.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	return ch.Factorize(a)
}

// perronBound returns a Collatz–Wielandt upper bound on ρ(|S|) ≥ μ_n:
// max_i (|S| x)_i / x_i for x after power steps on |S|, stopping early
// once γ times it is below 2. deg is the diagonal of S.
func perronBound(g *linalg.Graph, sq, deg []float64, gamma float64) float64 {
	n := g.Order()
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	best := math.Inf(1)
	for range perronIters {
		var ratio, norm float64
		for u := range n {
			s := deg[u] * x[u]
			ws := g.Weights(u)
			for i, v := range g.Neighbors(u) {
				if sq != nil {
					s += sq[u] * ws[i] * sq[v] * x[v]
				} else {
					s += ws[i] * x[v]
				}
			}
			y[u] = s
			ratio = max(ratio, s/x[u])
			norm = max(norm, s)
		}
		// Relative rounding of each row sum ≤ (d+2) ε; 1e-12 covers
		// degrees to ~10³ with a margin.
		best = min(best, ratio*(1+1e-12))
		if gamma*best < 2 || !(norm > 0) {
			break
		}
		for i := range x {
			x[i] = y[i] / norm
			if !(x[i] > 0) { // underflow: x must stay positive
				x[i] = math.SmallestNonzeroFloat64
			}
		}
	}
	return best
}

// lanczos is a Lanczos process for Q^{1/2} L Q^{1/2} with full
// reorthogonalisation from a fixed random start (deterministic).
type lanczos struct {
	g           *linalg.Graph
	sq          []float64
	vs          [][]float64 // orthonormal basis
	alpha, beta []float64
	v, w, tmp   []float64
	k           int
	done        bool // invariant subspace reached
}

func newLanczos(g *linalg.Graph, sq []float64) *lanczos {
	n := g.Order()
	src := rand.New(rand.NewPCG(1, 2))
	v := make([]float64, n)
	for i := range v {
		v[i] = src.NormFloat64()
	}
	normalize(v)
	return &lanczos{g: g, sq: sq, v: v, w: make([]float64, n), tmp: make([]float64, n)}
}

func (lz *lanczos) mul(dst, v []float64) {
	if lz.sq == nil {
		lz.g.LaplacianMulVec(dst, v)
		return
	}
	for i := range v {
		lz.tmp[i] = lz.sq[i] * v[i]
	}
	lz.g.LaplacianMulVec(dst, lz.tmp)
	for i := range dst {
		dst[i] *= lz.sq[i]
	}
}

// extend runs up to steps more Lanczos steps and returns the largest
// Ritz value.
func (lz *lanczos) extend(steps int) float64 {
	n := len(lz.v)
	for s := 0; s < steps && lz.k < n && !lz.done; s++ {
		if lz.k > 0 {
			b := lz.beta[lz.k-1]
			for t := range lz.w {
				lz.v[t] = lz.w[t] / b
			}
		}
		lz.vs = append(lz.vs, append([]float64(nil), lz.v...))
		lz.mul(lz.w, lz.v)
		a := dot(lz.w, lz.v)
		lz.alpha = append(lz.alpha, a)
		lz.k++
		// Full reorthogonalisation (twice is enough).
		for range 2 {
			for _, qi := range lz.vs {
				c := dot(lz.w, qi)
				for t := range lz.w {
					lz.w[t] -= c * qi[t]
				}
			}
		}
		b := math.Sqrt(dot(lz.w, lz.w))
		if b < 1e-12*math.Abs(a) {
			lz.done = true
			break
		}
		lz.beta = append(lz.beta, b)
	}
	k := lz.k
	d := append([]float64(nil), lz.alpha...)
	e := append([]float64(nil), lz.beta[:k-1]...)
	if !(gonum.Implementation{}).Dsterf(k, d, e) {
		return math.NaN()
	}
	return d[k-1]
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func normalize(v []float64) {
	s := 1 / math.Sqrt(dot(v, v))
	for i := range v {
		v[i] *= s
	}
}
