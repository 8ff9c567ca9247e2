package consensus

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Traffic selects the demand model of spec §4.2 behind an H2 measure.
type Traffic int

const (
	// Case1 is stationary demand r(k) = r̄ + v(k), v ~ N(0, σ² I) i.i.d.
	// Its measure is ρ₁ (spec §4.4 Proposition R1).
	Case1 Traffic = iota + 1
	// Case2 is random-walk demand r(k+1) = r(k) + v(k) with per-step
	// variance σ². Its measure is ρ₂ (spec §4.4 Proposition R2); this is
	// the default reading of open question 3.
	Case2
	// Case2T is the random walk with time-consistent scaling: per-step
	// variance σ² γ, so σ² is a variance per unit time and ρ₂T = γ ρ₂.
	Case2T
)

// String returns the case's name in the spec.
func (t Traffic) String() string {
	switch t {
	case Case1:
		return "case 1"
	case Case2:
		return "case 2"
	case Case2T:
		return "case 2T"
	}
	return fmt.Sprintf("Traffic(%d)", int(t))
}

func validateTraffic(t Traffic) error {
	if t < Case1 || t > Case2T {
		return loadlab.Invalid("consensus", "Traffic = %d, want Case1, Case2 or Case2T", int(t))
	}
	return nil
}

// Spectral holds the Laplacian spectrum of a connected graph and
// evaluates the spec's spectral formulas (§4.1, §4.4–§4.6, §5.1) in O(n)
// per call, which suits sweeps over γ. Building it costs one dense
// symmetric eigenvalue decomposition; for a single H2 value of a large
// graph, Rho (one Cholesky) is cheaper.
type Spectral struct {
	lambda []float64 // ascending, lambda[0] = 0 exactly

	// For nodal measures: the graph (nil for SpectralFrom) and, computed
	// once on first use, its eigenvectors.
	g    *wgraph.Graph
	once sync.Once
	vecs *mat.Dense
	verr error
}

// NewSpectral computes the spectrum of g. It returns an error for an
// empty or disconnected graph, and one wrapping ErrIllConditioned when
// the graph is so nearly disconnected that λ₂ ≤ 1e-12 λ_n has no
// reliable digits; a single node is allowed (every dispersion is then
// zero). It panics if g is nil.
func NewSpectral(g *wgraph.Graph) (*Spectral, error) {
	if g == nil {
		panic("consensus: NewSpectral: nil graph g")
	}
	if err := validateGraph(g); err != nil {
		return nil, err
	}
	// The spectrum needs the dense Laplacian and the eigensolver's copy;
	// NodalRho adds the eigenvectors.
	if err := size.CheckDense("consensus", "consensus: NewSpectral", g.Order(), 3); err != nil {
		return nil, err
	}
	lap, err := g.Laplacian()
	if err != nil {
		return nil, err
	}
	l, _, err := spectral.SymEigen(lap, false)
	if err != nil {
		return nil, err
	}
	s, err := newSpectral(l, true)
	if err != nil {
		return nil, err
	}
	s.g = g
	return s, nil
}

// SpectralFrom returns the Spectral for given Laplacian eigenvalues
// (any order), for example a closed-form spectrum. The smallest value is
// taken to be λ₁ = 0 and replaced by exactly 0; an error is returned if
// it exceeds 1e-8·λ_n in magnitude, if another value is not positive
// (a disconnected graph, ErrDisconnected), if λ₂ ≤ 1e-12 λ_n
// (ErrIllConditioned), or a value is not finite.
func SpectralFrom(lambda []float64) (*Spectral, error) {
	return newSpectral(slices.Clone(lambda), false)
}

// newSpectral checks and sorts l; connected says that the graph is known
// to be connected (NewSpectral checked it), so that a λ₂ ≤ 0 is
// rounding, not disconnection.
func newSpectral(l []float64, connected bool) (*Spectral, error) {
	if len(l) == 0 {
		return nil, loadlab.Invalid("consensus", "empty spectrum")
	}
	for i, v := range l {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, loadlab.Invalid("consensus", "eigenvalue %d = %v, want finite", i, v)
		}
	}
	slices.Sort(l)
	n := len(l)
	// The zero eigenvalue comes out of an eigensolver at rounding level,
	// ~n ε λ_n; 1e-8 λ_n leaves a wide margin and still rejects a
	// spectrum that is not a Laplacian's.
	if math.Abs(l[0]) > 1e-8*math.Abs(l[n-1]) {
		return nil, loadlab.Invalid("consensus", "smallest eigenvalue %v is not 0: not a Laplacian spectrum", l[0])
	}
	l[0] = 0
	if n > 1 && !(l[1] > 0) && !connected {
		return nil, loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "λ₂ = %v ≤ 0: the graph is disconnected", l[1])
	}
	// The eigensolver's absolute error is ~n ε λ_n, so below 1e-12 λ_n
	// λ₂ has at most a few correct digits (none for n ≳ 10³): refuse,
	// as spectral.KirchhoffIndex refuses such nearly disconnected graphs.
	if n > 1 && !(l[1] > 1e-12*l[n-1]) {
		return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "λ₂ = %v ≤ 1e-12·λ_n = %v: the graph is disconnected or nearly so, and λ₂ has no reliable digits", l[1], 1e-12*l[n-1])
	}
	return &Spectral{lambda: l}, nil
}

