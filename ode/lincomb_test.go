package ode

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The stage sums have the bits of lincombGo whatever the kernel, for
// every number of terms, with and without y, at every length (groups of
// four and the rest), on values that include zeros of both signs,
// subnormals, infinities and NaN.
func TestLincombMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -2.2e-308, math.Inf(1), math.Inf(-1), math.NaN(), 1e308, -3}
	value := func() float64 {
		if rng.IntN(8) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
	}
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = value()
		}
		return v
	}
	for n := range 14 {
		for m := 1; m <= 6; m++ {
			for _, withY := range []bool{false, true} {
				var k [6][]float64
				var c [6]float64
				for t := range m {
					k[t], c[t] = vec(n), value()
				}
				var y []float64
				if withY {
					y = vec(n)
				}
				h := value()
				got, want := make([]float64, n), make([]float64, n)
				lincomb(got, y, h, &k, &c, m, 0, n)
				lincombGo(want, y, h, &k, &c, m, 0, n)
				if n > 2 { // and from an offset: the kernel's groups start at lo
					lincomb(got, y, h, &k, &c, m, 1, n)
					lincombGo(want, y, h, &k, &c, m, 1, n)
				}
				for i := range n {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
						t.Fatalf("n = %d, m = %d, y = %v: component %d = %v, want %v", n, m, withY, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// A stage argument is the textbook expression of Table II.5.2, bit for
// bit: y + h·(a31 k1 + a32 k2) for stage 3, y + (h a21) k1 for stage 2.
func TestCombineIsTheTableau(t *testing.T) {
	d := &DormandPrince{n: 5, y: []float64{1, -2, 0.5, 3e-9, 7}, tmp: make([]float64, 5), y1: make([]float64, 5)}
	rng := rand.New(rand.NewPCG(1, 2))
	for j := range d.k {
		d.k[j] = []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	}
	h := 0.37
	d.combine(2, h, 0, 5)
	for i := range 5 {
		if want := d.y[i] + h*a21*d.k[0][i]; d.tmp[i] != want {
			t.Errorf("stage 2, component %d = %v, want %v", i, d.tmp[i], want)
		}
	}
	d.combine(3, h, 0, 5)
	for i := range 5 {
		if want := d.y[i] + h*(a31*d.k[0][i]+a32*d.k[1][i]); d.tmp[i] != want {
			t.Errorf("stage 3, component %d = %v, want %v", i, d.tmp[i], want)
		}
	}
	d.combine(7, h, 0, 5)
	for i := range 5 {
		k := &d.k
		if want := d.y[i] + h*(a71*k[0][i]+a73*k[2][i]+a74*k[3][i]+a75*k[4][i]+a76*k[5][i]); d.y1[i] != want {
			t.Errorf("stage 7, component %d = %v, want %v", i, d.y1[i], want)
		}
	}
}
