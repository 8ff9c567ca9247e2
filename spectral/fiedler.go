package spectral

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Constants of AlgebraicConnectivity above DenseMaxNodes.
const (
	// fiedlerStartWidth is the relative width of the Lanczos bracket of
	// λ₂ whose vector starts the refinement.
	fiedlerStartWidth = 1e-6
	// fiedlerRelErr is the certified relative error λ₂ must reach.
	fiedlerRelErr = 1e-12
	// fiedlerSteps bounds the steps of L† that refine the vector; each
	// damps its components along λ_i, i ≥ 3, by λ₂/λ_i.
	fiedlerSteps = 200
	// gap3Width is the relative width asked of the bound on λ₃.
	gap3Width = 1e-2
	// gap3Slack widens the bound on λ₃ downwards. The Christoffel bound
	// assumes exact applications of L†; with solves to a relative
	// residual of 1e-10 it came out 4.2e-7 (relative) above λ₃ on the
	// 40 × 40 torus (λ₂ = λ₃, four-fold) with Jacobi-preconditioned
	// solves and 1.5e-7 below it with approximate Cholesky, at any solve
	// tolerance down to 1e-13: the roundingSlack margin on the solves'
	// error does not cover it. 1e-5 covers it twenty times over; the
	// price is that λ₂ with a gap λ₃/λ₂ − 1 below about 1e-5 is refused
	// as not separated (ErrNotConverged), where Lambda2Bracket still
	// brackets its value.
	gap3Slack = 1e-5
)

// algebraicConnectivitySparse is AlgebraicConnectivity above
// DenseMaxNodes, certified by the Kato–Temple inequality (spec
// throttlers.md §12.8): for a unit f ⊥ 1 with Rayleigh quotient
// θ = fᵀLf and residual ρ = ‖L f − θ f‖, and b ≤ λ₃ with θ < b,
//
//	θ − ρ²/(b − θ) ≤ λ₂ ≤ θ.
//
// f starts from the vector of a Lanczos bracket of λ₂ and is refined by
// steps of L† until ρ²/(b − θ) ≤ fiedlerRelErr·θ; b is the reciprocal
// of a Christoffel upper bound on the largest eigenvalue of L† compressed
// to the complement of {1, f}, which by Cauchy interlacing is at least
// 1/λ₃ (it fails with probability at most 1e-10, as the brackets' lower
// ends do). It returns θ.
func algebraicConnectivitySparse(g *wgraph.Graph) (float64, *mat.VecDense, error) {
	if !wgraph.IsConnected(g) {
		return 0, componentVector(g), nil
	}
	c := (*EigenSettings)(nil).resolved()
	_, f, err := lambda2(g, &EigenSettings{RelWidth: fiedlerStartWidth})
	if err != nil {
		return math.NaN(), nil, err
	}
	s, err := laplacian.NewSolver(g, &laplacian.Settings{Tol: eigenSolveTol}, rand.NewPCG(c.seed[1], c.seed[0]))
	if err != nil {
		return math.NaN(), nil, err
	}
	dense.Center(f)
	dense.Normalize(f)
	b, err := lambda3Lower(g, s, f, c)
	if err != nil {
		return math.NaN(), nil, err
	}
	b *= 1 - gap3Slack
	theta, err := refineFiedler(s, f, b)
	return theta, mat.NewVecDense(len(f), f), err
}

// componentVector returns the unit vector proportional to the centred
// indicator of the component of node 0: L f = 0 and f ⊥ 1 on a
// disconnected graph.
func componentVector(g *wgraph.Graph) *mat.VecDense {
	_, comp := wgraph.Components(g)
	f := make([]float64, g.Order())
	for u, c := range comp {
		if c == comp[0] {
			f[u] = 1
		}
	}
	dense.Center(f)
	dense.Normalize(f)
	return mat.NewVecDense(len(f), f)
}

