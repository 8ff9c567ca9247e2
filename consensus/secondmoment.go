package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// SecondMomentMaxNodes is the largest graph SecondMomentRho accepts:
// each iteration costs four dense n×n products, so beyond a few hundred
// nodes the Monte Carlo of the simulator is the tool (spec deployed
// §2.6).
const SecondMomentMaxNodes = 256

// secondMomentMaxIter bounds the fixed-point iterations of
// SecondMomentRho: the error contracts by Radius per iteration.
const secondMomentMaxIter = 20000

// SecondMoment is the result of SecondMomentRho (spec deployed §2.6).
type SecondMoment struct {
	// Rho is the expected stationary dispersion E‖M_n p‖² of the traffic
	// case under delay, loss and asynchrony.
	Rho float64
	// MeanRate is m = (1 − q)π², the probability that a link's
	// exchange is applied in a step; the mean dynamics are the delayed
	// throttler with cycle γm.
	MeanRate float64
	// Radius is the power-iteration estimate of the spectral radius of
	// the fluctuation operator K (spec deployed §2.6): the throttler is
	// mean-square stable iff γ m λ_n < a*(τ) and Radius < 1, and the
	// iteration's error contracts by Radius per step.
	Radius float64
	// Iterations counts the fixed-point iterations.
	Iterations int
	// Status is Success when the fixed point was reached to rounding.
	Status loadlab.Status
}

// SecondMomentRho returns the expected H2 dispersion measure of traffic
// t at noise level σ for the throttler th (Measure Amount) when every
// measure arrives τ cycles late, each link's exchange is lost with
// probability loss = q, and each server ticks in a step with
// probability tick = π, all independently (spec deployed §2.6): link
// {u, v} applies its transfer γ w_uv (p_u(k−τ) − p_v(k−τ)) at step k, at
// both ends, iff it is not lost and both u and v tick (the Joint
// protocol of Simulate on a Network, spec deployed §1). The limits obey
// x(k+1) = x(k) + γ L(ξ(k)) p(k−τ) with the random Laplacian
// L(ξ) = Σ_e ξ_e w_e b_e b_eᵀ, and the stationary covariance of the
// augmented dispersion (n(τ+1) values) solves the second-moment
// recursion, computed exactly in the eigenbasis of the mean Laplacian mL
// by a fixed-point iteration over the fluctuation term (each step one
// exact solve of the mean system, whose stationary covariances are the
// cross-covariances of pairs of scalar delayed modes). q = 0 and π = 1
// give RhoDelay. The fixed point is reached to a relative error of about
// 10⁻¹¹/(1 − Radius) (the increments' traces at rounding level, each
// iteration a few dense products).
//
// It returns ErrUnstable (with the result so far, Rho = +Inf) when the
// mean dynamics are unstable (γ m λ_n ≥ a*(τ), or within the
// eigenvalues' error bound of it) or the second moments diverge (Radius
// ≥ 1); ErrNotConverged with the partial result after 20000 iterations (a
// radius within about 10⁻⁸ of 1);
// ErrInvalid for an invalid throttler (see Throttler.Validate; Measure
// must be Amount), σ negative or not finite, an unknown t, τ < 0, loss
// outside [0, 1) or tick outside (0, 1]; ErrTooLarge above
// SecondMomentMaxNodes nodes or for τ > MaxDelay. Cost: one dense
// eigendecomposition, n²/2 solves of size 2τ + 3, and O(n³ + Σ_u d_u²)
// per iteration. It panics if th is nil.
func SecondMomentRho(th *Throttler, t Traffic, tau int, sigma, loss, tick float64) (SecondMoment, error) {
	if err := validateSecondMoment(th, t, tau, sigma, loss, tick); err != nil {
		return SecondMoment{Rho: math.NaN()}, err
	}
	g, gamma := th.Graph, th.Gamma
	out := SecondMoment{MeanRate: (1 - loss) * tick * tick}
	lap, err := g.Laplacian()
	if err != nil {
		return out, err
	}
	vals, vecs, err := spectral.SymEigen(lap, true)
	if err != nil {
		return out, err
	}
	s, err := newSpectral(vals, true)
	if err != nil {
		return out, err
	}
	if err := s.unstableDelay(gamma*out.MeanRate, tau); err != nil {
		out.Rho = math.Inf(1)
		return out, loadlab.Wrap(ErrUnstable, "consensus", "SecondMomentRho: the mean dynamics (cycle γm = %v·%v) are unstable: %v", gamma, out.MeanRate, err)
	}
	sm := newSecondMoments(g, vecs, vals, gamma, tau, loss, tick)
	if err := sm.crossCovariances(); err != nil {
		out.Rho = math.Inf(1)
		return out, err
	}
	err = sm.iterate(&out, sm.noise(t, sigma))
	if t == Case1 && !math.IsInf(out.Rho, 1) {
		out.Rho += sigma * sigma * float64(g.Order()-1)
	}
	return out, err
}

