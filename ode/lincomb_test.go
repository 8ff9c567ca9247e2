package ode

import (
	"math/rand/v2"
	"testing"
)

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
