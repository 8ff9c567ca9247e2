package dual

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestProblemErrors(t *testing.T) {
	nw := item13()
	f := []Cost{QuadraticX{1, 2}, QuadraticX{1, 1.5}, QuadraticX{1, 1}}
	h := []Cost{Hinge{4, 0.8}, Hinge{4, 0.9}, Hinge{4, 0.7}}
	for _, c := range []struct {
		name string
		f, h []Cost
		smax []float64
		msg  string
	}{
		{"short F", f[:2], h, nil, "len(F) = 2"},
		{"short H", f, h[:1], nil, "len(H) = 1"},
		{"nil F", []Cost{f[0], nil, f[2]}, h, nil, "F[1] is nil"},
		{"nil H", f, []Cost{h[0], h[1], nil}, nil, "H[2] is nil"},
		{"SMax NaN", f, h, []float64{1, math.NaN(), 1}, "SMax[1] = NaN"},
		{"SMax negative", f, h, []float64{1, 1, -1}, "SMax[2] = -1"},
		{"SMax size", f, h, []float64{1}, "len(SMax) = 1"},
	} {
		_, err := NewProblem(nw, c.f, c.h, c.smax)
		if assert.Error(t, err, c.name) {
			assert.Contains(t, err.Error(), c.msg, c.name)
		}
	}
	assert.PanicsWithValue(t, "dual: NewProblem with a nil *anycast.Network", func() { _, _ = NewProblem(nil, f, h, nil) })
	_, err := Quadratic(nw, 0, 1)
	assert.ErrorContains(t, err, "w = 0")
	_, err = Quadratic(nw, 1, math.Inf(1))
	assert.ErrorContains(t, err, "c = +Inf")
	// A Delay cost caps S̄ at its barrier.
	p, err := NewProblem(nw, f, []Cost{Delay{0.8}, h[1], h[2]}, nil)
	require.NoError(t, err)
	assert.Equal(t, 0.8, p.SMax[0])
	assert.InDelta(t, nw.MaxLoads()[1], p.SMax[1], 0)
}

func TestSolveErrors(t *testing.T) {
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	for _, c := range []struct {
		s   Settings
		msg string
	}{
		{Settings{Mu0: []float64{0, -1, 0}}, "Mu0[1] = -1"},
		{Settings{Mu0: []float64{math.NaN(), 0, 0}}, "Mu0[0] = NaN"},
		{Settings{Step: -0.1}, "Step = -0.1"},
		{Settings{Eps: math.NaN()}, "Eps = NaN"},
		{Settings{MaxIter: -3}, "MaxIter = -3"},
		{Settings{Tol: math.NaN()}, "Tol = NaN"},
	} {
		_, err := Solve(p, &c.s)
		if assert.Error(t, err, c.msg) {
			assert.Contains(t, err.Error(), c.msg)
		}
	}
	_, err = Solve(p, &Settings{Mu0: []float64{1}})
	assert.ErrorContains(t, err, "len(Settings.Mu0) = 1, want N = 3")
	for _, c := range []struct {
		s   PrimalSettings
		msg string
	}{
		{PrimalSettings{MaxIter: -1}, "MaxIter = -1"},
		{PrimalSettings{GradTol: -1e-3}, "GradTol = -0.001"},
		{PrimalSettings{Tol: math.NaN()}, "Tol = NaN"},
	} {
		_, err := Primal(p, &c.s)
		assert.ErrorContains(t, err, c.msg)
	}
	_, err = p.Eval([]float64{1, math.Inf(1), 0})
	assert.ErrorContains(t, err, "mu[1] = +Inf")
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
	assert.InDelta(t, math.Sqrt(1.6*1.6+1.55*1.55+1.35*1.35), res.G, tol)
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
		assert.InDelta(t, ref.Mu[1]/1000, math.Max(0, over), 1e-12) // KKT: μ_b = c (S_b − T_b)₊
		res, err := Solve(p, &Settings{Step: 1e-3, MaxIter: 100000, Tol: 1e-9})
		require.NoError(t, err)
		assert.InDelta(t, ref.Value, res.Best, 1e-8*(1+ref.Value), "C_ba=%v", cba)
	}
}
