package consensus

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// NodalH2Estimate holds per-node stochastic estimates of the nodal H2
// measures ρ₁,j and ρ₂,j of a throttler (spec throttlers.md §4.3; Of
// gives ρ₂T,j = γρ₂,j), with their work and status.
type NodalH2Estimate struct {
	Rho1, Rho2 estimate.DiagEstimate
	LambdaMax  spectral.Bracket // proven bracket of λ_n, checked against 2/γ
	gamma      float64
}

// EstimateNodalH2 estimates the nodal H2 measures of the throttler th at
// noise level σ (spec throttlers.md §4.3)
//
//	ρ₁,j = 2σ² (P Q P)_jj,   ρ₂,j = σ²/2 [L†_jj/γ + (P Q P)_jj],   ρ₂T,j = γρ₂,j,
//
// Q = (2I − γL)⁻¹ and P the projection onto 1⊥ (the partial fractions of
// EstimateH2, node by node), each node with its own 95 % interval, by
// the diagonal estimator of estimate.Diagonals with two Chebyshev control
// variates, for 1/λ and for 1/(2 − γλ), on the same local moments: per
// probe q, y = L† q by a Laplacian solve and x = Q P q by conjugate
// gradients on the well conditioned 2I − γL. Probes are added until
// both largest relative half-widths are ≤ set.RelAcc (default
// estimate.DefaultDiagRelAcc, 1 %; about 10 probes on a random regular
// graph); where the probes that accuracy would take exceed MaxProbes
// (tori and other graphs with many small eigenvalues, at large n) it
// stops early with the partial estimate and an error wrapping
// loadlab.ErrNotConverged. γ is checked against the proven bracket of
// λ_n as in EstimateH2. NodalRho computes the same values exactly on
// graphs of up to spectral.DenseMaxNodes nodes. Errors are those of
// EstimateH2. It panics if th or src is nil.
func EstimateNodalH2(th *Throttler, sigma float64, set *estimate.TraceSettings, src rand.Source) (NodalH2Estimate, error) {
	if th == nil || src == nil {
		panic("consensus: EstimateNodalH2: nil throttler or rand.Source")
	}
	if err := th.validateLinear("EstimateNodalH2"); err != nil {
		return NodalH2Estimate{}, err
	}
	if err := validateRhoArgs(Case2, th.Gamma, sigma); err != nil {
		return NodalH2Estimate{}, err
	}
	e, err := estimateNodalH2(th.Graph, th.Gamma, set, src)
	e.gamma = th.Gamma
	v := sigma * sigma
	e.Rho1, e.Rho2 = scaleDiag(e.Rho1, v), scaleDiag(e.Rho2, v)
	return e, err
}

// Of returns the per-node estimates of traffic t's measure (Case1:
// ρ₁,j, Case2: ρ₂,j, Case2T: ρ₂T,j = γρ₂,j). It panics for an unknown
// Traffic.
func (e NodalH2Estimate) Of(t Traffic) estimate.DiagEstimate {
	switch t {
	case Case1:
		return e.Rho1
	case Case2:
		return e.Rho2
	case Case2T:
		return scaleDiag(e.Rho2, e.gamma)
	}
	panic(fmt.Sprintf("consensus: NodalH2Estimate.Of: unknown %v", t))
}

// scaleDiag multiplies every node's estimate by f ≥ 0.
func scaleDiag(d estimate.DiagEstimate, f float64) estimate.DiagEstimate {
	out := d
	out.Diag = make([]loadlab.Estimate, len(d.Diag))
	for j, x := range d.Diag {
		out.Diag[j] = scaleEst(x, f)
	}
	return out
}

// estimateNodalH2 is EstimateNodalH2 on g with cycle γ at σ = 1, after
// the throttler's checks.
func estimateNodalH2(g *wgraph.Graph, gamma float64, set *estimate.TraceSettings, src rand.Source) (NodalH2Estimate, error) {
	var out NodalH2Estimate
	if err := set.Validate(); err != nil {
		return out, err
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return out, loadlab.Invalid("consensus", "EstimateNodalH2: gamma = %v, want > 0 and finite", gamma)
	}
	_, solverSet := set.Resolved()
	if err := size.Check("consensus", "EstimateNodalH2: nodes", g.Order(), 8*24); err != nil {
		return out, err
	}
	s, err := laplacian.NewSolver(g, &solverSet, src)
	if err != nil {
		return out, err
	}
	if out.LambdaMax, err = h2Stable(g, gamma); err != nil {
		return out, err
	}
	sh := newShiftedCG(s.Operator(), gamma, s.Settings().Tol, s.Settings().MaxIter)
	d, err := estimate.Diagonals(g, out.LambdaMax.Hi, nodalTerms(s, sh, gamma), nodalCoef(gamma), set, src)
	if len(d) == 2 {
		out.Rho1, out.Rho2 = d[0], d[1]
	}
	return out, err
}

// nodalTerms returns the two functions of the nodal estimates: per probe
// q, y = L† q by a Laplacian solve, and x = Q P q by conjugate gradients
// on the well conditioned 2I − γL.
func nodalTerms(s *laplacian.Solver, sh *shiftedCG, gamma float64) []estimate.DiagTerm {
	return []estimate.DiagTerm{
		{F: func(x float64) float64 { return 1 / x },
			Apply: func(dst, x []float64) (int, error) { res, err := s.Solve(dst, x); return res.Iterations, err }},
		{F: func(x float64) float64 { return 1 / (2 - gamma*x) }, Apply: sh.solve, Project: true},
	}
}

// nodalCoef combines the terms into ρ₁,j = 2 (P Q P)_jj and
// ρ₂,j = ½ (L†_jj/γ + (P Q P)_jj).
func nodalCoef(gamma float64) [][]float64 {
	return [][]float64{{0, 2}, {1 / (2 * gamma), 0.5}}
}
