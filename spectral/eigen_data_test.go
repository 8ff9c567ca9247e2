package spectral_test

import (
	"testing"
	"time"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/spectral"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPowerGridBrackets: on the US power grid (4941 nodes, above the
// Cholesky range) both default brackets are Lanczos brackets with
// relative width ≤ 1e-3, and the λ_n bracket decides γ*_H2 = 0.0992594
// (2/γ*_H2 = 20.149, 0.2 % above λ_n ≈ 20.110). The brackets must hold
// the dense eigenvalues, computed once by Spectrum (far too slow for the
// suite; backward error ≲ 1e-12 ‖L‖ ≈ 2e-11): λ₂ = 7.592122114e-4,
// λ_n = 20.10961638 (10 digits printed, hence the 1e-9 relative slack).
func TestPowerGridBrackets(t *testing.T) {
	g := datasets.PowerGrid().Graph
	t0 := time.Now()
	bn, err := spectral.LambdaMaxBracket(g, nil)
	require.NoError(t, err)
	b2, err := spectral.Lambda2Bracket(g, nil)
	require.NoError(t, err)
	t.Logf("λ_n %v (%v, %d steps), λ₂ %v (%v, %d solves), %v", bn, bn.Cert, bn.Steps, b2, b2.Cert, b2.Steps, time.Since(t0))
	for _, b := range []spectral.Bracket{bn, b2} {
		assert.Equal(t, spectral.CertLanczos, b.Cert, "bracket %v", b)
		assert.LessOrEqual(t, b.Width(), 1e-3*b.Lo, "bracket %v: relative width", b)
	}
	for _, c := range []struct {
		b    spectral.Bracket
		want float64
	}{{b2, 7.592122114e-4}, {bn, 20.10961638}} {
		assert.True(t, c.b.Lo <= c.want*(1+1e-9) && c.want*(1-1e-9) <= c.b.Hi, "bracket %v misses the dense eigenvalue %v", c.b, c.want)
	}
	gamma := 0.0992594
	assert.Less(t, bn.Hi, 2/gamma, "λ_n bracket %v does not certify γ*_H2 = %v < 2/λ_n", bn, gamma)
}
