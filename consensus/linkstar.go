package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// starSketch is the state of AddLinks for LinkRho2Star on the sketch
// path (spec §13.17): one ρ₂ sketch per grid cycle γ_j = γ̂·m_j (m_j in
// starGrid, nil once the cycle is unstable for the links chosen), the
// levels ρ₂(S, γ_j) the steps are scored against, and the sampler of
// the input graph behind Before, After and the certificate.
type starSketch struct {
	hs     *h2Sampler       // EstimateGammaH2's probes on the input graph
	lmax   spectral.Bracket // the narrowed λ_n bracket of the input graph
	gamma0 loadlab.Estimate // γ*_H2 of the input graph
	base   float64          // γ̂ of the graph at the last re-tune
	cycles []*rhoSketch
	lev    []float64    // ρ₂(S, γ_j): the last re-tune's estimate less the gains since
	s      []float64    // the Rademacher S shared by the cycles' sketches
	all    []*rhoSketch // every cycle state built (their solves are counted)
}

// Settings of the sketch path of LinkRho2Star (spec §13.17).
const (
	// starLambdaWidth is the relative width of the λ_n bracket that ends
	// the certificate's range of cycles at 2/λ_n⁻.
	starLambdaWidth = 1e-4
	// starCapGap: the sampler's quadratures are run to the cap
	// (2 − starCapGap)/λ_n⁺.
	starCapGap = 1.0 / 64
	// starQuadTol is the relative half-width of the quadrature brackets
	// of every probe (the certificate takes differences of ρ₂ between
	// cycles, far smaller than ρ₂).
	starQuadTol = 1e-9
	// starMinProbes is the fewest probes the certificate's union bound
	// over its cells is taken with (the Student-t quantile at the level
	// Miss/(2·cells) falls from about 6.5 at 20 probes to 4.9 at 64).
	starMinProbes = 64
)

// startStar estimates γ*_H2 of the input graph with its interval, runs
// the sampler's quadratures to the certificate's accuracy, and solves
// for one sketch of Q per grid cycle.
func (r *linkRun) startStar() error {
	est, hs, err := gammaH2Sampler(r.g, r.set.Trace, r.rng, false)
	if err != nil {
		return err
	}
	st := r.star
	st.hs, st.gamma0, st.base = hs, est.Gamma, est.Gamma.Mean
	// a narrower bracket moves the last cell's end 2/λ_n⁻ down; when it
	// cannot be had the sampler's stands
	if br, err := spectral.LambdaMaxBracket(r.g, &spectral.EigenSettings{RelWidth: starLambdaWidth}); err == nil && br.Hi < hs.br.Hi {
		hs.br, hs.lmax = br, br.Hi
	}
	st.lmax = hs.br
	hs.gap, hs.tol = min(hs.gap, starCapGap), starQuadTol
	if err := hs.runAll(hs.probes, false); err != nil {
		return err
	}
	if more := starMinProbes - len(hs.probes); more > 0 {
		if err := hs.addFixed(more, r.rng); err != nil {
			return err
		}
	}
	// Before is the estimated curve ρ₂(G, ·) at its least over γ*'s
	// interval, with the probes the certificate uses (spec §13.17).
	lo, hi := min(est.Gamma.Lo, hs.gcap()), min(est.Gamma.Hi, hs.gcap())
	r.out.Before.Mean = math.Inf(1)
	err = goldenMin(func(gam float64) (float64, error) {
		e := hs.summary(gam, sampleRho2)
		if e.Mean < r.out.Before.Mean {
			r.out.Before, st.base = e, gam
		}
		return e.Mean, nil
	}, lo, hi, 2*starAfterEvals)
	if err != nil {
		return err
	}
	n, m := r.n, r.m
	if err := size.Check("consensus", "AddLinks: ρ₂* sketch entries", n, 8*((len(starGrid)+1)*m+(len(starGrid)+1)*(starBatches*r.set.Pool+r.k)+1)); err != nil {
		return err
	}
	return r.retune(hs, st.base)
}

// retune sets the grid cycles γ̂·m_j with their sketches of Q_k (m
// solves each and the links so far by the product form) and their
// levels ρ₂(S, γ_j) from the sampler hs of the current graph S.
func (r *linkRun) retune(hs *h2Sampler, base float64) error {
	st := r.star
	st.base = base
	for _, rs := range st.cycles {
		rs.release()
	}
	st.cycles, st.lev = make([]*rhoSketch, len(starGrid)), make([]float64, len(starGrid))
	for j, mult := range starGrid {
		rs, _, err := r.cycleAt(base*mult, true)
		if err != nil {
			return err
		}
		st.cycles[j] = rs
		r.cycleCV(rs)
		if rs != nil {
			st.lev[j] = hs.summary(rs.gamma, sampleRho2).Mean
		}
	}
	return nil
}

