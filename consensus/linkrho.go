package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// LinkObjective selects what AddLinks minimises.
type LinkObjective int

const (
	// LinkKirchhoff is the Kirchhoff index K_f = n tr L† (the zero
	// value), at any size.
	LinkKirchhoff LinkObjective = iota
	// LinkRho2 is ρ₂ = ½[tr L†/γ + tr_{1⊥}(2I − γL)⁻¹] (σ = 1, spec
	// §4.4) at the update cycle LinkSettings.Gamma, at any size (the
	// sketch path of spec §13.16 above LinkDenseMaxNodes).
	LinkRho2
	// LinkRho2Star is ρ₂ at the best update cycle γ* of the graph with
	// the links (spec §4.4), re-computed every LinkSettings.GammaEvery
	// links, at any size (the sketch path of spec §13.17 above
	// LinkDenseMaxNodes, γ* estimated by EstimateGammaH2).
	LinkRho2Star
)

// String returns "kirchhoff", "rho2" or "rho2-star".
func (o LinkObjective) String() string {
	switch o {
	case LinkRho2:
		return "rho2"
	case LinkRho2Star:
		return "rho2-star"
	}
	return "kirchhoff"
}

// rhoRun is the dense state of AddLinks for the ρ₂ objectives (spec
// §13.15): L† and Q = (2I − γL)⁻¹, row-major, and their traces.
type rhoRun struct {
	g        *wgraph.Graph
	n, k     int
	cands    []wgraph.Edge
	set      LinkSettings
	gamma    float64
	lp, q    []float64
	trL, trQ float64
	used     []bool
	grad     []float64 // h_e = −∂ρ₂/∂w_e at the current links
	out      *LinkResult
}

// rho2 is ρ₂ = ½[tr L†/γ + tr Q − ½] (σ = 1, spec §4.4: tr Q counts the
// eigenvalue ½ of Q on the constants).
func rho2(trL, trQ, gamma float64) float64 { return 0.5 * (trL/gamma + trQ - 0.5) }

// addLinksRho is AddLinks for LinkRho2 and LinkRho2Star (exact path).
func addLinksRho(g *wgraph.Graph, cands []wgraph.Edge, k int, set LinkSettings) (*LinkResult, error) {
	r := &rhoRun{g: g, n: g.Order(), k: k, cands: cands, set: set, used: make([]bool, len(cands)),
		grad: make([]float64, len(cands)), out: &LinkResult{Method: LinkExact, Confidence: 1}}
	gamma := set.Gamma
	if set.Objective == LinkRho2Star {
		var err error
		if gamma, err = gammaStar(g); err != nil {
			return nil, err
		}
	}
	if err := r.reset(g, gamma); err != nil {
		return nil, err
	}
	before := rho2(r.trL, r.trQ, r.gamma)
	r.out.Before = loadlab.Estimate{Mean: before, Lo: before, Hi: before}
	lower, err := r.greedy()
	if err != nil {
		return nil, err
	}
	after := rho2(r.trL, r.trQ, r.gamma)
	if set.Objective == LinkRho2Star {
		if lower, err = r.starBound(); err != nil {
			return nil, err
		}
		gs, err := gammaStar(r.out.Graph)
		if err != nil {
			return nil, err
		}
		if err := r.reset(r.out.Graph, gs); err != nil {
			return nil, err
		}
		after = rho2(r.trL, r.trQ, gs)
		r.out.GammaStar, r.out.AfterGamma = loadlab.Estimate{Mean: gs, Lo: gs, Hi: gs}, gs
	} else if lower, err = r.frankWolfe(lower); err != nil {
		return nil, err
	}
	r.out.After = loadlab.Estimate{Mean: after, Lo: after, Hi: after}
	r.out.Lower = min(lower, after)
	r.out.Gap = after - r.out.Lower
	return r.out, nil
}

// gammaStar returns γ*_H2 of g (σ = 1) from its dense spectrum.
func gammaStar(g *wgraph.Graph) (float64, error) {
	sp, err := NewSpectral(g)
	if err != nil {
		return 0, err
	}
	gamma, _, err := sp.GammaH2(1)
	return gamma, err
}

