package consensus

import (
	"errors"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
)

// MaxDelay is the largest uniform delay τ (in cycles) the delayed H2
// functions accept. Each mode costs O(τ) through the partial fractions
// of R_τ, so the exact sums cost O(nτ) per γ (spec deployed §2.3,
// throttlers.md §12.14); the fractions are checked once per τ against
// the dense solve of size τ + 2 (0.3 s at τ = 1024).
const MaxDelay = 1024

// validateDelay returns an error unless 0 ≤ τ ≤ MaxDelay.
func validateDelay(tau int) error {
	if tau < 0 {
		return loadlab.Invalid("consensus", "delay tau = %d, want ≥ 0", tau)
	}
	if tau > MaxDelay {
		return loadlab.TooLarge("consensus", "delay tau = %d > MaxDelay = %d (each mode is a dense system of size τ + 2)", tau, MaxDelay)
	}
	return nil
}

// DelayLimit returns the stability limit a*(τ) of the scalar delayed
// recursion e(k+1) = e(k) − a e(k−τ) (spec deployed §2.2): it is stable
// iff 0 < a < a*(τ) = 2 sin(π/(2(2τ+1))), so a throttler whose measures
// arrive τ cycles late is stable iff 0 < γλ_n < a*(τ). a*(0) = 2 (the
// delay-free limit of spec throttlers §4.1), a*(1) = 1, and a*(τ) ≈
// π/(2τ+1) for large τ. It returns an error wrapping loadlab.ErrInvalid
// for τ < 0, and loadlab.ErrTooLarge for τ > MaxDelay.
func DelayLimit(tau int) (float64, error) {
	if err := validateDelay(tau); err != nil {
		return math.NaN(), err
	}
	return delayLimit(tau), nil
}

// delayLimit is a*(τ) = 2 sin(π/(2(2τ+1))) (spec deployed §2.2).
func delayLimit(tau int) float64 {
	return 2 * math.Sin(math.Pi/float64(2*(2*tau+1)))
}

// modeWork solves the regular part of the stationary variance of the
// scalar delayed recursion y(k+1) = y(k) − a y(k−τ) + w(k), w white of
// unit variance (spec deployed §2.3): its autocovariances are
// c_h = 1/(2a) + d_h, h = 0..τ+1, with d the solution of
//
//	a d_0 − 2 d_τ = −½,
//	d_h − d_{h−1} + a d_{|τ+1−h|} = −½,   h = 1..τ+1,
//
// a system that stays regular as a → 0 (d_0 = ¼ + τ/2 there), so that
// V(a) = 1/(2a) + R(a), R(a) = d_0, is computed without cancellation.
// Its O(τ³) solve is the reference that the partial fractions of R_τ
// (delayPoles, O(τ) per point) are checked against; the delayed
// functions evaluate R_τ through modeEval.
type modeWork struct {
	tau  int
	m, b []float64 // (τ+2)² matrix, right-hand side
	piv  []int
	c    []float64 // the solution d, kept for the derivative
}

func newModeWork(tau int) *modeWork {
	k := tau + 2
	return &modeWork{tau: tau, m: make([]float64, k*k), b: make([]float64, k), piv: make([]int, k), c: make([]float64, k)}
}

// assemble writes the matrix of the system for a into w.m.
func (w *modeWork) assemble(a float64) {
	k, tau := w.tau+2, w.tau
	clear(w.m)
	w.m[0] += a
	w.m[tau] -= 2
	for h := 1; h < k; h++ {
		row := w.m[h*k : (h+1)*k]
		row[h]++
		row[h-1]--
		j := tau + 1 - h
		if j < 0 {
			j = -j
		}
		row[j] += a
	}
}

// r returns R(a) and R'(a) (spec deployed §2.3) and false when the
// system is singular to working precision (a at a pole: a ≥ a*(τ) or
// one of the other roots of the characteristic polynomial on the unit
// circle). The derivative solves M d' = −M' d with M' = ∂M/∂a: 1 at
// (0, 0) and at (h, |τ+1−h|).
func (w *modeWork) r(a float64) (r, dr float64, ok bool) {
	k, tau := w.tau+2, w.tau
	w.assemble(a)
	for i := range w.b {
		w.b[i] = -0.5
	}
	if !luFactor(w.m, w.piv, k) {
		return math.NaN(), math.NaN(), false
	}
	luSolve(w.m, w.piv, k, w.b)
	copy(w.c, w.b)
	w.b[0] = -w.c[0]
	for h := 1; h < k; h++ {
		j := tau + 1 - h
		if j < 0 {
			j = -j
		}
		w.b[h] = -w.c[j]
	}
	luSolve(w.m, w.piv, k, w.b)
	return w.c[0], w.b[0], true
}

