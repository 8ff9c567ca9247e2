package consensus

import (
	"math"
	"slices"

	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/spectral"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// certify sets Gap, the linearisation gap of the relaxation at the
// chosen links (spec §13.12): n (Σ of the k largest w_e‖L_k†b_e‖² −
// Σ over the chosen of w_e‖L_k†b_e‖²).
func (r *linkRun) certify() error {
	if r.k == 0 {
		return nil
	}
	if r.exact {
		grad := make([]float64, len(r.cands))
		zb := make([]float64, r.m)
		chosen := 0.0
		for i, c := range r.cands {
			w := r.linkWeight(c)
			for j := range r.m {
				zb[j] = r.zt[c.U*r.m+j] - r.zt[c.V*r.m+j]
			}
			grad[i] = w * dot(zb, zb)
			if r.added[i] {
				chosen += grad[i]
			}
		}
		r.out.Gap = float64(r.n) * max(topSum(grad, r.k)-chosen, 0)
		return r.frankWolfe()
	}
	return r.certifySketch()
}

// frankWolfe runs FrankWolfe iterations of the Frank–Wolfe method on the
// relaxation from the chosen links (exact path) and lowers Gap to
// After − the best bound f(w_t) − gap(w_t) met (spec §13.12).
func (r *linkRun) frankWolfe() error {
	w := make([]float64, len(r.cands))
	for i := range w {
		if r.added[i] {
			w[i] = 1
		}
	}
	n, best := float64(r.n), r.out.After.Mean-r.out.Gap
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
			grad[i] = r.linkWeight(c) * s // −∂f/∂w_e / n, spec §13.12
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
	r.out.Gap = r.out.After.Mean - best
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

// certifySketch bounds every candidate's gradient from above with a
// fresh Gaussian sketch (simultaneously, with probability 1 − Miss),
// replaces the bounds of the chosen candidates and of the Confirm
// largest others by solves, and sets Gap from them.
func (r *linkRun) certifySketch() error {
	acc, err := r.certSketch()
	if err != nil {
		return err
	}
	mc, nc := r.set.CertSketch, len(r.cands)
	q := distuv.ChiSquared{K: float64(mc)}.Quantile(r.set.Miss/float64(nc)) / float64(mc)
	ucb := make([]float64, nc)
	for i, c := range r.cands {
		ucb[i] = r.linkWeight(c) * acc[i] / q
	}
	order := make([]int, 0, nc)
	for i := range r.cands {
		if !r.added[i] {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmpDesc(ucb[a], ucb[b]); c != 0 {
			return c
		}
		return a - b
	})
	check := order[:min(r.set.Confirm, len(order))]
	chosen := 0.0
	for i := range r.cands {
		if r.added[i] {
			check = append(check, i)
		}
	}
	for _, i := range check {
		c := r.cands[i]
		x, err := r.exactX(c)
		if err != nil {
			return err
		}
		nx, e, w := math.Sqrt(dot(x, x)), r.xErr(), r.linkWeight(c)
		ucb[i] = min(ucb[i], w*(nx+e)*(nx+e))
		if r.added[i] {
			chosen += w * max(nx-e, 0) * max(nx-e, 0)
		}
	}
	r.out.Gap = float64(r.n) * max(topSum(ucb, r.k)-chosen, 0)
	r.out.Confidence = 1 - r.set.Miss
	return nil
}

// certSketch returns ‖G L_k† b_e‖² for every candidate e, G a fresh
// CertSketch × n Gaussian matrix with entries of variance 1/CertSketch.
func (r *linkRun) certSketch() ([]float64, error) {
	const chunk = 16
	mc, n := r.set.CertSketch, r.n
	acc := make([]float64, len(r.cands))
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
			return nil, err
		}
		r.productForm(zt, gd, cols)
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
	return acc, nil
}

// productForm turns the node-major columns zt = L† g (cols of them) into
// L_k† g by the product form of spec §13.12.
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
