package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// rhoSketch is the ρ₂ part of the sketch path of AddLinks for LinkRho2
// (spec §13.16): the sketch S Q_k of Q_k = (2I − γL_k)⁻¹ with its
// Rademacher S (node-major, s[i·m+j]), the product form Q_k = Q +
// Σ_i cq_i y_i y_iᵀ, the confirmed candidates' y = Q_k b, and an upper
// bound on ‖Q_k‖ on 1⊥.
type rhoSketch struct {
	gamma   float64
	lmax    spectral.Bracket // λ_n of the input graph
	s, zq   []float64
	cq, cb  []float32 // the screening control variate of q(L) per candidate, nil without
	ys      [][]float64
	cqs     []float64
	invMu   float64 // ≥ ‖Q_k‖ = 1/(2 − γλ_n(L_k)), spec §13.16
	pool    map[int][]float64
	tol     float64
	solves  int // solves of 2I − γL
	refused int
	// the chosen candidate's upper bounds on β and ‖y‖ (for invMu)
	pendBeta, pendNy float64
}

// rhoShiftedMaxIter caps the conjugate-gradient iterations of one solve
// of 2I − γL.
const rhoShiftedMaxIter = 20000

// startRho estimates ρ₂ of the input graph (which brackets λ_n and
// refuses an unstable γ) and solves for the sketch S Q.
func (r *linkRun) startRho() error {
	rs := r.rho
	est, err := estimateH2(r.g, rs.gamma, r.set.Trace, r.rng)
	if err != nil {
		return err
	}
	r.out.Before = est.Rho2
	rs.lmax = est.LambdaMax
	rs.invMu = 1 / (2 - rs.gamma*est.LambdaMax.Hi) // ‖Q‖ on 1⊥, spec §13.16
	rs.tol, rs.pool = r.sol.Settings().Tol, map[int][]float64{}
	n, m := r.n, r.m
	if err := size.Check("consensus", "AddLinks: ρ₂ sketch entries", n, 8*(2*m+r.set.Pool+r.k+1)); err != nil {
		return err
	}
	rs.s = make([]float64, n*m)
	sc := 1 / math.Sqrt(float64(m))
	for i := range rs.s {
		rs.s[i] = sc * rademacher(r.rng)
	}
	return r.sketchQ(rs)
}

