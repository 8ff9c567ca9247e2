package dual

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
)

// bench200 is the benchmark instance of docs/benchmarks.md: N = 200, dense C,
// quadratic costs f = ½A(1−x)², h = 2(S−T)₊², with its reference optimum.
var bench200 = sync.OnceValues(func() (*Problem, *PrimalResult) {
	rng := rand.New(rand.NewPCG(200, 200))
	p, err := Quadratic(randNetwork(rng, 200), 1, 4)
	if err != nil {
		panic(err)
	}
	ref, err := Primal(p, nil)
	if err != nil {
		panic(err)
	}
	return p, ref
})

// itersToGap returns the first k with P* − D(μ(k)) ≤ rel·|P*|, or −1.
// The run is done in chunks, each warm-started from the last μ of the
// previous one, which continues the same trajectory.
func itersToGap(p *Problem, pstar, alpha, rel float64, maxIter int) int {
	const chunk = 10000
	var mu0 []float64
	for done := 0; done < maxIter; done += chunk {
		res, err := Solve(p, &Settings{Mu0: mu0, Step: alpha, MaxIter: min(chunk, maxIter-done), Fixed: true, RecordDual: true})
		if err != nil {
			panic(err)
		}
		for k, d := range res.Dual {
			if pstar-d <= rel*math.Abs(pstar) {
				return done + k + 1
			}
		}
		mu0 = res.Mu
	}
	return -1
}

func benchToGap(b *testing.B, p *Problem, ref *PrimalResult, alpha float64, k int) {
	g := must(p.GBound())
	eps := 1e-3 * math.Abs(ref.Value)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Solve(p, &Settings{Step: alpha, MaxIter: k, Fixed: true})
		if err != nil {
			b.Fatal(err)
		}
		if ref.Value-res.Best > eps*(1+1e-9) {
			b.Fatalf("gap %v not reached", ref.Value-res.Best)
		}
	}
	b.ReportMetric(float64(k), "iters")
	b.ReportMetric(alpha, "alpha")
	// Worst-case count of Theorem III.3 for this ε with the exact radius
	// ‖μ(0) − μ*‖ = ‖μ*‖ (μ(0) = 0) and with the a-priori radius.
	b.ReportMetric(float64(iterations(eps, g, floats.Norm(ref.Mu, 2))), "K_theorem")
	r := must(p.MuBound(0))
	b.ReportMetric(r*r*g*g/(eps*eps), "K_apriori") // uncapped, unlike Iterations
}

// BenchmarkSolve_Theorem_N200: time and steps to a relative gap 10⁻³ with
// the Theorem III.3 step α = ε/G², ε = 10⁻³ |P*|.
func BenchmarkSolve_Theorem_N200(b *testing.B) {
	p, ref := bench200()
	alpha, k := theoremRun()
	if k < 0 {
		b.Fatal("theorem step did not reach the gap in 5e6 steps")
	}
	benchToGap(b, p, ref, alpha, k)
}

var theoremRun = sync.OnceValues(func() (float64, int) {
	p, ref := bench200()
	alpha := step(1e-3*math.Abs(ref.Value), must(p.GBound()))
	return alpha, itersToGap(p, ref.Value, alpha, 1e-3, 5_000_000)
})

// bestStep sweeps the constant step on a ¼-decade grid and keeps the one
// that needs the fewest iterations.
var bestStep = sync.OnceValues(func() (float64, int) {
	p, ref := bench200()
	bestK, bestA := math.MaxInt, 0.0
	for e := -4.0; e <= 1; e += 0.25 {
		a := math.Pow(10, e)
		if k := itersToGap(p, ref.Value, a, 1e-3, 20000); k > 0 && k < bestK {
			bestK, bestA = k, a
		}
	}
	return bestA, bestK
})

// BenchmarkSolve_BestStep_N200: the same with the constant step that
// needs the fewest iterations on a logarithmic sweep (¼-decade grid).
func BenchmarkSolve_BestStep_N200(b *testing.B) {
	p, ref := bench200()
	a, k := bestStep()
	benchToGap(b, p, ref, a, k)
}

// BenchmarkIteration_N200 is the cost of one dual step, O(nnz(C)).
func BenchmarkIteration_N200(b *testing.B) {
	p, _ := bench200()
	benchSteps(b, p, nil)
}