// validateSecondMoment checks the arguments of SecondMomentRho.
func validateSecondMoment(th *Throttler, t Traffic, tau int, sigma, loss, tick float64) error {
	if th != nil && th.Graph != nil && th.Graph.Order() > SecondMomentMaxNodes {
		return loadlab.TooLarge("consensus", "SecondMomentRho: n = %d nodes > SecondMomentMaxNodes = %d; estimate the lossy throttler by simulation", th.Graph.Order(), SecondMomentMaxNodes)
	}
	if err := th.validateLinear("SecondMomentRho"); err != nil {
		return err
	}
	if err := validateRhoArgs(t, th.Gamma, sigma); err != nil {
		return err
	}
	if err := validateDelay(tau); err != nil {
		return err
	}
	if !(loss >= 0 && loss < 1) {
		return loadlab.Invalid("consensus", "SecondMomentRho: loss q = %v, want in [0, 1)", loss)
	}
	if !(tick > 0 && tick <= 1) {
		return loadlab.Invalid("consensus", "SecondMomentRho: tick π = %v, want in (0, 1]", tick)
	}
	return nil
}

// secondMoments holds the pieces of the second-moment recursion (spec
// deployed §2.6) in the eigenbasis U of L.
type secondMoments struct {
	g          *wgraph.Graph
	u          *mat.Dense // eigenvectors of L, columns, ascending
	lambda     []float64
	gamma      float64
	tau        int
	m          float64 // E ξ_e
	cSelf      float64 // Var ξ_e
	cAdj       float64 // Cov(ξ_e, ξ_f) for links sharing one server
	h          *mat.Dense
	p, d, t, r *mat.Dense // n×n work
}

func newSecondMoments(g *wgraph.Graph, u *mat.Dense, lambda []float64, gamma float64, tau int, q, pi float64) *secondMoments {
	n := g.Order()
	keep := 1 - q
	m := keep * pi * pi
	// Both links {u,v}, {u,w} run iff both are delivered and u, v and w
	// all tick: (1 − q)²π³.
	both := keep * keep * pi * pi * pi
	return &secondMoments{g: g, u: u, lambda: lambda, gamma: gamma, tau: tau,
		m: m, cSelf: m * (1 - m), cAdj: both - m*m,
		h: mat.NewDense(n, n, nil), p: mat.NewDense(n, n, nil), d: mat.NewDense(n, n, nil),
		t: mat.NewDense(n, n, nil), r: mat.NewDense(n, n, nil)}
}

// crossCovariances fills h with H_ij = E[y_i(k) y_j(k)] for the pair of
// scalar delayed modes y_i(k+1) = y_i(k) − a_i y_i(k−τ) + w(k) driven by
// one common unit white noise, a_i = γ m λ_i (spec deployed §2.6); the
// conserved mode i = 0 is left out (H_0j = 0). On the diagonal
// H_ii = V_τ(a_i).
func (sm *secondMoments) crossCovariances() error {
	n := len(sm.lambda)
	cw := newCrossWork(sm.tau)
	for i := 1; i < n; i++ {
		for j := i; j < n; j++ {
			v, ok := cw.solve(sm.gamma*sm.m*sm.lambda[i], sm.gamma*sm.m*sm.lambda[j])
			if !ok {
				return loadlab.Wrap(ErrUnstable, "consensus", "SecondMomentRho: the cross-covariance system of modes %d, %d is singular (a mode at the stability limit; spec deployed §2.6)", i, j)
			}
			sm.h.Set(i, j, v)
			sm.h.Set(j, i, v)
		}
	}
	return nil
}

// crossWork solves for the stationary cross-covariances
// c(l) = E[y_i(k) y_j(k−l)], l = −τ−1..τ+1, of two scalar delayed modes
// with a common unit noise (spec deployed §2.6):
//
//	a_j c(τ) + a_i c(−τ) − a_i a_j c(0) = 1,
//	c(l) − c(l−1) + a_i c(l−1−τ) = 0,   l = 1..τ+1,
//	c(l) − c(l+1) + a_j c(l+1+τ) = 0,   l = −1..−τ−1,
//
// a dense system of size 2τ + 3.
type crossWork struct {
	tau int
	m   []float64
	b   []float64
	piv []int
}

func newCrossWork(tau int) *crossWork {
	k := 2*tau + 3
	return &crossWork{tau: tau, m: make([]float64, k*k), b: make([]float64, k), piv: make([]int, k)}
}

