package consensus

import (
	"github.com/loadlab/loadlab/internal/dense"
	"math"
	"slices"

	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/spectral"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// certify raises r.lower to the relaxation's bounds of spec §13.13:
// exactly at the chosen links and then along Frank–Wolfe iterates
// (LinkExact), or with a Gaussian sketch at no links and at the chosen
// links (LinkSketch).
func (r *linkRun) certify() error {
	if r.k == 0 {
		r.lower = r.out.After.Lo
		return nil
	}
	if r.exact {
		r.lower = max(r.lower, r.out.After.Mean-r.linTerm())
		return r.frankWolfe()
	}
	return r.certifySketch()
}

// linTerm returns n (Σ of the k largest g_e − Σ over the chosen g_e),
// g_e = W_e‖L†b_e‖² from the dense L† of the current graph (LinkExact).
func (r *linkRun) linTerm() float64 {
	grad := make([]float64, len(r.cands))
	chosen := 0.0
	par.Range(len(r.cands), 1024, 256, 0, func(lo, hi int) {
		zb := make([]float64, r.m)
		for i := lo; i < hi; i++ {
			c := r.cands[i]
			for j := range r.m {
				zb[j] = r.zt[c.U*r.m+j] - r.zt[c.V*r.m+j]
			}
			grad[i] = r.linkWeight(c) * dense.Dot(zb, zb)
		}
	})
	for i := range grad {
		if r.added[i] {
			chosen += grad[i]
		}
	}
	return float64(r.n) * max(topSum(grad, r.k)-chosen, 0)
}

// frankWolfe runs FrankWolfe iterations of the Frank–Wolfe method on the
// relaxation from the chosen links (exact path) and raises r.lower to
// the best bound f(w_t) − gap(w_t) met (spec §13.13).
func (r *linkRun) frankWolfe() error {
	w := make([]float64, len(r.cands))
	for i := range w {
		if r.added[i] {
			w[i] = 1
		}
	}
	n, best := float64(r.n), r.lower
	grad, top := make([]float64, len(w)), make([]int, 0, r.k)
	for t := range r.set.FrankWolfe {
		add := map[[2]int]float64{} // a repeated candidate adds its weights
		for i, c := range r.cands {
			if w[i] > 0 {
				add[[2]int{min(c.U, c.V), max(c.U, c.V)}] += w[i] * r.linkWeight(c)
			}
		}
		b := r.g.Builder()
		for e, x := range add {
			mustSet(b, e[0], e[1], x)
		}
		lp, err := spectral.PseudoInverse(b.Build())
		if err != nil {
			return err
		}
		f, lin := n*mat.Trace(lp), 0.0
		for i, c := range r.cands {
			s := 0.0
			for j := range r.n {
				d := lp.At(j, c.U) - lp.At(j, c.V)
				s += d * d
			}
			grad[i] = r.linkWeight(c) * s // −∂f/∂w_e / n, spec §13.13
			lin += grad[i] * w[i]
		}
		top = topIndex(grad, r.k, top[:0])
		sum := 0.0
		for _, i := range top {
			sum += grad[i]
		}
		best = max(best, f-n*max(sum-lin, 0))
		eta := 2 / float64(t+3)
		for i := range w {
			w[i] *= 1 - eta
		}
		for _, i := range top {
			w[i] += eta
		}
	}
	r.lower = best
	return nil
}

// topIndex appends to dst the indices of the k largest entries of v.
func topIndex(v []float64, k int, dst []int) []int {
	var t []scored
	for i, x := range v {
		t = pushTop(t, scored{i, x}, k)
	}
	for _, s := range t {
		dst = append(dst, s.i)
	}
	return dst
}

// topSum returns the sum of the k largest entries of v (v is reordered).
func topSum(v []float64, k int) float64 {
	s := 0.0
	for _, x := range topK(v, k) {
		s += x
	}
	return s
}

// topK sorts v in decreasing order and returns its first k entries.
func topK(v []float64, k int) []float64 {
	slices.SortFunc(v, func(a, b float64) int { return cmpDesc(a, b) })
	return v[:k]
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// certifySketch bounds every candidate's gradient from above, at no
// links and at the chosen links, with one fresh Gaussian sketch (all 2|C|
// bounds at once with probability 1 − Miss), replaces the bounds of the
// chosen candidates and of the Confirm largest others by solves, and
// sets r.lower to the better of the two relaxation bounds.
func (r *linkRun) certifySketch() error {
	if err := r.startCV(); err != nil {
		return err
	}
	acc0, acck, err := r.certSketch()
	if err != nil {
		return err
	}
	q := r.certQuantile()
	n := float64(r.n)
	// ‖Ẑb − Zb‖ ≤ √2 (Σ_j ‖ρ_j‖²)^{1/2}/λ₂lo for every b = e_u − e_v
	r.sk0 = math.Sqrt(2*r.res0) / r.l2lo
	r.skk = math.Sqrt(2*r.resk) / r.l2lo
	d0, err := r.sketchTerm(acc0, q, false)
	if err != nil {
		return err
	}
	dk, err := r.sketchTerm(acck, q, true)
	if err != nil {
		return err
	}
	bf := r.out.Before
	r.lower = max(bf.Lo-n*d0, r.out.After.Lo-n*dk)
	r.out.Confidence = 1 - r.set.Miss
	return nil
}

// startCV builds the certificate's control variate where it applies
// (spec §13.13, "Control variate").
func (r *linkRun) startCV() error {
	var cv *linkCV
	if r.scv != nil && !linkCVOff { // the screening's moments serve
		cv = r.scv.certCV()
	} else {
		var err error
		if cv, err = newLinkCV(r.g, r.cands); err != nil {
			return err
		}
	}
	r.cv = cv
	if cv != nil {
		r.out.CertDepth = cv.pl.h
	}
	return nil
}

// certQuantile is the (Miss/2|C|)-quantile of χ²_{m_c}/m_c (spec §13.13).
func (r *linkRun) certQuantile() float64 {
	mc, nc := r.set.CertSketch, len(r.cands)
	return distuv.ChiSquared{K: float64(mc)}.Quantile(r.set.Miss/float64(2*nc)) / float64(mc)
}

// term maps an upper bound g of g_e (candidate i) to the upper bound of
// its term in the top-k sum: g itself for the Kirchhoff index, that of
// max(h_e, 0) for LinkRho2 (rhoTerm).
func (r *linkRun) term(i int, g float64) float64 {
	if r.rho == nil {
		return g
	}
	c := r.cands[i]
	return r.rhoTerm(c, g, r.linkWeight(c))
}

// sketchTerm returns Σ of the k largest upper bounds of g_e (from the
// sketch sums acc and the quantile q, replaced by solves for the largest
// ones and, at the chosen links, by the product form for the chosen)
// minus a lower bound of Σ over the chosen g_e (none at no links). The
// largest bounds are confirmed by block solves in batches of certBatch,
// at most Confirm in all, stopping when a batch lowers the term by less
// than 2 % (a choice of cost only: every value used is a bound).
func (r *linkRun) sketchTerm(acc []float64, q float64, atChosen bool) (float64, error) {
	t, _, err := r.sketchTop(acc, q, atChosen)
	return t, err
}

// sketchTop is sketchTerm, also returning the k largest upper bounds it
// summed (in decreasing order).
func (r *linkRun) sketchTop(acc []float64, q float64, atChosen bool) (float64, []float64, error) {
	ucb := make([]float64, len(r.cands))
	order := make([]int, 0, len(r.cands))
	for i, c := range r.cands {
		d := math.Sqrt(acc[i]) + r.sk0
		if atChosen {
			d = math.Sqrt(acc[i]) + r.skk
		}
		g := r.linkWeight(c) * d * d / q
		if r.cv != nil { // ‖L†b‖ ≤ ‖p(L)b‖ + ‖(L† − p(L))b‖
			d = r.cv.pnorm[i] + d/math.Sqrt(q)
			g = r.linkWeight(c) * d * d
		}
		ucb[i] = r.term(i, g)
		if !atChosen || !r.added[i] {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmpDesc(ucb[a], ucb[b]); c != 0 {
			return c
		}
		return a - b
	})
	var fixed []float64 // the confirmed upper bounds (and the chosen's)
	chosen := 0.0
	switch {
	case atChosen && r.rho != nil:
		fixed, chosen = r.chosenFinalRho()
	case atChosen:
		fixed, chosen = r.chosenFinal()
	}
	var top []float64
	term := func(j int) float64 { // the top-k sum with order[:j] confirmed
		v := slices.Clone(fixed)
		v = append(v, ucbOf(ucb, order[j:min(j+r.k, len(order))])...)
		top = topK(v, min(r.k, len(v)))
		return max(topSum(top, len(top))-chosen, 0)
	}
	cur := term(0)
	for j := 0; j < min(r.set.Confirm, len(order)); {
		ids := order[j:min(j+certBatch, r.set.Confirm, len(order))]
		hi, err := r.confirmBatch(ids, atChosen)
		if err != nil {
			return 0, nil, err
		}
		for t, i := range ids {
			fixed = append(fixed, min(ucb[i], r.term(i, hi[t])))
		}
		j += len(ids)
		next := term(j)
		stop := cur-next < 0.02*cur
		cur = next
		if stop {
			break
		}
	}
	return cur, top, nil
}

// certBatch is the number of candidates the certificate confirms by one
// block solve.
const certBatch = 16

func ucbOf(ucb []float64, ids []int) []float64 {
	out := make([]float64, len(ids))
	for t, i := range ids {
		out[t] = ucb[i]
	}
	return out
}

// chosenFinal returns the upper bounds W(‖x̂‖ + E)² of the chosen
// links' g_e on the answer's graph and the sum of the lower bounds
// W(‖x̂‖ − E)², x̂ = L_k†b_i from the stored product form without a solve
// (spec §13.13): L_k† b_i = x_i − Σ_{j≥i} c_j x_j (x_jᵀ b_i), E from the
// residual on the answer's graph.
func (r *linkRun) chosenFinal() ([]float64, float64) {
	hi, lo := r.chosenBounds()
	sum := 0.0
	for _, v := range lo {
		sum += v
	}
	return hi, sum
}

// chosenBounds returns the upper and lower bounds W(‖x̂‖ ± E)² of the
// chosen links' g_e on the answer's graph (chosenFinal).
func (r *linkRun) chosenBounds() (hi, lo []float64) {
	k := len(r.order)
	hi, lo = make([]float64, k), make([]float64, k)
	par.For(k, 0, func(s int) {
		c := r.cands[r.order[s]]
		x := slices.Clone(r.xs[s])
		for j := s; j < k; j++ {
			xj := r.xs[j]
			dense.Axpy(x, -r.cs[j]*(xj[c.U]-xj[c.V]), xj)
		}
		e := r.xErr(x, c)
		nx, w := math.Sqrt(dense.Dot(x, x)), r.linkWeight(c)
		hi[s], lo[s] = w*(nx+e)*(nx+e), w*max(nx-e, 0)*max(nx-e, 0)
	})
	return hi, lo
}

// confirmBatch returns the upper bounds W(‖x̂‖ + E)² of g_e for the
// candidates ids, x̂ = L† b_e on the input graph or L_k† b_e on the
// answer's (the product form), by one block solve.
func (r *linkRun) confirmBatch(ids []int, atChosen bool) ([]float64, error) {
	n, m := r.n, len(ids)
	b := mat.NewDense(n, m, nil)
	bd := b.RawMatrix().Data
	for t, i := range ids {
		c := r.cands[i]
		bd[c.U*m+t], bd[c.V*m+t] = 1, -1
	}
	x := mat.NewDense(n, m, nil)
	res, err := r.sol.SolveBlock(x, b)
	if err != nil {
		return nil, err
	}
	r.out.Solves += m
	xd := x.RawMatrix().Data
	if atChosen {
		r.productForm(xd, bd, m)
	}
	hi := make([]float64, m)
	par.For(m, 0, func(t int) {
		c := r.cands[ids[t]]
		col := make([]float64, n)
		for i := range n {
			col[i] = xd[i*m+t]
		}
		var e float64
		if atChosen {
			e = r.xErr(col, c)
		} else {
			e = res[t].Residual * math.Sqrt2 / r.l2lo // the residual of b, which lies in 1⊥
		}
		nx := math.Sqrt(dense.Dot(col, col))
		hi[t] = r.linkWeight(c) * (nx + e) * (nx + e)
	})
	return hi, nil
}

// certSketch returns ‖G L† b_e‖² (input graph) and ‖G L_k† b_e‖² for
// every candidate e, G a fresh CertSketch × n Gaussian matrix with
// entries of variance 1/CertSketch.
func (r *linkRun) certSketch() (acc0, acck []float64, err error) {
	const chunk = 32
	mc, n := r.set.CertSketch, r.n
	acc0, acck = make([]float64, len(r.cands)), make([]float64, len(r.cands))
	s := 1 / math.Sqrt(float64(mc))
	for j0 := 0; j0 < mc; j0 += chunk {
		cols := min(chunk, mc-j0)
		g := mat.NewDense(n, cols, nil)
		gd := g.RawMatrix().Data
		for i := range gd {
			gd[i] = s * r.rng.NormFloat64()
		}
		zt, err := r.blockSolve(g)
		if err != nil {
			return nil, nil, err
		}
		var pg []float64 // p(L) G, the control variate's columns
		if r.cv != nil {
			pg = r.cv.apply(r.g, gd, cols)
		}
		r.res0 += r.sketchResidual(zt, gd, cols, false)
		r.accumulateCV(acc0, zt, pg, cols)
		r.productForm(zt, gd, cols)
		r.resk += r.sketchResidual(zt, gd, cols, true)
		r.accumulateCV(acck, zt, pg, cols)
	}
	return acc0, acck, nil
}

// accumulateCV adds ‖(Z − p(L)G) b_e‖² (‖Z b_e‖² without the control
// variate, pg nil) of the node-major columns zt of Z = L† G or L_k† G to
// acc, pg holding p(L)G; zt is left as it was.
func (r *linkRun) accumulateCV(acc, zt, pg []float64, cols int) {
	if pg == nil {
		r.accumulate(acc, zt, cols)
		return
	}
	d := slices.Clone(zt)
	for i, v := range pg {
		d[i] -= v
	}
	r.accumulate(acc, d, cols)
}

// sketchResidual returns Σ_j ‖P g_j − L ẑ_j‖² over the node-major
// columns ẑ_j of zt (L of the answer's graph when withLinks, else of the
// input graph; P projects onto 1⊥), the a posteriori check of the
// certificate's sketch (spec §13.13).
func (r *linkRun) sketchResidual(zt, gd []float64, cols int, withLinks bool) float64 {
	n := r.n
	out := make([]float64, cols)
	par.For(cols, 0, func(j int) {
		z, g := make([]float64, n), make([]float64, n)
		for i := range n {
			z[i], g[i] = zt[i*cols+j], gd[i*cols+j]
		}
		dense.Center(g)
		lz := make([]float64, n)
		r.sol.Operator().Apply(lz, z)
		if withLinks {
			for _, s := range r.out.Steps {
				d := s.Link.W * (z[s.Link.U] - z[s.Link.V])
				lz[s.Link.U] += d
				lz[s.Link.V] -= d
			}
		}
		for i := range lz {
			lz[i] -= g[i]
		}
		out[j] = dense.Dot(lz, lz)
	})
	sum := 0.0
	for _, v := range out {
		sum += v
	}
	return sum
}

// accumulate adds ‖Z b_e‖² of the node-major columns zt to acc.
func (r *linkRun) accumulate(acc, zt []float64, cols int) {
	par.Range(len(r.cands), 4096, 256, 0, func(lo, hi int) {
		for e := lo; e < hi; e++ {
			c := r.cands[e]
			for j := range cols {
				d := zt[c.U*cols+j] - zt[c.V*cols+j]
				acc[e] += d * d
			}
		}
	})
}

// productForm turns the node-major columns zt = L† g (cols of them) into
// L_k† g = L† g − X C (Xᵀ g) by the product form of spec §13.13, as two
// passes over the nodes: A = C Xᵀ g summed piece by piece in a fixed
// order (the same whatever GOMAXPROCS), then zt ← zt − X A.
func (r *linkRun) productForm(zt, gd []float64, cols int) {
	k, n := len(r.xs), r.n
	if k == 0 {
		return
	}
	pieces := par.Pieces(n, 8192, 64)
	parts := make([][]float64, pieces)
	par.For(pieces, 0, func(pc int) {
		lo, hi := par.Bounds(n, pieces, pc)
		a := make([]float64, k*cols)
		for i := lo; i < hi; i++ {
			row := gd[i*cols : (i+1)*cols]
			for t, xt := range r.xs {
				dense.Axpy(a[t*cols:(t+1)*cols], xt[i], row)
			}
		}
		parts[pc] = a
	})
	a := parts[0]
	for _, p := range parts[1:] {
		dense.Axpy(a, 1, p)
	}
	for t, c := range r.cs {
		for j := range cols {
			a[t*cols+j] *= -c
		}
	}
	par.Range(n, 8192, 64, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := zt[i*cols : (i+1)*cols]
			for t, xt := range r.xs {
				dense.Axpy(row, xt[i], a[t*cols:(t+1)*cols])
			}
		}
	})
}
