package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// The local path of DesignWeightsAtScale (spec §13.12, "Local path"):
// per-link gradients from local Chebyshev moments, multiplicative
// updates, and the polynomial dual certificate.
const (
	localWork      = 500  // edge visits per endpoint of a link's moments, on average, at the first depth (H = 3 on a random 6-regular graph)
	localWorkMax   = 2500 // the same for the deeper try when the first misses Tol (H = 4 there)
	localMaxDepth  = 8
	localFitErr    = 0.25 // the largest Chebyshev rate ρ^(−H) for which the default chooses the local path
	localRitzSteps = 30
	localFWIter    = 200 // Frank–Wolfe iterations of each certificate
	localFWGap     = 1e-6
)

// localPlan is the local path's polynomial space: degree h in the basis
// S of [a, b], and the interpolant of 1/λ there.
type localPlan struct {
	h     int
	a, b  float64
	basis kpm.Basis
	inv   []float64 // Chebyshev coefficients of the interpolant of 1/λ
}

// newLocalPlan chooses the interval (a = 0.9 times a Lanczos estimate
// of λ₂ from above, b the certified upper bound of λ_n) and the depth
// (depth, or by ball volume when 0) on the graph g.
func newLocalPlan(g *wgraph.Graph, depth int) (localPlan, error) {
	br, err := spectral.LambdaMaxBounds(g)
	if err != nil {
		return localPlan{}, err
	}
	b := br.Hi
	a := 0.9 * kpm.LowRitz(g.Order(), func(dst, src []float64) error { g.LaplacianMulVec(dst, src); return nil }, localRitzSteps, 1)
	if !(a > 0) || a >= b {
		a = b / 1e3
	}
	h := depth
	if h == 0 {
		h = kpm.Depth(g, localWork, localMaxDepth)
	}
	inv := kpm.Interp(func(x float64) float64 { return 1 / x }, a, b, h)
	return localPlan{h: h, a: a, b: b, basis: kpm.NewBasis(a, b), inv: inv}, nil
}

// fits reports whether the interpolant of degree h converges fast enough
// on [a, b] for the default to choose the local path: ρ^(−h) ≤
// localFitErr with ρ = (√κ + 1)/(√κ − 1), κ = b/a, the rate of
// Chebyshev approximation of 1/λ there.
func (pl localPlan) fits() bool { return pl.rate() <= localFitErr }

// rate is the Chebyshev rate ρ^(−h) of the interpolant of 1/λ on [a, b].
func (pl localPlan) rate() float64 {
	k := math.Sqrt(pl.b / pl.a)
	return math.Pow((k+1)/(k-1), -float64(pl.h))
}

// linkMoments are the local moments of every link's b_e under L(w) and
// the traces t_k of the certificate.
type linkMoments struct {
	h    int
	plan localPlan // the basis and interval of the moments
	mu   []float64 // μ_0..μ_{2h} of link i at i·(2h + 1)
	t    []float64 // t_k = Σ_u T_k(S)_uu − T_k(S at λ = 0), k ≤ h
}

// linkMoments computes the moments on g, the graph of the links with
// positive weight (a link of weight zero still has its b_e's moments).
func (p TraceWeightProblem) linkMoments(g *wgraph.Graph, pl localPlan) (*linkMoments, error) {
	mom, _, err := p.linkMomentsTo(g, pl, pl.h)
	return mom, err
}

// linkMomentsTo is linkMoments that also returns the traces t_0..t_deg
// (deg ≥ h) from the same renumbering of g.
func (p TraceWeightProblem) linkMomentsTo(g *wgraph.Graph, pl localPlan, deg int) (*linkMoments, []float64, error) {
	mc, err := newMomentCtx(g)
	if err != nil {
		return nil, nil, err
	}
	m, k1 := len(p.Links), 2*pl.h+1
	if err := size.Check("consensus", "DesignWeightsAtScale: link moments", m, 8*k1); err != nil {
		return nil, nil, err
	}
	out := &linkMoments{h: pl.h, plan: pl, mu: make([]float64, m*k1)}
	mc.pairs(pl, m, func(i int) (int, int) { return p.Links[i].U, p.Links[i].V }, func(i int, mu []float64) {
		copy(out.mu[i*k1:(i+1)*k1], mu)
	})
	tt := mc.traces(pl, deg)
	out.t = tt[:pl.h+1]
	return out, tt, nil
}

// momentCtx is a graph's Laplacian renumbered for the local moments,
// with the workers' scratch.
type momentCtx struct {
	lm      *lapmat.Matrix
	deg     []float64
	inv     []int32 // internal index of each original node
	scratch chan *kpm.Scratch
}