// cycleAt builds the ρ₂ state of the graph with the links chosen so far
// at cycle γ: the sketch S Q (withSketch) and, link by link, y_i =
// Q_{i−1}b_i by a solve and the product form, each link certified stable
// at γ (spec §13.16); it returns the step gains Δρ₂ at γ with their
// intervals, and a nil state when γλ_n⁺ ≥ 2 or a link is not certified
// stable at γ.
func (r *linkRun) cycleAt(gamma float64, withSketch bool) (*rhoSketch, []loadlab.Estimate, error) {
	st := r.star
	if !(gamma*st.lmax.Hi < 2) {
		return nil, nil, nil
	}
	rs := &rhoSketch{gamma: gamma, lmax: st.lmax, invMu: 1 / (2 - gamma*st.lmax.Hi),
		tol: r.sol.Settings().Tol, pool: map[int][]float64{}, s: st.s}
	st.all = append(st.all, rs)
	if withSketch {
		if err := r.sketchQ(rs); err != nil {
			return nil, nil, err
		}
	}
	steps := r.out.Steps
	defer func() { r.out.Steps = steps }()
	gains := make([]loadlab.Estimate, 0, len(r.order))
	for s, i := range r.order {
		c := r.cands[i]
		y, err := r.exactY(rs, c)
		if err != nil {
			return nil, nil, err
		}
		r.out.Steps = steps[:s] // the graph before link s, for the residuals
		rc := r.rhoGain(rs, c, r.linkWeight(c), r.xs[s], y)
		if !rc.stable {
			rs.release()
			return nil, nil, nil
		}
		gains = append(gains, rc.gain)
		rs.pendBeta, rs.pendNy = rc.betaHi, rc.nyHi
		r.applyRho(rs, i, y)
	}
	return rs, gains, nil
}

// release drops a cycle state's vectors (its sketch, corrections,
// confirmed and chosen y) once it is replaced or dead; its solve count
// stays (shiftedSolves).
func (rs *rhoSketch) release() {
	if rs != nil {
		rs.s, rs.zq, rs.cq, rs.cb, rs.ys, rs.pool = nil, nil, nil, nil, nil, nil
	}
}

// shiftedSolves counts the solves of 2I − γL of every cycle built.
func (st *starSketch) shiftedSolves() int {
	k := 0
	for _, rs := range st.all {
		k += rs.solves
	}
	return k
}

// levMin returns the least level over the live cycles (+Inf if none).
func (st *starSketch) levMin() float64 {
	f := math.Inf(1)
	for j, rs := range st.cycles {
		if rs != nil {
			f = min(f, st.lev[j])
		}
	}
	return f
}

// starScore is the screened score of candidate c for LinkRho2Star: the
// decrease of the grid minimum, max_j [Δρ₂(γ_j) − (ρ₂(S, γ_j) − min_i
// ρ₂(S, γ_i))] over the live cycles (spec §13.15, §13.17).
func (r *linkRun) starScore(i int, w, sq, res float64) float64 {
	st := r.star
	f := st.levMin()
	best := math.Inf(-1)
	for j, rs := range st.cycles {
		if rs != nil {
			best = max(best, r.rhoScoreIn(rs, i, w, sq, res)-(st.lev[j]-f))
		}
	}
	return best
}

// starPick is a confirmed candidate of LinkRho2Star: x = L_k†b, its y
// and confirmed gain at every live cycle, and the cycle it is scored at.
type starPick struct {
	i     int
	x     []float64
	ys    [][]float64
	rcs   []rhoConfirmed
	cycle int
	score float64
}

// confirmStar confirms candidate i at every live cycle (x by a Laplacian
// solve, y by a solve of 2I − γ_jL, both through the product forms). It
// reports ok = false when the link is not certified stable at the
// smallest live cycle (then it is unstable, or undecided, at every
// cycle of the grid).
func (r *linkRun) confirmStar(i int) (starPick, bool, error) {
	st := r.star
	c := r.cands[i]
	w := r.linkWeight(c)
	p := starPick{i: i, ys: make([][]float64, len(st.cycles)), rcs: make([]rhoConfirmed, len(st.cycles)), cycle: -1}
	x, ok := r.pool[i]
	if !ok {
		var err error
		if x, err = r.exactX(c); err != nil {
			return p, false, err
		}
	}
	p.x = x
	f, last := st.levMin(), -1
	for j, rs := range st.cycles {
		if rs == nil {
			continue
		}
		y, ok := rs.pool[i]
		if !ok {
			var err error
			if y, err = r.exactY(rs, c); err != nil {
				return p, false, err
			}
		}
		p.ys[j], p.rcs[j], last = y, r.rhoGain(rs, c, w, x, y), j
		if s := p.rcs[j].gain.Mean - (st.lev[j] - f); p.rcs[j].stable && (p.cycle < 0 || s > p.score) {
			p.cycle, p.score = j, s
		}
	}
	return p, last >= 0 && p.rcs[last].stable, nil
}

