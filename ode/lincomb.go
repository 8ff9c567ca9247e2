// The stage sums of a Dormand–Prince step: y + h Σ_t c_t k_t, component
// by component.

package ode

// stageSum is one of the linear combinations of the stages that a step
// computes: Σ_t c[t]·k[idx[t]] over its first m terms.
type stageSum struct {
	m   int
	idx [6]int
	c   [6]float64
}

// The rows of Table II.5.2 as stage sums: the arguments of stages 3..7
// (index j; stage 2 is y + (h a21) k_1, see combine), the embedded error
// estimate and the fifth coefficient of the dense output (Hairer,
// Nørsett, Wanner §II.6). Only the nonzero coefficients appear, in the
// order of the tableau.
var (
	stageArgs = [8]stageSum{
		3: {2, [6]int{0, 1}, [6]float64{a31, a32}},
		4: {3, [6]int{0, 1, 2}, [6]float64{a41, a42, a43}},
		5: {4, [6]int{0, 1, 2, 3}, [6]float64{a51, a52, a53, a54}},
		6: {5, [6]int{0, 1, 2, 3, 4}, [6]float64{a61, a62, a63, a64, a65}},
		7: {5, [6]int{0, 2, 3, 4, 5}, [6]float64{a71, a73, a74, a75, a76}},
	}
	errorSum = stageSum{6, [6]int{0, 2, 3, 4, 5, 6}, [6]float64{e1, e3, e4, e5, e6, e7}}
	denseSum = stageSum{6, [6]int{0, 2, 3, 4, 5, 6}, [6]float64{d1, d3, d4, d5, d6, d7}}
)

// sum sets dst[i] = y[i] + h·(((c₀k₀[i] + c₁k₁[i]) + c₂k₂[i]) + …) for
// i ∈ [lo, hi) over the stages k of d, or h·(…) when y is nil: each
// product and sum rounded in that order, so every component has the same
// bits whatever range it is computed in.
func (d *DormandPrince) sum(dst, y []float64, h float64, s *stageSum, lo, hi int) {
	var k [6][]float64
	for t := range s.m {
		k[t] = d.k[s.idx[t]]
	}
	lincomb(dst, y, h, &k, &s.c, s.m, lo, hi)
}

// lincomb sets dst[i] = y[i] + h·Σ_{t<m} c[t]·k[t][i] (h·Σ when y is nil)
// for i ∈ [lo, hi), each product and sum rounded in the order of the
// sum. The conversions keep the compiler from fusing a product with a sum
// (which it may do on some platforms), so that each operation rounds
// alike on every platform. The sum is written out for each number of
// terms, on slices of one length, so that the loops run without bounds
// checks: a loop over the terms inside the loop over i took three to four
// times as long.
func lincomb(dst, y []float64, h float64, k *[6][]float64, c *[6]float64, m, lo, hi int) {
	d := dst[lo:hi]
	n := len(d)
	var yy []float64
	if y != nil {
		yy = y[lo:hi][:n]
	}
	k0 := k[0][lo:hi][:n]
	switch m {
	case 2, 3:
		k1 := k[1][lo:hi][:n]
		if m == 2 {
			for i := range d {
				d[i] = finish(h, float64(c[0]*k0[i])+float64(c[1]*k1[i]), yy, i)
			}
			return
		}
		k2 := k[2][lo:hi][:n]
		for i := range d {
			d[i] = finish(h, float64(c[0]*k0[i])+float64(c[1]*k1[i])+float64(c[2]*k2[i]), yy, i)
		}
	case 4:
		k1, k2, k3 := k[1][lo:hi][:n], k[2][lo:hi][:n], k[3][lo:hi][:n]
		for i := range d {
			acc := float64(c[0]*k0[i]) + float64(c[1]*k1[i]) + float64(c[2]*k2[i])
			d[i] = finish(h, acc+float64(c[3]*k3[i]), yy, i)
		}
	case 5:
		k1, k2, k3, k4 := k[1][lo:hi][:n], k[2][lo:hi][:n], k[3][lo:hi][:n], k[4][lo:hi][:n]
		for i := range d {
			acc := float64(c[0]*k0[i]) + float64(c[1]*k1[i]) + float64(c[2]*k2[i])
			d[i] = finish(h, acc+float64(c[3]*k3[i])+float64(c[4]*k4[i]), yy, i)
		}
	case 6:
		k1, k2, k3, k4, k5 := k[1][lo:hi][:n], k[2][lo:hi][:n], k[3][lo:hi][:n], k[4][lo:hi][:n], k[5][lo:hi][:n]
		for i := range d {
			acc := float64(c[0]*k0[i]) + float64(c[1]*k1[i]) + float64(c[2]*k2[i])
			d[i] = finish(h, acc+float64(c[3]*k3[i])+float64(c[4]*k4[i])+float64(c[5]*k5[i]), yy, i)
		}
	default:
		for i := range d {
			acc := float64(c[0] * k0[i])
			for t := 1; t < m; t++ {
				acc += float64(c[t] * k[t][lo+i])
			}
			d[i] = finish(h, acc, yy, i)
		}
	}
}

// finish returns y[i] + h·acc, or h·acc when y is nil.
func finish(h, acc float64, y []float64, i int) float64 {
	v := float64(h * acc)
	if y != nil {
		v = y[i] + v
	}
	return v
}