// newMomentCtx renumbers the connected graph g (ErrDisconnected if it
// is not).
func newMomentCtx(g *wgraph.Graph) (*momentCtx, error) {
	lm, err := lapmat.New(g)
	if err != nil {
		return nil, err
	}
	if lm == nil {
		return nil, wgraph.CheckConnected(g)
	}
	inv := make([]int32, lm.N)
	for i, j := range lm.Perm {
		inv[j] = int32(i)
	}
	workers := par.Workers(0)
	scratch := make(chan *kpm.Scratch, workers)
	for range workers {
		scratch <- kpm.NewScratch()
	}
	return &momentCtx{lm: lm, deg: lm.Degrees(), inv: inv, scratch: scratch}, nil
}

// pairs hands visit the moments μ_0..μ_{2h} of b = e_u − e_v for each
// pair i < count (from several goroutines, each i once, mu reused after
// visit returns).
//
// The pairs run in the breadth-first order of their first node (a
// counting sort), so that consecutive balls overlap and stay in cache.
func (c *momentCtx) pairs(pl localPlan, count int, pair func(i int) (u, v int), visit func(i int, mu []float64)) {
	order := c.byFirstNode(count, pair)
	pieces := par.Pieces(count, 256, 1024)
	par.For(pieces, min(cap(c.scratch), pieces), func(piece int) {
		s := <-c.scratch
		lo, hi := par.Bounds(count, pieces, piece)
		b, mu := []float64{1, -1}, make([]float64, 2*pl.h+1)
		for _, i32 := range order[lo:hi] {
			i := int(i32)
			u, v := pair(i)
			s.Moments(c.lm, c.deg, pl.basis, []int32{c.inv[u], c.inv[v]}, b, pl.h, mu)
			visit(i, mu)
		}
		c.scratch <- s
	})
}

// byFirstNode returns the pairs' indices sorted (stably) by the
// internal index of their first node.
func (c *momentCtx) byFirstNode(count int, pair func(i int) (u, v int)) []int32 {
	start := make([]int32, c.lm.N+1)
	for i := range count {
		u, _ := pair(i)
		start[c.inv[u]+1]++
	}
	for k := 1; k < len(start); k++ {
		start[k] += start[k-1]
	}
	order := make([]int32, count)
	for i := range count {
		u, _ := pair(i)
		k := c.inv[u]
		order[start[k]] = int32(i)
		start[k]++
	}
	return order
}

// traces returns t_k = Σ_{i≥2} T_k(S)(λ_i) = Σ_u T_k(S)_uu − T_k(C0)
// for k ≤ deg, from the nodes' moments to depth ⌈deg/2⌉, summed per
// fixed piece and then in piece order (the same bits for any number of
// workers).
func (c *momentCtx) traces(pl localPlan, deg int) []float64 {
	n, hn := c.lm.N, (deg+1)/2
	pieces := par.Pieces(n, 256, 1024)
	sums := make([]float64, pieces*(2*hn+1))
	par.For(pieces, min(cap(c.scratch), pieces), func(piece int) {
		s := <-c.scratch
		lo, hi := par.Bounds(n, pieces, piece)
		mu := make([]float64, 2*hn+1)
		one := []float64{1}
		part := sums[piece*(2*hn+1) : (piece+1)*(2*hn+1)]
		for i := lo; i < hi; i++ {
			s.Moments(c.lm, c.deg, pl.basis, []int32{int32(i)}, one, hn, mu)
			for k, v := range mu {
				part[k] += v
			}
		}
		c.scratch <- s
	})
	t := make([]float64, deg+1)
	for piece := range pieces {
		for k := range t {
			t[k] += sums[piece*(2*hn+1)+k]
		}
	}
	for k, tk := range kpm.T(deg, pl.basis.C0) {
		t[k] -= tk
	}
	return t
}

