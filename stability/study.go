package stability

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/mc"
)

// StudyPoint is one point of the headline evaluation of spec §13.9: the
// greedy heuristic against the optimum on random CDNs of N nodes at a
// load level and a self-correlation. A zero field means its default; a
// field outside its domain is an error naming it.
type StudyPoint struct {
	// N is the number of nodes (default 1000); K the proxies of each
	// region's split in GenerateCDN (default min(10, N)).
	N, K int
	// Load is the mean utilisation u > 0 at x = 1: capacities are drawn
	// so that (CᵀA)_i/T_i is uniform on [u/2, 3u/2] (default 1).
	Load float64
	// SelfCorr s ∈ [0, 1) sets every C_jj = s: each row of GenerateCDN's
	// C keeps its off-diagonal split, scaled to 1 − s. Zero keeps the
	// generated C (whose diagonal is its nearest-proxy weight).
	SelfCorr float64
	// Sensitivity β of the greedy law (default 1) and its integration
	// time T1 from x = ½ (default 1000, in 1/(β·load)).
	Sensitivity, T1 float64
	// W and Penalty are the P1 costs of dual.Quadratic (defaults 1 and
	// 1000, as CompareSettings).
	W, Penalty float64
}

// Gap is one run of a StudyPoint: the greedy law's end state against the
// optimum of P1 on the same random CDN.
type Gap struct {
	// Second and Excess: demand sent to L2, Σ A_j (1 − x_j), and total
	// overload Σ (S_i − T_i)₊, of the greedy end state and of the optimum.
	GreedySecond, OptimalSecond float64
	GreedyExcess, OptimalExcess float64
	// Uncontrollable counts the greedy end state's nodes in a locally
	// uncontrollable overload: x_i = 0 (within 1e-6) and
	// Σ_{j≠i} C_ji A_j x_j > T_i (spec §5.3 (26)–(27)).
	Uncontrollable int
	// GreedyCost and OptimalCost are the P1 objective at the two states
	// (OptimalCost is the certified upper end, within 1e-6 relative of P*).
	GreedyCost, OptimalCost float64
	// Demand is Σ A_j, the scale of Second and Excess.
	Demand float64
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field, for a field outside its domain.
func (p StudyPoint) Validate() error {
	_, err := p.defaults()
	return err
}

// defaults returns the point with its defaults filled in, or an error
// naming the first bad field.
func (p StudyPoint) defaults() (StudyPoint, error) {
	switch {
	case p.N < 0:
		return p, loadlab.Invalid("stability", "StudyPoint.N = %d, want ≥ 2 (0 for the default)", p.N)
	case p.K < 0:
		return p, loadlab.Invalid("stability", "StudyPoint.K = %d, want ≥ 1 (0 for the default)", p.K)
	case !(p.SelfCorr >= 0 && p.SelfCorr < 1):
		return p, loadlab.Invalid("stability", "StudyPoint.SelfCorr = %v, want a value in [0, 1)", p.SelfCorr)
	}
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{{"Load", &p.Load, 1}, {"Sensitivity", &p.Sensitivity, 1}, {"T1", &p.T1, 1000}, {"W", &p.W, 1}, {"Penalty", &p.Penalty, 1000}} {
		if !(*f.v >= 0) || math.IsInf(*f.v, 1) {
			return p, loadlab.Invalid("stability", "StudyPoint.%s = %v, want a finite value > 0 (0 for the default)", f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if p.N == 0 {
		p.N = 1000
	}
	if p.K == 0 {
		p.K = min(10, p.N)
	}
	return p, nil
}

// Network draws the point's random CDN from src (spec §13.9):
// GenerateCDN's positions, split and demand, the self-correlation set,
// and capacities for utilisations uniform on [Load/2, 3·Load/2].
func (p StudyPoint) Network(src rand.Source) (*anycast.Network, error) {
	if src == nil {
		panic("stability: StudyPoint.Network: src is nil")
	}
	p, err := p.defaults()
	if err != nil {
		return nil, err
	}
	rng := rand.New(src)
	nw, err := anycast.GenerateCDN(rand.NewPCG(rng.Uint64(), rng.Uint64()), &anycast.CDNSettings{N: p.N, K: p.K})
	if err != nil {
		return nil, err
	}
	if p.SelfCorr > 0 {
		if nw, err = withSelfCorr(nw, p.SelfCorr); err != nil {
			return nil, err
		}
	}
	t := nw.MaxLoads()
	for i := range t {
		rho := p.Load * (0.5 + rng.Float64())
		if t[i] = t[i] / rho; t[i] == 0 || math.IsInf(t[i], 1) {
			t[i] = 1 // no demand reaches i, or it underflowed: any capacity
		}
	}
	return anycast.NewNetwork(nw.A, nw.Sparse, t)
}

// withSelfCorr returns nw with C_jj = s and row j's off-diagonal entries
// scaled to sum to 1 − s (a row with none keeps C_jj = 1).
func withSelfCorr(nw *anycast.Network, s float64) (*anycast.Network, error) {
	n := nw.N()
	var rows, cols []int
	var vals []float64
	for j := 0; j < n; j++ {
		cs, vs := nw.Row(j)
		var off float64
		for k, i := range cs {
			if i != j {
				off += vs[k]
			}
		}
		self := 1.0
		if off > 0 {
			self = s
			for k, i := range cs {
				if i != j {
					rows, cols, vals = append(rows, j), append(cols, i), append(vals, vs[k]*(1-s)/off)
				}
			}
		}
		rows, cols, vals = append(rows, j), append(cols, j), append(vals, self)
	}
	sc, err := anycast.NewSparseC(n, rows, cols, vals)
	if err != nil {
		return nil, err
	}
	return anycast.NewNetwork(nw.A, sc, nw.T)
}

// Run is one run of the point (spec §13.9): it draws the CDN from src,
// integrates the greedy law from x = ½ for T1, and solves P1 to a
// certified relative gap of 1e-6. It returns the errors of the point's
// fields (ErrInvalid), of the integration and of the solver (a solve that
// does not certify within its default budget is ErrNotConverged). It
// panics if src is nil.
func (p StudyPoint) Run(src rand.Source) (*Gap, error) {
	if src == nil {
		panic("stability: StudyPoint.Run: src is nil")
	}
	nw, err := p.Network(src)
	if err != nil {
		return nil, err
	}
	p, _ = p.defaults()
	law := &Law{Net: nw, Sensitivity: p.Sensitivity}
	x0 := make([]float64, nw.N())
	for i := range x0 {
		x0[i] = 0.5
	}
	tr, err := law.Integrate(x0, p.T1, &Settings{Times: []float64{p.T1}})
	if err != nil {
		return nil, err
	}
	prob, err := dual.Quadratic(nw, p.W, p.Penalty)
	if err != nil {
		return nil, err
	}
	opt, err := dual.Solve(prob, &dual.Settings{Tol: 1e-6})
	if err != nil {
		return nil, err
	}
	xg := tr.Final()
	g := &Gap{OptimalCost: opt.Upper}
	if g.GreedyCost, err = prob.Reduced(xg); err != nil {
		return nil, err
	}
	g.GreedySecond, g.GreedyExcess, g.Uncontrollable = scoreState(nw, xg)
	g.OptimalSecond, g.OptimalExcess, _ = scoreState(nw, opt.X)
	for _, a := range nw.A {
		g.Demand += a
	}
	return g, nil
}

// scoreState returns Σ A_j (1 − x_j), Σ (S_i − T_i)₊ (scoreLoads) and the
// nodes in a locally uncontrollable overload: x_i ≤ 1e-6 and (27)
// (spec §5.3 eqs. (26)–(27)).
func scoreState(nw *anycast.Network, x []float64) (second, excess float64, unc int) {
	s := nw.Loads(nil, x)
	sc := scoreLoads(nw, nw.A, x, s, 1)
	for i := range x {
		if x[i] <= 1e-6 && s[i]-nw.At(i, i)*nw.A[i]*x[i] > nw.T[i] { // spec §5.3 eq. (27)
			unc++
		}
	}
	return sc.second, sc.excess, unc
}

// StudySummary is a point's runs summarised with 95 % Student-t
// intervals over the instances (the runs are independent instances).
type StudySummary struct {
	Point StudyPoint
	Runs  int
	// CostRatio is GreedyCost/OptimalCost per instance (instances with
	// OptimalCost = 0 count as 1 when GreedyCost is 0 too, and are left
	// out otherwise; CostRatioRuns says how many entered).
	CostRatio     loadlab.Estimate
	CostRatioRuns int
	// SecondShare and ExcessShare are greedy's and the optimum's L2
	// demand and overload as fractions of the demand Σ A_j.
	GreedySecond, OptimalSecond, GreedyExcess, OptimalExcess loadlab.Estimate
	// Uncontrollable is the fraction of instances whose greedy end state
	// has a locally uncontrollable overload, with its exact
	// (Clopper–Pearson) 95 % interval.
	Uncontrollable loadlab.Estimate
}

// Study runs every point runs times, run r of point k on
// loadlab.Stream(seed, k, r) (StudyPoint.Run), on the cores, and
// summarises each point (spec §13.9). Results are the same whatever the
// number of goroutines, and the same when the runs are computed
// elsewhere (loadlab sweep "stability-study"). It returns an error
// wrapping loadlab.ErrInvalid for runs < 2 or a bad point, and the first
// run's error in run order.
func Study(points []StudyPoint, runs int, seed uint64) ([]StudySummary, error) {
	if runs < 2 {
		return nil, loadlab.Invalid("stability", "runs = %d, want ≥ 2 (an interval needs two instances)", runs)
	}
	for k, p := range points {
		if _, err := p.defaults(); err != nil {
			return nil, loadlab.Invalid("stability", "points[%d]: %v", k, err)
		}
	}
	gaps, err := mc.Grid(len(points), runs, seed, func(k int, src rand.Source) (*Gap, error) { return points[k].Run(src) })
	if err != nil {
		return nil, err
	}
	out := make([]StudySummary, len(points))
	for k, p := range points {
		out[k] = SummarizeGaps(p, gaps[k])
	}
	return out, nil
}

// SummarizeGaps summarises a point's runs (the merge of Study).
func SummarizeGaps(p StudyPoint, gaps []*Gap) StudySummary {
	s := StudySummary{Point: p, Runs: len(gaps)}
	var ratio, gs, os, ge, oe []float64
	unc := 0
	for _, g := range gaps {
		switch {
		case g.OptimalCost > 0:
			ratio = append(ratio, g.GreedyCost/g.OptimalCost)
		case g.GreedyCost == 0:
			ratio = append(ratio, 1)
		}
		d := math.Max(g.Demand, math.SmallestNonzeroFloat64)
		gs, os = append(gs, g.GreedySecond/d), append(os, g.OptimalSecond/d)
		ge, oe = append(ge, g.GreedyExcess/d), append(oe, g.OptimalExcess/d)
		if g.Uncontrollable > 0 {
			unc++
		}
	}
	s.CostRatio, s.CostRatioRuns = estimateOf(ratio), len(ratio)
	s.GreedySecond, s.OptimalSecond = estimateOf(gs), estimateOf(os)
	s.GreedyExcess, s.OptimalExcess = estimateOf(ge), estimateOf(oe)
	s.Uncontrollable = mc.Binomial(unc, len(gaps))
	return s
}

// estimateOf is the mean of xs with its 95 % Student-t interval.
func estimateOf(xs []float64) loadlab.Estimate {
	m := mc.Summarize(xs)
	return loadlab.Estimate{Mean: m.Mean, Lo: m.Lo, Hi: m.Hi, StdErr: m.StdErr, N: m.N}
}
