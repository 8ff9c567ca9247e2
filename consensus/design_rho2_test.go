package consensus

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// exactRho2 returns ρ₂(γ; L(w)) by the dense oracle, ok false when w is
// unstable or disconnected.
func exactRho2(p TraceWeightProblem, gamma float64, w []float64) (float64, bool) {
	r, ok, err := newDenseRho2Oracle(p, gamma).eval(w)
	if err != nil || !ok {
		return math.Inf(1), false
	}
	return r.value(gamma), true
}

// rho2Gamma returns a cycle at which uniform weights are stable with
// γλ_n = c.
func rho2Gamma(t *testing.T, p TraceWeightProblem, c float64) float64 {
	w, err := p.start(nil)
	require.NoError(t, err)
	br, err := spectral.LambdaMaxBracket(p.graph(w), nil)
	require.NoError(t, err)
	return c / br.Est
}

// TestDesignRho2AtScaleMatchesDense: on random graphs of 40 to 200
// nodes (unit costs, the budget the graph's total weight) the dense path
// agrees with DesignWeights, the dense ρ₂ design with its Frank–Wolfe
// certificate: both run to a relative gap of 1e-7, so their values
// agree to 2e-7 relative, and each one's lower bound lies below the
// other's value.
func TestDesignRho2AtScaleMatchesDense(t *testing.T) {
	for seed := range uint64(4) {
		n := []int{40, 80, 120, 200}[seed]
		g := randomGraph(n, 8/float64(n), mc.Source(seed, 91))
		p := Rho2WeightProblem{TraceWeightProblem: traceProblem(g)}
		p.Gamma = rho2Gamma(t, p.TraceWeightProblem, []float64{0.5, 1, 1.5, 1.2}[seed])
		d, err := DesignRho2AtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
		require.NoError(t, err)
		require.True(t, d.Exact)
		require.Less(t, d.LambdaMax.Hi, 2/p.Gamma)
		wp := WeightProblem{Nodes: p.Nodes, Gamma: p.Gamma, Budget: p.Budget, Links: p.Links}
		ref, err := DesignWeights(wp, &DesignSettings{Tol: 1e-7})
		require.NoError(t, err)
		t.Logf("n=%d γλ_n(start)=%.1f value %.12g ref %.12g lower %.12g iters %d", n, []float64{0.5, 1, 1.5, 1.2}[seed], d.Value.Mean, ref.Value, d.Lower, d.Iterations)
		require.InDelta(t, ref.Value, d.Value.Mean, 2e-7*ref.Value)
		require.LessOrEqual(t, d.Lower, ref.Value)
		require.LessOrEqual(t, ref.Lower, d.Value.Mean)
		f, ok := exactRho2(p.TraceWeightProblem, p.Gamma, d.Weights)
		require.True(t, ok)
		require.InDelta(t, f, d.Value.Mean, 1e-12*f)
	}
}

