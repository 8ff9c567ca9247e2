package consensus

import (
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab/linalg"
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

func checkTraffic(t Traffic) error {
	if t < Case1 || t > Case2T {
		return fmt.Errorf("consensus: Traffic = %d: want Case1, Case2 or Case2T", int(t))
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
}

// NewSpectral computes the spectrum of g. It returns an error for a nil,
// empty or disconnected graph; a single node is allowed (every
// dispersion is then zero).
func NewSpectral(g *linalg.Graph) (*Spectral, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	l, err := linalg.Spectrum(g)
	if err != nil {
		return nil, err
	}
	return newSpectral(l)
}

// SpectralFrom returns the Spectral for given Laplacian eigenvalues
// (any order), for example a closed-form spectrum. The smallest value is
// taken to be λ₁ = 0 and replaced by exactly 0; an error is returned if
// it exceeds 1e-8·λ_n in magnitude, if another value is not positive
// (a disconnected graph), or a value is not finite.
func SpectralFrom(lambda []float64) (*Spectral, error) {
	return newSpectral(slices.Clone(lambda))
}

func newSpectral(l []float64) (*Spectral, error) {
	if len(l) == 0 {
		return nil, fmt.Errorf("consensus: empty spectrum")
	}
	for i, v := range l {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("consensus: eigenvalue %d = %v: want finite", i, v)
		}
	}
	slices.Sort(l)
	n := len(l)
	// The zero eigenvalue comes out of an eigensolver at rounding level,
	// ~n ε λ_n; 1e-8 λ_n leaves a wide margin and still rejects a
	// spectrum that is not a Laplacian's.
	if math.Abs(l[0]) > 1e-8*math.Abs(l[n-1]) {
		return nil, fmt.Errorf("consensus: smallest eigenvalue %v is not 0: not a Laplacian spectrum", l[0])
	}
	l[0] = 0
	if n > 1 && !(l[1] > 1e-12*l[n-1]) {
		return nil, fmt.Errorf("consensus: λ₂ = %v ≤ 1e-12·λ_n: the graph is disconnected", l[1])
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

// Kirchhoff returns K_f = n Σ_{i≥2} 1/λ_i (spec §2).
func (s *Spectral) Kirchhoff() float64 {
	var t float64
	for _, l := range s.lambda[1:] {
		t += 1 / l
	}
	return float64(len(s.lambda)) * t
}

// Factor returns the deterministic contraction factor per step
// ς(γ) = max{|1 − γλ₂|, |1 − γλ_n|} (spec §4.6).
func (s *Spectral) Factor(gamma float64) float64 {
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
// For γ ≥ 2/λ_n it returns +Inf and an error wrapping ErrUnstable. It
// returns an error for γ not finite and positive, σ negative or not
// finite, or an unknown t.
func (s *Spectral) Rho(t Traffic, gamma, sigma float64) (float64, error) {
	if err := checkRhoArgs(t, gamma, sigma); err != nil {
		return math.NaN(), err
	}
	if gamma*s.LambdaMax() >= 2 {
		return math.Inf(1), fmt.Errorf("%w: γ = %v ≥ 2/λ_n = %v", ErrUnstable, gamma, s.StabilityBound())
	}
	var sum float64
	for _, l := range s.lambda[1:] {
		u := gamma * l
		switch t {
		case Case1: // spec §4.4 R1
			sum += 2 / (2 - u)
		case Case2: // spec §4.4 R2
			sum += 1 / (u * (2 - u))
		case Case2T: // spec §4.4 Case 2T
			sum += 1 / (l * (2 - u))
		}
	}
	return sigma * sigma * sum, nil
}

func checkRhoArgs(t Traffic, gamma, sigma float64) error {
	if err := checkTraffic(t); err != nil {
		return err
	}
	if err := checkGamma(gamma); err != nil {
		return err
	}
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return fmt.Errorf("consensus: sigma = %v: want finite and ≥ 0", sigma)
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
	if err := checkRhoArgs(Case2, gamma, sigma); err != nil {
		return math.NaN(), math.NaN(), err
	}
	n := float64(len(s.lambda))
	kf := s.Kirchhoff()
	v := sigma * sigma
	lo = max(v*kf/(2*gamma*n), v*(n-1))
	hi = math.Inf(1)
	if u := gamma * s.LambdaMax(); u < 2 {
		hi = v * kf / (gamma * n * (2 - u))
	}
	return lo, hi, nil
}

// G returns g(γ) = Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²), whose root is
// the H2-optimal cycle (spec §5.1 fact 2); dρ₂/dγ = −2σ² g(γ)/γ².
func (s *Spectral) G(gamma float64) float64 {
	var sum float64
	for _, l := range s.lambda[1:] {
		u := gamma * l
		sum += (1 - u) / (l * (2 - u) * (2 - u))
	}
	return sum
}

// GammaH2 returns the update cycle γ*_H2 that minimises ρ₂ (spec §5.1,
// Problem B) and ρ₂(γ*_H2) for σ = 1 (ρ₂ scales with σ²). The root of g
// is bracketed by [1/λ_n, min{1/λ₂, 2/λ_n}) (spec §5.1 fact 2) and found
// by bisection to the last bit. A single node returns (NaN, 0).
func (s *Spectral) GammaH2() (gamma, rho float64) {
	if len(s.lambda) < 2 {
		return math.NaN(), 0
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
	rho, _ = s.Rho(Case2, gamma, 1)
	return gamma, rho
}

// GammaTradeoff returns the minimiser of the Problem B trade-off
// ρ₂T(γ) + c/γ (spec §5.2): variance per unit time against the
// communication cost c/γ of updating every γ time units. The objective
// is strictly convex on (0, 2/λ_n); its derivative
// σ² Σ_{i≥2} 1/(2 − γλ_i)² − c/γ² is bisected. It returns an error
// for c not finite and positive or σ not positive.
func (s *Spectral) GammaTradeoff(c, sigma float64) (float64, error) {
	if !(c > 0) || math.IsInf(c, 1) {
		return math.NaN(), fmt.Errorf("consensus: cost c = %v: want finite and > 0", c)
	}
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return math.NaN(), fmt.Errorf("consensus: sigma = %v: want finite and > 0", sigma)
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
// where ρ₂ is infinite, are avoided), with the matching ρ. It panics if
// points < 1, t is unknown, or σ is negative or not finite.
func (s *Spectral) Curve(t Traffic, sigma float64, points int) (gammas, rhos []float64) {
	if points < 1 {
		panic(fmt.Sprintf("consensus: Curve: points = %d", points))
	}
	if err := checkTraffic(t); err != nil {
		panic(err)
	}
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		panic(fmt.Sprintf("consensus: Curve: sigma = %v", sigma))
	}
	b := s.StabilityBound()
	gammas = make([]float64, points)
	rhos = make([]float64, points)
	for i := range points {
		gammas[i] = b * (float64(i) + 0.5) / float64(points)
		rhos[i], _ = s.Rho(t, gammas[i], sigma)
	}
	return gammas, rhos
}