// luFactor factors the k×k row-major matrix m in place with partial
// pivoting; it reports false for a zero pivot or a pivot below k ε
// times the largest entry (singular to working precision).
func luFactor(m []float64, piv []int, k int) bool {
	var big float64
	for _, v := range m {
		big = max(big, math.Abs(v))
	}
	tiny := float64(k) * 0x1p-52 * big
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(m[r*k+c]) > math.Abs(m[p*k+c]) {
				p = r
			}
		}
		piv[c] = p
		if !(math.Abs(m[p*k+c]) > tiny) {
			return false
		}
		if p != c {
			for j := range k {
				m[c*k+j], m[p*k+j] = m[p*k+j], m[c*k+j]
			}
		}
		inv := 1 / m[c*k+c]
		for r := c + 1; r < k; r++ {
			f := m[r*k+c] * inv
			if f == 0 {
				continue
			}
			m[r*k+c] = f
			for j := c + 1; j < k; j++ {
				m[r*k+j] -= f * m[c*k+j]
			}
		}
	}
	return true
}

// luSolve solves with the factors of luFactor, b overwritten.
func luSolve(m []float64, piv []int, k int, b []float64) {
	// The factor holds P A = L U with the rows swapped whole (multipliers
	// included), so every swap comes before the forward substitution.
	for c := range k {
		if p := piv[c]; p != c {
			b[c], b[p] = b[p], b[c]
		}
	}
	for c := range k {
		for r := c + 1; r < k; r++ {
			b[r] -= m[r*k+c] * b[c]
		}
	}
	for c := k - 1; c >= 0; c-- {
		b[c] /= m[c*k+c]
		for r := range c {
			b[r] -= m[r*k+c] * b[c]
		}
	}
}

// modeEval evaluates R_τ and R'_τ: through the checked partial fractions
// (O(τ) per point, spec throttlers.md §12.14) for τ ≥ 1, else (τ = 0,
// or a form that failed its check) through modeWork's dense solve.
type modeEval struct {
	tau   int
	poles *delayPoles // nil: the dense solve
	w     *modeWork
}

func newModeEval(tau int) *modeEval {
	if dp := newDelayPoles(tau); dp.ok {
		return &modeEval{tau: tau, poles: dp}
	}
	return &modeEval{tau: tau, w: newModeWork(tau)}
}

// r returns R_τ(x), R'_τ(x) and whether they are finite: false at or
// past a*(τ) (or below the first negative pole, or where the dense
// system is singular to working precision).
func (e *modeEval) r(x float64) (r, dr float64, ok bool) {
	if e.poles != nil {
		return e.poles.r(x)
	}
	return e.w.r(x)
}

// delayTerm returns the contribution of a mode with eigenvalue λ > 0 to
// ρ of traffic t at σ = 1 under delay τ (spec deployed §2.3), a = γλ:
//
//	Case 1:  1 + a²V(a) = 1 + a/2 + a² R(a)
//	Case 2:  V(a) = 1/(2a) + R(a)
//	Case 2T: γ V(a)
//
// and false when the mode's system is singular.
func (w *modeEval) delayTerm(t Traffic, gamma, l float64) (float64, bool) {
	a := gamma * l
	r, _, ok := w.r(a)
	if !ok {
		return math.Inf(1), false
	}
	switch t {
	case Case1:
		return 1 + a/2 + a*a*r, true
	case Case2:
		return 1/(2*a) + r, true
	default:
		return gamma * (1/(2*a) + r), true
	}
}