// chooseStar confirms the Pool best-screened candidates and returns the
// one whose link lowers the grid minimum most (cycle < 0 when none is
// certified stable); a candidate not certified stable at the smallest
// live cycle is refused for good (spec §13.17). When no confirmed score
// is positive it confirms the next Pool, up to starBatches Pools.
func (r *linkRun) chooseStar() (starPick, error) {
	var best starPick
	for b := 1; b <= starBatches; b++ {
		if b > 1 {
			r.restoreLazy(-1)
		}
		var err error
		if best, err = r.chooseStarFrom(r.lazyTop(b * r.set.Pool)); err != nil || (best.cycle >= 0 && best.score > 0) {
			return best, err
		}
	}
	return best, nil
}

// starBatches is the most Pools of candidates a step of LinkRho2Star
// confirms before it concludes that no link lowers ρ₂: on regular graphs
// at γ* a link's gain is a small difference of its two parts, each
// screened with relative error √(2/m) without the screening control
// variate, so the best-screened can all be losses while others gain
// (with it, at 10⁵ nodes, the first Pool of each step held gaining
// candidates; spec §13.17).
const starBatches = 4

// chooseStarFrom confirms the candidates top (those already confirmed
// at this step from the pools) and returns the best.
func (r *linkRun) chooseStarFrom(top []int) (starPick, error) {
	st := r.star
	keepX := map[int][]float64{}
	keepY := make([]map[int][]float64, len(st.cycles))
	for j := range keepY {
		keepY[j] = map[int][]float64{}
	}
	best := starPick{cycle: -1}
	for _, i := range top {
		p, ok, err := r.confirmStar(i)
		if err != nil {
			return best, err
		}
		if !ok || p.cycle < 0 {
			r.used[i] = true
			r.refusedStar++
			continue
		}
		keepX[i] = p.x
		for j, y := range p.ys {
			if y != nil {
				keepY[j][i] = y
			}
		}
		if best.cycle < 0 || p.score > best.score {
			best = p
		}
	}
	r.pool = keepX
	for j, rs := range st.cycles {
		if rs != nil {
			rs.pool = keepY[j]
		}
	}
	return best, nil
}

// applyStar adds the chosen link to every live cycle (a cycle at which
// it is not certified stable dies: the grown graph is unstable there, or
// undecided) and lowers each cycle's level by its gain there; the step's
// Gain is the decrease of the grid minimum, with the interval of the
// chosen cycle's gain (spec §13.15, §13.17).
func (r *linkRun) applyStar(p starPick) LinkStep {
	st := r.star
	f := st.levMin()
	j := p.cycle
	g := p.rcs[j].gain
	d := st.lev[j] - f
	c := r.cands[p.i]
	step := LinkStep{Link: wgraph.Edge{U: c.U, V: c.V, W: r.linkWeight(c)}, Gamma: st.cycles[j].gamma,
		Gain: loadlab.Estimate{Mean: g.Mean - d, Lo: g.Lo - d, Hi: g.Hi - d}}
	for t, rs := range st.cycles {
		switch {
		case rs == nil:
		case !p.rcs[t].stable:
			rs.release()
			st.cycles[t] = nil
		default:
			rs.pendBeta, rs.pendNy = p.rcs[t].betaHi, p.rcs[t].nyHi
			r.applyRho(rs, p.i, p.ys[t])
			st.lev[t] -= p.rcs[t].gain.Mean
		}
	}
	r.apply(p.i, p.x)
	return step
}