// Values returns a copy of the eigenvalues, ascending, with λ₁ = 0.
func (s *Spectral) Values() []float64 { return slices.Clone(s.lambda) }

// Order returns n.
func (s *Spectral) Order() int { return len(s.lambda) }

// Lambda2 returns the algebraic connectivity λ₂ (0 for one node).
func (s *Spectral) Lambda2() float64 {
	if len(s.lambda) < 2 {
		return 0
	}
	return s.lambda[1]
}

// LambdaMax returns λ_n.
func (s *Spectral) LambdaMax() float64 { return s.lambda[len(s.lambda)-1] }

// StabilityBound returns 2/λ_n: the network is stable iff γ < 2/λ_n
// (spec §4.1). It is +Inf for a single node.
func (s *Spectral) StabilityBound() float64 { return 2 / s.LambdaMax() }

// Kirchhoff returns K_f = n Σ_{i≥2} 1/λ_i (spec §2), a compensated sum
// (spectral.KirchhoffFromSpectrum).
func (s *Spectral) Kirchhoff() float64 {
	// newSpectral keeps only sorted, finite spectra with λ₂ > 0, for
	// which KirchhoffFromSpectrum has no error.
	k, _ := spectral.KirchhoffFromSpectrum(s.lambda)
	return k
}

// eigenTol is the relative error bound the stability decisions allow
// λ_n: 8 n ε, a bound on the backward error of the dense symmetric
// eigensolver (a modest multiple of n ε ‖L‖) that also covers the few
// ulps of a closed-form spectrum.
func (s *Spectral) eigenTol() float64 {
	return 8 * float64(len(s.lambda)) * 0x1p-53
}

// unstable returns an error wrapping ErrUnstable when γλ_n ≥ 2, or
// when γλ_n is within the error bound of λ_n (eigenTol) below 2: there
// the dispersion measures have no correct digits (they grow like
// 1/(2 − γλ_n)), so no number is returned.
func (s *Spectral) unstable(gamma float64) error {
	u := gamma * s.LambdaMax()
	if u < 2 && 2-u > 2*s.eigenTol()*max(u, 1) {
		return nil
	}
	if u >= 2 {
		return loadlab.Wrap(ErrUnstable, "consensus", "γ = %v ≥ 2/λ_n = %v", gamma, s.StabilityBound())
	}
	return loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: γλ_n = %v lies within the error bound %.2g of λ_n below 2 (the stability limit), where ρ has no correct digits", gamma, u, s.eigenTol())
}

// Factor returns the deterministic contraction factor per step
// ς(γ) = max{|1 − γλ₂|, |1 − γλ_n|} (spec §4.6); NaN for γ not finite
// and positive.
func (s *Spectral) Factor(gamma float64) float64 {
	if validateGamma(gamma) != nil {
		return math.NaN()
	}
	if len(s.lambda) < 2 {
		return 0
	}
	return max(math.Abs(1-gamma*s.lambda[1]), math.Abs(1-gamma*s.LambdaMax()))
}

// GammaConv returns the update cycle of fastest deterministic
// convergence γ_conv = 2/(λ₂ + λ_n) and its factor
// ς(γ_conv) = (λ_n − λ₂)/(λ_n + λ₂) (spec §4.6).
func (s *Spectral) GammaConv() (gamma, factor float64) {
	l2, ln := s.Lambda2(), s.LambdaMax()
	return 2 / (l2 + ln), (ln - l2) / (ln + l2)
}