// unstableDelay is Spectral.unstable for delay τ: an error wrapping
// ErrUnstable when γλ_n ≥ a*(τ), or lies within the error bound of λ_n
// (eigenTol) below it.
func (s *Spectral) unstableDelay(gamma float64, tau int) error {
	if tau == 0 {
		return s.unstable(gamma)
	}
	u, lim := gamma*s.LambdaMax(), delayLimit(tau)
	if u < lim && lim-u > 2*s.eigenTol()*max(u, 1) {
		return nil
	}
	if u >= lim {
		return loadlab.Wrap(ErrUnstable, "consensus", "γ = %v ≥ a*(τ)/λ_n = %v with delay τ = %d, a*(τ) = 2 sin(π/(2(2τ+1))) = %v (spec deployed §2.2)", gamma, lim/s.LambdaMax(), tau, lim)
	}
	return loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: γλ_n = %v lies within the error bound %.2g of λ_n below a*(τ) = %v (delay τ = %d), where ρ has no correct digits (spec deployed §2.2)", gamma, u, s.eigenTol(), lim, tau)
}

// DelayStabilityBound returns a*(τ)/λ_n: with measures τ cycles late the
// throttler is stable iff 0 < γ < a*(τ)/λ_n (spec deployed §2.2; see
// DelayLimit). It is +Inf for a single node. It returns an error for
// τ < 0 (loadlab.ErrInvalid) or τ > MaxDelay (loadlab.ErrTooLarge).
func (s *Spectral) DelayStabilityBound(tau int) (float64, error) {
	if err := validateDelay(tau); err != nil {
		return math.NaN(), err
	}
	return delayLimit(tau) / s.LambdaMax(), nil
}

// RhoDelay returns the H2 dispersion measure ρ of traffic t at update
// cycle γ and noise level σ when every measure arrives τ cycles late,
// x(k+1) = x(k) + γ L p(k−τ) (spec deployed §2.1–§2.3):
//
//	ρ₁  = σ² Σ_{i≥2} (1 + γλ_i/2 + (γλ_i)² R_τ(γλ_i))
//	ρ₂  = σ² Σ_{i≥2} (1/(2γλ_i) + R_τ(γλ_i))
//	ρ₂T = γ ρ₂
//
// where V_τ(a) = 1/(2a) + R_τ(a) is the stationary variance of the
// scalar recursion y(k+1) = y(k) − a y(k−τ) + w(k), each R_τ(a) a sum
// of τ + 1 partial fractions (spec throttlers.md §12.14; cost O(nτ)).
// τ = 0 gives Spectral.Rho.
// For γ ≥ a*(τ)/λ_n, or γλ_n within the error bound of λ_n below a*(τ),
// it returns +Inf and an error wrapping ErrUnstable. It returns an
// error wrapping loadlab.ErrInvalid for γ not finite and positive, σ
// negative or not finite, an unknown t, or τ < 0, and
// loadlab.ErrTooLarge for τ > MaxDelay.
func (s *Spectral) RhoDelay(t Traffic, tau int, gamma, sigma float64) (float64, error) {
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return math.NaN(), err
	}
	if err := validateDelay(tau); err != nil {
		return math.NaN(), err
	}
	if err := s.unstableDelay(gamma, tau); err != nil {
		return math.Inf(1), err
	}
	w := newModeEval(tau)
	var sum dense.CompensatedSum
	for _, l := range s.lambda[1:] {
		v, ok := w.delayTerm(t, gamma, l)
		if !ok {
			return math.Inf(1), loadlab.Wrap(ErrUnstable, "consensus", "γ = %v, delay τ = %d: the variance system of the mode λ = %v is singular to rounding (a root of z^{τ+1} − z^τ + γλ on the unit circle; spec deployed §2.3)", gamma, tau, l)
		}
		sum.Add(v)
	}
	return sigma * sigma * sum.Value(), nil
}

// gH2Delay returns dρ₂/dγ at σ = 1 under delay τ (spec deployed §2.4):
// Σ_{i≥2} λ_i V'_τ(γλ_i) = Σ_{i≥2} (−1/(2γ²λ_i) + λ_i R'_τ(γλ_i)); +Inf
// when a mode's system is singular (γ at or past the limit).
func (s *Spectral) gH2Delay(w *modeEval, gamma float64) float64 {
	var sum dense.CompensatedSum
	for _, l := range s.lambda[1:] {
		_, dr, ok := w.r(gamma * l)
		if !ok {
			return math.Inf(1)
		}
		sum.Add(-1/(2*gamma*gamma*l) + l*dr)
	}
	return sum.Value()
}

