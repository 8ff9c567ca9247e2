package consensus

import (
	"testing"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The quadratures of one probe agree with the dense quadratic forms
// (Pq)ᵀ(2I − γL)⁻ᵏ(Pq), k = 1, 2, and (Pq)ᵀL†(Pq) from the
// eigendecomposition, at γ up to the cap: with RelAcc = 1e-5 the
// quadratures settle to an estimated 1e-8 relative (quadRel·RelAcc), so
// 1e-6 leaves a factor 100 for the tail estimate's error.
func TestProbeQuadrature(t *testing.T) {
	g := graphtest.SparseWeighted(t, 80, 0.1, 1, 7)
	ev, vecs, err := spectral.SymEigen(graphtest.Must(g.Laplacian()), true)
	require.NoError(t, err)
	mat, err := lapmat.New(g)
	require.NoError(t, err)
	lmax := ev[len(ev)-1]
	set := (&laplacian.Settings{Tol: 1e-12}).Resolved()
	hs := newH2Sampler(g, mat, set, 1, spectral.Bracket{Lo: lmax, Hi: lmax}, estimate.TraceSettings{RelAcc: 1e-5})
	hs.gap = 0.05
	p := &lanczos.Probe{Seed: 12345}
	require.NoError(t, hs.runChunk([]*lanczos.Probe{p}, false))
	n := g.Order()
	q := make([]float64, n)
	lanczos.ProbeVector(q, p.Seed)
	var a float64
	proj := make([]float64, n)
	for i := 1; i < n; i++ {
		for u := range n {
			proj[i] += vecs.At(u, i) * q[u]
		}
		a += proj[i] * proj[i] / ev[i]
	}
	assert.InEpsilon(t, a, p.A, 1e-6, "a (solveA %v)", hs.solveA)
	for _, gamma := range []float64{0.5 / lmax, 1 / lmax, hs.gcap()} {
		var b, c float64
		for i := 1; i < n; i++ {
			d := 2 - gamma*ev[i]
			b += proj[i] * proj[i] / d
			c += proj[i] * proj[i] / (d * d)
		}
		gb, gc := p.Shifted(gamma, &hs.qw)
		assert.InEpsilon(t, b, gb, 1e-6, "γ = %v: b", gamma)
		assert.InEpsilon(t, c, gc, 1e-6, "γ = %v: c", gamma)
	}
}
