package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// traceProblem returns the TraceWeightProblem on g's links (unit costs)
// with the budget Σ_e w_e of g.
func traceProblem(g *wgraph.Graph) TraceWeightProblem {
	p := TraceWeightProblem{Nodes: g.Order()}
	for _, e := range g.Edges() {
		p.Links = append(p.Links, Link{U: e.U, V: e.V, Cost: 1})
		p.Budget += e.W
	}
	return p
}

// exactTrace returns tr L(w)† by the dense oracle.
func exactTrace(t *testing.T, p TraceWeightProblem, w []float64) float64 {
	t.Helper()
	f, _, ok, err := newDenseTraceOracle(p).eval(w)
	require.NoError(t, err)
	require.True(t, ok)
	return f
}

func TestDesignWeightsAtScaleMatchesDense(t *testing.T) {
	for seed := range uint64(4) {
		n := []int{40, 60, 80, 120}[seed]
		g := randomGraph(n, 8/float64(n), mc.Source(seed, 77))
		p := traceProblem(g)
		if seed == 3 { // costs in [0.5, 2), the budget scaled to match
			rng := rand.New(mc.Source(seed, 78))
			for i := range p.Links {
				p.Links[i].Cost = 0.5 + 1.5*rng.Float64()
			}
		}
		d, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7}, nil)
		require.NoError(t, err)
		require.True(t, d.Exact)
		// DesignWeights at a short cycle: ρ₂ = ½(tr L†/γ + tr Q − ½) with
		// ∂ tr Q/∂w_e = γ‖Qb_e‖² = γ/2 + O(γ²) (Q = I/2 + γL/4 + …), so
		// the two gradients differ by γ²/4 relative to ∂(tr L†/γ), and
		// the minimisers agree to about γ² = 1e-12 relative (exactly, to
		// first order, under unit costs, where the difference is the same
		// for every link).
		wp := WeightProblem{Nodes: p.Nodes, Gamma: 1e-6, Budget: p.Budget}
		for _, l := range p.Links {
			wp.Links = append(wp.Links, l)
		}
		ref, err := DesignWeights(wp, &DesignSettings{Tol: 1e-8})
		require.NoError(t, err)
		fref := exactTrace(t, p, ref.Weights)
		t.Logf("n=%d value %.12g ref %.12g lower %.12g gap %.3g iters %d", p.Nodes, d.Value.Mean, fref, d.Lower, d.Gap/d.Value.Mean, d.Iterations)
		require.LessOrEqual(t, d.Lower, fref*(1+1e-9))
		require.InDelta(t, fref, d.Value.Mean, 2e-7*fref) // both gaps ≤ 1e-7 relative
		for i := range d.Weights {
			require.InDelta(t, ref.Weights[i], d.Weights[i], 1e-2*p.Budget/float64(len(p.Links)), "link %d", i)
		}
	}
}

// TestDesignWeightsAtScaleBoxes checks the box-bounded design on the
// dense path: the weights stay in their bounds and the budget, the
// certified gap meets Tol, and no random feasible point has a value
// below Lower (the certificate is a valid lower bound) or below Value
// by more than the gap.
func TestDesignWeightsAtScaleBoxes(t *testing.T) {
	g := randomGraph(30, 0.2, mc.Source(9))
	p := traceProblem(g)
	m := len(p.Links)
	rng := rand.New(mc.Source(10))
	p.Lo, p.Hi = make([]float64, m), make([]float64, m)
	for i := range m {
		p.Links[i].Cost = 0.5 + rng.Float64()
		p.Lo[i] = 0.2 * rng.Float64()
		p.Hi[i] = p.Lo[i] + 2*rng.Float64()
	}
	d, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7}, nil)
	require.NoError(t, err)
	var cost float64
	for i, w := range d.Weights {
		require.GreaterOrEqual(t, w, p.Lo[i])
		require.LessOrEqual(t, w, p.Hi[i])
		cost += w * p.Links[i].Cost
	}
	require.LessOrEqual(t, cost, p.Budget*(1+1e-12))
	require.LessOrEqual(t, d.Gap, 1e-7*d.Value.Mean)
	y, v := make([]float64, m), make([]float64, m)
	for range 200 {
		for i := range y {
			y[i] = p.Hi[i] * 2 * rng.Float64()
		}
		p.project(v, y)
		if f, _, ok, err := newDenseTraceOracle(p).eval(v); err == nil && ok {
			require.LessOrEqual(t, d.Lower, f)
			require.LessOrEqual(t, d.Value.Mean, f*(1+1e-7))
		}
	}
	// A warm start from the design stops at once.
	w, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7, Start: d.Weights}, nil)
	require.NoError(t, err)
	require.Zero(t, w.Iterations)
}