// GammaH2Delay returns the update cycle γ*_H2(τ) that minimises ρ₂ when
// the measures arrive τ cycles late, and ρ₂ there at noise level σ (spec
// deployed §2.4). dρ₂/dγ is −∞ as γ → 0 and +∞ as γ → a*(τ)/λ_n, and
// every mode's V_τ is convex in a on (0, a*(τ)) (spec deployed §2.4,
// checked on a grid by the tests), so ρ₂ is convex and its root is found
// by bisection to the last bit. τ = 0 gives Spectral.GammaH2. A single
// node returns (NaN, 0). It returns an error wrapping loadlab.ErrInvalid
// for σ negative or not finite or τ < 0, and loadlab.ErrTooLarge for
// τ > MaxDelay.
func (s *Spectral) GammaH2Delay(tau int, sigma float64) (gamma, rho float64, err error) {
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return math.NaN(), math.NaN(), loadlab.Invalid("consensus", "GammaH2Delay: sigma = %v, want finite and ≥ 0", sigma)
	}
	if err := validateDelay(tau); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if len(s.lambda) < 2 {
		return math.NaN(), 0, nil
	}
	w := newModeEval(tau)
	hi := delayLimit(tau) / s.LambdaMax()
	// bisect keeps f ≥ 0 at its left end: f = −dρ₂/dγ, decreasing.
	gamma = bisect(func(g float64) float64 { return -s.gH2Delay(w, g) }, 0, hi)
	rho, err = s.RhoDelay(Case2, tau, gamma, sigma)
	return gamma, rho, err
}

// DelayStability decides whether the throttler th is stable when its
// measures arrive τ cycles late, γλ_n < a*(τ) (spec deployed §2.2), at
// any size, with the certified bracket of λ_n of
// spectral.LambdaMaxBracket (Threshold a*(τ)/γ, so it refines only
// while the limit lies inside the bracket), as Simulate decides the
// delay-free case (spec throttlers §13.2). It returns the bracket and
//
//   - nil when the bracket lies below a*(τ)/γ (certified stable; above
//     400 nodes its upper end may be the probabilistic Lanczos bound,
//     wrong with probability at most Bracket.Delta);
//   - an error wrapping ErrUnstable when it lies at or above a*(τ)/γ, or
//     holds it and is no wider than the method's error bound;
//   - an error wrapping ErrIllConditioned, with the bracket, when the
//     bracket straddles a*(τ)/γ after its step budget.
//
// Measure must be Amount (the linear measure the modes are for). It
// returns the errors of Throttler.Validate, loadlab.ErrInvalid for τ < 0
// and loadlab.ErrTooLarge for τ > MaxDelay. It panics if th is nil.
func DelayStability(th *Throttler, tau int) (spectral.Bracket, error) {
	if err := th.validateLinear("DelayStability"); err != nil {
		return spectral.Bracket{}, err
	}
	if err := validateDelay(tau); err != nil {
		return spectral.Bracket{}, err
	}
	return delayStable(th, tau)
}

// delayStable is DelayStability after the checks.
func delayStable(th *Throttler, tau int) (spectral.Bracket, error) {
	gamma, lim := th.Gamma, delayLimit(tau)
	t := lim / gamma
	b, err := spectral.LambdaMaxBracket(th.Graph, &spectral.EigenSettings{Threshold: t})
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return b, err
	}
	switch {
	case b.Hi < t:
		return b, nil
	case b.Lo >= t:
		return b, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v ≥ a*(τ)/λ_n with delay τ = %d, a*(τ) = %v, λ_n ∈ %v: the delayed throttler is unstable (spec deployed §2.2)", gamma, tau, lim, b)
	case b.Width() <= 1e-8*(t+b.Hi):
		return b, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v = a*(τ)/λ_n to rounding with delay τ = %d, a*(τ) = %v, λ_n ∈ %v: the dispersion does not decay (spec deployed §2.2)", gamma, tau, lim, b)
	}
	return b, loadlab.Wrap(ErrIllConditioned, "consensus", "stability of γ = %v with delay τ = %d is uncertain: λ_n ∈ %v, so the limit a*(τ)/λ_n ∈ [%.10g, %.10g] with a*(τ) = %v (spec deployed §2.2)", gamma, tau, b, lim/b.Hi, lim/b.Lo, lim)
}

