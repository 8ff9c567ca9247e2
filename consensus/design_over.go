package consensus

import (
	"errors"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
)

// overObjective is the Case 2 over-throttling objective of
// DesignOverWeights (spec deployed §4.4): noise σ and mean excess per
// server μ, with a buffer for the weights c_i of the gradient.
type overObjective struct {
	sigma, mu float64
	c         []float64
}

// DesignOverWeights chooses link weights on the candidate links of p
// (Problem A of throttlers §5.2: w ≥ 0, Σ_e Cost_e w_e ≤ Budget, at
// update cycle p.Gamma) that minimise the expected over-throttling of
// Case 2 at noise σ and aggregate excess demand excess (spec deployed
// §4.4), E[O | r_total − l_total = excess] = Σ_i G(μ, √ρ₂,ᵢ(w)) −
// excess₊, beside DesignWeights, which minimises ρ₂ = Σ_i ρ₂,ᵢ.
//
// The objective is not convex in w, so the result is a local minimum
// without a certificate: the method is DesignWeights' spectral projected
// gradient, started from DesignWeights' H2 optimum, with the gradient
// ∂/∂w_e = σ²/2 Σ_i c_i [γ((Q b_e)_i)² − ((L† b_e)_i)²/γ],
// c_i = φ(μ/s_i)/(2 s_i), and it stops when the Frank–Wolfe gap
// max_{s∈S} ∇F(w)ᵀ(w − s) (zero exactly at a first-order stationary
// point) is at most Tol·Value. In the result, Value is the expected
// over-throttling, Gap that stationarity gap, Lower NaN (no bound).
//
// Errors: those of DesignWeights, except its ErrNotConverged (the H2
// design that stopped short is still a valid start); an error wrapping
// loadlab.ErrInvalid for p.Floor ≠ 0 (the variant has no
// over-throttling form), σ not finite and positive, or excess not
// finite; and, when the over-throttling solver stops short, its best
// design with an error wrapping ErrNotConverged and its Status.
func DesignOverWeights(p WeightProblem, sigma, excess float64, s *DesignSettings) (*WeightDesign, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if p.Floor != 0 {
		return nil, loadlab.Invalid("consensus", "DesignOverWeights: WeightProblem.Floor = %v, want 0 (the over-throttling design is of Case 2)", p.Floor)
	}
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return nil, loadlab.Invalid("consensus", "DesignOverWeights: sigma = %v, want finite and > 0", sigma)
	}
	if err := validateExcess(excess); err != nil {
		return nil, err
	}
	h2, err := DesignWeights(p, s)
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return nil, err
	}
	set := s.withDefaults()
	e := newEvaluator(p)
	e.over = &overObjective{sigma: sigma, mu: excess / float64(p.Nodes), c: make([]float64, p.Nodes)}
	w := slices.Clone(h2.Weights)
	d := &WeightDesign{}
	rec := e.spg(w, set, d)
	d.Status, d.Iterations = rec.Status, rec.Iter
	d.Weights = w
	d.Lower = math.NaN()
	d.Value -= max(excess, 0) // E O = F − excess₊ (spec deployed §4.2)
	b := p.builder()
	for i, l := range p.Links {
		if w[i] > 0 {
			mustSet(b, l.U, l.V, w[i])
		}
	}
	d.Graph = b.Build()
	return d, rec.Err("consensus", "DesignOverWeights: relative stationarity gap %.3g, want ≤ %g", d.Gap/d.Value, set.Tol)
}

// overValue evaluates F(w) = Σ_i G(μ, s_i) and its gradient (spec
// deployed §4.4) with s_i² = ρ₂,ᵢ = σ²/2 [L†_ii/γ + Q_ii − 1/(2n)]
// (throttlers §4.4 in partial fractions); nil outside the domain.
func (e *evaluator) overValue(w []float64) *evalResult {
	gamma, o, n := e.p.Gamma, e.over, e.n
	e.laplacian(w)
	dense.Shift(e.a, e.l, 2, gamma)
	if !e.inverse(&e.qinv, e.a) {
		return nil // unstable
	}
	alpha := dense.Lift(e.a, e.l)
	if !e.inverse(&e.kinv, e.a) {
		return nil // disconnected
	}
	v := o.sigma * o.sigma
	var f dense.CompensatedSum
	for i := range n {
		li := e.kinv.At(i, i) - 1/(alpha*float64(n)) // L†_ii
		rho := v / 2 * (li/gamma + e.qinv.At(i, i) - 0.5/float64(n))
		si := math.Sqrt(max(rho, 0))
		f.Add(positivePart(o.mu, si))
		z := o.mu / si
		o.c[i] = math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) / (2 * si)
	}
	kraw, qraw := e.kinv.RawSymmetric(), e.qinv.RawSymmetric()
	at := func(raw []float64, stride, i, j int) float64 {
		if i > j {
			i, j = j, i
		}
		return raw[i*stride+j]
	}
	for q, lk := range e.p.Links {
		var g float64
		for i := range n {
			kb := at(kraw.Data, kraw.Stride, i, lk.U) - at(kraw.Data, kraw.Stride, i, lk.V)
			qb := at(qraw.Data, qraw.Stride, i, lk.U) - at(qraw.Data, qraw.Stride, i, lk.V)
			g += o.c[i] * (gamma*qb*qb - kb*kb/gamma)
		}
		e.grad[q] = v / 2 * g
	}
	return &evalResult{f: f.Value(), grad: e.grad}
}
