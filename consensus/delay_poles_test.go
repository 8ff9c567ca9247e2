package consensus

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDelayPolesHighPrecision checks the partial fractions of R_τ (spec
// throttlers.md §12.14) and the dense solve against the system solved in
// 256-bit arithmetic at 50 points of [0, a*), τ = 2, 7, 20. Every term
// of the partial fractions is positive on [0, a*), so their sum is
// within (τ + 3)ε of the exact sum of the rounded terms, each within a
// few ε of its value times a*/(a* − x), the condition number of
// 1/(a* − x) for the rounding of x and a*; the tolerance is 4(τ + 2)ε
// times a*/(a* − x), relative (measured: at most 7·10⁻¹⁵, τ = 7).
func TestDelayPolesHighPrecision(t *testing.T) {
	for _, tau := range []int{2, 7, 20} {
		dp := newDelayPoles(tau)
		w := newModeWork(tau)
		astar := delayLimit(tau)
		var worstP, worstD float64
		for i := range 50 {
			x := float64(i) / 50 * astar
			want := bigR(tau, x)
			got, _, ok := dp.r(x)
			assert.True(t, ok)
			dense, _, _ := w.r(x)
			tol := 4 * float64(tau+2) * 0x1p-52 * astar / (astar - x)
			assert.InEpsilon(t, want, got, tol, "τ = %d, x/a* = %v", tau, x/astar)
			worstP, worstD = max(worstP, math.Abs(got-want)/want), max(worstD, math.Abs(dense-want)/want)
		}
		t.Logf("τ = %d: largest relative error, partial fractions %.3g, dense solve %.3g", tau, worstP, worstD)
	}
}

// bigR returns R_τ(x) = d_0 from the mode's autocovariance system (spec
// deployed §2.3) solved by Gaussian elimination with partial pivoting in
// 256-bit arithmetic: a reference for both float64 forms.
func bigR(tau int, x float64) float64 {
	k := tau + 2
	prec := uint(256)
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	m := make([][]*big.Float, k)
	for i := range m {
		m[i] = make([]*big.Float, k+1)
		for j := range m[i] {
			m[i][j] = nf(0)
		}
		m[i][k] = nf(-0.5)
	}
	a := nf(x)
	m[0][0].Add(m[0][0], a)
	m[0][tau].Sub(m[0][tau], nf(2))
	for h := 1; h < k; h++ {
		m[h][h].Add(m[h][h], nf(1))
		m[h][h-1].Sub(m[h][h-1], nf(1))
		j := tau + 1 - h
		if j < 0 {
			j = -j
		}
		m[h][j].Add(m[h][j], a)
	}
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if new(big.Float).Abs(m[r][c]).Cmp(new(big.Float).Abs(m[p][c])) > 0 {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < k; r++ {
			f := new(big.Float).SetPrec(prec).Quo(m[r][c], m[c][c])
			for j := c; j <= k; j++ {
				m[r][j].Sub(m[r][j], new(big.Float).SetPrec(prec).Mul(f, m[c][j]))
			}
		}
	}
	xs := make([]*big.Float, k)
	for c := k - 1; c >= 0; c-- {
		s := new(big.Float).SetPrec(prec).Set(m[c][k])
		for j := c + 1; j < k; j++ {
			s.Sub(s, new(big.Float).SetPrec(prec).Mul(m[c][j], xs[j]))
		}
		xs[c] = s.Quo(s, m[c][c])
	}
	v, _ := xs[0].Float64()
	return v
}