// RhoDelay returns the H2 dispersion measure ρ of traffic t for the
// throttler th (Measure Amount) and noise level σ when every measure
// arrives τ cycles late (spec deployed §2.3; the formulas of
// Spectral.RhoDelay), exactly to rounding from the dense spectrum of
// the graph. τ = 0 gives Rho. Errors (with ρ = +Inf): ErrUnstable for
// γ ≥ a*(τ)/λ_n or within the eigenvalues' error bound of it;
// ErrInvalid for an invalid throttler (see Throttler.Validate;
// ErrDisconnected for a disconnected graph), a Measure other than
// Amount, σ negative or not finite, an unknown t, or τ < 0;
// ErrIllConditioned for a graph so nearly disconnected that λ₂ has no
// correct digits (NewSpectral); ErrTooLarge above spectral.DenseMaxNodes
// nodes (EstimateH2Delay estimates ρ with a 95 % interval) or for
// τ > MaxDelay. It panics if th is nil.
func RhoDelay(th *Throttler, t Traffic, tau int, sigma float64) (float64, error) {
	if err := tooLargeForDense(th, "RhoDelay", "EstimateH2Delay"); err != nil {
		return math.Inf(1), err
	}
	if err := th.validateLinear("RhoDelay"); err != nil {
		return math.Inf(1), err
	}
	if err := validateRhoArgs(t, th.Gamma, sigma); err != nil {
		return math.Inf(1), err
	}
	if err := validateDelay(tau); err != nil {
		return math.Inf(1), err
	}
	if err := size.CheckDense("consensus", "consensus: RhoDelay", th.Graph.Order(), 2); err != nil {
		return math.Inf(1), err
	}
	s, err := NewSpectral(th.Graph)
	if err != nil {
		return math.Inf(1), err
	}
	return s.RhoDelay(t, tau, th.Gamma, sigma)
}

// NodalRhoDelay returns the nodal H2 measures ρ_j = lim E (p_j − p̄)² of
// traffic t under the uniform delay τ (spec deployed §2.3) in dst
// (allocated if nil), from the eigenvectors v_i of L:
// ρ_j = σ² Σ_{i≥2} f_τ(λ_i) v_ij², f_τ the term of RhoDelay; Σ_j ρ_j is
// RhoDelay. The eigenvectors are computed once, as for NodalRho. It
// returns the errors of RhoDelay, and an error wrapping
// loadlab.ErrInvalid for a Spectral made by SpectralFrom (no
// eigenvectors). It panics if dst is non-nil with a length other than n.
func (s *Spectral) NodalRhoDelay(dst []float64, t Traffic, tau int, gamma, sigma float64) ([]float64, error) {
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	if err := validateDelay(tau); err != nil {
		return nil, err
	}
	n := len(s.lambda)
	dst = allocDst(dst, n, "Spectral.NodalRhoDelay")
	if s.g == nil {
		return nil, loadlab.Invalid("consensus", "Spectral.NodalRhoDelay: a Spectral from SpectralFrom has no eigenvectors (use NewSpectral)")
	}
	if err := s.unstableDelay(gamma, tau); err != nil {
		return nil, err
	}
	s.once.Do(s.vectors)
	if s.verr != nil {
		return nil, s.verr
	}
	w := newModeEval(tau)
	f := make([]float64, n)
	for i := 1; i < n; i++ {
		v, ok := w.delayTerm(t, gamma, s.lambda[i])
		if !ok {
			return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v, delay τ = %d: the variance system of the mode λ = %v is singular to rounding (spec deployed §2.3)", gamma, tau, s.lambda[i])
		}
		f[i] = v
	}
	raw := s.vecs.RawMatrix()
	v := sigma * sigma
	for j := range n {
		row := raw.Data[j*raw.Stride : j*raw.Stride+n]
		var sum dense.CompensatedSum
		for i := 1; i < n; i++ {
			sum.Add(f[i] * row[i] * row[i])
		}
		dst[j] = v * sum.Value()
	}
	return dst, nil
}
