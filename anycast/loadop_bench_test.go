package anycast

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
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
	benchMul(b, nw)
}

// benchMul times S = B x at x = 0.5 on nw.
func benchMul(b *testing.B, nw *Network) {
	op, err := nw.LoadOp()
	if err != nil {
		b.Fatal(err)
	}
	x, s := make([]float64, nw.N()), make([]float64, nw.N())
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

// S = B x for a dense N = 1000 network, the product of stability's
// BenchmarkIntegrateDense_N1000_T1000 (10⁶ multiply-adds, 8 MB of B).
func BenchmarkLoadOpMul_Dense1000(b *testing.B) { benchMul(b, dense1000(b)) }

// dense1000 is a random dense N = 1000 network with A_j ∈ [1, 2), T = 1.
func dense1000(b *testing.B) *Network {
	const n = 1000
	r := rand.New(rand.NewPCG(13, 2))
	a, t, c := make([]float64, n), make([]float64, n), mat.NewDense(n, n, nil)
	for i := range n {
		a[i], t[i] = 1+r.Float64(), 1
		row, sum := c.RawRowView(i), 0.0
		for j := range row {
			row[j] = r.Float64()
			sum += row[j]
		}
		for j := range row {
			row[j] /= sum // rows of C sum to 1 (spec §1.3)
		}
	}
	nw, err := NewNetwork(a, c, t)
	if err != nil {
		b.Fatal(err)
	}
	return nw
}

// Loads, MulCT and MulC on the dense N = 1000 network of
// BenchmarkLoadOpMul_Dense1000 (10⁶ entries: split over the cores).
func BenchmarkProducts_Dense1000(b *testing.B) {
	nw := dense1000(b)
	x, s := make([]float64, nw.N()), make([]float64, nw.N())
	for i := range x {
		x[i] = 0.5
	}
	b.Run("Loads", func(b *testing.B) {
		for b.Loop() {
			nw.Loads(s, x)
		}
	})
	b.Run("MulC", func(b *testing.B) {
		for b.Loop() {
			nw.MulC(s, x)
		}
	})
}