// solve returns c(0) for the modes a_i, a_j, and false when the system is
// singular to working precision.
func (cw *crossWork) solve(ai, aj float64) (float64, bool) {
	tau := cw.tau
	k := 2*tau + 3
	off := tau + 1 // c(l) is unknown l + off
	clear(cw.m)
	clear(cw.b)
	set := func(row, l int, v float64) { cw.m[row*k+l+off] += v }
	// Row 0: c(0) = c(0) − a_j c(τ) − a_i c(−τ) + a_i a_j c(0) + 1, from
	// E[y_i(k+1) y_j(k+1)] with y(k+1) = y(k) − a y(k−τ) + w(k).
	set(0, tau, aj)
	set(0, -tau, ai)
	set(0, 0, -ai*aj)
	cw.b[0] = 1
	row := 1
	for l := 1; l <= tau+1; l++ { // the i recursion, w(k) ⊥ y_j(k+1−l)
		set(row, l, 1)
		set(row, l-1, -1)
		set(row, l-1-tau, ai)
		row++
	}
	for l := -1; l >= -tau-1; l-- { // the j recursion
		set(row, l, 1)
		set(row, l+1, -1)
		set(row, l+1+tau, aj)
		row++
	}
	if !luFactor(cw.m, cw.piv, k) {
		return math.NaN(), false
	}
	luSolve(cw.m, cw.piv, k, cw.b)
	return cw.b[off], true
}

// noise returns Q̃ = UᵀQU, the noise covariance entering the newest
// slot in the eigenbasis (spec deployed §2.6): σ²M_n for Case 2, σ²γM_n
// for Case 2T, and γ²σ² E[L(ξ)²] = γ²σ² (m²L² + 𝒟(I)) for Case 1.
func (sm *secondMoments) noise(t Traffic, sigma float64) *mat.Dense {
	n := len(sm.lambda)
	q := mat.NewDense(n, n, nil)
	v := sigma * sigma
	if t != Case1 {
		if t == Case2T {
			v *= sm.gamma
		}
		for i := 1; i < n; i++ {
			q.Set(i, i, v)
		}
		return q
	}
	sm.p.Zero()
	for i := range n {
		sm.p.Set(i, i, 1)
	}
	sm.fluctuation(sm.d, sm.p)
	sm.toModes(q, sm.d)
	g2 := sm.gamma * sm.gamma * v
	for i := range n {
		for j := range n {
			x := q.At(i, j)
			if i == j {
				l := sm.m * sm.lambda[i]
				x += l * l
			}
			q.Set(i, j, g2*x)
		}
	}
	sm.dropConserved(q)
	return q
}

// dropConserved zeroes row and column 0 (the conserved mode 1/√n), which
// no noise of the dispersion reaches.
func (sm *secondMoments) dropConserved(a *mat.Dense) {
	n, _ := a.Dims()
	for i := range n {
		a.Set(0, i, 0)
		a.Set(i, 0, 0)
	}
}

// toModes sets dst = Uᵀ a U.
func (sm *secondMoments) toModes(dst, a *mat.Dense) {
	sm.t.Mul(sm.u.T(), a)
	dst.Mul(sm.t, sm.u)
}

// fromModes sets dst = U a Uᵀ.
func (sm *secondMoments) fromModes(dst, a *mat.Dense) {
	sm.t.Mul(sm.u, a)
	dst.Mul(sm.t, sm.u.T())
}

// fluctuation sets dst = 𝒟(P) = E[(L(ξ) − mL) P (L(ξ) − mL)]
// = Σ_{e,f} Cov(ξ_e, ξ_f) w_e w_f (b_eᵀ P b_f) b_e b_fᵀ, over e = f
// (Var ξ_e) and the ordered pairs of links sharing one server (spec
// deployed §2.6).
func (sm *secondMoments) fluctuation(dst, p *mat.Dense) {
	dst.Zero()
	add := func(u1, v1, u2, v2 int, c float64) {
		s := c * (p.At(u1, u2) - p.At(u1, v2) - p.At(v1, u2) + p.At(v1, v2))
		dst.Set(u1, u2, dst.At(u1, u2)+s)
		dst.Set(u1, v2, dst.At(u1, v2)-s)
		dst.Set(v1, u2, dst.At(v1, u2)-s)
		dst.Set(v1, v2, dst.At(v1, v2)+s)
	}
	g := sm.g
	for u := range g.Order() {
		nb, wt := g.Neighbors(u), g.Weights(u)
		for a, va := range nb {
			v := int(va)
			if u < v {
				add(u, v, u, v, sm.cSelf*wt[a]*wt[a])
			}
			if sm.cAdj == 0 {
				continue
			}
			for b, vb := range nb {
				if b != a {
					add(u, v, u, int(vb), sm.cAdj*wt[a]*wt[b])
				}
			}
		}
	}
}

