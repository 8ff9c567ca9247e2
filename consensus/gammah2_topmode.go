package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
)

// Top-mode control variate of EstimateGammaH2's g and ρ₂ (spec
// throttlers.md §12.15): it is used on graphs of 3 to topModeMaxOrder − 1 nodes; the
// top Ritz vector takes at most topModeSteps Lanczos steps, stopping
// earlier at an invariant subspace or once the top Ritz value moves by
// less than topModeSettle (relative) over topModeCheck steps.
const (
	topModeMaxOrder = 1 << 17
	topModeSteps    = 64
	topModeCheck    = 4
	topModeSettle   = 1e-9
)

// topMode is the control variate of the top mode: a fixed unit vector
// u ⊥ 1 (graph order) close to the top eigenvector of L, its Rayleigh
// quotient θ = uᵀLu, and each probe's weight c = (n − 1)(uᵀv)² on it,
// v = Pq/‖Pq‖, whose mean is exactly 1 (E[(n − 1)vvᵀ] = P).
type topMode struct {
	u     []float64
	theta float64
	lbar  float64 // (tr L − θ)/(n − 2), the mean of the other eigenvalues
	// matvecs counts the products with L that computing u took (two
	// passes of the Lanczos process and the Rayleigh quotient).
	matvecs int
	c       map[*lanczos.Probe]float64
	q       []float64
}

// newTopMode computes u by the Lanczos process of L on 1⊥ from a fixed
// start (so u does not depend on the probes), or returns nil outside
// the sizes where it is used.
func newTopMode(m *lapmat.Matrix) (*topMode, error) {
	n := m.N
	if n < 3 || n >= topModeMaxOrder {
		return nil, nil
	}
	// The Lanczos process's vectors, and z, y, Ly, u and the probe.
	if err := size.Check("consensus", "EstimateGammaH2: top-mode Lanczos vectors, n", n, 8*(lanczos.Vectors+5)); err != nil {
		return nil, err
	}
	z := make([]float64, n)
	for i := range z {
		z[i] = 1 / math.Sqrt(float64(n))
	}
	apply := func(dst, src []float64) error {
		lapmat.ParallelBlocks(lapmat.NumBlocks(n), func(b0, b1 int) {
			for b := b0; b < b1; b++ {
				lo, hi := lapmat.BlockRows(b, n)
				m.Rows(dst, src, nil, lo, hi)
			}
		})
		return nil
	}
	lz := lanczos.New(n, apply, z, [2]uint64{0x70b, 0x3d})
	last := 0.0
	for lz.Steps() < min(topModeSteps, n-1) && !lz.Done {
		if err := lz.Step(); err != nil {
			return nil, err
		}
		if k := lz.Steps(); k%topModeCheck == 0 {
			th := lz.RitzTop()
			if math.Abs(th-last) <= topModeSettle*th {
				break
			}
			last = th
		}
	}
	k := lz.Steps()
	y, err := lz.RitzVector(lz.RitzCoefficients(k, lz.RitzTop()), 0)
	if err != nil {
		return nil, err
	}
	lz.Deflate(y)
	dense.Normalize(y)
	ly := make([]float64, n)
	if err := apply(ly, y); err != nil {
		return nil, err
	}
	tm := &topMode{u: make([]float64, n), theta: dense.Dot(y, ly), matvecs: 2 * k,
		c: map[*lanczos.Probe]float64{}, q: make([]float64, n)}
	var trL float64
	for _, d := range m.Degrees() {
		trL += d
	}
	tm.lbar = (trL - tm.theta) / float64(n-2)
	if !(tm.theta > 0 && tm.lbar > 0) {
		return nil, nil
	}
	m.Scatter(tm.u, y)
	return tm, nil
}

// startTopMode sets the sampler's top-mode control variate (nil outside
// its sizes), counting its products with L.
func (hs *h2Sampler) startTopMode() error {
	top, err := newTopMode(hs.mat)
	if err != nil {
		return err
	}
	hs.top = top
	if top != nil {
		hs.matvecs = top.matvecs
	}
	return nil
}

// weight returns the probe's weight c = (n − 1)(uᵀPq)²/‖Pq‖² on u,
// computed once per probe.
func (tm *topMode) weight(p *lanczos.Probe) float64 {
	if c, ok := tm.c[p]; ok {
		return c
	}
	lanczos.ProbeVector(tm.q, p.Seed)
	d := dense.Dot(tm.u, tm.q)
	c := float64(len(tm.u)-1) * d * d / dense.Dot(tm.q, tm.q)
	tm.c[p] = c
	return c
}

// topBeta returns the coefficient β of the control variate of g (which
// = sampleG) or ρ₂ at γ: f(θ) − f(λ̄), f the term of one mode in a
// probe's value (modeTerm) and λ̄ = (tr L − θ)/(n − 2) the mean of the
// other eigenvalues. A probe's value is Σ_k f(λ_k)w_k with the weights
// summing to n − 1, so a weight c on the top mode leaves n − 1 − c to
// the others; were their terms all f(λ̄), the value would be
// (n − 1)f(λ̄) + c(f(θ) − f(λ̄)), and the adjusted one constant. That is
// exact on a star (eigenvalues 1, n − 2 times, and n) and an
// approximation elsewhere; β is fixed (it depends on γ and the graph,
// not on the probes), so each adjusted value keeps its mean whatever β
// (spec throttlers.md §12.15).
func (hs *h2Sampler) topBeta(gamma float64, which int) float64 {
	return hs.modeTerm(gamma, hs.top.theta, which) - hs.modeTerm(gamma, hs.top.lbar, which)
}

// modeTerm returns the term of an eigenvalue λ in one probe's value of g
// (which = sampleG) or ρ₂ at γ (σ = 1; sampleH2): with t = γλ,
// (1 − t)/(λ(2 − t)²) and 1/(t(2 − t)), less the resistance part
// 1/(4λ) or 1/(2t) when tr L† is estimated apart (the probes' a are 0).
func (hs *h2Sampler) modeTerm(gamma, lambda float64, which int) float64 {
	t := gamma * lambda
	if which == sampleG {
		f := (1 - t) / (lambda * (2 - t) * (2 - t))
		if hs.res.on {
			f -= 1 / (4 * lambda)
		}
		return f
	}
	f := 1 / (t * (2 - t))
	if hs.res.on {
		f -= 1 / (2 * t)
	}
	return f
}

// adjust takes the control variate off the probes' values mid (their
// brackets' half-widths half, in the order of ps): each value less
// β(c_i − 1), c_i the probe's weight on u (mean exactly 1), with the
// rounding of the subtraction added to the half-width.
func (tm *topMode) adjust(mid, half []float64, ps []*lanczos.Probe, beta float64) {
	for i, p := range ps {
		c := tm.weight(p)
		half[i] += lanczos.RoundRel * (math.Abs(mid[i]) + math.Abs(beta)*(c+1))
		mid[i] -= beta * (c - 1)
	}
}
