package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
)

// TestHypercubeKirchhoffOverflow: K_f(Q_d) = 4^d Σ_j t_j/(2j) with
// t_j = C(d, j)/2^d, recomputed here from log-gamma (t_j ≤ 1, so nothing
// overflows before the final scaling). Lgamma is accurate to ~1e-15
// relative on arguments ≤ 517, i.e. ~4e-13 absolute on the exponents
// (≈ 360), so 1e-10 relative is ample. Beyond d = 516 the value exceeds
// MaxFloat64 and must be +Inf, not NaN.
func TestHypercubeKirchhoffOverflow(t *testing.T) {
	for _, d := range []int{100, 400, 516} {
		lgd, _ := math.Lgamma(float64(d + 1))
		var s float64
		for j := 1; j <= d; j++ {
			lj, _ := math.Lgamma(float64(j + 1))
			lr, _ := math.Lgamma(float64(d - j + 1))
			s += math.Exp(lgd-lj-lr-float64(d)*math.Ln2) / float64(2*j)
		}
		want := math.Ldexp(s, 2*d)
		got, err := HypercubeKirchhoff(d)
		if err != nil || math.IsInf(got, 0) || math.Abs(got/want-1) > 1e-10 {
			t.Errorf("d = %d: %v, %v, want %v", d, got, err, want)
		}
	}
	for _, d := range []int{517, 1030, 1 << 40, math.MaxInt} {
		if got, err := HypercubeKirchhoff(d); err != nil || !math.IsInf(got, 1) {
			t.Errorf("d = %d: %v, %v, want +Inf, nil", d, got, err)
		}
	}
}