// iterate runs R̃ ← Q̃ + γ² Uᵀ𝒟(U (H∘R̃) Uᵀ)U from R̃ = Q̃ to its fixed
// point (spec deployed §2.6) and sets out.Rho = tr(H∘R̃), the stationary
// E‖y(k)‖². The increments are Kʲ Q̃ (positive semidefinite), so the
// ratio of their traces is a power iteration for ρ(K): out.Radius is
// that ratio while the increments stand above rounding. Once the ratio
// has settled (to 10⁻⁹), the remaining geometric tail r/(1 − r) of the
// increment is added at once (extrapolation along the Perron direction,
// which the next iterations check), so a radius near 1 costs tens, not
// millions, of iterations.
func (sm *secondMoments) iterate(out *SecondMoment, q *mat.Dense) error {
	n := len(sm.lambda)
	r := mat.DenseCopyOf(q)
	traceQ := mat.Trace(q)
	var it tracker
	for k := 1; k <= secondMomentMaxIter; k++ {
		sm.step(r, q)
		inc, tr := mat.Trace(sm.r), mat.Trace(r)
		out.Iterations = k
		out.Rho = traceH(sm.h, r, n)
		it.observe(inc, tr)
		out.Radius = it.rate
		switch {
		case it.converged(inc, tr):
			out.Status = loadlab.Success
			return nil
		case tr > 1e15*traceQ || (it.settled && it.rate >= 1+1e-8):
			out.Status, out.Rho = loadlab.Failure, math.Inf(1)
			return loadlab.Wrap(ErrUnstable, "consensus", "SecondMomentRho: the second moments diverge (fluctuation radius ≈ %.9g ≥ 1): the throttler is not mean-square stable (spec deployed §2.6)", it.rate)
		case it.settled && it.rate < 1 && it.since >= 10:
			// r += ρ/(1 − ρ) · increment: the rest of the geometric tail.
			sm.r.Scale(it.rate/(1-it.rate), sm.r)
			r.Add(r, sm.r)
			it.since, it.settled = 0, false
		}
	}
	out.Status = loadlab.IterationLimit
	return loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "SecondMomentRho: no fixed point to rounding after %d iterations (fluctuation radius ≈ %.9g)", secondMomentMaxIter, out.Radius)
}

// step replaces r by Q̃ + γ² Uᵀ𝒟(U (H∘r) Uᵀ)U and leaves the increment
// in sm.r.
func (sm *secondMoments) step(r, q *mat.Dense) {
	sm.p.MulElem(sm.h, r)
	sm.fromModes(sm.d, sm.p)
	sm.fluctuation(sm.p, sm.d)
	sm.toModes(sm.d, sm.p)
	sm.d.Scale(sm.gamma*sm.gamma, sm.d)
	sm.dropConserved(sm.d)
	sm.d.Add(sm.d, q)
	sm.r.Sub(sm.d, r)
	r.Copy(sm.d)
}

// tracker follows the traces of the increments of iterate.
type tracker struct {
	prev    float64 // the last increment above rounding
	rate    float64 // the last ratio of increments above rounding
	settled bool    // rate changed by ≤ 10⁻⁹ relative in the last step
	since   int     // steps since the last extrapolation
}

// roundingFloor is the increment, relative to tr R̃, below which the
// trace of an increment is rounding (a few n³ products of numbers of the
// size of R̃).
const roundingFloor = 1e-11

func (t *tracker) observe(inc, tr float64) {
	t.since++
	if inc <= roundingFloor*tr {
		t.settled = false
		return
	}
	if t.prev > 0 {
		r := inc / t.prev
		t.settled = t.since > 2 && math.Abs(r-t.rate) <= 1e-9*r
		t.rate = r
	}
	t.prev = inc
}

// converged reports whether the iteration has reached its fixed point:
// the increment at rounding level, or its geometric tail ≤ 10⁻¹² tr R̃.
func (t *tracker) converged(inc, tr float64) bool {
	if inc <= roundingFloor*tr && (t.rate < 1 || t.prev == 0) {
		return true
	}
	return t.rate > 0 && t.rate < 1 && t.since > 2 && inc*t.rate/(1-t.rate) <= 1e-12*tr
}

// traceH returns tr(H∘R) = Σ_i H_ii R_ii.
func traceH(h, r *mat.Dense, n int) float64 {
	var s float64
	for i := range n {
		s += h.At(i, i) * r.At(i, i)
	}
	return s
}
