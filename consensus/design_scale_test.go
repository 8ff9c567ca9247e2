package consensus

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
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
	for seed := range uint64(3) {
		g := randomGraph(40+20*int(seed), 0.1, mc.Source(seed, 77))
		p := traceProblem(g)
		d, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-8}, nil)
		require.NoError(t, err)
		require.True(t, d.Exact)
		// DesignWeights at a short cycle: ρ₂ = ½(tr L†/γ + tr Q − ½) with
		// ∂ tr Q/∂w_e = γ‖Qb_e‖² = γ/2 + O(γ²) the same for every link
		// (Q = I/2 + γL/4 + …), so under a unit-cost budget its minimiser
		// is that of tr L† up to O(γ²) = 1e-12 relative.
		wp := WeightProblem{Nodes: p.Nodes, Gamma: 1e-6, Budget: p.Budget}
		for _, l := range p.Links {
			wp.Links = append(wp.Links, l)
		}
		ref, err := DesignWeights(wp, &DesignSettings{Tol: 1e-10})
		require.NoError(t, err)
		fref := exactTrace(t, p, ref.Weights)
		t.Logf("n=%d value %.12g ref %.12g lower %.12g gap %.3g iters %d", p.Nodes, d.Value.Mean, fref, d.Lower, d.Gap/d.Value.Mean, d.Iterations)
		require.LessOrEqual(t, d.Lower, fref*(1+1e-9))
		require.InDelta(t, fref, d.Value.Mean, 1e-7*fref)
		for i := range d.Weights {
			require.InDelta(t, ref.Weights[i], d.Weights[i], 1e-2*p.Budget/float64(len(p.Links)), "link %d", i)
		}
	}
}

func TestDesignWeightsAtScaleSketch(t *testing.T) {
	g := sparseRandom(800, 6, mc.Source(5))
	p := traceProblem(g)
	d, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Sketch: true, Tol: 0.5}, mc.Source(6))
	t.Logf("%+v err %v", d.Value, err)
	t.Logf("lower %g gap %.3g conf %g iters %d evals %d solves %d k %d", d.Lower, d.Gap/d.Value.Hi, d.Confidence, d.Iterations, d.Evals, d.Solves, d.SketchColumns)
	// compare with the exact design
	de, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-4}, nil)
	require.NoError(t, err)
	t.Logf("exact %g lower %g; sketched design's exact value %g", de.Value.Mean, de.Lower, exactTrace(t, p, d.Weights))
	_ = math.Abs
}
