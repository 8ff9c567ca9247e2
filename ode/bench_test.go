package ode

import (
	"math"
	"testing"
)

// chain is the 100-dimensional linear chain y_i' = −y_i + 0.5 y_{i−1}
// (stable, non-stiff) from y = e_0.
const chainN = 100

func chainF(dy []float64, _ float64, y []float64) {
	dy[0] = -y[0]
	for i := 1; i < chainN; i++ {
		dy[i] = -y[i] + 0.5*y[i-1]
	}
}

func chainStart() []float64 {
	y0 := make([]float64, chainN)
	y0[0] = 1
	return y0
}

// The chain over t ∈ [0, 100] at tolerance 1e-8.
func BenchmarkDormandPrince_Chain_N100(b *testing.B) {
	const n = chainN
	f, y0 := chainF, chainStart()
	s := &Settings{AbsTol: 1e-8, RelTol: 1e-8}
	for b.Loop() {
		d, err := NewDormandPrince(f, 0, y0, s)
		if err != nil {
			b.Fatal(err)
		}
		for d.Time() < 100 {
			if err := d.Step(100); err != nil {
				b.Fatal(err)
			}
		}
		if math.IsNaN(d.State()[n-1]) {
			b.Fatal("NaN")
		}
		b.ReportMetric(float64(d.Stats().Accepted), "steps")
	}
}

func BenchmarkRK4_Chain_N100_10000steps(b *testing.B) {
	f, y0 := chainF, chainStart()
	for b.Loop() {
		r, err := NewRK4(f, 0, y0)
		if err != nil {
			b.Fatal(err)
		}
		for k := 0; k < 10000; k++ {
			_ = r.Step(0.01) // finite h: no error
		}
	}
}
