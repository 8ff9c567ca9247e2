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
// terms: a loop over the terms inside the loop over i costs about twice
// as much (the stage sums are about a twentieth of the dense N = 1000
// ODE's time).
func lincomb(dst, y []float64, h float64, k *[6][]float64, c *[6]float64, m, lo, hi int) {
	d := dst[lo:hi]
	var ks [6][]float64
	for t := range m {
		ks[t] = k[t][lo:hi]
		ks[t] = ks[t][:len(d)]
	}
	k0, k1, k2, k3, k4, k5 := ks[0], ks[1], ks[2], ks[3], ks[4], ks[5]
	c0, c1, c2, c3, c4, c5 := c[0], c[1], c[2], c[3], c[4], c[5]
	var yy []float64
	if y != nil {
		yy = y[lo:hi][:len(d)]
	}
	for i := range d {
		acc := float64(c0 * k0[i])
		switch m {
		case 2:
			acc += float64(c1 * k1[i])
		case 3:
			acc += float64(c1 * k1[i])
			acc += float64(c2 * k2[i])
		case 4:
			acc += float64(c1 * k1[i])
			acc += float64(c2 * k2[i])
			acc += float64(c3 * k3[i])
		case 5:
			acc += float64(c1 * k1[i])
			acc += float64(c2 * k2[i])
			acc += float64(c3 * k3[i])
			acc += float64(c4 * k4[i])
		case 6:
			acc += float64(c1 * k1[i])
			acc += float64(c2 * k2[i])
			acc += float64(c3 * k3[i])
			acc += float64(c4 * k4[i])
			acc += float64(c5 * k5[i])
		}
		v := float64(h * acc)
		if yy != nil {
			v = yy[i] + v
		}
		d[i] = v
	}
}