// TestDesignRho2BruteForce: on a 4-node graph with 4 candidate links
// and per-link bounds, the lower bound at the design and at 50 random
// feasible points is never above the minimum over a grid of the whole
// polytope (step 0.1 on the link weights), and the design's value is
// at most that minimum plus the design's relative gap Tol = 1e-6.
func TestDesignRho2BruteForce(t *testing.T) {
	p := TraceWeightProblem{Nodes: 4, Budget: 3,
		Links: []Link{{0, 1, 1}, {1, 2, 1}, {2, 3, 1.5}, {0, 3, 0.7}, {0, 2, 1}},
		Hi:    []float64{1.2, 1.2, 1.2, 1.2, 0.4}}
	const gamma = 0.5
	best := math.Inf(1)
	w := make([]float64, 5)
	var grid func(i int, spent float64)
	grid = func(i int, spent float64) {
		if i == len(w) {
			if f, ok := exactRho2(p, gamma, w); ok {
				best = min(best, f)
			}
			return
		}
		for x := 0.0; x <= p.Hi[i]+1e-12 && spent+x*p.Links[i].Cost <= p.Budget; x += 0.1 {
			w[i] = x
			grid(i+1, spent+x*p.Links[i].Cost)
		}
		w[i] = 0
	}
	grid(0, 0)
	d, err := DesignRho2AtScale(Rho2WeightProblem{TraceWeightProblem: p, Gamma: gamma}, &ScaleDesignSettings{Tol: 1e-6, MaxIter: 2000}, nil)
	require.NoError(t, err)
	t.Logf("grid min %.10g design %.10g lower %.10g", best, d.Value.Mean, d.Lower)
	require.LessOrEqual(t, d.Lower, best)
	require.LessOrEqual(t, d.Value.Mean, best*(1+1e-6))
	rng := rand.New(mc.Source(5))
	y, v := make([]float64, 5), make([]float64, 5)
	o := newDenseRho2Oracle(p, gamma)
	for range 50 {
		for i := range y {
			y[i] = 1.5 * rng.Float64()
		}
		p.project(v, y)
		if r, ok, _ := o.eval(v); ok {
			require.LessOrEqual(t, p.rho2Bound(gamma, r.a, c2Of(r, v, gamma), r.s, r.t, 0), best+1e-12)
		}
	}
}

// TestDesignRho2Boxes: with costs and box bounds the weights stay in
// their bounds and the budget, the design is stable, the gap meets Tol,
// and no random feasible stable point lies below Lower.
func TestDesignRho2Boxes(t *testing.T) {
	g := randomGraph(30, 0.2, mc.Source(19))
	p := Rho2WeightProblem{TraceWeightProblem: traceProblem(g)}
	m := len(p.Links)
	rng := rand.New(mc.Source(20))
	p.Lo, p.Hi = make([]float64, m), make([]float64, m)
	for i := range m {
		p.Links[i].Cost = 0.5 + rng.Float64()
		p.Lo[i] = 0.2 * rng.Float64()
		p.Hi[i] = p.Lo[i] + 2*rng.Float64()
	}
	p.Gamma = rho2Gamma(t, p.TraceWeightProblem, 1.4)
	d, err := DesignRho2AtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	var cost float64
	for i, w := range d.Weights {
		require.GreaterOrEqual(t, w, p.Lo[i])
		require.LessOrEqual(t, w, p.Hi[i])
		cost += w * p.Links[i].Cost
	}
	require.LessOrEqual(t, cost, p.Budget*(1+1e-12))
	require.Less(t, d.LambdaMax.Hi*p.Gamma, 2.0)
	require.LessOrEqual(t, d.Gap, 1e-7*d.Value.Mean)
	y, v := make([]float64, m), make([]float64, m)
	for range 200 {
		for i := range y {
			y[i] = p.Hi[i] * 2 * rng.Float64()
		}
		p.project(v, y)
		if f, ok := exactRho2(p.TraceWeightProblem, p.Gamma, v); ok {
			require.LessOrEqual(t, d.Lower, f)
			require.LessOrEqual(t, d.Value.Mean, f*(1+1e-7))
		}
	}
}