// refineFiedler applies L† to the unit f ⊥ 1 until the Kato–Temple bound
// with b ≤ λ₃ certifies its Rayleigh quotient θ to fiedlerRelErr, and
// returns θ; f holds the last unit vector. It returns an error wrapping
// loadlab.ErrNotConverged after fiedlerSteps steps, which is also what a
// multiple (or nearly multiple) λ₂ gives: then b ≤ λ₃ ≈ λ₂ ≤ θ never
// separates, and Lambda2Bracket is the way to bracket the value.
func refineFiedler(s *laplacian.Solver, f []float64, b float64) (float64, error) {
	op := s.Operator()
	lf := make([]float64, len(f))
	theta, rho := math.NaN(), math.Inf(1)
	for range fiedlerSteps {
		dense.Center(f)
		dense.Normalize(f)
		op.Apply(lf, f)
		theta = dense.Dot(f, lf)
		var r float64
		for i, v := range f {
			d := lf[i] - theta*v
			r += d * d
		}
		rho = math.Sqrt(r) + rayleighRounding(f, lf)
		if theta < b && rho*rho <= fiedlerRelErr*theta*(b-theta) {
			return theta, nil
		}
		// A step's solve error only perturbs the next vector, whose
		// residual is computed afresh: a solve that stagnates near the
		// rounding floor still gives a usable step.
		if res, err := s.Solve(f, f); err != nil && res.Status != loadlab.Stagnated {
			return theta, err
		}
	}
	if !(theta < b) {
		return theta, loadlab.Wrap(loadlab.ErrNotConverged, "spectral", "AlgebraicConnectivity: λ₂ ≈ %.12g is not separated from λ₃ ≥ %.12g (a multiple λ₂, as on a symmetric torus?): Lambda2Bracket brackets its value", theta, b)
	}
	return theta, loadlab.Wrap(loadlab.ErrNotConverged, "spectral", "AlgebraicConnectivity: λ₂ ≈ %.12g not certified to %.0e after %d steps of L† (residual %.3g, λ₃ ≥ %.6g)", theta, fiedlerRelErr, fiedlerSteps, rho, b)
}

// rayleighRounding bounds the rounding error of the residual of f: the
// products L f and the sums over n terms, γ_n ‖L f‖ ≈ n u ‖L f‖.
func rayleighRounding(f, lf []float64) float64 {
	return float64(len(f)+2) * 0x1p-53 * math.Sqrt(dense.Dot(lf, lf))
}

// lambda3Lower returns a lower bound on λ₃: the reciprocal of the
// Christoffel upper bound (widened by the solves' error) on the largest
// eigenvalue of L† compressed to the complement of 1 and the unit
// vector f, by Lanczos with one solve per step (spec throttlers.md
// §12.8). By Cauchy interlacing that eigenvalue is at least 1/λ₃, the
// second eigenvalue of L† on 1⊥, whatever f is.
func lambda3Lower(g *wgraph.Graph, s *laplacian.Solver, f []float64, c eigenConfig) (float64, error) {
	n := g.Order()
	op := newOperator(g, nil)
	pa := &pinvApply{op: op, solver: s}
	project := func(x []float64) {
		p := dense.Dot(x, f)
		dense.Axpy(x, -p, f)
	}
	tmp := make([]float64, n)
	apply := func(dst, src []float64) error { // P L† P, P = I − f fᵀ
		copy(tmp, src)
		project(tmp)
		if err := pa.apply(dst, tmp); err != nil {
			return err
		}
		project(dst)
		return nil
	}
	// The start vector is uniform on the sphere of 1⊥, where P L† P is
	// positive semidefinite with f in its null space.
	lz := lanczos.New(n, apply, op.nullVector(), c.seed)
	tail := sphereTail(n-1, c.delta)
	var hist []ritzPoint
	up := math.Inf(1)
	check := func(k int, theta float64) bool {
		margin := roundingSlack * float64(k) * pa.eta()
		up = min(up, (1+margin)*upperBoundOpen(lz, theta, float64(k)/tail))
		return up <= (1+gap3Width)*theta
	}
	if _, err := advance(lz, &hist, c.maxSteps, "AlgebraicConnectivity", check); err != nil {
		return math.NaN(), err
	}
	return 1 / up, nil
}
