package consensus

import (
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
)

// WorstServerCycle is the update cycle that minimises the worst
// server's dispersion (Spectral.GammaWorstServer, spec throttlers.md
// §13.11), beside the H2-optimal cycle.
type WorstServerCycle struct {
	// Gamma minimises max_j ρ₂,j(γ) over the stable range, to the last
	// bits of the bisection bracket [Lo, Hi] (adjacent floats, or as
	// close as the sign of the subgradient can be told).
	Gamma, Lo, Hi float64
	// Worst lists the servers whose ρ₂,j at Gamma lies within 1e-9
	// relative of the largest, ascending: two or more where the minimiser
	// is a crossing of two servers' curves, every server on a
	// vertex-transitive graph.
	Worst []int
	// WorstRho is max_j ρ₂,j(Gamma) and Rho2 the total ρ₂(Gamma) (noise σ).
	WorstRho, Rho2 float64
	// GammaH2 is γ*_H2, WorstH2 the worst server there (the lowest id of
	// the largest ρ₂,j), WorstRhoH2 its ρ₂,j and Rho2H2 = ρ₂(γ*_H2).
	GammaH2    float64
	WorstH2    int
	WorstRhoH2 float64
	Rho2H2     float64
	// Iterations counts the bisection steps (one O(n²) product each).
	Iterations int
}

// worstTieRel is the relative distance from the largest ρ₂,j within
// which a server counts among the worst: far above the rounding of the
// dense eigenvectors' sums, far below differences that matter.
const worstTieRel = 1e-9

// GammaWorstServer returns the update cycle that minimises the worst
// server's random-walk dispersion (spec throttlers.md §13.11)
//
//	min over 0 < γ < 2/λ_n of  F(γ) = max_j ρ₂,j(γ),   ρ₂,j(γ) = σ² Σ_{i≥2} v_ij² f(γλ_i),
//
// f(t) = 1/(t(2 − t)) and v_i the eigenvectors of L (spec §4.3, §4.4),
// with the worst servers there and at γ*_H2: the worst server changes
// with γ, and the cycle best for the total ρ₂ is not the one best for
// the worst server. Each ρ₂,j is strictly convex (f is, and the weights
// v_ij² are not all 0), so F is strictly convex; every ρ₂,j decreases
// for γ ≤ 1/λ_n and increases for γ ≥ 1/λ₂, so the minimiser lies in
// [1/λ_n, min{1/λ₂, 2/λ_n}), as γ*_H2 does (spec §5.1 fact 2). The
// derivative of the largest ρ₂,j is a subgradient of F, so bisection on
// its sign brackets the minimiser to the last bits whether it is a
// smooth minimum of one server's curve or a crossing of two (about 60
// steps, each one product of the n × (n − 1) matrix of v_ij² with the
// vector f(γλ_i), O(n²)).
//
// Only the random walk (Case 2) has this minimiser: every term of
// ρ₁,j = σ² Σ v_ij² 2/(2 − γλ_i) and of ρ₂T,j = γρ₂,j increases with γ,
// so under those models every server, like the total (spec §5.1
// fact 4), is best served by the shortest cycle.
//
// It needs the eigenvectors (one dense decomposition, computed once and
// shared with NodalRho). It returns an error wrapping loadlab.ErrTooLarge
// above spectral.DenseMaxNodes nodes (EstimateNodalH2 estimates the
// nodal values at a given γ, with intervals), loadlab.ErrInvalid for σ
// negative or not finite, a single node, or a Spectral from SpectralFrom
// (no eigenvectors), and loadlab.ErrIllConditioned when the minimiser
// lies within the error bound of λ_n of the stability limit.
func (s *Spectral) GammaWorstServer(sigma float64) (WorstServerCycle, error) {
	var out WorstServerCycle
	n := len(s.lambda)
	if n > spectral.DenseMaxNodes {
		return out, loadlab.TooLarge("consensus", "GammaWorstServer: n = %d nodes > spectral.DenseMaxNodes = %d (the dense eigenvectors, O(n³)); EstimateNodalH2 estimates the nodal values at a given γ with their intervals", n, spectral.DenseMaxNodes)
	}
	if err := validateRhoArgs(Case2, 1, sigma); err != nil {
		return out, err
	}
	if n < 2 {
		return out, loadlab.Invalid("consensus", "GammaWorstServer: a single node has no update cycle to choose")
	}
	if s.g == nil {
		return out, loadlab.Invalid("consensus", "GammaWorstServer: a Spectral from SpectralFrom has no eigenvectors (use NewSpectral)")
	}
	if err := size.CheckDense("consensus", "consensus: GammaWorstServer", n, 1); err != nil {
		return out, err
	}
	s.once.Do(s.vectors)
	if s.verr != nil {
		return out, s.verr
	}
	w := newNodalWeights(s)
	var err error
	if out.GammaH2, _, err = s.GammaH2(sigma); err != nil {
		return out, err
	}
	v := sigma * sigma
	rho := w.eval(out.GammaH2)
	out.WorstH2 = argmaxFloat(rho)
	out.WorstRhoH2, out.Rho2H2 = v*rho[out.WorstH2], v*dense.Sum(rho)
	out.Lo, out.Hi, out.Iterations = w.bisect(1/s.LambdaMax(), min(1/s.Lambda2(), s.StabilityBound()))
	out.Gamma = out.Lo + (out.Hi-out.Lo)/2
	if err := s.unstable(out.Gamma); err != nil {
		return out, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "GammaWorstServer: the minimiser γ = %v lies within the error bound of λ_n of the stability limit %v", out.Gamma, s.StabilityBound())
	}
	rho = w.eval(out.Gamma)
	top := slices.Max(rho)
	for j, r := range rho {
		if r >= top*(1-worstTieRel) {
			out.Worst = append(out.Worst, j)
		}
	}
	out.WorstRho, out.Rho2 = v*top, v*dense.Sum(rho)
	return out, nil
}

