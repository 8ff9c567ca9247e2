package dual

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestSolveStatusAndPartialResult: a run stopped short returns its
// partial result, its Status and ErrNotConverged.
func TestSolveStatusAndPartialResult(t *testing.T) {
	// A run stopped short returns its partial result, its Status and
	// ErrNotConverged; with Fixed the same budget is not an error.
	p := must(Quadratic(item13(), 1, 4))
	res, err := Solve(p, &Settings{Step: 0.05, MaxIter: 3})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, res)
	assert.Equal(t, loadlab.IterationLimit, res.Status)
	assert.Equal(t, 3, res.Iter)
	assert.LessOrEqual(t, res.Best, res.Upper)
	res, err = Solve(p, &Settings{Step: 0.05, MaxIter: 3, Fixed: true})
	require.NoError(t, err)
	assert.Equal(t, loadlab.IterationLimit, res.Status)
	// Fixed runs every step even after the certificate closed.
	res, err = Solve(p, &Settings{MaxIter: 5000, Fixed: true, RecordDual: true})
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, res.Status)
	assert.Equal(t, 5000, res.Iter)
	assert.Len(t, res.Dual, 5000)
}

// TestGuaranteeStatesRule: the guarantee names the rule and its bound.
func TestGuaranteeStatesRule(t *testing.T) {
	p := must(Quadratic(item13(), 1, 4))
	res := must(Solve(p, nil))
	assert.Contains(t, res.Guarantee(), "Accelerated rule")
	assert.Contains(t, res.Guarantee(), "Beck–Teboulle")
	res = must(Solve(p, &Settings{Step: 0.05, MaxIter: 100, Fixed: true}))
	assert.Contains(t, res.Guarantee(), "Theorem III.3")
	assert.Contains(t, res.Guarantee(), fmt.Sprintf("%.3g", res.Bound))
	assert.NotContains(t, res.Guarantee(), "FastControl")
	res = must(Solve(p, &Settings{Step: 0.05, MaxIter: 100, Fixed: true, FastControl: &FastControl{Gamma: 10}}))
	assert.Contains(t, res.Guarantee(), "a reference only")
}

func TestSolveDefaults(t *testing.T) {
	// nil settings on a smooth problem: the accelerated rule and the
	// certified stopping rule at relative gap 10⁻⁶; the certificate must
	// hold against the primal reference.
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	res, err := Solve(p, nil)
	require.NoError(t, err)
	ref, err := Primal(p, nil)
	require.NoError(t, err)
	assert.Equal(t, Accelerated, res.Rule)
	assert.Equal(t, loadlab.Success, res.Status)
	slack := 1e-12 // the primal certificate is below 1e-14 (TestItem23EndToEnd)
	assert.LessOrEqual(t, res.Best, ref.Value+slack)
	assert.GreaterOrEqual(t, res.Upper, ref.Value-slack)
	assert.LessOrEqual(t, res.Gap(), 1e-6*res.Upper)
	assert.LessOrEqual(t, ref.Value-res.Best, res.Bound+slack, "FISTA bound")
	// G of (18) by hand: (Cᵀ A) = (1.6, 1.55, 1.35) for item 13's network.
	assert.InDelta(t, math.Sqrt(1.6*1.6+1.55*1.55+1.35*1.35), res.G, tol) // tol: a few roundings

	// The theorem step when Eps is given: α = ε/G².
	res = solvePartial(t, p, &Settings{Eps: 1e-3, MaxIter: 20000})
	assert.Equal(t, Constant, res.Rule)
	assert.InDelta(t, step(1e-3, res.G), res.Step, 0)
	assert.LessOrEqual(t, ref.Value-res.Best, res.Bound+1e-12)
}

func TestTwoNodeOptimumAvoidsUncontrollableOverload(t *testing.T) {
	// Spec §2 / §8 items 4–5: the greedy heuristic ends at x = (1, 0) with
	// S_b = 0.9, an overload of 0.2 that node b cannot remove. The
	// coordinated optimum of P1 with a steep overload price (c = 1000)
	// throttles node a instead: its overload is at most the price-limited
	// μ_b/c, and its cost is lower than that of the greedy point.
	for _, cba := range []float64{0, 0.1, 0.3, 0.5, 0.59} {
		nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, cba, 1 - cba}), []float64{0.7, 0.7})
		require.NoError(t, err)
		p, err := Quadratic(nw, 1, 1000)
		require.NoError(t, err)
		ref, err := Primal(p, nil)
		require.NoError(t, err)
		greedy := must(p.Reduced([]float64{1, 0}))
		assert.Less(t, ref.Value, greedy, "C_ba=%v", cba)
		over := ref.S[1] - nw.T[1]
		assert.Less(t, over, 0.01, "C_ba=%v: overload at b", cba)
		// KKT: μ_b = c (S_b − T_b)₊. On the Newton path Mu is h_b'(S_b*)
		// (PrimalResult.Mu), so μ_b/c is (S_b − T_b)₊ up to two roundings
		// of a number below 0.01; 1e-12 is far above that.
		assert.InDelta(t, ref.Mu[1]/1000, math.Max(0, over), 1e-12)
		res, err := Solve(p, &Settings{Step: 1e-3, MaxIter: 100000, Tol: 1e-9})
		require.NoError(t, err)
		// The dual run certifies a relative gap Tol = 1e-9; 1e-8 leaves a
		// margin for the primal reference's own 1e-9 certificate.
		assert.InDelta(t, ref.Value, res.Best, 1e-8*(1+ref.Value), "C_ba=%v", cba)
	}
}
