package kpm

// Work holds the vectors of Apply's recurrence for vectors of one order.
type Work struct{ t0, t1, t2, lt []float64 }

// NewWork returns the workspace of Apply for vectors of order n.
func NewWork(n int) *Work {
	return &Work{t0: make([]float64, n), t1: make([]float64, n), t2: make([]float64, n), lt: make([]float64, n)}
}

// Apply sets out[m] = p_m(L) v = Σ_k c[m][k] T_k(S) v for each set of
// Chebyshev coefficients c[m] (all of one length K + 1), S = b.C1·L +
// b.C0·I, by the three-term recurrence T_{k+1} = 2S T_k − T_{k−1}: K
// products with L by mul(dst, src) in all. It panics if w is not of
// v's order.
func Apply(out [][]float64, c [][]float64, v []float64, b Basis, mul func(dst, src []float64), w *Work) {
	_ = w.t0[len(v)-1]
	copy(w.t0, v)
	for m := range out {
		for i, x := range v {
			out[m][i] = c[m][0] * x
		}
	}
	t0, t1, t2 := w.t0, w.t1, w.t2
	for k := 1; k < len(c[0]); k++ {
		mul(w.lt, t0)
		for i := range t2 {
			s := b.C1*w.lt[i] + b.C0*t0[i]
			if k == 1 {
				t2[i] = s
			} else {
				t2[i] = 2*s - t1[i]
			}
		}
		for m := range out {
			ck := c[m][k]
			for i, x := range t2 {
				out[m][i] += ck * x
			}
		}
		t0, t1, t2 = t2, t0, t1
	}
}