// TestDesignRho2Cycle: the joint design over (γ, w) on the dense path
// is at least as good as the design at any fixed cycle (checked at five
// cycles), its lower bound lies below all of them, its weights spend
// the budget at the returned γ, and it is stable there.
func TestDesignRho2Cycle(t *testing.T) {
	g := randomGraph(50, 0.15, mc.Source(23))
	p := traceProblem(g)
	d, err := DesignRho2CycleAtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	f, ok := exactRho2(p, d.Gamma, d.Weights)
	require.True(t, ok)
	require.InDelta(t, f, d.Value.Mean, 1e-10*f)
	var cost float64
	for i, w := range d.Weights {
		cost += w * p.Links[i].Cost
	}
	require.InDelta(t, p.Budget, cost, 1e-9*p.Budget)
	require.Less(t, d.LambdaMax.Hi*d.Gamma, 2.0)
	for _, c := range []float64{0.3, 0.6, 1, 1.3, 1.6} {
		q := Rho2WeightProblem{TraceWeightProblem: p, Gamma: rho2Gamma(t, p, c)}
		fixed, err := DesignRho2AtScale(q, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
		require.NoError(t, err)
		t.Logf("γ = %.4g: %.10g (joint %.10g at γ = %.4g, lower %.10g)", q.Gamma, fixed.Value.Mean, d.Value.Mean, d.Gamma, d.Lower)
		require.LessOrEqual(t, d.Value.Mean, fixed.Value.Mean*(1+1e-7))
		require.LessOrEqual(t, d.Lower, fixed.Value.Mean)
	}
}

// TestDesignRho2Coverage runs the sketched path on 20 seeds of a
// 120-node graph: the value's 95 % interval covers the exact ρ₂ of the
// returned weights at a binomially plausible rate (≥ 15 of 20, below
// which a 95 % interval misses with probability under 0.1 %), the
// design is stable, and the lower bound (probability ≥ 1 − δ − 0.075)
// is never above the exact optimum.
func TestDesignRho2Coverage(t *testing.T) {
	g := sparseRandom(120, 5, mc.Source(31))
	p := Rho2WeightProblem{TraceWeightProblem: traceProblem(g)}
	p.Gamma = rho2Gamma(t, p.TraceWeightProblem, 1.2)
	opt, err := DesignRho2AtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	fstar := opt.Value.Mean
	covered := 0
	for seed := range uint64(20) {
		d, _ := DesignRho2AtScale(p, &ScaleDesignSettings{Sketch: true, MaxIter: 5, Probes: 16}, mc.Source(32, seed))
		require.NotNil(t, d)
		f, ok := exactRho2(p.TraceWeightProblem, p.Gamma, d.Weights)
		require.True(t, ok, "seed %d: unstable design", seed)
		if d.Value.Contains(f) {
			covered++
		}
		if seed == 0 {
			t.Logf("value %v exact %.6g optimum %.6g lower %.6g gap %.3g solves %d shifted %d k %d", d.Value, f, fstar, d.Lower, d.Gap/d.Value.Hi, d.Solves, d.ShiftedSolves, d.SketchColumns)
		}
		require.LessOrEqual(t, d.Lower, fstar, "seed %d", seed)
		require.GreaterOrEqual(t, f, fstar*(1-1e-7))
	}
	t.Logf("covered %d of 20", covered)
	require.GreaterOrEqual(t, covered, 15)
}

// TestDesignRho2CycleSketch: the joint design on the sketched path (120
// nodes, Probes 16, 5 iterations, three seeds, then one with lower
// bounds) is stable at its cycle, its lower bound (probability ≥ 0.875)
// lies below the exact joint optimum, and its value is no better than
// that optimum (with lower bounds: than the exact design's lower bound).
func TestDesignRho2CycleSketch(t *testing.T) {
	g := sparseRandom(120, 5, mc.Source(41))
	p := traceProblem(g)
	opt, err := DesignRho2CycleAtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	for seed := range uint64(3) {
		d, _ := DesignRho2CycleAtScale(p, &ScaleDesignSettings{Sketch: true, MaxIter: 5, Probes: 16}, mc.Source(42, seed))
		require.NotNil(t, d)
		f, ok := exactRho2(p, d.Gamma, d.Weights)
		require.True(t, ok, "seed %d: unstable design", seed)
		t.Logf("γ %.4g (optimum's %.4g) value %v exact %.6g optimum %.6g lower %.6g", d.Gamma, opt.Gamma, d.Value, f, opt.Value.Mean, d.Lower)
		require.LessOrEqual(t, d.Lower, opt.Value.Mean)
		require.GreaterOrEqual(t, f, opt.Value.Mean*(1-1e-7))
	}
	// With lower bounds (the golden-section search over the cycle).
	p.Lo = make([]float64, len(p.Links))
	for i := range p.Lo {
		p.Lo[i] = 0.2
	}
	// The exact joint design's certificate over every cycle is looser than
	// its value (spec §13.14), so it may stop above Tol: [Lower, Value]
	// still brackets the optimum.
	optLo, _ := DesignRho2CycleAtScale(p, &ScaleDesignSettings{Tol: 1e-5, MaxIter: 2000}, nil)
	require.NotNil(t, optLo)
	d, _ := DesignRho2CycleAtScale(p, &ScaleDesignSettings{Sketch: true, MaxIter: 5, Probes: 16}, mc.Source(43))
	require.NotNil(t, d)
	f, ok := exactRho2(p, d.Gamma, d.Weights)
	require.True(t, ok, "unstable design")
	t.Logf("Lo = 0.2: γ %.4g (optimum's %.4g) value %v exact %.6g optimum %.6g lower %.6g solves %d", d.Gamma, optLo.Gamma, d.Value, f, optLo.Value.Mean, d.Lower, d.Solves)
	require.LessOrEqual(t, d.Lower, optLo.Value.Mean)
	require.GreaterOrEqual(t, f, optLo.Lower)
}

// TestDesignRho2CycleLowerBounds: with positive lower bounds the joint
// design searches γ by golden section; its value is within 10⁻⁵
// (relative, its Tol) of the best of the fixed-cycle designs on a grid
// of 12 cycles (each to 10⁻⁶; the search stops at a bracket of 0.1 % in
// γ, where V(γ) is flat to second order), its certified gap over every
// cycle meets Tol, its lower bound lies below every fixed-cycle value,
// and its weights respect the bounds.
func TestDesignRho2CycleLowerBounds(t *testing.T) {
	g := randomGraph(40, 0.2, mc.Source(51))
	p := traceProblem(g)
	m := len(p.Links)
	p.Lo = make([]float64, m)
	for i := range p.Lo {
		p.Lo[i] = 0.3
	}
	set := &ScaleDesignSettings{Tol: 1e-5, MaxIter: 2000}
	d, err := DesignRho2CycleAtScale(p, set, nil)
	require.NoError(t, err)
	for i, w := range d.Weights {
		require.GreaterOrEqual(t, w, p.Lo[i])
	}
	f, ok := exactRho2(p, d.Gamma, d.Weights)
	require.True(t, ok)
	require.InDelta(t, f, d.Value.Mean, 1e-12*f)
	br, err := spectral.LambdaMaxBracket(p.graph(p.Lo), nil)
	require.NoError(t, err)
	gmax := 2 / br.Hi
	best := math.Inf(1)
	for j := range 12 {
		gamma := gmax * math.Pow(10, -2.5+2.5*float64(j)/12)
		q := Rho2WeightProblem{TraceWeightProblem: p, Gamma: gamma}
		w, _ := q.stableToward(mustStart(t, p), gamma)
		if w == nil {
			continue
		}
		fixed, err := DesignRho2AtScale(q, &ScaleDesignSettings{Tol: 1e-6, MaxIter: 2000, Start: w}, nil)
		require.NoError(t, err)
		best = min(best, fixed.Value.Mean)
		require.LessOrEqual(t, d.Lower, fixed.Value.Mean)
	}
	t.Logf("joint %.10g at γ = %.4g (γ_max %.4g), grid best %.10g, lower %.10g", d.Value.Mean, d.Gamma, gmax, best, d.Lower)
	require.LessOrEqual(t, d.Value.Mean, best*(1+1e-5))
}

// mustStart returns the problem's uniform start.
func mustStart(t *testing.T, p TraceWeightProblem) []float64 {
	t.Helper()
	w, err := p.start(nil)
	require.NoError(t, err)
	return w
}

// TestDesignRho2CycleZeroHi: a link whose upper bound is zero stays at
// zero in the joint design (the cone of the polytope keeps it there),
// and the design matches the joint design on the other links alone.
func TestDesignRho2CycleZeroHi(t *testing.T) {
	g := randomGraph(30, 0.25, mc.Source(61))
	p := traceProblem(g)
	m := len(p.Links)
	p.Hi = make([]float64, m)
	for i := range p.Hi {
		p.Hi[i] = math.Inf(1)
	}
	drop := -1
	for i := range m { // a link whose removal keeps the graph connected
		q := p
		q.Links = slices.Delete(slices.Clone(p.Links), i, i+1)
		q.Hi = nil
		if q.Validate() == nil {
			drop = i
			break
		}
	}
	require.GreaterOrEqual(t, drop, 0)
	p.Hi[drop] = 0
	d, err := DesignRho2CycleAtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	require.Zero(t, d.Weights[drop])
	q := p
	q.Links, q.Hi = slices.Delete(slices.Clone(p.Links), drop, drop+1), nil
	ref, err := DesignRho2CycleAtScale(q, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	require.InDelta(t, ref.Value.Mean, d.Value.Mean, 2e-7*ref.Value.Mean)
	require.LessOrEqual(t, d.Lower, ref.Value.Mean)
}

// TestDesignRho2SparseExact: the sparse Cholesky oracle on a 20 × 20
// grid (DenseMax below its order) gives the dense oracle's parts to
// 1e-9 relative (factors of condition ≈ 10³), refuses an unstable cycle
// as the dense one does, and its design agrees with the dense path's to
// the certified Tol = 1e-7, each lower bound below the other's value.
func TestDesignRho2SparseExact(t *testing.T) {
	p := Rho2WeightProblem{TraceWeightProblem: traceProblem(mustGraph(gen.Grid(20, 20)))}
	p.Gamma = rho2Gamma(t, p.TraceWeightProblem, 1.2)
	w, err := p.start(nil)
	require.NoError(t, err)
	rd, ok, err := newDenseRho2Oracle(p.TraceWeightProblem, p.Gamma).eval(w)
	require.NoError(t, err)
	require.True(t, ok)
	rd.s, rd.t = slices.Clone(rd.s), slices.Clone(rd.t)
	rs, ok, err := newSparseRho2Oracle(p.TraceWeightProblem, p.Gamma).eval(w)
	require.NoError(t, err)
	require.True(t, ok)
	require.InDelta(t, rd.a, rs.a, 1e-9*rd.a)
	require.InDelta(t, rd.q2, rs.q2, 1e-9*rd.q2)
	for i := range rd.s {
		require.InDelta(t, rd.s[i], rs.s[i], 1e-9*rd.s[i], "s[%d]", i)
		require.InDelta(t, rd.t[i], rs.t[i], 1e-9*rd.t[i], "t[%d]", i)
	}
	_, ok, err = newSparseRho2Oracle(p.TraceWeightProblem, 2.1/1.2*p.Gamma).eval(w) // γλ_n = 2.1
	require.NoError(t, err)
	require.False(t, ok)
	sp, err := DesignRho2AtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000, DenseMax: 100}, nil)
	require.NoError(t, err)
	require.True(t, sp.Exact)
	require.Positive(t, sp.ShiftedSolves)
	de, err := DesignRho2AtScale(p, &ScaleDesignSettings{Tol: 1e-7, MaxIter: 5000}, nil)
	require.NoError(t, err)
	require.InDelta(t, de.Value.Mean, sp.Value.Mean, 2e-7*de.Value.Mean)
	require.LessOrEqual(t, sp.Lower, de.Value.Mean*(1+1e-9))
	require.LessOrEqual(t, de.Lower, sp.Value.Mean*(1+1e-9))
}
