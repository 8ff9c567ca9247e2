package dual

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/cputime"
)

// sparseCDN is the issue-13 benchmark instance: anycast.GenerateCDN with
// n nodes, 10 proxies per region (seed 13, 2), quadratic costs
// f = ½A(1−x)², h = 2(S−T)₊².
func sparseCDN(b *testing.B, n int) *Problem {
	b.Helper()
	nw, err := anycast.GenerateCDN(rand.NewPCG(13, 2), &anycast.CDNSettings{N: n, K: 10})
	if err != nil {
		b.Fatal(err)
	}
	p, err := Quadratic(nw, 1, 4)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// benchCPU runs op b.N times and reports the CPU seconds per op next to
// the wall time (the machine is shared: CPU time is what the code costs).
func benchCPU(b *testing.B, op func()) {
	b.ResetTimer()
	c0, t0 := cputime.Process().Seconds(), time.Now()
	for i := 0; i < b.N; i++ {
		op()
	}
	b.ReportMetric((cputime.Process().Seconds()-c0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(time.Since(t0).Seconds()/float64(b.N), "wall-s/op")
}

// Target (docs/benchmarks.md): Primal on the sparse N = 10⁴ CDN (PCG Newton
// systems), certified to its default tolerance, ≤ 10 s.
func BenchmarkPrimalSparse_N1e4(b *testing.B) {
	p := sparseCDN(b, 10000)
	var res *PrimalResult
	benchCPU(b, func() {
		var err error
		if res, err = Primal(p, nil); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(res.Iter), "newton")
	b.ReportMetric(float64(res.CGIter), "cg")
	b.ReportMetric(res.Value, "P*")
}

// BenchmarkPrimalSolver_N200 compares the two Newton-system solvers on
// the dense issue-4 instance (N = 200) and on its sparse counterpart
// (the same size from GenerateCDN): the measurement behind solverFor.
func BenchmarkPrimalSolver_N200(b *testing.B) {
	dense, _ := bench200()
	for _, in := range []struct {
		name string
		p    *Problem
	}{{"denseC", dense}, {"sparseC", sparseCDN(b, 200)}} {
		for _, ls := range []string{"cholesky", "pcg"} {
			b.Run(in.name+"/"+ls, func(b *testing.B) {
				p := in.p
				if ls == "cholesky" {
					p = densified(p)
				}
				var res *PrimalResult
				benchCPU(b, func() {
					var sys newtonSystem = newPCG(p.N())
					if ls == "cholesky" {
						sys = newChol(p.N())
					}
					var err error
					if res, err = primal(p, nil, sys); err != nil {
						b.Fatal(err)
					}
				})
				b.ReportMetric(float64(res.Iter), "newton")
				b.ReportMetric(float64(res.CGIter), "cg")
			})
		}
	}
}

// benchSolveSparse times Solve with default settings (certified relative
// gap 10⁻⁶) on the sparse CDN of n nodes.
func benchSolveSparse(b *testing.B, n int) {
	p := sparseCDN(b, n)
	var res *Result
	benchCPU(b, func() {
		var err error
		if res, err = Solve(p, nil); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(res.Iter), "steps")
	b.ReportMetric(res.Gap()/math.Max(math.Abs(res.Upper), math.Abs(res.Best)), "relgap")
	b.ReportMetric(res.Best, "best")
}

// Target (docs/benchmarks.md): Solve on the sparse N = 10⁴ CDN, default settings
// (certified relative gap 1e-6), ≤ 2 s.
func BenchmarkSolveSparse_N1e4(b *testing.B) { benchSolveSparse(b, 10000) }

// Target (docs/benchmarks.md): Solve on the sparse N = 10⁵ CDN (10⁶ nonzeros),
// ≤ 20 s and ≤ 1 GiB (peak RSS of the benchmark process, measured with
// GNU time: see docs/benchmarks.md).
func BenchmarkSolveSparse_N1e5(b *testing.B) { benchSolveSparse(b, 100000) }

// Primal on the sparse N = 10⁵ CDN (no target; for scale).
func BenchmarkPrimalSparse_N1e5(b *testing.B) {
	p := sparseCDN(b, 100000)
	var res *PrimalResult
	benchCPU(b, func() {
		var err error
		if res, err = Primal(p, nil); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(res.Iter), "newton")
	b.ReportMetric(float64(res.CGIter), "cg")
}

// BenchmarkIterationFastControlSparse_N1e4: one dual step with β measured
// by FastControl (Poisson counts, loss, delay, Direct reports for the
// pairs with C_ij = 0 < C_ji) on the sparse N = 10⁴ CDN: O(nnz) per step
// like the exact step (before, the set-up copied C into a dense N × N
// matrix and scanned all N² pairs).
func BenchmarkIterationFastControlSparse_N1e4(b *testing.B) {
	p := sparseCDN(b, 10000)
	const iters = 200
	benchCPU(b, func() {
		fc := &FastControl{Gamma: 10, Window: 1, Loss: 0.1, Delay: 2, Unreachable: Direct, Src: rand.NewPCG(1, 1)}
		if _, err := Solve(p, &Settings{FastControl: fc, Step: 1e-3, MaxIter: iters, Fixed: true}); err != nil {
			b.Fatal(err)
		}
	})
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iters), "ns/step")
}
