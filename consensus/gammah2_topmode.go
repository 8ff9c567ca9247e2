package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
)

// Top-mode control variate of EstimateGammaH2's g (spec throttlers.md
// §12.15): it is used on graphs of 3 to topModeMaxOrder − 1 nodes; the
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
	scale float64 // (n − 1)/(n − 2): the other modes' weights sum to n − 1 − c
	c     map[*lanczos.Probe]float64
	q     []float64
}

// newTopMode computes u by the Lanczos process of L on 1⊥ from a fixed
// start (so u does not depend on the probes), or returns nil outside
// the sizes where it is used.
func newTopMode(m *lapmat.Matrix) (*topMode, error) {
	n := m.N
	if n < 3 || n >= topModeMaxOrder {
		return nil, nil
	}
	if err := size.Check("consensus", "EstimateGammaH2: top-mode Lanczos vectors, n", n, 8*(lanczos.Vectors+3)); err != nil {
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
	tm := &topMode{u: make([]float64, n), theta: dense.Dot(y, ly), scale: float64(n-1) / float64(n-2),
		c: map[*lanczos.Probe]float64{}, q: make([]float64, n)}
	if !(tm.theta > 0) {
		return nil, nil
	}
	m.Scatter(tm.u, y)
	return tm, nil
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

// adjust returns a probe's g at γ, the bracket {mid, half}, with the
// control variate β(c − 1) taken off the midpoint, β = scale·φ(θ),
// φ(λ) = (1 − γλ)/(λ(2 − γλ)²) the top mode's term of g, and the
// rounding of the subtraction added to the half-width. At γ*_H2, where
// Σ_{i≥2} φ(λ_i) = 0, scale·φ(θ) = φ(θ) − (the mean of φ over the other
// n − 2 modes) when θ = λ_n: the coefficient of c in g once the other
// weights' sum n − 1 − c is accounted for (spec throttlers.md §12.15).
func (tm *topMode) adjust(v [2]float64, gamma float64, p *lanczos.Probe) [2]float64 {
	t := gamma * tm.theta
	beta := tm.scale * (1 - t) / (tm.theta * (2 - t) * (2 - t))
	c := tm.weight(p)
	v[1] += lanczos.RoundRel * (math.Abs(v[0]) + math.Abs(beta)*(c+1))
	v[0] -= beta * (c - 1)
	return v
}