// reset computes L† and Q of g at γ densely.
func (r *rhoRun) reset(g *wgraph.Graph, gamma float64) error {
	lp, err := spectral.PseudoInverse(g)
	if err != nil {
		return err
	}
	f, err := stationaryInverse(g, gamma)
	if err != nil {
		return err
	}
	var q mat.SymDense
	f.InverseTo(&q)
	n := r.n
	r.lp, r.q = symRows(lp, n), symRows(&q, n)
	r.trL, r.trQ, r.gamma = mat.Trace(lp), mat.Trace(&q), gamma
	return nil
}

func symRows(a *mat.SymDense, n int) []float64 {
	out := make([]float64, n*n)
	for i := range n {
		for j := range n {
			out[i*n+j] = a.At(i, j)
		}
	}
	return out
}

// rhoGain returns the decrease of ρ₂ for adding c (weight w) (spec
// §13.15), with ok = false when the link makes the throttler unstable
// (1 − γw bᵀQb ≤ 0), and h = ½[w‖L†b‖²/γ − γw‖Qb‖²], the linear rate.
func (r *rhoRun) rhoGain(c wgraph.Edge, w float64) (gain, h float64, ok bool) {
	n, u, v := r.n, c.U*r.n, c.V*r.n
	var nl, nq float64
	for j := range n {
		d := r.lp[u+j] - r.lp[v+j]
		e := r.q[u+j] - r.q[v+j]
		nl += d * d
		nq += e * e
	}
	res := r.lp[u+c.U] - r.lp[u+c.V] - r.lp[v+c.U] + r.lp[v+c.V]
	bq := r.q[u+c.U] - r.q[u+c.V] - r.q[v+c.U] + r.q[v+c.V]
	g := r.gamma
	h = 0.5 * (w*nl/g - g*w*nq)
	den := 1 - g*w*bq
	if den <= 0 {
		return math.Inf(-1), h, false
	}
	return 0.5 * (w*nl/(g*(1+w*res)) - g*w*nq/den), h, true // spec §5.2
}

// greedy adds up to k links, each the stable candidate that lowers ρ₂
// most at the current γ, stopping early when none lowers it; it returns
// the best relaxation bound met at the greedy iterates (LinkRho2).
func (r *rhoRun) greedy() (float64, error) {
	b := r.g.Builder()
	lower := math.Inf(-1)
	if r.set.Objective == LinkRho2Star {
		return lower, r.greedyStar(b)
	}
	for step := 0; step < r.k; step++ {
		best, gains := r.scoreAll()
		lower = max(lower, rho2(r.trL, r.trQ, r.gamma)-r.linTerm())
		if best < 0 || !(gains > 0) {
			break
		}
		c := r.cands[best]
		w := linkW(c, r.set.Weight)
		r.out.Steps = append(r.out.Steps, LinkStep{Link: wgraph.Edge{U: c.U, V: c.V, W: w},
			Gain: loadlab.Estimate{Mean: gains, Lo: gains, Hi: gains}, Gamma: r.gamma})
		r.used[best] = true
		r.apply(c, w)
		mustSet(b, c.U, c.V, r.g.Weight(c.U, c.V)+w)
	}
	r.out.Graph = b.Build()
	lower = max(lower, rho2(r.trL, r.trQ, r.gamma)-r.linTermAfter())
	return lower, nil
}

// starGrid are the multiples of γ* at which LinkRho2Star scores links.
var starGrid = [...]float64{1, 0.93, 0.86, 0.78, 0.7, 0.6, 0.5}