// Rho returns the H2 dispersion measure ρ of traffic t at update cycle
// γ for noise level σ (spec §4.3–§4.4):
//
//	ρ₁  = σ² Σ_{i≥2} 2/(2 − γλ_i)
//	ρ₂  = σ² Σ_{i≥2} 1/(γλ_i (2 − γλ_i))
//	ρ₂T = γ ρ₂ = σ² Σ_{i≥2} 1/(λ_i (2 − γλ_i)).
//
// For γ ≥ 2/λ_n, or γλ_n within the error bound of λ_n (8 n ε relative)
// below 2, it returns +Inf and an error wrapping ErrUnstable. It
// returns an error for γ not finite and positive, σ negative or not
// finite, or an unknown t.
func (s *Spectral) Rho(t Traffic, gamma, sigma float64) (float64, error) {
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return math.NaN(), err
	}
	if err := s.unstable(gamma); err != nil {
		return math.Inf(1), err
	}
	var sum dense.CompensatedSum
	for _, l := range s.lambda[1:] {
		sum.Add(rhoTerm(t, gamma, l))
	}
	return sigma * sigma * sum.Value(), nil
}

// rhoTerm is the contribution of the eigenvalue λ to ρ of traffic t
// for σ = 1 (spec §4.4).
func rhoTerm(t Traffic, gamma, l float64) float64 {
	u := gamma * l
	switch t {
	case Case1: // spec §4.4 R1
		return 2 / (2 - u)
	case Case2: // spec §4.4 R2
		return 1 / (u * (2 - u))
	default: // Case2T, spec §4.4 Case 2T
		return 1 / (l * (2 - u))
	}
}

// NodalRho returns the nodal H2 measures ρ_j (spec §4.3) of traffic t
// in dst (allocated if nil), from the eigenvectors v_i of L:
// ρ_j = σ² Σ_{i≥2} f(λ_i) v_ij², with f the term of Rho. The
// eigenvectors are computed once, on the first call (one dense
// symmetric eigendecomposition with vectors, O(n³)); every call after
// that costs O(n²), so sweeps over γ factor once. It returns the errors
// of Rho, and an error wrapping loadlab.ErrInvalid for a Spectral made
// by SpectralFrom (no graph, so no eigenvectors). It panics if dst is
// non-nil with a length other than n.
func (s *Spectral) NodalRho(dst []float64, t Traffic, gamma, sigma float64) ([]float64, error) {
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	n := len(s.lambda)
	dst = allocDst(dst, n, "Spectral.NodalRho")
	if s.g == nil {
		return nil, loadlab.Invalid("consensus", "Spectral.NodalRho: a Spectral from SpectralFrom has no eigenvectors (use NewSpectral)")
	}
	if err := s.unstable(gamma); err != nil {
		return nil, err
	}
	s.once.Do(s.vectors)
	if s.verr != nil {
		return nil, s.verr
	}
	raw := s.vecs.RawMatrix()
	v := sigma * sigma
	for j := range n {
		row := raw.Data[j*raw.Stride : j*raw.Stride+n]
		var sum dense.CompensatedSum
		for i := 1; i < n; i++ {
			sum.Add(rhoTerm(t, gamma, s.lambda[i]) * row[i] * row[i])
		}
		dst[j] = v * sum.Value()
	}
	return dst, nil
}

// vectors computes the eigenvectors of L once (columns, ascending
// eigenvalues as in s.lambda).
func (s *Spectral) vectors() {
	l, err := s.g.Laplacian()
	if err != nil {
		s.verr = err
		return
	}
	_, s.vecs, s.verr = spectral.SymEigen(l, true)
}

func validateRhoArgs(t Traffic, gamma, sigma float64) error {
	if err := validateTraffic(t); err != nil {
		return err
	}
	if err := validateGamma(gamma); err != nil {
		return err
	}
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return loadlab.Invalid("consensus", "sigma = %v, want finite and ≥ 0", sigma)
	}
	return nil
}

// Bounds returns the effective-resistance bounds of spec §4.5 on ρ₂:
//
//	max{σ² K_f/(2γn), σ²(n−1)} ≤ ρ₂(γ) ≤ σ² K_f/(γ n (2 − γλ_n)).
//
// The upper bound is +Inf for γ ≥ 2/λ_n. It returns an error for γ not
// finite and positive or σ negative or not finite.
func (s *Spectral) Bounds(gamma, sigma float64) (lo, hi float64, err error) {
	if err := validateRhoArgs(Case2, gamma, sigma); err != nil {
		return math.NaN(), math.NaN(), err
	}
	n := float64(len(s.lambda))
	kf := s.Kirchhoff()
	v := sigma * sigma
	lo = max(v*kf/(2*gamma*n), v*(n-1))
	hi = math.Inf(1)
	if s.unstable(gamma) == nil {
		hi = v * kf / (gamma * n * (2 - gamma*s.LambdaMax()))
	}
	return lo, hi, nil
}