// argmaxFloat returns the lowest index of a maximum of x.
func argmaxFloat(x []float64) int {
	j := 0
	for i, v := range x {
		if v > x[j] {
			j = i
		}
	}
	return j
}

// nodalWeights evaluates the nodal dispersions ρ₂,j(γ) (σ = 1) as the
// product of the n × (n − 1) matrix of squared eigenvector entries v_ij²
// (i ≥ 2) with the vector f(γλ_i).
type nodalWeights struct {
	lambda []float64 // λ₂ … λ_n
	w      []float64 // row j: v_ij², i = 2..n
	f, rho []float64
}

func newNodalWeights(s *Spectral) *nodalWeights {
	n := len(s.lambda)
	raw := s.vecs.RawMatrix()
	nw := &nodalWeights{lambda: s.lambda[1:], w: make([]float64, n*(n-1)), f: make([]float64, n-1), rho: make([]float64, n)}
	for j := range n {
		row := raw.Data[j*raw.Stride+1 : j*raw.Stride+n]
		dst := nw.w[j*(n-1) : (j+1)*(n-1)]
		for i, x := range row {
			dst[i] = x * x
		}
	}
	return nw
}

// eval returns ρ₂,j(γ) for every j (σ = 1) in its own buffer.
func (nw *nodalWeights) eval(gamma float64) []float64 {
	for i, l := range nw.lambda {
		nw.f[i] = rhoTerm(Case2, gamma, l) // spec §4.4 R2
	}
	m := len(nw.f)
	for j := range nw.rho {
		nw.rho[j] = dense.Dot(nw.w[j*m:(j+1)*m], nw.f)
	}
	return nw.rho
}

// slope returns dρ₂,j/dγ = Σ_i v_ij² λ_i f′(γλ_i) for server j (σ = 1),
// f′(t) = −2(1 − t)/(t(2 − t))².
func (nw *nodalWeights) slope(j int, gamma float64) float64 {
	m := len(nw.lambda)
	row := nw.w[j*m : (j+1)*m]
	var s float64
	for i, l := range nw.lambda {
		t := gamma * l
		d := t * (2 - t)
		s += row[i] * l * (-2 * (1 - t) / (d * d))
	}
	return s
}

// bisect brackets the minimiser of F = max_j ρ₂,j on [lo, hi], where
// every subgradient is ≤ 0 at lo and ≥ 0 near hi, by the sign of the
// slope of the largest ρ₂,j (a subgradient of F) at the midpoint, until
// the bracket no longer shrinks.
func (nw *nodalWeights) bisect(lo, hi float64) (a, b float64, steps int) {
	for steps = 0; steps < 200; steps++ {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		d := nw.slope(argmaxFloat(nw.eval(mid)), mid)
		switch {
		case d > 0:
			hi = mid
		case d < 0:
			lo = mid
		default:
			return mid, mid, steps + 1
		}
	}
	return lo, hi, steps
}