// greedyStar adds up to k links for LinkRho2Star (spec §13.15): each
// step scores every candidate by min_j ρ₂(S + e, γ_j) over γ_j = γ*·m_j
// (m_j in starGrid, γ* re-computed every GammaEvery links), an upper
// bound on ρ₂ of S + e at its own γ*, and adds the best, stopping when
// none lowers min_j ρ₂(S, γ_j).
func (r *rhoRun) greedyStar(b *wgraph.Builder) error {
	base := r.gamma
	vals, gam := make([]float64, len(r.cands)), make([]float64, len(r.cands))
	for step := 0; step < r.k; step++ {
		cur := b.Build()
		if step > 0 && step%r.set.GammaEvery == 0 {
			var err error
			if base, err = gammaStar(cur); err != nil {
				return err
			}
		}
		for i := range vals {
			vals[i] = math.Inf(1)
		}
		fcur := math.Inf(1)
		for _, m := range starGrid {
			if err := r.setQ(cur, base*m); err != nil {
				continue // unstable at this γ: so is every S + e
			}
			f := rho2(r.trL, r.trQ, r.gamma)
			fcur = min(fcur, f)
			r.scoreAll()
			par.Range(len(r.cands), 64, 256, 0, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					c := r.cands[i]
					if g, _, ok := r.rhoGain(c, linkW(c, r.set.Weight)); ok && !r.used[i] && f-g < vals[i] {
						vals[i], gam[i] = f-g, r.gamma
					}
				}
			})
		}
		best := -1
		for i, v := range vals {
			if v < fcur && (best < 0 || v < vals[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		c := r.cands[best]
		w := linkW(c, r.set.Weight)
		gain := fcur - vals[best]
		r.out.Steps = append(r.out.Steps, LinkStep{Link: wgraph.Edge{U: c.U, V: c.V, W: w},
			Gain: loadlab.Estimate{Mean: gain, Lo: gain, Hi: gain}, Gamma: gam[best]})
		r.used[best] = true
		r.apply(c, w)
		mustSet(b, c.U, c.V, r.g.Weight(c.U, c.V)+w)
	}
	r.out.Graph = b.Build()
	return nil
}

// setQ sets Q = (2I − γL)⁻¹ of g and γ, keeping L†.
func (r *rhoRun) setQ(g *wgraph.Graph, gamma float64) error {
	f, err := stationaryInverse(g, gamma)
	if err != nil {
		return err
	}
	var q mat.SymDense
	f.InverseTo(&q)
	r.q, r.trQ, r.gamma = symRows(&q, r.n), mat.Trace(&q), gamma
	return nil
}

// scoreAll scores the unused candidates in parallel (fills r.grad) and
// returns the best stable one (ties: the smaller index) and its gain.
func (r *rhoRun) scoreAll() (int, float64) {
	gains := make([]float64, len(r.cands))
	par.Range(len(r.cands), 64, 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			c := r.cands[i]
			g, h, ok := r.rhoGain(c, linkW(c, r.set.Weight))
			r.grad[i] = h
			if !ok || r.used[i] {
				g = math.Inf(-1)
			}
			gains[i] = g
		}
	})
	best, bg := -1, math.Inf(-1)
	for i, g := range gains {
		if g > bg {
			best, bg = i, g
		}
	}
	return best, bg
}

// linTerm returns Σ of the k largest positive h_e minus Σ over the
// chosen h_e, from r.grad (spec §13.15).
func (r *rhoRun) linTerm() float64 {
	pos := make([]float64, 0, len(r.grad))
	chosen := 0.0
	for i, h := range r.grad {
		pos = append(pos, max(h, 0))
		if r.used[i] {
			chosen += h
		}
	}
	return max(topSum(pos, min(r.k, len(pos)))-chosen, 0)
}

// linTermAfter refreshes r.grad at the answer and returns linTerm.
func (r *rhoRun) linTermAfter() float64 {
	r.scoreAll()
	return r.linTerm()
}

// apply adds c (weight w): L† ← L† − c_L x xᵀ, Q ← Q + c_Q y yᵀ with
// x = L†b, y = Qb (spec §5.2).
func (r *rhoRun) apply(c wgraph.Edge, w float64) {
	n := r.n
	x, y := make([]float64, n), make([]float64, n)
	for j := range n {
		x[j] = r.lp[c.U*n+j] - r.lp[c.V*n+j]
		y[j] = r.q[c.U*n+j] - r.q[c.V*n+j]
	}
	res, bq := x[c.U]-x[c.V], y[c.U]-y[c.V]
	cl := w / (1 + w*res)
	cq := r.gamma * w / (1 - r.gamma*w*bq)
	r.trL -= cl * dense.Dot(x, x)
	r.trQ += cq * dense.Dot(y, y)
	rankOne(r.lp, n, x, x, -cl)
	rankOne(r.q, n, y, y, cq)
}