// TestSumOverflowingIntermediate: a running sum that overflows on the
// way must not turn a representable total into NaN or Inf.
func TestSumOverflowingIntermediate(t *testing.T) {
	const big = 1e308
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{big, big, -big}, big}, {[]float64{big, -big, big}, big},
		{[]float64{-big, -big, big}, -big}, {[]float64{big, big, 1, -big, -big}, 1},
	} {
		if got := Sum(c.xs); got != c.want {
			t.Errorf("Sum(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
	if got := Sum([]float64{math.MaxFloat64, math.MaxFloat64}); !math.IsInf(got, 1) {
		t.Errorf("overflowing total: %v, want +Inf", got)
	}
	if got := Sum([]float64{math.Inf(1), 1, 2}); !math.IsInf(got, 1) {
		t.Errorf("+Inf term: %v, want +Inf", got)
	}
	if got := Sum([]float64{math.Inf(1), math.Inf(-1)}); !math.IsNaN(got) {
		t.Errorf("+Inf − Inf: %v, want NaN", got)
	}
	var k CompensatedSum
	for _, x := range []float64{math.Inf(1), 1, math.Inf(1)} {
		k.Add(x)
	}
	if !math.IsInf(k.Value(), 1) {
		t.Errorf("CompensatedSum of +Inf terms: %v, want +Inf", k.Value())
	}
}

func TestSketchProjectionsErrors(t *testing.T) {
	for _, c := range []struct {
		n    int
		set  SketchSettings
		want error
	}{
		{-5, SketchSettings{}, loadlab.ErrInvalid}, {0, SketchSettings{}, loadlab.ErrInvalid},
		{100, SketchSettings{Eps: -0.1}, loadlab.ErrInvalid}, {100, SketchSettings{Eps: 1}, loadlab.ErrInvalid}, {100, SketchSettings{Eps: math.NaN()}, loadlab.ErrInvalid},
		{100, SketchSettings{Miss: math.NaN()}, loadlab.ErrInvalid}, {100, SketchSettings{Miss: 1}, loadlab.ErrInvalid}, {100, SketchSettings{Miss: math.Inf(-1)}, loadlab.ErrInvalid},
		{100, SketchSettings{Eps: 1e-200}, loadlab.ErrTooLarge}, {1000000, SketchSettings{Eps: 1e-5, AllPairs: true}, loadlab.ErrTooLarge},
	} {
		if k, err := SketchProjections(c.n, &c.set); !errors.Is(err, c.want) {
			t.Errorf("SketchProjections(%d, %+v) = %d, %v, want %v", c.n, c.set, k, err, c.want)
		}
	}
	// The least k with P(|χ²_k/k − 1| > ε) ≤ δ, from SciPy 1.10
	// (chi2.cdf(k(1−ε), k) + chi2.sf(k(1+ε), k) searched over k):
	// ε = 0.3, δ = 0.05 → 85 (tail 0.0491; k = 84 gives > 0.05);
	// δ = 0.1 → 59; ε = 0.5 → 30; all pairs at n = 2000 (δ/1999000) → 785
	// and at n = 10⁶ → 1431. n does not matter without AllPairs.
	for _, c := range []struct {
		n    int
		set  SketchSettings
		want int
	}{
		{100, SketchSettings{}, 85}, {1, SketchSettings{Eps: 0.3}, 85}, {100, SketchSettings{Miss: 0.1}, 59},
		{100, SketchSettings{Eps: 0.5}, 30}, {2000, SketchSettings{AllPairs: true}, 785}, {1000000, SketchSettings{AllPairs: true}, 1431},
	} {
		if k, err := SketchProjections(c.n, &c.set); k != c.want || err != nil {
			t.Errorf("SketchProjections(%d, %+v) = %d, %v, want %d", c.n, c.set, k, err, c.want)
		}
	}
	for _, c := range []struct {
		k   int
		eps float64
	}{{-1, 0.1}, {0, 0.1}, {10, 0}, {10, 1}, {10, math.NaN()}, {10, -0.5}} {
		if p, err := SketchMiss(c.k, c.eps); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("SketchMiss(%d, %v) = %v, %v, want ErrInvalid", c.k, c.eps, p, err)
		}
	}
	// A settings ε whose square underflows is an error, not an endless run.
	if _, err := ApproxEdgeResistances(must(Path(4)), &SketchSettings{Eps: 1e-200}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("Eps = 1e-200: err = %v, want ErrTooLarge", err)
	}
}

// TestEstimateH2SmallPath: on P_5 a Rademacher probe is constant with
// probability 1/16, and the shifted solve of its projection P q = 0 used
// to divide 0 by 0 and never converge. The estimates must now match the
// closed forms over λ_k = 2 − 2 cos(πk/5) (spec throttlers.md §4.4).
// Each is a mean with a 95 % interval [Lo, Hi]; the truth must lie within
// two interval widths (≈ 8 standard errors: cannot fail by chance).
func TestEstimateH2SmallPath(t *testing.T) {
	const n = 5
	g := must(Path(n))
	for _, gamma := range []float64{0.1, 0.5} {
		var rho1, rho2 float64
		for k := 1; k < n; k++ {
			l := 2 - 2*math.Cos(math.Pi*float64(k)/n)
			rho1 += 2 / (2 - gamma*l)
			rho2 += 1 / (gamma * l * (2 - gamma*l))
		}
		h, err := EstimateH2(g, gamma, &TraceSettings{RelAcc: 0.05}, rand.NewPCG(1, 2))
		if err != nil || h.Status != loadlab.Success {
			t.Fatalf("γ = %v: %v, status %v", gamma, err, h.Status)
		}
		if math.Abs(h.Rho1.Mean-rho1) > 2*(h.Rho1.Hi-h.Rho1.Lo) || math.Abs(h.Rho2.Mean-rho2) > 2*(h.Rho2.Hi-h.Rho2.Lo) {
			t.Errorf("γ = %v: ρ₁ %+v (want %v), ρ₂ %+v (want %v)", gamma, h.Rho1, rho1, h.Rho2, rho2)
		}
	}
	// The constant right-hand side alone: x = 0 after no iterations.
	s := must(NewLaplacianSolver(g, nil, rand.NewPCG(1, 1)))
	x := []float64{1, 2, 3, 4, 5}
	if it, err := newShiftedCG(s.op, 0.5, 1e-6, 10).solve(x, []float64{-1, -1, -1, -1, -1}); it != 0 || err != nil || dot(x, x) != 0 {
		t.Errorf("constant b: %d iterations, %v, x = %v", it, err, x)
	}
}

// TestEstimateH2SolveLimitStatus: a solve stopped by MaxIter returns the
// partial result with Status IterationLimit (docs/conventions.md).
func TestEstimateH2SolveLimitStatus(t *testing.T) {
	g := must(Path(60))
	set := &TraceSettings{Solver: &SolverSettings{MaxIter: 2, Preconditioner: Jacobi}}
	h, err := EstimateH2(g, 0.1, set, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || h.Status != loadlab.IterationLimit {
		t.Errorf("err = %v, status %v, want ErrNotConverged, IterationLimit", err, h.Status)
	}
}