// runStar adds up to k links for LinkRho2Star on the sketch path (spec
// §13.17), re-tuning γ* every GammaEvery links, then evaluates the
// answer at its own γ* and certifies it.
func (r *linkRun) runStar() (*LinkResult, error) {
	b := r.g.Builder()
	for step := range r.k {
		if step > 0 && step%r.set.GammaEvery == 0 {
			est, hs, err := gammaH2Sampler(b.Build(), r.set.Trace, r.rng, false)
			if err != nil {
				return nil, err
			}
			if err := r.retune(hs, est.Gamma.Mean); err != nil {
				return nil, err
			}
		}
		p, err := r.chooseStar()
		if err != nil {
			return nil, err
		}
		if p.cycle < 0 || !(p.score > 0) {
			r.restoreLazy(-1)
			break
		}
		s := r.applyStar(p)
		r.out.Steps = append(r.out.Steps, s)
		r.restoreLazy(p.i)
		mustSet(b, s.Link.U, s.Link.V, r.g.Weight(s.Link.U, s.Link.V)+s.Link.W)
	}
	r.out.Graph = b.Build()
	r.zt, r.yt, r.heap, r.pool = nil, nil, nil, nil
	r.dropScreen()
	for _, rs := range r.star.cycles {
		rs.release()
	}
	r.star.cycles, r.star.s = nil, nil
	if err := r.afterStar(); err != nil {
		return nil, err
	}
	if err := r.certifyStar(); err != nil {
		return nil, err
	}
	r.out.Lower = min(r.lower, r.out.After.Lo)
	r.out.Gap = r.out.After.Lo - r.out.Lower
	r.out.Rescored, r.out.Refused = r.rescored, r.refusedStar
	r.out.ShiftedSolves = r.star.shiftedSolves()
	return r.out, nil
}

// afterStar sets After to ρ₂ of the answer S at γ_A, the minimiser
// of the estimated curve ρ₂(G, γ) − Σ_i Δρ₂_i(γ) (the input's probes
// less the links' gains at γ, each by a solve of 2I − γL and the product
// form) over the union of the 95 % intervals of γ* of the input and of
// the answer (GammaStar, EstimateGammaH2 on the answer); Before is the
// same curve without the links at its minimiser, so Before and After
// share the probes and their
// difference is the links' effect, not the estimates' spread (spec
// §13.17). A γ at which a link is not certified stable is skipped.
func (r *linkRun) afterStar() error {
	st := r.star
	r.out.GammaStar = st.gamma0
	if len(r.out.Steps) == 0 {
		r.out.After, r.out.AfterGamma = r.out.Before, st.base
		return nil
	}
	est, _, err := gammaH2Sampler(r.out.Graph, r.set.Trace, r.rng, false)
	if err != nil {
		return err
	}
	r.out.GammaStar = est.Gamma
	gcap := st.hs.gcap()
	lo, hi := min(est.Gamma.Lo, st.gamma0.Lo, gcap), min(max(est.Gamma.Hi, st.gamma0.Hi), gcap)
	best, bestG := loadlab.Estimate{Mean: math.Inf(1)}, 0.0
	eval := func(gam float64) (float64, error) {
		rs, gains, err := r.cycleAt(gam, false)
		if err != nil || rs == nil {
			return math.Inf(1), err
		}
		rs.release()
		rho := st.hs.summary(gam, sampleRho2)
		var t loadlab.Estimate
		for _, g := range gains {
			t.Mean, t.Lo, t.Hi = t.Mean+g.Mean, t.Lo+g.Lo, t.Hi+g.Hi
		}
		e := loadlab.Estimate{Mean: rho.Mean - t.Mean, Lo: rho.Lo - t.Hi, Hi: rho.Hi - t.Lo, StdErr: rho.StdErr, N: rho.N}
		if e.Mean < best.Mean {
			best, bestG = e, gam
		}
		return e.Mean, nil
	}
	if err := goldenMin(eval, lo, hi, starAfterEvals); err != nil {
		return err
	}
	for gam := lo; math.IsInf(best.Mean, 1) && gam > lo/2; gam *= 0.98 { // no certified-stable γ in the interval
		if _, err := eval(gam); err != nil {
			return err
		}
	}
	if math.IsInf(best.Mean, 1) {
		return loadlab.Wrap(ErrUnstable, "consensus", "AddLinks: the answer is not certified stable near its γ* = %v", est.Gamma.Mean)
	}
	r.out.After, r.out.AfterGamma = best, bestG
	return nil
}

// starAfterEvals is the number of cycles afterStar evaluates.
const starAfterEvals = 16

// goldenMin evaluates f at evals points of a golden-section search for
// its minimum on [lo, hi] (f records the best itself).
func goldenMin(f func(float64) (float64, error), lo, hi float64, evals int) error {
	const phi = 0.6180339887498949
	a, b := lo, hi
	c, d := b-phi*(b-a), a+phi*(b-a)
	fc, err := f(c)
	if err != nil {
		return err
	}
	fd, err := f(d)
	if err != nil {
		return err
	}
	for range evals - 2 {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - phi*(b-a)
			if fc, err = f(c); err != nil {
				return err
			}
		} else {
			a, c, fc = c, d, fd
			d = a + phi*(b-a)
			if fd, err = f(d); err != nil {
				return err
			}
		}
	}
	return nil
}