// G returns g(γ) = Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²), whose root is
// the H2-optimal cycle (spec §5.1 fact 2); dρ₂/dγ = −2σ² g(γ)/γ². It
// returns NaN for γ not finite and positive.
func (s *Spectral) G(gamma float64) float64 {
	if validateGamma(gamma) != nil {
		return math.NaN()
	}
	var sum float64
	for _, l := range s.lambda[1:] {
		u := gamma * l
		sum += (1 - u) / (l * (2 - u) * (2 - u))
	}
	return sum
}

// GammaH2 returns the update cycle γ*_H2 that minimises ρ₂ (spec §5.1,
// Problem B) and ρ₂(γ*_H2) at noise level σ (γ*_H2 does not depend on σ;
// ρ₂ scales with σ²). The root of g is bracketed by
// [1/λ_n, min{1/λ₂, 2/λ_n}) (spec §5.1 fact 2) and found by bisection to
// the last bit. A single node returns (NaN, 0). It returns an error
// wrapping loadlab.ErrInvalid for σ negative or not finite.
func (s *Spectral) GammaH2(sigma float64) (gamma, rho float64, err error) {
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return math.NaN(), math.NaN(), loadlab.Invalid("consensus", "GammaH2: sigma = %v, want finite and ≥ 0", sigma)
	}
	if len(s.lambda) < 2 {
		return math.NaN(), 0, nil
	}
	lo := 1 / s.LambdaMax()
	hi := min(1/s.Lambda2(), 2/s.LambdaMax())
	// g(lo) ≥ 0 and g < 0 on (root, hi); bisect until the bracket no
	// longer shrinks in floating point.
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if s.G(mid) >= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	gamma = lo
	rho, err = s.Rho(Case2, gamma, sigma)
	return gamma, rho, err
}

// GammaTradeoff returns the minimiser of the Problem B trade-off
// ρ₂T(γ) + c/γ (spec §5.2): variance per unit time against the
// communication cost c/γ of updating every γ time units. The objective
// is strictly convex on (0, 2/λ_n); its derivative
// σ² Σ_{i≥2} 1/(2 − γλ_i)² − c/γ² is bisected. It returns an error
// for c not finite and positive or σ not positive.
func (s *Spectral) GammaTradeoff(c, sigma float64) (float64, error) {
	if !(c > 0) || math.IsInf(c, 1) {
		return math.NaN(), loadlab.Invalid("consensus", "cost c = %v: want finite and > 0", c)
	}
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return math.NaN(), loadlab.Invalid("consensus", "sigma = %v: want finite and > 0", sigma)
	}
	if len(s.lambda) < 2 {
		return math.Inf(1), nil
	}
	v := sigma * sigma
	deriv := func(gamma float64) float64 {
		var sum float64
		for _, l := range s.lambda[1:] {
			d := 2 - gamma*l
			sum += 1 / (d * d)
		}
		return v*sum - c/(gamma*gamma)
	}
	lo, hi := 0.0, s.StabilityBound()
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if deriv(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, nil
}

// Curve samples ρ of traffic t over the stable range: points values of
// γ = 2/λ_n · (i + ½)/points, i = 0..points−1 (midpoints, so both ends,
// where ρ₂ is infinite, are avoided), with the matching ρ. It returns an
// error wrapping loadlab.ErrInvalid for points < 1, an unknown t, or σ
// negative or not finite, and ErrTooLarge for more points than memory.
func (s *Spectral) Curve(t Traffic, sigma float64, points int) (gammas, rhos []float64, err error) {
	if points < 1 {
		return nil, nil, loadlab.Invalid("consensus", "Curve: points = %d, want ≥ 1", points)
	}
	if err := validateRhoArgs(t, 1, sigma); err != nil {
		return nil, nil, err
	}
	if err := size.Check("consensus", "Curve: points", points, 16); err != nil {
		return nil, nil, err
	}
	b := s.StabilityBound()
	gammas = make([]float64, points)
	rhos = make([]float64, points)
	for i := range points {
		gammas[i] = b * (float64(i) + 0.5) / float64(points)
		rhos[i], _ = s.Rho(t, gammas[i], sigma) // +Inf within rounding of 2/λ_n
	}
	return gammas, rhos, nil
}
