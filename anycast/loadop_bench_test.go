package anycast

import (
	"math/rand/v2"
	"testing"
)

// S = B x on the benchmark CDN of package stability (N = 10⁴, K = 10).
func BenchmarkLoadOpMul_N1e4(b *testing.B) { benchLoadOp(b, 10_000) }

// The same at N = 10⁵.
func BenchmarkLoadOpMul_N1e5(b *testing.B) { benchLoadOp(b, 100_000) }

func benchLoadOp(b *testing.B, n int) {
	nw, err := GenerateCDN(rand.NewPCG(13, 1), &CDNSettings{N: n, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	op, err := nw.LoadOp()
	if err != nil {
		b.Fatal(err)
	}
	x, s := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 0.5
	}
	for b.Loop() {
		op.Mul(s, x)
	}
}

// Loads on the same network, for comparison with LoadOp.Mul.
func BenchmarkLoads_N1e4(b *testing.B) {
	nw, err := GenerateCDN(rand.NewPCG(13, 1), &CDNSettings{N: 10_000, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	x, s := make([]float64, nw.N()), make([]float64, nw.N())
	for i := range x {
		x[i] = 0.5
	}
	for b.Loop() {
		nw.Loads(s, x)
	}
}
