package consensus

import (
	"github.com/loadlab/loadlab/internal/dense"
	"math"
	"slices"

	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
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
	slices.SortFunc(v, func(a, b float64) int { return cmpDesc(a, b) })
	s := 0.0
	for _, x := range v[:k] {
		s += x
	}
	return s
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
	acc0, acck, err := r.certSketch()
	if err != nil {
		return err
	}
	mc, nc := r.set.CertSketch, len(r.cands)
	q := distuv.ChiSquared{K: float64(mc)}.Quantile(r.set.Miss/float64(2*nc)) / float64(mc)
	n := float64(r.n)
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

// sketchTerm returns Σ of the k largest upper bounds of g_e (from the
// sketch sums acc and the quantile q, replaced by solves for the Confirm
// largest and, at the chosen links, for the chosen) minus a lower bound
// of Σ over the chosen g_e (none at no links).
func (r *linkRun) sketchTerm(acc []float64, q float64, atChosen bool) (float64, error) {
	ucb := make([]float64, len(r.cands))
	order := make([]int, 0, len(r.cands))
	for i, c := range r.cands {
		ucb[i] = r.linkWeight(c) * acc[i] / q
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
	check := slices.Clone(order[:min(r.set.Confirm, len(order))])
	for i := range r.cands {
		if atChosen && r.added[i] {
			check = append(check, i)
		}
	}
	chosen := 0.0
	for _, i := range check {
		c := r.cands[i]
		x, e, err := r.certX(c, atChosen)
		if err != nil {
			return 0, err
		}
		nx, w := math.Sqrt(dense.Dot(x, x)), r.linkWeight(c)
		ucb[i] = min(ucb[i], w*(nx+e)*(nx+e))
		if atChosen && r.added[i] {
			chosen += w * max(nx-e, 0) * max(nx-e, 0)
		}
	}
	return max(topSum(ucb, r.k)-chosen, 0), nil
}

// certX returns x = L_k†b (atChosen) or L†b of the input graph, and its
// error bound.
func (r *linkRun) certX(c wgraph.Edge, atChosen bool) ([]float64, float64, error) {
	if atChosen {
		x, err := r.exactX(c)
		if err != nil {
			return nil, 0, err
		}
		return x, r.xErr(x, c), nil
	}
	x := make([]float64, r.n)
	b := make([]float64, r.n)
	b[c.U], b[c.V] = 1, -1
	res, err := r.sol.Solve(x, b)
	if err != nil {
		return nil, 0, err
	}
	r.out.Solves++
	return x, res.Residual * math.Sqrt2 / r.l2lo, nil // the solver's residual is of b projected on 1⊥, which b is
}

// certSketch returns ‖G L† b_e‖² (input graph) and ‖G L_k† b_e‖² for
// every candidate e, G a fresh CertSketch × n Gaussian matrix with
// entries of variance 1/CertSketch.
func (r *linkRun) certSketch() (acc0, acck []float64, err error) {
	const chunk = 16
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
		r.accumulate(acc0, zt, cols)
		r.productForm(zt, gd, cols)
		r.accumulate(acck, zt, cols)
	}
	return acc0, acck, nil
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
// L_k† g by the product form of spec §13.13.
func (r *linkRun) productForm(zt, gd []float64, cols int) {
	a := make([]float64, cols)
	for t, xt := range r.xs {
		clear(a)
		for i, x := range xt {
			row := gd[i*cols : (i+1)*cols]
			for j := range cols {
				a[j] += x * row[j]
			}
		}
		for j := range a {
			a[j] *= r.cs[t]
		}
		for i, x := range xt {
			row := zt[i*cols : (i+1)*cols]
			for j := range cols {
				row[j] -= a[j] * x
			}
		}
	}
}