// TestDesignWeightsAtScaleCoverage runs the sketched path on 40 seeds
// of a 120-node graph: the value's 95 % interval covers the exact
// tr L(w)† of the returned weights at a binomially plausible rate
// (≥ 32 of 40, below which a 95 % interval misses with probability
// under 0.1 %), and the lower bound, which holds with probability
// ≥ 1 − δ − 0.05 = 0.9, is never above the exact optimum (its envelope
// makes a miss far rarer than the nominal level).
func TestDesignWeightsAtScaleCoverage(t *testing.T) {
	g := sparseRandom(120, 5, mc.Source(11))
	p := traceProblem(g)
	opt, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-8}, nil)
	require.NoError(t, err)
	fstar := opt.Value.Mean
	covered := 0
	for seed := range uint64(40) {
		d, _ := DesignWeightsAtScale(p, &ScaleDesignSettings{Sketch: true, MaxIter: 5, Probes: 16}, mc.Source(12, seed))
		require.NotNil(t, d)
		f := exactTrace(t, p, d.Weights)
		if d.Value.Contains(f) {
			covered++
		}
		require.LessOrEqual(t, d.Lower, fstar, "seed %d", seed)
		require.GreaterOrEqual(t, f, fstar*(1-1e-8))
	}
	t.Logf("covered %d of 40", covered)
	require.GreaterOrEqual(t, covered, 32)
}

// TestDesignWeightsAtScaleSketchWarmStart: on the sketched path a run
// started from an earlier design (same sketch seed) takes fewer
// iterations and solves than the run from uniform weights, and ends at
// a value no worse (within the 95 % intervals).
func TestDesignWeightsAtScaleSketchWarmStart(t *testing.T) {
	g := sparseRandom(300, 6, mc.Source(21))
	p := traceProblem(g)
	set := &ScaleDesignSettings{Sketch: true, Probes: 16}
	cold, _ := DesignWeightsAtScale(p, set, mc.Source(22))
	require.NotNil(t, cold)
	set.Start = cold.Weights
	warm, _ := DesignWeightsAtScale(p, set, mc.Source(22))
	require.NotNil(t, warm)
	t.Logf("cold: %d iterations, %d solves; warm: %d, %d", cold.Iterations, cold.Solves, warm.Iterations, warm.Solves)
	require.Less(t, warm.Iterations, cold.Iterations)
	require.Less(t, warm.Solves, cold.Solves)
	require.LessOrEqual(t, warm.Value.Lo, cold.Value.Hi)
}

// TestDesignWeightsAtScaleSparseExact checks the sparse Cholesky path
// (DenseMax below the order of a 20 × 20 grid) against the dense one:
// the same problem, the same iterations on values that differ only by
// rounding, so the values agree to the Tol = 1e-7 both gaps certify and
// each lower bound stays below the other's value; the gradient of the
// sparse oracle equals the dense oracle's at the start to 1e-9 relative
// (solves with factors of condition ≈ 10³).
func TestDesignWeightsAtScaleSparseExact(t *testing.T) {
	g := mustGraph(gen.Grid(20, 20))
	p := traceProblem(g)
	p.Budget *= 1.5
	w, err := p.start(nil)
	require.NoError(t, err)
	fd, sd, ok, err := newDenseTraceOracle(p).eval(w)
	require.NoError(t, err)
	require.True(t, ok)
	sd = append([]float64(nil), sd...)
	fs, ss, ok, err := newSparseTraceOracle(p, 0).eval(w)
	require.NoError(t, err)
	require.True(t, ok)
	require.InDelta(t, fd, fs, 1e-9*fd)
	for i := range sd {
		require.InDelta(t, sd[i], ss[i], 1e-9*sd[i], "link %d", i)
	}
	require.True(t, p.sparseExact())
	sp, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7, DenseMax: 100}, nil)
	require.NoError(t, err)
	require.True(t, sp.Exact)
	require.Positive(t, sp.Solves)
	de, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7}, nil)
	require.NoError(t, err)
	require.Zero(t, de.Solves)
	require.InDelta(t, de.Value.Mean, sp.Value.Mean, 2e-7*de.Value.Mean)
	require.LessOrEqual(t, sp.Lower, de.Value.Mean*(1+1e-9))
	require.LessOrEqual(t, de.Lower, sp.Value.Mean*(1+1e-9))
}