// frankWolfe runs FrankWolfe iterations of the Frank–Wolfe method on the
// relaxation of ρ₂ at γ from the chosen links, halving a step that
// would leave the stable set (ρ₂ is convex there, +∞ beyond), and
// returns the best bound f(w) − gap(w) met (spec §13.15).
func (r *rhoRun) frankWolfe(lower float64) (float64, error) {
	w := make([]float64, len(r.cands))
	for i := range w {
		if r.used[i] {
			w[i] = 1
		}
	}
	s := make([]float64, len(w))
	for t := range r.set.FrankWolfe {
		if t > 0 { // the chosen links' state is already in r
			if err := r.reset(r.weighted(w), r.gamma); err != nil {
				return 0, err
			}
			r.scoreAll()
		}
		lin := 0.0
		for i, h := range r.grad {
			lin += h * w[i]
		}
		top := topIndex(r.grad, r.k, nil)
		sum := 0.0
		clear(s)
		for _, i := range top {
			if r.grad[i] > 0 {
				sum += r.grad[i]
				s[i] = 1
			}
		}
		lower = max(lower, rho2(r.trL, r.trQ, r.gamma)-max(sum-lin, 0))
		eta := 2 / float64(t+3)
		next := make([]float64, len(w))
		stable := false
		for range 20 {
			for i := range w {
				next[i] = (1-eta)*w[i] + eta*s[i]
			}
			if _, err := stationaryInverse(r.weighted(next), r.gamma); err == nil {
				stable = true
				break
			}
			eta /= 2
		}
		if !stable {
			break
		}
		w = next
	}
	return lower, nil
}

// weighted returns the input graph with candidate i added at weight
// w_i·W_i.
func (r *rhoRun) weighted(w []float64) *wgraph.Graph {
	add := map[[2]int]float64{}
	for i, c := range r.cands {
		if w[i] > 0 {
			add[[2]int{min(c.U, c.V), max(c.U, c.V)}] += w[i] * linkW(c, r.set.Weight)
		}
	}
	b := r.g.Builder()
	for e, x := range add {
		mustSet(b, e[0], e[1], r.g.Weight(e[0], e[1])+x)
	}
	return b.Build()
}

// starBound returns a lower bound on min over sets S of at most k
// candidates and γ of ρ₂(S, γ) (spec §13.15). Every S is unstable for
// γ ≥ 2/λ_n of the input graph. On (0, γ₀], ρ₂ ≥ ½[T/γ₀ + (n − 1)/2]
// with T ≤ min_S tr L_S† from the Kirchhoff relaxation. On [γa, γb],
// ρ₂(S, γ) ≥ ψ_S = ½[tr L_S†/γb + tr Q_S(γa) − ½] (tr L†/γ falls and
// tr Q(γ) rises with γ), ψ is convex in the links' weights, and its
// relaxation is bounded by linearising at no links and at the chosen
// ones. The intervals start as a geometric grid and the one with the
// least bound is halved starRefine times; the bound is the least over
// all.
func (r *rhoRun) starBound() (float64, error) {
	kset := LinkSettings{Weight: r.set.Weight, Method: LinkExact, FrankWolfe: r.set.FrankWolfe}
	kr, err := AddLinks(r.g, r.cands, r.k, &kset, nil)
	if err != nil {
		return 0, err
	}
	sp, err := NewSpectral(r.g)
	if err != nil {
		return 0, err
	}
	g0, err := gammaStar(r.g)
	if err != nil {
		return 0, err
	}
	n := float64(r.n)
	g0 /= 4
	first := 0.5 * (max(kr.Lower, 0)/n/g0 + (n-1)/2)
	sb, err := r.newStarBase()
	if err != nil {
		return 0, err
	}
	sb.tLo = max(kr.Lower, 0) / n
	type iv struct{ a, b, lb float64 }
	gmax := 2 / sp.LambdaMax()
	var ivs []iv
	const grid = 16
	for i := range grid {
		a := g0 * math.Pow(gmax/g0, float64(i)/grid)
		b := g0 * math.Pow(gmax/g0, float64(i+1)/grid)
		ivs = append(ivs, iv{a, b, sb.bound(a, b)})
	}
	for range starRefine {
		j := 0
		for i := range ivs {
			if ivs[i].lb < ivs[j].lb {
				j = i
			}
		}
		a, b := ivs[j].a, ivs[j].b
		m := math.Sqrt(a * b)
		ivs[j] = iv{a, m, sb.bound(a, m)}
		ivs = append(ivs, iv{m, b, sb.bound(m, b)})
	}
	lb := first
	for _, v := range ivs {
		lb = min(lb, v.lb)
	}
	return lb, nil
}