// quadCoef returns d with cᵀG_e c = Σ_m d_m μ_m(e) for the Gram matrix
// G_e,jk = b_eᵀT_j(S)T_k(S)b_e = (μ_{j+k} + μ_{|j−k|})/2.
func quadCoef(c []float64) []float64 {
	h := len(c) - 1
	d := make([]float64, 2*h+1)
	for j, cj := range c {
		for k, ck := range c {
			d[j+k] += cj * ck / 2
			d[abs(j-k)] += cj * ck / 2
		}
	}
	return d
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// quads sets s_e = Σ_m d_m μ_m(e) for every link and returns Σ_e w_e s_e
// (summed per fixed piece, then in order).
func (lm *linkMoments) quads(d, w, s []float64) float64 {
	k1 := 2*lm.h + 1
	m := len(s)
	pieces := par.Pieces(m, 4096, 256)
	part := make([]float64, pieces)
	par.For(pieces, 0, func(piece int) {
		lo, hi := par.Bounds(m, pieces, piece)
		var sum float64
		for i := lo; i < hi; i++ {
			var v float64
			for k, mk := range lm.mu[i*k1 : (i+1)*k1] {
				v += d[k] * mk
			}
			s[i] = v
			sum += w[i] * v
		}
		part[piece] = sum
	})
	var sum float64
	for _, v := range part {
		sum += v
	}
	return sum
}

// designLocal is DesignWeightsAtScale's local path from the feasible
// start w (updated in place). Without a set Depth, a design whose
// certified gap misses Tol at the first depth goes on one degree deeper
// while the balls stay within localWorkMax (spec §13.12, "Local path").
func (p TraceWeightProblem) designLocal(w []float64, pl localPlan, set ScaleDesignSettings, src rand.Source) (*ScaleWeightDesign, error) {
	d := &ScaleWeightDesign{Local: true}
	maxH := pl.h
	if set.Depth == 0 {
		maxH = max(pl.h, kpm.Depth(p.graph(w), localWorkMax, localMaxDepth))
	}
	var rec solve.Record
	for {
		d.Depth = pl.h
		r, err := p.localIterate(w, pl, set, d)
		rec.Iter, rec.Evals, rec.Status = rec.Iter+r.Iter, rec.Evals+r.Evals, r.Status
		if err != nil {
			return nil, err
		}
		if err := p.localValue(w, set, src, d); err != nil {
			return d, err
		}
		if d.Gap <= set.Tol*d.Value.Hi || pl.h >= maxH {
			break
		}
		if pl, err = newLocalPlan(p.graph(w), pl.h+1); err != nil {
			return nil, err
		}
	}
	d.Iterations, d.Evals = rec.Iter, rec.Evals
	var err error
	d.Status, err = certifiedStatus(rec, d.Gap, d.Value.Hi, set.Tol, "DesignWeightsAtScale")
	return d, err
}

// localValue sets the design's weights, graph, value (estimate.Kirchhoff
// over n, 95 % interval at RelAcc Tol/8) and gap.
func (p TraceWeightProblem) localValue(w []float64, set ScaleDesignSettings, src rand.Source, d *ScaleWeightDesign) error {
	d.Weights, d.Graph = w, p.graph(w)
	ts := &estimate.TraceSettings{RelAcc: set.Tol / 8, Solver: set.Solver}
	kf, err := estimate.Kirchhoff(d.Graph, ts, src)
	if err != nil {
		return err
	}
	n := float64(p.Nodes)
	d.Value = loadlab.Estimate{Mean: kf.Estimate.Mean / n, Lo: kf.Estimate.Lo / n, Hi: kf.Estimate.Hi / n, StdErr: kf.Estimate.StdErr / n, N: kf.Estimate.N}
	d.Gap, d.Confidence = d.Value.Hi-d.Lower, 0.95
	d.Solves += kf.Solves
	return nil
}

// localIterate runs the multiplicative updates (spec §13.12, "Local
// path") from w, keeping in d.Lower the best polynomial certificate of
// the iterates, until the certificate and the local estimate of f move
// by less than Tol/20 in an iteration (the local estimate is too rough to
// compare with the certificate itself), or MaxIter.
func (p TraceWeightProblem) localIterate(w []float64, pl localPlan, set ScaleDesignSettings, d *ScaleWeightDesign) (solve.Record, error) {
	var rec solve.Record
	m := len(w)
	s, y := make([]float64, m), make([]float64, m)
	prevF, prevLower := math.Inf(1), 0.0
	g := p.graph(w)
	for {
		if rec.Iter > 0 { // the spectrum moves with the weights: refit [a, b]
			var err error
			if pl, err = newLocalPlan(g, pl.h); err != nil {
				return rec, err
			}
		}
		dinv := quadCoef(pl.inv)
		mom, err := p.linkMoments(g, pl)
		if err != nil {
			return rec, err
		}
		rec.Evals++
		d.Lower = max(d.Lower, p.polyBound(mom, w))
		fl := mom.quads(dinv, w, s) // Σ_e w_e ‖p(L)b_e‖² = tr(p(L)² L) ≈ tr L†
		moved := math.Abs(prevF-fl) / fl
		if d.Lower > 0 {
			moved = max(moved, (d.Lower-prevLower)/d.Lower)
		}
		switch {
		case moved <= set.Tol/20:
			rec.Status = loadlab.Success
			return rec, nil
		case rec.Iter >= set.MaxIter:
			rec.Status = loadlab.IterationLimit
			return rec, nil
		}
		prevF, prevLower = fl, d.Lower
		for i, l := range p.Links { // w_e ← w_e (s_e/c_e) B / Σ w s: the budget kept
			y[i] = w[i] * s[i] / l.Cost * p.Budget / fl
		}
		p.project(s, y)
		next := p.graph(s)
		if !wgraph.IsConnected(next) {
			rec.Status = loadlab.Stagnated
			return rec, nil
		}
		copy(w, s)
		g = next
		rec.Iter++
	}
}