// benchSteps times Solve over a fixed 1000 steps (no stopping rule) and
// reports the cost per step; fc, if not nil, gives each run its
// FastControl settings.
func benchSteps(b *testing.B, p *Problem, fc func(run int) *FastControl) {
	const iters = 1000
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		set := &Settings{Step: 0.1, MaxIter: iters, Fixed: true}
		if fc != nil {
			set.FastControl = fc(i)
		}
		if _, err := Solve(p, set); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iters), "ns/step")
}

// BenchmarkPrimal_N200 is the reference solver on the same instance.
func BenchmarkPrimal_N200(b *testing.B) {
	p, _ := bench200()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Primal(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSolveLoopDoesNotAllocate(t *testing.T) {
	// The allocations of Solve are its set-up: they must not grow with
	// the number of iterations.
	rng := rand.New(rand.NewPCG(1, 2))
	p, err := Quadratic(randNetwork(rng, 20), 1, 4)
	require.NoError(t, err)
	for _, fc := range []*FastControl{nil, {Gamma: 10, Window: 1, Loss: 0.1, Delay: 2, Src: rand.NewPCG(1, 1)}} {
		run := func(k int) float64 {
			return testing.AllocsPerRun(5, func() {
				_, err := Solve(p, &Settings{Step: 0.01, MaxIter: k, Fixed: true, RecordDual: true, FastControl: fc})
				require.NoError(t, err)
			})
		}
		assert.Equalf(t, run(10), run(2000), "FastControl %v: allocations grow with iterations (10 steps, 2000 steps)", fc != nil)
	}
	// The accelerated rule (the default here) likewise.
	acc := func(k int) float64 {
		return testing.AllocsPerRun(5, func() {
			res, err := Solve(p, &Settings{MaxIter: k, Fixed: true, RecordDual: true})
			require.NoError(t, err)
			require.Equal(t, Accelerated, res.Rule)
		})
	}
	assert.Equal(t, acc(10), acc(2000), "Accelerated: allocations grow with iterations (10 steps, 2000 steps)")
}

// BenchmarkIteration_Banded_N2000 is one dual step on a banded C with
// nnz(C) ≈ 3N: compressed rows make it O(nnz), not O(N²).
func BenchmarkIteration_Banded_N2000(b *testing.B) {
	p := sparseNetwork(rand.New(rand.NewPCG(2000, 1)), 2000)
	benchSteps(b, p, nil)
}

// BenchmarkIteration_FastControl_N200 is one dual step with β measured
// by FastControl (Poisson counts, loss, delay): O(nnz(C)) as well.
func BenchmarkIteration_FastControl_N200(b *testing.B) {
	p, _ := bench200()
	benchSteps(b, p, func(run int) *FastControl {
		return &FastControl{Gamma: 10, Window: 1, Loss: 0.1, Delay: 2, Src: rand.NewPCG(1, uint64(run))}
	})
}

// BenchmarkPrimal_LP_N50 is the simplex path of Primal: LinearX and
// Overload costs, primal and dual LP on N = 50.
func BenchmarkPrimal_LP_N50(b *testing.B) {
	rng := rand.New(rand.NewPCG(50, 50))
	nw := randNetwork(rng, 50)
	f := make([]Cost, 50)
	h := make([]Cost, 50)
	for i := range f {
		f[i] = LinearX{W: 0.5 + rng.Float64(), A: nw.A[i]}
		h[i] = Overload{C: 1 + 3*rng.Float64(), T: nw.T[i]}
	}
	p, err := NewProblem(nw, f, h, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ref, err := Primal(p, nil)
		if err != nil || !ref.Status.Converged() {
			b.Fatal(err, ref)
		}
	}
}

// BenchmarkSolve_Default_N200: the default settings (accelerated rule,
// certified relative gap 10⁻⁶) on the issue-4 instance; iters and evals
// are reported next to the time.
func BenchmarkSolve_Default_N200(b *testing.B) {
	p, ref := bench200()
	var res *Result
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if res, err = Solve(p, nil); err != nil {
			b.Fatal(err)
		}
	}
	if slack := 1e-9 * (1 + ref.Value); res.Best > ref.Value+slack || res.Upper < ref.Value-slack {
		b.Fatalf("[Best, Upper] = [%v, %v] misses P* = %v", res.Best, res.Upper, ref.Value)
	}
	b.ReportMetric(float64(res.Iter), "iters")
	b.ReportMetric(float64(res.Evals), "evals")
}