// starRefine is the number of interval halvings of starBound.
const starRefine = 24

// starBase holds, for the points w̄ = t·1_S (t in starPoints, t = 0
// the input graph) at which starBound linearises ψ, the graph, tr L†
// and W‖L†b_e‖².
type starBase struct {
	r    *rhoRun
	ts   []float64
	gs   []*wgraph.Graph
	trL  []float64
	hL   [][]float64
	used []bool
	tLo  float64 // T ≤ min_S tr L_S†
}

// starPoints are the multiples t of the chosen links at which
// starBound linearises.
var starPoints = [...]float64{0, 0.25, 0.5, 1}

func (r *rhoRun) newStarBase() (*starBase, error) {
	sb := &starBase{r: r, used: r.used}
	w := make([]float64, len(r.cands))
	for _, t := range starPoints {
		for i := range w {
			if r.used[i] {
				w[i] = t
			}
		}
		g := r.weighted(w)
		lp, err := spectral.PseudoInverse(g)
		if err != nil {
			return nil, err
		}
		sb.ts, sb.gs = append(sb.ts, t), append(sb.gs, g)
		sb.trL = append(sb.trL, mat.Trace(lp))
		sb.hL = append(sb.hL, r.colNorms(symRows(lp, r.n)))
	}
	return sb, nil
}

// colNorms returns W_e‖M b_e‖² for every candidate, M n × n row-major
// and symmetric.
func (r *rhoRun) colNorms(m []float64) []float64 {
	n := r.n
	out := make([]float64, len(r.cands))
	par.Range(len(r.cands), 64, 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			c := r.cands[i]
			s := 0.0
			for j := range n {
				d := m[c.U*n+j] - m[c.V*n+j]
				s += d * d
			}
			out[i] = linkW(c, r.set.Weight) * s
		}
	})
	return out
}

// bound returns the better linearisation bound of ψ on [a, b] (at no
// links and at the chosen ones), +Inf when the input graph is unstable
// at a (then every S is, on the whole interval).
func (sb *starBase) bound(a, b float64) float64 {
	best := math.Inf(-1)
	for t, g := range sb.gs {
		f, err := stationaryInverse(g, a)
		if err != nil {
			if t == 0 {
				return math.Inf(1)
			}
			continue
		}
		var q mat.SymDense
		f.InverseTo(&q)
		hQ := sb.r.colNorms(symRows(&q, sb.r.n))
		h := make([]float64, len(hQ))
		lin := 0.0
		for i := range h {
			h[i] = max(0.5*(sb.hL[t][i]/b-a*hQ[i]), 0)
			if sb.used[i] {
				lin += sb.ts[t] * 0.5 * (sb.hL[t][i]/b - a*hQ[i])
			}
		}
		if t == 0 { // tr Q_S(a) ≥ tr Q_G(a): links raise Q
			best = max(best, 0.5*(sb.tLo/b+mat.Trace(&q)-0.5))
		}
		psi := 0.5 * (sb.trL[t]/b + mat.Trace(&q) - 0.5)
		best = max(best, psi-max(topSum(h, min(sb.r.k, len(h)))-lin, 0))
	}
	return best
}