// sketchQ solves for the sketch S Q of Q = (2I − γL)⁻¹ on the input
// graph at rs.gamma (m solves, in parallel, node-major).
func (r *linkRun) sketchQ(rs *rhoSketch) error {
	n, m := r.n, r.m
	rs.zq = make([]float64, n*m)
	errs := make([]error, m)
	par.For(m, 0, func(j int) {
		cg := newShiftedCG(r.sol.Operator(), rs.gamma, rs.tol, rhoShiftedMaxIter)
		cg.who = "AddLinks"
		b, x := make([]float64, n), make([]float64, n)
		for i := range n {
			b[i] = rs.s[i*m+j]
		}
		if _, errs[j] = cg.solve(x, b); errs[j] != nil {
			return
		}
		for i := range n {
			rs.zq[i*m+j] = x[i]
		}
	})
	rs.solves += m
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// rhoScoreIn is the screened Δρ₂ of candidate i of weight w at the ρ₂
// sketch rs (one cycle; spec §13.16) from sq ≈ ‖L_k†b‖², res ≈ R_uv and
// the sketch of Q_k: ‖Q_k b‖² ≈ ‖S Q_k b‖² and β = bᵀQ_k b ≈ 1 +
// (Sb)ᵀ(S Q_k b) − ½‖Sb‖², or with the screening control variate of
// q(L) (rs.cq, rs.cb; spec §13.16, "Screening control variate") ‖S Q_k
// b‖² + cq_e and (Sb)ᵀ(S Q_k b) + cb_e; β clamped to its certified range
// [1 + γ(d_u + d_v)/4, 2‖Q_k‖]; −Inf when the screened link would make
// the throttler unstable.
func (r *linkRun) rhoScoreIn(rs *rhoSketch, i int, w, sq, res float64) float64 {
	sqQ, beta := r.rhoScreened(rs, i)
	c, g := r.cands[i], rs.gamma
	lo := 1 + g*(r.g.WeightedDegree(c.U)+r.g.WeightedDegree(c.V)+2*r.g.Weight(c.U, c.V))/4
	sqQ, beta = max(sqQ, 0), min(max(beta, lo), 2*rs.invMu)
	den := 1 - g*w*beta
	if den <= 0 {
		return math.Inf(-1)
	}
	return 0.5 * (w*sq/(g*(1+w*res)) - g*w*sqQ/den)
}

// rhoScreened returns the screened ‖Q_k b‖² and β of candidate i at the
// ρ₂ sketch rs (unbiased, not clamped; rhoScoreIn clamps them).
func (r *linkRun) rhoScreened(rs *rhoSketch, i int) (sqQ, beta float64) {
	c := r.cands[i]
	m := r.m
	u, v := c.U*m, c.V*m
	var cross, sb2 float64
	for j := range m {
		dq := rs.zq[u+j] - rs.zq[v+j]
		ds := rs.s[u+j] - rs.s[v+j]
		sqQ += dq * dq
		cross += ds * dq
		sb2 += ds * ds
	}
	beta = 1 + cross - sb2/2
	if rs.cq != nil {
		sqQ, beta = sqQ+float64(rs.cq[i]), cross+float64(rs.cb[i])
	}
	return sqQ, beta
}

// exactY returns y = Q_k b for candidate c: a solve of 2I − γL on the
// input graph and the product form.
func (r *linkRun) exactY(rs *rhoSketch, c wgraph.Edge) ([]float64, error) {
	n := r.n
	b, y := make([]float64, n), make([]float64, n)
	b[c.U], b[c.V] = 1, -1
	cg := newShiftedCG(r.sol.Operator(), rs.gamma, rs.tol, rhoShiftedMaxIter)
	cg.who = "AddLinks"
	if _, err := cg.solve(y, b); err != nil {
		return nil, err
	}
	rs.solves++
	for i, yi := range rs.ys {
		dense.Axpy(y, rs.cqs[i]*(yi[c.U]-yi[c.V]), yi)
	}
	return y, nil
}

// yErr bounds ‖ŷ − Q_k b‖ for a computed ŷ of candidate c (spec
// §13.16): ŷ is projected onto 1⊥ and its residual b − (2I − γL_k)ŷ,
// with L_k applied in O(|E| + k), times the bound on ‖Q_k‖.
func (r *linkRun) yErr(rs *rhoSketch, y []float64, c wgraph.Edge) float64 {
	dense.Center(y)
	g := rs.gamma
	ly := make([]float64, len(y))
	r.sol.Operator().Apply(ly, y)
	for _, s := range r.out.Steps {
		d := s.Link.W * (y[s.Link.U] - y[s.Link.V])
		ly[s.Link.U] += d
		ly[s.Link.V] -= d
	}
	for i := range ly {
		ly[i] = 2*y[i] - g*ly[i]
	}
	ly[c.U] -= 1
	ly[c.V] += 1
	return math.Sqrt(dense.Dot(ly, ly)) * rs.invMu
}

// rhoGainOf is Δρ₂ = ½[W‖x‖²/(γ(1 + WR)) − γW‖y‖²/(1 − γWβ)] (spec
// §13.15), −Inf when 1 − γWβ ≤ 0.
func rhoGainOf(gamma, w, nx, res, ny, beta float64) float64 {
	den := 1 - gamma*w*beta
	if den <= 0 {
		return math.Inf(-1)
	}
	return 0.5 * (w*nx*nx/(gamma*(1+w*res)) - gamma*w*ny*ny/den)
}

// rhoConfirmed is a confirmed candidate: its gain with the interval the
// solves' error bounds give, and whether the link is certified stable
// (1 − γW β⁺ > 0) or certified unstable (1 − γW β⁻ ≤ 0).
type rhoConfirmed struct {
	gain             loadlab.Estimate
	stable, unstable bool
	betaHi, nyHi     float64
}

// rhoGain returns the confirmed gain of c (weight w) from x = L_k†b and
// y = Q_k b (spec §13.16): ‖x‖ ± E_x, R ± √2E_x, ‖y‖ ± E_y, β ± √2E_y,
// the gain increasing in ‖x‖ and decreasing in R, ‖y‖ and β.
func (r *linkRun) rhoGain(rs *rhoSketch, c wgraph.Edge, w float64, x, y []float64) rhoConfirmed {
	ex, ey := r.xErr(x, c), r.yErr(rs, y, c)
	g := rs.gamma
	nx, res := math.Sqrt(dense.Dot(x, x)), x[c.U]-x[c.V]
	ny, beta := math.Sqrt(dense.Dot(y, y)), y[c.U]-y[c.V]
	out := rhoConfirmed{betaHi: beta + math.Sqrt2*ey, nyHi: ny + ey}
	out.stable = 1-g*w*out.betaHi > 0
	out.unstable = 1-g*w*(beta-math.Sqrt2*ey) <= 0
	if !out.stable {
		return out
	}
	out.gain = loadlab.Estimate{Mean: rhoGainOf(g, w, nx, res, ny, beta),
		Lo: rhoGainOf(g, w, max(nx-ex, 0), res+math.Sqrt2*ex, out.nyHi, out.betaHi),
		Hi: rhoGainOf(g, w, nx+ex, max(res-math.Sqrt2*ex, 0), max(ny-ey, 0), max(beta-math.Sqrt2*ey, 1))}
	return out
}

// chooseRho confirms the Pool best-screened candidates by solves and
// returns the certified-stable one of largest gain (best < 0 when there
// is none). A candidate not certified stable is refused for good: a link
// that would make the throttler unstable does so on every later graph
// too (links raise λ_n), and one the bounds cannot decide is refused as
// unsafe.
func (r *linkRun) chooseRho() (best int, x, y []float64, gain loadlab.Estimate, err error) {
	top := r.lazyTop(r.set.Pool)
	keepX, keepY := map[int][]float64{}, map[int][]float64{}
	best = -1
	var bestC rhoConfirmed
	for _, i := range top {
		c := r.cands[i]
		xi, ok := r.pool[i]
		if !ok {
			if xi, err = r.exactX(c); err != nil {
				return -1, nil, nil, gain, err
			}
		}
		yi, ok := r.rho.pool[i]
		if !ok {
			if yi, err = r.exactY(r.rho, c); err != nil {
				return -1, nil, nil, gain, err
			}
		}
		rc := r.rhoGain(r.rho, c, r.linkWeight(c), xi, yi)
		if !rc.stable {
			r.used[i] = true
			r.rho.refused++
			continue
		}
		keepX[i], keepY[i] = xi, yi
		if best < 0 || rc.gain.Mean > bestC.gain.Mean {
			best, bestC = i, rc
		}
	}
	r.pool, r.rho.pool = keepX, keepY
	if best < 0 {
		return -1, nil, nil, gain, nil
	}
	r.rho.pendBeta, r.rho.pendNy = bestC.betaHi, bestC.nyHi
	return best, keepX[best], keepY[best], bestC.gain, nil
}

// applyRho adds candidate i (y = Q_k b) to the ρ₂ state (spec §13.16):
// Q_{k+1} = Q_k + cq y yᵀ with cq = γW/(1 − γWβ), so S Q_{k+1} = S Q_k +
// cq (S Q_k b) yᵀ, the confirmed y_p gain cq y (yᵀb_p), and ‖Q_{k+1}‖ ≤
// ‖Q_k‖ + cq⁺ ‖y‖⁺² with the upper ends of β and ‖y‖.
func (r *linkRun) applyRho(rs *rhoSketch, i int, y []float64) {
	m := r.m
	c := r.cands[i]
	w, g := r.linkWeight(c), rs.gamma
	cq := g * w / (1 - g*w*(y[c.U]-y[c.V]))
	delete(rs.pool, i)
	for p, yp := range rs.pool {
		cp := r.cands[p]
		dense.Axpy(yp, cq*(y[cp.U]-y[cp.V]), y)
	}
	if rs.zq != nil {
		zb := make([]float64, m)
		for j := range m {
			zb[j] = rs.zq[c.U*m+j] - rs.zq[c.V*m+j]
		}
		rankOne(rs.zq, m, y, zb, cq)
	}
	rs.ys, rs.cqs = append(rs.ys, y), append(rs.cqs, cq)
	rs.invMu += g * w / (1 - g*w*rs.pendBeta) * rs.pendNy * rs.pendNy
}

// runRho adds up to k links for LinkRho2 on the sketch path, stopping
// when no confirmed stable candidate lowers ρ₂, and certifies the answer
// (spec §13.16).
func (r *linkRun) runRho() (*LinkResult, error) {
	b := r.g.Builder()
	for range r.k {
		i, x, y, gain, err := r.chooseRho()
		if err != nil {
			return nil, err
		}
		if i < 0 || !(gain.Mean > 0) {
			r.restoreLazy(-1)
			break
		}
		c := r.cands[i]
		w := r.linkWeight(c)
		r.applyRho(r.rho, i, y)
		r.apply(i, x)
		r.out.Steps = append(r.out.Steps, LinkStep{Link: wgraph.Edge{U: c.U, V: c.V, W: w}, Gain: gain, Gamma: r.rho.gamma})
		r.restoreLazy(i)
		mustSet(b, c.U, c.V, r.g.Weight(c.U, c.V)+w)
	}
	r.out.Graph = b.Build()
	r.zt, r.yt, r.heap, r.pool = nil, nil, nil, nil
	r.dropScreen()
	r.rho.s, r.rho.zq, r.rho.pool, r.rho.cq, r.rho.cb = nil, nil, nil, nil, nil
	var total loadlab.Estimate // ρ₂ after = before − Σ gains, spec §13.16
	for _, s := range r.out.Steps {
		total.Mean, total.Lo, total.Hi = total.Mean+s.Gain.Mean, total.Lo+s.Gain.Lo, total.Hi+s.Gain.Hi
	}
	bf := r.out.Before
	r.out.After = loadlab.Estimate{Mean: bf.Mean - total.Mean, Lo: bf.Lo - total.Hi, Hi: bf.Hi - total.Lo,
		StdErr: bf.StdErr, N: bf.N}
	if err := r.certifyRho(); err != nil {
		return nil, err
	}
	r.out.Lower = min(r.lower, r.out.After.Lo)
	r.out.Gap = r.out.After.Lo - r.out.Lower
	r.out.Rescored, r.out.Refused = r.rescored, r.rho.refused
	r.out.ShiftedSolves = r.rho.solves
	return r.out, nil
}

// certifyRho sets r.lower to the better of the two linearisation bounds
// of spec §13.16 (at no links and at the chosen ones), from the
// certificate's Gaussian sketch of g_e = W_e‖L†b_e‖² (the Kirchhoff
// path's, §13.13) and t_e = ‖Q b_e‖² ≥ tLow.
func (r *linkRun) certifyRho() error {
	if len(r.out.Steps) == 0 && r.k == 0 {
		r.lower = r.out.After.Lo
		return nil
	}
	if err := r.startCV(); err != nil {
		return err
	}
	acc0, acck, err := r.certSketch()
	if err != nil {
		return err
	}
	r.sk0 = math.Sqrt(2*r.res0) / r.l2lo
	r.skk = math.Sqrt(2*r.resk) / r.l2lo
	q := r.certQuantile()
	d0, err := r.sketchTerm(acc0, q, false)
	if err != nil {
		return err
	}
	dk, err := r.sketchTerm(acck, q, true)
	if err != nil {
		return err
	}
	r.lower = max(r.out.Before.Lo-d0, r.out.After.Lo-dk)
	r.out.Confidence = 1 - r.set.Miss - r.rho.lmax.Delta
	return nil
}

// rhoTerm maps an upper bound g of g_e, candidate c of weight w, to the
// upper bound max(½(g/γ − γw t⁻), 0) of max(h_e, 0), with t⁻ = tLow(c)
// (spec §13.16).
func (r *linkRun) rhoTerm(c wgraph.Edge, g, w float64) float64 {
	gam := r.rho.gamma
	return max(0.5*(g/gam-gam*w*r.tLow(c)), 0)
}

// tLow is the lower bound β₀²/2 ≤ ‖Q_k b‖² of spec §13.16 for candidate
// c on the input graph and on every graph with links added (Cauchy–
// Schwarz, bᵀQ_k b ≥ β₀ = 1 + γ bᵀLb/4 ≥ 1).
func (r *linkRun) tLow(c wgraph.Edge) float64 {
	b0 := 1 + r.rho.gamma*(r.g.WeightedDegree(c.U)+r.g.WeightedDegree(c.V)+2*r.g.Weight(c.U, c.V))/4
	return b0 * b0 / 2
}

// chosenFinalRho returns, for the chosen links on the answer's graph,
// the upper bounds max(½(g⁺/γ − γWt⁻), 0) of their h_e and the sum of
// the lower bounds ½(g⁻/γ − γWt⁺), t = ‖Q_k b_i‖² from the product form
// Q_k b_i = y_i + Σ_{j≥i} cq_j y_j (y_jᵀ b_i) without a solve, its error
// from the residual on the answer's graph (spec §13.16).
func (r *linkRun) chosenFinalRho() ([]float64, float64) {
	ghi, glo := r.chosenBounds()
	rs, k := r.rho, len(r.order)
	gam := rs.gamma
	hi, lo := make([]float64, k), make([]float64, k)
	par.For(k, 0, func(s int) {
		c := r.cands[r.order[s]]
		y := append([]float64(nil), rs.ys[s]...)
		for j := s; j < k; j++ {
			yj := rs.ys[j]
			dense.Axpy(y, rs.cqs[j]*(yj[c.U]-yj[c.V]), yj)
		}
		e := r.yErr(rs, y, c)
		ny := math.Sqrt(dense.Dot(y, y))
		tHi, tLo := (ny+e)*(ny+e), max(max(ny-e, 0)*max(ny-e, 0), r.tLow(c))
		w := r.linkWeight(c)
		hi[s] = max(0.5*(ghi[s]/gam-gam*w*tLo), 0)
		lo[s] = 0.5 * (glo[s]/gam - gam*w*tHi)
	})
	sum := 0.0
	for _, v := range lo {
		sum += v
	}
	return hi, sum
}
